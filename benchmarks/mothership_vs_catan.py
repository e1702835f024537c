"""Mothership's speed side by side with catanatron (the Python Catan engine) and with an older spacetable.

    python benchmarks/mothership_vs_catan.py [--rounds 5] [--seconds 8] [--baseline main] [--pure]

This checkout runs as ``make`` left it: with Mothership's compiled modules where they were built
(``tools/compile.py``; the output's first line says which), or without them with ``--pure``.

Every figure is taken in one run, in interleaved rounds (each round measures every worker once,
in turn, each in its own fresh process), and reported as the median over the rounds of the
per-round ratio, so that a busy shared machine moves both sides of a ratio alike. Workers count
their own CPU time (``time.process_time``), not the wall clock, so time spent waiting for a core
that other work holds counts on neither side.

- random playouts: 4-player actions/s (every applied action, chance included, as catanatron
  counts its dice rolls) of Mothership against catanatron's RandomPlayer games;
- greedy: seconds per 4-player Mothership game of ``greedy`` bots (one-ply search), against
  catanatron's one-ply VictoryPointPlayer, and against ``--baseline`` (a git ref of this
  repository, checked out in a throwaway worktree) for the speed-up;
- modules: Mothership random playouts with every expansion module on, per-action cost against
  the default game, and a greedy game's time with every module on against the default's;
- clone: median µs of ``clone()`` over positions of random playouts.

catanatron is installed by this script into its own throwaway venv (``--catan-venv``, default
under ~/.cache), never into the project's. The script is also its own worker
(``--worker NAME``), run by that venv's Python for catanatron and by this one for spacetable.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
ROUND_LIMIT = {"round_limit": 60}
"""Random Mothership playouts end (a draw) after 60 rounds, as the earlier measurements did."""
EXPANSION = {"neutron_stars": True, "black_holes": True, "beacons": True, "exploration": True, "objectives": "hidden"}


# ---- workers: each plays for a time and prints one JSON line --------------------------------------


def _catan(seconds: float, greedy: bool) -> dict[str, float]:
    from catanatron import Color, Game, RandomPlayer
    from catanatron.players.search import VictoryPointPlayer

    kind = VictoryPointPlayer if greedy else RandomPlayer
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = Game([kind(c) for c in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)])
        game.play()
        actions += len(game.state.actions)
        games += 1
    return {"actions": actions, "games": games, "seconds": time.process_time() - start}


def _mothership_random(seconds: float, options: dict[str, object]) -> dict[str, float]:
    import random

    import spacetable

    game = spacetable.load("mothership", 4, options)
    rng = random.Random(0)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                seat = state.awaiting()[0]
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
            actions += 1
        games += 1
    return {"actions": actions, "games": games, "seconds": time.process_time() - start, "compiled": _compiled()}


def _compiled() -> bool:
    """Whether this process runs Mothership's compiled modules (``tools/compile.py``; older
    checkouts have none)."""
    try:
        from spacetable import compiled
    except ImportError:
        return False
    return compiled.ACTIVE


def _mothership_greedy(seconds: float, options: dict[str, object]) -> dict[str, float]:
    import random

    import spacetable
    from spacetable.agents import make_agent
    from spacetable.engine import play

    game = spacetable.load("mothership", 4, options)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds or not games:
        final = play(game, [make_agent("greedy") for _ in range(4)], random.Random(games))
        actions += final.to_json()["round"]  # rounds, for the record; the ratio is per game
        games += 1
    return {"actions": actions, "games": games, "seconds": time.process_time() - start}


def _mothership_clone(seconds: float) -> dict[str, float]:
    import random

    import spacetable

    game = spacetable.load("mothership", 4, ROUND_LIMIT)
    rng = random.Random(1)
    samples = []
    state = game.new_initial_state()
    while len(samples) < 200:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        if rng.random() < 0.05:
            samples.append(state.clone())
    times = []
    for sample in samples:
        start = time.process_time()
        for _ in range(100):
            sample.clone()
        times.append((time.process_time() - start) / 100 * 1e6)
    return {"micros": statistics.median(times)}


WORKERS = {
    "catan-random": lambda s: _catan(s, greedy=False),
    "catan-greedy": lambda s: _catan(s, greedy=True),
    "mothership-random": lambda s: _mothership_random(s, ROUND_LIMIT),
    "mothership-modules": lambda s: _mothership_random(s, {**ROUND_LIMIT, **EXPANSION}),
    "mothership-greedy": lambda s: _mothership_greedy(s, ROUND_LIMIT),
    "mothership-greedy-modules": lambda s: _mothership_greedy(s, {**ROUND_LIMIT, **EXPANSION}),
    "mothership-clone": _mothership_clone,
}


# ---- the driver ----------------------------------------------------------------------------------


def catan_python(venv: Path) -> Path:
    """The throwaway venv's Python, with catanatron installed (once)."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if subprocess.run([str(python), "-c", "import catanatron"], capture_output=True).returncode:
        print(f"installing catanatron into {venv} ...", file=sys.stderr)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "catanatron"], check=True)
    return python


