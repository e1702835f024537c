"""Steps per second of the RL environments, against a baseline checkout or the native loop.

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

``--native`` (issue 38) measures each adapter against the engine's own loop in this checkout::

    PYTHONPATH=src python benchmarks/rl_speed.py --native [--rounds 5] --clock cpu [--games showdown 4]

per game of :data:`GAMES` (falling-skies level 1, showdown 4 seats, SpaceRace 3, Mothership 4):
the native loop (the acting seat's tensor, its legal codes and flat mask, a random legal code,
``apply_action``), Gymnasium (solo games), PettingZoo's turn-based and parallel environments
(flat, and factored where that is the game's default: Mothership), and OpenSpiel's
``rl_environment`` (observation tensors, and its default, information state tensors). Every
loop plays the native loop's games (the same chance and the same draws; the digests say so),
counted in decisions (a factored decision takes several steps).

Each measurement runs in a fresh process that imports one checkout (``PYTHONPATH=<checkout>/src``)
and times only its loop. A round runs every workload on both checkouts, in alternating order;
the ratio is taken within the round and the median over rounds is printed, with the median
steps/s of each side (the machine's load moves between rounds).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
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


GAMES: dict[str, tuple[str, int, dict[str, Any], int]] = {
    "falling-skies": ("falling-skies", 1, {"level": 1}, 3000),
    "showdown 4": ("showdown", 4, {}, 2000),
    "spacerace 3": ("spacerace", 3, {}, 3000),
    "mothership 4": ("mothership", 4, {}, 1500),
}
"""``--native``: game, seats, options (the adapters' finite options besides) and decisions per
measurement (about a CPU second of the native loop on a quiet machine)."""


def _seeded(game: int) -> random.Random:
    """Chance of the game numbered ``game``: the generator an environment's ``reset(seed=game)``
    starts (``seeding.np_random`` then ``Table.reset``), so the native loop plays the same games."""
    from gymnasium.utils import seeding

    generator, _ = seeding.np_random(game)
    return random.Random(int(generator.integers(2**63)))


def _pick(rng: Any, codes: Any) -> int:
    """A uniformly random code of ``codes`` (ascending), the same draw in every loop."""
    return int(codes[int(rng.integers(len(codes)))])


def _native(name: str, steps: int, kind: str) -> tuple[int, str]:
    """The engine's own loop: at each decision the acting seat's tensor, its legal codes and
    flat mask, a random legal code, ``apply_action``; chance drawn as the environments draw it."""
    import numpy as np

    from spacetable.interop.sequential import decider, load_game, observe

    game_id, players, options, _ = GAMES[name]
    game = load_game(game_id, players, options)
    actions, size = game.actions, game.actions.size
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    taken = games = 0
    while taken < steps:
        state, chance = game.new_initial_state(), _seeded(games)
        games += 1
        while taken < steps and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(chance))
                continue
            seat = decider(state)
            observe(state, seat)
            codes = actions.codes(state.legal_actions(seat))
            mask = np.zeros(size, dtype=np.int8)
            mask[codes] = 1
            code = _pick(rng, codes)
            digest.update(str(code).encode())
            state.apply_action(actions.decode(code), seat)
            taken += 1
    return taken, digest.hexdigest()[:12]


def _gym(name: str, steps: int, kind: str) -> tuple[int, str]:
    """``gymnasium.make`` (its wrappers included), a random code of ``info["action_mask"]``."""
    import gymnasium
    import numpy as np

    from spacetable.interop.gymnasium import env_id

    game_id, _, options, _ = GAMES[name]
    env = gymnasium.make(env_id(game_id), **options)
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    games = taken = 0
    _, info = env.reset(seed=games)
    while taken < steps:
        code = _pick(rng, np.flatnonzero(info["action_mask"]))
        digest.update(str(code).encode())
        _, _, over, cut, info = env.step(code)
        taken += 1
        if over or cut:
            games += 1
            _, info = env.reset(seed=games)
    return taken, digest.hexdigest()[:12]


class _Planner:
    """A factored agent that plays the native loop's games: at the start of a seat's decision
    it draws a code as the native loop does, from the engine's legal codes (an oracle no agent
    has: its time is left out, :data:`LEFT_OUT`), then takes the code's parts as its steps,
    each checked against the step's mask."""

    def __init__(self, rng: Any, table: Any) -> None:
        self.rng, self.table = rng, table
        self.plans: dict[int, list[int]] = {}
        self.codes: dict[int, int] = {}

    def step(self, seat: int, mask: Any) -> tuple[int, int | None]:
        """The seat's next step, and the code of its decision if this is the last step."""
        start = CLOCK[0]()
        plan = self.plans.get(seat)
        if not plan:
            actions = self.table.game.actions
            code = self.codes[seat] = _pick(self.rng, self.table.legal_codes(seat))
            plan = self.plans[seat] = list(actions.parts(actions.decode(code)))
        value = plan.pop(0)
        LEFT_OUT[0] += CLOCK[0]() - start
        if not mask[value]:
            raise AssertionError(f"step {value} of seat {seat}'s decision is not in its mask")
        return value, None if plan else self.codes[seat]


