"""The table actor: one object per table holds its game, its live state and its event log.

One message is applied at a time (``Table.lock``). An action is checked (decoded by the game's
``ActionSpace``, owed by its seat, made on a current ``n``, its id new), applied to a copy of
the state, stored and committed, and only then does the copy become the table's state and is
anyone told. Chance outcomes (the server's generator, reseeded per row from the table's secret
seed, so a restart draws the same) and bot seats (worker processes) follow, each its own row.
A refusal changes nothing and comes with one line saying why, with no hidden value in it.

A bot's move is committed and told no sooner than the hall's ``bot_pace`` seconds after the
table's previous bot move was told, so that people can follow a bot's turn move by move. The
bot thinks first and only the rest of the pace is waited for, with no lock held: a person's move
or a disconnect meanwhile is handled as ever, and a move is still committed before it is told.

An absent person's seat may be handed to a bot (every other person voting for it) once the hall's
``grace`` has passed since it was last connected; it keeps its person's token, who may take it
back until the game ends. Other processes' commits and presence reach the table (``heard``,
``heard_presence``); a move another process committed first is caught up with (``Conflict``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import random
import time
from collections import OrderedDict
from collections.abc import Coroutine, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from spacetable.engine import Action, Event, Game, IllegalActionError, SpacetableError, State, load
from spacetable.engine.protocol import seat_words

from . import messages
from .connections import Connection
from .errors import BadToken, Conflict, Refused, TableUnavailable, one_line
from .messages import Frame
from .presence import Elsewhere
from .requests import Created, SeatSpec, TableSpec
from .storage import ActionToStore, SeatInfo, StoredTable, TableInfo

if TYPE_CHECKING:
    from .hall import Tables

log = logging.getLogger("spacetable.server")

SEEN_IDS = 256
"""Client message ids remembered per seat to refuse a repeated message."""
RETRY_SECONDS = 2.0
"""Wait before retrying a chance outcome or a bot move that could not be stored."""
MAX_ID = 64
RACES = 8
"""Tries of a person's move that another process keeps committing ahead of (several processes)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# ---- the table -------------------------------------------------------------------------


