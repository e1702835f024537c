"""Fit the falling-skies evaluation's weights (``heuristic.WEIGHTS``) to games the planner played.

    PYTHONPATH=src python tools/fit_falling_skies_value.py play --level 1 --games 200 --seed 30001 --out a.jsonl
    PYTHONPATH=src python tools/fit_falling_skies_value.py fit a.jsonl b.jsonl --held-out c.jsonl

``play`` lets the planner (with today's weights) play games with seeds seed, seed+1, ... and
appends one JSON line a game: its level, seed, result, and the state at the start of every round.
``fit`` reads such files, measures each position with ``heuristic.features`` and fits the chance
that the game was won by logistic regression (Newton's method, a small L2 penalty), then prints
the log-loss on its positions and on ``--held-out`` positions (beside a constant and the evaluation
of today's weights, each refitted to the same positions), the weights as a ``WEIGHTS``
table to paste into ``heuristic.py``. Weights fitted to one version's games change how the next
version plays: play again with the new weights and refit on all the games until the win rate
stops rising (``benchmarks/README.md`` records the rounds behind today's weights).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

try:
    import numpy as np
except ImportError:
    sys.exit("this tool needs numpy: pip install -e '.[rl]' (make test installs it)")

import spacetable
from spacetable.engine import step
from spacetable.games.falling_skies.bots import heuristic
from spacetable.games.falling_skies.bots.planner import RoundPlanner
from spacetable.games.falling_skies.content import ROBOT
from spacetable.games.falling_skies.rules.state import FallingSkiesState

PENALTY = 0.01
"""The L2 penalty on the weights (keeps features that never vary, or vary together, finite)."""


def play(level: int, games: int, seed: int, out: Path) -> None:
    """Append ``games`` planner games, each with its round-start states, to ``out``."""
    game = spacetable.load("falling-skies", options={"level": level})
    for n in range(seed, seed + games):
        bot, rng = RoundPlanner(), random.Random(n)
        state = game.new_initial_state()
        assert isinstance(state, FallingSkiesState)
        starts = []
        while not state.is_terminal():
            if _round_start(state):
                starts.append(state.to_json())
            step(state, [bot], rng)
        line = {"level": level, "seed": n, "won": state.result == "won", "research": state.research, "states": starts}
        with out.open("a") as file:
            file.write(json.dumps(line) + "\n")


def _round_start(state: FallingSkiesState) -> bool:
    """Whether the round's dice are all still to roll (only robots stand on the base)."""
    dice = state.board.dice
    return (
        state.phase == "roll"
        and not state.unplaced
        and len(state.to_roll) == len(dice)
        and all(color == ROBOT for color, _ in state.slots.values())
    )


def positions(paths: list[Path]) -> tuple[list[tuple[float, ...]], list[float], list[float]]:
    """Every recorded position's features, whether its game was won, and today's value of it."""
    games: dict[int, spacetable.Game] = {}
    rows, won, today = [], [], []
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            try:
                record = json.loads(line)
                level = record["level"]
                if level not in games:
                    games[level] = spacetable.load("falling-skies", options={"level": level})
                states = [games[level].state_from_json(data) for data in record["states"]]
                result = float(record["won"])
            except (ValueError, KeyError, TypeError) as error:  # JSON's and the game's own errors are ValueErrors
                sys.exit(f"{path}:{number}: not a recorded game ({type(error).__name__}: {error})")
            for state in states:
                assert isinstance(state, FallingSkiesState)
                rows.append(heuristic.features(state))
                won.append(result)
                today.append(heuristic.static_value(state) / heuristic.WIN)
    return rows, won, today


def fit(rows: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Logistic regression weights for ``won`` (1 or 0 a row) given ``rows`` of features."""
    weights = np.zeros(rows.shape[1])
    for _ in range(100):
        chance = 1 / (1 + np.exp(-(rows @ weights)))
        gradient = rows.T @ (chance - won) + PENALTY * weights
        hessian = (rows * (chance * (1 - chance))[:, None]).T @ rows + PENALTY * np.eye(len(weights))
        change = np.linalg.solve(hessian, gradient)
        weights -= change
        if np.abs(change).max() < 1e-9:
            break
    return weights


def log_loss(rows: np.ndarray, won: np.ndarray, weights: np.ndarray) -> float:
    chance = np.clip(1 / (1 + np.exp(-(rows @ weights))), 1e-12, 1 - 1e-12)
    return float(-np.mean(won * np.log(chance) + (1 - won) * np.log(1 - chance)))


def _as_logit(values: np.ndarray) -> np.ndarray:
    """Today's values as a logistic model's rows: a constant and the logit of the chance they say."""
    return np.column_stack([np.ones(len(values)), np.arctanh(np.clip(values, -0.999999, 0.999999))])


def report(paths: list[Path], held_out: list[Path]) -> None:
    """Fit to the games in ``paths``; print the log-losses and the weights (see the module's doc)."""
    rows, won, today = (np.array(part) for part in positions(paths))
    if not len(won) or won.min() == won.max():
        sys.exit("fit needs positions from both won and lost games")
    weights = fit(rows, won)
    today_weights = fit(_as_logit(today), won)  # today's evaluation, its scale refitted to these positions
    constant = np.array([math.log(won.mean() / (1 - won.mean()))])
    print(f"{len(won)} positions, {100 * won.mean():.1f}% from won games")
    print(
        f"log-loss on them: fitted {log_loss(rows, won, weights):.4f}, today's weights "
        f"{log_loss(_as_logit(today), won, today_weights):.4f}, a constant {log_loss(rows[:, :1], won, constant):.4f}"
    )
    if held_out:
        held_rows, held_won, held_today = (np.array(part) for part in positions(held_out))
        print(
            f"log-loss held out ({len(held_won)} positions): fitted {log_loss(held_rows, held_won, weights):.4f}, "
            f"today's weights {log_loss(_as_logit(held_today), held_won, today_weights):.4f}"
        )
    print("WEIGHTS = {")
    for name, weight in zip(heuristic.FEATURES, weights, strict=True):
        print(f"    {json.dumps(name)}: {weight:.3f},")
    print("}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="record planner games")
    playing.add_argument("--level", type=int, default=1)
    playing.add_argument("--games", type=int, default=100)
    playing.add_argument("--seed", type=int, default=30001)
    playing.add_argument("--out", type=Path, required=True)
    fitting = commands.add_parser("fit", help="fit the weights to recorded games")
    fitting.add_argument("games", type=Path, nargs="+")
    fitting.add_argument("--held-out", type=Path, nargs="*", default=[])
    args = parser.parse_args()
    if args.command == "play":
        play(args.level, args.games, args.seed, args.out)
    else:
        missing = [p for p in [*args.games, *args.held_out] if not p.is_file()]
        if missing:
            sys.exit(f"no such file: {missing[0]}")
        report(args.games, args.held_out)


if __name__ == "__main__":
    main()
