"""The operator's view (docs/WEB.md, "Operator's view"): `GET /metrics` counted exactly after a
short scripted game, the refusal categories, one registry per application, the structured log
lines (JSON and key=value) with no token or query string in them, and `spacetable serve`'s
--log-format and --log-level."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from server_helpers import FALLING, WAIT, Player, create, free_port, token_of
from spacetable.cli.main import app as cli
from spacetable.engine import JSON, Game
from spacetable.server import bots, create_app
from spacetable.server import logs as server_logs
from spacetable.server.bots import BotPool
from spacetable.server.metrics import REASONS, refusal_reason

MOVES = 3
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient) -> Samples:
    """Every sample of ``GET /metrics``, by name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain"), answer.text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, frozenset(labels.items()))]


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The server's log lines, as JSON, into a string for one test."""
    stream = io.StringIO()
    server_logs.configure("json", "info", stream)
    try:
        yield stream
    finally:
        server_logs.reset()


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def settle(client: TestClient, done: Any) -> Samples:
    """Scrape until ``done(samples)`` (a socket's close is counted once the server has seen it)."""
    deadline = time.monotonic() + WAIT
    while not done(samples := scrape(client)):
        assert time.monotonic() < deadline, samples
        time.sleep(0.02)
    return samples


# ---- a short game, counted ---------------------------------------------------------------


def test_a_short_game_is_counted_exactly_and_logged_as_json(client: TestClient, json_log: io.StringIO) -> None:
    created = create(client, FALLING)
    table, token = created["table"], token_of(created["seats"][0]["link"])
    with client.websocket_connect(f"/ws/{table}") as watching, client.websocket_connect(f"/ws/{table}") as ws:
        assert Player(watching).hello(None)["seat"] is None
        player = Player(ws)
        player.hello(token)
        first = update = player.until(lambda u: bool(u["actions"]))
        for _ in range(MOVES):
            player.act(update)
            update = player.until(lambda u: bool(u["actions"]) and u["n"] > player.acted_on)
        # the current decision's action, made on the first update: stale
        player.send({"type": "act", "id": "late", "n": first["n"], "action": update["actions"][0]["action"]})
        assert "stale move" in player.next("refused")["reason"]
        during = scrape(client)
    assert value(during, "spacetable_sockets_open", role="player") == 1
    assert value(during, "spacetable_sockets_open", role="spectator") == 1
    assert value(during, "spacetable_tables_loaded") == 1
    assert value(during, "spacetable_moves_total", by="person") == MOVES
    assert value(during, "spacetable_moves_total", by="chance") >= 1  # the set-up's draws at least
    assert value(during, "spacetable_moves_total", by="bot") == value(during, "spacetable_moves_total", by="clock") == 0
    assert value(during, "spacetable_act_latency_seconds_count") == MOVES
    assert 0 < value(during, "spacetable_act_latency_seconds_sum") < MOVES * WAIT
    refusals = {reason: value(during, "spacetable_refusals_total", reason=reason) for reason in REASONS}
    assert refusals == {reason: 1 if reason == "stale" else 0 for reason in REASONS}
    assert value(during, "spacetable_http_requests_total", method="POST", route="/api/tables", status="201") == 1

    client.get("/api/tables?secret=sesame")  # a query string is never logged
    after = settle(client, lambda s: value(s, "spacetable_sockets_open", role="player") == 0)
    assert value(after, "spacetable_sockets_open", role="spectator") == 0
    assert value(after, "spacetable_http_requests_total", method="GET", route="/metrics", status="200") >= 1
    assert value(after, "spacetable_http_requests_total", method="GET", route="/api/tables", status="200") == 1

    text = json_log.getvalue()
    assert token not in text and "sesame" not in text and "authorization" not in text.lower()
    logged = lines(json_log)
    assert all(line["timestamp"] and line["level"] and line["logger"] for line in logged)
    moves = [line for line in logged if line["event"] == "move" and line["by"] == "person"]
    assert len(moves) == MOVES, moves
    for move in moves:
        assert (move["table"], move["seat"], move["logger"], move["level"]) == (
            table,
            0,
            "spacetable.server.events",
            "info",
        )
        assert isinstance(move["n"], int) and 0 <= move["latency_ms"] < WAIT * 1000
    assert [m["n"] for m in moves] == sorted({m["n"] for m in moves})
    assert not {key for line in logged for key in line} & {"token", "action", "headers", "query"}
    requests = [line for line in logged if line["event"] == "request"]
    assert {"method": "POST", "path": "/api/tables", "route": "/api/tables", "status": 201}.items() <= requests[
        0
    ].items()
    assert any(r["path"] == "/api/tables" and r["method"] == "GET" for r in requests)
    assert all(isinstance(r["latency_ms"], float) and r["client"] for r in requests)
    sockets = [(line["event"], line["seat"]) for line in logged if line["event"].startswith("socket")]
    assert sorted(sockets, key=str) == sorted(
        [("socket open", None), ("socket open", 0), ("socket close", None), ("socket close", 0)], key=str
    )
    assert all(line["duration_ms"] > 0 for line in logged if line["event"] == "socket close")