CLOCK: list[Callable[[], float]] = [time.process_time]
LEFT_OUT = [0.0]
"""The clock of the measurement, and the time the :class:`_Planner` took on it."""


def _aec(name: str, steps: int, kind: str) -> tuple[int, str]:
    """``pettingzoo.env``: ``last()`` (the observation and the info), a random legal code of
    ``info["legal_actions"]`` (factored: the :class:`_Planner`'s steps), ``step``."""
    import numpy as np

    from spacetable.interop import pettingzoo

    game_id, players, options, _ = GAMES[name]
    env = pettingzoo.env(game_id, players=players, actions=kind, **options)
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    planner = _Planner(rng, env.unwrapped.table)
    games = taken = 0
    env.reset(seed=games)
    while taken < steps:
        _, _, over, cut, info = env.last()
        if over or cut:
            games += 1
            env.reset(seed=games)
            continue
        if kind == "flat":
            done: int | None = _pick(rng, info["legal_actions"])
            env.step(done)
        else:
            value, done = planner.step(env.possible_agents.index(env.agent_selection), info["action_mask"])
            env.step(value)
        if done is not None:
            taken += 1
            digest.update(str(done).encode())
    return taken, digest.hexdigest()[:12]


def _parallel(name: str, steps: int, kind: str) -> tuple[int, str]:
    """``pettingzoo.parallel_env``: each agent that may act (lowest seat first) takes a random
    legal code of its info's ``legal_actions`` (factored: the :class:`_Planner`'s steps)."""
    import numpy as np

    from spacetable.interop import pettingzoo

    game_id, players, options, _ = GAMES[name]
    env = pettingzoo.parallel_env(game_id, players=players, actions=kind, **options)
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    planner = _Planner(rng, env.unwrapped.table)
    games = taken = 0
    _, infos = env.reset(seed=games)
    while taken < steps:
        chosen, done = {}, []
        for seat, agent in enumerate(env.possible_agents):
            if agent not in env.agents:
                continue
            if kind == "flat":
                if infos[agent]["legal_actions"]:
                    chosen[agent] = _pick(rng, infos[agent]["legal_actions"])
                    done.append(chosen[agent])
            elif infos[agent]["action_mask"].any():
                chosen[agent], code = planner.step(seat, infos[agent]["action_mask"])
                done += [] if code is None else [code]
        _, _, _, _, infos = env.step(chosen)
        for code in done:
            taken += 1
            digest.update(str(code).encode())
        if not env.agents:
            games += 1
            _, infos = env.reset(seed=games)
    return taken, digest.hexdigest()[:12]


class _Chance:
    """``rl_environment``'s chance sampler drawing as the environments do (:func:`_seeded`, a
    new generator for each game), so that OpenSpiel plays the native loop's games."""

    def __init__(self) -> None:
        self.games = 0
        self.rng = random.Random()

    def __call__(self, state: Any) -> int:
        if state.move_number() == 0:
            self.rng, self.games = _seeded(self.games), self.games + 1
        engine = state.engine_state
        return int(engine.game.actions.encode(engine.sample_chance(self.rng)))


def _spiel(name: str, steps: int, kind: str) -> tuple[int, str]:
    """``rl_environment.Environment`` (``kind``: ``observation``, every seat's observation
    tensor and legal actions after each step, as the native loop observes; ``info_state``, its
    default, the information state tensors), the current player's ``info_state`` read as an
    array and a random code of its ``legal_actions``."""
    import numpy as np
    import pyspiel
    from open_spiel.python import rl_environment

    from spacetable.interop.openspiel import spiel_name

    game_id, players, options, _ = GAMES[name]
    params = ",".join(f"{key}={value}" for key, value in {"players": players, **options}.items())
    game = pyspiel.load_game(f"{spiel_name(game_id)}({params})")
    seen = rl_environment.ObservationType.OBSERVATION if kind == "observation" else None
    env = rl_environment.Environment(game, chance_event_sampler=_Chance(), observation_type=seen)
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    time_step = env.reset()
    taken = 0
    while taken < steps:
        if time_step.last():
            time_step = env.reset()
            continue
        player = time_step.observations["current_player"]
        np.asarray(time_step.observations["info_state"][player])  # the agent's observation
        code = _pick(rng, time_step.observations["legal_actions"][player])
        digest.update(str(code).encode())
        time_step = env.step([code])
        taken += 1
    return taken, digest.hexdigest()[:12]


