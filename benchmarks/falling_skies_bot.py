"""The falling-skies planner bot: win rate at a level and time per decision, on one process.

    PYTHONPATH=src python benchmarks/falling_skies_bot.py --level 1 --games 1000 --minutes 20

Plays games with seeds seed, seed+1, ... until ``--games`` are done or ``--minutes`` have
passed (a game started is finished), then prints the win rate with its 95% Wilson interval,
the average research reached and rounds played, and the time per decision (mean, 99th
percentile, slowest) measured around each call to the bot: wall-clock time, and the process's
CPU time (what the decision costs whatever else the machine runs). ``--out`` appends one JSON
line per game (with its decisions' times), so a long run can be read while it goes and runs side
by side can be merged.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import cast

import spacetable
from spacetable.engine import Action, State, play
from spacetable.games.falling_skies.bots.planner import RoundPlanner
from spacetable.games.falling_skies.rules.state import FallingSkiesState
from spacetable.sim.tournament import wilson


class Timed:
    """The planner with a stopwatch (wall clock and CPU) around each decision."""

    name = "planner"

    def __init__(self) -> None:
        self.planner = RoundPlanner()
        self.seconds: list[float] = []
        self.cpu_seconds: list[float] = []

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.planner.choose(state, seat, rng)
        self.seconds.append(time.perf_counter() - start)
        self.cpu_seconds.append(time.process_time() - cpu)
        return action


def spread(seconds: list[float]) -> str:
    """Mean, 99th percentile and slowest of ``seconds``, in ms."""
    times = sorted(seconds)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return f"{1000 * statistics.mean(times):.0f} ms mean, {1000 * p99:.0f} ms p99, {1000 * times[-1]:.0f} ms slowest"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=None, help="stop starting games after this long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="append one JSON line per game")
    args = parser.parse_args()

    game = spacetable.load("falling-skies", options={"level": args.level})
    bot = Timed()
    start = time.perf_counter()
    wins = 0
    research: list[int] = []
    rounds: list[int] = []
    played = 0
    while played < args.games and (args.minutes is None or time.perf_counter() - start < 60 * args.minutes):
        seed = args.seed + played
        first = len(bot.seconds)
        final = cast(FallingSkiesState, play(game, [bot], random.Random(seed)))
        won = final.result == "won"
        wins += won
        research.append(final.research)
        rounds.append(final.round)
        played += 1
        if args.out is not None:
            with args.out.open("a") as out:
                line = {
                    "level": args.level,
                    "seed": seed,
                    "won": won,
                    "research": research[-1],
                    "round": rounds[-1],
                    "damage": final.damage,
                    "reason": final.reason,
                    "wall_ms": [round(1000 * t, 1) for t in bot.seconds[first:]],
                    "cpu_ms": [round(1000 * t, 1) for t in bot.cpu_seconds[first:]],
                }
                out.write(json.dumps(line) + "\n")
    elapsed = time.perf_counter() - start
    low, high = wilson(wins, played)
    print(
        f"falling-skies level {args.level}: {wins}/{played} won, {100 * wins / played:.1f}% "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f}); research {statistics.mean(research):.2f} of 14, "
        f"rounds {statistics.mean(rounds):.1f}; {elapsed / played:.1f} s a game; per decision "
        f"{spread(bot.seconds)} (CPU {spread(bot.cpu_seconds)}; {len(bot.seconds)} decisions)"
    )


if __name__ == "__main__":
    main()