def test_a_bot_decision_is_timed_by_level_and_its_moves_counted(
    db: Path, json_log: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def choose(pool: BotPool, game: Game, state: JSON, seat: int, bot: str, seed: str) -> JSON:
        """The bot's decision in this process (no worker to start: seconds saved)."""
        return bots.think(game.id, game.players, dict(game.options), state, seat, bot, seed, pool.seconds)

    monkeypatch.setattr(BotPool, "choose", choose)
    monkeypatch.setattr(BotPool, "warm", lambda _: [])
    body = {**FALLING, "seats": [{"kind": "bot", "level": "random"}]}
    with TestClient(create_app(f"sqlite:///{db}", bot_workers=1)) as client:
        table = create(client, body)["table"]
        samples = settle(client, lambda s: value(s, "spacetable_moves_total", by="bot") >= 2)
        assert value(samples, "spacetable_bot_decision_seconds_count", level="random") >= 2
        assert value(samples, "spacetable_bot_decision_seconds_sum", level="random") > 0
        assert value(samples, "spacetable_moves_total", by="person") == 0
    bot_moves = [line for line in lines(json_log) if line["event"] == "move" and line["by"] == "bot"]
    assert bot_moves and all(m["table"] == table and m["seat"] == 0 and m["latency_ms"] > 0 for m in bot_moves)


# ---- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "reason", "category"),
    [
        ("act", "stale move: made on n=3, but this decision was asked at n=5 (now n=5)", "stale"),
        ("act", "seat 2 owes no decision now; waiting for seat 1", "not_your_turn"),
        ("act", "a bot plays seat 2 now: take the seat back to move", "not_your_turn"),
        ("act", "message 'm4' was already received", "duplicate"),
        ("act", "the game is over", "game_over"),
        ("act", "spectators cannot act", "spectator"),
        ("act", "'id' must be a string of 1 to 64 characters", "bad_frame"),
        ("act", "the move could not be saved; nothing changed, try again", "unsaved"),
        ("act", "the game failed to apply this action (a bug, logged); nothing changed", "other"),
        ("act", "'Place' is not an action of this game", "illegal"),
        (None, "a frame of 20000 bytes is over the 16384-byte limit", "too_large"),
        (None, "the frame is not JSON within the limits: nests more than 32 levels", "bad_frame"),
        ("dance", "unknown frame type 'dance'; types: act, replace, take_back, rematch, ping", "bad_frame"),
        ("rematch", "the game is not over yet", "other"),
        ("replace", "seat 2's player may yet come back: the seat can be handed to a bot in 95 s", "other"),
    ],
)
def test_refusals_are_counted_in_a_fixed_category(kind: object, reason: str, category: str) -> None:
    assert refusal_reason(kind, reason) == category


def test_refused_sockets_and_requests_are_counted_by_category(db: Path) -> None:
    app = create_app(f"sqlite:///{db}", bot_workers=1, tables_per_minute=1, allowed_origins=())
    with TestClient(app) as client:
        created = create(client, FALLING)
        assert client.post("/api/tables", json=FALLING).status_code == 429
        assert client.get(f"/api/tables/{created['table']}/record").status_code == 403
        with client.websocket_connect(f"/ws/{created['table']}", headers={"origin": "http://evil.example"}) as ws:
            assert Player(ws).next("refused")
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": "not a seat's", "since": None})
            assert Player(ws).next("refused")
        with client.websocket_connect("/ws/nosuchtable") as ws:
            assert Player(ws).next("refused")
        assert client.get("/no/such/page").status_code == 404
        samples = scrape(client)
    counted = {reason: value(samples, "spacetable_refusals_total", reason=reason) for reason in REASONS}
    expected = {"rate_limited": 1, "bad_token": 2, "bad_origin": 1, "no_table": 1}
    assert counted == {reason: expected.get(reason, 0) for reason in REASONS}
    assert value(samples, "spacetable_http_requests_total", method="GET", route="unmatched", status="404") == 1
    record = "/api/tables/{table_id}/record"
    assert value(samples, "spacetable_http_requests_total", method="GET", route=record, status="403") == 1
    assert value(samples, "spacetable_sockets_open", role="player") == 0


