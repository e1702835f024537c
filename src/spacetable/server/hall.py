"""Every table of the server (``Tables``), and the group commit of their action rows (``Writer``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Coroutine
from typing import Any

from . import presence
from .bots import BotPool
from .errors import TableUnavailable
from .metrics import Metrics
from .requests import Created, TableSpec
from .storage import CHANNEL, ActionToStore, SeatInfo, Storage, StoredTable, TableInfo
from .tables import RETRY_SECONDS, Table, token_hash

log = logging.getLogger("spacetable.server")

FINISHED_KEPT = 64
"""Finished tables kept loaded (for replays) when nobody is connected to them."""
IDLE_SECONDS = 600.0
"""A table nobody touched for this long, with nobody connected and no work pending, is let go
from memory (its rows rebuild it when next asked for)."""
SWEEP_SECONDS = 60.0
"""How often idle tables are looked for."""
DRIVE_SECONDS = 5.0
"""How often a process offers to drive the tables it holds whose driver is gone (several processes)."""
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
    """Every table of the server, each rebuilt from its rows when first asked for (a socket, an
    HTTP request) and let go once idle; at start, those stored as ``due`` are rebuilt in the
    background, so that their bots, chance and clocks resume.

    ``bot_pace``: the least seconds between two bot moves told at a table (0: none); ``grace``:
    the seconds an absent person's seat is kept for them before it may be handed to a bot;
    ``idle_seconds``: how long an idle table stays in memory (``IDLE_SECONDS``)."""

    def __init__(
        self,
        storage: Storage,
        bots: BotPool,
        bot_pace: float = 0.0,
        grace: float = GRACE,
        idle_seconds: float = IDLE_SECONDS,
        metrics: Metrics | None = None,
    ) -> None:
        if bot_pace < 0:
            raise ValueError(f"the bots' pace cannot be negative: {bot_pace} s")
        if grace < 0:
            raise ValueError(f"the grace period cannot be negative: {grace} s")
        self.storage = storage
        self.writer = Writer(storage)
        self.bots = bots
        self.bot_pace = bot_pace
        self.grace = grace
        self.idle_seconds = idle_seconds
        self.metrics = Metrics() if metrics is None else metrics
        """The application's metrics (``metrics.Metrics``; a fresh set of its own if none is given)."""
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._background: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[None]] = set()
        self._driving: set[str] = set()
        """The tables whose advisory lock this process holds (several processes: ``drives``)."""
        self._locks: Any = None
        """The connection holding those locks (psycopg, several processes only)."""
        self._locking = asyncio.Lock()
        self._declined: dict[str, float] = {}
        """Table -> when (``time.monotonic()``) another process was found driving it."""
        self.resumed = asyncio.Event()
        """Set once every table stored as due at start has been rebuilt (or found unavailable)."""

    @property
    def loaded(self) -> int:
        """How many tables are in memory."""
        return len(self._tables)

    async def start(self) -> None:
        """Start resuming the tables stored as due, and letting idle tables go; returns at once
        (no table is rebuilt before the server is ready)."""
        self._background = [asyncio.create_task(self._resume()), asyncio.create_task(self._sweep())]
        if self.storage.shared:
            self._background += [asyncio.create_task(self._listen()), asyncio.create_task(self._announce_often())]
            self._background.append(asyncio.create_task(self._take_over()))

    async def _resume(self) -> None:
        """Rebuild, one after the other, the tables stored as due: their chance, bots and clocks go on."""
        try:
            await self._resume_each()
        finally:
            self.resumed.set()

    async def _resume_each(self) -> None:
        for table_id in await asyncio.to_thread(self.storage.due):
            try:
                table = await self.get(table_id)
                await table.store_due()
            except TableUnavailable as exc:
                log.error("%s", exc)
                continue
            except Exception:
                log.exception("table %s: could not be resumed", table_id)
                continue
            log.info("table %s resumed at n=%d", table_id, table.n)

    async def _listen(self) -> None:
        """Hear every change other processes commit (PostgreSQL LISTEN on ``storage.CHANNEL``) and
        have the tables loaded here play it; after a lost connection, every loaded table catches up."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.storage.listen_dsn(), autocommit=True) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    for loaded in list(self._tables.values()):
                        loaded.heard()  # what was committed while nobody listened
                    async for note in db.notifies():
                        self._heard(note.payload)
            except Exception as exc:  # the database went away: listen again once it is back
                log.warning("not hearing other processes' moves (%s); listening again in %g s", exc, RETRY_SECONDS)
                await asyncio.sleep(RETRY_SECONDS)

    def _heard(self, note: str) -> None:
        """Another process's announcement: ``origin table_id`` (a commit) or ``origin table_id
        p:seats`` (who it has connected there)."""
        origin, table_id, *word = note.split(" ", 2)
        table = self._tables.get(table_id)
        if table is None or origin == self.storage.origin:
            return
        if not word:
            table.heard()
        elif (seats := presence.seats_of(word[0])) is not None:
            table.heard_presence(origin, seats)

    def announce(self, table: Table) -> None:
        """Tell the other processes who is connected to ``table`` here (when that changed)."""
        if self.storage.shared:
            self._spawn(self._announce([table]))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept until it is done."""
        task = asyncio.create_task(work)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    async def _announce(self, tables: list[Table]) -> None:
        news = [(table.id, presence.payload(table.seats_here())) for table in tables]
        try:
            await asyncio.to_thread(self.storage.announce, news)
        except Exception as exc:  # the next round says it again
            log.warning("could not tell the other processes who is connected here: %s", exc)

    async def _announce_often(self) -> None:
        """Every PRESENCE_SECONDS, who is connected here to each table with a player here."""
        while True:
            await asyncio.sleep(presence.PRESENCE_SECONDS)
            await self._announce([t for t in self._tables.values() if t.seats_here()])

    async def drives(self, table: Table) -> bool:
        """Whether this process plays ``table``'s chance, bots and clocks: always, alone on its
        database; with several processes, only the one holding the table's advisory lock
        (``pg_try_advisory_lock``, taken here if no process has it), so that one thinks for them."""
        if not self.storage.shared or table.id in self._driving:
            return True
        if time.monotonic() - self._declined.get(table.id, -DRIVE_SECONDS) < DRIVE_SECONDS / 2:
            return False  # asked lately: the driver is there; _take_over asks again
        import psycopg

        async with self._locking:
            try:
                if self._locks is None or self._locks.closed:
                    self._driving.clear()  # the locks went with their connection
                    self._locks = await psycopg.AsyncConnection.connect(self.storage.listen_dsn(), autocommit=True)
                found = await self._locks.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (table.id,))
                row = await found.fetchone()
            except Exception as exc:  # the database is away: nobody drives from here until it is back
                log.warning("table %s: could not ask to drive it (%s)", table.id, exc)
                self._locks = None
                return False
        if row is not None and row[0]:
            self._driving.add(table.id)
            self._declined.pop(table.id, None)
            return True
        self._declined[table.id] = time.monotonic()
        return False

    async def _take_over(self) -> None:
        """Every DRIVE_SECONDS, offer to drive the tables held here that await their own work: the
        lock of a process that died is free, and its tables go on from here."""
        while True:
            await asyncio.sleep(DRIVE_SECONDS)
            for table in list(self._tables.values()):
                if table.id not in self._driving and table.due:
                    table.start_work()

    async def _let_go_locks(self, table_ids: list[str]) -> None:
        async with self._locking:
            with contextlib.suppress(Exception):  # a lost connection has let them go already
                for table_id in table_ids:
                    await self._locks.execute("SELECT pg_advisory_unlock(hashtext(%s))", (table_id,))

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.let_go_idle()

    def let_go_idle(self) -> int:
        """Let go of the tables idle for ``idle_seconds``; how many were let go."""
        now = time.monotonic()
        idle = [t.id for t in self._tables.values() if t.idle() and now - t.touched >= self.idle_seconds]
        for table_id in idle:
            del self._tables[table_id]
            self._declined.pop(table_id, None)
        if driven := [table_id for table_id in idle if table_id in self._driving]:
            self._driving.difference_update(driven)
            self._spawn(self._let_go_locks(driven))
        return len(idle)

    async def stop(self) -> None:
        for task in self._background:
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await asyncio.gather(*(t.stop() for t in self._tables.values()))
        await self.writer.stop()
        if self._locks is not None:
            await self._locks.close()

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
        table.touched = time.monotonic()
        return table

    def _warm_bots(self, table: Table) -> None:
        """Start the bots' workers with the first table that has a bot to move (a server that
        never seats one never starts them)."""
        if not table.state.is_terminal() and any(s.kind == "bot" for s in table.seats):
            self.bots.warm()

    def _forget_finished(self) -> None:
        idle = [t for t in self._tables.values() if t.state.is_terminal() and t.idle()]
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
        table = Table(self, StoredTable(info, seats, list(spec.start)))
        await table.store_new()
        self._tables[table_id] = table
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