LOOPS: dict[str, tuple[Callable[[str, int, str], tuple[int, str]], str]] = {
    "native": (_native, ""),
    "gymnasium": (_gym, ""),
    "pettingzoo aec": (_aec, "flat"),
    "pettingzoo parallel": (_parallel, "flat"),
    "pettingzoo aec factored": (_aec, "factored"),
    "pettingzoo parallel factored": (_parallel, "factored"),
    "openspiel rl_environment": (_spiel, "observation"),
    "openspiel rl_environment, info_state": (_spiel, "info_state"),
}
"""``--native``'s loops: the function and the kind of actions it takes."""


def loops_of(name: str) -> list[str]:
    """The loops measured for the game ``name``: Gymnasium for a solo game, factored actions
    where they are the game's default (Mothership)."""
    from spacetable.interop.sequential import load_game
    from spacetable.interop.table import actions_for

    game_id, players, options, _ = GAMES[name]
    factored = actions_for(load_game(game_id, players, options), None) == "factored"
    return [loop for loop in LOOPS if (loop != "gymnasium" or players == 1) and ("factored" not in loop or factored)]


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
    """In a fresh process: time the workload and print {actions/s, env steps/s, digest} as JSON.
    ``name``: a workload of :data:`WORKERS`, or ``game|loop`` (``--native``)."""
    game, _, loop = name.partition("|")
    if loop:
        function, kind = LOOPS[loop]
        run: Callable[[int], tuple[int, str]] = functools.partial(function, game, kind=kind)
    else:
        run = WORKERS[name]
    run(20)  # warm up: imports, first game
    now = CLOCK[0] = CLOCKS[clock]
    LEFT_OUT[0] = 0.0
    start = now()
    env_steps, digest = run(steps)
    seconds = now() - start - LEFT_OUT[0]
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


def against_native(rounds: int, scale: float, clock: str, games: list[str]) -> None:
    """``--native``: per game, every loop of :func:`loops_of`, each in a fresh process, the
    loops in reversed order every other round; the median over rounds of each adapter's
    decisions per second over the native loop's in the same round."""
    here = HERE.parent.parent
    rows: dict[str, dict[str, list[float]]] = {}
    digests: dict[str, dict[str, str]] = {}
    for r in range(rounds):
        for game in games:
            steps = max(50, int(GAMES[game][3] * scale))
            loops = loops_of(game)
            if r % 2:
                loops.reverse()
            results = {loop: measure(here, f"{game}|{loop}", steps, clock) for loop in loops}
            row = rows.setdefault(game, {})
            for loop, result in results.items():
                row.setdefault(loop, []).append(result["actions"])
                row.setdefault(loop + " ratio", []).append(result["actions"] / results["native"]["actions"])
                digests.setdefault(game, {})[loop] = result["digest"]
            shown = ", ".join(f"{loop} {row[loop + ' ratio'][-1]:.2f}x" for loop in loops if loop != "native")
            print(f"round {r + 1}: {game}: native {results['native']['actions']:.0f}/s; {shown}", flush=True)
    print("\n| game | loop | decisions/s (median) | loop / native (median; range) | same games as native |")
    print("|---|---|---|---|---|")
    for game, row in rows.items():
        for loop in LOOPS:
            if loop in row:
                ratios = row[loop + " ratio"]
                same = "yes" if digests[game][loop] == digests[game]["native"] else "no"
                print(
                    f"| {game} | {loop} | {statistics.median(row[loop]):.0f} | "
                    f"**{statistics.median(ratios):.2f}x** ({min(ratios):.2f}-{max(ratios):.2f}) | {same} |"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of the baseline (e.g. /tmp/rl-base)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload's steps")
    parser.add_argument("--clock", choices=list(CLOCKS), default="wall", help="time steps by the wall or the CPU")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--steps", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--native", action="store_true", help="each adapter against the engine's own loop")
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES), help="with --native")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.steps, args.clock)
        return
    if args.native:
        against_native(args.rounds, args.scale, args.clock, args.games)
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
