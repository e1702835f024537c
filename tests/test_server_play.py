"""Games played through the web table's WebSocket: whole games, hidden information, refusals that
change nothing, restarts, the turn clock, zombie votes, rematches and a failed commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server_helpers import FALLING, Player, create, receive, token_of
from spacetable.engine import Record
from spacetable.server import create_app
from spacetable.server.hall import Tables
from spacetable.server.requests import TableSpec
from spacetable.server.tables import Table


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server") / "tables.sqlite3"


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    """One application for the module, so its bot worker starts once; no grace before an absent
    seat may be handed to a bot (test_server_manners.py tests the grace)."""
    with TestClient(create_app(f"sqlite:///{db}", bot_workers=1, grace=0)) as client:
        yield client


def rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as con:
        number: int = con.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table,)).fetchone()[0]
        return number


def live(client: TestClient, table: str) -> Table:
    hall: Tables = client.app.state.tables  # type: ignore[attr-defined]
    return hall._tables[table]


def test_a_falling_skies_game_played_through_the_socket_replays_from_its_record(client: TestClient) -> None:
    created = create(client, FALLING)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        welcome = player.hello(token_of(created["seats"][0]["link"]))
        assert welcome["seat"] == 0 and welcome["game"]["id"] == "falling-skies"
        final = player.play_to_end()
    assert final["outcome"]["reason"] and final["actions"] == [] and final["to_act"] == []
    numbers = [e["n"] for u in player.frames if u["type"] == "update" for e in u["events"]]
    assert numbers == sorted(numbers) and numbers  # each event sent once, in order
    response = client.get(f"/api/tables/{table}/record")
    assert response.status_code == 200
    record = Record.loads(response.text)
    final_state = record.final_state()  # raises unless it replays to the recorded digest and outcome
    assert len(record.actions) == final["n"] and final_state.view(0) == final["view"]
    assert record.outcome == final["outcome"] and record.seats == ["human"]
    assert any(seat is None for seat, _ in record.actions)  # the server's dice are rows too
    lobby = next(t for t in client.get("/api/tables").json() if t["table"] == table)
    assert lobby["finished"] and lobby["n"] == final["n"]


def test_a_showdown_seat_is_sent_only_its_own_view(client: TestClient) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
    # ships burn from round 20 (the house rule bots' batches use): random captains may otherwise
    # circle for thousands of moves, as the rulebook's game need not end with four left
    options = {"fire_round": 20}
    created = create(client, {"game": "showdown", "players": 4, "options": options, "seats": seats})
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        final = player.play_to_end()
    record = Record.loads(client.get(f"/api/tables/{table}/record").text)
    states = [s.clone() for s in record.replay()]
    updates = [f for f in player.frames if f["type"] == "update"]
    for update in updates:
        state = states[update["n"]]
        assert update["view"] == state.view(0)  # exactly the seat's view, built from nothing else
        others = update["view"]["players"][1:]
        assert all("hand" not in p and "burn" not in p for p in others)
        assert update["actions"] == [] or 0 in update["to_act"]
    assert final["outcome"] is not None
    table_events = live(client, table).events
    sent = [(e["n"], e["text"]) for u in updates for e in u["events"]]
    assert sent == [(n, e.text) for n, e in table_events if e.visible_to(0)]
    assert any(not e.visible_to(0) for _, e in table_events)  # there were private events to keep back


def test_a_spectator_sees_the_public_view(client: TestClient) -> None:
    seats = [{"kind": "bot", "level": "random"}] * 2
    created = create(client, {"game": "showdown", "players": 2, "options": {}, "seats": seats})
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        spectator = Player(ws)
        assert spectator.hello(None)["seat"] is None
        final = spectator.until(lambda u: u["outcome"] is not None)
    table = live(client, created["table"])
    assert final["view"] == table.state.view(None) and final["actions"] == []
    sent = [(e["n"], e["text"]) for u in spectator.frames if u["type"] == "update" for e in u["events"]]
    assert sent == [(n, e.text) for n, e in table.events if e.to is None]


def test_a_forged_token_is_refused_and_closed_4401(client: TestClient) -> None:
    table = create(client, FALLING)["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": "forged", "since": None})
        refused = receive(ws)
        assert '"refused"' in refused["text"] and "token" in refused["text"]
        closed = receive(ws)
        assert closed == {"type": "websocket.close", "code": 4401, "reason": closed["reason"]}


def test_an_unknown_table_closes_4404(client: TestClient) -> None:
    with client.websocket_connect("/ws/nosuchtable") as ws:
        assert "no table" in receive(ws)["text"]
        assert receive(ws)["code"] == 4404


def test_bad_messages_are_refused_and_change_nothing(client: TestClient, db: Path) -> None:
    created = create(client, FALLING)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        update = player.until(lambda u: bool(u["actions"]))
        player.act(update, message_id="first")
        update = player.until(lambda u: bool(u["actions"]) and u["n"] > update["n"])
        n, stored = update["n"], rows(db, table)
        good = update["actions"][0]["action"]
        illegal = next(
            live(client, table).game.actions.to_json(a)
            for a in (live(client, table).game.actions.decode(i) for i in range(10_000))
            if a not in live(client, table).state.legal_actions(0)
        )
        bad: list[tuple[Any, str]] = [
            ({"type": "act", "id": "first", "n": n, "action": good}, "already received"),
            ({"type": "act", "id": "old", "n": n - 1, "action": good}, "stale"),
            ({"type": "act", "id": "future", "n": n + 1, "action": good}, "stale"),
            ({"type": "act", "id": "shape", "n": n, "action": {"kind": "teleport"}}, "unknown action kind"),
            ({"type": "act", "id": "field", "n": n, "action": {**good, "kind": good["kind"], "x": 1}}, "fields"),
            ({"type": "act", "id": "rule", "n": n, "action": illegal}, "not legal"),
            ({"type": "act", "n": n, "action": good}, "'id'"),
            ({"type": "act", "id": "n", "n": "now", "action": good}, "'n'"),
            ({"type": "dance"}, "unknown frame type"),
            ({"type": "replace", "seat": 0, "agree": True}, "own replacement"),
            ({"type": "rematch"}, "not over"),
            ("{not json", "not JSON"),
            ("[1]", "JSON object"),
            ({"type": "act", "id": "big", "n": n, "action": good, "pad": "x" * 17_000}, "16384-byte limit"),
        ]
        for frame, words in bad:
            if isinstance(frame, str):
                ws.send_text(frame)
            else:
                player.send(frame)
            refused = player.next("refused")
            assert words in refused["reason"] and "\n" not in refused["reason"], (frame, refused)
            after = player.next("update")
            assert after["n"] == n and after["view"] == update["view"] and after["actions"] == update["actions"]
            assert rows(db, table) == stored
        ws.send_bytes(b"\x00")
        assert "binary" in player.next("refused")["reason"]
        player.send({"type": "ping"})
        assert player.next("pong") == {"type": "pong"}
        player.act(update, message_id="second")
        assert player.until(lambda u: u["n"] > n)["n"] > n  # still playable


def test_a_move_out_of_turn_is_refused(client: TestClient, db: Path) -> None:
    created = create(client, {"game": "spacerace", "players": 2, "options": {}, "seats": [{"kind": "human"}] * 2})
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
        players = [Player(ws0), Player(ws1)]
        for seat, player in enumerate(players):
            player.hello(token_of(created["seats"][seat]["link"]))
        first = [p.until(lambda u: bool(u["to_act"])) for p in players]
        mover = first[0]["to_act"][0]
        waiting = 1 - mover
        assert first[waiting]["actions"] == [] and first[mover]["actions"]
        stored = rows(db, table)
        action = first[mover]["actions"][0]["action"]
        players[waiting].send({"type": "act", "id": "x", "n": first[waiting]["n"], "action": action})
        reason = players[waiting].next("refused")["reason"]
        assert reason == f"seat {waiting + 1} owes no decision now; waiting for seat {mover + 1}"
        assert rows(db, table) == stored


def test_a_restarted_server_resumes_the_table_where_it_was(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with TestClient(create_app(url, bot_workers=1)) as client:
        created = create(client, FALLING)
        table, token = created["table"], token_of(created["seats"][0]["link"])
        with client.websocket_connect(f"/ws/{table}") as ws:
            player = Player(ws)
            player.hello(token)
            for _ in range(5):
                update = player.until(lambda u: bool(u["actions"]))
                player.act(update)
            before = player.until(lambda u: bool(u["actions"]))
    with TestClient(create_app(url, bot_workers=1)) as client:
        with client.websocket_connect(f"/ws/{table}") as ws:
            player = Player(ws)
            player.hello(token, since=before["n"])
            after = player.next("update")
            assert after["n"] == before["n"] and after["view"] == before["view"]
            assert after["actions"] == before["actions"] and after["events"] == []
            final = player.play_to_end()
        assert Record.loads(client.get(f"/api/tables/{table}/record").text).final_state().is_terminal()
        assert final["outcome"] is not None


def test_the_clock_plays_for_a_seat_that_runs_out(client: TestClient) -> None:
    created = create(client, {**FALLING, "clock": 1})
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        asked = player.until(lambda u: bool(u["actions"]))
        assert 0 < asked["clock"] <= 1
        moved = player.until(lambda u: u["n"] > asked["n"])
        assert any(e["text"] == "the clock ran out for player 1: a bot moved for them" for e in moved["events"])


def test_an_absent_seat_is_handed_to_a_bot_when_the_others_agree(client: TestClient, db: Path) -> None:
    created = create(client, {"game": "spacerace", "players": 2, "options": {}, "seats": [{"kind": "human"}] * 2})
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        player.send({"type": "replace", "seat": 1, "agree": True})
        presence = player.next("presence")
        while presence["seats"][1]["kind"] != "bot":
            presence = player.next("presence")
        assert presence["seats"][1]["level"] == "greedy"
        assert presence["seats"][1]["handed"] and presence["presence"][1] == {
            "seat": 1,
            "connected": True,
            "grace": None,
        }
        with sqlite3.connect(db) as con:
            kind, handed, token_hash = con.execute(
                "SELECT kind, handed, token_hash FROM seats WHERE table_id = ? AND seat = 1", (table,)
            ).fetchone()
        assert (kind, handed) == ("bot", 1) and token_hash is not None  # its person may take it back
        assert player.play_to_end()["outcome"] is not None
    assert any(seat == 1 for seat, _ in live(client, table).rows)  # nobody but the bot could play seat 1


def test_a_rematch_sends_each_player_a_new_link(client: TestClient) -> None:
    created = create(client, FALLING)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        player.play_to_end()
        player.send({"type": "rematch"})
        rematch = player.next("rematch")
    new = rematch["table"]
    assert new != created["table"] and rematch["link"].startswith(f"/t/{new}#seat=0&token=")
    assert live(client, new).info.rematch_of == created["table"]
    with client.websocket_connect(f"/ws/{new}") as ws:
        assert Player(ws).hello(token_of(rematch["link"]))["seat"] == 0


def test_a_move_that_cannot_be_stored_is_refused_and_changes_nothing(
    client: TestClient, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = create(client, FALLING)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        update = player.until(lambda u: bool(u["actions"]))
        stored = rows(db, table)
        storage = live(client, table).hall.storage

        def broken(*args: object) -> None:
            raise OSError("disk full")

        with monkeypatch.context() as patch:
            patch.setattr(storage, "add_actions", broken)
            player.act(update, message_id="lost")
            assert "could not be saved" in player.next("refused")["reason"]
            after = player.next("update")
        assert after["n"] == update["n"] and after["view"] == update["view"] and rows(db, table) == stored
        player.act(after, message_id="again")
        assert player.until(lambda u: u["n"] > update["n"])["n"] > update["n"]


def test_presence_follows_who_comes_and_goes(client: TestClient) -> None:
    created = create(client, FALLING)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        assert player.next("presence")["presence"] == [{"seat": 0, "connected": True, "grace": None}]
        lobby = next(t for t in client.get("/api/tables").json() if t["table"] == table)
        assert lobby["seats"][0]["connected"]
        with client.websocket_connect(f"/ws/{table}") as watcher:
            Player(watcher).hello(None)
            assert player.next("presence")["spectators"] == 1
        assert player.next("presence")["spectators"] == 0


def test_the_first_frame_must_be_a_hello(client: TestClient) -> None:
    table = create(client, FALLING)["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "ping"})
        assert "hello" in receive(ws)["text"]
        assert receive(ws)["code"] == 4400


def test_a_table_of_bots_alone_is_bounded_and_a_table_with_a_person_plays_the_rulebook() -> None:
    bots = TableSpec.parse({"game": "spacerace", "players": 2, "seats": [{"kind": "bot", "level": "easy"}] * 2})
    person = TableSpec.parse(
        {"game": "spacerace", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}
    )
    assert bots.game.options["turn_limit"] == 40 and bots.game.max_length is not None
    assert person.game.options["turn_limit"] is None and person.game.max_length is None
