"""The expansion's neutron stars and black holes (options ``neutron_stars``, ``black_holes``).

The board: a hazard tile covers ``tile`` x ``tile`` spaces (``content.hazards``), marked ``*``
(a neutron star) or ``@`` (a black hole) in the terrain. :func:`furnish` adds the tiles of the
modules in play to a board that has none of its own (RULINGS.md, 75 onward).

- A neutron star is impassable: no unit moves into or through it, nothing lands on it. A side
  of a dogfight with a unit beside one has its whole total halved, rounding up (:func:`halve`);
  a mothership beside one has no shield points (:func:`shield_points`), though it keeps them.
- A black hole is entered, never passed through: the unit's movement is over and the black
  hole rolls its die against it (``pending["what"] == "black_hole"``, a chance node). Up to
  ``warp_faces``: the owner warps it to any free space, and it may still attack. More: that
  much damage (a fighter or bomber is destroyed; a mothership's shields absorb first).
- A Move leg that ends beside a black hole ends the ship's movement and pulls it in (its
  owner picks the space when several are free), then the black hole rolls.
- A ship that begins its owner's turn inside is stuck (``state.stuck``): no engines, no
  dogfight of its own; a card may warp it out. Still inside when the turn ends, it is rolled
  against again before the turn ends (``pending["ending"]``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Event

from ..rules import choices, movement, turns
from ..rules.board import (
    ASTEROID,
    BLACK_HOLE,
    NEUTRON_STAR,
    PLANET,
    Board,
    balance_problems,
    build_board,
    distance_table,
    neighbour_table,
)
from ..rules.board import EMPTY as OPEN
from ..rules.hooks import Module
from ..rules.state import EMPTY, MOVED, NOWHERE

if TYPE_CHECKING:
    from ..content import Content
    from ..rules.state import MothershipState

MARKS = {"neutron_stars": NEUTRON_STAR, "black_holes": BLACK_HOLE}
"""Each hazard module's mark in the terrain."""


# ---- the board ---------------------------------------------------------------------------------


def furnish(board: Board, content: Content, neutron: bool, black: bool) -> Board:
    """``board`` with neutron star and black hole tiles for the modules on (``neutron``,
    ``black``), unless it marks that hazard already (a layout's own).

    The same board always gets the same tiles: ``content.hazards``' counts of them at most, in
    pairs (the kinds taking turns), the second tile on the spot nearest the first one's mirror
    image through the centre (that image itself wherever the board allows). A tile covers open
    space or asteroids (which give way, as do asteroids touching a black hole), never beside a
    planet, at least ``station_gap`` spaces from every station, and the board keeps its balance.
    A pair the board has no fair room for is left out (the rulebook lets players lay as many
    tiles as they like, so a crowded board may get none at all).
    """
    hazards = content.hazards
    counts = {NEUTRON_STAR: hazards.neutron_stars, BLACK_HOLE: hazards.black_holes}
    kinds = [mark for mark, on in ((NEUTRON_STAR, neutron), (BLACK_HOLE, black)) if on and mark not in board.terrain]
    rounds = range(0, max(counts.values()), 2)
    groups = [(mark, min(2, counts[mark] - done)) for done in rounds for mark in kinds if counts[mark] > done]
    if not groups:
        return board
    rng = random.Random(f"mothership-hazards:{board.terrain}:{board.stations}")
    best, most = board, 0
    for _ in range(DRAWS):
        furnished, placed = _draw(rng, board, content, groups)
        if placed > most:
            best, most = furnished, placed
        if most == sum(tiles for _, tiles in groups):
            break
    return best


DRAWS = 20
"""Tries at placing every hazard tile before a board settles for the most that fit."""


def _draw(rng: random.Random, board: Board, content: Content, groups: list[tuple[str, int]]) -> tuple[Board, int]:
    """One try: ``board`` with the tiles of ``groups`` ((mark, 1 or 2 tiles), in order) placed
    where the board stays balanced (a group without such room is left out), and how many."""
    tile, gap = content.hazards.tile, content.hazards.station_gap
    placed = 0
    for mark, tiles in groups:
        spots: dict[tuple[int, int], list[int]] = {}
        room = _room(board, gap)  # each space once, not per spot
        for row, col in itertools.product(range(board.size - tile + 1), range(board.size - tile + 1)):
            cells = [(row + r) * board.size + col + c for r in range(tile) for c in range(tile)]
            if all(room[cell] for cell in cells):
                spots[row, col] = cells
        board, count = _fit(rng, board, content, mark, _tiers(spots, board.size - tile, tiles))
        placed += count
    return board, placed


