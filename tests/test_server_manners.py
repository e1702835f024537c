"""Table manners (issue 35) at the web table: an absent person's seat is kept for a grace period
before it may be handed to a bot, and its person keeps their link and may take the seat back; the
record is a download (the whole of it after the game, a seat's own copy during it); a table may
start where a record ends; every text a person reads counts seats from 1."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

import spacetable
from server_helpers import Player, create, human_seats, token_of
from spacetable.engine import IllegalActionError, Record, RecordError, State
from spacetable.server import create_app, messages
from spacetable.server.bots import BotPool
from spacetable.server.hall import Tables
from spacetable.server.storage import MIGRATIONS, SeatInfo, Storage, TableInfo
from spacetable.server.tables import Table

GRACE = 1.5
"""The tests' grace period: a seat's countdown shows 2 s, or 1 s on a slow run."""
TWO_PEOPLE = {"game": "spacerace", "players": 2, "seats": human_seats(2)}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("manners") / "tables.sqlite3"


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{db}", bot_workers=1, grace=GRACE)) as client:
        yield client


def live(client: TestClient, table: str) -> Table:
    hall: Tables = client.app.state.tables  # type: ignore[attr-defined]
    return hall._tables[table]


def presence_where(player: Player, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Presence frames until one satisfies ``done``."""
    while True:
        frame = player.next("presence")
        if done(frame):
            return frame


def refusal(player: Player, frame: dict[str, Any]) -> str:
    """Send ``frame``; the reason it is refused."""
    player.send(frame)
    reason: str = player.next("refused")["reason"]
    return reason


def played(game_id: str, players: int, seed: int, steps: int | None = None) -> tuple[Record, State]:
    """A record of random play (``steps`` actions, chance included; None: to the end) and its last state."""
    game = spacetable.load(game_id, players)
    state, rng = game.new_initial_state(), random.Random(seed)
    record = Record.start(game, ["human"] * players)
    while not state.is_terminal() and (steps is None or len(record.actions) < steps):
        seat = None if state.is_chance_node() else state.awaiting()[0]
        action = state.sample_chance(rng) if seat is None else rng.choice(state.legal_actions(seat))
        record.add(game, seat, action)
        state.apply_action(action, seat)
    record.finish(state)
    return record, state


# ---- the grace period and taking a seat back ----------------------------------------------


@dataclass
class HeldBots:
    """Bots that never decide: the seats they were asked to play, and those whose decision was dropped."""

    asked: list[int] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)


@pytest.fixture
def held_bots(monkeypatch: pytest.MonkeyPatch) -> HeldBots:
    """Every bot at the table thinks until its decision is dropped (no worker process starts), so
    that a seat handed to a bot keeps owing its decision while its person looks on."""
    held = HeldBots()

    async def choose(pool: BotPool, game: object, state_json: object, seat: int, bot: str, seed: str) -> Any:
        held.asked.append(seat)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            held.dropped.append(seat)
            raise

    monkeypatch.setattr(BotPool, "choose", choose)
    monkeypatch.setattr(BotPool, "warm", lambda pool: [])
    return held


