"""Fuzz targets of the web server: arbitrary frames on a table's socket and arbitrary bodies on
the routes that read one. Whatever comes, the answer is the documented one (a `refused` frame
with a one-line reason and a fresh update, the socket open; a 4xx with `{"error": "one line"}`),
nothing is logged with a traceback, and the table plays on. The budget is FUZZ_EXAMPLES
(tests/test_fuzz.py: small here, larger in `make soak`)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from server_helpers import FALLING, Player, create, token_of
from spacetable.server import create_app
from test_fuzz import JSON_VALUES, SETTINGS

TYPES = st.sampled_from(["act", "replace", "take_back", "rematch", "ping", "hello", "nope", ""])
FRAMES = st.one_of(
    st.fixed_dictionaries({"type": TYPES}, optional={"id": JSON_VALUES, "n": JSON_VALUES, "action": JSON_VALUES}),
    st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5).map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=64),
)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Player]]:
    """A falling-skies table and its player's socket, shared by the examples of one target."""
    db: Path = tmp_path_factory.mktemp("fuzz") / "tables.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", tables_per_minute=None)) as client:
        created = create(client, FALLING)
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            player = Player(ws)
            player.hello(token_of(created["seats"][0]["link"]))
            player.until(lambda u: bool(u["actions"]))
            yield client, player


class _Kept(logging.Handler):
    """Keeps every record logged while it is attached (hypothesis reruns a test within one
    pytest call, so caplog's per-test capture does not fit)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _no_traceback(records: list[logging.LogRecord]) -> None:
    for record in records:
        assert record.exc_info is None and "Traceback" not in record.getMessage(), record.getMessage()


@SETTINGS
@given(frame=FRAMES)
def test_fuzz_table_frames(table: tuple[TestClient, Player], frame: Any) -> None:
    _, player = table
    logger = logging.getLogger("spacetable.server")
    handler = _Kept()
    logger.addHandler(handler)
    try:
        if isinstance(frame, bytes):
            player.ws.send_bytes(frame)
        elif isinstance(frame, str):
            player.ws.send_text(frame)
        else:
            player.send(frame)
        player.send({"type": "ping"})  # every frame before it has been answered once this is
        answers = []
        while (answer := player.frame())["type"] != "pong":
            answers.append(answer)
    finally:
        logger.removeHandler(handler)
    for answer in answers:
        assert answer["type"] in {"refused", "update", "presence", "rematch"}, answer
        if answer["type"] == "refused":
            assert answer["reason"] and "\n" not in answer["reason"] and len(answer["reason"]) <= 300
    _no_traceback(handler.records)
    assert player.last is not None and player.last["outcome"] is None  # the table plays on


@SETTINGS
@given(
    body=st.one_of(JSON_VALUES.map(json.dumps), st.text(max_size=300), st.binary(max_size=64)),
    route=st.sampled_from(["/api/tables", "/api/lessons/falling-skies/1-dice"]),
)
def test_fuzz_request_bodies(table: tuple[TestClient, Player], body: str | bytes, route: str) -> None:
    client, _ = table
    answer = client.post(route, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code in {200, 201, 400, 413}, (answer.status_code, answer.text)
    if answer.status_code >= 400:
        error = answer.json()["error"]
        assert error and "\n" not in error
