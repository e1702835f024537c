"""Mothership at the browser table, played by clicking the board only, in a real Chromium: with and
without every expansion module, at 1280x800 and on a 390x844 phone. At every decision: every legal
move has a place on the board, the turn guide says what the engine asks for, and no text of the
board is under the size a newcomer reads (12 px, 11 px on a phone) or cut without its full text."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from server_helpers import Server, run_server
from web_page_helpers import (
    TEXT_SIZES,
    Seen,
    click_part,
    confirm_asked,
    get_json,
    is_over,
    open_page,
    post_json,
    shot,
    wait_for_update_after,
    wait_ready,
)

EXPANSION = {"exploration": True, "neutron_stars": True, "black_holes": True, "beacons": True, "objectives": "hidden"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with run_server(f"sqlite:///{tmp_path}/tables.sqlite3") as running:
        yield running


def _table(server: Server, options: dict[str, Any]) -> str:
    made = post_json(
        f"{server.url}/api/tables",
        {
            "game": "mothership",
            "players": 4,
            "options": options,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        },
    )
    return f"{server.url}{made['seats'][0]['link']}"


def expected_words(update: dict[str, Any], seat: int) -> list[str]:
    """What the guide must say at this decision, from what the engine asks for: the kinds of the
    seat's legal moves, or who else is to act."""
    to_act = update["to_act"]
    if seat not in to_act:
        return [f"Player {to_act[0] + 1}"] if to_act else []
    labels = " ".join(a["label"] for a in update["actions"])
    words = []
    if labels.startswith("place at"):
        words.append("place your")
    if "energy:" in labels:
        words.append("set your energy")
    if any(a["label"].startswith("move ") for a in update["actions"]) or " attack " in labels:
        words.append("move or attack")
    if "collect resources and end the turn" in labels:
        words.append("end the turn")
    if any(a["label"].startswith("pass:") for a in update["actions"]):
        words.append("pass")
    return words


def _kinds(update: dict[str, Any]) -> set[str]:
    return {str(a["label"]).split(" ")[0] for a in update["actions"]}


def _check_decision(page: Page, update: dict[str, Any], seat: int, floor: float) -> None:
    assert update["actions"], "a decision with nothing to do"
    unplaced = [a["label"] for a in update["actions"] if not a["parts"]]
    assert not unplaced, f"moves with no place on the board: {unplaced[:5]}"
    guide = page.locator("#guide").inner_text()
    assert guide == update["guide"]
    for words in expected_words(update, seat):
        assert words.lower() in guide.lower(), f"the guide {guide!r} does not say {words!r} ({_kinds(update)})"
    texts = page.evaluate(TEXT_SIZES, "#board-panel")
    small = [t for t in texts if t["px"] < floor - 0.05]
    assert not small, f"text under {floor} px: {small[:6]}"
    cut = [t for t in texts if t["cut"]]
    assert not cut, f"text cut without its full words: {cut[:6]}"


def _kind(action: dict[str, Any]) -> str:
    """The family of board element a move starts on (``panel``, ``unit``, ``end_turn``, ...)."""
    return str(action["parts"][0].split(":")[0])


def _play_rounds(page: Page, seen: Seen, rounds: int, floor: float, seed: int) -> dict[str, int]:
    """Decide by clicking the board only until round ``rounds`` + 1 begins; returns what was done."""
    rng = random.Random(seed)
    done: dict[str, int] = {}
    while True:
        wait_ready(page)
        assert not is_over(page), "the game ended before the rounds were played"
        update = seen.updates()[-1]
        if update["view"]["phase"] == "turn" and update["view"]["round"] > rounds:
            return done
        _check_decision(page, update, 0, floor)
        # a person heeds the table's warnings (a last ship into a black hole): the rounds go on with a fleet
        moves = [a for a in update["actions"] if not a.get("warning")] or update["actions"]
        ending = [a for a in moves if a["label"].startswith("collect resources")]
        untried = [a for a in moves if _kind(a) in ("panel", "unit") and _kind(a) not in done]
        chosen = rng.choice(untried) if untried else ending[0] if ending and rng.random() < 0.2 else rng.choice(moves)
        for part in chosen["parts"]:
            click_part(page, part)
        longer = [
            a for a in update["actions"] if a["parts"][: len(chosen["parts"])] == chosen["parts"] and a is not chosen
        ]
        if longer:
            click_part(page, chosen["parts"][-1])
        if chosen.get("warning"):  # why it loses is shown first: only the dialog's button sends it
            confirm_asked(page, chosen)
        elif chosen.get("note"):
            page.wait_for_selector("#note:not([hidden])")
            assert page.locator("#note-text").inner_text() == chosen["note"]
            click_part(page, chosen["parts"][-1])
        done[_kind(chosen)] = done.get(_kind(chosen), 0) + 1
        wait_for_update_after(page, seen, update["n"])


@pytest.mark.soak  # CI's ten minutes (make test took 9 min 59 s from a fresh clone): make soak runs both
@pytest.mark.parametrize("options", [{}, EXPANSION], ids=["base", "expansion"])
def test_three_rounds_by_clicking_the_board(
    server: Server, browser: Browser, tmp_path: Path, options: dict[str, Any]
) -> None:
    page, seen = open_page(browser, _table(server, options), 1280, 800)
    done = _play_rounds(page, seen, 3, 12.0, seed=len(options))
    assert done.get("panel") and done.get("unit") and done.get("end_turn"), done
    overflow = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert overflow[0] <= 1280 and overflow[1] <= 800, f"the page scrolls at 1280x800: {overflow}"
    shot(page, "table-mothership" + ("-expansion" if options else ""), tmp_path)
    table = page.url.split("/t/", 1)[1].split("#", 1)[0]
    assert get_json(f"{server.url}/api/tables")[0]["table"] == table


@pytest.mark.soak  # CI's ten minutes: the phone's layout is also checked by every run of make soak
@pytest.mark.parametrize("options", [{}, EXPANSION], ids=["base", "expansion"])
def test_a_phone_plays_the_first_round_with_tabs(
    server: Server, browser: Browser, tmp_path: Path, options: dict[str, Any]
) -> None:
    page, seen = open_page(browser, _table(server, options), 390, 844)
    _play_rounds(page, seen, 1, 11.0, seed=7)
    assert page.locator("#board").get_attribute("data-layout") == "tall"
    assert page.locator("#board .st-tabs [data-tab-for]").count() >= 3
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone scrolls sideways: {width} px"
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "table-mothership-phone" + ("-expansion" if options else ""), tmp_path)
