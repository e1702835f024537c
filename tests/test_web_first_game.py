"""A first-game test: someone who never read a rulebook finds out from the table itself what every
number and symbol on the screen means.

For each game a table is created (seat 0 a person, bots in the other seats) and opened in a
1920x1400 window; at several positions during play (random moves between the checks) the board
is walked in the page: every SVG element that is a *symbol* must be explained where a person
would point at it. From the element at the centre of its box (``document.elementFromPoint``, so
a symbol covered by an explained element counts as explained, as it does for a person; for a
line, a ring or an outline, whose centre may be empty or fall in a dash's gap, also from points
along it: one of them explaining it is enough) up to,
not including, the root ``<svg>``, some element must have a ``<title>`` child (its hover text) or
a ``data-term`` naming an entry of the table's glossary (table.js shows both in ``#info``).

Symbols are:

- every ``<text>`` whose own content (its ``<title>`` left out) has no word of three or more
  letters: numbers, single letters, glyphs such as "!?", "☠", "+1", "E 5", "1|8|1". A word
  explains itself; a number or a glyph does not.
- every visible non-text shape (circle, ellipse, polygon, path, rect, line, polyline, use,
  image) small enough to be an icon: both sides of its box below ``ICON`` SVG user units
  (measured in the root ``<svg>``'s own units, so the window's size does not matter). The boards
  draw their pieces and marks below that: dice (22 to 34 units), tokens, units and ships, owner
  shapes, starway tiles (21), stat boxes (30x34), Mothership's grid cells (42). The areas that
  hold them are 60 units or more on some side: a sky or base space of Falling Skies (72 wide), a
  Showdown card (60 high) or mat (360 wide), a panel, a track, the grid; a shape that big is a
  frame or a background, read through what is drawn on it and the words beside it. "Visible"
  leaves out what a person cannot see: nothing drawn (display none, visibility hidden, opacity 0
  on it or an ancestor, neither fill nor stroke painted) and transparent hit areas laid over a
  piece to make it easier to click.

The side panel is checked lightly: every line of ``#players`` and ``#turn`` that holds a number
also holds a word saying what it counts.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from server_helpers import Server, run_server
from web_page_helpers import (
    Seen,
    confirm_asked,
    is_over,
    open_page,
    post_json,
    wait_for_update_after,
    wait_ready_or_out,
)

ICON = 60
"""Both sides of a shape's box below this many SVG user units make it an icon (see above)."""

CHECKS = 4
"""Positions checked per game: the first, then after every ``DECISIONS // CHECKS`` moves."""
DECISIONS = 12

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("falling-skies", 1, {"level": 1}),
    ("showdown", 4, {}),
    ("spacerace", 3, {}),
    (
        "mothership",
        4,
        {"neutron_stars": True, "black_holes": True, "beacons": True, "exploration": True, "objectives": "hidden"},
    ),
]

WALK = """([glossary, icon]) => {
    const svg = document.querySelector("#board svg");
    if (!svg) return [];
    const SHAPES = new Set(["circle", "ellipse", "polygon", "path", "rect", "line", "polyline", "use", "image"]);
    const UNDRAWN = "defs, clipPath, mask, symbol, marker, pattern, title, desc, linearGradient, radialGradient";
    const WORD = /\\p{L}{3,}/u;
    const scale = () => svg.getScreenCTM().a;
    const ownText = (node) => {
        let words = "";
        for (const child of node.childNodes) {
            if (child.nodeType === Node.TEXT_NODE) words += child.textContent;
            else if (child.nodeType === Node.ELEMENT_NODE && child.localName !== "title") words += ownText(child);
        }
        return words;
    };
    const explained = (node) => {
        for (let n = node; n && n !== svg && n.nodeType === Node.ELEMENT_NODE; n = n.parentNode) {
            if (n.querySelector(":scope > title")) return true;
            const term = n.getAttribute("data-term");
            if (term && glossary[term]) return true;
        }
        return false;
    };
    const painted = (value) =>
        value && value !== "none" && value !== "transparent" && !/rgba\\(.*,\\s*0\\)$/.test(value);
    const visible = (node) => {
        for (let n = node; n && n !== svg.parentNode; n = n.parentNode) {
            const style = getComputedStyle(n);
            if (style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0) return false;
        }
        const style = getComputedStyle(node);
        if (node.localName === "text" || node.localName === "use" || node.localName === "image") return true;
        const fill = painted(style.fill) && Number(style.fillOpacity) > 0;
        const stroke = painted(style.stroke) && Number(style.strokeOpacity) > 0 && parseFloat(style.strokeWidth) > 0;
        return fill || stroke;
    };
    const describe = (node) => {
        const own = node.localName === "text" ? ownText(node).trim() : "";
        const group = node.parentNode.closest("[class]");
        const part = node.closest("[data-part]");
        return `<${node.localName} class="${node.getAttribute("class") || ""}"` +
            (group ? ` in .${group.getAttribute("class")}` : "") +
            (part ? ` in ${part.getAttribute("data-part")}` : "") + `>${own}`;
    };
    // where a person may point at it: the centre of its box, and (an outline, a ring, a line: the
    // centre may be empty) points along its outline
    const pointsOn = (node, centre) => {
        const points = [centre];
        if (node instanceof SVGGeometryElement && node.getTotalLength) {
            const total = node.getTotalLength();
            const m = node.getScreenCTM();
            for (const f of [0.5, 0.3, 0.7, 0.1, 0.9, 0.4, 0.6]) {
                const p = node.getPointAtLength(total * f);
                points.push([m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f]);
            }
        }
        return points;
    };
    const missing = [];
    for (const node of svg.querySelectorAll("*")) {
        const tag = node.localName;
        if (tag !== "text" && !SHAPES.has(tag)) continue;
        if (node.closest(UNDRAWN)) continue;
        if (tag === "text") {
            const words = ownText(node).trim();
            if (!words || WORD.test(words)) continue;
        }
        if (!visible(node)) continue;
        let box = node.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (tag !== "text" && (box.width / scale() >= icon || box.height / scale() >= icon)) continue;
        let centre = [box.left + box.width / 2, box.top + box.height / 2];
        if (centre[0] < 0 || centre[1] < 0 || centre[0] >= innerWidth || centre[1] >= innerHeight) {
            node.scrollIntoView({block: "center", inline: "center"});
            box = node.getBoundingClientRect();
            centre = [box.left + box.width / 2, box.top + box.height / 2];
        }
        const hits = pointsOn(node, centre).map(([x, y]) => document.elementFromPoint(x, y));
        if (hits.some((hit) => hit && svg.contains(hit) && explained(hit))) continue;
        const outside = hits.find((hit) => hit && !svg.contains(hit));
        const under = outside ? ` (under #${outside.id || outside.localName} outside the board)` : "";
        missing.push(describe(node) + under);
    }
    return missing;
}"""