def test_each_application_counts_in_its_own_registry(tmp_path: Path) -> None:
    first = TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}", bot_workers=1))
    second = TestClient(create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}", bot_workers=1))
    for _ in range(3):
        assert first.get("/healthz").status_code == 200
    healthz = {"method": "GET", "route": "/healthz", "status": "200"}
    assert value(scrape(first), "spacetable_http_requests_total", **healthz) == 3
    assert ("spacetable_http_requests_total", frozenset(healthz.items())) not in scrape(second)
    assert value(scrape(second), "spacetable_tables_loaded") == 0  # no hall before the lifespan


# ---- the log lines -------------------------------------------------------------------------


def test_text_lines_are_key_value_pairs_one_a_line(caplog: pytest.LogCaptureFixture) -> None:
    stream = io.StringIO()
    server_logs.configure("text", "info", stream)
    try:
        server = logging.getLogger("spacetable.server")
        server.debug("not at info")
        server.warning("table %s: a socket from origin %r refused", "abc", "http://evil.example")
        try:
            raise ValueError("two\nlines")
        except ValueError:
            server.exception("table abc: failed")
        server_logs.EVENTS.info("move", table="abc", seat=None, by="chance", n=4, latency_ms=None)
        server_logs.ACCESS.debug("request", path="/hidden")
    finally:
        server_logs.reset()
    written = stream.getvalue().splitlines()
    assert len(written) == 3, written
    warning, failed, move = written
    assert warning.startswith("timestamp=") and " level=warning logger=spacetable.server " in warning
    assert "event=\"table abc: a socket from origin 'http://evil.example' refused\"" in warning
    assert "level=error" in failed and "ValueError: two\\nlines" in failed and "Traceback" in failed
    assert move.endswith("logger=spacetable.server.events event=move table=abc seat= by=chance n=4 latency_ms=")
    # the access and event lines never reach the process's own handlers, configured or not
    server_logs.EVENTS.info("move", table="abc", seat=0, by="person", n=5, latency_ms=1.0)
    assert not [r for r in caplog.records if r.name.startswith("spacetable.server.")]


class _Config:
    """Stands for ``uvicorn.Config``: keeps what ``spacetable serve`` passes it."""

    def __init__(self, app: Any, **settings: Any) -> None:
        self.app, self.settings = app, settings


def test_serve_writes_its_lines_in_the_format_asked_and_turns_uvicorns_access_log_off(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`spacetable serve --log-format json` in this process: uvicorn's run is one request through
    the application instead, whose line is JSON on stderr (with no query string)."""
    served: list[_Config] = []

    def run(server: uvicorn.Server, sockets: Any = None) -> None:
        served.append(server.config)
        with TestClient(server.config.app) as client:
            assert client.get("/healthz?x=sesame").status_code == 200

    monkeypatch.setattr(uvicorn, "Config", _Config)
    monkeypatch.setattr(uvicorn.Server, "run", run)
    command = ["serve", "--port", str(free_port()), "--db", f"sqlite:///{db}", "--log-format", "JSON"]
    try:
        result = CliRunner().invoke(cli, [*command, "--log-level", "info"])
    finally:
        server_logs.reset()
    assert result.exit_code == 0, result.output
    assert served and served[0].settings["access_log"] is False and served[0].settings["log_level"] == "warning"
    written = [json.loads(line) for line in result.stderr.splitlines()]
    healthz = [line for line in written if line["event"] == "request"]
    assert len(healthz) == 1 and healthz[0]["path"] == "/healthz" and healthz[0]["status"] == 200, written
    assert "sesame" not in result.stderr


def test_serve_refuses_an_unknown_log_format_or_level() -> None:
    runner = CliRunner()
    for option, bad in (("--log-format", "xml"), ("--log-level", "loud")):
        result = runner.invoke(cli, ["serve", option, bad])
        assert result.exit_code == 2 and option in result.output, result.output
