"""Steps per second of the batched solo environment against Gymnasium's SyncVectorEnv and a loop.

    PYTHONPATH=src python benchmarks/vector_speed.py [--rounds 5] [--scale 1.0]

Three ways to step N games of a solo game, side by side in one process:

- ``vector``: ``SoloVectorEnv(game, N)`` (interop/vector.py), masks from ``action_masks()``;
- ``sync``: ``gymnasium.vector.SyncVectorEnv`` of N ``gymnasium.make(id, actions="flat")``
  environments, masks from ``infos["action_mask"]``;
- ``loop``: the same N made environments stepped one by one in a Python loop, each game
  started again on the step after it ends (as the two vector environments do).

Every way plays the very same steps: games seeded 0..N-1, random legal codes drawn from the
masks with ``numpy.random.default_rng(0)`` (the digests of the actions are compared). Only the
environments' calls are timed (``step``, and the loop's ``reset`` of a game that ended; not the
agent's draws nor the first reset), by ``time.process_time``: the CPU time of this process,
steadier than wall time on a shared machine. A round measures every workload with the three
ways in a rotating order; the table gives each way's median steps/s and the median over rounds
of the ratios taken within a round (with their range).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from spacetable.interop.gymnasium import env_id
from spacetable.interop.vector import SoloVectorEnv

WORKLOADS: list[tuple[str, int, dict[str, Any], int]] = [
    ("falling-skies", 1, {"level": 1}, 3000),
    ("falling-skies", 8, {"level": 1}, 6000),
    ("falling-skies", 32, {"level": 1}, 6000),
    ("mothership", 8, {"round_limit": 10}, 1200),
]
"""(game, N, options, steps of all games together per measurement): about 1 to 2 s each here."""

WAYS = ("vector", "sync", "loop")


def _picks(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def _made(game_id: str, games: int, options: dict[str, Any]) -> list[gymnasium.Env[Any, Any]]:
    return [gymnasium.make(env_id(game_id), actions="flat", **options) for _ in range(games)]


def run_vector(game_id: str, games: int, options: dict[str, Any], steps: int) -> tuple[float, str]:
    envs = SoloVectorEnv(game_id, games, **options)
    envs.reset(seed=0)
    rng, digest, seconds = np.random.default_rng(0), hashlib.sha256(), 0.0
    for _ in range(steps // games):
        actions = _picks(envs.action_masks(), rng)
        digest.update(actions.tobytes())
        start = time.process_time()
        envs.step(actions)
        seconds += time.process_time() - start
    return seconds, digest.hexdigest()[:12]


def run_sync(game_id: str, games: int, options: dict[str, Any], steps: int) -> tuple[float, str]:
    made = _made(game_id, games, options)
    envs = gymnasium.vector.SyncVectorEnv([lambda env=env: env for env in made])
    _, infos = envs.reset(seed=0)
    rng, digest, seconds = np.random.default_rng(0), hashlib.sha256(), 0.0
    for _ in range(steps // games):
        actions = _picks(infos["action_mask"], rng)
        digest.update(actions.tobytes())
        start = time.process_time()
        infos = envs.step(actions)[4]
        seconds += time.process_time() - start
    envs.close()
    return seconds, digest.hexdigest()[:12]


def run_loop(game_id: str, games: int, options: dict[str, Any], steps: int) -> tuple[float, str]:
    envs = _made(game_id, games, options)
    masks = np.stack([env.reset(seed=index)[1]["action_mask"] for index, env in enumerate(envs)])
    ended = [False] * games
    rng, digest, seconds = np.random.default_rng(0), hashlib.sha256(), 0.0
    for _ in range(steps // games):
        actions = _picks(masks, rng)
        digest.update(actions.tobytes())
        start = time.process_time()
        for index, env in enumerate(envs):
            if ended[index]:
                _, info = env.reset()
                ended[index] = False
            else:
                _, _, terminated, truncated, info = env.step(actions[index])
                ended[index] = terminated or truncated
            masks[index] = info["action_mask"]
        seconds += time.process_time() - start
    return seconds, digest.hexdigest()[:12]


RUNS: dict[str, Callable[[str, int, dict[str, Any], int], tuple[float, str]]] = {
    "vector": run_vector,
    "sync": run_sync,
    "loop": run_loop,
}


def loadavg() -> str:
    return subprocess.run(["cat", "/proc/loadavg"], capture_output=True, text=True, check=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload's steps")
    args = parser.parse_args()
    print(f"command: {' '.join([sys.executable, *sys.argv])}")
    print(f"load before: {loadavg()}")
    for game_id, games, options, _ in WORKLOADS:
        for run in RUNS.values():
            run(game_id, games, options, games * 5)  # warm up: imports, caches, first games
    rates: dict[tuple[str, int], dict[str, list[float]]] = {}
    for round_index in range(args.rounds):
        for game_id, games, options, steps in WORKLOADS:
            steps = max(games, int(steps * args.scale)) // games * games
            order = WAYS[round_index % 3 :] + WAYS[: round_index % 3]
            digests = set()
            for way in order:
                seconds, digest = RUNS[way](game_id, games, options, steps)
                rates.setdefault((game_id, games), {}).setdefault(way, []).append(steps / seconds)
                digests.add(digest)
            if len(digests) != 1:
                raise SystemExit(f"{game_id} N={games}: the ways played different actions ({digests})")
        print(f"round {round_index + 1} done, load: {loadavg()}", flush=True)
    print()
    print("| game, N | vector (steps/CPU s) | sync | loop | vector / sync (range) | vector / loop (range) |")
    print("|---|---|---|---|---|---|")
    for (game_id, games), row in rates.items():
        medians = [f"{statistics.median(row[way]):,.0f}" for way in WAYS]
        ratios = []
        for other in ("sync", "loop"):
            within = [mine / theirs for mine, theirs in zip(row["vector"], row[other])]
            ratios.append(f"**{statistics.median(within):.2f}x** ({min(within):.2f}-{max(within):.2f})")
        print(f"| {game_id}, {games} | {' | '.join(medians)} | {' | '.join(ratios)} |")


if __name__ == "__main__":
    main()
