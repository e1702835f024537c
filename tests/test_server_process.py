"""The web table as it runs: `spacetable serve` in its own process (run_server), and on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from server_helpers import FALLING, WAIT, Player, create, run_server, token_of
from spacetable.engine import Record
from spacetable.server import create_app


def _update_with_actions(ws: ClientConnection) -> dict[str, Any]:
    while True:
        frame = json.loads(ws.recv(timeout=WAIT))
        if frame["type"] == "update" and frame["actions"]:
            return frame


@pytest.mark.soak  # two server processes, about 13 s: CI runs it in make soak
def test_serve_runs_a_table_and_a_restart_resumes_it(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with run_server(db) as server:
        assert "Tables are stored in sqlite:///" in server.output()
        created = httpx.post(f"{server.url}/api/tables", json=FALLING, timeout=WAIT).json()
        table, token = created["table"], token_of(created["seats"][0]["link"])
        with connect(f"{server.ws_url}/ws/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
            for i in range(3):
                update = _update_with_actions(ws)
                action = update["actions"][0]["action"]
                ws.send(json.dumps({"type": "act", "id": str(i), "n": update["n"], "action": action}))
            before = _update_with_actions(ws)
    with run_server(db) as server, connect(f"{server.ws_url}/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "since": before["n"]}))
        after = _update_with_actions(ws)
        assert (after["n"], after["view"], after["events"]) == (before["n"], before["view"], [])


def test_tables_on_postgresql_play_and_resume(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, bot_workers=1)) as client:
        created = create(client, FALLING)
        table, token = created["table"], token_of(created["seats"][0]["link"])
        with client.websocket_connect(f"/ws/{table}") as ws:
            player = Player(ws)
            player.hello(token)
            update = player.until(lambda u: bool(u["actions"]))
            player.act(update)
            before = player.until(lambda u: bool(u["actions"]) and u["n"] > update["n"])
    with TestClient(create_app(postgres_url, bot_workers=1)) as client:
        with client.websocket_connect(f"/ws/{table}") as ws:
            player = Player(ws)
            player.hello(token, since=before["n"])
            after = player.next("update")
            assert (after["n"], after["view"]) == (before["n"], before["view"])
            player.play_to_end()
        record = Record.loads(client.get(f"/api/tables/{table}/record").text)
        assert record.final_state().is_terminal()
        assert any(t["table"] == table and t["finished"] for t in client.get("/api/tables").json())
