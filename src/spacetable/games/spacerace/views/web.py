"""The SpaceRace board for the web table: an SVG drawing and action parts (the glossary: :mod:`.web_words`).

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON), the game's public
map shape (:class:`~..rules.mapgen.Galaxy`, fixed by the options) and its content, never from a
state. Three areas, each a group:

* ``g.sr-map``: the galactic map as a graph. The Nexus in the middle, the planets (their
  owner's colour *and* the owner's shape, a name label, a ring round a homeworld), the
  starways (a line through their tiles: ``T`` treasure, ``S`` spaceship, an empty dot, ``?``
  before the card is laid) and the ships as tokens ``D|M|A`` in their owner's colour and
  shape, with a gold badge counting the treasure cards they carry.
* ``g.sr-top``: the round and whose turn, the players, and what is being decided: the
  battle in progress step by step (initiative, strikes, standoff, the winner's reward), the
  conquest roll and treasure draws, the mothership design panel, the end-turn button.
* ``g.sr-fleets``: every fleet, ship by ship, with its treasure cards by name.

The map's layout (:func:`map_layout`) is computed once per map from the graph: each node
lies on the ray of the starway chain it belongs to (the generator's direction from the
Nexus), at the length of its path from the Nexus measured with fixed lengths per kind of
link, scaled up where nodes would crowd. Nothing random: the same map always looks the same.

Two arrangements (docs/WEB.md, "Board arrangements"): tall (the ``viewBox``: the top panel,
the map, the fleets, one above the other, the panels scaled to the map's width) and wide
(the map at the left, the panels in a column at its right).

Clickable elements are transparent overlays (``.hit``) carrying ``data-part``:
``ship:<k>`` (ship number ``k`` of the fleet whose turn it is, on the map and in the fleet
list), ``nexus``, ``planet:<node>``, ``tile:<node>``, ``design:<d|m|a>:<value>``,
``battle:<contest|flee|assimilate|destroy>`` and ``end-turn``. Elements with a meaning carry
``data-term`` (a key of :func:`.web_words.glossary`) and a ``<title>`` built from the content data.

The drawing's parts are in the sibling modules: :mod:`.web_layout` (where the map's nodes go),
:mod:`.web_map` (the map), :mod:`.web_panels` and :mod:`.web_battle` (the top panel and the
fleets), :mod:`.web_words` (the glossary and texts), :mod:`.web_context` (the view as the
drawing reads it) and :mod:`.web_markup` (colours, shapes and SVG helpers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine import JSON, Action
from spacetable.engine.svg import board as svg_board
from spacetable.engine.svg import el

from ..content import Content
from ..rules.actions import Assimilate, Contest, Design, Destroy, EndTurn, Flee, Homeworld, Move
from ..rules.mapgen import NEXUS, Galaxy
from .web_context import Ctx, ship_views
from .web_layout import map_layout
from .web_map import draw_map
from .web_markup import PW, tenth
from .web_panels import fleets_panel, top_panel

GAP = 16
"""Between the map and the panel column in the wide arrangement."""


# ---- parts ---------------------------------------------------------------------------------


def node_part(galaxy: Galaxy, node: int) -> str:
    if node == NEXUS:
        return "nexus"
    return f"planet:{node}" if galaxy.names[node] else f"tile:{node}"


def action_parts(galaxy: Galaxy, action: Action) -> tuple[str, ...]:
    """The board parts of an action (see the module docstring); () for chance and the like."""
    if isinstance(action, Move):
        return (f"ship:{action.ship}", node_part(galaxy, action.to))
    if isinstance(action, Homeworld):
        return (node_part(galaxy, action.planet),)
    if isinstance(action, Design):
        return (f"design:d:{action.d}", f"design:m:{action.m}", f"design:a:{action.a}")
    if isinstance(action, EndTurn):
        return ("end-turn",)
    if isinstance(action, Contest):
        return ("battle:contest",)
    if isinstance(action, Flee):
        return ("battle:flee",)
    if isinstance(action, Assimilate):
        return ("battle:assimilate",)
    if isinstance(action, Destroy):
        return ("battle:destroy",)
    return ()


# ---- the whole board ----------------------------------------------------------------------------

STYLE = """
.sr-board{font-family:system-ui,sans-serif;fill:#e6ebf5}
.sr-board .bg{fill:#070b16}
.sr-board .space{fill:#0b1226;stroke:#1d2944}
.sr-board .starway{fill:none;stroke:#34466e;stroke-width:7;stroke-linejoin:round;stroke-linecap:round}
.sr-board .direct{stroke:#34466e;stroke-width:4;stroke-dasharray:5 4}
.sr-board .trail{stroke-width:2.5;stroke-dasharray:6 4;fill:none;opacity:.9}
.sr-board .nexus{fill:#2b1d52;stroke:#b794ff;stroke-width:2}
.sr-board .nexus-core{fill:#140d2b;stroke:#b794ff}
.sr-board .nexus-label{font-size:8.5px;font-weight:800;fill:#e3d4ff;letter-spacing:.5px}
.sr-board .planet{stroke:#0b1226;stroke-width:2}
.sr-board .planet.free{fill:#56607a;stroke:#aab4cc;stroke-dasharray:3 2}
.sr-board .home-ring{fill:none;stroke-width:2.5;stroke-dasharray:2 3}
.sr-board .planet-name{font-size:13px;font-weight:700;fill:#f2f5fb;paint-order:stroke;stroke:#0b1226;stroke-width:3px}
.sr-board .tile{stroke:#4a5b84;stroke-width:1.2}
.sr-board .tile-q{stroke-dasharray:3 2}
.sr-board .tile-glyph{font-size:13px;font-weight:800;fill:#1a1206}
.sr-board .tile-q+.tile-glyph{fill:#7d89a6}
.sr-board .tile-dot{fill:#6d7a99}
.sr-board .token-body{fill:#0e1424;stroke-width:1.5}
.sr-board .token-stats{font-size:13px;font-weight:800;fill:#ffffff;font-variant-numeric:tabular-nums}
.sr-board .token.spent{opacity:.6}
.sr-board .ms-ring{fill:none;stroke:#ffffff;stroke-width:1.2}
.sr-board .badge{fill:#f2c94c;stroke:#3a2c00;stroke-width:1}
.sr-board .badge-n{font-size:10px;font-weight:800;fill:#1a1206}
.sr-board .pip{fill:#f2c94c;stroke:#5a4500;stroke-width:.6}
.sr-board .wait-mark{font-size:10px;font-weight:700;fill:#9fb3ff}
.sr-board .glow{fill:none;stroke:#ffd54f;stroke-width:2.5}
.sr-board .hit{fill:transparent;cursor:pointer}
.sr-board .status{font-size:17px;font-weight:800}
.sr-board .status-line{font-size:13px;fill:#c6d0e4}
.sr-board .current-row{fill:#1b2744}
.sr-board .turn-mark{font-size:12px;fill:#ffd54f}
.sr-board .seat-name{font-size:13.5px;font-weight:700}
.sr-board .seat-notes{font-size:12.5px;fill:#c6d0e4}
.sr-board .seat-shape{stroke:#0b1226;stroke-width:1}
.sr-board .battle-panel{fill:#111a30;stroke:#ffd54f;stroke-width:1.2}
.sr-board .panel-title{font-size:13.5px;font-weight:800;fill:#ffe08a}
.sr-board .fighter{fill:#0b1226;stroke-width:2}
.sr-board .fighter-who{font-size:11px;font-weight:700;fill:#c6d0e4}
.sr-board .fighter-name{font-size:12px;font-weight:700}
.sr-board .versus{font-size:12px;font-weight:800;fill:#ffd54f}
.sr-board .stat{fill:#18223a;stroke:#3a4a70}
.sr-board .stat-letter{font-size:9.5px;font-weight:700;fill:#a3afc6}
.sr-board .stat-letter.big{font-size:15px;fill:#e6ebf5}
.sr-board .stat-value{font-size:15px;font-weight:800}
.sr-board .step-mark{font-size:12px;font-weight:800}
.sr-board .step-mark.done{fill:#69f0ae}
.sr-board .step-mark.now{fill:#ffd54f}
.sr-board .step-mark.later,.sr-board .step-text.later{fill:#7d89a6}
.sr-board .step-text{font-size:12.5px}
.sr-board .step-text.now{font-weight:700}
.sr-board .btn{fill:#1e4f8a;stroke:#7cc4ff}
.sr-board .btn-label{font-size:12.5px;font-weight:700}
.sr-board .design-cell{fill:#18223a;stroke:#3a4a70}
.sr-board .design-value{font-size:14px;font-weight:800}
.sr-board .conquest-cell{fill:#18223a;stroke:#f2c94c}
.sr-board .conquest-roll{font-size:12px;font-weight:800}
.sr-board .conquest-cards{font-size:11px;fill:#f2c94c}
.sr-board .section-label{font-size:11px;font-weight:700;fill:#a3afc6;letter-spacing:2px}
.sr-board .fleet-head{font-size:13px;font-weight:700}
.sr-board .fleet-note{font-size:11.5px;fill:#ffd54f}
.sr-board .fleet-ship{font-size:12.5px}
.sr-board .treasure-line{font-size:11.5px;fill:#f2dfa0}
.sr-board .deck-line{font-size:11.5px;fill:#a3afc6}
"""


def board_svg(galaxy: Galaxy, content: Content, options: Mapping[str, Any], view: JSON, seat: int | None) -> str:
    """The whole board of ``view`` as one ``<svg>``: tall arrangement in its ``viewBox``, wide in
    ``data-viewbox-wide`` (the client switches with the class ``st-wide``)."""
    assert isinstance(view, Mapping)
    lay = map_layout(galaxy)
    ctx = Ctx(galaxy, content, options, view, seat, ship_views(view, content), lay)
    top, top_h = top_panel(ctx)
    fleets, fleets_h = fleets_panel(ctx)
    drawing = draw_map(ctx)
    # tall: the panels scaled to the map's width, above and below it
    width = max(lay.width, PW)
    scale = width / PW
    map_x = (width - lay.width) / 2
    map_y = top_h * scale + 6
    fleets_y = map_y + lay.height + 10
    tall_h = fleets_y + fleets_h * scale
    # wide: the map at the left, the panels in a column at its right
    wide_x = lay.width + GAP
    wide_w = wide_x + PW
    wide_h = max(lay.height, top_h + 8 + fleets_h)
    tall = f"0 0 {tenth(width)} {tenth(tall_h)}"
    wide = f"0 0 {tenth(wide_w)} {tenth(wide_h)}"
    style = STYLE + (
        f".sr-board.st-wide .sr-map{{transform:translate(0px,0px)}}"
        f".sr-board.st-wide .sr-top{{transform:translate({tenth(wide_x)}px,0px)}}"
        f".sr-board.st-wide .sr-fleets{{transform:translate({tenth(wide_x)}px,{tenth(top_h + 8)}px)}}"
    )
    s = tenth(scale)
    body = (
        f"<style>{style}</style>"
        + el("rect", x=0, y=0, width=tenth(max(width, wide_w)), height=tenth(max(tall_h, wide_h)), class_="bg")
        + el("g", top, class_="sr-top", transform=f"scale({s})")
        + el("g", drawing, class_="sr-map", transform=f"translate({tenth(map_x)},{tenth(map_y)})")
        + el("g", fleets, class_="sr-fleets", transform=f"translate(0,{tenth(fleets_y)}) scale({s})")
    )
    return svg_board(body, tall=tall, wide=wide, name="sr-board", label="SpaceRace galactic map")
