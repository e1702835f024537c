"""`spacetable bench`: how fast each game runs on one core.

Measures random playouts (player decisions per second, all actions per second
including chance outcomes, games per second) and the cost of ``clone()`` and
``to_json()`` on positions sampled from those playouts. Speed is measured here,
never asserted in tests.
"""

from __future__ import annotations

import functools
import random
import time
import timeit
from collections.abc import Callable
from typing import Any

from spacetable.agents.mcts import MCTSAgent, SearchBudget
from spacetable.engine import Game, State, list_games, load_finite, random_playout


def _playouts(game: Game, seconds: float, rng: random.Random) -> tuple[dict[str, float], list[State]]:
    decisions = actions = games = 0
    samples: list[State] = []

    def sample(state: State) -> None:
        if len(samples) < 200 and rng.random() < 0.01:
            samples.append(state.clone())

    start = time.perf_counter()
    while True:
        applied, decided = random_playout(game.new_initial_state(), rng, game.bounded_length(), sample)
        actions += applied
        decisions += decided
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    rates = {
        "decisions/s": decisions / elapsed,
        "actions/s": actions / elapsed,
        "games/s": games / elapsed,
        "actions/game": actions / games,
    }
    return rates, samples


def _micros(fn: Callable[[State], object], samples: list[State]) -> float:
    """Median over samples of the time of one call, in microseconds."""
    times = []
    number = 200
    for state in samples:
        best = min(timeit.repeat(functools.partial(fn, state), number=number, repeat=3))
        times.append(best / number * 1e6)
    times.sort()
    return times[len(times) // 2]


def bench_game(game: Game, seconds: float = 3.0, seed: int = 0) -> dict[str, Any]:
    rates, samples = _playouts(game, seconds, random.Random(seed))
    return {
        "game": game.id,
        "options": ",".join(f"{k}={v}" for k, v in game.options.items() if v != game.option_specs[k].default) or "-",
        **{k: round(v, 1) for k, v in rates.items()},
        "clone µs": round(_micros(lambda s: s.clone(), samples), 2),
        "to_json µs": round(_micros(lambda s: s.to_json(), samples), 2),
        **_search(samples, rng=random.Random(seed)),
    }


SEARCH_BUDGET = 0.05
"""Seconds per decision of the benchmarked search bot."""


def _search(samples: list[State], rng: random.Random, decisions: int = 20) -> dict[str, float]:
    """MCTS iterations per second at positions with a choice, and the slowest decision
    against its time budget of ``SEARCH_BUDGET`` seconds."""
    positions = [s for s in samples if s.awaiting() and len(s.legal_actions(s.awaiting()[0])) > 1][:decisions]
    if not positions:
        return {}
    iterations, spent, slowest = 0, 0.0, 0.0
    for state in positions:
        agent = MCTSAgent(SearchBudget(iterations=None, seconds=SEARCH_BUDGET), "bench")
        seat = state.awaiting()[0]
        start = time.perf_counter()
        agent.choose(state.resample(seat, rng), seat, rng)
        took = time.perf_counter() - start
        iterations += agent.iterations_done
        spent += took
        slowest = max(slowest, took)
    return {"mcts it/s": round(iterations / spent), "slowest move ms": round(slowest * 1000, 1)}


def run(game_id: str | None = None, seconds: float = 3.0) -> list[dict[str, Any]]:
    """Benchmark one game (default: every registered game) with default options."""
    ids = [game_id] if game_id else [cls.id for cls in list_games()]
    return [bench_game(load_finite(gid), seconds) for gid in ids]
