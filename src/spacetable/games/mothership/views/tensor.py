"""The observation tensor of Mothership: ``view(seat)`` as numbers in [0, 1], for learners.

The layout is in docs/INTEROP.md too.

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
hand           A                the observer's action cards: copies of each kind / its copies
known          (N - 1) * A      per other seat: its cards the observer knows of (taken from the
                                observer by a blind steal), copies of each kind / its copies
secret         1                the sum of the observer's secret d4s (Replicator) / 30
objectives     O                the observer's objectives held (option objectives 'hidden'),
                                copies of each card / its copies
completed      O                the observer's objectives completed and not claimed yet (hidden
                                ones, or the global ones it took)
global row     O                the face-up objectives anyone may complete (option objectives
                                'global')
=============  ===============  ================================================================

A is the number of action card kinds and O of objective cards in the content (39 and 25 with
the printed ones). From ``hand`` on, the pieces are the observer's own (the global row
excepted): what another seat holds in secret is never in the observer's view, so never in its
tensor.

The pieces from terrain to cannons are C-sized planes, one after the other: image planes
(``planes_shape``, ``planes_offset``; ``Game.observation_planes``). They are built with numpy
from tables made once per game (which plane each grid code lights, each board's terrain).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spacetable.engine import JSON
from spacetable.engine.tensor import one_hot, per_game, ratio

from ..rules.board import ASTEROID, BLACK_HOLE, NEUTRON_STAR, PLANET
from ..rules.state import CANNON, LOCKED, PHASES, STATION
from ..rules.turns import ROUND_LIMIT

if TYPE_CHECKING:
    import numpy as np  # the rl extra's: imported inside the functions that build tensors
    import numpy.typing as npt

    from ..game import Mothership

KINDS = ("mothership", "fighter", "bomber")
TERRAIN = (ASTEROID, PLANET, NEUTRON_STAR, BLACK_HOLE)
"""The terrain planes, in order."""
BEACON_UNITS = (0, 1, 2, LOCKED)
"""The beacon planes, in order: tokens calling for a mothership, a fighter, a bomber; locked."""
SEAT_FIELDS = 9
RESOURCE_SCALE = 30
DIE_SCALE = 12


@per_game
def planes_shape(game: Mothership) -> tuple[int, int, int]:
    """The board part of the tensor as image planes: (channels, rows, columns), channels in the
    order of the table above (terrain, stations, ships, planets, explored, beacons, cannons)."""
    n = game.fleets
    return (len(TERRAIN) + n + len(KINDS) * n + n + 1 + len(BEACON_UNITS) + n, game.size, game.size)


@per_game
def planes_offset(game: Mothership) -> int:
    """Where the planes start in the flat tensor (they are its entries ``offset`` to
    ``offset + channels * rows * columns``, row-major)."""
    return len(PHASES) + 1 + 2 * game.fleets


@per_game
def shape(game: Mothership) -> tuple[int, ...]:
    channels, rows, cols = planes_shape(game)
    ships = game.content.ships
    size = planes_offset(game) + channels * rows * cols + SEAT_FIELDS * game.fleets
    size += 2 * ships + 1 + 2 + 2 * (ships + 1) + game.fleets
    return (size + _own_size(game),)


def _own_size(game: Mothership) -> int:
    """The length of the pieces from ``hand`` on."""
    return game.fleets * len(game.content.cards) + 1 + 3 * len(game.content.objectives)


def encode(game: Mothership, view: JSON, seat: int) -> npt.NDArray[np.float32]:
    """The tensor of ``view``, which is ``state.view(seat)`` of this game."""
    import numpy as np

    v: dict[str, Any] = view
    n = game.fleets
    head = [*one_hot(v["phase"], PHASES), ratio(v["round"], game.round_limit or ROUND_LIMIT)]
    head += one_hot((v["turn"] - seat) % n, range(n)) + one_hot((v["first"] - seat) % n, range(n))
    planes = encode_planes(game, v, seat)
    tail = np.asarray(_tail(game, v, seat), dtype=np.float32)
    return np.concatenate((np.asarray(head, dtype=np.float32), planes.ravel(), tail, _own(game, v, seat)))


def encode_planes(game: Mothership, view: JSON, seat: int) -> npt.NDArray[np.float32]:
    """The board part of the tensor of ``view`` as image planes, shaped :func:`planes_shape`."""
    import numpy as np

    v: dict[str, Any] = view
    tables = _tables(game)
    channels, rows, cols = planes_shape(game)
    planes = np.zeros((channels, rows * cols), dtype=np.float32)
    n = game.fleets
    if v["grid"]:
        grid = np.asarray(v["grid"], dtype=np.int64)
        plane = tables.code_planes[seat][grid]
        on = plane >= 0
        planes[plane[on], np.flatnonzero(on)] = 1.0
    planet_plane = tables.planet_plane
    if v["phase"] != "board":
        board = game.board_for(v["board_seed"])
        planes[: len(TERRAIN)] = tables.terrain(game, v["board_seed"])
        for cell, owner, found in zip(board.planets, v["owner"], v["artifacts"]):
            if 0 <= owner < n:
                planes[planet_plane + (owner - seat) % n, cell] = 1.0
            if found >= 0:
                planes[planet_plane + n, cell] = 1.0
    for cell, unit in v["tokens"]:
        if unit in BEACON_UNITS:
            planes[planet_plane + n + 1 + BEACON_UNITS.index(unit), cell] = 1.0
    return planes.reshape(channels, rows, cols)


class _Tables:
    """What the tensor of one game looks up rather than works out each time."""

    def __init__(self, game: Mothership) -> None:
        import numpy as np

        n, ships = game.fleets, game.content.ships
        stations, ship_planes = len(TERRAIN), len(TERRAIN) + n
        self.planet_plane = ship_planes + len(KINDS) * n
        cannon_plane = self.planet_plane + n + 1 + len(BEACON_UNITS)
        self.code_planes: list[npt.NDArray[np.int64]] = []
        """Per observer seat: the plane of each grid code (-1 for an empty cell, index -1)."""
        for seat in range(n):
            table = np.full(16 * n + 1, -1, dtype=np.int64)
            for p in range(n):
                r = (p - seat) % n
                table[p * 16 + STATION] = stations + r
                table[p * 16 + CANNON] = cannon_plane + r
                for s in range(ships):
                    table[p * 16 + s] = ship_planes + 3 * r + KINDS.index(game.ship_kinds[s])
            self.code_planes.append(table)
        self._terrain: dict[int, npt.NDArray[np.float32]] = {}

    def terrain(self, game: Mothership, board_seed: int) -> npt.NDArray[np.float32]:
        """The terrain planes of a board, (len(TERRAIN), cells)."""
        planes = self._terrain.get(board_seed)
        if planes is None:
            import numpy as np

            marks = np.frombuffer(game.board_for(board_seed).terrain.encode(), dtype=np.uint8)
            kinds = np.frombuffer("".join(TERRAIN).encode(), dtype=np.uint8)
            planes = self._terrain[board_seed] = (marks[None, :] == kinds[:, None]).astype(np.float32)
        return planes


_tables = per_game(_Tables)


def _tail(game: Mothership, v: dict[str, Any], seat: int) -> list[float]:
    """The seats, turn state, roll and winners."""
    c = game.content
    n, ships = game.fleets, c.ships
    order = [(seat + r) % n for r in range(n)]
    out: list[float] = []
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


def _own(game: Mothership, v: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
    """The observer's hand, the cards it knows others hold, its secret d4s' sum and its
    objectives, then the global row: the pieces from ``hand`` on."""
    import numpy as np

    n = game.fleets
    per_card, per_objective = _inverse_copies(game)
    cards, objectives = len(per_card), len(per_objective)
    out = np.zeros(_own_size(game), dtype=np.float32)
    for r in range(n):
        _count_into(out, r * cards, v["hands"][seat] if r == 0 else v["known"][(seat + r) % n], per_card)
    out[n * cards] = ratio(v["secret"][seat][1], RESOURCE_SCALE)
    for i, held in enumerate((v["objectives"][seat], v["completed"][seat], v["public_objectives"])):
        _count_into(out, n * cards + 1 + i * objectives, held, per_objective)
    return out


@per_game
def _inverse_copies(game: Mothership) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """1 / the copies of each action card kind and of each objective card in the game's content
    (0 for a card with none)."""
    import numpy as np

    def inverse(copies: list[int]) -> npt.NDArray[np.float64]:
        return np.array([1 / count if count > 0 else 0.0 for count in copies])

    c = game.content
    return inverse([card.count for card in c.cards]), inverse([model.count for _, model in c.objectives])


def _count_into(out: npt.NDArray[np.float32], at: int, held: list[int], inverse: npt.NDArray[np.float64]) -> None:
    """``held`` (card numbers) written from ``out[at]`` on: the copies of each kind / its copies."""
    import numpy as np

    if held:
        out[at : at + len(inverse)] = np.minimum(np.bincount(held, minlength=len(inverse)) * inverse, 1.0)


def _roll(pending: dict[str, Any] | None, ships: int) -> list[float]:
    slots = ships + 1
    if pending is None:
        return [0.0] * (2 + 2 * slots)
    dice = [ratio(d, DIE_SCALE) for d in pending["dice"]][:slots]
    rolled = [ratio(r, DIE_SCALE) for r in pending["rolls"]][:slots]
    out = [float(pending["what"] == "dogfight"), float(pending["what"] == "asteroid")]
    return out + dice + [0.0] * (slots - len(dice)) + rolled + [0.0] * (slots - len(rolled))
