"""The Mothership board for the web table: action parts, and the SVG drawn from a view.

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON) and the game's static
data (its cached :class:`..rules.board.Board` for the view's board seed, the content's texts), never
from a state, so the picture holds nothing the viewer may not know.

The board is a split (docs/WEB.md, "Board arrangements"): the grid as an ``<svg>`` (coordinates,
terrain, planets, units), its text sized to stay readable on a phone, and the side panels as
HTML sections (:mod:`.web_side`): what is happening now, the viewer's fleet with its control panel
and hand, its technology, and every other fleet. The table puts the panels beside the grid where
there is room, else under it as tabs.

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
  the spaces when the answer is a space), ``activate:<ship>`` (answer a distress beacon);
- the buttons of the "Now" panel: ``pass``, ``end_turn``, ``auto_place``, ``reward:<0 deck|1 steal>``
  (a captured planet's card), ``event:<1 double|2 avoid>`` (a random event).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import JSON, Action
from spacetable.engine.svg import el, split

from ..rules.actions import ship_bits
from .web_grid import grid
from .web_markup import (
    ABILITIES,
    CELL,
    OWN_SHIP_CARDS,
    ROLLED_CARDS,
    SUBSYSTEMS,
    Ctx,
    board_of,
    cell_name,
    game_terms,
    target_part,
)
from .web_side import now, others, own, technology

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
    if kind in ("pass", "end_turn", "auto_place"):  # the buttons of the "Now" panel
        return (kind,)
    if kind == "reward":
        return (f"reward:{action[0]}",)
    if kind == "event_choice":
        return (f"event:{action[0]}",)
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

GRID_STYLE = """
.ms-grid{font-family:system-ui,sans-serif;fill:#e6ebf5}
.ms-grid text{stroke:none;fill:#e6ebf5;font-size:1em}
.ms-grid .ms-coord{fill:#9aa6bd;font-weight:600}
.ms-grid .ms-frame{fill:#070b18;stroke:#2c3a5a}
.ms-grid .ms-cell{fill:#0f1730;stroke:#1f2a47;stroke-width:1}
.ms-grid .ms-cell.ms-rock{fill:#2a2119}
.ms-grid .ms-cell.ms-star{fill:#1b2a40}
.ms-grid .ms-cell.ms-hole{fill:#140a24}
.ms-grid .ms-cell.ms-risky{stroke:#ff9f43;stroke-dasharray:3 3}
.ms-grid .ms-asteroid{fill:#8d6e53;stroke:#5b4a3a}
.ms-grid .ms-star-glow{fill:#9be7ff;opacity:.35}
.ms-grid .ms-star-shape{fill:#e6fbff}
.ms-grid .ms-hole-ring{fill:none;stroke:#b388ff;stroke-width:3;stroke-dasharray:10 4}
.ms-grid .ms-hole-core{fill:#000;stroke:#7c4dff}
.ms-grid .ms-planet{stroke:#e6ebf5;stroke-width:1.5}
.ms-grid .ms-planet-ring{fill:none;stroke:#e6ebf5;stroke-width:1.5;opacity:.7;pointer-events:none}
.ms-grid text.ms-planet-label{font-weight:800;fill:#111;pointer-events:none}
.ms-grid .ms-planet-gone{fill:none;stroke:#55607a;stroke-dasharray:2 3}
.ms-grid .ms-artifact{fill:#4dd0e1;stroke:#fff}
.ms-grid .ms-token{fill:#ffb300;stroke:#000}
.ms-grid .ms-token.locked{fill:#7a6a3a}
.ms-grid text.ms-token-text{font-weight:800;fill:#111}
.ms-grid text.ms-fleet-corner{font-size:1.2em;font-weight:800;fill:#ff9f43}
.ms-grid .ms-body{stroke:#0b1020;stroke-width:1.5}
.ms-grid .ms-unit.own .ms-body{stroke:#fff;stroke-width:2}
.ms-grid .ms-unit.spent{opacity:.6}
.ms-grid text.ms-label{font-weight:800;fill:#0b1020;pointer-events:none}
.ms-grid .ms-ring{fill:transparent;stroke:none}
.ms-grid .ms-gauge{fill:#0b1020;stroke:none}
.ms-grid .ms-hp{fill:#ff6b6b}
.ms-grid .ms-sh{fill:#82b1ff}
.ms-grid .ms-choice-mark{fill:rgba(255,213,79,.25);stroke:#ffd54f;stroke-width:2}
.ms-grid .st-piece>rect,.ms-grid .st-piece>polygon,
.ms-grid .st-piece>circle{stroke:#fff;stroke-width:1.5;stroke-dasharray:4 3}
.ms-grid .st-selected>rect,.ms-grid .st-selected>polygon,
.ms-grid .st-selected>circle{stroke:#fff;stroke-width:3;stroke-dasharray:none}
.ms-grid .st-target>rect,.ms-grid .st-target>polygon,
.ms-grid .st-target>circle{stroke:#69f0ae;stroke-width:3;stroke-dasharray:none}
"""

SIDE_STYLE = """
&{font:13px/1.3 system-ui,sans-serif;color:#e6ebf5;gap:.3rem}
& .ms-panel{background:#0f1526;border:1px solid #26324f;border-radius:8px;padding:4px 8px}
& .ms-h{font-size:14px;margin:2px 0 4px;display:flex;gap:6px;align-items:center}
& .ms-h{text-transform:none;letter-spacing:0;color:#e6ebf5}
& .ms-line{margin:2px 0;color:#cfd8e3}
& .ms-muted{color:#9aa6bd}
& .ms-row{display:flex;flex-wrap:wrap;gap:3px;margin:3px 0}
& .ms-chip{display:inline-block;padding:1px 5px;border:1px solid #3a4a70;border-radius:5px;background:#1a2238}
& .ms-gold{background:#3a3010;border-color:#ffd54f}
& .ms-card{background:#2b1f3f;border-color:#b388ff}
& .ms-slot{background:#10263a;border-color:#4dd0e1;border-style:dashed}
& .ms-button{background:#203a2a;border-color:#69f0ae}
& .ms-primary{font-weight:700}
& .ms-die{background:#f4f4f4;color:#111;font-weight:800;border-color:#000}
& .ms-roster{font-weight:700}
& .ms-roster.gone{color:#9aa6bd;text-decoration:line-through}
& .ms-objective{background:#2f2a12;border-color:#ffd54f}
& .ms-objective.done{background:#1f4d2e;border-color:#69f0ae}
& .ms-objective.hidden{background:#1a1a1a;border-style:dashed}
& .ms-sub{background:#141b2d}
& .ms-mark{display:inline-block;min-width:18px;text-align:center;border-radius:4px;color:#0b1020;font-weight:800}
& .ms-energy-panel{display:grid;gap:3px;margin:4px 0}
& .ms-energy-row{display:flex;gap:2px;align-items:center}
& .ms-energy-name{width:66px;font-weight:700}
& .ms-energy{flex:1 1 0;min-width:18px;text-align:center}
& .ms-energy{border:1px solid #2c3a5a;border-radius:3px;background:#141b2d}
& .ms-energy.now{background:#f2c94c;color:#111;font-weight:800;border-color:#fff}
& .ms-branch{display:flex;gap:6px;align-items:center;flex-wrap:wrap}
& .ms-branch{padding:2px 4px;border-radius:4px;background:#11182a;margin:2px 0}
& .ms-branch.closed{opacity:.8}
& .ms-branch-name{width:92px;font-weight:700}
& .ms-pips{display:inline-flex;gap:2px}
& .ms-pip{width:10px;height:10px;border:1px solid #69f0ae;border-radius:2px}
& .ms-pip.have{background:#69f0ae}
& .ms-next{color:#ffd54f}
& .ms-others{border-collapse:collapse;width:100%}
& .ms-others th{font-weight:600;color:#9aa6bd;text-align:left;padding:0 4px}
& .ms-others td{padding:2px 4px;border-top:1px solid #26324f}
& .ms-others tr.ms-fleet-row td{white-space:nowrap}
& .ms-others .ms-fleet-extra td{border-top:none;padding-top:0}
& .ms-others .ms-sub{padding:0 4px;margin-right:2px}
& .ms-others tr.turn td{background:#18223a}
& .ms-others tr.out{opacity:.8}
""".replace("&", ".ms-table .st-side")


def board_svg(game: Mothership, view: JSON, seat: int | None) -> str:
    """The board of ``view`` (module docstring): a split of the grid's ``<svg>`` and the side panels."""
    board = board_of(game, view)
    if board is None:
        waiting = el("p", "The board is about to be drawn.", class_="ms-line")
        return split("", el("section", waiting, class_="ms-panel", data_tab="Now"), name="ms-table", style=SIDE_STYLE)
    me = seat if seat is not None and 0 <= seat < game.fleets else None
    ctx = Ctx(game, view, board, me, game_terms(game))
    width = ctx.left + board.size * CELL + 4
    height = ctx.top + board.size * CELL + 4
    drawn = el(
        "svg",
        grid(ctx),
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width:.0f} {height:.0f}",
        class_="ms-grid",
        style=f"font-size:{ctx.font}px",
        role="img",
        aria_label="Mothership grid",
    )
    side = now(ctx)
    if me is not None:
        side += own(ctx, me) + technology(ctx, me)
    side += others(ctx)
    return split(drawn, side, name="ms-table", style=GRID_STYLE + SIDE_STYLE)
