"""The guided table (issue 35) in a real Chromium: every game's table says what it waits for in
its status line, offers every legal move on the board, reads on a phone without scrolling past
the board; a move that loses asks first and says why; an absent person's seat is kept for its
grace period and can be taken back after a bot was handed it; the records download from the
page; a decision takes a few key presses; axe-core finds nothing serious or critical.

One server (with a grace period of GRACE seconds) and one browser serve the whole module."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, ViewportSize

import spacetable
from server_helpers import Server, run_server
from spacetable.engine import Record
from web_page_helpers import (
    TEXT_SIZES,
    WAIT_MS,
    Seen,
    click_any_action,
    click_part,
    is_over,
    open_page,
    play_on_the_board,
    post_json,
    shot,
    wait_for_update_after,
    wait_ready,
)

GRACE = 2
"""Seconds an absent person's seat is kept for them at this module's server."""

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("falling-skies", 1, {}),
    ("spacerace", 3, {"turn_limit": 40}),
    ("showdown", 3, {"fire_round": 8}),
    ("mothership", 2, {"black_holes": True, "neutron_stars": True}),
]
"""Each game as its guided test plays it: the players (a person in seat 0, bots in the others)
and options that keep random games short."""

PHONE = ViewportSize(width=390, height=844)
DESKTOP = ViewportSize(width=1280, height=800)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("guided") / "tables.sqlite3"
    with run_server(f"sqlite:///{db}", grace=GRACE) as running:
        yield running


@pytest.fixture(autouse=True)
def _close_pages(browser: Browser) -> Iterator[None]:
    """The pages a test opened are closed after it (many tests share the module's browser)."""
    before = set(browser.contexts)
    yield
    for context in set(browser.contexts) - before:
        context.close()


def _table(server: Server, game: str, players: int, options: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A new table with a person in seat 0 and random bots in the others (POST /api/tables)."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    body = {"game": game, "players": players, "options": options, "seats": seats, **more}
    created: dict[str, Any] = post_json(f"{server.url}/api/tables", body)
    return created


def _link(server: Server, created: dict[str, Any], seat: int) -> str:
    return f"{server.url}{created['seats'][seat]['link']}"


# ---- the status line, the board's moves, the names, and a phone --------------------------------


def _check_guided(page: Page, seen: Seen) -> dict[str, Any]:
    """The status line above the board and the header's turn line say the update's guide; every
    legal move's parts are on the board; the players panel names the seats as the game does."""
    for _ in range(40):  # a bot's move may come between the two reads: read both again
        update = seen.updates()[-1]
        guide = page.locator("#guide").inner_text()
        if guide == (update["guide"] or "") and update is seen.updates()[-1]:
            break
        page.wait_for_timeout(50)
    assert update["guide"], f"update {update['n']} has no guide"
    assert guide == update["guide"]
    turn = page.locator("#turn").inner_text()
    assert update["guide"] in turn, f"the turn line {turn!r} does not say the guide"
    drawn = set(page.locator("#board [data-part]").evaluate_all("nodes => nodes.map(n => n.dataset.part)"))
    missing = {a["label"]: [p for p in a["parts"] if p not in drawn] for a in update["actions"]}
    unplaced = [label for label, parts in missing.items() if parts or not update["actions"]]
    assert not [a["label"] for a in update["actions"] if not a["parts"]], "moves with no place on the board"
    assert not unplaced, f"moves whose parts are not on the board: {unplaced[:5]}"
    names = page.locator("#players li[data-seat] .player-name").all_inner_texts()
    assert names == update["names"], f"the players panel says {names}, the game {update['names']}"
    return update


def _smallest_text(page: Page, root: str = "body") -> tuple[float, list[dict[str, Any]]]:
    texts = page.evaluate(TEXT_SIZES, root)
    smallest = min(t["px"] for t in texts)
    return smallest, sorted(texts, key=lambda t: t["px"])[:5]


def _reachable(page: Page, selector: str) -> bool:
    """Whether the first element of ``selector`` is on the first screen (the page at its top) and
    not covered: in the page above the fold, or in the sheet fixed at the bottom."""
    return bool(
        page.evaluate(
            """selector => {
                window.scrollTo(0, 0);
                const node = document.querySelector(selector);
                if (!node) return false;
                const box = node.getBoundingClientRect();
                const x = box.left + Math.min(box.width / 2, 20), y = box.top + Math.min(box.height / 2, 10);
                if (y < 0 || y >= innerHeight || x < 0 || x >= innerWidth) return false;
                const hit = document.elementFromPoint(x, y);
                return Boolean(hit && (hit === node || node.contains(hit)));
            }""",
            selector,
        )
    )


def _check_phone(page: Page) -> None:
    """At 390x844: no text under 11 px, nothing wider than the screen, and the status line, the
    first move and the explanation reachable without scrolling past the board."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)  # the board's arrangement and the sheet settle after a resize
    smallest, small = _smallest_text(page)
    assert smallest >= 11 - 0.05, f"text under 11 px on a phone: {small}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the phone scrolls sideways: {width} px"
    assert _reachable(page, "#guide"), "the status line is not on the phone's first screen"
    assert _reachable(page, "#actions button.action, #no-actions"), "the first move is not on the phone's first screen"
    page.click('#sheet-tabs [data-sheet-for="about"]')
    assert _reachable(page, "#info"), "the explanation is not on the phone's first screen"
    page.click('#sheet-tabs [data-sheet-for="moves"]')


@pytest.mark.soak  # CI's ten minutes: make soak runs them (about 10 to 20 s each)
@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g for g, _, _ in GAMES])
def test_a_short_game_is_guided_at_every_step(
    browser: Browser, server: Server, tmp_path: Path, game: str, players: int, options: dict[str, Any]
) -> None:
    created = _table(server, game, players, options)
    page, seen = open_page(browser, _link(server, created, 0), **DESKTOP)
    checked = []

    def check(page: Page, update: dict[str, Any]) -> None:
        checked.append(_check_guided(page, seen))
        if len(checked) == 1:
            smallest, small = _smallest_text(page)
            assert smallest >= 12 - 0.05, f"text under 12 px at 1280x800: {small}"
            shot(page, f"guided-{game}", tmp_path)
            _check_phone(page)
            shot(page, f"guided-{game}-phone", tmp_path)
            page.set_viewport_size(DESKTOP)
            page.wait_for_timeout(200)

    made = play_on_the_board(page, seen, random.Random(3), observe=check, stop_after=8)
    assert sum(made.values()) == 8 or is_over(page)
    assert made["list"] == 0, "a move was made from the list: every move has its place on the board"
    assert len(checked) >= 2


# ---- warnings -----------------------------------------------------------------------------------

WARNED = ["falling_skies", "spacerace", "showdown", "mothership"]
"""The games whose tests/<game>_helpers.py give a position with a warned move (warning_position)."""


def _warned_table(server: Server, browser: Browser, helpers: str) -> tuple[Page, Seen, dict[str, Any], str, str]:
    """A table started from the helpers' warning position, a person in the seat to decide and
    random bots in the others: (its page, what it received, the update, the warned and the safe
    move's labels)."""
    record, seat, warned, safe = importlib.import_module(f"{helpers}_helpers").warning_position()
    players = len(record["seats"])
    seats = [{"kind": "human"} if s == seat else {"kind": "bot", "level": "random"} for s in range(players)]
    created = post_json(f"{server.url}/api/tables", {"start": record, "seats": seats})
    page, seen = open_page(browser, _link(server, created, seat), **DESKTOP)
    wait_ready(page)
    update = seen.updates()[-1]
    labels = [a["label"] for a in update["actions"]]
    assert warned in labels and safe in labels, f"the table is not at the warning position: {labels[:6]}"
    return page, seen, update, warned, safe


@pytest.mark.soak  # CI's ten minutes: make soak runs them (about 5 s each)
@pytest.mark.parametrize("helpers", WARNED)
def test_a_losing_move_asks_first_and_says_why(browser: Browser, server: Server, helpers: str) -> None:
    page, seen, update, warned_label, safe_label = _warned_table(server, browser, helpers)
    warned = next(a for a in update["actions"] if a["label"] == warned_label)
    safe = next(a for a in update["actions"] if a["label"] == safe_label)
    assert warned["warning"] and not safe["warning"]
    # the move list marks it; on the board, a step that only leads to losing moves is marked too
    button = page.locator(f'#actions button.action[data-i="{warned["i"]}"]')
    assert "⚠" in button.inner_text() and "st-risky" in (button.get_attribute("class") or "")
    assert button.locator('[role="img"][aria-label]').count() == 1
    # its path on the board: the dialog comes, as a danger, with the focus on Cancel
    path = warned["parts"]
    for part in path:
        click_part(page, part)
    if any(len(a["parts"]) > len(path) and a["parts"][: len(path)] == path for a in update["actions"]):
        click_part(page, path[-1])  # its path also starts longer ones: a second click on its last place
    dialog = page.locator("#note")
    dialog.wait_for(state="visible", timeout=WAIT_MS)
    assert dialog.get_attribute("role") == "alertdialog"
    assert "danger" in (dialog.get_attribute("class") or "")
    assert page.locator("#note-warning").inner_text() == warned["warning"]
    assert page.locator("#note-go").inner_text() == "Play it anyway"
    assert page.evaluate("document.activeElement.id") == "note-cancel"
    _no_serious_violations(page, f"{helpers}'s warning", "#note")
    sent = len(seen.sent)
    page.click("#note-cancel")
    assert dialog.is_hidden()
    page.wait_for_timeout(300)
    assert not [f for f in seen.sent[sent:] if f.get("type") == "act"], "Cancel sent the move"
    assert seen.updates()[-1]["n"] == update["n"]
    # the safe move goes at once, without a dialog
    if safe["note"]:  # a note (the odds) is still shown first, as before
        page.locator(f'#actions button.action[data-i="{safe["i"]}"]').click()
        page.click("#note-go")
    else:
        page.locator(f'#actions button.action[data-i="{safe["i"]}"]').click()
        assert dialog.is_hidden()
    wait_for_update_after(page, seen, update["n"])
    acts = [f for f in seen.sent if f.get("type") == "act"]
    assert [f["action"] for f in acts] == [safe["action"]]


# ---- grace and take back ------------------------------------------------------------------------


@pytest.mark.soak  # CI's ten minutes: make soak runs it (about 10 s)
def test_an_absent_person_s_seat_waits_its_grace_and_is_taken_back(browser: Browser, server: Server) -> None:
    body = {"game": "showdown", "players": 2, "options": {"fire_round": 8}, "seats": [{"kind": "human"}] * 2}
    created = post_json(f"{server.url}/api/tables", body)
    a, a_seen = open_page(browser, _link(server, created, 0), **DESKTOP)
    b, _ = open_page(browser, _link(server, created, 1), **DESKTOP)
    wait_ready(a)
    wait_ready(b)
    b.context.close()
    away = a.locator('#players li[data-seat="1"]')
    away.filter(has_text="can be handed to a bot in 0:0").wait_for(timeout=WAIT_MS)
    assert away.locator("button.hand").count() == 0, "a hand-over was offered inside the grace period"
    away.locator("button.hand").click(timeout=(GRACE + 5) * 1000)
    away.filter(has_text="bot").wait_for(timeout=WAIT_MS)
    assert not [f for f in a_seen.frames if f.get("type") == "refused"]
    # B comes back with the same link: a bot plays the seat, which B takes back, and plays on
    b, b_seen = open_page(browser, _link(server, created, 1), **DESKTOP)
    banner = b.locator("#handed")
    banner.wait_for(state="visible", timeout=WAIT_MS)
    assert "A bot is playing your seat" in banner.inner_text()
    assert b.locator("#actions button.action").count() == 0
    b.click("#take-back")
    banner.wait_for(state="hidden", timeout=WAIT_MS)
    rng = random.Random(5)
    for _ in range(40):  # the bot may have decided for B already: A plays until B is asked again
        if b.locator("#actions button.action:not([disabled])").count():
            break
        click_any_action(a, rng)
        b.wait_for_timeout(200)
    wait_ready(b)
    before = b_seen.updates()[-1]["n"]
    assert click_any_action(b, rng) is not None
    wait_for_update_after(b, b_seen, before)
    assert not [f for f in b_seen.frames if f.get("type") == "refused"]


# ---- the records --------------------------------------------------------------------------------


def _record_near_the_end(seed: int = 4) -> dict[str, Any]:
    """A falling-skies record played at random up to its person's last decision."""
    game = spacetable.load("falling-skies", 1)
    state, rng = game.new_initial_state(), random.Random(seed)
    rows: list[tuple[int | None, Any]] = []
    while not state.is_terminal():
        seat = None if state.is_chance_node() else state.awaiting()[0]
        action = state.sample_chance(rng) if seat is None else rng.choice(state.legal_actions(seat))
        rows.append((seat, action))
        state.apply_action(action, seat)
    last = max(k for k, (seat, _) in enumerate(rows) if seat is not None)
    record = Record.start(game, ["Player 1"])
    for seat, action in rows[:last]:
        record.add(game, seat, action)
    start: dict[str, Any] = record.to_json()
    return start


def _download(page: Page, button: str) -> Record:
    with page.expect_download(timeout=WAIT_MS) as download:
        page.click(button)
    text = Path(download.value.path()).read_text()
    assert download.value.suggested_filename.endswith(".json")
    return Record.loads(text)


@pytest.mark.soak  # CI's ten minutes: make soak runs it (about 5 s)
def test_a_player_downloads_their_record_and_everyone_the_whole_one_after_the_game(
    browser: Browser, server: Server
) -> None:
    created = post_json(f"{server.url}/api/tables", {"start": _record_near_the_end(), "seats": [{"kind": "human"}]})
    page, seen = open_page(browser, _link(server, created, 0), **DESKTOP)
    wait_ready(page)
    own = _download(page, "#record-mine")
    assert own.known_by == 0 and len(own.actions) == seen.updates()[-1]["n"]
    watcher, _ = open_page(browser, f"{server.url}{created['spectate']}", **DESKTOP)
    watcher.wait_for_selector("#board [data-part], #board svg", timeout=WAIT_MS)
    assert watcher.locator("#record-mine").is_hidden(), "a spectator was offered a seat's record"
    rng = random.Random(1)
    for _ in range(30):
        wait_ready(page)
        if is_over(page):
            break
        click_any_action(page, rng)
    assert is_over(page)
    assert page.locator("#record-mine").is_hidden()
    whole = _download(page, "#record-download")
    assert whole.final_state().is_terminal()
    assert len(whole.actions) == seen.updates()[-1]["n"]
    outcome = page.locator("#outcome").inner_text()
    assert seen.updates()[-1]["ending"] in outcome
    watcher.wait_for_selector("#outcome:not([hidden])", timeout=WAIT_MS)
    assert watcher.locator("#rematch").count() == 0, "a spectator was offered a rematch"
    assert _download(watcher, "#record-download").dumps() == whole.dumps()


# ---- the keyboard -------------------------------------------------------------------------------


def _focused(page: Page) -> dict[str, Any]:
    focused: dict[str, Any] = page.evaluate(
        """() => {
            const node = document.activeElement;
            const part = node && node.closest && node.closest("#board [data-part]");
            return {part: part ? part.dataset.part : null, id: node ? node.id : null,
                    risky: Boolean(part && part.classList.contains("st-risky")), tag: node ? node.localName : null};
        }"""
    )
    return focused


def test_a_falling_skies_decision_takes_a_few_key_presses(browser: Browser, server: Server) -> None:
    created = _table(server, "falling-skies", 1, {})
    page, seen = open_page(browser, _link(server, created, 0), **DESKTOP)
    for presses in (["Enter"], ["ArrowRight", "Enter"]):
        wait_ready(page)
        update = seen.updates()[-1]
        # the focus is on a piece to move as the decision comes (after a move too: never the page's top)
        page.wait_for_function("() => document.activeElement && document.activeElement.closest('#board [data-part]')")
        assert _focused(page)["part"] in {a["parts"][0] for a in update["actions"]}
        for key in presses:
            page.keyboard.press(key)
        steps = {a["parts"][1] for a in update["actions"] if len(a["parts"]) > 1}
        assert _focused(page)["part"] in steps, "choosing a piece did not take the focus to its places"
        for _ in range(3):  # a place where the chosen piece loses is passed over with an arrow key
            if not _focused(page)["risky"]:
                break
            page.keyboard.press("ArrowDown")
            presses.append("ArrowDown")
        target = _focused(page)["part"]
        page.keyboard.press("Enter")
        presses.append("Enter")
        assert len(presses) <= 5, presses
        after = wait_for_update_after(page, seen, update["n"])
        sent = [f for f in seen.sent if f.get("type") == "act"][-1]
        assert sent["n"] == update["n"]
        made = next(a for a in update["actions"] if a["action"] == sent["action"])
        assert made["parts"][-1] == target, f"the move sent ends on {made['parts'][-1]}, the focus was on {target}"
        assert after["n"] > update["n"]
    # Escape takes a chosen piece back, and the keys stay on the board
    wait_ready(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('#board [data-part]')")
    page.keyboard.press("Enter")
    assert page.locator("#board .st-selected").count() > 0
    page.keyboard.press("Escape")
    assert page.locator("#board .st-selected").count() == 0
    assert _focused(page)["part"] is not None


# ---- accessibility ------------------------------------------------------------------------------


def _no_serious_violations(page: Page, where: str, context: str | None = None) -> None:
    """axe-core's audit of the page (or of the element ``context``): nothing serious or critical."""
    results = Axe().run(page, context)
    serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    report = "\n".join(f"  {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}" for v in serious)
    assert not serious, f"axe-core on {where}:\n{report}"


@pytest.mark.soak  # CI's ten minutes: make soak runs it (about 3 s)
def test_axe_finds_nothing_serious_in_the_lobby(browser: Browser, server: Server) -> None:
    lobby, _ = open_page(browser, f"{server.url}/", **DESKTOP)
    lobby.wait_for_selector("#game option", state="attached", timeout=WAIT_MS)
    lobby.wait_for_selector("#tables table, #tables p", timeout=WAIT_MS)
    _no_serious_violations(lobby, "the lobby")


@pytest.mark.soak  # CI's ten minutes: make soak runs them (about 8 s each)
@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g for g, _, _ in GAMES])
def test_axe_finds_nothing_serious_at_each_table(
    browser: Browser, server: Server, game: str, players: int, options: dict[str, Any]
) -> None:
    created = _table(server, game, players, options)
    for size in (DESKTOP, PHONE):
        page, _ = open_page(browser, _link(server, created, 0), **size)
        wait_ready(page)
        _no_serious_violations(page, f"the {game} table at {size['width']} px")
