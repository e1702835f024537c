"""A bot's decision at the web table: its wall time per bot, through the server's worker function.

    PYTHONPATH=src python benchmarks/table_bot_time.py [--cap 0 --cap 1.0] [--positions 40] [--games 3]

For each variant (default: Mothership with 4 players, and the same with every expansion module:
exploration, neutron stars, black holes, beacons, hidden objectives) plays ``--games`` games with
random and greedy bots (seats alternating; a game that has not ended after ``--max-actions`` is
left out and another played: a people's table has no round limit, and such bots can pass for
ever) and keeps ``--positions`` positions, as many from each game, drawn evenly over the game's
decisions where a seat chose among more than one action. Then every bot of
``spacetable.agents.AGENTS`` decides at each position through ``think`` (server/bots.py), the
function the server's worker processes run, handed the state as JSON and the table's cap
(``--cap``; 0: none, each level's own budget, as before the cap; several caps are timed in turn
at each position), in this process with the game already built. Prints per variant and bot the
median, 95th percentile and slowest wall time; the work a decision does outside the bot
(rebuilding the state from JSON and resampling it); and, through the server's ``BotPool``, a
fresh worker's first decision (the process spawned, the package imported, the game built), then
the first and second of a worker started with ``warm()`` as the server does (what is left: the
game built; and what the pool itself adds: the state pickled to the worker and the move back).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import time
from typing import Any

from spacetable import compiled
from spacetable.agents import AGENTS, make_agent
from spacetable.engine import JSON, Game, load
from spacetable.server.bots import BotPool, think

EXPANSION = {"exploration": True, "neutron_stars": True, "black_holes": True, "beacons": True, "objectives": "hidden"}
VARIANTS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "mothership": ("mothership", 4, {}),
    "mothership-expansion": ("mothership", 4, EXPANSION),
    "falling-skies": ("falling-skies", 1, {}),
    "showdown": ("showdown", 4, {}),
    "spacerace": ("spacerace", 3, {}),
}
ORDER = ("random", "greedy", "easy", "normal", "hard")


def positions(game: Game, games: int, wanted: int, seed: int, most: int) -> tuple[list[tuple[JSON, int]], int]:
    """``wanted`` positions (state JSON, deciding seat), as many from each of ``games`` games of
    random and greedy bots, drawn evenly over each game's choices; and how many games were left
    out for not ending within ``most`` actions (a people's game ends)."""
    players = [make_agent("greedy" if seat % 2 == 0 else "random") for seat in range(game.players)]
    played: list[list[tuple[JSON, int]]] = []
    endless = 0
    number = seed
    while len(played) < games:
        rng = random.Random(number)
        number += 1
        state = game.new_initial_state()
        found: list[tuple[JSON, int]] = []
        for _ in range(most):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            seat = state.awaiting()[0]
            if len(state.legal_actions(seat)) > 1:
                found.append((state.to_json(), seat))
            state.apply_action(players[seat].choose(state.resample(seat, rng), seat, rng), seat)
        if state.is_terminal():
            played.append(found)
        else:
            endless += 1
    sample: list[tuple[JSON, int]] = []
    for index, found in enumerate(played):
        share = wanted // games + (index < wanted % games)
        sample += [found[int(i * len(found) / share)] for i in range(min(share, len(found)))]
    return sample, endless


def spread(seconds: list[float]) -> tuple[float, float, float]:
    """Median, 95th percentile (nearest rank) and slowest of ``seconds``, in ms."""
    times = sorted(seconds)
    p95 = times[max(0, math.ceil(0.95 * len(times)) - 1)]
    return 1000 * statistics.median(times), 1000 * p95, 1000 * times[-1]


def outside(game: Game, sample: list[tuple[JSON, int]]) -> list[float]:
    """Seconds per position of what ``think`` does before its bot: the state from JSON, resampled."""
    times = []
    for state_json, seat in sample:
        start = time.perf_counter()
        game.state_from_json(state_json).resample(seat, random.Random(0))
        times.append(time.perf_counter() - start)
    return times


async def through_the_pool(game: Game, state_json: JSON, seat: int, cap: float | None) -> list[float]:
    """Seconds of the first ``random`` decision of a fresh one-worker BotPool, then of the first
    and the second of another one started with ``warm()`` as the server does (waited for)."""
    times = []
    for warm in (False, True):
        pool = BotPool(1, cap)
        try:
            if warm:
                for future in pool.warm():
                    future.result()
            for seed in ("first", "second")[: 1 + warm]:
                start = time.perf_counter()
                await pool.choose(game, state_json, seat, "random", seed)
                times.append(time.perf_counter() - start)
        finally:
            pool.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cap",
        type=float,
        action="append",
        help="the table's cap per decision in seconds (0: none); repeated, each position is timed with each "
        "cap in turn (default: 1.0)",
    )
    parser.add_argument("--positions", type=int, default=40, help="positions per variant")
    parser.add_argument("--games", type=int, default=3, help="games per variant the positions are drawn from")
    parser.add_argument("--max-actions", type=int, default=3000, help="a game longer than this is left out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS), help="repeatable")
    parser.add_argument("--bot", action="append", choices=sorted(AGENTS), help="repeatable (default: every bot)")
    args = parser.parse_args()
    caps = [cap or None for cap in args.cap or [1.0]]
    names = args.bot or [*ORDER, *sorted(set(AGENTS) - set(ORDER))]
    print(f"compiled rules: {compiled.ACTIVE}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"\n{'variant':<22} {'bot':<9} {'cap s':>5} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'over 1 s':>9}")
    for variant in args.variant or ["mothership", "mothership-expansion"]:
        game_id, players, options = VARIANTS[variant]
        game = load(game_id, players, options)
        sample, endless = positions(game, args.games, args.positions, args.seed, args.max_actions)
        cold, first, second = asyncio.run(through_the_pool(game, *sample[-1], caps[-1]))
        median, p95, slowest = spread(outside(game, sample))
        size = max(len(json.dumps(state_json)) for state_json, _ in sample) / 1024
        print(
            f"{variant:<22} {'(outside)':<9} {'':>5} {median:>10.1f} {p95:>8.1f} {slowest:>8.1f} {'':>9}"
            f"   ({len(sample)} positions of {args.games} games, {endless} more left out unended; largest state"
            f" {size:.0f} KiB; random through a fresh pool: first {1000 * cold:.0f} ms; warmed: first"
            f" {1000 * first:.0f} ms, second {1000 * second:.0f} ms)",
            flush=True,
        )
        for name in names:
            times: dict[float | None, list[float]] = {cap: [] for cap in caps}
            for number, (state_json, seat) in enumerate(sample):
                for cap in caps:  # interleaved, so that each cap sees about the same load
                    start = time.perf_counter()
                    think(game.id, game.players, dict(game.options), state_json, seat, name, f"{number}", cap)
                    times[cap].append(time.perf_counter() - start)
            for cap, measured in times.items():
                median, p95, slowest = spread(measured)
                over = sum(t > 1.0 for t in measured)
                shown = "-" if cap is None else f"{cap:g}"
                print(
                    f"{variant:<22} {name:<9} {shown:>5} {median:>10.1f} {p95:>8.1f} {slowest:>8.1f} "
                    f"{over:>5}/{len(measured)}",
                    flush=True,
                )
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