def baseline_sources(ref: str) -> Path:
    """``ref`` of this repository checked out (detached) in a throwaway worktree; its ``src``."""
    folder = Path(tempfile.mkdtemp(prefix="spacetable-baseline-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(folder), ref], check=True)
    return folder


def measure(python: Path, worker: str, seconds: float, src: Path | None = None, pure: bool = False) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src)) if src else dict(os.environ)
    if pure:
        env["SPACETABLE_PURE"] = "1"
    out = subprocess.run(
        [str(python), str(HERE), "--worker", worker, "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def per_second(r: dict[str, float]) -> float:
    return r["actions"] / r["seconds"]


def per_game(r: dict[str, float]) -> float:
    return r["seconds"] / r["games"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=8.0, help="time per worker per round")
    parser.add_argument("--baseline", help="a git ref to compare the greedy game and playouts against")
    parser.add_argument("--pure", action="store_true", help="run this checkout without its compiled modules")
    parser.add_argument("--catan-venv", type=Path, default=Path.home() / ".cache" / "spacetable" / "bench-catanatron")
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(WORKERS[args.worker](args.seconds)))
        return 0

    catan = catan_python(args.catan_venv)
    here, src = Path(sys.executable), ROOT / "src"
    base = baseline_sources(args.baseline) if args.baseline else None
    ratios: dict[str, list[float]] = {}
    try:
        for round_ in range(1, args.rounds + 1):
            r = {
                "catan-random": measure(catan, "catan-random", args.seconds),
                "mothership-random": measure(here, "mothership-random", args.seconds, src, args.pure),
                "catan-greedy": measure(catan, "catan-greedy", args.seconds),
                "mothership-greedy": measure(here, "mothership-greedy", args.seconds, src, args.pure),
                "mothership-modules": measure(here, "mothership-modules", args.seconds, src, args.pure),
                "mothership-greedy-modules": measure(here, "mothership-greedy-modules", args.seconds, src, args.pure),
                "mothership-clone": measure(here, "mothership-clone", 0, src, args.pure),
            }
            ours = per_second(r["mothership-random"])
            compiled = "compiled modules" if r["mothership-random"]["compiled"] else "pure Python"
            row = {
                "random playouts, actions/s vs catanatron": ours / per_second(r["catan-random"]),
                "greedy game, catanatron's time / ours": per_game(r["catan-greedy"]) / per_game(r["mothership-greedy"]),
                "all modules, cost per action vs default": ours / per_second(r["mothership-modules"]),
                "all modules, greedy game time vs default": per_game(r["mothership-greedy-modules"])
                / per_game(r["mothership-greedy"]),
                "clone µs": r["mothership-clone"]["micros"],
                "mothership random actions/s": ours,
                "greedy s/game": per_game(r["mothership-greedy"]),
            }
            if base:
                old_random = measure(here, "mothership-random", args.seconds, base / "src")
                old_greedy = measure(here, "mothership-greedy", args.seconds, base / "src")
                row[f"random playouts vs {args.baseline}"] = ours / per_second(old_random)
                speed_up = per_game(old_greedy) / per_game(r["mothership-greedy"])
                row[f"greedy game speed-up vs {args.baseline}"] = speed_up
            for key, value in row.items():
                ratios.setdefault(key, []).append(value)
            print(f"round {round_}: " + ", ".join(f"{k} {v:.2f}" for k, v in row.items()), file=sys.stderr, flush=True)
    finally:
        if base:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    print(f"this checkout ran {compiled}")
    print(f"| figure (median of {args.rounds} interleaved rounds, {args.seconds:g} s each) | median | range |")
    print("|---|---|---|")
    for key, values in ratios.items():
        print(f"| {key} | {statistics.median(values):.2f} | {min(values):.2f}-{max(values):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