def test_a_seat_is_kept_for_its_grace_then_handed_and_its_person_takes_it_back(
    tmp_path: Path, held_bots: HeldBots
) -> None:
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    countdown = re.compile(r"^seat 2's player may yet come back: the seat can be handed to a bot in ([12]) s$")
    with TestClient(create_app(url, bot_workers=1, grace=GRACE)) as client:
        created = create(client, TWO_PEOPLE)
        table = created["table"]
        tokens = [token_of(s["link"]) for s in created["seats"]]
        with client.websocket_connect(f"/ws/{table}") as ws_a:
            a = Player(ws_a)
            a.hello(tokens[0])
            # never connected: its grace counts from the table's start
            assert a.next("update")["presence"][1]["grace"] in (1, 2)
            assert countdown.match(refusal(a, {"type": "replace", "seat": 1, "agree": True}))
            time.sleep(GRACE / 2)  # the countdown from the table's start is at most 1 s now
            with client.websocket_connect(f"/ws/{table}") as ws_b:
                Player(ws_b).hello(tokens[1])
                back = presence_where(a, lambda p: p["presence"][1]["connected"])
                assert back["presence"][1] == {"seat": 1, "connected": True, "grace": None}
            away = presence_where(a, lambda p: not p["presence"][1]["connected"])  # the tab closed: told at once
            assert away["presence"][1]["grace"] == 2 and not away["votes"]  # counted from the close
            assert countdown.match(refusal(a, {"type": "replace", "seat": 1, "agree": True}))
            time.sleep(GRACE + 0.1)
            a.send({"type": "replace", "seat": 1, "agree": True})
            handed = presence_where(a, lambda p: p["seats"][1]["kind"] == "bot")
            assert handed["seats"][1] == {
                "seat": 1,
                "kind": "bot",
                "level": "greedy",
                "name": "player 2",
                "handed": True,
            }
            assert handed["presence"][1] == {"seat": 1, "connected": True, "grace": None}

    # a restart keeps the seat handed and its person's link
    held_bots.asked.clear()  # the first server's bot may have been asked, and dropped as it stopped
    held_bots.dropped.clear()
    with (
        TestClient(create_app(url, bot_workers=1, grace=GRACE)) as client,
        client.websocket_connect(f"/ws/{table}") as ws_a,
        client.websocket_connect(f"/ws/{table}") as ws_b,
        client.websocket_connect(f"/ws/{table}") as ws_watch,
    ):
        a, b, watcher = Player(ws_a), Player(ws_b), Player(ws_watch)
        a.hello(tokens[0])
        welcome = b.hello(tokens[1])
        assert welcome["seat"] == 1 and welcome["seats"][1]["handed"] and welcome["seats"][1]["kind"] == "bot"
        watcher.hello(None)
        update = a.until(lambda u: bool(u["actions"]) or 1 in u["to_act"])
        while 1 not in update["to_act"]:  # the person of seat 1 moves until the bot owes seat 1's decision
            a.act(update)
            update = a.until(lambda u: u["n"] > a.acted_on and (bool(u["actions"]) or 1 in u["to_act"]))
        owed = b.until(lambda u: 1 in u["to_act"])
        assert owed["actions"] == [] and owed["n"] == update["n"]
        state = live(client, table).state
        move = live(client, table).game.actions.to_json(state.legal_actions(1)[0])
        act = {"type": "act", "id": "mine", "n": owed["n"], "action": move}
        assert refusal(b, act) == "a bot plays seat 2 now: take the seat back to move"
        assert refusal(a, {"type": "take_back", "id": "t0"}) == (
            "no bot plays seat 1 for you: there is nothing to take back"
        )
        assert refusal(watcher, {"type": "take_back", "id": "t1"}) == "spectators have no seat to take back"
        assert held_bots.asked == [1] and held_bots.dropped == []  # the bot holds seat 1's decision
        assert live(client, table).n == owed["n"]

        b.send({"type": "take_back", "id": "mine again"})
        for player in (a, b, watcher):
            taken = presence_where(player, lambda p: p["seats"][1]["kind"] == "human")
            assert taken["seats"][1] == {
                "seat": 1,
                "kind": "human",
                "level": None,
                "name": "player 2",
                "handed": False,
            }
        mine = b.until(lambda u: bool(u["actions"]))
        assert held_bots.dropped == [1] and mine["n"] == owed["n"]
        b.act(mine)
        after = b.until(lambda u: u["n"] > mine["n"])
        assert live(client, table).rows[mine["n"]][0] == 1 and after["n"] > mine["n"]
    with sqlite3.connect(tmp_path / "tables.sqlite3") as con:
        stored = con.execute("SELECT kind, handed FROM seats WHERE table_id = ? AND seat = 1", (table,)).fetchone()
    assert stored == ("human", 0)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_handed_seat_is_stored_with_its_token_and_the_migration_keeps_old_seats(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}" if backend == "sqlite" else request.getfixturevalue("postgres_url")
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:  # a database of the first schema, with a seat in it
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.exec_driver_sql(
            "INSERT INTO tables (id, game, game_version, players, options, seed, created_at, finished) "
            "VALUES ('old', 'spacerace', '1', 2, '{}', 's', '2026-01-01 00:00:00', false)"
        )
        connection.exec_driver_sql(
            "INSERT INTO seats (table_id, seat, kind, name, token_hash) VALUES ('old', 0, 'human', 'player 1', 'h')"
        )
    engine.dispose()
    storage = Storage(url)  # migrates to the newest schema
    try:
        old = storage.load("old")
        assert old is not None and old.seats == [SeatInfo(0, "human", None, "player 1", "h", handed=False)]
        storage.create_table(TableInfo("new", "spacerace", "1", 2, {}, "s"), [SeatInfo(0, "human", None, "p", "t")])
        storage.set_seat("new", SeatInfo(0, "bot", "greedy", "p", "t", handed=True))
        new = storage.load("new")
        assert new is not None and new.seats == [SeatInfo(0, "bot", "greedy", "p", "t", handed=True)]
    finally:
        storage.close()


