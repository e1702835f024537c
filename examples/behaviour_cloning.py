# %% [markdown]
# # Behaviour cloning from a trajectory dataset
#
# `spacetable trajectories` writes bot games one row per decision (docs/INTEROP.md, "Datasets").
# Here the greedy bot's games become a dataset, a small torch MLP learns to pick the greedy
# bot's action among the legal codes of each row (a masked softmax: only legal codes score),
# and the clone then plays on games it never saw, beside its teacher and a random player.
#
#     pip install 'torch==2.13.0+cpu' -e '.[train,lab]'
#     python examples/behaviour_cloning.py --minutes 0.5                    # falling-skies
#     python examples/behaviour_cloning.py --game showdown --minutes 0.5    # greedy seat 0 of 4
#
# Falling-skies is solo: the figures are the research spaces reached (the game's score, of 14)
# and the win rate. In showdown the greedy bot sits in seat 0 against three random seats and
# only its rows are learned (the dataset's `bot` column); the figure is seat 0's win share
# (a fair share is 1/4). Intervals are 95%: Wilson's for rates, mean ± 1.96 standard errors.

# %%
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
import pyarrow.compute as pc
import torch

import spacetable
from spacetable.agents import make_agent
from spacetable.engine import Action, State, play
from spacetable.sim.tournament import wilson
from spacetable.sim.trajectories import read_settings, read_trajectories, write_trajectories

TABLES = {
    "falling-skies": (1, ["greedy"]),
    "showdown": (4, ["greedy", "random", "random", "random"]),
}
"""Each game's seats: the greedy teacher in seat 0, random players elsewhere."""

parser = argparse.ArgumentParser(description="Clone the greedy bot from a trajectory dataset.")
parser.add_argument("--game", choices=sorted(TABLES), default="falling-skies")
parser.add_argument("--minutes", type=float, default=2.0, help="training time (wall clock)")
parser.add_argument("--games", type=int, default=200, help="teacher games in the dataset")
parser.add_argument("--episodes", type=int, default=100, help="games to score each player on")
parser.add_argument("--jobs", type=int, default=2, help="processes writing the dataset")
parser.add_argument("--data", type=Path, default=None, help="the dataset (default: /tmp/spacetable-bc/GAME-SEED)")
parser.add_argument("--seed", type=int, default=0)
args, _ = parser.parse_known_args()  # known only: an editor running the cells passes its own
torch.manual_seed(args.seed)
torch.set_num_threads(1)
players, seats = TABLES[args.game]
game = spacetable.load_finite(args.game, players)

# %% [markdown]
# ## The dataset
#
# Written once (a second run resumes it: it plays only the games missing; a larger one is only
# read), then read back with pyarrow. The first `--games` games are used, and of them only the
# teacher's rows; the legal codes become a mask over the codec.

# %%
folder = args.data or Path("/tmp/spacetable-bc") / f"{args.game}-{args.seed}"
folder.parent.mkdir(parents=True, exist_ok=True)
started = time.monotonic()
written = read_settings(folder).games if folder.exists() else 0
kept, played = write_trajectories(
    game, seats, max(args.games, written), folder, args.seed, args.jobs, resume=folder.exists()
)
print(f"dataset: {played} games played, {kept} kept, in {time.monotonic() - started:.0f} s ({folder})")

settings, table = read_trajectories(folder)
table = table.filter(pc.and_(pc.less(table.column("game"), args.games), pc.equal(table.column("bot"), "greedy")))
rows = table.num_rows
size, codes = int(np.prod(settings.observation_shape)), settings.actions
observations = torch.from_numpy(
    table.column("observation").combine_chunks().values.to_numpy().reshape(rows, size).copy()
)
legal = table.column("legal").combine_chunks()
mask = torch.zeros(rows, codes, dtype=torch.bool)  # the legal mask, rebuilt from the codes
lengths = np.diff(legal.offsets.to_numpy())
row_of_code = torch.from_numpy(np.repeat(np.arange(rows), lengths))
mask[row_of_code, torch.from_numpy(legal.values.to_numpy().astype(np.int64))] = True
actions = torch.from_numpy(table.column("action").to_numpy().astype(np.int64))
held_out = torch.from_numpy(table.column("game").to_numpy() % 10 == 0)  # a tenth of the games, to check on
print(f"{rows} decisions of the teacher, {int(lengths.mean())} legal codes of {codes} on average")

# %% [markdown]
# ## Training: a masked softmax over the legal codes

# %%
model = torch.nn.Sequential(
    torch.nn.Linear(size, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, codes)
)
optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)


def masked_logits(x: torch.Tensor, legal_mask: torch.Tensor) -> torch.Tensor:
    """The network's scores with every illegal code at -inf: a softmax gives them nothing."""
    return model(x).masked_fill(~legal_mask, float("-inf"))


def accuracy(which: torch.Tensor) -> float:
    """How often the clone's best legal code is the teacher's (the greedy bot breaks ties at random)."""
    with torch.no_grad():
        return float((masked_logits(observations[which], mask[which]).argmax(1) == actions[which]).float().mean())


train = torch.nonzero(~held_out).squeeze(1)
deadline, epochs = time.monotonic() + 60 * args.minutes, 0
while time.monotonic() < deadline:
    for batch in train[torch.randperm(len(train))].split(256):
        loss = torch.nn.functional.cross_entropy(masked_logits(observations[batch], mask[batch]), actions[batch])
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    epochs += 1
print(f"{epochs} epochs: the teacher's pick in {accuracy(~held_out):.1%} of rows ({accuracy(held_out):.1%} held out)")

# %% [markdown]
# ## The clone at the table
#
# A spacetable player: handed its seat's resample like every bot, it scores the legal codes of
# its observation tensor and plays the best.


# %%
class Clone:
    name = "clone"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)
        encoded = torch.tensor([game.actions.encode(action) for action in legal])
        observation = torch.as_tensor(np.asarray(game.observation_tensor(state, seat), dtype=np.float32))
        with torch.no_grad():
            scores = model(observation)[encoded]
        return legal[int(scores.argmax())]


def seat_0(player: object, episodes: int) -> tuple[list[float], list[float]]:
    """Seat 0's score (falling-skies: the research spaces reached) and win share in ``episodes``
    games the dataset never held (their seeds differ), the other seats random."""
    scores, shares = [], []
    for episode in range(episodes):
        table_players = [player] + [make_agent("random") for _ in range(players - 1)]
        outcome = play(game, table_players, random.Random(f"evaluation {args.seed}:{episode}")).outcome()
        scores.append(outcome.scores[0])
        shares.append(1 / len(outcome.winners) if 0 in outcome.winners else 0.0)
    return scores, shares


def mean_interval(values: list[float]) -> str:
    mean, half = np.mean(values), 1.96 * np.std(values, ddof=1) / np.sqrt(len(values))
    return f"{mean:5.2f} [{mean - half:5.2f}, {mean + half:5.2f}]"


rate = "win rate" if players == 1 else "win share"
print(f"seat 0 over {args.episodes} games each, with 95% intervals:")
for name, player in (("greedy (teacher)", make_agent("greedy")), ("clone", Clone()), ("random", make_agent("random"))):
    scores, shares = seat_0(player, args.episodes)
    low, high = wilson(sum(shares), len(shares))
    research = f"research reached {mean_interval(scores)}, " if args.game == "falling-skies" else ""
    print(f"{name:>16}: {research}{rate} {np.mean(shares):5.1%} [{low:5.1%}, {high:5.1%}]")
