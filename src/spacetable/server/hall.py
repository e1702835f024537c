"""Every table of the server (``Tables``), and the group commit of their action rows (``Writer``)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from typing import Any

from .bots import BotPool
from .errors import TableUnavailable
from .requests import Created, TableSpec
from .storage import ActionToStore, SeatInfo, Storage, StoredTable, TableInfo
from .tables import Table, token_hash

log = logging.getLogger("spacetable.server")

FINISHED_KEPT = 64
"""Finished tables kept loaded (for replays) when nobody is connected to them."""
LOBBY_SIZE = 100
WRITE_BATCH = 256
"""Action rows committed together at most, under load."""
GRACE = 120.0
"""Seconds an absent person's seat is kept for them before the others may hand it to a bot."""


class Writer:
    """Group commit: action rows of every table wait in one queue, and one task commits whatever
    has gathered in a single transaction (in a thread), then tells each waiting move. Alone, a
    row is committed at once; under load, many rows share one commit. If a batch fails, its rows
    are tried one by one, so only a row that cannot be stored fails its move."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: asyncio.Queue[tuple[ActionToStore, asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def write(self, row: ActionToStore) -> None:
        """Return once ``row`` is committed; raise what storing it raised."""
        if self._task is None:
            self._task = asyncio.create_task(self._run())
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((row, done))
        await done

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < WRITE_BATCH:
                batch.append(self._queue.get_nowait())
            try:
                await asyncio.to_thread(self.storage.add_actions, [row for row, _ in batch])
                results: list[BaseException | None] = [None] * len(batch)
            except Exception as exc:
                results = [exc] if len(batch) == 1 else [await self._one(row) for row, _ in batch]
            for (_, done), error in zip(batch, results, strict=True):
                if done.done():
                    continue
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)

    async def _one(self, row: ActionToStore) -> BaseException | None:
        try:
            await asyncio.to_thread(self.storage.add_actions, [row])
        except Exception as exc:
            return exc
        return None

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


class Tables:
    """Every table of the server: the live ones rebuilt at start, finished ones loaded when asked.

    ``bot_pace``: the least seconds between two bot moves told at a table (0: none); ``grace``:
    the seconds an absent person's seat is kept for them before it may be handed to a bot."""

    def __init__(self, storage: Storage, bots: BotPool, bot_pace: float = 0.0, grace: float = GRACE) -> None:
        if bot_pace < 0:
            raise ValueError(f"the bots' pace cannot be negative: {bot_pace} s")
        if grace < 0:
            raise ValueError(f"the grace period cannot be negative: {grace} s")
        self.storage = storage
        self.writer = Writer(storage)
        self.bots = bots
        self.bot_pace = bot_pace
        self.grace = grace
        self._tables: OrderedDict[str, Table] = OrderedDict()

    async def start(self) -> None:
        """Rebuild every unfinished table from its rows; its bots, chance and clocks resume."""
        for table_id in await asyncio.to_thread(self.storage.unfinished):
            try:
                table = await self.get(table_id)
            except TableUnavailable as exc:
                log.error("%s", exc)
                continue
            log.info("table %s resumed at n=%d", table_id, table.n)

    async def stop(self) -> None:
        await asyncio.gather(*(t.stop() for t in self._tables.values()))
        await self.writer.stop()

    async def get(self, table_id: str) -> Table:
        """The table, loaded if need be; TableUnavailable if there is none or it cannot be rebuilt."""
        table = self._tables.get(table_id)
        if table is None:
            stored = await asyncio.to_thread(self.storage.load, table_id)
            if stored is None:
                raise TableUnavailable(f"there is no table {table_id!r}")
            table = self._tables.get(table_id)  # loaded by someone else meanwhile
            if table is None:
                table = self._tables[table_id] = Table(self, stored)
                self._warm_bots(table)
                table._changed()
                self._forget_finished()
        self._tables.move_to_end(table_id)
        return table

    def _warm_bots(self, table: Table) -> None:
        """Start the bots' workers with the first table that has a bot to move (a server that
        never seats one never starts them)."""
        if not table.state.is_terminal() and any(s.kind == "bot" for s in table.seats):
            self.bots.warm()

    def _forget_finished(self) -> None:
        idle = [t for t in self._tables.values() if t.state.is_terminal() and not t.connections and not t._tasks]
        for table in idle[: max(0, len(idle) - FINISHED_KEPT)]:
            del self._tables[table.id]

    async def create(self, spec: TableSpec, rematch_of: str | None = None) -> Created:
        """Store a new table (with the rows of the record it starts from), start it (set-up chance,
        bots) and return its links."""
        game = spec.game
        table_id = secrets.token_urlsafe(12)
        tokens = {i: secrets.token_urlsafe(24) for i, s in enumerate(spec.seats) if s.kind == "human"}
        info = TableInfo(
            id=table_id,
            game=game.id,
            game_version=game.version,
            players=game.players,
            options=dict(game.options),
            seed=secrets.token_hex(16),
            rematch_of=rematch_of,
            clock=spec.clock,
        )
        seats = [
            SeatInfo(i, "human", None, f"player {i + 1}", token_hash(tokens[i]))
            if s.kind == "human"
            else SeatInfo(i, "bot", s.level, f"{s.level} bot", None)
            for i, s in enumerate(spec.seats)
        ]
        await asyncio.to_thread(self.storage.create_table, info, seats, spec.start)
        table = self._tables[table_id] = Table(self, StoredTable(info, seats, list(spec.start)))
        self._warm_bots(table)
        table._changed()
        links = [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "link": f"/t/{table_id}#seat={s.seat}&token={tokens[s.seat]}" if s.seat in tokens else None,
            }
            for s in seats
        ]
        return Created(table_id, links)

    async def lobby(self) -> list[dict[str, Any]]:
        """The newest tables for the lobby, with who is connected to the loaded ones."""
        rows = await asyncio.to_thread(self.storage.lobby, LOBBY_SIZE)
        result = []
        for info, seats, n in rows:
            live = self._tables.get(info.id)
            result.append(
                {
                    "table": info.id,
                    "game": info.game,
                    "players": info.players,
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "level": s.level,
                            "connected": s.kind == "bot" or (live is not None and live.connected(s.seat)),
                        }
                        for s in seats
                    ],
                    "n": n,
                    "finished": info.finished,
                }
            )
        return result
