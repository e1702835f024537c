"""The tables' storage: SQLAlchemy 2 models, the database's set-up and every query the server makes.

A table is its record: the ``tables`` row (game, options, seed), its ``seats`` and its ``actions``
(chance outcomes included), numbered from 1. Every write commits before it returns, so whatever a
client is told is already on disk. SQLite by default (WAL mode), PostgreSQL by URL; the schema is
made and upgraded by the Alembic migrations in ``server/migrations`` when the storage opens.
"""

from __future__ import annotations

import datetime
import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    false,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"
CHANNEL = "spacetable_tables"
"""The PostgreSQL channel on which every committed change of a table is announced (its id)."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    game_version: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(16), ForeignKey("tables.id"), nullable=True)
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    due: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    """The game awaits chance, a bot or a clocked seat: a restarted server rebuilds it at once."""


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    handed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass(frozen=True)
class TableInfo:
    """A ``tables`` row as plain data."""

    id: str
    game: str
    game_version: str
    players: int
    options: dict[str, Any]
    seed: str
    finished: bool = False
    outcome: dict[str, Any] | None = None
    rematch_of: str | None = None
    clock: int | None = None
    due: bool = False
    """Stored as awaiting chance, a bot or a clocked seat (``tables.due``)."""


@dataclass(frozen=True)
class SeatInfo:
    """A ``seats`` row as plain data: ``kind`` is ``human`` or ``bot`` (then ``level`` is its name).

    ``handed``: a bot plays a person's seat, which keeps the person's ``token_hash`` (and name)
    so that they may take it back."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: str | None
    handed: bool = False


@dataclass(frozen=True)
class ActionToStore:
    """One action row waiting to be committed."""

    table_id: str
    number: int
    seat: int | None
    action: dict[str, Any]
    outcome: dict[str, Any] | None
    due: bool | None = None
    """The table's ``due`` after this row, when it changes (None: unchanged)."""


@dataclass(frozen=True)
class StoredTable:
    """Everything stored about one table: enough to rebuild it."""

    info: TableInfo
    seats: list[SeatInfo]
    actions: list[tuple[int | None, dict[str, Any]]]
    """(seat or None for chance, the action's JSON), in order: row ``number`` k is ``actions[k - 1]``."""


