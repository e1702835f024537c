"""The falling-skies board for the web table: an SVG drawing and action parts (the glossary: :mod:`.web_words`).

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON) and the game's
:class:`Board`, never from a state, so the picture holds nothing the viewer may not know.
Top to bottom it follows the cards on the table: the mother ship card over the rows it
covers (its starting spots, the ships waiting on it), the sky (track symbols at the left,
arrows, mother ship icons, explosions, ships), the city, the base (rooms, dice, robots,
excavation), the dice tray and the tracks.

The drawing has two arrangements in one ``<svg>``: the tall one above (its ``viewBox``, for
narrow screens) and a wide one with the base, the tray and the tracks to the right of the sky
(for landscape screens). Each area is a group (``g.fs-sky``, ``g.fs-base``, ``g.fs-tray``,
``g.fs-tracks``); the root carries ``data-viewbox-tall`` and ``data-viewbox-wide``, and the
embedded style moves the right-hand groups when the client puts the class ``st-wide`` on the
root (docs/WEB.md, "Board arrangements").

Clickable elements carry ``data-part``: ``die:<color>:<value>`` (a die to place),
``space:<A1..F5>`` (a base space), ``robot:new`` (the robot just built), ``ship:waiting:<green|red>``
(a ship on the mother ship card), ``spot:<column>`` (a starting spot, 1-based), and, in phase 2
for the player alone, the buttons ``skip:<room or space>`` (skip a room, or discard a digging die).
Most are transparent ``rect.hit`` overlays whose ``<title>`` tells what lies under them (drawn
with ``pointer-events="none"``); every other symbol has a ``<title>`` of its own, and elements
with a meaning carry ``data-term``, a key of :func:`.web_words.glossary`. Labels are at least
``MIN_FONT`` units high, and dice, ships and tokens stand beside labels, never on them.

The drawing's areas are in the sibling modules: :mod:`.web_sky` (the mother ship card, the
sky, the city), :mod:`.web_base` (the base, the tray, the tracks), :mod:`.web_words` (the
glossary and texts) and :mod:`.web_markup` (sizes, the layout, the clickable overlay).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine import JSON, Action
from spacetable.engine.svg import board as svg_board
from spacetable.engine.svg import el, text

from ..content import Board
from ..rules.actions import Dig, Place, PlaceRobot, Resolve, Spawn
from ..rules.state import DECISIONS
from .render import PHASE_NAMES
from .web_base import base, tracks, tray
from .web_markup import Layout
from .web_sky import mothership_card, sky

# ---- parts ---------------------------------------------------------------------------


def action_parts(action: Action) -> tuple[str, ...]:
    """The board parts of an action: the piece, then the place (see the module docstring)."""
    if isinstance(action, Place):
        return (f"die:{action.color}:{action.value}", f"space:{action.space}")
    if isinstance(action, Resolve):
        if not action.use:
            return (f"skip:{action.room}",)
        return (f"space:{action.room}", f"space:{action.take}") if action.take else (f"space:{action.room}",)
    if isinstance(action, Dig):
        return (f"space:{action.space}",) if action.use else (f"skip:{action.space}",)
    if isinstance(action, PlaceRobot):
        return ("robot:new", f"space:{action.space}")
    if isinstance(action, Spawn):
        return (f"ship:waiting:{'red' if action.red else 'green'}", f"spot:{action.column}")
    return ()


def _header(board: Board, view: Mapping[str, Any], lay: Layout, player: str) -> str:
    if view["phase"] == "over":
        status = f"Game over: {player} {view['result']}"
    else:
        status = f"Round {view['round']} · {PHASE_NAMES.get(view['phase'], view['phase'])}"
    hard = f" ({len(board.hard)} hard)" if board.hard else ""
    return el(
        "g",
        text(6, 20, status, class_="status", anchor="start")
        + text(lay.width - 6, 20, f"level {board.level}{hard}", class_="level", anchor="end"),
        title="A round: roll and place the dice, resolve the rooms, then the mother ship comes down.",
        data_term="round",
    )


STYLE = """
.fs-board{fill:#e6ebf5;font-family:system-ui,sans-serif;font-size:14px}
.fs-board .closed{opacity:.6}
.fs-board .status{font-size:16px;font-weight:700}
.fs-board .level,.fs-board .col-number,.fs-board .row-number{font-size:14px;fill:#aab4c8}
.fs-board .next-row{fill:#3d3514;stroke:#ffd54f;stroke-width:1.5}
.fs-board .sky-cell{fill:#101830;stroke:#26324f;stroke-width:.6}
.fs-board .sky-cell.city-card{fill:#16203b}
.fs-board .explosion-n{font-size:14px;font-weight:800;fill:#1b1b1b}
.fs-board .city{fill:#3a2530;stroke:#ff6b6b;stroke-width:1}
.fs-board .city-label{font-size:14px;font-weight:700;fill:#ffb3b3;letter-spacing:4px}
.fs-board .mothership-card{fill:#3b1d4f;fill-opacity:.93;stroke:#e040fb;stroke-width:1.5}
.fs-board .card-label{font-size:14px;font-weight:700;fill:#f3a6ff;letter-spacing:2px}
.fs-board .spot{fill:#1a0f26;stroke:#e040fb;stroke-dasharray:3 2}
.fs-board .waiting{font-size:14px;font-weight:700;fill:#f3a6ff}
.fs-board .track-symbol{font-size:14px;font-weight:700}
.fs-board .symbol-back{fill:#ffd54f}
.fs-board .symbol-harm{fill:#ff6b6b}
.fs-board .symbol-skull{fill:#ff5252;font-size:18px}
.fs-board .research-marker{fill:#56ccf2;stroke:#000;stroke-width:1}
.fs-board .section-label{font-size:14px;font-weight:700;fill:#aab4c8;letter-spacing:1px}
.fs-board .row-letter{font-size:16px;font-weight:700}
.fs-board .room-name{font-size:14px;font-weight:700}
.fs-board .room-detail{font-size:14px;fill:#dfe6f0}
.fs-board .cost{fill:#f2c94c;stroke:#000;stroke-width:1}
.fs-board .cost-value{font-size:14px;font-weight:800;fill:#111}
.fs-board .aa{fill:#12333a;stroke:#4dd0e1;stroke-width:1.5}
.fs-board .tunnel{fill:#1c2130;stroke:#3a4358;stroke-dasharray:4 3}
.fs-board .rock{fill:url(#fs-rock);stroke:#5b4a3a}
.fs-board .dig-route{font-size:14px;fill:#ffe0b2}
.fs-board .excavator{fill:#ffd54f;stroke:#000;stroke-width:1}
.fs-board .die-value{font-weight:800}
.fs-board .tray{fill:#141b2d;stroke:#2c3a5a}
.fs-board .reserve{font-size:14px;fill:#cfd8e3}
.fs-board .button{fill:#26324f;stroke:#9aa6bd;stroke-width:1.5;cursor:pointer}
.fs-board .button-label{font-size:14px;font-weight:700}
.fs-board .track-label{font-size:14px;font-weight:700}
.fs-board .track-cell{fill:#141b2d;stroke:#2c3a5a}
.fs-board .track-cell.done{fill:#1f4d2e;stroke:#4cd964}
.fs-board .track-cell.current{fill:#f2c94c;stroke:#fff;stroke-width:2}
.fs-board .track-cell.hurt{fill:#7a1f1f;stroke:#ff5252}
.fs-board .track-cell.current+.track-value{fill:#111;font-weight:800}
.fs-board .track-value{font-size:14px}
.fs-board .hit{fill:transparent;cursor:pointer}
"""

ROCK = (
    '<defs><pattern id="fs-rock" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="8" height="8" fill="#2b241f"/><line x1="0" y1="0" x2="0" y2="8" stroke="#5b4a3a" stroke-width="3"/>'
    "</pattern></defs>"
)


def _arrangements(lay: Layout) -> str:
    """The style rule that moves the base, the tray and the tracks beside the sky in the wide arrangement."""
    moved = ",".join(f".fs-board.st-wide .fs-{area}" for area in ("base", "tray", "tracks"))
    return f"{moved}{{transform:translate({lay.wide_dx}px,{lay.wide_dy}px)}}"


def board_svg(board: Board, view: JSON, seat: int | None, name: str) -> str:
    """The whole board of ``view`` as one ``<svg>`` element that scales to its container, for
    ``seat`` (None: a spectator); ``name`` is the player's name, as the table calls the seat.

    Its ``viewBox`` is the tall arrangement; ``data-viewbox-wide`` names the wide one, which
    the client picks (with the class ``st-wide``) when the board's panel is landscape. The
    buttons of a decision are drawn for the player alone, while the decision is theirs.
    """
    lay = Layout(board, view["mothership"])
    tall = f"0 0 {lay.width} {lay.height}"
    wide = f"0 0 {lay.wide_width} {lay.wide_height}"
    player = "you" if seat == 0 else name
    acting = seat == 0 and view["phase"] in DECISIONS
    body = (
        f"<style>{STYLE}{_arrangements(lay)}</style>"
        + ROCK
        + el(
            "rect",
            x=0,
            y=0,
            width=lay.wide_width,
            height=max(lay.height, lay.wide_height),
            fill="#0b1020",
            pointer_events="none",
        )
        + el(
            "g",
            _header(board, view, lay, player) + mothership_card(board, view, lay) + sky(board, view, lay),
            class_="fs-sky",
        )
        + el("g", base(board, view, lay), class_="fs-base")
        + el("g", tray(board, view, lay, acting), class_="fs-tray")
        + el("g", tracks(board, view, lay), class_="fs-tracks")
    )
    return svg_board(body, tall=tall, wide=wide, name="fs-board", label="Under Falling Skies board")
