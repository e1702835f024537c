"""The lobby in words, in a real Chromium: every option with its label, help and labelled values
(no JSON, no raw option names), dependencies kept as a person chooses, a mode that does not fit
the player count explained before submit (Create off with the reason), a table made by clicking
with exactly the options chosen, and text that can be read on a desktop and a phone."""

from __future__ import annotations

import json
import re
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import spacetable
from server_helpers import Server, run_server
from web_page_helpers import WAIT_MS, get_json, open_page, post_json, shot

SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
"""A raw option or value name (round_limit, victory_points)."""

SHOWN = """root => {
    const seen = (e) => e.checkVisibility ? e.checkVisibility() : e.offsetParent !== null;
    const texts = [];
    for (const e of root.querySelectorAll("label, legend, p, span, summary, option, button")) {
        if (e.tagName === "OPTION" ? seen(e.parentElement) : seen(e)) texts.push(e.textContent);
    }
    for (const e of root.querySelectorAll("input, textarea")) {
        if (!seen(e) || e.type === "checkbox") continue;
        texts.push(e.value, e.placeholder || "");
    }
    return texts;
}"""
"""Every text a person sees in the options: labels, help, notes, the values of the choices and
of the fields, their placeholders."""

SMALLEST_TEXT = """root => {
    let least = Infinity, where = "";
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, element = node.parentElement;
        if (!node.textContent.trim() || !element.checkVisibility()) continue;
        const size = parseFloat(getComputedStyle(element).fontSize);
        if (size < least) { least = size; where = node.textContent.trim().slice(0, 40); }
    }
    for (const e of root.querySelectorAll("input, select, textarea")) {
        if (!e.checkVisibility() || e.type === "checkbox") continue;
        const size = parseFloat(getComputedStyle(e).fontSize);
        if (size < least) { least = size; where = e.id; }
    }
    return [least, where];
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module (a start takes seconds): each test looks only at its own tables."""
    with run_server(f"sqlite:///{tmp_path_factory.mktemp('lobby')}/tables.sqlite3") as running:
        yield running


def lobby(browser: Browser, server: Server, game: str, width: int = 1280, height: int = 800) -> Page:
    """The lobby with ``game`` chosen, its options drawn."""
    page, _ = open_page(browser, f"{server.url}/?game={game}", width, height)
    page.wait_for_selector("#options .opt", timeout=WAIT_MS)
    page.wait_for_selector("#learn .learn-list a", timeout=WAIT_MS)  # the lessons are listed too
    assert page.locator("#game").input_value() == game
    return page


@pytest.mark.soak  # every game's lobby in a browser, about 11 s: CI runs it in make soak
def test_every_option_is_in_words_grouped_as_the_rulebook_does(browser: Browser, server: Server) -> None:
    games = get_json(f"{server.url}/api/games")
    page = lobby(browser, server, "mothership")
    for game in games:
        page.select_option("#game", game["id"])
        page.wait_for_selector(f"#opt-{game['options'][0]['name']}")
        shown = page.locator("#options").evaluate(SHOWN)
        for text in shown:
            assert '"' not in text, f"{game['id']}: JSON shown: {text!r}"
            assert not SNAKE.search(text), f"{game['id']}: a raw name shown: {text!r}"
            assert text.strip() not in {"null", "true", "false", "None"}, f"{game['id']}: {text!r}"
        for option in game["options"]:
            field = page.locator(f"#field-{option['name']}")
            if option["group"] == "For designers":  # behind its <details>, closed
                assert not field.is_visible()
                continue
            assert field.is_visible()
            assert option["label"] in field.inner_text() and option["help"].split(":")[0] in field.inner_text()
            legend = field.locator("xpath=ancestor::fieldset[1]/legend").inner_text()
            assert legend == option["group"]
            kind = page.locator(f"#opt-{option['name']}").evaluate("e => e.type || e.tagName")
            if option["kind"] == "bool":
                assert kind == "checkbox"
            elif option["choices"] or option["seat"]:
                assert kind == "select-one"
    # Mothership as the rulebook presents it: the modes first, its own house rules, designers' data hidden
    page.select_option("#game", "mothership")
    page.wait_for_selector("#opt-mode")
    legends = page.locator("#options legend").all_text_contents()
    assert legends[0] == "Game mode" and legends[-2:] == ["House rules", "For designers"]
    assert {"Board", "Optional rules", "Expansion modules"} <= set(legends)
    assert page.locator("#opt-mode option").all_inner_texts() == [
        "Usual for the player count",
        "Standard: last fleet standing",
        "Victory points (chapter 13)",
        "Solo challenge (chapter 14)",
    ]
    assert page.locator("#opt-team_size option").all_inner_texts() == ["Free-for-all", "Teams of 2", "Teams of 3"]
    assert page.locator("#opt-round_limit").input_value() == ""  # house rules stay off
    assert page.locator("#opt-first_seat option:checked").inner_text() == "Roll the d6, as in the rulebook"
    assert not page.locator("#opt-content").is_visible()
    page.click("#designers summary")
    assert page.locator("#opt-content").is_visible()