# ---- the record as a download ------------------------------------------------------------


def test_after_the_game_the_whole_record_is_a_download(client: TestClient) -> None:
    created = create(client, {"game": "falling-skies", "players": 1, "seats": human_seats(1)})
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        final = player.play_to_end()
        assert refusal(player, {"type": "take_back", "id": "late"}) == "the game is over: there is no seat to take back"
    response = client.get(f"/api/tables/{table}/record")  # no token needed: after the end it is public
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="falling-skies-{table}.json"'
    record = Record.loads(response.text)
    end = record.final_state()  # replays through every hash to the recorded digest and outcome
    assert record.known_by is None and end.is_terminal() and end.view(0) == final["view"]
    assert record.outcome == final["outcome"] and len(record.actions) == final["n"]


def test_during_the_game_a_seat_downloads_only_what_it_may_know(client: TestClient) -> None:
    created = create(client, {"game": "showdown", "players": 2, "seats": human_seats(2)})
    table = created["table"]
    tokens = [token_of(s["link"]) for s in created["seats"]]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(tokens[0])
        player.until(lambda u: bool(u["actions"]))  # the hands are dealt: the draft begins
    url = f"/api/tables/{table}/record"
    copies = []
    for seat, token in enumerate(tokens):
        response = client.get(url, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200
        assert response.headers["content-disposition"] == f'attachment; filename="showdown-{table}.json"'
        copy = Record.loads(response.text)
        assert copy.known_by == seat and copy.final_digest is None and copy.outcome is None
        copies.append(copy)
    live_table = live(client, table)
    full = messages.record(live_table)
    for seat, copy in enumerate(copies):
        assert copy.to_json() == full.as_known_by(seat).to_json()
        other = 1 - seat
        dealt = {n for n, e in live_table.events if e.visible_to(seat) and not e.visible_to(other)}
        hidden = {n for n, e in live_table.events if e.visible_to(other) and not e.visible_to(seat)}
        assert dealt and hidden and not dealt & hidden
        for n in dealt:  # its own cards it keeps
            assert copy.actions[n - 1] == full.actions[n - 1]
        for n in hidden:  # none of the other seat's draws
            assert full.actions[n - 1][0] is None and copy.actions[n - 1] == (None, None)
    for headers in ({}, {"Authorization": "Bearer forged"}, {"Authorization": f"Basic {tokens[0]}"}):
        refused = client.get(url, headers=headers)
        assert refused.status_code == 403, headers
        assert "token" in refused.json()["error"] and "\n" not in refused.json()["error"]


# ---- a table that starts where a record ends ----------------------------------------------


def test_a_table_starts_at_a_records_last_position_and_plays_on(client: TestClient) -> None:
    record, state = played("spacerace", 2, seed=3, steps=9)
    assert not state.is_terminal() and not state.is_chance_node()
    body = {"game": "spacerace", "players": 2, "seats": human_seats(2), "start": record.to_json()}
    created = create(client, body)
    table = created["table"]
    mover = state.awaiting()[0]
    assert live(client, table).rows == record.actions
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][mover]["link"]))
        first = player.until(lambda u: bool(u["actions"]))
        assert first["n"] == len(record.actions) and first["view"] == state.view(mover)
        assert [a["label"] for a in first["actions"]] == [state.action_label(a) for a in state.legal_actions(mover)]
        player.act(first)
        assert player.until(lambda u: u["n"] > first["n"])["n"] > first["n"]
    assert live(client, table).rows[: len(record.actions)] == record.actions


