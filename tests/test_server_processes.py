"""Several server processes on one PostgreSQL (docs/WEB.md, "Deployment"): any process accepts any
socket, a move committed through one is heard (LISTEN/NOTIFY) and told by the others, two
processes racing for a table's next action are serialised by its number, and a process killed
with -9 loses no acknowledged move while the other carries on."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from websockets.sync.client import connect

from server_helpers import WAIT, Player, Server, create, human_seats, receive, run_server, token_of
from spacetable.cli.main import app
from spacetable.server import create_app
from spacetable.server.storage import Storage

DUEL = {"game": "showdown", "players": 2, "seats": human_seats(2)}


@pytest.fixture
def two_apps(postgres_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two applications (each its own event loop and tables) on one PostgreSQL database."""
    with TestClient(create_app(postgres_url, bot_workers=1)) as a, TestClient(create_app(postgres_url)) as b:
        yield a, b


def _latest(player: Player, wait: float) -> dict[str, Any] | None:
    """Read the frames that come within ``wait`` s of each other; the last update (None: none yet).
    A refusal lets the player move again on the update that follows it."""
    while True:
        try:
            message = receive(player.ws, wait)
        except TimeoutError:
            return player.last
        frame = json.loads(message["text"])
        player.frames.append(frame)
        if frame["type"] == "update":
            player.last = frame
        elif frame["type"] == "refused":
            player.acted_on = -1


def _play_together(players: list[Player]) -> list[dict[str, Any]]:
    """Each player takes its first legal action whenever asked, until the game ends; the last
    update each was sent."""
    deadline = time.monotonic() + 6 * WAIT
    while time.monotonic() < deadline:
        ends = []
        for player in players:
            update = _latest(player, 0.02)
            if update is None:
                continue
            if update["outcome"] is not None:
                ends.append(update)
            elif update["actions"] and update["n"] > player.acted_on:
                player.act(update)
        if len(ends) == len(players):
            return ends
    raise AssertionError("the game did not end in time")


def test_players_on_two_processes_play_a_whole_game_together(
    two_apps: tuple[TestClient, TestClient], postgres_url: str
) -> None:
    a, b = two_apps
    created = create(a, DUEL)
    table = created["table"]
    with (
        a.websocket_connect(f"/ws/{table}") as first,
        b.websocket_connect(f"/ws/{table}") as second,
        b.websocket_connect(f"/ws/{table}") as watcher,
    ):
        players = [Player(first), Player(second)]
        for seat, player in enumerate(players):
            player.hello(token_of(created["seats"][seat]["link"]))
        spectator = Player(watcher)
        spectator.hello(None)
        ends = _play_together(players)
        assert ends[0]["n"] == ends[1]["n"] and ends[0]["outcome"] == ends[1]["outcome"]
        final = spectator.until(lambda u: u["outcome"] is not None)
    made_on_a = {f["n"] for f in players[0].frames if f["type"] == "update"}
    told_on_b = {f["n"] for f in spectator.frames if f["type"] == "update"}
    assert final["n"] == ends[0]["n"] and len(made_on_a & told_on_b) > 5  # seat 1's moves, told by b
    storage = Storage(postgres_url)
    try:
        stored = storage.load(table)
    finally:
        storage.close()
    assert stored is not None and stored.info.finished and len(stored.actions) == final["n"]
    assert a.get(f"/api/tables/{table}/record").json() == b.get(f"/api/tables/{table}/record").json()


def _bot_decisions(client: TestClient) -> float:
    """How many bot decisions the application made, from its /metrics."""
    lines = client.get("/metrics").text.splitlines()
    return sum(float(line.split()[-1]) for line in lines if line.startswith("spacetable_bot_decision_seconds_count"))