def _tiers(spots: dict[tuple[int, int], list[int]], far: int, tiles: int) -> Iterator[list[list[list[int]]]]:
    """Where a group of ``tiles`` may go (each option: its tiles' spaces), best first: for a
    pair, two spots, the second as near the first one's mirror image as can be (``far``: the last
    row or column a spot starts on), the nearer the better; last, one spot alone."""
    for off in range(far + 1) if tiles == 2 else ():
        tier = [
            [cells, twin]
            for (row, col), cells in spots.items()
            for other in _ring(far - row, far - col, off)
            if (twin := spots.get(other)) is not None and set(cells).isdisjoint(twin)
        ]
        if tier:
            yield tier
    yield [[cells] for cells in spots.values()]


def _ring(row: int, col: int, off: int) -> list[tuple[int, int]]:
    """The corners exactly ``off`` king steps from (``row``, ``col``)."""
    return [
        (r, c)
        for r in range(row - off, row + off + 1)
        for c in range(col - off, col + off + 1)
        if max(abs(r - row), abs(c - col)) == off
    ]


def _fit(
    rng: random.Random, board: Board, content: Content, mark: str, tiers: Iterator[list[list[list[int]]]]
) -> tuple[Board, int]:
    """``board`` covered (``mark``) by the first option of ``tiers`` (in a random order within a
    tier) that keeps it balanced, and that option's number of tiles; ``board`` and 0 without one."""
    for tier in tiers:
        rng.shuffle(tier)
        for option in tier:
            covered = _cover(board, mark, itertools.chain.from_iterable(option))
            if not balance_problems(covered, content):
                return covered, len(option)
    return board, 0


def _cover(board: Board, mark: str, cells: Iterable[int]) -> Board:
    """``board`` with ``cells`` marked ``mark`` (asteroids touching a black hole give way, so a
    ship pulled in never meets an asteroid field)."""
    terrain = list(board.terrain)
    for cell in cells:
        terrain[cell] = mark
        for n in board.neighbours[cell] if mark == BLACK_HOLE else ():
            if terrain[n] == ASTEROID:
                terrain[n] = OPEN
    return build_board(board.name, board.size, terrain, board.planets, board.stations, board.fleet)


def _room(board: Board, gap: int) -> list[bool]:
    """For each space, whether a tile may cover it: open space or an asteroid, not beside a planet,
    at least ``gap`` spaces from every colony station."""
    terrain, neighbours, table = board.terrain, board.neighbours, distance_table(board.size)
    near_station = {cell for s in board.stations for cell, steps in enumerate(table[s]) if steps < gap}
    return [
        mark in (OPEN, ASTEROID)
        and cell not in near_station
        and not any(terrain[n] == PLANET for n in neighbours[cell])
        for cell, mark in enumerate(terrain)
    ]


def beside(board: Board, cell: int, mark: str) -> bool:
    """Whether ``cell`` is next to a space marked ``mark``."""
    terrain = board.terrain
    return any(terrain[n] == mark for n in board.neighbours[cell])


# ---- neutron stars -----------------------------------------------------------------------------


def star_beside(state: MothershipState, cell: int) -> bool:
    """Whether ``cell`` is next to a neutron star (a unit there is halved, a mothership's shields blocked)."""
    board = state.board
    assert board is not None
    return beside(board, cell, NEUTRON_STAR)


def halve(state: MothershipState, cells: Iterable[int], total: int, what: str, events: list[Event]) -> int:
    """A side's final dogfight total (``what``, in words): halved, rounding up, when any of
    ``cells`` (the side's units in the dogfight) is next to a neutron star; else ``total``."""
    if not any(star_beside(state, cell) for cell in cells):
        return total
    half = (total + 1) // 2
    events.append(Event("hazard", f"A neutron star halves {what}: {total} becomes {half}."))
    return half


def shields_blocked(state: MothershipState, seat: int) -> bool:
    """Whether ``seat``'s mothership is beside a neutron star: its shields count for nothing
    there (it keeps them; :func:`..rules.movement.shield_points` and ``shield_energy`` read this)."""
    cell = state.pos[seat][0]
    return cell != NOWHERE and star_beside(state, cell)


# what a mothership's shields give with this module's block (the kernel's, by their rulebook names here)
shield_points = movement.shield_points
shield_energy = movement.shield_energy


# ---- black holes -------------------------------------------------------------------------------