def test_hidden_objectives_turn_on_exploration_and_turning_it_off_takes_them_back(
    browser: Browser, server: Server
) -> None:
    page = lobby(browser, server, "mothership")
    assert not page.locator("#opt-exploration").is_checked()
    page.select_option("#opt-objectives", "hidden")
    assert page.locator("#opt-exploration").is_checked()
    note = page.locator("#note-objectives")
    assert note.is_visible() and "Planetary exploration turned on too" in note.inner_text()
    assert "objectives need planetary exploration" in note.inner_text()
    assert page.locator("#create").is_enabled()
    page.uncheck("#opt-exploration")
    assert page.locator("#opt-objectives").input_value() == "off"
    assert "Expansion: objectives set to Off" in page.locator("#note-exploration").inner_text()
    # a points target is for the victory points mode: its field waits for that mode
    assert page.locator("#opt-victory_target").is_disabled()
    page.select_option("#opt-mode", "victory_points")
    page.fill("#opt-victory_target", "12")
    page.select_option("#opt-mode", "standard")
    assert page.locator("#opt-victory_target").is_disabled()
    assert page.locator("#opt-victory_target").input_value() == ""
    assert "Points to win set to 10" in page.locator("#note-victory_target").inner_text()


def test_a_solo_challenge_for_four_is_explained_and_create_waits(browser: Browser, server: Server) -> None:
    page = lobby(browser, server, "mothership")
    page.fill("#players", "4")
    page.select_option("#opt-mode", "solo")
    conflicts = page.locator("#conflicts")
    assert conflicts.is_visible()
    assert "The solo challenge is for one player, but the table has 4 players." in conflicts.inner_text()
    assert "solo challenge is for one player" in page.locator("#note-mode").inner_text()
    create = page.locator("#create")
    assert create.is_disabled() and "solo challenge is for one player" in (create.get_attribute("title") or "")
    assert create.get_attribute("aria-describedby") == "conflicts"
    # teams of 2 at 5 players: said the same way
    page.fill("#players", "5")
    page.select_option("#opt-mode", "auto")
    page.select_option("#opt-team_size", "2")
    assert "teams of 2 need 4 or 6 players, but the table has 5 players" in conflicts.inner_text().lower()
    assert create.is_disabled()
    page.select_option("#opt-team_size", "1")
    assert create.is_enabled() and not conflicts.is_visible()
    # the way out it offers: one player, one seat
    page.select_option("#opt-mode", "solo")
    page.click("#conflicts button:has-text('Use one player')")
    assert page.locator("#players").input_value() == "1"
    assert page.locator("#seats select").count() == 1
    assert create.is_enabled() and not conflicts.is_visible()
    assert page.locator("#opt-level").is_enabled()  # the solo level is for one player
    assert page.locator("#opt-beacons").is_disabled()  # the expansion is for 2 to 6


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_a_mothership_table_with_every_module_made_by_clicking(browser: Browser, server: Server) -> None:
    page = lobby(browser, server, "mothership")
    page.fill("#players", "4")
    for module in ("random_event", "neutron_stars", "black_holes", "beacons"):
        page.check(f"#opt-{module}")
    page.select_option("#opt-objectives", "global")  # turns on planetary exploration
    page.select_option("#opt-mode", "victory_points")
    page.fill("#opt-victory_target", "12")
    page.select_option("#opt-first_seat", "2")  # Seat 3
    assert page.locator("#opt-first_seat option:checked").inner_text() == "Seat 3"
    for seat in range(4):
        page.select_option(f"#seat-{seat}", "human")
    page.click("#create")
    page.wait_for_selector("#invites a", timeout=WAIT_MS)
    spectate = page.locator("#invites input").last.input_value()
    table = spectate.rsplit("/t/", 1)[1]
    listed = [t for t in get_json(f"{server.url}/api/tables") if t["table"] == table]
    assert len(listed) == 1 and listed[0]["game"] == "mothership" and listed[0]["players"] == 4
    chosen: dict[str, Any] = {
        "random_event": True,
        "neutron_stars": True,
        "black_holes": True,
        "beacons": True,
        "objectives": "global",
        "exploration": True,
        "mode": "victory_points",
        "victory_target": 12,
        "first_seat": 2,
    }
    watcher, seen = open_page(browser, spectate)
    for _ in range(WAIT_MS // 50):
        welcome = [f for f in seen.frames if f.get("type") == "welcome"]
        if welcome:
            break
        watcher.wait_for_timeout(50)
    assert welcome, "no welcome frame"
    assert welcome[0]["game"]["options"] == spacetable.load("mothership", 4, chosen).options


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_a_bad_value_is_refused_in_one_line_and_changes_nothing(browser: Browser, server: Server) -> None:
    def tables() -> set[str]:
        return {t["table"] for t in get_json(f"{server.url}/api/tables")}

    before = tables()
    page = lobby(browser, server, "mothership")
    page.fill("#opt-round_limit", "0")
    page.click("#create")
    error = page.locator("#error")
    error.wait_for(state="visible", timeout=WAIT_MS)
    assert "round_limit=0 must be at least 1" in error.inner_text() and "\n" not in error.inner_text().strip()
    assert tables() == before
    # the same dependency the lobby keeps is the server's: refused in one line naming both options
    body = {"game": "mothership", "players": 2, "options": {"objectives": "hidden"}, "seats": [{"kind": "human"}] * 2}
    with pytest.raises(urllib.error.HTTPError) as refused:
        post_json(f"{server.url}/api/tables", body)
    assert refused.value.code == 400
    message = json.loads(refused.value.read())["error"]
    assert "objectives need planetary exploration" in message and "Planetary exploration is off" in message
    assert "\n" not in message
    assert tables() == before


@pytest.mark.soak  # CI's ten minutes: make soak runs it
@pytest.mark.parametrize(("width", "height", "least"), [(1280, 800, 12), (390, 844, 11)])
def test_the_lobby_reads_on_a_desktop_and_a_phone(
    browser: Browser, server: Server, tmp_path: Path, width: int, height: int, least: float
) -> None:
    page = lobby(browser, server, "mothership", width, height)
    page.click("#designers summary")  # every part shown, the designers' one too
    size, where = page.locator("#new-table").evaluate(SMALLEST_TEXT)
    assert size >= least, f"{where!r} is {size}px at {width}x{height}"
    wide = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert wide[0] <= wide[1], f"sideways scroll at {width}x{height}: {wide}"
    page.click("#designers summary")
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "lobby" if width > 600 else "lobby-phone", tmp_path)
