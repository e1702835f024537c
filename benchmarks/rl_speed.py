"""Steps per second of the RL environments, this checkout against a baseline checkout, side by side.

    git worktree add --detach /tmp/rl-base main   # the baseline: main (41484ee: before issue 23)
    PYTHONPATH=src python benchmarks/rl_speed.py --baseline /tmp/rl-base [--rounds 5] [--clock cpu]

Workloads (each a fixed number of steps from a fixed seed, random legal actions drawn from the
mask with ``numpy.random.default_rng(0)``, so both checkouts play the very same steps; the
digest of the actions taken is compared):

- ``pettingzoo mothership 4``: ``pettingzoo.env("mothership", players=4, actions="flat")``
  (a checkout from before the ``actions`` keyword: without it, flat was its only kind),
  ``last()`` then a random legal code from ``info["action_mask"]``;
- ``openspiel showdown 4``: ``rl_environment.Environment`` on ``spacetable_showdown(players=4)``,
  a random code from the current player's ``legal_actions``;
- ``gymnasium falling-skies``: ``gymnasium.make("spacetable/FallingSkies-v0", level=1)``;
- ``pettingzoo mothership 4, legal codes`` (this checkout only): the same, the agent drawing
  from ``info["legal_actions"]`` (the mask's codes, ascending: the very same draws) instead of
  scanning the 299,166-entry mask, against the baseline's flat environment;
- ``pettingzoo mothership 4, factored`` (this checkout only): the same decisions through
  Mothership's default, factored actions (``FactoredAECWrapper``), counted in engine actions
  (a decision takes 1 to 4 steps), against the baseline's flat environment.

Each measurement runs in a fresh process that imports one checkout (``PYTHONPATH=<checkout>/src``)
and times only its loop. A round runs every workload on both checkouts, in alternating order;
the ratio is taken within the round and the median over rounds is printed, with the median
steps/s of each side (the machine's load moves between rounds).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
STEPS = {"pettingzoo mothership 4": 1500, "openspiel showdown 4": 3000, "gymnasium falling-skies": 3000}
CODES = "pettingzoo mothership 4, legal codes"
FACTORED = "pettingzoo mothership 4, factored"
EXTRA = (CODES, FACTORED)
"""Measured on this checkout only, against the baseline's flat ``pettingzoo mothership 4``."""


def _mask_choice(rng: Any, mask: Any) -> int:
    import numpy as np

    return int(rng.choice(np.flatnonzero(mask)))


def _pettingzoo(steps: int, factored: bool = False, codes: bool = False) -> tuple[int, str]:
    """Plays ``steps`` engine actions; returns the environment steps taken and the digest of
    the actions (the last step of each, factored). ``codes``: draw from the legal codes the
    info lists rather than from the mask."""
    import inspect

    import numpy as np

    from spacetable.interop import pettingzoo

    if factored:
        env = pettingzoo.env("mothership", players=4, actions="factored")
    elif "actions" in inspect.signature(pettingzoo.env).parameters:
        env = pettingzoo.env("mothership", players=4, actions="flat")
    else:  # a baseline from before the keyword: flat was its only kind
        env = pettingzoo.env("mothership", players=4)
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    games = 0
    env.reset(seed=games)
    taken = env_steps = 0
    while taken < steps:
        _, _, over, cut, info = env.last()
        if over or cut:
            games += 1
            env.reset(seed=games)
            continue
        action = int(rng.choice(info["legal_actions"])) if codes else _mask_choice(rng, info["action_mask"])
        env.step(action)
        env_steps += 1
        if not factored or not env.chosen:  # a factored decision's last step moves the game
            taken += 1
            digest.update(str(action).encode())
    return env_steps, digest.hexdigest()[:12]


def _openspiel(steps: int) -> tuple[int, str]:
    import numpy as np
    import pyspiel
    from open_spiel.python import rl_environment

    import spacetable.interop.openspiel  # noqa: F401  # registers the games

    game = pyspiel.load_game("spacetable_showdown(players=4)")
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=0))
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    time_step = env.reset()
    for _ in range(steps):
        if time_step.last():
            time_step = env.reset()
            continue
        player = time_step.observations["current_player"]
        action = int(rng.choice(time_step.observations["legal_actions"][player]))
        digest.update(str(action).encode())
        time_step = env.step([action])
    return steps, digest.hexdigest()[:12]


