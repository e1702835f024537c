"""The web table in a real Chromium, used as people use it: the lobby, whole games played by
clicking, spectators, a reload in the middle of a game, and refusals of forged or stale messages.
Every frame each page received is checked against what its seat may know."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from budget import rounds
from server_helpers import Server, run_server
from spacetable.engine import Record
from web_page_helpers import (
    WAIT_MS,
    check_frames_hold_only_the_seat_s_knowledge,
    click_any_action,
    get_json,
    is_over,
    open_page,
    post_json,
    shot,
    wait_for_update_after,
    wait_ready,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with run_server(f"sqlite:///{tmp_path}/tables.sqlite3") as running:
        yield running


def record_of(server: Server, table: str) -> Record:
    response = get_json(f"{server.url}/api/tables/{table}/record")
    return Record.loads(json.dumps(response))


def table_of(page: Page) -> str:
    return page.url.split("/t/", 1)[1].split("#", 1)[0]


def create_in_lobby(
    page: Page, game: str, players: int, seats: list[str], options: dict[str, str] | None = None
) -> dict[int, str]:
    """Fill the lobby's form as a person does (``options``: what to choose in option fields: a
    select's value, "true" or "false" for a checkbox, else what to type); return each human seat's
    invite link."""
    page.select_option("#game", game)
    if page.locator("#players").is_enabled():  # a one-player game has nothing to choose
        page.fill("#players", str(players))
        page.locator("#players").dispatch_event("change")
    for name, given in (options or {}).items():
        field = page.locator(f"#opt-{name}")
        kind = field.evaluate("e => e.tagName === 'INPUT' ? e.type : e.tagName.toLowerCase()")
        if kind == "select":
            field.select_option(given)
        elif kind == "checkbox":
            field.set_checked(given == "true")
        else:
            field.fill(given)
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind)
    page.click("#create")
    page.wait_for_selector("#invites a", timeout=WAIT_MS)
    links = page.locator("#invites input").evaluate_all("inputs => inputs.map(i => i.value)")
    return {int(link.split("seat=")[1].split("&")[0]): link for link in links if "token=" in link}


def play_falling_skies_by_clicking(page: Page, rng: random.Random, stop_after: int | None = None) -> dict[str, int]:
    """Place dice by clicking a die and then a space on the board; take other decisions from the
    move list. Returns how many decisions went each way."""
    clicks = {"board": 0, "list": 0}
    while stop_after is None or sum(clicks.values()) < stop_after:
        wait_ready(page)
        if is_over(page):
            break
        dice = page.locator('#board [data-part^="die:"].st-piece')
        if dice.count():
            dice.nth(rng.randrange(dice.count())).click()
            targets = page.locator("#board .st-target")
            assert targets.count() > 0, "a chosen die highlights no space"
            targets.nth(rng.randrange(targets.count())).click()
            if page.locator("#note").is_visible():  # a placement that can lose says why first
                page.click("#note-go")
            clicks["board"] += 1
        elif click_any_action(page, rng) is not None:
            clicks["list"] += 1
    return clicks


@pytest.mark.soak  # CI's ten minutes: make soak runs it (about 25 s)
def test_a_person_plays_a_whole_falling_skies_game_by_clicking(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    lobby, _ = open_page(browser, f"{server.url}/")
    page_links = create_in_lobby(lobby, "falling-skies", 1, ["human"])
    shot(lobby, "lobby", tmp_path)
    page, seen = open_page(browser, page_links[0])
    rng = random.Random(7)
    wait_ready(page)
    shot(page, "falling-skies", tmp_path)
    first = play_falling_skies_by_clicking(page, rng, stop_after=6)
    # a reload in the middle of the game comes back to the same position, with the log
    wait_ready(page)
    before = seen.updates()[-1]["n"]
    log_lines = page.locator("#log li").count()
    page.reload()
    wait_ready(page)
    assert seen.updates()[-1]["n"] == before
    assert page.locator("#log li").count() == log_lines
    rest = play_falling_skies_by_clicking(page, rng)
    assert is_over(page)
    shot(page, "falling-skies-over", tmp_path)
    assert first["board"] + rest["board"] >= 10, "dice are placed on the board, not through the list"
    record = record_of(server, table_of(page))
    final = record.final_state()
    assert final.is_terminal()
    assert page.locator("#outcome").inner_text().strip()
    assert check_frames_hold_only_the_seat_s_knowledge(record, seen, 0) >= 20


@pytest.mark.soak  # CI's ten minutes: `make soak` runs it (about 30 s)
def test_two_people_and_a_bot_play_showdown_while_a_third_person_watches(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    lobby, _ = open_page(browser, f"{server.url}/")
    # random captains may fight on for hundreds of rounds: the house rule's burning round ends it
    # (round 5 in the suite, 8 in `make soak`)
    fire = rounds(5, 8)
    links = create_in_lobby(lobby, "showdown", 3, ["human", "human", "bot:random"], {"fire_round": str(fire)})
    assert sorted(links) == [0, 1]
    pages = {seat: open_page(browser, link) for seat, link in links.items()}
    table = table_of(pages[0][0])
    watcher, watched = open_page(browser, f"{server.url}/t/{table}", width=390, height=844)
    rng = random.Random(3)
    decisions = 0
    while not all(is_over(page) for page, _ in pages.values()):
        moved = False
        for page, _ in pages.values():
            if click_any_action(page, rng) is not None:
                moved = True
                decisions += 1
        if not moved:
            pages[0][0].wait_for_timeout(50)
        assert decisions < 3000, "no end after 3000 decisions"
        if decisions == 40:
            shot(pages[0][0], "showdown", tmp_path)
            shot(watcher, "showdown-spectator-phone", tmp_path)
    watcher.wait_for_selector("#outcome:not([hidden])", timeout=WAIT_MS)
    record = record_of(server, table)
    assert record.final_state().is_terminal()
    assert record.options["fire_round"] == fire
    assert record.seats[2].startswith("bot")
    for seat, (_, seen) in pages.items():
        assert check_frames_hold_only_the_seat_s_knowledge(record, seen, seat) > 10
    assert check_frames_hold_only_the_seat_s_knowledge(record, watched, None) > 10
    assert all(not f["actions"] for f in watched.updates()), "a spectator was offered moves"


def _raw_socket(page: Page, table: str, token: str | None, frames: list[dict[str, Any]]) -> list[Any]:
    """Open a WebSocket from inside the page, send ``frames`` after the hello, and return what came
    back (parsed frames, then the close code) once the server has answered each."""
    script = """async ([table, token, frames]) => {
        const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${table}`;
        const ws = new WebSocket(url);
        const got = [];
        const closed = new Promise((done) => ws.addEventListener("close", (e) => done(e.code)));
        await new Promise((done) => ws.addEventListener("open", done));
        ws.addEventListener("message", (e) => got.push(JSON.parse(e.data)));
        ws.send(JSON.stringify({type: "hello", token, since: null}));
        await new Promise((done) => setTimeout(done, 500));
        for (const f of frames) {
            ws.send(typeof f === "string" ? f : JSON.stringify(f));
            await new Promise((done) => setTimeout(done, 300));
        }
        ws.close();
        got.push(await closed);
        return got;
    }"""
    result: list[Any] = page.evaluate(script, [table, token, frames])
    return result


@pytest.mark.soak  # a browser and forged frames, about 13 s: CI runs it in make soak
def test_forged_stale_duplicate_and_out_of_turn_messages_are_refused_and_change_nothing(
    browser: Browser, server: Server
) -> None:
    body = {"game": "showdown", "players": 3, "options": {}, "seats": [{"kind": "human"}] * 3}
    created = post_json(f"{server.url}/api/tables", body)
    page, _ = open_page(browser, f"{server.url}/t/{created['table']}")
    table = created["table"]
    tokens = {s["seat"]: s["link"].split("token=", 1)[1] for s in created["seats"]}
    n_before = get_json(f"{server.url}/api/tables")[0]["n"]
    forged = _raw_socket(page, table, "x" * 32, [])
    assert forged[-1] == 4401 and not any(f.get("type") == "update" for f in forged[:-1])
    # during the draft every seat owes a pick: take seat 0's own update to learn n and a legal pick
    welcome = _raw_socket(page, table, tokens[0], [])
    update = next(f for f in welcome if isinstance(f, dict) and f.get("type") == "update")
    pick = update["actions"][0]["action"]
    stale = {"type": "act", "id": "a", "n": update["n"] - 1, "action": pick}
    junk = "{not json"
    huge = {"type": "act", "id": "b", "n": update["n"], "action": {"kind": "x" * 20000}}
    answers = _raw_socket(page, table, tokens[0], [stale, junk, huge])
    reasons = [f["reason"] for f in answers if isinstance(f, dict) and f.get("type") == "refused"]
    assert len(reasons) == 3, answers
    assert "stale" in reasons[0] or "old" in reasons[0]
    assert get_json(f"{server.url}/api/tables")[0]["n"] == n_before
    # a real pick, then the same message again: the second is a duplicate
    good = {"type": "act", "id": "same-id", "n": update["n"], "action": pick}
    twice = _raw_socket(page, table, tokens[0], [good, good])
    refused = [f["reason"] for f in twice if isinstance(f, dict) and f.get("type") == "refused"]
    assert len(refused) == 1 and "already received" in refused[0], twice
    assert get_json(f"{server.url}/api/tables")[0]["n"] == n_before + 1
    # seat 0 has picked: until the others pick, any move of its own is out of turn
    again = {"type": "act", "id": "next", "n": n_before + 1, "action": pick}
    out_of_turn = _raw_socket(page, table, tokens[0], [again])
    refused = [f["reason"] for f in out_of_turn if isinstance(f, dict) and f.get("type") == "refused"]
    assert len(refused) == 1 and "owes no decision" in refused[0], out_of_turn
    assert get_json(f"{server.url}/api/tables")[0]["n"] == n_before + 1


@pytest.mark.parametrize(
    ("game", "players"), [("falling-skies", 1), ("showdown", 4), ("spacerace", 3), ("mothership", 4)]
)
def test_every_game_opens_at_its_table_and_takes_a_move(
    browser: Browser, server: Server, tmp_path: Path, game: str, players: int
) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    created = post_json(f"{server.url}/api/tables", {"game": game, "players": players, "options": {}, "seats": seats})
    page, seen = open_page(browser, f"{server.url}{created['seats'][0]['link']}")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    wait_ready(page)
    assert page.locator("#board").inner_text().strip() or page.locator("#board svg").count()
    assert page.locator("#howto").get_attribute("href") == f"/howto/{game}"
    shot(page, f"table-{game}", tmp_path)
    before = seen.updates()[-1]["n"]
    rng = random.Random(1)
    for _ in range(20):  # a bot's move may redraw the list under the click: look again
        if click_any_action(page, rng) is not None:
            break
        wait_ready(page)
    wait_for_update_after(page, seen, before)
    assert not errors, errors
    assert not [f for f in seen.frames if f.get("type") == "refused"]


@pytest.mark.soak  # a clock run down in a browser, about 19 s: CI runs it in make soak
def test_a_turn_clock_set_in_the_lobby_moves_for_a_player_who_waits(browser: Browser, server: Server) -> None:
    lobby, _ = open_page(browser, f"{server.url}/")
    lobby.fill("#clock", "1")
    links = create_in_lobby(lobby, "falling-skies", 1, ["human"])
    page, seen = open_page(browser, links[0])
    wait_ready(page)
    before = seen.updates()[-1]["n"]
    page.wait_for_selector("#log li.ev-clock", timeout=WAIT_MS)
    assert "the clock ran out for player 1" in page.locator("#log li.ev-clock").first.inner_text()
    assert seen.updates()[-1]["n"] > before
