"""The observation tensor of Mothership: ``view(seat)`` as numbers in [0, 1] for learners
(the layout is in docs/INTEROP.md too).

Seats are relative: "seat r" is the seat r places after the observer (r = 0), so one policy
serves every seat. With N fleets (the seats; in the solo challenge the player's and the
NPC's), a board of S x S spaces (C = S * S) and K ships per fleet, the flat tensor holds, in
order:

=============  ===============  ================================================================
piece          size             values
=============  ===============  ================================================================
phase          5                one-hot: board, place, order, turn, over
clock          1                round / round limit (without one: / 60, the batches' limit)
turn           2 * N            seat on turn, seat who started
terrain        4 * C            asteroid, planet, neutron star and black hole spaces (zero before
                                the board is drawn)
stations       N * C            per seat: its standing colony station
ships          3 * N * C        per seat and kind (mothership, fighter, bomber): its ships
planets        N * C            per seat: the planets it holds
explored       C                planets explored (their artifact found; option exploration)
beacons        4 * C            distress beacon tokens calling for a mothership, a fighter, a
                                bomber, and locked ones (option beacons)
cannons        N * C            per seat: its guardian cannons
seats          9 * N            per seat: hull / full hull, shields left / 12, engines, weapons
                                and shields energy / row length, station HP / full, resources
                                / 30 (the observer's own only: others are hidden), out,
                                victory points / target (mode victory_points)
turn state     2 * K + 1        per ship of the seat on turn: engine spaces used / 12, attacked;
                                the control panel locked
roll           2 + 2 * (K + 1)  rolling for a dogfight, for asteroids; each die's sides / 12
                                and each rolled value / 12 (attackers first, then the defender)
winners        N                1 for each winner
=============  ===============  ================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spacetable.engine import JSON
from spacetable.engine.tensor import one_hot, ratio

from .board import ASTEROID, BLACK_HOLE, NEUTRON_STAR, PLANET
from .state import CANNON, LOCKED, PHASES, STATION
from .turns import ROUND_LIMIT

if TYPE_CHECKING:
    from .game import Mothership

KINDS = ("mothership", "fighter", "bomber")
TERRAIN = (ASTEROID, PLANET, NEUTRON_STAR, BLACK_HOLE)
"""The terrain planes, in order."""
SEAT_FIELDS = 9
RESOURCE_SCALE = 30
DIE_SCALE = 12


def shape(game: Mothership) -> tuple[int, ...]:
    n, cells, ships = game.fleets, game.size * game.size, game.content.ships
    size = len(PHASES) + 1 + 2 * n + (len(TERRAIN) + n + 3 * n + n + 1 + 4 + n) * cells + SEAT_FIELDS * n
    return (size + 2 * ships + 1 + 2 + 2 * (ships + 1) + n,)


def encode(game: Mothership, view: JSON, seat: int) -> list[float]:
    """The tensor of ``view``, which is ``state.view(seat)`` of this game."""
    v: dict[str, Any] = view
    c = game.content
    n, cells, ships = game.fleets, game.size * game.size, game.content.ships
    order = [(seat + r) % n for r in range(n)]
    out = [*one_hot(v["phase"], PHASES), ratio(v["round"], game.round_limit or ROUND_LIMIT)]
    out += one_hot((v["turn"] - seat) % n, range(n)) + one_hot((v["first"] - seat) % n, range(n))
    board = game.board_for(v["board_seed"]) if v["phase"] != "board" else None
    terrain = board.terrain if board is not None else "." * cells
    for kind in TERRAIN:
        out += [float(mark == kind) for mark in terrain]
    grid: list[int] = v["grid"] or [-1] * cells
    for p in order:
        out += [float(code == p * 16 + STATION) for code in grid]
    for p in order:
        for kind in KINDS:
            mine = {p * 16 + s for s in range(ships) if game.ship_kinds[s] == kind}
            out += [float(code in mine) for code in grid]
    planets = dict(zip(board.planets, v["owner"])) if board is not None else {}
    for p in order:
        out += [float(planets.get(cell, -1) == p) for cell in range(cells)]
    found = dict(zip(board.planets, v["artifacts"])) if board is not None else {}
    out += [float(found.get(cell, -1) >= 0) for cell in range(cells)]
    tokens = dict(v["tokens"])
    for unit in (0, 1, 2, LOCKED):
        out += [float(tokens.get(cell) == unit) for cell in range(cells)]
    for p in order:
        out += [float(code == p * 16 + CANNON) for code in grid]
    for p in order:
        engines, weapons, shields = v["energy"][p]
        held = v["resources"][p]
        out += [ratio(v["hp"][p], c.mothership_hp), ratio(v["shield"][p], DIE_SCALE)]
        out += [ratio(engines, c.row_length), ratio(weapons, c.row_length), ratio(shields, c.row_length)]
        out += [ratio(v["station_hp"][p], c.station_hp), ratio(held or 0, RESOURCE_SCALE), float(bool(v["out"][p]))]
        out.append(ratio(v["points"][p], game.victory_target))
    out += [ratio(used, DIE_SCALE) for used in v["used"]]
    out += [float(v["attacked"] >> s & 1) for s in range(ships)] + [float(v["locked"])]
    out += _roll(v["pending"], ships)
    return out + [float(p in v["winners"]) for p in order]


def _roll(pending: dict[str, Any] | None, ships: int) -> list[float]:
    slots = ships + 1
    if pending is None:
        return [0.0] * (2 + 2 * slots)
    dice = [ratio(d, DIE_SCALE) for d in pending["dice"]][:slots]
    rolled = [ratio(r, DIE_SCALE) for r in pending["rolls"]][:slots]
    out = [float(pending["what"] == "dogfight"), float(pending["what"] == "asteroid")]
    return out + dice + [0.0] * (slots - len(dice)) + rolled + [0.0] * (slots - len(rolled))
