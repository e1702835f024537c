"""The SpaceRace board for the web table: the drawing and action parts (the glossary: :mod:`.web_words`).

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON), the game's public
map shape (:class:`~..rules.mapgen.Galaxy`, fixed by the options) and its content, never from a
state. The board is a split (docs/WEB.md, "Board arrangements"):

* the galactic map as an ``<svg>`` (:mod:`.web_map`): the Nexus in the middle, the planets
  (their owner's colour *and* shape, a name, a ring round a homeworld), the starways (a line
  through their tiles: [T] treasure, [S] spaceship, empty, or not laid yet) and the ships as
  tokens ``D|M|A`` in their owner's colour and shape, with a gold badge counting their treasure
  cards. Its text is sized to read on a phone (:mod:`.web_layout`);
* the side panels as HTML sections (:mod:`.web_panels`, :mod:`.web_battle`): what is happening
  now (the battle step by step, the conquest roll and treasure draws, the mothership design, the
  End turn button), the players, and every fleet with its treasure cards. The table puts them
  beside the map where there is room, else under it as tabs.

The map's layout (:func:`.web_layout.map_layout`) is computed once per map from the graph:
each node lies on the ray of the starway chain it belongs to, at the length of its path from the
Nexus, scaled up where nodes would crowd. Nothing random: the same map always looks the same.

Clickable elements carry ``data-part``: on the map, transparent overlays (``.hit``) ``ship:<k>``
(ship number ``k`` of the fleet whose turn it is; also its line in the fleets panel), ``nexus``,
``planet:<node>``, ``tile:<node>``; in the panels ``design:<d|m|a>:<value>``,
``battle:<contest|flee|assimilate|destroy>`` and ``end-turn``. The choices (ships, panel
buttons) are drawn for the seat to decide only. Elements with a meaning carry ``data-term`` (a
key of :func:`.web_words.glossary`) and a hover text built from the content data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine import JSON, Action
from spacetable.engine.svg import el, split

from ..content import Content
from ..rules.actions import Assimilate, Contest, Design, Destroy, EndTurn, Flee, Homeworld, Move
from ..rules.mapgen import NEXUS, Galaxy
from .web_context import Ctx, ship_views
from .web_layout import map_layout
from .web_map import GRID_STYLE, draw_map
from .web_markup import tenth
from .web_panels import SIDE_STYLE, fleets_panel, now_panel, players_panel

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


def board_svg(galaxy: Galaxy, content: Content, options: Mapping[str, Any], view: JSON, seat: int | None) -> str:
    """The board of ``view`` (module docstring): a split of the map's ``<svg>`` and the side panels."""
    assert isinstance(view, Mapping)
    lay = map_layout(galaxy)
    ctx = Ctx(galaxy, content, options, view, seat, ship_views(view, content), lay)
    drawn = el(
        "svg",
        draw_map(ctx),
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {tenth(lay.width)} {tenth(lay.height)}",
        class_="sr-grid",
        style=f"font-size:{tenth(lay.font)}px",
        role="img",
        aria_label="SpaceRace galactic map",
    )
    side = now_panel(ctx) + players_panel(ctx) + fleets_panel(ctx)
    return split(drawn, side, name="sr-board", style=GRID_STYLE + SIDE_STYLE)