def _side_lines_without_words(page: Page) -> list[str]:
    """Lines of #players and #turn holding a number with no word beside it."""
    lines = page.evaluate(
        """() => [...document.querySelectorAll("#players li"), document.querySelector("#turn")]
            .filter(Boolean).map((e) => e.innerText.trim())"""
    )
    return [line for line in lines if any(c.isdigit() for c in line) and not _has_word(line)]


def _has_word(line: str) -> bool:
    run = 0
    for c in line:
        run = run + 1 if c.isalpha() else 0
        if run >= 3:
            return True
    return False


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with run_server(f"sqlite:///{tmp_path}/tables.sqlite3") as running:
        yield running


def _glossary(seen: Seen) -> dict[str, str]:
    welcome = next(f for f in seen.frames if f.get("type") == "welcome")
    glossary: dict[str, str] = welcome.get("glossary") or {}
    return glossary


def _play_one(page: Page, seen: Seen, rng: random.Random) -> None:
    """A random move, clicked in the move list (the board's own clicks are tested in test_web_browser)."""
    update = seen.updates()[-1]
    chosen = rng.choice(update["actions"])
    page.locator(f'#actions button.action[data-i="{chosen["i"]}"]').click()
    if chosen.get("note") or chosen.get("warning"):  # its odds or why it loses are shown first, then confirmed
        confirm_asked(page, chosen)
    wait_for_update_after(page, seen, update["n"])


@pytest.mark.parametrize(
    ("game", "players", "options"),
    # all but falling-skies' in `make soak` only (CI's ten minutes: 13 to 23 s each)
    [pytest.param(*g, marks=pytest.mark.soak) if g[0] != "falling-skies" else g for g in GAMES],
    ids=[g for g, _, _ in GAMES],
)
def test_every_number_and_symbol_on_the_table_is_explained_where_a_person_points(
    browser: Browser, server: Server, game: str, players: int, options: dict[str, Any]
) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    body = {"game": game, "players": players, "options": options, "seats": seats}
    created = post_json(f"{server.url}/api/tables", body)
    page, seen = open_page(browser, f"{server.url}{created['seats'][0]['link']}", width=1920, height=1400)
    rng = random.Random(11)
    problems: dict[str, set[str]] = {}
    checked = 0
    for decision in range(DECISIONS + 1):
        playing = wait_ready_or_out(page, seen)  # a random walk may put seat 0 out (SpaceRace): the walk ends
        if decision % (DECISIONS // CHECKS) == 0 or not playing or is_over(page):
            page.wait_for_timeout(100)  # the board's arrangement settles after a drawing
            at = f"position {seen.updates()[-1]['n']}"
            for symbol in page.evaluate(WALK, [_glossary(seen), ICON]):
                problems.setdefault(symbol, set()).add(at)
            for line in _side_lines_without_words(page):
                problems.setdefault(f"side panel: {line!r}", set()).add(at)
            checked += 1
        if not playing or is_over(page):
            break
        _play_one(page, seen, rng)
    assert checked >= 2
    listing = "\n".join(f"  {symbol}  [{', '.join(sorted(at))}]" for symbol, at in sorted(problems.items()))
    assert not problems, f"{len(problems)} symbols on the {game} table explain nothing:\n{listing}"
