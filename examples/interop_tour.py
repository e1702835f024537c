# %% [markdown]
# # spacetable for AI research: a tour of the three adapters
#
# A random agent and a Monte Carlo tree search agent play through OpenSpiel, PettingZoo and
# Gymnasium. Nothing is trained. Run it as a script (`python examples/interop_tour.py`, after
# `pip install -e '.[rl]'`) or cell by cell in an editor that knows `# %%` cells. See
# docs/INTEROP.md for what each adapter offers.

# %%
import random

import gymnasium
import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import spacetable.interop.gymnasium  # noqa: F401  (importing it registers spacetable/<Game>-v0)
from spacetable.agents import make_agent
from spacetable.interop import pettingzoo
from spacetable.interop.openspiel import HeuristicEvaluator, resampler  # importing it registers spacetable_<game>
from spacetable.interop.sequential import choose_code

SEED = 1
rng = np.random.RandomState(SEED)

# %% [markdown]
# ## OpenSpiel
#
# Every game is a pyspiel game: chance nodes for every roll and draw, integer actions from the
# game's codec, observations that are exactly what a seat may see.

# %%
game = pyspiel.load_game("spacetable_showdown(players=3)")
state = game.new_initial_state()
while state.is_chance_node():  # the deal: one chance node per card
    outcomes, probabilities = zip(*state.chance_outcomes())
    state.apply_action(rng.choice(outcomes, p=probabilities))
print(game, "| actions:", game.num_distinct_actions(), "| observation tensor:", game.observation_tensor_shape())
print("seat 0 decides:", [state.action_to_string(0, a) for a in state.legal_actions()][:4], "...")
print("seat 0's information state:", state.information_state_string(0))


# %%
def play_openspiel(game, bots, rng):
    """A whole game; seats without a bot play at random."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probabilities))
        elif state.current_player() in bots:
            state.apply_action(bots[state.current_player()].step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


# OpenSpiel's C++ MCTS and ISMCTS bots crash on Python games: its Python bots work. MCTS
# searches the true state (it sees the others' cards); ISMCTS searches worlds re-dealt from
# what its seat knows, through the resampler.
evaluator = HeuristicEvaluator()  # the game's own evaluation: no rollouts
mcts_bot = mcts.MCTSBot(game, uct_c=1.0, max_simulations=40, evaluator=evaluator, random_state=rng)
ismcts_bot = ismcts.ISMCTSBot(
    game, evaluator, uct_c=1.0, max_simulations=40, random_state=rng, allow_inconsistent_action_sets=True
)
ismcts_bot.set_resampler(resampler(SEED))
print("showdown, MCTS / ISMCTS / random:", play_openspiel(game, {0: mcts_bot, 1: ismcts_bot}, rng))

solo = pyspiel.load_game("spacetable_falling_skies(level=1)")
solo_bot = mcts.MCTSBot(solo, uct_c=1.0, max_simulations=40, evaluator=evaluator, random_state=rng)
print("falling-skies, MCTS:", play_openspiel(solo, {0: solo_bot}, rng))

# %% [markdown]
# ## PettingZoo
#
# A turn-based (AEC) environment per game: the agent selected is the seat that decides. The
# legal actions are in `infos[agent]["action_mask"]`. spacetable's own bots play through it with
# `choose_code`, thinking only on a resample of their seat.

# %%
env = pettingzoo.env("showdown", players=3)
env.reset(seed=SEED)
search = make_agent("easy")  # spacetable's information-set MCTS (50 iterations a decision)
bot_rng = random.Random(SEED)
for agent in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        print(f"{agent}: reward {reward}")
        env.step(None)
    elif agent == "player_0":
        env.step(choose_code(env.unwrapped.engine_state, 0, search, bot_rng))
    else:
        env.step(rng.choice(np.flatnonzero(info["action_mask"])))

# %% [markdown]
# In `parallel_env`, every seat that decides now acts in the same step: a draft round is one step.

# %%
together = pettingzoo.parallel_env("showdown", players=3)
observations, infos = together.reset(seed=SEED)
actions = {agent: rng.choice(np.flatnonzero(info["action_mask"])) for agent, info in infos.items()}
together.step(actions)
print("cards picked after one parallel step:", together.unwrapped.engine_state.picks)

# %% [markdown]
# ## Gymnasium
#
# The games that can be played solo, one seat against the game.

# %%
solo_env = gymnasium.make("spacetable/FallingSkies-v0", level=1, render_mode="ansi")
for name in ("random", "normal"):
    observation, info = solo_env.reset(seed=SEED)
    bot = make_agent(name)
    terminated = False
    while not terminated:
        action = choose_code(solo_env.unwrapped.engine_state, 0, bot, bot_rng)
        observation, reward, terminated, truncated, info = solo_env.step(action)
    outcome = solo_env.unwrapped.engine_state.outcome()
    print(f"falling-skies, {name}: reward {reward}, research reached {outcome.scores[0]:.0f} ({outcome.reason})")
print(solo_env.render().splitlines()[0])
