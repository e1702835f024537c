"""The web table's storage on SQLite and on a real PostgreSQL: tables, seats and action rows round
trip, and the group commit stores every row of a batch but the one that cannot be stored."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_helpers import run_coroutine
from spacetable.server.hall import Writer
from spacetable.server.storage import ActionToStore, SeatInfo, Storage, TableInfo


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    url = (
        f"sqlite:///{tmp_path / 'tables.sqlite3'}"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    store = Storage(url)
    try:
        yield store
    finally:
        store.close()


def _table(storage: Storage, table_id: str) -> None:
    info = TableInfo(table_id, "showdown", "1.0", 3, {"fire_round": 20}, seed="s" * 32, due=True)
    seats = [SeatInfo(0, "human", None, "player 1", "h" * 64), SeatInfo(1, "bot", "greedy", "bot", None)]
    storage.create_table(info, seats)


def test_tables_seats_and_actions_round_trip(storage: Storage) -> None:
    _table(storage, "t1")
    _table(storage, "t2")
    rows = [ActionToStore("t1", n, None if n % 2 else 0, {"kind": "roll", "value": n}, None) for n in (1, 2, 3)]
    storage.add_actions(rows)
    storage.add_actions([ActionToStore("t2", 1, 1, {"kind": "pass"}, {"winners": [1], "reason": "r"})])
    stored = storage.load("t1")
    assert stored is not None
    assert stored.info.options == {"fire_round": 20} and stored.info.seed == "s" * 32 and not stored.info.finished
    assert [(s.seat, s.kind, s.level, s.token_hash) for s in stored.seats] == [
        (0, "human", None, "h" * 64),
        (1, "bot", "greedy", None),
    ]
    assert stored.actions == [
        (None, {"kind": "roll", "value": 1}),
        (0, {"kind": "roll", "value": 2}),
        (None, {"kind": "roll", "value": 3}),
    ]
    assert storage.unfinished() == 1 and storage.due() == ["t1"] and stored.info.due
    storage.add_actions([ActionToStore("t1", 4, 0, {"kind": "pass"}, None, due=False)])
    assert storage.due() == [] and storage.unfinished() == 1
    storage.set_seat("t1", SeatInfo(0, "bot", "greedy", "player 1", "h" * 64, handed=True), due=True)
    assert storage.due() == ["t1"]
    finished = storage.load("t2")
    assert finished is not None and finished.info.finished and finished.info.outcome == {"winners": [1], "reason": "r"}
    assert {(info.id, n) for info, _, n in storage.lobby(10)} == {("t1", 4), ("t2", 1)}
    assert storage.load("nope") is None


def test_group_commit_stores_every_row_but_the_one_that_cannot_be_stored(storage: Storage) -> None:
    for table in ("a", "b"):
        _table(storage, table)
    storage.add_actions([ActionToStore("a", 1, None, {"kind": "x"}, None)])

    async def many() -> list[BaseException | None]:
        writer = Writer(storage)
        rows = [ActionToStore("b", n, None, {"kind": "x", "n": n}, None) for n in range(1, 41)]
        rows.insert(20, ActionToStore("a", 1, None, {"kind": "again"}, None))  # number 1 of 'a' is stored already
        results = await asyncio.gather(*(writer.write(row) for row in rows), return_exceptions=True)
        await writer.stop()
        return [r if isinstance(r, BaseException) else None for r in results]

    results = run_coroutine(many())
    assert sum(r is not None for r in results) == 1 and results[20] is not None
    b = storage.load("b")
    assert b is not None and [a["n"] for _, a in b.actions] == list(range(1, 41))
    a = storage.load("a")
    assert a is not None and a.actions == [(None, {"kind": "x"})]
