"""The Mothership board for the web table: action parts, and the SVG drawn from a view.

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON) and the game's static
data (its cached :class:`..rules.board.Board` for the view's board seed, the content's texts), never
from a state, so the picture holds nothing the viewer may not know.

The drawing has three areas, each a group: ``g.ms-grid`` (the header, the coordinates, the
terrain and the units), ``g.ms-own`` (the prompt of the moment, the viewer's control panel,
fleet, hand, technology, objectives) and ``g.ms-others`` (every other fleet, compactly). The
tall arrangement (the ``viewBox``) stacks them; the wide one (``data-viewbox-wide``, the class
``st-wide``) puts the side areas to the right of the grid (docs/WEB.md, "Board arrangements").

Parts (``data-part``; :func:`action_parts` gives each action's path of them):

- ``cell:<C4>`` a space; ``planet:<p>`` a planet (its number on the board); ``cannon:<C4>``
  a guardian cannon; ``station:<seat>`` a colony station;
- ``unit:<ship>`` one of the viewer's own ships (0 the mothership, then fighters, bombers; on
  the board and in the fleet roster, destroyed ones too), ``unit:<seat>:<ship>`` anyone's ship
  (the viewer's own carry it on a ring around them, for the cards that move friendly ships);
- ``panel:<engines|weapons|shields>:<energy>`` the viewer's control panel, one per value;
  ``subsystem:<seat>:<engines|weapons|shields>`` another fleet's (Prod);
- ``card:<kind>`` a card of the viewer's hand, ``sell``, ``deck`` (buy), ``tech:<branch>``,
  ``charge`` (an Overcharge), ``ability:<name>``, ``objective:<card>``, ``die:<i>`` a die of the
  roll in progress, ``choice:<value>`` an answer to the rules' question (buttons, and marks on
  the spaces when the answer is a space), ``activate:<ship>`` (answer a distress beacon).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import JSON, Action
from spacetable.engine.svg import board as svg_board
from spacetable.engine.svg import el

from ..rules.actions import ship_bits
from .web_grid import grid
from .web_markup import (
    ABILITIES,
    CELL,
    GAP,
    LEFT,
    OWN_SHIP_CARDS,
    ROLLED_CARDS,
    SIDE_W,
    SUBSYSTEMS,
    TOP,
    Ctx,
    board_of,
    cell_name,
    game_terms,
    target_part,
    text,
)
from .web_side import others, own

if TYPE_CHECKING:
    from ..game import Mothership

__all__ = ["action_parts", "board_svg"]

# ---- parts -----------------------------------------------------------------------------------


def action_parts(game: Mothership, action: Action) -> tuple[str, ...]:
    """The path of board parts of an action (module docstring), or () to leave it in the list."""
    kind = action[-1]

    def cell(c: int) -> str:
        return f"cell:{cell_name(game.size, c)}"

    if kind == "place":
        return (cell(action[0]),)
    if kind == "move":
        return (f"unit:{action[0]}", cell(action[1]))
    if kind == "attack":
        return (*(f"unit:{s}" for s in ship_bits(action[0])), target_part(game, action[1]))
    if kind == "energy":
        return tuple(f"panel:{name}:{value}" for name, value in zip(SUBSYSTEMS, action[:3]))
    if kind == "buy":
        return ("deck",)
    if kind == "sell":
        return (f"card:{action[0]}", "sell")
    if kind == "buy_tech":
        return (f"tech:{action[0]}",)
    if kind == "buy_charge":
        return ("charge",)
    if kind == "explore":
        return (f"planet:{action[0]}",)
    if kind == "choose":
        return (f"choice:{action[0]}",)
    if kind == "activate":
        return (f"activate:{action[0]}",)
    if kind == "replace_objective":
        return (f"objective:{action[0]}",)
    if kind == "ability":
        return _ability_parts(game, action[0], action[1], action[2])
    if kind == "play":
        return _play_parts(game, action[0], action[1], action[2])
    return ()


def _ability_parts(game: Mothership, ability: int, unit: int, spot: int) -> tuple[str, ...]:
    name = ABILITIES[ability] if ability < len(ABILITIES) else str(ability)
    head = f"ability:{name}"
    if name == "hangar_bay":
        return (head, f"unit:{unit}", f"cell:{cell_name(game.size, spot)}")
    if name == "jump_gates":  # any friendly ship, named as the cards that move friendly ships name it
        return (head, target_part(game, unit), f"cell:{cell_name(game.size, spot)}")
    if name in ("sunslayer_torpedoes", "nuclear_missile", "tractor_beam"):
        return (head, target_part(game, unit))
    return (head,)


def _play_parts(game: Mothership, card: int, unit: int, spot: int) -> tuple[str, ...]:
    key = game.content.cards[card].key
    head = f"card:{card}"
    here = f"cell:{cell_name(game.size, spot)}"
    if key in ROLLED_CARDS:
        return (head, f"die:{spot}")
    if key == "life_support":
        return (head, f"unit:{spot}")
    if key in OWN_SHIP_CARDS:
        return (head, f"unit:{unit}")
    if key in ("panic_button", "wormhole", "gravity_manipulator", "cowardly_retreat"):
        return (head, target_part(game, unit), here)
    if key == "migration":
        return (head, here)
    if key == "prod":
        seat = unit // (game.content.ships + 1)
        return (head, target_part(game, unit), f"subsystem:{seat}:{SUBSYSTEMS[spot % 3]}")
    if key in ("dedotated_wam", "railguns"):
        return (head, f"unit:{spot}", target_part(game, unit))
    if unit or spot:  # a target: a player (their station), a ship or a planet
        return (head, target_part(game, unit))
    return (head,)


# ---- the whole board ----------------------------------------------------------------------------

STYLE = """
.ms-board{font-family:system-ui,sans-serif;fill:#e6ebf5}
.ms-board .ms-header{fill:#141b2d;stroke:#2c3a5a}
.ms-board .ms-status{font-size:14px;font-weight:700}
.ms-board .ms-coord{font-size:11px;fill:#9aa6bd;font-weight:600}
.ms-board .ms-frame{fill:#070b18;stroke:#2c3a5a}
.ms-board .ms-cell{fill:#0f1730;stroke:#1f2a47;stroke-width:1}
.ms-board .ms-cell.ms-rock{fill:#2a2119}
.ms-board .ms-cell.ms-star{fill:#1b2a40}
.ms-board .ms-cell.ms-hole{fill:#140a24}
.ms-board .ms-cell.ms-risky{stroke:#ff9f43;stroke-dasharray:3 3}
.ms-board .ms-asteroid{fill:#8d6e53;stroke:#5b4a3a}
.ms-board .ms-star-glow{fill:#9be7ff;opacity:.35}
.ms-board .ms-star-shape{fill:#e6fbff}
.ms-board .ms-hole-ring{fill:none;stroke:#b388ff;stroke-width:3;stroke-dasharray:10 4}
.ms-board .ms-hole-core{fill:#000;stroke:#7c4dff}
.ms-board .ms-planet{stroke:#e6ebf5;stroke-width:1.5}
.ms-board .ms-planet-ring{fill:none;stroke:#e6ebf5;stroke-width:1.5;opacity:.7;pointer-events:none}
.ms-board .ms-planet-label{font-size:13px;font-weight:800;fill:#111;pointer-events:none}
.ms-board .ms-planet-gone{fill:none;stroke:#55607a;stroke-dasharray:2 3}
.ms-board .ms-artifact{fill:#4dd0e1;stroke:#fff}
.ms-board .ms-token{fill:#ffb300;stroke:#000}
.ms-board .ms-token.locked{fill:#7a6a3a}
.ms-board .ms-token-text{font-size:9px;font-weight:800;fill:#111}
.ms-board .ms-fleet-corner{font-size:20px;font-weight:800;fill:#ff9f43}
.ms-board .ms-body{stroke:#0b1020;stroke-width:1.5}
.ms-board .ms-unit.own .ms-body{stroke:#fff;stroke-width:2}
.ms-board .ms-unit.spent{opacity:.6}
.ms-board .ms-label{font-size:12px;font-weight:800;fill:#0b1020;pointer-events:none}
.ms-board .ms-label.small{font-size:9px}
.ms-board .ms-ring{fill:transparent;stroke:none}
.ms-board .ms-hp{fill:#7a1f1f;stroke:#ff8a80;stroke-width:.6}
.ms-board .ms-sh{fill:#1d3f7a;stroke:#82b1ff;stroke-width:.6}
.ms-board .ms-pill-text{font-size:8.5px;font-weight:700;fill:#fff;pointer-events:none}
.ms-board .ms-choice-mark{fill:rgba(255,213,79,.25);stroke:#ffd54f;stroke-width:2}
.ms-board .ms-heading{font-size:13px;font-weight:700}
.ms-board .ms-line{font-size:12px;fill:#cfd8e3}
.ms-board .ms-chip-box{fill:#1a2238;stroke:#3a4a70}
.ms-board .ms-chip-text{font-size:11px;fill:#e6ebf5;pointer-events:none}
.ms-board .ms-chip-mark{font-size:10px;font-weight:800;fill:#0b1020}
.ms-board .ms-gold .ms-chip-box{fill:#3a3010;stroke:#ffd54f}
.ms-board .ms-card .ms-chip-box{fill:#2b1f3f;stroke:#b388ff}
.ms-board .ms-slot .ms-chip-box{fill:#10263a;stroke:#4dd0e1;stroke-dasharray:4 2}
.ms-board .ms-button .ms-chip-box{fill:#203a2a;stroke:#69f0ae}
.ms-board .ms-die .ms-chip-box{fill:#f4f4f4;stroke:#000}
.ms-board .ms-die .ms-chip-text{fill:#111;font-weight:800}
.ms-board .ms-roster .ms-chip-text{fill:#0b1020;font-weight:700}
.ms-board .ms-roster.gone .ms-chip-text{fill:#9aa6bd;text-decoration:line-through}
.ms-board .ms-objective .ms-chip-box{fill:#2f2a12;stroke:#ffd54f}
.ms-board .ms-objective.done .ms-chip-box{fill:#1f4d2e;stroke:#69f0ae}
.ms-board .ms-sub .ms-chip-box{fill:#141b2d}
.ms-board .ms-row-label{font-size:12px;font-weight:700}
.ms-board .ms-energy{fill:#141b2d;stroke:#2c3a5a}
.ms-board .ms-energy.now{fill:#f2c94c;stroke:#fff;stroke-width:1.5}
.ms-board .ms-energy-text{font-size:10.5px;pointer-events:none}
.ms-board .ms-energy.now+.ms-energy-text{fill:#111;font-weight:800}
.ms-board .ms-branch{fill:#11182a;stroke:#26324f}
.ms-board .ms-branch.closed{opacity:.45}
.ms-board .ms-branch-name{font-size:11px;font-weight:700}
.ms-board .ms-tile{fill:#1a2238;stroke:#3a4a70}
.ms-board .ms-tile.have{fill:#2f6b43;stroke:#69f0ae}
.ms-board .ms-tile.next{stroke:#ffd54f;stroke-dasharray:3 2}
.ms-board .ms-tile-text{font-size:9px;pointer-events:none}
.ms-board .ms-fleet-box{fill:#0f1526;stroke-width:1.2;stroke-opacity:.7}
.ms-board text{stroke:none;fill:#e6ebf5;fill-opacity:1}
.ms-board .st-piece>rect,.ms-board .st-piece>polygon,
.ms-board .st-piece>circle{stroke:#fff;stroke-width:1.5;stroke-dasharray:4 3}
.ms-board .st-selected>rect,.ms-board .st-selected>polygon,
.ms-board .st-selected>circle{stroke:#fff;stroke-width:3;stroke-dasharray:none}
.ms-board .st-target>rect,.ms-board .st-target>polygon,
.ms-board .st-target>circle{stroke:#69f0ae;stroke-width:3;stroke-dasharray:none}
"""


def board_svg(game: Mothership, view: JSON, seat: int | None) -> str:
    """The board of ``view`` as one ``<svg>`` element (module docstring)."""
    board = board_of(game, view)
    if board is None:
        box = "0 0 480 120"
        body = text(240, 64, "The board is about to be drawn.", anchor="middle", class_="ms-status")
        return el(
            "svg",
            f"<style>{STYLE}</style>" + el("rect", width=480, height=120, fill="#0b1020") + body,
            xmlns="http://www.w3.org/2000/svg",
            viewBox=box,
            class_="ms-board",
            role="img",
            aria_label="Mothership board",
        )
    me = seat if seat is not None and 0 <= seat < game.fleets else None
    ctx = Ctx(game, view, board, me, game_terms(game))
    grid_w = LEFT + board.size * CELL + 8
    grid_h = TOP + board.size * CELL + 8
    drawn_grid = el("g", grid(ctx, grid_w), class_="ms-grid")
    mine, own_h = own(ctx, me) if me is not None else ("", 0.0)
    rest, others_h = others(ctx)
    tall_w = max(grid_w, SIDE_W)
    k = tall_w / SIDE_W  # the tall arrangement draws the side areas as wide as the grid
    own_y = grid_h + GAP
    others_y = own_y + (own_h + GAP) * k if own_h else own_y
    tall_h = others_y + others_h * k
    # the wide arrangement: the side areas to the right of the grid, in one column or two
    wx = grid_w + GAP
    if own_h + others_h + GAP <= grid_h * 1.15 or not own_h:
        wide = [(wx, 0.0), (wx, own_h + GAP if own_h else 0.0)]
        wide_w = wx + SIDE_W
        wide_h = max(grid_h, own_h + others_h + (GAP if own_h else 0))
    else:
        wide = [(wx, 0.0), (wx + SIDE_W + GAP, 0.0)]
        wide_w = wx + 2 * SIDE_W + GAP
        wide_h = max(grid_h, own_h, others_h)
    moves = (
        f".ms-board.st-wide .ms-own{{transform:translate({wide[0][0]:.0f}px,{wide[0][1]:.0f}px)}}"
        f".ms-board.st-wide .ms-others{{transform:translate({wide[1][0]:.0f}px,{wide[1][1]:.0f}px)}}"
    )
    tall = f"0 0 {tall_w:.0f} {tall_h:.0f}"
    wide_box = f"0 0 {wide_w:.0f} {wide_h:.0f}"
    scale = f"scale({k:.4f})"
    body = (
        f"<style>{STYLE}{moves}</style>"
        + el("rect", x=0, y=0, width=max(tall_w, wide_w), height=max(tall_h, wide_h), fill="#0b1020")
        + drawn_grid
        + (el("g", mine, class_="ms-own", transform=f"translate(0,{own_y:.0f}) {scale}") if mine else "")
        + el("g", rest, class_="ms-others", transform=f"translate(0,{others_y:.0f}) {scale}")
    )
    return svg_board(body, tall=tall, wide=wide_box, name="ms-board", label="Mothership board")