def default_url() -> str:
    """The SQLite file in the user's data directory (made if missing)."""
    folder = Path(platformdirs.user_data_dir("spacetable"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tables.sqlite3'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest Alembic revision."""
    config = _alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class _LostRaces(logging.Filter):
    """Drops psycopg's warning on ending the pipeline of an insert whose row another process
    committed first ("error ignored terminating <Pipeline>: pipeline aborted"): the
    IntegrityError it follows is expected there and handled (``tables.Conflict``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (message.startswith("error ignored terminating") and message.endswith("pipeline aborted"))


LOST_RACES = _LostRaces()


class Storage:
    """The database of one server. Every method is one transaction, committed before it returns."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(url)
        self.shared = self.engine.dialect.name == "postgresql"
        """Several processes may serve this database: each commit announces its tables on ``CHANNEL``."""
        if self.shared:
            logging.getLogger("psycopg").addFilter(LOST_RACES)
        self.origin = secrets.token_hex(6)
        """This storage's name in its announcements (``"origin table_id"``), to skip its own."""
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def listen_dsn(self) -> str:
        """The libpq connection string for LISTEN (the URL without SQLAlchemy's driver name)."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def _announce(self, connection: Any, table_ids: Iterable[str]) -> None:
        """NOTIFY ``CHANNEL`` with ``"origin table_id"`` per table, delivered when the transaction commits."""
        self._notify(connection, [f"{self.origin} {t}" for t in set(table_ids)])

    def _notify(self, connection: Any, payloads: Sequence[str]) -> None:
        if self.shared and payloads:
            connection.execute(
                text("SELECT pg_notify(:channel, :payload)"), [{"channel": CHANNEL, "payload": p} for p in payloads]
            )

    def announce(self, news: Sequence[tuple[str, str]]) -> None:
        """NOTIFY ``CHANNEL`` with ``"origin table_id word"`` for each (table id, word) of ``news``
        (who is connected here: ``presence``), in one transaction; nothing unless ``shared``."""
        if self.shared and news:
            with self.engine.begin() as connection:
                self._notify(connection, [f"{self.origin} {table_id} {word}" for table_id, word in news])

    def close(self) -> None:
        self.engine.dispose()

    def unready(self) -> str | None:
        """None when the database answers and its schema is at the newest migration, else why not
        in one sentence (``/readyz``)."""
        heads = set(ScriptDirectory.from_config(_alembic_config()).get_heads())
        try:
            with self.engine.connect() as connection:
                current = set(MigrationContext.configure(connection).get_current_heads())
        except Exception as exc:  # the database is down, refuses us, lost its file...
            first = (str(exc).splitlines() or [""])[0]
            return f"the database does not answer: {type(exc).__name__}: {first}"
        if current != heads:
            have = ", ".join(sorted(current)) or "none"
            return f"the database's migrations are at {have}, not at head {', '.join(sorted(heads))}"
        return None

    def create_table(
        self, info: TableInfo, seats: Sequence[SeatInfo], actions: Sequence[tuple[int | None, dict[str, Any]]] = ()
    ) -> None:
        """Store a new table (``info.due`` as its ``due``) with its seats and, for a table started
        from a record, its first ``actions`` (numbered from 1), in one transaction."""
        with self._session.begin() as session:
            session.add(
                TableRow(
                    id=info.id,
                    game=info.game,
                    game_version=info.game_version,
                    players=info.players,
                    options=info.options,
                    seed=info.seed,
                    created_at=datetime.datetime.now(datetime.UTC),
                    finished=False,
                    outcome=None,
                    rematch_of=info.rematch_of,
                    clock=info.clock,
                    due=info.due,
                )
            )
            session.flush()  # the table row first: the seats refer to it
            session.add_all(
                SeatRow(
                    table_id=info.id,
                    seat=s.seat,
                    kind=s.kind,
                    level=s.level,
                    name=s.name,
                    token_hash=s.token_hash,
                    handed=s.handed,
                )
                for s in seats
            )
            session.add_all(
                ActionRow(table_id=info.id, number=number, seat=seat, action=action)
                for number, (seat, action) in enumerate(actions, start=1)
            )

    def add_actions(self, rows: Sequence[ActionToStore]) -> None:
        """Store the rows in one transaction (Core inserts: the hot path of every move); a row with
        an ``outcome`` marks its table finished (and not due), one with a ``due`` sets it, in the
        same transaction."""
        with self.engine.begin() as connection:
            connection.execute(
                insert(ActionRow),
                [{"table_id": r.table_id, "number": r.number, "seat": r.seat, "action": r.action} for r in rows],
            )
            for row in rows:
                if row.outcome is not None:
                    connection.execute(
                        update(TableRow)
                        .where(TableRow.id == row.table_id)
                        .values(finished=True, outcome=row.outcome, due=False)
                    )
                elif row.due is not None:
                    connection.execute(update(TableRow).where(TableRow.id == row.table_id).values(due=row.due))
            self._announce(connection, (row.table_id for row in rows))

    def set_seat(self, table_id: str, seat: SeatInfo, due: bool | None = None) -> None:
        """Change who sits in a seat (a person's seat handed to a bot, or taken back), and the
        table's ``due`` unless None, in one transaction."""
        with self._session.begin() as session:
            self._announce(session, [table_id])
            if due is not None:
                session.execute(update(TableRow).where(TableRow.id == table_id).values(due=due))
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
                .values(
                    kind=seat.kind, level=seat.level, name=seat.name, token_hash=seat.token_hash, handed=seat.handed
                )
            )

    def load(self, table_id: str) -> StoredTable | None:
        with self._session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
            actions = session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.number)
            )
            return StoredTable(_info(row), [_seat(s) for s in seats], [(a.seat, a.action) for a in actions])

    def news(self, table_id: str, after: int) -> tuple[list[SeatInfo], list[tuple[int | None, dict[str, Any]]]]:
        """The table's seats and its actions numbered after ``after`` (what another process
        committed); none of either for a table there is none of."""
        with self._session() as session:
            seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
            actions = session.scalars(
                select(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.number > after)
                .order_by(ActionRow.number)
            )
            return [_seat(s) for s in seats], [(a.seat, a.action) for a in actions]

    def set_due(self, table_id: str, due: bool) -> None:
        with self.engine.begin() as connection:
            connection.execute(update(TableRow).where(TableRow.id == table_id).values(due=due))

    def due(self) -> list[str]:
        """The ids of the tables stored as awaiting chance, a bot or a clocked seat, oldest first."""
        with self._session() as session:
            query = select(TableRow.id).where(TableRow.due.is_(True), TableRow.finished.is_(False))
            return list(session.scalars(query.order_by(TableRow.created_at)))

    def unfinished(self) -> int:
        """How many tables' games go on."""
        with self._session() as session:
            return int(
                session.scalar(select(func.count()).select_from(TableRow).where(TableRow.finished.is_(False))) or 0
            )

    def lobby(self, limit: int) -> list[tuple[TableInfo, list[SeatInfo], int]]:
        """The ``limit`` newest tables with their seats and action counts, newest first."""
        with self._session() as session:
            counts = select(ActionRow.table_id, func.count().label("n")).group_by(ActionRow.table_id).subquery("counts")
            rows = session.execute(
                select(TableRow, func.coalesce(counts.c.n, 0))
                .outerjoin(counts, counts.c.table_id == TableRow.id)
                .order_by(TableRow.created_at.desc(), TableRow.id)
                .limit(limit)
            ).all()
            ids = [row.id for row, _ in rows]
            seats: dict[str, list[SeatInfo]] = {i: [] for i in ids}
            for seat in session.scalars(
                select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.table_id, SeatRow.seat)
            ):
                seats[seat.table_id].append(_seat(seat))
            return [(_info(row), seats[row.id], int(n)) for row, n in rows]


def copy_table(storage: Storage, table_id: str, copies: int, prefix: str = "c") -> list[str]:
    """Store ``copies`` copies of the table ``table_id`` (its row, seats and actions, the seed and
    seat tokens too) as ``{prefix}00000``, ``{prefix}00001``..., in one transaction; their ids.
    For the start-up test and benchmark of a server holding many tables."""
    ids = [f"{prefix}{i:05d}" for i in range(copies)]
    with storage.engine.begin() as connection:
        for model, key in ((TableRow, "id"), (SeatRow, "table_id"), (ActionRow, "table_id")):
            rows = [
                dict(r._mapping)
                for r in connection.execute(select(*model.__table__.columns).where(model.__table__.c[key] == table_id))
            ]
            connection.execute(insert(model), [{**row, key: new} for new in ids for row in rows])
    return ids


def _info(row: TableRow) -> TableInfo:
    return TableInfo(
        id=row.id,
        game=row.game,
        game_version=row.game_version,
        players=row.players,
        options=row.options,
        seed=row.seed,
        finished=row.finished,
        outcome=row.outcome,
        rematch_of=row.rematch_of,
        clock=row.clock,
        due=row.due,
    )


def _seat(row: SeatRow) -> SeatInfo:
    return SeatInfo(
        seat=row.seat, kind=row.kind, level=row.level, name=row.name, token_hash=row.token_hash, handed=row.handed
    )
