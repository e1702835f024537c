"""The web table's HTTP routes: the games, new tables and their one-line errors, the lobby, the
record and replays, the glossary, the static pages; tokens stored only as hashes."""

from __future__ import annotations

import hashlib
import html
import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_helpers import FALLING, Player, create, token_of
from spacetable.engine import list_games


def count(db: Path, table: str) -> int:
    with sqlite3.connect(db) as con:
        number: int = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        return number


def test_games_lists_every_game_with_options_and_bots(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["id"] for g in games] == [cls.id for cls in list_games()]
    showdown = next(g for g in games if g["id"] == "showdown")
    assert (showdown["min_players"], showdown["default_players"]) == (2, 4)
    assert {"random", "greedy", "easy", "normal", "hard"} <= set(showdown["bots"])
    falling = next(g for g in games if g["id"] == "falling-skies")
    energy = next(o for o in falling["options"] if o["name"] == "energy_room")
    assert energy["default"] == "gain" and energy["choices"] == ["gain", "restore"] and energy["help"]


def test_a_new_table_gives_links_and_starts_after_set_up(client: TestClient, db: Path) -> None:
    body = {
        "game": "showdown",
        "players": 3,
        "options": {},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"}],
    }
    created = create(client, body)
    table = created["table"]
    assert len(table) == 16 and created["spectate"] == f"/t/{table}"
    links = [s["link"] for s in created["seats"]]
    assert links[1] is None and links[0].startswith(f"/t/{table}#seat=0&token=") and "#seat=2&token=" in links[2]
    assert [s["kind"] for s in created["seats"]] == ["human", "bot", "human"]
    lobby = client.get("/api/tables").json()
    assert lobby[0]["table"] == table and lobby[0]["game"] == "showdown" and not lobby[0]["finished"]
    assert [s["connected"] for s in lobby[0]["seats"]] == [False, True, False]
    deadline = time.monotonic() + 20
    while client.get("/api/tables").json()[0]["n"] < 1:  # the set-up's chance outcomes become stored rows
        assert time.monotonic() < deadline, "the set-up's chance outcomes were not stored"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("not json", "must be JSON"),
        ([1, 2], "JSON object"),
        ({**FALLING, "game": "chess"}, "unknown game 'chess'"),
        ({**FALLING, "players": 2}, "played by 1 player"),
        ({**FALLING, "players": "one"}, "not 'one'"),
        ({**FALLING, "options": {"colour": "red"}}, "unknown option"),
        ({**FALLING, "options": {"energy_room": "steal"}}, "must be one of"),
        ({**FALLING, "options": []}, "'options' must be"),
        ({**FALLING, "seats": []}, "list of 1 seat"),
        ({**FALLING, "seats": [{"kind": "robot"}]}, "seat 1 must be"),
        ({**FALLING, "seats": [{"kind": "bot", "level": "genius"}]}, "unknown bot level 'genius'"),
        ({**FALLING, "clock": 0}, "'clock' must be"),
        ({**FALLING, "colour": "red"}, "unknown field"),
    ],
)
def test_bad_requests_are_one_line_400s_and_store_nothing(
    client: TestClient, db: Path, body: object, words: str
) -> None:
    if isinstance(body, str):
        response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    else:
        response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert words in error and "\n" not in error and "Traceback" not in error
    assert count(db, "tables") == count(db, "seats") == count(db, "actions") == 0


def test_unknown_tables_and_games_are_404(client: TestClient) -> None:
    for path in ("/api/tables/nope/record", "/api/tables/nope/replay/0", "/api/glossary/chess", "/api/nothing"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"], path


def test_record_and_replay_wait_for_the_end(client: TestClient) -> None:
    table = create(client, FALLING)["table"]
    replay = client.get(f"/api/tables/{table}/replay/0")
    assert replay.status_code == 409 and "ended" in replay.json()["error"]
    record = client.get(f"/api/tables/{table}/record")  # a seat's own copy needs its token (test_server_manners.py)
    assert record.status_code == 403 and "token" in record.json()["error"]


def test_replay_checks_its_arguments(client: TestClient) -> None:
    created = create(client, FALLING)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        player = Player(ws)
        player.hello(token_of(created["seats"][0]["link"]))
        final = player.play_to_end()
    base = f"/api/tables/{created['table']}/replay"
    assert client.get(f"{base}/{final['n'] + 1}").status_code == 400
    assert client.get(f"{base}/0?seat=1").status_code == 400
    bad = client.get(f"{base}/x")
    assert bad.status_code == 400 and "\n" not in bad.json()["error"]
    last = client.get(f"{base}/{final['n']}?seat=0").json()
    assert last["view"] == final["view"] and last["total"] == final["n"] == last["k"]


def test_glossary_and_static_pages(client: TestClient) -> None:
    assert isinstance(client.get("/api/glossary/falling-skies").json(), dict)
    lobby = client.get("/")
    assert lobby.status_code == 200 and "html" in lobby.headers["content-type"]
    page = client.get("/t/abcdefgh")
    assert page.status_code == 200 and "html" in page.headers["content-type"]


def test_how_to_play_pages_teach_each_game_and_list_its_glossary(client: TestClient) -> None:
    for cls in list_games():
        page = client.get(f"/howto/{cls.id}")
        assert page.status_code == 200 and "html" in page.headers["content-type"], cls.id
        assert f"How to play {cls.name}" in page.text
        glossary = client.get(f"/api/glossary/{cls.id}").json()
        assert all(html.escape(term) in page.text for term in glossary), cls.id
    missing = client.get("/howto/chess")
    assert missing.status_code == 404 and "chess" in missing.json()["error"]


def test_tokens_are_stored_only_as_their_hashes(client: TestClient, db: Path) -> None:
    created = create(client, {**FALLING, "game": "spacerace", "players": 2, "seats": [{"kind": "human"}] * 2})
    tokens = [token_of(s["link"]) for s in created["seats"]]
    with sqlite3.connect(db) as con:
        stored = [row[0] for row in con.execute("SELECT token_hash FROM seats ORDER BY seat")]
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert stored == [hashlib.sha256(t.encode()).hexdigest() for t in tokens]
    files = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))  # the database, its WAL
    assert all(t.encode() not in files for t in tokens)
