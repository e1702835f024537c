# %% [markdown]
# # Self-play on multi-player games with MaskablePPO
#
# MaskablePPO (sb3-contrib) learns one seat of Starship Showdown (4 captains) and of SpaceRace
# (3 players) against an opponent pool that starts with the random bot and grows with frozen
# copies of the learner every `--freeze-every` steps (`spacetable.interop.selfplay`). Then the
# trained learner, and a uniformly random masked learner for comparison, play `--games` games
# against random bots and against greedy bots at a seat drawn each game; the table gives their
# win shares with Wilson 95% intervals.
#
#     pip install 'torch==2.13.0+cpu' -e '.[train]'
#     python examples/selfplay.py --minutes 2 --games 200
#
# Run it as a script, or cell by cell in an editor that knows `# %%` cells. docs/INTEROP.md,
# "Self-play (multi-player training)", has the figures of a run.

# %%
import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from statsmodels.stats.proportion import proportion_confint

from spacetable.interop.selfplay import OpponentPool, SelfPlayEnv, frozen_copy

TABLES = (("showdown", 4), ("spacerace", 3))
"""The games trained on, with their seats."""

parser = argparse.ArgumentParser(description="MaskablePPO by self-play on showdown (4) and spacerace (3)")
parser.add_argument("--minutes", type=float, default=3.0, help="training time per game (wall clock)")
parser.add_argument("--games", type=int, default=200, help="evaluation games per learner and opponent")
parser.add_argument("--freeze-every", type=int, default=4096, help="steps between frozen copies added to the pool")
parser.add_argument("--reward", choices=("win", "shaped"), default="shaped")
parser.add_argument("--seed", type=int, default=0)
args, _ = parser.parse_known_args()  # known only: an editor running the cells passes its own
torch.set_num_threads(1)


# %%
class SelfPlay(BaseCallback):
    """Puts a frozen copy of the learner in the pool every ``freeze_every`` steps; ends training
    once ``seconds`` of wall clock are spent."""

    def __init__(self, pool: OpponentPool, freeze_every: int, seconds: float) -> None:
        super().__init__()
        self.pool = pool
        self.freeze_every = freeze_every
        self.next_freeze = freeze_every
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_freeze:
            self.pool.add(frozen_copy(self.model, f"copy@{self.num_timesteps}"))
            self.next_freeze += self.freeze_every
        return time.monotonic() < self.deadline


def train(game: str, players: int) -> tuple[MaskablePPO, OpponentPool]:
    """A learner trained by self-play for ``--minutes``; the pool it ended with."""
    pool = OpponentPool(["random"])
    # one pool shared by the environments (make_vec_env's DummyVecEnv keeps them in this process)
    settings = {"game": game, "players": players, "opponents": pool, "reward": args.reward}
    envs = make_vec_env(SelfPlayEnv, n_envs=4, seed=args.seed, env_kwargs=settings)
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=512, batch_size=256, learning_rate=3e-4, ent_coef=0.01, seed=args.seed, device="cpu"
    )
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=SelfPlay(pool, args.freeze_every, 60 * args.minutes))
    minutes = (time.monotonic() - start) / 60
    trained = f"trained on {game} ({players}): {model.num_timesteps} steps in {minutes:.1f} minutes"
    print(f"{trained}, {len(pool) - 1} frozen copies in the pool")
    return model, pool


# %%
def wins_against(policy, game: str, players: int, opponent: str, games: int, seed: int) -> int:
    """Games the learner wins (its seat among the winners) of ``games`` against ``opponent``
    bots in every other seat, its actions from ``policy(observation, mask)``."""
    env = SelfPlayEnv(game, players, opponents=[opponent])
    wins = 0
    for number in range(games):
        observation, info = env.reset(seed=seed + number)
        over = cut = False
        while not (over or cut):
            observation, _, over, cut, info = env.step(policy(observation, info["action_mask"]))
        wins += env.seat in env.engine_state.outcome().winners
    return wins


def evaluate(model: MaskablePPO, game: str, players: int) -> list[tuple]:
    """Rows of the table: the trained learner and a random one against random and greedy bots."""
    rng = np.random.default_rng(args.seed)
    learners = {
        "trained": lambda observation, mask: int(model.predict(observation, action_masks=mask, deterministic=True)[0]),
        "random": lambda _observation, mask: int(rng.choice(np.flatnonzero(mask))),
    }
    evaluation_seed = 10_000 + args.seed  # games the learner never trained on
    rows = []
    for opponent in ("random", "greedy"):
        for name, policy in learners.items():
            wins = wins_against(policy, game, players, opponent, args.games, evaluation_seed)
            low, high = proportion_confint(wins, args.games, alpha=0.05, method="wilson")
            rows.append((f"{game} ({players})", name, opponent, wins, low, high))
    return rows


# %%
rows = []
for game, players in TABLES:
    model, pool = train(game, players)
    rows += evaluate(model, game, players)

print(f"\nwin share over {args.games} games a row (a fair share is 1/players), Wilson 95% interval")
print(f"{'game':<15}{'learner':<9}{'opponents':<11}{'wins':>6}{'share':>8}  95% interval")
for table, learner, opponent, wins, low, high in rows:
    share = wins / args.games
    print(f"{table:<15}{learner:<9}{opponent:<11}{wins:>6}{share:>8.3f}  [{low:.3f}, {high:.3f}]")
