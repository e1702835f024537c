"""Games per second of the lab's runner with 1 and 2 processes and with Ray, in interleaved rounds.

    PYTHONPATH=src python benchmarks/lab_speed.py [--rounds 5]
    PYTHONPATH=src python benchmarks/lab_speed.py --simulate [--games 100,1000] [--rounds 3]

Each round measures, one after the other:
- ``cpu x1`` / ``cpu x2``: a pure-Python loop in 1 and 2 processes, the speed-up this machine
  can give at that moment (on a machine shared with other work it is below 2);
- for two workloads (long games: SpaceRace, random against two greedy bots; short games:
  Falling Skies with the random bot, a few milliseconds each): the runner with 1 process,
  2 processes in batches, 2 processes with one task per game (how ``tournament --jobs`` sent
  games before), and a Ray cluster of 2 CPUs started once before the rounds.
Ratios are taken within a round and the median over rounds is printed (the machine's load
moves between rounds; within a round the candidates see about the same load).

``--simulate`` times whole ``spacetable simulate showdown --players 4 --games N`` commands (wall
seconds, each in a fresh process, as a user runs them) for each N, each round:
- with no Ray cluster running: ``--jobs 2``; ``--ray auto --jobs 2`` (which then plays with the
  two processes and says so); and a local cluster of 2 CPUs started inside the command (what
  ``--ray auto`` did before issue 38);
- with a cluster of 2 CPUs started beforehand (``ray start --head --block``, its own temp folder
  and port, named to the commands by RAY_ADDRESS; stopped after the round): ``--jobs 2`` again,
  and ``--ray auto --jobs 2``, which joins it.
It prints each against ``--jobs 2`` of the same phase (median of the rounds' ratios), Ray's fixed
cost (median of the seconds over ``--jobs 2`` at the largest N), and the crossover: the games
from which that cost is under a tenth of the run (``--ray`` >= 0.9x ``--jobs 2``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

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
    original = batch.batch_sizes
    batch.batch_sizes = lambda games, workers: [1] * games
    try:
        return games_per_second(spec, seats, games, 2)
    finally:
        batch.batch_sizes = original


SIMULATE = ["simulate", "showdown", "--players", "4", "--seed", "1"]
LOCAL_START = (
    "import ray, sys; ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level='ERROR'); "
    "from spacetable.cli.main import app; app(sys.argv[1:])"
)
"""A command that starts a local cluster of 2 CPUs, then runs ``--ray auto`` on it."""


def simulate_seconds(games: int, options: list[str], env: dict[str, str] | None = None, start: bool = False) -> float:
    """Wall seconds of one ``spacetable simulate`` command with ``options``; its notes are printed
    the first time each is seen."""
    with tempfile.TemporaryDirectory() as folder:
        head = [sys.executable, "-c", LOCAL_START] if start else [sys.executable, "-m", "spacetable"]
        command = [*head, *SIMULATE, "--games", str(games), *options, "--out", f"{folder}/run.parquet"]
        began = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        seconds = time.perf_counter() - began
    if done.returncode:
        raise SystemExit(f"{' '.join(command[3:] if start else command[1:])} failed: {done.stderr[-2000:]}")
    for line in done.stderr.splitlines():
        if line.startswith("note:") and line not in SEEN:
            SEEN.add(line)
            print(f"  ({' '.join(options)}) {line}", flush=True)
    return seconds


SEEN: set[str] = set()


@contextmanager
def running_cluster(cpus: int) -> Iterator[dict[str, str]]:
    """A Ray cluster of ``cpus`` CPUs on this machine for the block, in its own temp folder and
    port (other Ray users here do not find it); yields the environment that names it."""
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths must fit
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = (Path.home() / ".ray" / "auth_token").exists()
    env = os.environ | {"RAY_AUTH_MODE": "token" if token else "disabled"}
    ray = str(Path(sys.executable).with_name("ray"))
    command = [ray, "start", "--head", "--block", f"--num-cpus={cpus}", f"--port={port}", f"--temp-dir={folder}"]
    head = subprocess.Popen(
        [*command, "--include-dashboard=false", "--disable-usage-stats"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    address = Path(folder, "ray_current_cluster")
    try:
        began = time.perf_counter()
        while not address.exists() and head.poll() is None and time.perf_counter() - began < 120:
            time.sleep(0.2)
        if not address.exists():
            raise SystemExit("ray start --head did not start")
        print(f"  a cluster of {cpus} CPUs started in {time.perf_counter() - began:.1f} s", flush=True)
        yield env | {"RAY_ADDRESS": address.read_text().strip()}
    finally:
        head.terminate()
        head.wait(60)
        shutil.rmtree(folder, ignore_errors=True)


def compare_simulate(counts: list[int], rounds: int) -> None:
    """See the module docstring (``--simulate``)."""
    jobs, auto = ["--jobs", "2"], ["--ray", "auto", "--jobs", "2"]
    seconds: dict[tuple[str, int], list[float]] = {}
    for number in range(rounds):
        loads = [os.getloadavg()[0]]
        for games in counts:
            for name, take in (
                ("--jobs 2", lambda g=games: simulate_seconds(g, jobs)),
                ("--ray auto, no cluster", lambda g=games: simulate_seconds(g, auto)),
                ("--ray auto, a local cluster started", lambda g=games: simulate_seconds(g, auto, start=True)),
            ):
                seconds.setdefault((name, games), []).append(take())
        with running_cluster(2) as env:
            loads.append(os.getloadavg()[0])
            for games in counts:
                seconds.setdefault(("--jobs 2, cluster idle", games), []).append(simulate_seconds(games, jobs, env))
                seconds.setdefault(("--ray auto, joins it", games), []).append(simulate_seconds(games, auto, env))
        loads.append(os.getloadavg()[0])
        print(f"round {number + 1}: load average {', '.join(f'{x:.2f}' for x in loads)}", flush=True)
    largest = max(counts)
    rate = statistics.median(largest / s for s in seconds[("--jobs 2", largest)])
    print(f"\n{'command (showdown, 4 greedy seats)':<40} {'games':>6} {'seconds':>8} {'x --jobs 2':>11}")
    for (name, games), values in seconds.items():
        base = seconds[("--jobs 2, cluster idle" if "cluster idle" in name or "joins" in name else "--jobs 2", games)]
        ratio = statistics.median(b / v for b, v in zip(base, values))
        print(f"{name:<40} {games:>6} {statistics.median(values):>8.1f} {ratio:>11.2f}")
    for name, against in (
        ("--ray auto, a local cluster started", "--jobs 2"),
        ("--ray auto, joins it", "--jobs 2, cluster idle"),
    ):
        cost = statistics.median(v - b for v, b in zip(seconds[(name, largest)], seconds[(against, largest)]))
        crossover = f">= 0.9x from about {9 * cost * rate:,.0f} games" if cost > 0 else "no cost above the noise"
        print(f"{name}: costs {cost:.1f} s over {against} at {largest} games; {crossover}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--simulate", action="store_true", help="time simulate commands (see above)")
    parser.add_argument("--games", default="100,1000", help="with --simulate: the game counts, comma-separated")
    args = parser.parse_args()
    if args.simulate:
        compare_simulate([int(n) for n in args.games.split(",")], args.rounds)
        return
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
