"""Bots in worker processes, so that a bot thinking never holds up another table or the server.

A worker is handed the whole state as JSON and gives its bot only ``state.resample(seat)``, as
every driver does (engine/match.py): the bot cannot read what its seat may not know.

At the table a decision has a wall-clock cap (``BotPool(seconds=...)``, ``spacetable serve
--bot-seconds``, default :data:`TABLE_SECONDS`): what the worker spends rebuilding the state
counts against it, and the search levels search for what is left (their iteration budgets stay
an upper bound). Batch runs (play, simulate, tournament, the lab) never go through here and keep
their levels' budgets.
"""

from __future__ import annotations

import asyncio
import functools
import json
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from spacetable.agents import make_agent
from spacetable.engine import JSON, Game, list_games, load

TABLE_SECONDS = 1.0
"""The default cap on the wall time of a bot's decision at the table."""
AFTER_SEARCH = 0.05
"""Seconds of the cap kept back for what follows a search's clock check: its last iteration,
choosing the move, the move's JSON and its way back to the server."""
SEARCH_FLOOR = 0.02
"""The least time left to search when rebuilding the state took (nearly) the whole cap."""


@functools.lru_cache(maxsize=32)
def _game(game_id: str, players: int, options_json: str) -> Game:
    return load(game_id, players, json.loads(options_json))


def think(
    game_id: str,
    players: int,
    options: dict[str, Any],
    state_json: JSON,
    seat: int,
    bot: str,
    seed: str,
    seconds: float | None = None,
) -> dict[str, Any]:
    """The move of bot ``bot`` in ``seat`` as the action's JSON (runs in a worker process).

    ``seconds`` caps the decision's wall time, counted from the call: the search gets what is left
    after the state is rebuilt and resampled, less AFTER_SEARCH (at least SEARCH_FLOOR). Without it
    the decision is deterministic for a given ``seed``; the game is built once per worker and options."""
    start = time.perf_counter()
    game = _game(game_id, players, json.dumps(options, sort_keys=True))
    state = game.state_from_json(state_json)
    rng = random.Random(seed)
    view = state.resample(seat, rng)
    left = None if seconds is None else max(SEARCH_FLOOR, seconds - AFTER_SEARCH - (time.perf_counter() - start))
    action = make_agent(bot, left).choose(view, seat, rng)
    return game.actions.to_json(action)


def _warm() -> None:
    """In a worker: register every game now rather than on its first decision."""
    list_games()


def _exit_with(parent: int) -> None:
    """In a worker: end this process once ``parent`` (the server) is gone, even if it was killed
    with no chance to shut the pool down."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-server", daemon=True).start()


class BotPool:
    """A pool of worker processes (``spawn``ed: no copy of the server's threads or sockets) that
    end with the server, however it ends. ``seconds`` caps each decision (None: the levels' own
    budgets)."""

    def __init__(self, workers: int | None = None, seconds: float | None = TABLE_SECONDS) -> None:
        if seconds is not None and seconds <= 0:
            raise ValueError(f"a bot's decision needs a positive cap, not {seconds} s")
        self.seconds = seconds
        self.workers = workers or os.cpu_count() or 1
        self._warmed = False
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_exit_with,
            initargs=(os.getpid(),),
        )

    def warm(self) -> list[Future[None]]:
        """Start every worker now, each importing the package and the games (seconds, which a
        worker's first decision would otherwise spend over its cap); once, when the first table
        with a bot seat is made or loaded. The server does not wait for them; the futures say when
        they are done (none after the first call)."""
        if self._warmed:
            return []
        self._warmed = True
        return [self._executor.submit(_warm) for _ in range(self.workers)]  # none idle: each starts one

    async def choose(self, game: Game, state_json: JSON, seat: int, bot: str, seed: str) -> dict[str, Any]:
        """Await ``think`` in a worker; raises whatever the bot raised."""
        loop = asyncio.get_running_loop()
        options = dict(game.options)
        call = functools.partial(think, game.id, game.players, options, state_json, seat, bot, seed, self.seconds)
        return await loop.run_in_executor(self._executor, call)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
