"""Games per second of the lab's runner with 1 and 2 processes and with Ray, in interleaved rounds.

    PYTHONPATH=src python benchmarks/lab_speed.py [--rounds 5]

Each round measures, one after the other:
- ``cpu x1`` / ``cpu x2``: a pure-Python loop in 1 and 2 processes, the speed-up this machine
  can give at that moment (on a machine shared with other work it is below 2);
- for two workloads (long games: SpaceRace, random against two greedy bots; short games:
  Falling Skies with the random bot, a few milliseconds each): the runner with 1 process,
  2 processes in batches, 2 processes with one task per game (how ``tournament --jobs`` sent
  games before), and a Ray cluster of 2 CPUs started once before the rounds.
Ratios are taken within a round and the median over rounds is printed (the machine's load
moves between rounds; within a round the candidates see about the same load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from spacetable.engine import load_finite
from spacetable.sim import batch
from spacetable.sim.batch import GameSpec, run_games

WORKLOADS = {
    "spacerace": (GameSpec.of(load_finite("spacerace", 3)), ["random", "greedy", "greedy"], 40),
    "falling-skies": (GameSpec.of(load_finite("falling-skies", 1)), ["random"], 600),
}


def spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def cpu(processes: int, n: int = 6_000_000) -> float:
    """Loops of ``n`` per second with ``processes`` each running one loop (pool already warm)."""
    with ProcessPoolExecutor(processes) as pool:
        list(pool.map(spin, [1000] * processes))
        start = time.perf_counter()
        list(pool.map(spin, [n] * processes))
        return processes / (time.perf_counter() - start)


def games_per_second(spec: GameSpec, seats: list[str], games: int, jobs: int, ray: str | None = None) -> float:
    start = time.perf_counter()
    for _ in run_games(spec, 0, [(i, seats) for i in range(games)], jobs, ray):
        pass
    return games / (time.perf_counter() - start)


def per_game_tasks(spec: GameSpec, seats: list[str], games: int) -> float:
    """Two processes fed one game per task (the batch size of the old tournament runner)."""
    original = batch.batch_size
    batch.batch_size = lambda games, workers: 1
    try:
        return games_per_second(spec, seats, games, 2)
    finally:
        batch.batch_size = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"Ray local cluster (2 CPUs) started in {time.perf_counter() - started:.1f} s")
    measures: dict[str, Callable[[], float]] = {"cpu x1": lambda: cpu(1), "cpu x2": lambda: cpu(2)}
    for name, (spec, seats, games) in WORKLOADS.items():
        measures[f"{name} 1 process"] = lambda s=spec, b=seats, g=games: games_per_second(s, b, g, 1)
        measures[f"{name} 2 processes"] = lambda s=spec, b=seats, g=games: games_per_second(s, b, g, 2)
        measures[f"{name} 2 processes, a task per game"] = lambda s=spec, b=seats, g=games: per_game_tasks(s, b, g)
        measures[f"{name} Ray, 2 CPUs"] = lambda s=spec, b=seats, g=games: games_per_second(s, b, g, 2, "auto")
    figures: dict[str, list[float]] = {name: [] for name in measures}
    for number in range(args.rounds):
        for name, measure in measures.items():
            figures[name].append(measure())
        print(f"round {number + 1}: load average {os.getloadavg()[0]:.2f}", flush=True)
    ray.shutdown()
    print(f"\n{'measure':<44} {'median':>10} {'x 1 process (median of ratios)':>32}")
    for name, values in figures.items():
        base = "cpu x1" if name.startswith("cpu") else name.split(" ")[0] + " 1 process"
        ratio = statistics.median(v / b for v, b in zip(values, figures[base]))
        print(f"{name:<44} {statistics.median(values):>10.2f} {ratio:>32.2f}")


if __name__ == "__main__":
    main()
