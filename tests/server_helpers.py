"""Helpers for the web table's tests: a real server in a subprocess, and a WebSocket client for
FastAPI's TestClient that never waits forever."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs

import anyio
from starlette.testclient import TestClient, WebSocketTestSession

T = TypeVar("T")
HOST = "127.0.0.1"
WAIT = 20.0
START_WAIT = 60.0
"""A started server's first answer: its imports and bot worker take seconds, many more while both
cores run the soak's browser games."""
"""Seconds a test waits for a frame or a server before failing."""


def run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own: the session's Playwright (its sync API)
    keeps an event loop running in the main thread once a browser test has run in this worker."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def token_of(link: str) -> str:
    """The token in an invite link ``/t/{table}#seat=S&token=T``."""
    return parse_qs(link.split("#", 1)[1])["token"][0]


FALLING = {"game": "falling-skies", "players": 1, "options": {}, "seats": [{"kind": "human"}]}
"""A new-table request for a falling-skies table with one person."""


@dataclass
class Server:
    """A ``spacetable serve`` process on 127.0.0.1; a context manager that stops it."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{HOST}:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        """Terminate (SIGTERM: a clean shutdown) and wait."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """SIGKILL, as a crash: no shutdown code runs."""
        self.process.kill()
        self.process.wait()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def run_server(
    db_url: str,
    port: int | None = None,
    *,
    env: dict[str, str] | None = None,
    bot_pace: float = 0.0,
    bot_seconds: float | None = None,
    grace: float | None = None,
    tables_per_minute: int = 0,
    log_level: str = "warning",
    log_format: str = "text",
    workers: int = 1,
) -> Server:
    """Start ``spacetable serve --db db_url`` on 127.0.0.1 (a free port unless ``port``) in a
    subprocess and wait until it answers ``/api/games``; its output goes to a temporary file
    (``Server.output()``). Fails with that output if it does not start within WAIT seconds.

    Bot moves are told at once (``--bot-pace 0``) unless ``bot_pace``, so that tests do not wait
    on the pace meant for people; ``bot_seconds`` sets ``--bot-seconds`` and ``grace`` sets
    ``--grace`` (default: the server's); ``tables_per_minute`` sets ``--tables-per-minute``
    (default 0, no limit: a module's tests share one server and its one client address);
    ``log_level`` and ``log_format`` set ``--log-level`` (default warning: the output holds the
    warnings and errors, not a line per request and move) and ``--log-format``; ``workers`` sets
    ``--workers``."""
    port = port or free_port()
    log = Path(tempfile.mkstemp(prefix="spacetable-serve-", suffix=".log")[1])
    command = [sys.executable, "-m", "spacetable", "serve", "--host", HOST, "--port", str(port), "--db", db_url]
    command += ["--bot-pace", str(bot_pace), "--tables-per-minute", str(tables_per_minute)]
    command += ["--log-level", log_level, "--log-format", log_format, "--workers", str(workers)]
    if bot_seconds is not None:
        command += ["--bot-seconds", str(bot_seconds)]
    if grace is not None:
        command += ["--grace", str(grace)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
        )
    server = Server(process, port, log)
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{server.output()}")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{server.url}/api/games", timeout=2) as answer:
            if answer.status == 200:
                return server
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the server did not answer within {START_WAIT} s:\n{server.output()}")


# ---- TestClient ------------------------------------------------------------------------


def receive(ws: WebSocketTestSession, timeout: float = WAIT) -> dict[str, Any]:
    """The next message of a TestClient socket (ASGI message dict); fails after ``timeout`` s."""

    async def get() -> dict[str, Any]:
        with anyio.fail_after(timeout):
            message: dict[str, Any] = await ws._send_rx.receive()
            return message

    return ws.portal.call(get)


@dataclass
class Player:
    """One client of a table through a TestClient socket: it keeps every frame it was sent."""

    ws: WebSocketTestSession
    frames: list[dict[str, Any]] = field(default_factory=list)
    last: dict[str, Any] | None = None
    """The last update."""
    acted_on: int = -1
    """The ``n`` of the update the last move was made on."""

    def hello(self, token: str | None, since: int | None = None) -> dict[str, Any]:
        """Say hello; return the welcome (the first update follows)."""
        self.ws.send_json({"type": "hello", "token": token, "since": since})
        return self.next("welcome")

    def frame(self) -> dict[str, Any]:
        try:
            message = receive(self.ws)
        except TimeoutError:
            kinds = [(f["type"], f.get("n"), f.get("reason")) for f in self.frames[-8:]]
            raise AssertionError(f"no frame within {WAIT} s; the last ones: {kinds}") from None
        assert message["type"] == "websocket.send", message
        frame: dict[str, Any] = json.loads(message["text"])
        self.frames.append(frame)
        if frame["type"] == "update":
            self.last = frame
        return frame

    def next(self, kind: str) -> dict[str, Any]:
        """The next frame of type ``kind`` (others are kept in ``frames``)."""
        while True:
            frame = self.frame()
            if frame["type"] == kind:
                return frame

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Updates until one satisfies ``done``."""
        while True:
            update = self.next("update")
            if done(update):
                return update

    def act(self, update: dict[str, Any], index: int = 0, message_id: str | None = None) -> None:
        """Send action ``index`` of ``update``'s list, made on its ``n``."""
        action = update["actions"][index]["action"]
        self.acted_on = update["n"]
        self.send({"type": "act", "id": message_id or f"m{len(self.frames)}", "n": update["n"], "action": action})

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send_json(frame)

    def play_to_end(self, limit: int = 2000) -> dict[str, Any]:
        """Take the first legal action whenever asked until the game ends; return the last update."""

        def open_(u: dict[str, Any]) -> bool:
            return u["outcome"] is not None or (bool(u["actions"]) and u["n"] > self.acted_on)

        for _ in range(limit):
            update = self.last if self.last is not None and open_(self.last) else self.until(open_)
            if update["outcome"] is not None:
                return update
            self.act(update)
        raise AssertionError(f"no end after {limit} decisions")


def create(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    """POST /api/tables; the response's JSON (asserting 201)."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def human_seats(n: int) -> list[dict[str, str]]:
    return [{"kind": "human"}] * n