def inside(state: MothershipState, seat: int, ship: int) -> bool:
    """Whether ``seat``'s ``ship`` is in a black hole."""
    cell = state.pos[seat][ship]
    return cell != NOWHERE and state.board is not None and state.board.terrain[cell] == BLACK_HOLE


def trapped(state: MothershipState, seat: int) -> int:
    """Bit mask of ``seat``'s ships in a black hole (at the start of its turn: ``state.stuck``)."""
    return sum(1 << ship for ship in range(len(state.pos[seat])) if inside(state, seat, ship))


def stuck(state: MothershipState, seat: int, ship: int) -> bool:
    """Whether ``ship`` of ``seat`` began this turn of its owner's in a black hole and is still
    there: it cannot initiate a dogfight (nor use engines, as any ship inside)."""
    return seat == state.turn and bool(state.stuck >> ship & 1) and inside(state, seat, ship)


def landing_blocked(state: MothershipState, cell: int) -> bool:
    """No card, ability or warp puts a ship beside a black hole (:func:`..rules.movement.landing`)."""
    board = state.board
    assert board is not None
    return beside(board, cell, BLACK_HOLE)


def begin(state: MothershipState, seat: int) -> None:
    """``seat``'s turn begins: its ships in a black hole are stuck there this turn."""
    state.stuck = trapped(state, seat)


def arrive(state: MothershipState, seat: int, ship: int, events: list[Event]) -> None:
    """A Move leg of ``ship`` ended. Inside a black hole: it rolls against the ship. Beside one:
    the ship's movement is over and it is pulled into a free space of the black hole (its owner
    picks when several are free; with none free it stays)."""
    board = state.board
    assert board is not None
    cell = state.pos[seat][ship]
    if board.terrain[cell] == BLACK_HOLE:
        enter(state, seat, ship, events)
        return
    if not beside(board, cell, BLACK_HOLE):
        return
    state.used[ship] = MOVED
    holes = [n for n in board.neighbours[cell] if board.terrain[n] == BLACK_HOLE and state.grid[n] == EMPTY]
    name = state.ship_name(seat, ship)
    if not holes:
        events.append(Event("hazard", f"A black hole holds {name} where it is: no space of it is free."))
    elif len(holes) == 1:
        _pull(state, seat, ship, holes[0], events)
    else:
        events.append(Event("hazard", f"A black hole pulls {name} in: {state.player_name(seat)} picks the space."))
        choices.ask(state, seat, "pull", holes, [board.name_of(h) for h in holes], ship=ship)


def _pull(state: MothershipState, seat: int, ship: int, cell: int, events: list[Event]) -> None:
    assert state.board is not None
    movement.jump(state, seat, ship, cell)
    events.append(Event("move", f"A black hole pulls {state.ship_name(seat, ship)} in to {state.board.name_of(cell)}."))
    enter(state, seat, ship, events)


def enter(state: MothershipState, seat: int, ship: int, events: list[Event], ending: bool = False) -> None:
    """The black hole ``ship`` is in rolls against it (``ending``: at the end of its owner's
    turn, which ends once the roll is resolved). Its movement is over."""
    assert state.board is not None
    state.used[ship] = MOVED
    die = state.game.content.hazards.black_hole_die
    state.pending = {"what": "black_hole", "seat": seat, "ships": [ship], "target": -1, "dice": [die], "rolls": []}
    if ending:
        state.pending["ending"] = True
    where = state.board.name_of(state.pos[seat][ship])
    events.append(Event("hazard", f"The black hole at {where} rolls a d{die} against {state.ship_name(seat, ship)}."))


def rolled(state: MothershipState, events: list[Event]) -> None:
    """The black hole's die is rolled: a warp out (its owner picks where), or that much damage."""
    pending = state.pending
    board = state.board
    assert pending is not None and board is not None
    state.pending = None
    seat, ship, roll = pending["seat"], pending["ships"][0], pending["rolls"][0]
    ending = bool(pending.get("ending"))
    name = state.ship_name(seat, ship)
    if roll <= state.game.content.hazards.warp_faces:
        spaces = [c for c in range(board.size * board.size) if state.grid[c] == EMPTY and board.terrain[c] == OPEN]
        events.append(Event("hazard", f"The black hole rolls {roll}: {name} warps out, wherever its player likes."))
        labels = [board.name_of(c) for c in spaces]
        choices.ask(state, seat, "warp_out", spaces, labels, ship=ship, ending=ending)
        return
    if ship:
        movement.destroy_ship(state, seat, ship)
        events.append(Event("damage", f"The black hole rolls {roll}: {name} is torn apart."))
    else:
        words = movement.damage_mothership(state, seat, roll, hull=True)
        events.append(Event("damage", f"The black hole rolls {roll}: {name} takes {roll}: {words}."))
    turns.check_out(state, [seat], events)
    if ending:
        _resume(state, seat, events)


