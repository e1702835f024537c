# %% [markdown]
# # NFSP on a two-captain Starship Showdown
#
# OpenSpiel's Neural Fictitious Self-Play (`open_spiel.python.pytorch.nfsp`) learns from the
# information state tensor (docs/INTEROP.md, "Information state tensors"): each seat's observation tensor and its
# memory of the draft (the packs it saw, its picks, the countermeasures it saw face up), handed
# out by `rl_environment` as `info_state`. The table is the smallest the game allows from a game
# string: two captains (the final duel: ships burn from round 1, so games are short); the deck
# and the hands are the printed ones (only `content`, which OpenSpiel cannot carry, changes them).
#
#     pip install 'torch==2.13.0+cpu' -e '.[rl]' dm-tree     # OpenSpiel's torch NFSP imports dm-tree
#     python examples/nfsp_showdown.py --minutes 3 --games 400
#
# After training, NFSP's average policy (the one that approaches an equilibrium) plays N games
# against a uniformly random seat and against spacetable's greedy bot, taking each seat half
# of the time; a win share of 1/2 is an even match. Intervals are Wilson's, 95%. The
# exploitability proxy: each seat's best-response network (NFSP's DQN, trained against the
# other seat's average policy) plays against that average policy, and the proxy is the sum of
# the two best responses' win shares minus 1 (NashConv in this constant-sum game, estimated from
# below: the networks are approximate best responses, and the shares are sampled). Exact
# exploitability would need the whole game tree, far beyond reach here. OpenSpiel's R-NaD and
# the other JAX algorithms cannot run: JAX is not installed with spacetable.

# %%
from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import nfsp

from spacetable.agents import make_agent
from spacetable.interop.openspiel import SpielState  # importing it registers spacetable_<game>
from spacetable.interop.sequential import choose_code
from spacetable.sim.tournament import wilson

GAME = "spacetable_showdown(players=2)"
Chooser = Callable[[SpielState, int], int]
"""A seat's policy at a decision: the action code it plays."""

# %%
parser = argparse.ArgumentParser(description="NFSP on a two-captain showdown")
parser.add_argument("--minutes", type=float, default=3.0, help="training time")
parser.add_argument("--games", type=int, default=400, help="evaluation games per opponent")
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()

game = pyspiel.load_game(GAME)
env = rl_environment.Environment(game, seed=args.seed)
size = env.observation_spec()["info_state"][0]
actions = env.action_spec()["num_actions"]
print(f"{game}: information state tensor of {size} numbers, {actions} action codes")

# %% [markdown]
# ## Training: both seats learn by self-play for the time given

# %%
agents = [
    nfsp.NFSP(
        seat,
        state_representation_size=size,
        num_actions=actions,
        hidden_layers_sizes=[128],
        reservoir_buffer_capacity=200_000,
        anticipatory_param=0.1,
        batch_size=128,
        rl_learning_rate=0.01,
        sl_learning_rate=0.01,
        min_buffer_size_to_learn=1000,
        learn_every=64,
        replay_buffer_capacity=200_000,
        epsilon_decay_duration=100_000,
        epsilon_start=0.06,
        epsilon_end=0.001,
        seed=args.seed + seat,
    )
    for seat in range(2)
]
start, episodes = time.monotonic(), 0
while time.monotonic() - start < 60 * args.minutes:
    time_step = env.reset()
    while not time_step.last():
        seat = time_step.observations["current_player"]
        time_step = env.step([agents[seat].step(time_step).action])
    for agent in agents:
        agent.step(time_step)
    episodes += 1
print(f"trained {episodes} games in {time.monotonic() - start:.0f} s")

# %% [markdown]
# ## Evaluation


# %%
def network(agent: nfsp.NFSP, mode: nfsp.MODE) -> Chooser:
    """The agent's average policy (``MODE.AVERAGE_POLICY``) or best response, sampled, no learning."""

    def choose(state: SpielState, seat: int) -> int:
        legal = state.legal_actions(seat)
        observations = {"info_state": [state.information_state_tensor(p) for p in range(2)]}
        observations.update(legal_actions=[legal if p == seat else [] for p in range(2)], current_player=seat)
        step = rl_environment.TimeStep(observations, None, None, rl_environment.StepType.MID)
        with agent.temp_mode_as(mode):
            return int(agent.step(step, is_evaluation=True).action)

    return choose


def uniform(rng: np.random.RandomState) -> Chooser:
    return lambda state, seat: int(rng.choice(state.legal_actions(seat)))


def greedy(rng: random.Random) -> Chooser:
    """spacetable's greedy bot, thinking on worlds re-dealt for its seat only."""
    bot = make_agent("greedy")
    return lambda state, seat: choose_code(state.engine_state, seat, bot, rng)


def play(players: list[Chooser], rng: np.random.RandomState) -> list[float]:
    """One game, ``players[s]`` choosing for seat ``s`` and chance drawn from ``rng``: the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probabilities))
        else:
            seat = state.current_player()
            state.apply_action(players[seat](state, seat))
    return list(state.returns())


def report(label: str, won: float, games: int) -> float:
    low, high = wilson(won, games)
    print(f"{label}: win share {won / games:.3f} [{low:.3f}, {high:.3f}] over {games} games")
    return won / games


rng, bot_rng = np.random.RandomState(args.seed + 10), random.Random(args.seed + 10)
average = [network(agent, nfsp.MODE.AVERAGE_POLICY) for agent in agents]


def trained(state: SpielState, seat: int) -> int:
    """NFSP's average policy: each seat's network plays the seat it learned."""
    return average[seat](state, seat)


for name, opponent in (("random", uniform(rng)), ("greedy", greedy(bot_rng))):
    # the trained policy takes seat 0 in even games, seat 1 in odd ones (a shared win counts half)
    won = sum(play([trained, opponent] if n % 2 == 0 else [opponent, trained], rng)[n % 2] for n in range(args.games))
    report(f"NFSP average policy vs {name}", won, args.games)

# %% [markdown]
# ## Exploitability proxy: each best response against the other seat's average policy

# %%
shares = []
for seat in range(2):
    response = network(agents[seat], nfsp.MODE.BEST_RESPONSE)
    players = [response, average[1]] if seat == 0 else [average[0], response]
    won = sum(play(players, rng)[seat] for _ in range(args.games))
    shares.append(report(f"seat {seat}'s best response vs seat {1 - seat}'s average policy", won, args.games))
print(f"exploitability proxy (NashConv from below): {sum(shares) - 1:.3f}")
