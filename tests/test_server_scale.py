"""The server at scale (docs/WEB.md, "Deployment"): tables rebuilt only when touched and let go
when idle, the due work (chance, bots, clocks) resumed after a restart, the bound on unfinished
tables."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI
from fastapi.testclient import TestClient

from server_helpers import FALLING, WAIT, Player, create, human_seats, token_of
from spacetable.server import create_app
from spacetable.server.hall import Tables
from spacetable.server.storage import SeatInfo, Storage, copy_table

COPIES = 10_000
T = TypeVar("T")


def _in_loop(client: TestClient, call: Callable[[], T]) -> T:
    """``call()`` run in the application's event loop (the started client's portal)."""
    assert client.portal is not None, "the client is not started"
    return client.portal.call(call)


def _started(client: TestClient) -> Tables:
    """The hall once its start-up resumption has run."""
    app = client.app
    assert isinstance(app, FastAPI)
    hall: Tables = app.state.tables
    assert client.portal is not None, "the client is not started"
    client.portal.call(hall.resumed.wait)
    return hall


def _until_asked(client: TestClient, created: dict[str, Any]) -> dict[str, Any]:
    """The first update that asks the table's first seat for a decision (the set-up's chance played)."""
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        return player.until(lambda u: bool(u["actions"]))


def test_a_restart_with_ten_thousand_tables_rebuilds_none_until_one_is_touched(db: Path) -> None:
    url = f"sqlite:///{db}"
    with TestClient(create_app(url)) as client:
        created = create(client, FALLING)
        _until_asked(client, created)
        table = created["table"]
    storage = Storage(url)
    try:
        copy_table(storage, table, COPIES)
    finally:
        storage.close()
    with TestClient(create_app(url)) as client:
        hall = _started(client)
        assert client.get("/readyz").status_code == 200
        assert hall.loaded == 0  # nothing was due: no table was rebuilt
        assert len(client.get("/api/tables").json()) == 100 and hall.loaded == 0
        with client.websocket_connect("/ws/c04242") as ws:
            player = Player(ws)
            player.hello(None)
            player.until(lambda u: u["n"] > 0)
            assert hall.loaded == 1
        with client.websocket_connect(f"/ws/{table}") as ws:
            Player(ws).hello(None)
            assert hall.loaded == 2


def test_an_idle_table_is_let_go_and_rebuilt_as_it_was(db: Path) -> None:
    with TestClient(create_app(f"sqlite:///{db}", idle_seconds=0)) as client:
        hall = _started(client)
        created = create(client, FALLING)
        token = token_of(created["seats"][0]["link"])
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            player = Player(ws)
            player.hello(token)
            player.act(player.until(lambda u: bool(u["actions"])))
            before = player.until(lambda u: bool(u["actions"]) and u["n"] > player.acted_on)
            assert _in_loop(client, hall.let_go_idle) == 0  # someone is here
        assert _in_loop(client, hall.let_go_idle) == 1 and hall.loaded == 0
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            player = Player(ws)
            player.hello(token)
            after = player.until(lambda u: bool(u["actions"]))
        assert (after["n"], after["view"], after["actions"]) == (before["n"], before["view"], before["actions"])


def test_due_is_stored_and_the_due_tables_resume_after_a_restart(db: Path) -> None:
    url = f"sqlite:///{db}"
    with TestClient(create_app(url)) as client:
        _started(client)
        tables = [
            create(client, FALLING),
            create(client, {**FALLING, "clock": 600}),
            duel := create(client, {"game": "showdown", "players": 2, "seats": human_seats(2)}),
        ]
        for created in tables:
            _until_asked(client, created)
        clocked = tables[1]["table"]
    storage = Storage(url)
    try:
        assert storage.due() == [clocked]  # a person's clock runs there; the others wait for people
        seat = SeatInfo(1, "bot", "random", "player 2", token_of(duel["seats"][1]["link"]), handed=True)
        storage.set_seat(duel["table"], seat, due=True)  # as a vote does; the bot has not moved yet
        n = storage.lobby(10)[0][2]
        assert sorted(storage.due()) == sorted([clocked, duel["table"]])
    finally:
        storage.close()
    with TestClient(create_app(url, bot_workers=1)) as client:
        hall = _started(client)
        assert hall.loaded == 2  # the clocked table and the duel, not the plain one
        deadline = time.monotonic() + WAIT
        while _moves(client, duel["table"]) == n:  # the bot plays on with nobody connected
            assert time.monotonic() < deadline, "the handed seat's bot did not move after the restart"
            time.sleep(0.05)


def _moves(client: TestClient, table: str) -> int:
    """The table's number of stored actions, as the lobby lists it."""
    n: int = next(t["n"] for t in client.get("/api/tables").json() if t["table"] == table)
    return n


def test_the_unfinished_tables_are_bounded(db: Path) -> None:
    with TestClient(create_app(f"sqlite:///{db}", max_tables=2)) as client:
        for _ in range(2):
            create(client, FALLING)
        refused = client.post("/api/tables", json=FALLING)
        assert refused.status_code == 503
        assert refused.json() == {"error": "this server holds 2 unfinished games, its most; try again once some end"}
