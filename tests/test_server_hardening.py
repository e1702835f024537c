"""The web table's guards (docs/WEB.md, "Limits and headers"): bounded JSON on the socket and in
request bodies, the security headers, the WebSocket's Origin check, /healthz and /readyz, the
per-address limit on new tables, and `spacetable serve` refusing a taken port or a bad database
in one line."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import ConsoleMessage
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from server_helpers import FALLING, HOST, WAIT, Player, create, free_port, receive, run_server, token_of
from spacetable.engine import list_games
from spacetable.server import create_app
from spacetable.server.app import CLOSE_TOO_SLOW, MAX_FRAME
from spacetable.server.connections import OUTBOX
from spacetable.server.guards import SECURITY_HEADERS, Origins, RateLimit, origin_of

DEEP = "[" * 1000 + "]" * 1000
HUGE_INT = '{"type": "ping", "value": ' + "9" * 5000 + "}"


def _keep_text(kept: list[str], message: ConsoleMessage) -> None:
    kept.append(message.text)


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    for record in caplog.records:
        assert record.exc_info is None and "Traceback" not in record.getMessage(), record.getMessage()
    assert len(caplog.records) <= 2, [r.getMessage() for r in caplog.records]


# ---- bounded JSON ----------------------------------------------------------------------


def test_deep_and_huge_number_frames_are_refused_and_the_socket_keeps_working(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    created = create(client, FALLING)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        update = player.until(lambda u: bool(u["actions"]))
        for frame, words in [
            (DEEP, "nests more than 32 levels"),
            (HUGE_INT, "number"),
            ('{"type": "ping", "value": NaN}', "not a number JSON may hold"),
            ('{"type": "ping", "value": ' + "9" * 30 + "}", "beyond"),
            ("x" * (MAX_FRAME + 1), f"{MAX_FRAME}-byte limit"),
        ]:
            ws.send_text(frame)
            refused = player.next("refused")
            assert words in refused["reason"] and "\n" not in refused["reason"], refused
            assert player.next("update")["n"] == update["n"]
        player.send({"type": "ping"})
        assert player.next("pong") == {"type": "pong"}
        player.act(update)
        assert player.until(lambda u: u["n"] > update["n"])["n"] > update["n"]  # still playable
    _no_traceback(caplog)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"game": "falling-skies", "options": ' + DEEP.encode() + b"}", "nests more than 32 levels"),
        (b'{"game": "falling-skies", "players": ' + b"9" * 5000 + b"}", "number"),
        (b'{"game": "falling-skies", "players": 1e999}', "number"),
        (b"\xff\xfe not text", "UTF-8"),
        (b"not json", "must be JSON"),
    ],
)
def test_bad_bodies_on_new_tables_are_400_in_one_line(
    client: TestClient, caplog: pytest.LogCaptureFixture, body: bytes, words: str
) -> None:
    caplog.set_level(logging.INFO)
    response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert words in error and "\n" not in error, error
    assert response.headers["content-type"] == "application/json"
    assert client.get("/api/tables").json() == []
    _no_traceback(caplog)


def test_a_body_over_the_limit_is_413_whether_or_not_it_says_its_length(client: TestClient) -> None:
    big = b'{"game": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    said = client.post("/api/tables", content=big)
    assert said.status_code == 413 and "limit" in said.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams
        for _ in range(40):
            yield b" " * 65536

    streamed = client.post("/api/tables", content=chunks())
    assert streamed.status_code == 413 and "over the 1,048,576-byte limit" in streamed.json()["error"]


def test_deep_and_huge_number_bodies_on_a_lesson_are_400(client: TestClient) -> None:
    lesson = client.get("/api/lessons").json()[0]
    address = f"/api/lessons/{lesson['game']}/{lesson['lessons'][0]['id']}"
    for body in (b'{"moves": ' + DEEP.encode() + b"}", b'{"moves": [' + b"9" * 5000 + b"]}"):
        response = client.post(address, content=body)
        assert response.status_code == 400 and "\n" not in response.json()["error"]


# ---- headers ---------------------------------------------------------------------------


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    table = create(client, FALLING)["table"]
    for path in ["/", f"/t/{table}", "/howto/falling-skies", "/api/games", "/static/table.js", "/healthz", "/nowhere"]:
        response = client.get(path)
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (path, name)
    policy = SECURITY_HEADERS["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    refused = client.post("/api/tables", content=b"[")
    assert refused.status_code == 400 and refused.headers["X-Frame-Options"] == "DENY"


def test_an_internal_error_is_500_in_one_line_with_the_headers(db: Path) -> None:
    app = create_app(f"sqlite:///{db}", bot_workers=1)

    def broken() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/broken")
    assert response.status_code == 500 and response.json() == {"error": "internal server error (logged)"}
    assert response.headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]


def test_the_pages_have_no_inline_script(client: TestClient) -> None:
    """The policy forbids inline script: every page the server sends must do without."""
    games = [cls.id for cls in list_games()]
    pages = ["/", "/t/abc", *(f"/howto/{game}" for game in games), "/rulings/falling-skies"]
    for path in pages:
        text = client.get(path).text
        for script in re.findall(r"<script\b[^>]*>", text, flags=re.IGNORECASE):
            assert " src=" in script, (path, script)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", text), path
        assert not re.search(r"\son[a-z]+\s*=", text, flags=re.IGNORECASE), path
        assert "javascript:" not in text.lower(), path


# ---- the WebSocket's Origin ------------------------------------------------------------


def _closed_with(ws: Any) -> tuple[str, int]:
    refused = json.loads(receive(ws)["text"])
    assert refused["type"] == "refused"
    close = receive(ws)
    assert close["type"] == "websocket.close", close
    return refused["reason"], close["code"]


def test_a_socket_from_a_foreign_origin_is_refused(db: Path) -> None:
    app = create_app(f"sqlite:///{db}", bot_workers=1, allowed_origins=["https://Games.Example.org/"])
    with TestClient(app) as client:
        table = create(client, FALLING)["table"]
        for origin in [
            "http://evil.example",
            "null",
            "http://testserver.evil.example",
            "https://games.example.org:8443",
        ]:
            with client.websocket_connect(f"/ws/{table}", headers={"origin": origin}) as ws:
                reason, code = _closed_with(ws)
                assert code == 4403 and "origin" in reason, origin
        admitted: list[str | None] = [None, "http://testserver", "https://testserver", "https://games.example.org"]
        for allowed in admitted:
            headers = {} if allowed is None else {"origin": allowed}
            with client.websocket_connect(f"/ws/{table}", headers=headers) as ws:
                assert Player(ws).hello(None)["seat"] is None, allowed


def test_origins_are_compared_as_browsers_write_them() -> None:
    assert origin_of("HTTPS://Example.org:443/") == "https://example.org"
    assert origin_of("http://[::1]:8000") == "http://[::1]:8000"
    for bad in ["example.org", "ftp://example.org", "https://example.org/path", "https://x:99999"]:
        with pytest.raises(ValueError):
            origin_of(bad)
    origins = Origins(["https://games.example.org"])
    assert origins.admits("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert not origins.admits("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not origins.admits("http://127.0.0.1:8000", None)
    assert origins.admits("https://games.example.org", "127.0.0.1:8000")


# ---- operators' endpoints --------------------------------------------------------------


def test_healthz_and_readyz(client: TestClient, db: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert (ready.status_code, ready.json()) == (200, {"status": "ok"})
    with sqlite3.connect(db) as con:
        con.execute("UPDATE alembic_version SET version_num = 'older'")
    behind = client.get("/readyz")
    assert behind.status_code == 503 and "migrations are at older, not at head" in behind.json()["error"]
    with sqlite3.connect(db) as con:
        con.execute("DROP TABLE alembic_version")
    assert "at none" in client.get("/readyz").json()["error"]
    assert client.get("/healthz").status_code == 200  # the process is still up
    _no_traceback(caplog)


def test_readyz_says_when_the_database_does_not_answer(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    app = create_app(f"sqlite:///{folder / 'tables.sqlite3'}", bot_workers=1)
    with TestClient(app) as client:
        app.state.storage.engine.dispose()
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
        answer = client.get("/readyz")
        assert answer.status_code == 503 and "does not answer" in answer.json()["error"], answer.text
        assert "\n" not in answer.json()["error"]


# ---- the limit on new tables -----------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_new_tables_are_limited_per_address_and_the_limit_recovers(db: Path) -> None:
    clock = Clock()
    app = create_app(f"sqlite:///{db}", bot_workers=1, tables_per_minute=2, clock=clock)
    with TestClient(app) as client:
        create(client, FALLING)
        clock.now += 30
        create(client, FALLING)
        clock.now += 10
        refused = client.post("/api/tables", json=FALLING)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "20"
        assert "2 a minute" in refused.json()["error"] and "\n" not in refused.json()["error"]
        other = TestClient(app, client=("10.0.0.2", 5000))  # the same app, without a second lifespan
        create(other, FALLING)  # another address is not held back
        clock.now += 20  # the first table is a minute old
        create(client, FALLING)
        assert client.post("/api/tables", json=FALLING).status_code == 429
        clock.now += 61
        create(client, FALLING)
        assert len(client.get("/api/tables").json()) == 5


def test_sockets_are_limited_per_address_and_the_limit_recovers(db: Path) -> None:
    with TestClient(create_app(f"sqlite:///{db}", sockets_per_address=2)) as client:
        table = create(client, FALLING)["table"]
        with client.websocket_connect(f"/ws/{table}"), client.websocket_connect(f"/ws/{table}"):
            with client.websocket_connect(f"/ws/{table}") as third:
                refused, code = _closed_with(third)
            assert code == 4429 and refused == "too many sockets from your address: 2 at most"
        with client.websocket_connect(f"/ws/{table}") as again:
            Player(again).hello(None)  # the two closed: a socket is welcome again
        metrics = client.get("/metrics").text
    assert 'spacetable_refusals_total{reason="too_many_sockets"} 1.0' in metrics


def test_a_rate_limit_counts_a_sliding_minute() -> None:
    clock = Clock()
    limit = RateLimit(3, clock)
    assert [limit.take("a") for _ in range(3)] == [None, None, None]
    assert limit.take("a") == pytest.approx(60.0)
    assert limit.take("b") is None
    clock.now += 59.5
    assert limit.take("a") == pytest.approx(0.5)
    clock.now += 0.5
    assert limit.take("a") is None
    with pytest.raises(ValueError):
        RateLimit(0)


# ---- spacetable serve ------------------------------------------------------------------


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "spacetable", "serve", "--host", HOST, *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_serve_on_a_taken_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _serve("--port", str(port), "--db", f"sqlite:///{tmp_path / 't.sqlite3'}")
    assert result.returncode == 2, result
    assert result.stderr.strip().count("\n") == 0 and f"cannot listen on {HOST}:{port}" in result.stderr
    assert "in use" in result.stderr and "Traceback" not in result.stderr
    assert "The lobby" not in result.stdout + result.stderr


@pytest.mark.soak  # two server starts, about 10 s: CI runs them in make soak
@pytest.mark.parametrize("url", ["nosuch://somewhere", "sqlite:////no/such/folder/t.sqlite3"])
def test_serve_with_a_database_it_cannot_open_says_so_in_one_line(url: str) -> None:
    result = _serve("--port", str(free_port()), "--db", url)
    assert result.returncode == 2, result
    assert result.stderr.strip().count("\n") == 0 and "cannot open the database" in result.stderr
    assert "The lobby" not in result.stdout + result.stderr


def test_serve_refuses_an_origin_that_is_not_one() -> None:
    result = _serve("--allow-origin", "games.example.org")
    assert result.returncode == 2 and "--allow-origin" in result.stderr and "Traceback" not in result.stderr


def test_serve_help_lists_the_new_settings() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "spacetable", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"COLUMNS": "200", "TERM": "dumb", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0
    settings = ["--allow-origin", "--tables-per-minute", "--max-tables", "--sockets-per-address", "--workers"]
    settings += ["--log-format", "--log-level"]
    for option in [*settings, "--grace", "--bot-pace", "--bot-seconds", "--db", "--host", "--port"]:
        assert option in result.stdout, option


def test_serve_tells_the_address_refuses_huge_frames_and_checks_origins(tmp_path: Path) -> None:
    """The real server: the lobby's address once listening, a frame over MAX_FRAME refused with the
    socket open, one far over it closed with 1009 unread, a foreign Origin closed with 4403."""
    with run_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as server:
        assert f"The lobby: http://{HOST}:{server.port}/" in server.output()
        created = httpx.post(f"{server.url}/api/tables", json=FALLING, timeout=WAIT).json()
        table, token = created["table"], token_of(created["seats"][0]["link"])
        deep = httpx.post(f"{server.url}/api/tables", content=DEEP.encode(), timeout=WAIT)
        assert deep.status_code == 400 and deep.headers["X-Content-Type-Options"] == "nosniff"
        with connect(f"{server.ws_url}/ws/{table}", origin=Origin(server.url)) as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
            for frame in (DEEP, HUGE_INT, "x" * (MAX_FRAME + 10)):
                ws.send(frame)
                while (answer := json.loads(ws.recv(timeout=WAIT)))["type"] != "refused":
                    pass
                assert "\n" not in answer["reason"]
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(timeout=WAIT))["type"] != "pong":
                pass
            ws.send("x" * (10 * 1024 * 1024))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=WAIT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(f"{server.ws_url}/ws/{table}", origin=Origin("http://evil.example")) as ws:
            assert json.loads(ws.recv(timeout=WAIT))["type"] == "refused"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=WAIT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        assert httpx.get(f"{server.url}/readyz", timeout=WAIT).json() == {"status": "ok"}
        log = server.output()
    assert "Traceback" not in log and len(log.splitlines()) <= 4, log


def test_a_client_that_never_reads_is_dropped_and_resumes(tmp_path: Path) -> None:
    """A client that floods the table with refused moves and reads nothing (a tiny receive buffer,
    a one-frame queue) is closed with 4408 once OUTBOX frames wait for it, with one log line; it
    reconnects with its ``since`` and plays on."""
    with run_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as server:
        created = httpx.post(f"{server.url}/api/tables", json=FALLING, timeout=WAIT).json()
        table, token = created["table"], token_of(created["seats"][0]["link"])
        sock = socket.create_connection((HOST, server.port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        with connect(f"{server.ws_url}/ws/{table}", sock=sock, max_queue=1) as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
            with contextlib.suppress(ConnectionClosed):
                for i in range(20_000):
                    ws.send(json.dumps({"type": "act", "id": f"m{i}", "n": 0, "action": {"no": "such"}}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=WAIT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_SLOW
        with connect(f"{server.ws_url}/ws/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
            while not (update := json.loads(ws.recv(timeout=WAIT))).get("actions"):
                pass
            move = {"type": "act", "id": "after", "n": update["n"], "action": update["actions"][0]["action"]}
            ws.send(json.dumps(move))
            while json.loads(ws.recv(timeout=WAIT)).get("n", 0) <= update["n"]:
                pass
        log = server.output()
    assert log.count(f"table {table}: a client read too slowly ({OUTBOX} frames waiting); dropped") == 1, log
    assert "Traceback" not in log, log


# ---- the policy in a browser -----------------------------------------------------------


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_chromium_reports_no_policy_violation_on_the_pages(browser: Any, tmp_path: Path) -> None:
    """The lobby, a table (its socket included), a lesson and every How to play page work under the
    Content-Security-Policy: Chromium reports no violation and the table's socket plays."""
    from web_page_helpers import WAIT_MS, open_page, wait_ready

    with run_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as server:
        created = httpx.post(f"{server.url}/api/tables", json=FALLING, timeout=WAIT).json()
        lesson = httpx.get(f"{server.url}/api/lessons", timeout=WAIT).json()[0]
        addresses = [
            "/",
            created["seats"][0]["link"],
            f"/learn/{lesson['game']}/{lesson['lessons'][0]['id']}",
            *(f"/howto/{game.id}" for game in list_games()),
        ]
        for address in addresses:
            page, seen = open_page(browser, "about:blank", 1280, 800)
            console: list[str] = []
            page.on("console", functools.partial(_keep_text, console))
            page.goto(f"{server.url}{address}")
            if "#seat=" in address:
                wait_ready(page)
                assert any(f["type"] == "update" for f in seen.frames)
            else:
                page.wait_for_load_state("networkidle", timeout=WAIT_MS)
            violations = [text for text in console if "Content Security Policy" in text]
            assert violations == [], (address, violations)
            page.context.close()
