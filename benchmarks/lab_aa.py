"""The report's false calls in A/A comparisons: one run split at random into two halves, compared.

    PYTHONPATH=src python benchmarks/lab_aa.py [--splits 200] [--folder /tmp/lab-aa] [--jobs 2]

The halves are games of the same rules, seats and bots, so every change the report calls
significant is a false call. For each workload (Showdown, 4 random bots, 600 games; Mothership,
2 random bots, 200 games) the script plays the run once (or reuses it from ``--folder``), then for
each of ``--splits`` seeded random splits compares the halves with ``report.compare`` and counts
the splits where any figure of a family was called significant: Holm's correction within each
family should keep that at or under 5% (family-wise). It prints, per family, the false-call rate
with its 95% Wilson interval, the same for "any figure at p < 0.05 before the correction" (what
an uncorrected report would call), and for both families together.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from statsmodels.stats.proportion import proportion_confint

from spacetable.engine import load_finite
from spacetable.sim.report import DETAIL, HEADLINE, compare, summary
from spacetable.sim.simulate import read_run, simulate

WORKLOADS = {
    "showdown": (4, ["random"] * 4, 600),
    "mothership": (2, ["random"] * 2, 200),
}


def run_file(folder: Path, game_id: str, jobs: int) -> Path:
    """The workload's run, played once into ``folder`` (a finished file there is reused)."""
    players, seats, games = WORKLOADS[game_id]
    out = folder / f"{game_id}-aa.parquet"
    if not out.exists():
        started = time.perf_counter()
        simulate(load_finite(game_id, players), seats, games, out, seed=40, jobs=jobs)
        print(f"{game_id}: {games} games played in {time.perf_counter() - started:.0f} s", flush=True)
    return out


def rate(calls: int, splits: int) -> str:
    low, high = proportion_confint(calls, splits, alpha=0.05, method="wilson")
    return f"{calls}/{splits} = {calls / splits:.1%} (95% interval {low:.1%} to {high:.1%})"


def false_calls(path: Path, splits: int) -> None:
    settings, table = read_run(path)
    games = table.num_rows
    whole = summary(path, settings, table)
    headline, details = len(whole.headline()), len(whole.details())
    rates = sum(f.percent for f in whole.figures)
    print(
        f"\n{settings.game}, {settings.players} players, {games} games: {headline} headline figures, {details} "
        f"details ({len(whole.figures)} figures of Game.statistics: {rates} rates, {len(settings.headline)} "
        "marked headline)"
    )
    called = {HEADLINE: 0, DETAIL: 0, "either": 0}
    nominal = {HEADLINE: 0, DETAIL: 0, "either": 0}
    compared = {HEADLINE: 0, DETAIL: 0}
    started = time.perf_counter()
    for split in range(splits):
        order = list(range(games))
        random.Random(split).shuffle(order)
        halves = [sorted(order[: games // 2]), sorted(order[games // 2 :])]
        a, b = (summary(Path(f"half {k}"), settings, table.take(rows)) for k, rows in enumerate(halves))
        changes = compare(a, b)
        for family in (HEADLINE, DETAIL):
            members = [c for c in changes if c.family == family]
            compared[family] += len(members)
            called[family] += any(c.significant for c in members)
            nominal[family] += any(c.p < 0.05 for c in members)
        called["either"] += any(c.significant for c in changes)
        nominal["either"] += any(c.p < 0.05 for c in changes)
    seconds = time.perf_counter() - started
    print(f"{splits} splits into halves of {games // 2} in {seconds:.0f} s; load average {os.getloadavg()[0]:.1f}")
    for family in (HEADLINE, DETAIL, "either"):
        tested = f" ({compared[family] / splits:.0f} figures a split)" if family in compared else ""
        print(f"  {family}{tested}: false calls {rate(called[family], splits)}")
        print(f"  {' ' * len(family)}   p < 0.05 uncorrected: {rate(nominal[family], splits)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=200)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/lab-aa"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", action="append", choices=sorted(WORKLOADS), help="default: both")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for game_id in args.game or list(WORKLOADS):
        false_calls(run_file(args.folder, game_id, args.jobs), args.splits)
    print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
