"""A crash loses nothing anyone was told: `kill -9` of the server while 14 bot tables play, then a
restart, and every table finishes with a record that replays through every position a spectator
was shown before the crash. On SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
import websockets

from server_helpers import WAIT, Server, run_coroutine, run_server
from spacetable.engine import Record

TABLES = 14
BOTS = {
    "falling-skies": {
        "game": "falling-skies",
        "players": 1,
        "options": {},
        "seats": [{"kind": "bot", "level": "random"}],
    },
    "showdown": {"game": "showdown", "players": 3, "options": {}, "seats": [{"kind": "bot", "level": "random"}] * 3},
}
SHOWN_BEFORE_KILL = 300
"""Positions the spectators must have been shown (over all tables) before the kill."""


async def _watch(server: Server, table: str, shown: dict[int, Any]) -> None:
    """Spectate ``table``, keeping every view shown by its position number, until the socket closes."""
    with contextlib.suppress(websockets.ConnectionClosed, OSError):
        async with websockets.connect(f"{server.ws_url}/ws/{table}", max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
            async for message in ws:
                frame = json.loads(message)
                if frame["type"] == "update":
                    shown[frame["n"]] = frame["view"]


async def _watch_until_enough(server: Server, tables: list[str]) -> dict[str, dict[int, Any]]:
    shown: dict[str, dict[int, Any]] = {t: {} for t in tables}
    watchers = [asyncio.create_task(_watch(server, t, shown[t])) for t in tables]
    deadline = time.monotonic() + 60
    while sum(len(s) for s in shown.values()) < SHOWN_BEFORE_KILL:
        assert time.monotonic() < deadline, "the bot tables did not play"
        await asyncio.sleep(0.02)
    workers = _children(server.process.pid)
    assert workers, "the bots were not thinking in worker processes"
    server.kill()
    deadline = time.monotonic() + WAIT
    while any(Path(f"/proc/{pid}").exists() for pid in workers):
        assert time.monotonic() < deadline, "the bot workers outlived the killed server"
        await asyncio.sleep(0.1)
    await asyncio.wait(watchers, timeout=WAIT)
    return shown


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _stored_actions(db: str) -> dict[str, int]:
    """The number of action rows of each table, read straight from the database."""
    engine = sqlalchemy.create_engine(db)
    try:
        with engine.connect() as connection:
            rows = connection.execute(sqlalchemy.text("SELECT table_id, max(number) FROM actions GROUP BY table_id"))
            return {table: number for table, number in rows}
    finally:
        engine.dispose()


@pytest.mark.soak  # CI's ten minutes: `make soak` runs it (about 75 s of CPU with both storages)
@pytest.mark.parametrize("storage", ["sqlite", "postgresql"])
def test_kill_9_during_bot_tables_loses_no_action_anyone_was_shown(
    storage: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = f"sqlite:///{tmp_path / 'tables.sqlite3'}" if storage == "sqlite" else request.getfixturevalue("postgres_url")
    server = run_server(db)
    try:
        games = [BOTS["falling-skies" if i % 2 else "showdown"] for i in range(TABLES)]
        tables = [httpx.post(f"{server.url}/api/tables", json=g, timeout=WAIT).json()["table"] for g in games]
        shown = run_coroutine(_watch_until_enough(server, tables))
    finally:
        server.kill()
    unfinished = [t for t in tables if shown[t] and max(shown[t]) > 0]
    assert len(unfinished) >= TABLES // 2, "the kill came too late to test anything"
    stored = _stored_actions(db)
    for table in tables:
        assert stored.get(table, 0) >= max(shown[table], default=0), f"{table}: shown before it was stored"
    with run_server(db) as restarted:
        deadline = time.monotonic() + 240
        while True:
            lobby = {t["table"]: t for t in httpx.get(f"{restarted.url}/api/tables", timeout=WAIT).json()}
            if all(lobby[t]["finished"] for t in tables):
                break
            assert time.monotonic() < deadline, "the tables did not all finish after the restart"
            time.sleep(0.25)
        for table in tables:
            record = Record.loads(httpx.get(f"{restarted.url}/api/tables/{table}/record", timeout=WAIT).text)
            states = [s.clone() for s in record.replay()]  # checks every action, the digest, the outcome
            assert states[-1].is_terminal()
            for n, view in shown[table].items():
                assert n < len(states), f"{table}: position {n} was shown, the record has {len(states) - 1} actions"
                assert json.loads(json.dumps(states[n].view(None))) == view, f"{table}: position {n} changed"
