"""Bots in worker processes, so that a bot thinking never holds up another table or the server.

A worker is handed the whole state as JSON and gives its bot only ``state.resample(seat)``, as
every driver does (engine/match.py): the bot cannot read what its seat may not know.
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
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from spacetable.agents import make_agent
from spacetable.engine import JSON, Game, load


@functools.lru_cache(maxsize=32)
def _game(game_id: str, players: int, options_json: str) -> Game:
    return load(game_id, players, json.loads(options_json))


def think(
    game_id: str, players: int, options: dict[str, Any], state_json: JSON, seat: int, bot: str, seed: str
) -> dict[str, Any]:
    """The move of bot ``bot`` in ``seat`` as the action's JSON (runs in a worker process).

    Deterministic for a given ``seed``; the game is built once per worker and options."""
    game = _game(game_id, players, json.dumps(options, sort_keys=True))
    state = game.state_from_json(state_json)
    rng = random.Random(seed)
    action = make_agent(bot).choose(state.resample(seat, rng), seat, rng)
    return game.actions.to_json(action)


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
    end with the server, however it ends."""

    def __init__(self, workers: int | None = None) -> None:
        self._executor = ProcessPoolExecutor(
            max_workers=workers or os.cpu_count() or 1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_exit_with,
            initargs=(os.getpid(),),
        )

    async def choose(self, game: Game, state_json: JSON, seat: int, bot: str, seed: str) -> dict[str, Any]:
        """Await ``think`` in a worker; raises whatever the bot raised."""
        loop = asyncio.get_running_loop()
        call = functools.partial(think, game.id, game.players, dict(game.options), state_json, seat, bot, seed)
        return await loop.run_in_executor(self._executor, call)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