def _gymnasium(steps: int) -> tuple[int, str]:
    import gymnasium
    import numpy as np

    import spacetable.interop.gymnasium  # noqa: F401  # registers the games

    env = gymnasium.make("spacetable/FallingSkies-v0", level=1)
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    games = 0
    _, info = env.reset(seed=games)
    for _ in range(steps):
        action = _mask_choice(rng, info["action_mask"])
        digest.update(str(action).encode())
        _, _, over, cut, info = env.step(action)
        if over or cut:
            games += 1
            _, info = env.reset(seed=games)
    return steps, digest.hexdigest()[:12]


WORKERS: dict[str, Callable[[int], tuple[int, str]]] = {
    "pettingzoo mothership 4": _pettingzoo,
    CODES: lambda steps: _pettingzoo(steps, codes=True),
    "openspiel showdown 4": _openspiel,
    "gymnasium falling-skies": _gymnasium,
    FACTORED: lambda steps: _pettingzoo(steps, factored=True),
}


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
"""``cpu``: the worker process's own CPU time, steadier than wall time on a machine whose other
work comes and goes (both count the same single-threaded loop)."""


def worker(name: str, steps: int, clock: str) -> None:
    """In a fresh process: time the workload and print {actions/s, env steps/s, digest} as JSON."""
    WORKERS[name](20)  # warm up: imports, first game
    now = CLOCKS[clock]
    start = now()
    env_steps, digest = WORKERS[name](steps)
    seconds = now() - start
    print(json.dumps({"actions": steps / seconds, "steps": env_steps / seconds, "digest": digest}))


def measure(checkout: Path, name: str, steps: int, clock: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(checkout / "src")}
    out = subprocess.run(
        [sys.executable, str(HERE), "--worker", name, "--steps", str(steps), "--clock", clock],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of the baseline (e.g. /tmp/rl-base)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload's steps")
    parser.add_argument("--clock", choices=list(CLOCKS), default="wall", help="time steps by the wall or the CPU")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--steps", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.steps, args.clock)
        return
    if args.baseline is None:
        parser.error("--baseline is required (a checkout of the baseline commit)")
    here = HERE.parent.parent
    rows: dict[str, dict[str, list[float]]] = {}
    digests: dict[str, set[str]] = {}
    for r in range(args.rounds):
        for name, steps in STEPS.items():
            steps = max(50, int(steps * args.scale))
            sides = [("baseline", args.baseline, name), ("new", here, name)]
            if name == "pettingzoo mothership 4":
                sides += [(extra, here, extra) for extra in EXTRA]
            if r % 2:
                sides.reverse()
            results = {side: measure(checkout, workload, steps, args.clock) for side, checkout, workload in sides}
            row = rows.setdefault(name, {})
            for side, result in results.items():
                row.setdefault(side, []).append(result["actions"])
                if side == FACTORED:
                    row.setdefault("factored env steps", []).append(result["steps"])
                else:
                    digests.setdefault(name, set()).add(result["digest"])
                if side != "baseline":
                    ratio = result["actions"] / results["baseline"]["actions"]
                    row.setdefault("ratio" if side == "new" else f"{side} ratio", []).append(ratio)
            print(f"round {r + 1}: {name}: " + ", ".join(f"{k} {v[-1]:.1f}" for k, v in row.items()), flush=True)
    print("\n| environment | baseline steps/s | new steps/s | new / baseline (median of rounds) |")
    print("|---|---|---|---|")
    for name, row in rows.items():
        same = "same steps" if len(digests[name]) == 1 else "DIFFERENT steps"
        med = {k: statistics.median(v) for k, v in row.items()}
        print(f"| {name} ({same}) | {med['baseline']:.0f} | {med['new']:.0f} | {med['ratio']:.1f}x |")
        if CODES in med:
            print(f"| {CODES} | {med['baseline']:.0f} | {med[CODES]:.0f} | {med[CODES + ' ratio']:.1f}x |")
        if FACTORED in med:
            print(
                f"| {FACTORED}: engine actions/s (env steps/s) | {med['baseline']:.0f} | "
                f"{med[FACTORED]:.0f} ({med['factored env steps']:.0f}) | {med[FACTORED + ' ratio']:.1f}x |"
            )


if __name__ == "__main__":
    main()