class Table:
    """One table: its game, state, event log and clients. Built by replaying its stored rows.

    ``due`` (whether the game awaits chance, a bot or a clocked seat) is stored with each row that
    changes it, so that a restarted server rebuilds only the tables with work to resume."""

    def __init__(self, hall: Tables, stored: StoredTable) -> None:
        self.hall = hall
        self.info = stored.info
        self.id = stored.info.id
        self.seats = list(stored.seats)
        self.game = _game_of(stored.info)
        self.state, self.events, self.rows = self._replay(stored.actions)
        self.asked: dict[int, int] = {}
        """For each seat that owes a decision, the ``n`` at which it was first asked."""
        self.deadlines: dict[int, float] = {}
        """For human seats asked under a clock: when (``time.monotonic()``) the clock runs out."""
        self._note_asked(None)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.votes: dict[int, set[int]] = {}
        """Seat -> the seats that agree to hand it to a bot."""
        self._away_since = dict.fromkeys(range(len(self.seats)), time.monotonic())
        """Seat -> when (``time.monotonic()``) its last connection closed, else when the table was
        made or loaded (the grace counts from it while nobody plays the seat)."""
        self.rematch: Created | None = None
        self._seen: dict[int, OrderedDict[str, None]] = {}
        self._tasks: dict[tuple[int, int, str], asyncio.Task[None]] = {}
        self.checkpoints: list[State] | None = None
        """Once replays are asked for: every ``messages.CHECKPOINT``-th position (a copy of each)."""
        self._bot_told = -math.inf
        """When (``time.monotonic()``) a bot's move was last committed or told (the pace counts from it)."""
        self._bot_untold = False
        """A bot's move is committed but not told yet (chance outcomes after it are being played)."""
        self._due_stored = stored.info.due
        """The table's ``due`` as stored (``storage.TableRow.due``)."""
        self._news = False
        """Another process committed a change that is not played here yet."""
        self.elsewhere = Elsewhere()
        self.touched = time.monotonic()
        """When (``time.monotonic()``) the hall last handed the table out (idle tables are let go)."""

    @property
    def n(self) -> int:
        """The number of stored actions (chance included)."""
        return len(self.rows)

    def _replay(self, rows: Sequence[tuple[int | None, Any]]) -> tuple[State, list[tuple[int, Event]], list[Any]]:
        state = self.game.new_initial_state()
        events: list[tuple[int, Event]] = []
        for number, (seat, data) in enumerate(rows, start=1):
            try:
                events += [(number, e) for e in state.apply_action(self.game.actions.from_json(data), seat)]
            except IllegalActionError as exc:
                raise TableUnavailable(one_line(f"table {self.id}: action {number} does not replay: {exc}")) from None
        return state, events, list(rows)

    # ---- who is here ---------------------------------------------------------------------
    def seat_of(self, token: object) -> int | None:
        """The seat whose token this is; None (a spectator) for a null token. Refused otherwise."""
        if token is None:
            return None
        if isinstance(token, str):
            digest = token_hash(token)
            for seat in self.seats:
                if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                    return seat.seat
        raise BadToken("this token is not one of this table's seats")

    def join(self, seat: int | None, since: object) -> Connection:
        """Register a client; it is sent the welcome, an update with the events after ``since``, and
        the link of a rematch already made."""
        start = since if type(since) is int and 0 <= since <= self.n else 0
        conn = Connection(seat, start)
        here = self.seats_here()
        self.connections.add(conn)
        if seat is not None:
            self.votes.pop(seat, None)  # its person is back: the votes to replace them lapse
            if seat not in here:
                self.hall.announce(self)
        conn.send(messages.welcome(self, seat))
        conn.send_update()
        if self.rematch is not None:
            conn.send(messages.rematch(self.rematch, seat))
        self._broadcast(messages.presence(self))
        return conn

    def leave(self, conn: Connection) -> None:
        """Forget a client; a seat left with no connection starts its grace."""
        self.connections.discard(conn)
        if conn.seat is not None and conn.seat not in self.seats_here():
            self._away_since[conn.seat] = time.monotonic()
            self.hall.announce(self)
        self._broadcast(messages.presence(self))

    def seats_here(self) -> frozenset[int]:
        """The seats this process's sockets play."""
        return frozenset(c.seat for c in self.connections if c.seat is not None)

    def heard_presence(self, origin: str, seats: frozenset[int]) -> None:
        """Another process has the people of ``seats`` connected here: a seat that left it starts its grace."""
        before = self.elsewhere.seats()
        if self.elsewhere.heard(origin, seats):
            for seat in before - self.elsewhere.seats() - self.seats_here():
                self._away_since[seat] = time.monotonic()
            self._broadcast(messages.presence(self))

    def connected(self, seat: int) -> bool:
        """Whether anyone plays the seat now, through this process or another (a bot always does)."""
        return self.seats[seat].kind == "bot" or seat in self.seats_here() or seat in self.elsewhere.seats()

    def handed(self, seat: int | None) -> bool:
        """Whether a bot plays ``seat`` for a person who may take it back."""
        return seat is not None and self.seats[seat].handed

    def grace_left(self, seat: int) -> int | None:
        """Whole seconds before the absent person of ``seat`` may be handed to a bot; None while
        the seat is played (connected, or by a bot), once the game is over, or after the grace."""
        if self.connected(seat) or self.state.is_terminal():
            return None
        left = math.ceil(self._away_since[seat] + self.hall.grace - time.monotonic())
        return left if left > 0 else None

    def presence(self) -> list[dict[str, Any]]:
        return [
            {"seat": s.seat, "connected": self.connected(s.seat), "grace": self.grace_left(s.seat)} for s in self.seats
        ]

    def idle(self) -> bool:
        """Nobody is connected and no bot, chance or clock has work pending: the table may be let
        go from memory (the stored rows rebuild it when next asked for)."""
        return not self.connections and not self._tasks and not self.lock.locked()

    @property
    def due(self) -> bool:
        """Whether the game awaits chance, a bot or a seat under a clock."""
        return _due(self.state, self.seats, self.info.clock)

    async def store_new(self) -> None:
        """Store this new table, its seats, the rows it starts from and its ``due``."""
        self.info = replace(self.info, due=self.due)
        await asyncio.to_thread(self.hall.storage.create_table, self.info, self.seats, self.rows)
        self._due_stored = self.info.due

    async def store_due(self) -> None:
        """Store the table's ``due`` if it is not what is stored (a table loaded after an upgrade)."""
        async with self.lock:
            if (due := self.due) != self._due_stored:
                await asyncio.to_thread(self.hall.storage.set_due, self.id, due)
                self._due_stored = due

    def spectators(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def clock_left(self, seat: int | None) -> float | None:
        """Seconds left on ``seat``'s clock if it owes a decision, else on the soonest one running."""
        if not self.deadlines:
            return None
        own = None if seat is None else self.deadlines.get(seat)
        deadline = min(self.deadlines.values()) if own is None else own
        return round(max(0.0, deadline - time.monotonic()), 1)

    def _broadcast(self, frame: Frame) -> None:
        for conn in self.connections:
            conn.send(frame)

    # ---- messages --------------------------------------------------------------------------
    async def act(self, seat: int | None, message_id: object, n: object, data: object) -> None:
        """A client's move: checked, applied, committed, then chance and bots play on."""
        if seat is None:
            raise Refused("spectators cannot act")
        if not isinstance(message_id, str) or not 0 < len(message_id) <= MAX_ID:
            raise Refused(f"'id' must be a string of 1 to {MAX_ID} characters")
        if type(n) is not int:
            raise Refused("'n' must be the number of the update the move was made on")
        async with self.lock:
            seen = self._seen.setdefault(seat, OrderedDict())
            if message_id in seen:
                raise Refused(f"message {message_id!r} was already received")
            try:
                action = self.game.actions.from_json(data)
            except SpacetableError as exc:
                raise Refused(one_line(str(exc))) from None
            for _ in range(RACES):  # another process may commit first: caught up, checked again
                self._check_turn(seat, n)
                with contextlib.suppress(Conflict):
                    await self._apply(seat, action)
                    break
            else:
                raise Refused("other moves kept being made here first; nothing changed, try again")
            self.hall.metrics.moved(self, seat, "person")
            seen[message_id] = None
            if len(seen) > SEEN_IDS:
                seen.popitem(last=False)
        self._changed()

    def _check_turn(self, seat: int, n: int) -> None:
        """Refused unless ``seat``'s person owes a decision now, asked at or before ``n``."""
        if self.state.is_terminal():
            raise Refused("the game is over")
        if self.seats[seat].kind != "human":
            raise Refused(f"a bot plays seat {seat + 1} now: take the seat back to move")
        if seat not in self.state.awaiting():
            waiting = seat_words(self.state.awaiting()) if self.state.awaiting() else "chance"
            raise Refused(f"seat {seat + 1} owes no decision now; waiting for {waiting}")
        if not self.asked[seat] <= n <= self.n:
            raise Refused(
                f"stale move: made on n={n}, but this decision was asked at n={self.asked[seat]} (now n={self.n})"
            )

    async def vote(self, voter: int | None, target: object, agree: object) -> None:
        """A vote to hand an absent person's seat to a greedy bot once its grace has passed; carried
        when every other person agrees. The seat keeps its person's token (they may take it back)."""
        if voter is None:
            raise Refused("spectators cannot vote")
        if type(target) is not int or not 0 <= target < len(self.seats) or type(agree) is not bool:
            raise Refused(f"a vote is {{seat: 0 to {len(self.seats) - 1}, agree: true or false}}")
        async with self.lock:
            if self.state.is_terminal():
                raise Refused("the game is over")
            if self.seats[voter].kind != "human":
                raise Refused(f"a bot plays seat {voter + 1} now: take the seat back to vote")
            if self.seats[target].kind != "human":
                raise Refused(f"seat {target + 1} is already played by a bot")
            if target == voter:
                raise Refused("a seat cannot vote on its own replacement")
            if self.connected(target):
                raise Refused(f"seat {target + 1} is connected: only an absent player's seat can be handed to a bot")
            left = self.grace_left(target)
            if left is not None:
                raise Refused(
                    f"seat {target + 1}'s player may yet come back: the seat can be handed to a bot in {left} s"
                )
            voters = self.votes.setdefault(target, set())
            if agree:
                voters.add(voter)
            else:
                voters.discard(voter)
            humans = {s.seat for s in self.seats if s.kind == "human"} - {target}
            if humans <= voters:
                await self._seat(replace(self.seats[target], kind="bot", level="greedy", handed=True))
                del self.votes[target]
        self._broadcast(messages.presence(self))
        self._changed()

    async def take_back(self, seat: int | None) -> None:
        """A handed seat's person plays it again: the bot's pending decision is dropped and, under
        a clock, the seat's clock starts afresh."""
        if seat is None:
            raise Refused("spectators have no seat to take back")
        async with self.lock:
            if self.state.is_terminal():
                raise Refused("the game is over: there is no seat to take back")
            if not self.seats[seat].handed:
                raise Refused(f"no bot plays seat {seat + 1} for you: there is nothing to take back")
            await self._seat(replace(self.seats[seat], kind="human", level=None, handed=False))
            if self.info.clock and seat in self.asked:
                self.deadlines[seat] = time.monotonic() + self.info.clock
        self._broadcast(messages.presence(self))
        self._changed()

    async def _seat(self, info: SeatInfo) -> None:
        """Store who plays a seat now (under the lock), then drop the seat's pending bot or clock
        move and its clock; Refused (nothing changed) if it cannot be stored."""
        seats = [info if s.seat == info.seat else s for s in self.seats]
        due = _due(self.state, seats, self.info.clock)
        try:
            await asyncio.to_thread(self.hall.storage.set_seat, self.id, info, None if due == self._due_stored else due)
        except Exception:
            log.exception("table %s: the change of seat %d could not be saved", self.id, info.seat)
            raise Refused("the change of seat could not be saved; nothing changed, try again") from None
        self._due_stored = due
        self._reseated(info)

    def _reseated(self, info: SeatInfo) -> None:
        """Someone else plays a seat now: its pending bot or clock move and its clock are dropped."""
        self.seats[info.seat] = info
        self.deadlines.pop(info.seat, None)
        for key in [k for k in self._tasks if k[0] == info.seat]:
            self._tasks.pop(key).cancel()

    async def ask_rematch(self, seat: int | None) -> None:
        """A new table with the same game, options and seats; every client is sent its link."""
        if seat is None:
            raise Refused("only a player can ask for a rematch")
        if not self.state.is_terminal():
            raise Refused("the game is not over yet")
        async with self.lock:
            if self.rematch is None:
                seats = tuple(SeatSpec("human") if s.handed else SeatSpec(s.kind, s.level) for s in self.seats)
                spec = TableSpec(self.game, seats, self.info.clock)
                self.rematch = await self.hall.create(spec, rematch_of=self.id)
        for conn in self.connections:
            conn.send(messages.rematch(self.rematch, conn.seat))

    # ---- applying --------------------------------------------------------------------------
    async def _apply(self, seat: int | None, action: Action, announce: Sequence[Event] = ()) -> None:
        """Apply to a copy, commit the row, then adopt the copy. Refused (nothing changed) if the
        rules refuse the action or the row cannot be stored."""
        after = self.state.clone()
        try:
            events = [*announce, *after.apply_action(action, seat)]
        except IllegalActionError as exc:
            raise Refused(one_line(str(exc))) from None
        except Exception:  # a bug in a game must cost one refusal, not the table
            log.exception("table %s: the game failed applying %r for seat %s", self.id, action, seat)
            raise Refused("the game failed to apply this action (a bug, logged); nothing changed") from None
        number = self.n + 1
        data = self.game.actions.to_json(action)
        outcome = after.outcome()
        due = _due(after, self.seats, self.info.clock)
        row = ActionToStore(
            self.id,
            number,
            seat,
            data,
            None if outcome is None else outcome.to_json(),
            None if due == self._due_stored else due,
        )
        try:
            await self.hall.writer.write(row)
        except IntegrityError:
            log.info("table %s: action %d was committed by another process first; catching up", self.id, number)
            await self._catch_up()
            raise Conflict("another move was made here first; this one was checked again") from None
        except Exception:
            log.exception("table %s: action %d could not be stored; reloading the table", self.id, number)
            await self._reload()
            raise Refused("the move could not be saved; nothing changed, try again") from None
        self.state = after
        self._due_stored = due
        self.rows.append((seat, data))
        self.events += [(number, e) for e in events]
        self._note_asked(seat)

    async def _reload(self) -> None:
        """Take the stored rows as the truth again (a failed commit may have been stored after all)."""
        try:
            stored = await asyncio.to_thread(self.hall.storage.load, self.id)
            if stored is not None:
                self.state, self.events, self.rows = self._replay(stored.actions)
                self._due_stored = stored.info.due
                self.asked.clear()
                self._note_asked(None)
        except Exception:
            log.exception("table %s: could not be reloaded; keeping the position in memory", self.id)

    def heard(self) -> None:
        """Another process committed a change to this table: play it here in the background."""
        self._news = True
        self._start((-1, 0, "news"), self._play_news())

    async def _play_news(self) -> None:
        while self._news:
            self._news = False
            async with self.lock:
                changed = await self._catch_up()
            if changed:
                self._broadcast(messages.presence(self))
                self._changed()

    async def _catch_up(self) -> bool:
        """Under the lock: take the seats and the actions after ``n`` that another process
        committed; whether anything changed. An action that does not replay reloads the table."""
        try:
            seats, rows = await asyncio.to_thread(self.hall.storage.news, self.id, self.n)
        except Exception:
            log.exception("table %s: could not read what other processes committed", self.id)
            return False
        reseated = [info for info in seats if info != self.seats[info.seat]]
        for info in reseated:
            self._reseated(info)
        for seat, data in rows:
            number = self.n + 1
            try:
                events = self.state.apply_action(self.game.actions.from_json(data), seat)
            except Exception:
                log.exception("table %s: action %d committed elsewhere does not replay; reloading", self.id, number)
                await self._reload()
                return True
            self.rows.append((seat, data))
            self.events += [(number, e) for e in events]
            self._note_asked(seat)
        self._due_stored = self.due
        return bool(rows or reseated)

    def _note_asked(self, actor: int | None) -> None:
        awaiting = self.state.awaiting()
        if actor is not None:
            self.asked.pop(actor, None)
        for seat in [s for s in self.asked if s not in awaiting]:
            del self.asked[seat]
        for seat in [s for s in self.deadlines if s not in self.asked]:
            del self.deadlines[seat]
        for seat in awaiting:
            if seat not in self.asked:
                self.asked[seat] = self.n
                if self.info.clock and self.seats[seat].kind == "human":
                    self.deadlines[seat] = time.monotonic() + self.info.clock

    # ---- what happens next -----------------------------------------------------------------
    def _changed(self) -> None:
        """After any change: tell every client (unless chance is to roll first), then start the
        work the game awaits from the table itself."""
        if not self.state.is_chance_node():
            if self._bot_untold:
                self._bot_untold, self._bot_told = False, time.monotonic()
            for conn in self.connections:
                conn.send_update()
        self.start_work()

    def start_work(self) -> None:
        """Start the chance outcomes, the bots' moves and the clocks the game awaits (each plays
        only where this process drives the table: ``hall.drives``)."""
        if self.state.is_chance_node():
            self._start((-1, self.n, "chance"), self._chance())
            return
        for seat in self.state.awaiting():
            info, asked = self.seats[seat], self.asked[seat]
            if info.kind == "bot" and info.level is not None:
                self._start((seat, asked, "bot"), self._auto_move(seat, asked, info.level, 0.0))
            elif seat in self.deadlines:
                delay = self.deadlines[seat] - time.monotonic()
                self._start((seat, asked, "clock"), self._auto_move(seat, asked, "greedy", delay))

    def _start(self, key: tuple[int, int, str], work: Coroutine[Any, Any, None]) -> None:
        if key in self._tasks and not self._tasks[key].done():
            work.close()
            return
        task = asyncio.create_task(work)
        self._tasks[key] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self._tasks.get(key) is done:  # not a newer task of the same key
                del self._tasks[key]

        task.add_done_callback(forget)

    def _again(self, refused: Refused) -> None:
        """Once this task is done, start again: at once after a ``Conflict`` (another process moved
        first), else after RETRY_SECONDS (the move could not be stored)."""
        asyncio.get_running_loop().call_later(0 if isinstance(refused, Conflict) else RETRY_SECONDS, self._changed)

    async def _chance(self) -> None:
        if not await self.hall.drives(self):
            return
        try:
            async with self.lock:
                while self.state.is_chance_node():
                    rng = random.Random(f"{self.info.seed}:{self.n}")
                    await self._apply(None, self.state.sample_chance(rng))
                    self.hall.metrics.moved(self, None, "chance")
        except Refused as refused:
            self._again(refused)
            return
        self._changed()

    async def _auto_move(self, seat: int, asked: int, bot: str, delay: float) -> None:
        """Play ``seat``'s decision asked at ``asked`` with ``bot``: at once for a bot seat (told once
        the pace has passed since the last bot move told), after ``delay`` seconds for a human whose
        clock runs (unless the human has moved by then)."""
        if delay > 0:
            await asyncio.sleep(delay)
        if self.asked.get(seat) != asked or not await self.hall.drives(self):
            return
        clock_ran_out = self.seats[seat].kind == "human"
        seed = f"{self.info.seed}:{self.n}:{seat}"
        try:
            with self.hall.metrics.deciding(bot):
                data: object = await self.hall.bots.choose(self.game, self.state.to_json(), seat, bot, seed)
        except Exception:  # a crashed bot must not stop the table
            log.exception("table %s: bot %s failed in seat %d; playing a random legal move", self.id, bot, seat)
            data = None
        try:
            while True:
                while not clock_ran_out and (wait := self._pace_left()) > 0:
                    await asyncio.sleep(wait)  # what is left of the pace once the bot has thought
                async with self.lock:
                    if self.asked.get(seat) != asked:
                        return
                    if not clock_ran_out and self._pace_left() > 0:
                        continue  # another bot's move (a seat deciding at once) was told meanwhile
                    legal = self.state.legal_actions(seat)
                    action = next((a for a in legal if self.game.actions.to_json(a) == data), None)
                    if action is None:
                        if data is not None:
                            log.error("table %s: bot %s chose %r, not legal in seat %d", self.id, bot, data, seat)
                        action = random.Random(seed).choice(legal)
                    ran_out = f"the clock ran out for {self.seats[seat].name}: a bot moved for them"
                    notice = [Event("clock", ran_out)] if clock_ran_out else []
                    await self._apply(seat, action, notice)
                    self.hall.metrics.moved(self, seat, "clock" if clock_ran_out else "bot")
                    if not clock_ran_out:
                        self._bot_told, self._bot_untold = time.monotonic(), True
                    break
        except Refused as refused:
            self._again(refused)
            return
        self._changed()

    def _pace_left(self) -> float:
        """Seconds before a bot's move may be told: the hall's ``bot_pace`` after the last one."""
        return self._bot_told + self.hall.bot_pace - time.monotonic()

    async def stop(self) -> None:
        """Cancel the bots and clocks (the server is stopping; the stored rows are the truth)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _due(state: State, seats: Sequence[SeatInfo], clock: int | None) -> bool:
    """Whether the game awaits chance, a bot or a seat under a clock: work that must resume when a
    server restarts (``storage.TableRow.due``)."""
    if state.is_terminal():
        return False
    return state.is_chance_node() or any(clock or seats[seat].kind == "bot" for seat in state.awaiting())


def _game_of(info: TableInfo) -> Game:
    try:
        game = load(info.game, info.players, info.options)
    except SpacetableError as exc:
        raise TableUnavailable(one_line(f"table {info.id} cannot be set up: {exc}")) from None
    if game.version != info.game_version:
        raise TableUnavailable(
            f"table {info.id} was made with {info.game} version {info.game_version}; this server has {game.version}"
        )
    return game