def warping_out(state: MothershipState) -> int:
    """The ship whose player is choosing where it warps out of a black hole (:func:`rolled`), its
    turn going on after; -1 for any other choice, and at a turn's end (which ends after it)."""
    choice = state.choice
    if choice is None or choice["what"] != "warp_out" or choice["ending"]:
        return -1
    return int(choice["ship"])


def _pulled(state: MothershipState, choice: dict[str, Any], cell: int, events: list[Event]) -> None:
    _pull(state, choice["seat"], choice["ship"], cell, events)


def _warped(state: MothershipState, choice: dict[str, Any], cell: int, events: list[Event]) -> None:
    """The unit leaves the black hole for ``cell``: its movement is over, its attack phase kept."""
    assert state.board is not None
    seat, ship = choice["seat"], choice["ship"]
    movement.jump(state, seat, ship, cell)
    state.used[ship] = MOVED
    events.append(Event("move", f"{state.ship_name(seat, ship)} warps out to {state.board.name_of(cell)}."))
    if choice["ending"]:
        _resume(state, seat, events)


def hold(state: MothershipState, events: list[Event]) -> bool:
    """The player on turn ends it: a ship stuck since the turn began and still inside is rolled
    against first, one at a time in fleet order (True: a roll is under way; the turn ends once
    it is resolved)."""
    seat = state.turn
    for ship in range(len(state.pos[seat])):
        if stuck(state, seat, ship):
            state.stuck &= ~(1 << ship)
            enter(state, seat, ship, events, ending=True)
            return True
    return False


def _resume(state: MothershipState, seat: int, events: list[Event]) -> None:
    """After an end-of-turn roll: the turn goes on ending, unless the game or the player is done."""
    if state.phase == "turn" and state.turn == seat and not state.out[seat]:
        turns.end_turn(state, events)


CHOICES: dict[str, Callable[[MothershipState, dict[str, Any], int, list[Event]], None]] = {
    "pull": _pulled,
    "warp_out": _warped,
}
"""The decisions black holes ask for: which of its spaces pulls a ship in, where a unit warps out."""


def hole_at(state: MothershipState, seat: int, ship: int, cell: int) -> int:
    """The black hole space in which one rolls against ``seat``'s ``ship`` as soon as a move of it
    ends on ``cell`` (:func:`arrive`): ``cell`` itself, or beside it the single free one (it is
    pulled in); -1 if none (beside several free, its owner picks one first; beside none free, it
    is held on ``cell``)."""
    board = state.board
    assert board is not None
    terrain, grid, left = board.terrain, state.grid, state.pos[seat][ship]
    if terrain[cell] == BLACK_HOLE:
        return cell
    if not _rims(terrain, board.size)[cell]:  # asked of every move the quick values weigh
        return -1
    free = [n for n in board.neighbours[cell] if terrain[n] == BLACK_HOLE and (grid[n] == EMPTY or n == left)]
    return free[0] if len(free) == 1 else -1


@cache
def _rims(terrain: str, size: int) -> tuple[bool, ...]:
    """For each space of a board (its ``terrain`` and ``size``), whether it is beside a black hole."""
    return tuple(any(terrain[n] == BLACK_HOLE for n in around) for around in neighbour_table(size))


def quiet(state: MothershipState, seat: int) -> Callable[[Action], bool]:
    """The quick values' question (hook ``quiet``): only a move a black hole rolls against at once
    (:func:`hole_at`) changes what the evaluation reads; a ship that ends beside one and waits to
    be pulled in, or is held there, stands where it moved (the pull is a choice still to make)."""
    return lambda action: action[-1] != "move" or hole_at(state, seat, action[0], action[1]) < 0


PLUGIN = Module(
    "hazards",
    lambda game: any(module in game.modules for module in MARKS),
    {
        "turn_start": begin,
        "turn_ending": hold,
        "engines_off": inside,
        "move_ended": arrive,
        "quiet": quiet,
        "landing_blocked": landing_blocked,
        "ship_held": stuck,
        "shields_blocked": shields_blocked,
        "roll_total": halve,
        "rolled": {"black_hole": rolled},
        "choices": CHOICES,
    },
)
"""The expansion's neutron stars and black holes (either option)."""