@pytest.mark.soak  # about 10 s of bot games across two processes: make soak runs it
def test_one_process_thinks_for_a_tables_bots(two_apps: tuple[TestClient, TestClient]) -> None:
    """The person plays through the process that did not make the table; only one process (the
    one holding the table's advisory lock) thinks for the bot, and the game goes on."""
    a, b = two_apps
    created = create(
        a, {"game": "showdown", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}
    )
    with b.websocket_connect(f"/ws/{created['table']}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        while (update := player.until(lambda u: u["outcome"] is not None or bool(u["actions"])))["n"] < 40:
            if update["outcome"] is not None:
                break
            player.act(update)
    decisions = sorted([_bot_decisions(a), _bot_decisions(b)])
    assert decisions[0] == 0 and decisions[1] > 0, decisions


def _until_presence(player: Player, seat: int, connected: bool) -> None:
    """Presence frames until one shows ``seat`` as ``connected`` (or not)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        frame = player.next("presence")
        if frame["presence"][seat]["connected"] is connected:
            return
    raise AssertionError(f"seat {seat + 1} never showed as connected={connected}")


def test_who_is_connected_through_another_process_counts_here(postgres_url: str) -> None:
    """Seat 1's person is connected through one process: the other shows them connected and
    refuses to hand their seat to a bot; once they leave, it shows them away and the vote carries."""
    with TestClient(create_app(postgres_url, grace=0)) as a, TestClient(create_app(postgres_url, grace=0)) as b:
        created = create(a, DUEL)
        table, tokens = created["table"], [token_of(s["link"]) for s in created["seats"]]
        with b.websocket_connect(f"/ws/{table}") as second:
            voter = Player(second)
            voter.hello(tokens[1])
            with a.websocket_connect(f"/ws/{table}") as first:
                Player(first).hello(tokens[0])
                _until_presence(voter, 0, connected=True)
                voter.send({"type": "replace", "seat": 0, "agree": True})
                refused = voter.next("refused")
                assert refused["reason"] == "seat 1 is connected: only an absent player's seat can be handed to a bot"
            _until_presence(voter, 0, connected=False)
            voter.send({"type": "replace", "seat": 0, "agree": True})
            while not (handed := voter.next("presence"))["seats"][0]["handed"]:
                pass
    assert handed["seats"][0]["kind"] == "bot"


# ---- real processes ---------------------------------------------------------------------


class Client:
    """One seat's browser stand-in on a real server: a socket, the last update, its moves sent."""

    def __init__(self, sockets: contextlib.ExitStack, server: Server, table: str, token: str | None) -> None:
        self.ws = sockets.enter_context(connect(f"{server.ws_url}/ws/{table}", max_size=2**24))
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        self.last: dict[str, Any] | None = None
        self.acted_on = -1
        self.events: list[dict[str, Any]] = []
        """Every event it was told, in order."""

    def pump(self, wait: float) -> dict[str, Any] | None:
        """Read the frames that come within ``wait`` s of each other; the last update."""
        while True:
            try:
                frame = json.loads(self.ws.recv(timeout=wait))
            except TimeoutError:
                return self.last
            if frame["type"] == "update":
                self.last = frame
                self.events += frame["events"]
            elif frame["type"] == "refused":
                self.acted_on = -1

    def step(self) -> bool:
        """Move if asked (the first legal action); whether the game is over."""
        update = self.pump(0.02)
        if update is None:
            return False
        if update["outcome"] is not None:
            return True
        if update["actions"] and update["n"] > self.acted_on:
            action = update["actions"][0]["action"]
            self.ws.send(json.dumps({"type": "act", "id": f"m{update['n']}", "n": update["n"], "action": action}))
            self.acted_on = update["n"]
        return False


@pytest.mark.soak  # real processes and a kill -9: make soak runs it
def test_two_serve_processes_play_on_when_one_is_killed(postgres_url: str) -> None:
    """Seat 1 plays through one `spacetable serve`, seat 2 through another; the first is killed
    with -9 mid-game, its player reconnects to the second, is told the same story up to the last
    update it had (no acknowledged move lost), and the game ends."""
    with run_server(postgres_url) as first, run_server(postgres_url) as second, contextlib.ExitStack() as sockets:
        created = httpx.post(f"{first.url}/api/tables", json=DUEL, timeout=WAIT).json()
        table, tokens = created["table"], [token_of(s["link"]) for s in created["seats"]]
        clients = [Client(sockets, first, table, tokens[0]), Client(sockets, second, table, tokens[1])]
        deadline = time.monotonic() + 6 * WAIT
        while (clients[0].last or {}).get("n", 0) < 20:
            assert time.monotonic() < deadline, "no progress before the kill"
            for client in clients:
                client.step()
        first.kill()
        told = clients[0].events
        clients[0] = Client(sockets, second, table, tokens[0])  # told the whole story again
        while not all([client.step() for client in clients]):
            assert time.monotonic() < deadline, "the game did not end on the process left"
        record = httpx.get(f"{second.url}/api/tables/{table}/record", timeout=WAIT).json()
        log = second.output()
    assert told and clients[0].events[: len(told)] == told
    last = clients[1].last
    assert last is not None and record["outcome"] is not None and len(record["actions"]) == last["n"]
    assert "Traceback" not in log, log


@pytest.mark.soak  # real processes: make soak runs it
def test_serve_workers_share_the_port_and_play_a_whole_game(postgres_url: str) -> None:
    with run_server(postgres_url, workers=2) as server, contextlib.ExitStack() as sockets:
        created = httpx.post(f"{server.url}/api/tables", json=DUEL, timeout=WAIT).json()
        table, tokens = created["table"], [token_of(s["link"]) for s in created["seats"]]
        clients = [Client(sockets, server, table, token) for token in tokens]
        deadline = time.monotonic() + 6 * WAIT
        while not all([client.step() for client in clients]):
            assert time.monotonic() < deadline, "the game did not end"
        assert httpx.get(f"{server.url}/readyz", timeout=WAIT).json() == {"status": "ok"}
        log = server.output()
    ends = [client.last for client in clients]
    assert ends[0] is not None and ends[1] is not None and ends[0]["outcome"] == ends[1]["outcome"] is not None
    assert "Traceback" not in log and log.count("The lobby: ") == 1, log


def test_serve_workers_need_postgresql(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 't.sqlite3'}"])
    assert done.exit_code == 2 and done.stdout == ""
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(
            "--workers above 1 needs a PostgreSQL --db (postgresql+psycopg://...): a SQLite file serves one process"
        )
    ), done.stderr