def test_a_start_that_does_not_load_or_replay_is_refused_and_stores_nothing(client: TestClient, db: Path) -> None:
    record, _ = played("spacerace", 2, seed=3, steps=9)
    good: dict[str, Any] = record.to_json()
    *kept, last = good["actions"]
    edited = {**good, "actions": [*kept, {**last, "hash": "0" * 32}]}  # the last row changed after it was written
    finished, _ = played("falling-skies", 1, seed=1)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"seats": human_seats(2), "start": {"format": "a diary"}}, "not a spacetable record"),
        ({"seats": human_seats(2), "start": edited}, "action 9 of 9"),
        ({"seats": human_seats(2), "start": {**good, "game": "chess"}}, "unknown game 'chess'"),
        ({"seats": human_seats(1), "start": finished.to_json()}, "game is over"),
        ({"game": "showdown", "seats": human_seats(2), "start": good}, "'game' is 'showdown' but the record's is"),
        ({"players": 3, "seats": human_seats(2), "start": good}, "'players' is 3 but the record's is 2"),
        ({"options": {"turn_limit": 5}, "seats": human_seats(2), "start": good}, "'options' must agree"),
        ({"seats": human_seats(1), "start": good}, "'seats' must be a list of 2"),
    ]
    with sqlite3.connect(db) as con:
        before = con.execute("SELECT count(*) FROM tables").fetchone()
    for body, words in cases:
        response = client.post("/api/tables", json=body)
        error = response.json()["error"]
        assert response.status_code == 400 and words in error and "\n" not in error, (words, error)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM tables").fetchone() == before


# ---- seats counted from 1 -----------------------------------------------------------------


def test_refusals_count_seats_from_1(client: TestClient) -> None:
    state = spacetable.load("showdown", 2).new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    with pytest.raises(IllegalActionError, match=r"^seats 1 and 2 act at once: name the seat$"):
        state.legal_actions()
    state.apply_action(state.legal_actions(0)[0], 0)
    with pytest.raises(IllegalActionError, match=r"^seat 1 owes no decision now; waiting for seat 2$"):
        state.apply_action(state.legal_actions(1)[0], 0)
    race, _ = played("spacerace", 2, seed=3, steps=9)
    turn = race.final_state()
    mover = turn.awaiting()[0]
    with pytest.raises(
        IllegalActionError, match=rf"^seat {2 - mover} owes no decision now: it is seat {mover + 1}'s decision$"
    ):
        turn.apply_action(turn.legal_actions(mover)[0], 1 - mover)
    copy = played("showdown", 2, seed=0, steps=14)[0].as_known_by(1)
    with pytest.raises(RecordError, match=r"hidden from seat 2 in this copy"):
        copy.final_state()
    with pytest.raises(RecordError, match=r"already the copy known by seat 2"):
        copy.as_known_by(0)
    # the server's own refusals: a move out of turn
    created = create(client, TWO_PEOPLE)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        update = player.until(lambda u: bool(u["to_act"]))
        mover = update["to_act"][0]
        if mover == 0:
            player.act(update)
            update = player.until(lambda u: u["to_act"] == [1])
        table = live(client, created["table"])
        move = table.game.actions.to_json(table.state.legal_actions(1)[0])
        act = {"type": "act", "id": "early", "n": update["n"], "action": move}
        assert refusal(player, act) == "seat 1 owes no decision now; waiting for seat 2"
