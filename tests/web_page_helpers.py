"""Driving the browser table as a person does (Playwright and Debian's Chromium), and checking
every WebSocket frame a page received against what its seat may know."""

from __future__ import annotations

import json
import os
import random
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from spacetable.engine import Event, Game, Record, State

SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
"""Where `make screenshots` (SPACETABLE_SCREENSHOTS=1) keeps the pictures the README shows."""
WAIT_MS = 20_000
READY = "#outcome:not([hidden]), #actions button.action:not([disabled])"
"""A page that has drawn the latest update: the game is over, or this seat may act now."""


def shot(page: Page, name: str, tmp_path: Path) -> Path:
    """Take a screenshot into ``tmp_path``, and into docs/screenshots when asked to."""
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path))
    if os.environ.get("SPACETABLE_SCREENSHOTS"):
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
    return path


@dataclass
class Seen:
    """Every WebSocket frame one page received (and sent), parsed."""

    frames: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    def updates(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "update"]


def open_page(browser: Browser, url: str, width: int = 1280, height: int = 720) -> tuple[Page, Seen]:
    """A new page (its own storage, as another person's browser) at ``url``, capturing the frames
    its WebSockets receive."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    seen = Seen()

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: seen.frames.append(json.loads(payload)))
        socket.on("framesent", lambda payload: seen.sent.extend(_json_object(payload)))

    page.on("websocket", on_socket)
    page.goto(url)
    return page, seen


def _json_object(payload: str | bytes) -> list[dict[str, Any]]:
    """A frame a page sent, parsed (none where a test sent it junk on purpose)."""
    try:
        frame = json.loads(payload)
    except ValueError:
        return []
    return [frame] if isinstance(frame, dict) else []


def wait_ready(page: Page) -> None:
    page.wait_for_selector(READY, timeout=WAIT_MS)


def wait_ready_or_out(page: Page, seen: Seen, seat: int = 0) -> bool:
    """Wait as :func:`wait_ready` does: True once the page is ready; False once the latest
    update shows ``seat`` out of a game the others play on (SpaceRace, Mothership), where it
    will not act again and the bots' game may take minutes at the table's pace."""
    for _ in range(WAIT_MS // 50):
        if page.locator(READY).first.is_visible():
            return True
        updates = seen.updates()
        out = updates[-1].get("view", {}).get("out") if updates else None
        if isinstance(out, list) and seat < len(out) and out[seat]:
            return False
        page.wait_for_timeout(50)
    raise AssertionError(f"the page was not ready within {WAIT_MS} ms and seat {seat} is not out")


def wait_for_update_after(page: Page, seen: Seen, n: int) -> dict[str, Any]:
    """The first update the page received with a position number above ``n`` (fails after WAIT_MS)."""
    for _ in range(WAIT_MS // 50):
        later = [u for u in seen.updates() if u["n"] > n]
        if later:
            return later[0]
        page.wait_for_timeout(50)
    raise AssertionError(f"no update after position {n} within {WAIT_MS} ms")


def is_over(page: Page) -> bool:
    return page.locator("#outcome").is_visible()


def click_any_action(page: Page, rng: random.Random) -> str | None:
    """Click one of the enabled move buttons at random and return its label; None when the list
    was redrawn under the click (a newer update came), so the caller looks again."""
    buttons = page.locator("#actions button.action:not([disabled])")
    count = buttons.count()
    if not count:
        return None
    button = buttons.nth(rng.randrange(count))
    try:
        label = button.inner_text(timeout=2000)
        button.click(timeout=2000)
        if page.locator("#note").is_visible():  # a move with a note or a warning asks to be confirmed
            page.click("#note-go", timeout=2000)
    except PlaywrightTimeout:
        return None
    return label


def confirm_asked(page: Page, action: dict[str, Any]) -> None:
    """A move with a warning (why it loses) or a note (its odds) is not sent at once: the dialog
    (#note) shows them; check that it says them, and play the move with its button."""
    page.wait_for_selector("#note:not([hidden])", timeout=WAIT_MS)
    if action.get("warning"):
        assert page.locator("#note-warning").inner_text() == action["warning"]
    if action.get("note"):
        assert page.locator("#note-text").inner_text() == action["note"]
    page.click("#note-go")


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as response:
        return json.loads(response.read())


def post_json(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def replayed(record: Record) -> Iterator[tuple[int, State, list[Event]]]:
    """(n, the state after n actions, the events of action n) for every n of a record."""
    game = record.game()
    state = game.new_initial_state()
    yield 0, state.clone(), []
    for number, (seat, data) in enumerate(record.actions, start=1):
        events = state.apply_action(game.actions.from_json(data), seat)
        yield number, state.clone(), events


def check_frames_hold_only_the_seat_s_knowledge(record: Record, seen: Seen, seat: int | None) -> int:
    """Every update a page received equals what ``seat`` may know after that many actions: its
    view, the board drawn from it, its own moves, and only events it may see. Returns the number
    of updates checked."""
    game: Game = record.game()
    states: dict[int, State] = {}
    visible: set[tuple[int, str, str]] = set()
    for number, state, events in replayed(record):
        states[number] = state
        visible |= {(number, e.kind, e.text) for e in events if e.visible_to(seat)}
    checked = 0
    for frame in seen.updates():
        state = states[frame["n"]]
        view = state.view(seat)
        assert frame["view"] == json.loads(json.dumps(view)), f"update {frame['n']}: not view({seat})"
        assert frame["svg"] == game.board_svg(view, seat), f"update {frame['n']}: a board not drawn from view({seat})"
        own = state.legal_actions(seat) if seat is not None and seat in state.awaiting() else []
        assert [a["action"] for a in frame["actions"]] == [game.actions.to_json(a) for a in own]
        for event in frame["events"]:
            assert (event["n"], event["kind"], event["text"]) in visible, f"seat {seat} was sent {event}"
        checked += 1
    return checked


TEXT_SIZES = """root => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const words = n.textContent.trim();
        const el = n.parentElement;
        if (!words || el.closest("style, script, title, [hidden]")) continue;
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height) continue;
        let px = parseFloat(getComputedStyle(el).fontSize);
        if (el instanceof SVGElement) {
            const m = el.getScreenCTM();
            px *= Math.hypot(m.a, m.b);
        }
        const style = getComputedStyle(el);
        const html = !(el instanceof SVGElement);
        const clipped = html && style.overflow !== "visible" && el.scrollWidth > el.clientWidth + 1;
        const cut = (words.includes("…") || clipped) && !el.closest("[title]") && !el.querySelector("title");
        out.push({words: words.slice(0, 60), px, cut});
    }
    return out;
}"""
"""Every piece of text shown under the element of a selector: its words, its drawn size in pixels
(the font size times the SVG's scale) and whether it is cut without a full text to hover."""


UNCOVERED_POINT = """element => {
    const box = element.getBoundingClientRect();
    for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        for (const fx of [0.5, 0.25, 0.75, 0.04, 0.96, 0.1, 0.9]) {
            const x = box.left + box.width * fx, y = box.top + box.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit === element || element.contains(hit))) return {x, y};
        }
    }
    return null;
}"""
"""A point of the page where the element itself is on top, tried on a grid over its box
from the middle outwards; null when others cover every point tried."""


def click_part(page: Page, part: str) -> None:
    """Click a board element naming ``part`` as a person would: where some of it shows (a part
    may be drawn several times, a ship's whole mat under its slots, a ring round a piece under
    the piece: the later ones lie on top). Looks again a few times while the board is being
    redrawn (others' moves keep coming while this seat decides in a simultaneous phase)."""
    why: list[str] = []
    for _ in range(4):
        found = page.locator(f'#board [data-part="{part}"]').filter(visible=True)
        if not found.count():
            show_tab_of(page, part)
        for k in reversed(range(found.count())):
            element = found.nth(k)
            try:
                element.scroll_into_view_if_needed(timeout=3000)
                point = element.evaluate(UNCOVERED_POINT)
                box = element.bounding_box()  # Playwright's box (it counts strokes) places the click
                if point is None or box is None:  # under a sticky header or the phone's sheet:
                    why.append(f"element {k}: covered at every point tried")  # scroll it to the middle
                    element.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
                    continue
                element.click(timeout=3000, position={"x": point["x"] - box["x"], "y": point["y"] - box["y"]})
                return
            except PlaywrightError as exc:  # Playwright's log says what stopped it (covered, moving, redrawn)
                why.append(f"element {k}: " + " / ".join(str(exc).splitlines()[-3:]))
    raise AssertionError(f"no element of part {part!r} can be clicked: " + "; ".join(why))


def show_tab_of(page: Page, part: str) -> None:
    """Where a split board's panels are tabs (a phone), turn to the tab holding ``part``, as a person does."""
    tab = page.evaluate(
        """part => {
            const node = document.querySelector(`#board [data-part="${CSS.escape(part)}"]`);
            const section = node && node.closest("section[data-tab]");
            return section && section.hidden ? section.dataset.tab : null;
        }""",
        part,
    )
    if tab:
        page.click(f'#board .st-tabs [data-tab-for="{tab}"]', timeout=3000)


def play_on_the_board(
    page: Page,
    seen: Seen,
    rng: random.Random,
    limit: int = 3000,
    observe: Callable[[Page, dict[str, Any]], None] | None = None,
    stop_after: int | None = None,
) -> dict[str, int]:
    """Play to the end (or ``stop_after`` decisions) as a person does: each decision, a random move
    that has a place on the board is made by clicking its pieces and places in turn; a move
    without one comes from the list. ``observe`` sees the page and its update before each
    decision. Returns how many decisions went each way."""
    made = {"board": 0, "list": 0}
    while sum(made.values()) < limit:
        if stop_after is not None and sum(made.values()) >= stop_after:
            return made
        wait_ready(page)
        if is_over(page):
            return made
        update = seen.updates()[-1]
        if observe is not None:
            observe(page, update)
        on_board = [a for a in update["actions"] if a["parts"]]
        if not on_board:
            if click_any_action(page, rng) is None:
                continue
            made["list"] += 1
        else:
            chosen = rng.choice(on_board)
            for part in chosen["parts"]:
                click_part(page, part)
            longer = [
                a
                for a in on_board
                if len(a["parts"]) > len(chosen["parts"]) and a["parts"][: len(chosen["parts"])] == chosen["parts"]
            ]
            if longer:  # its path also starts longer ones: a second click on its last place sends it
                click_part(page, chosen["parts"][-1])
            if chosen.get("warning"):  # why it loses is shown first: only the dialog's button sends it
                confirm_asked(page, chosen)
            elif chosen.get("note"):  # its note (the odds) is shown first: choosing its last place again sends it
                page.wait_for_selector("#note:not([hidden])", timeout=WAIT_MS)
                click_part(page, chosen["parts"][-1])
            made["board"] += 1
        wait_for_update_after(page, seen, update["n"])
    raise AssertionError(f"no end after {limit} decisions")
