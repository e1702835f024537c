"""What the rules point at: unit kinds, attack target numbers, and the ships beside a space.

Shared by the chapters that name targets (combat, the cards played in a dogfight, the
cards played on the player's turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import MAX_EXTRA, MAX_PLANETS
from .codes import EMPTY, STATION

if TYPE_CHECKING:
    from .state import MothershipState

MOTHERSHIP, FIGHTER, BOMBER, COLONY, PLANET_TARGET = "mothership", "fighter", "bomber", "station", "planet"
CANNON_TARGET = "cannon"
CANNON_UNIT = 14
"""The unit number a cannon target decodes to (never a ship's: ships are 0-7)."""


def target_code(state: MothershipState, seat: int, ship: int) -> int:
    """The attack target number of a ship or (``ship == ships``) a colony station."""
    return seat * (state.game.content.ships + 1) + ship


def planet_code(state: MothershipState, planet: int) -> int:
    return state.game.fleets * (state.game.content.ships + 1) + planet


def cannon_base(state: MothershipState) -> int:
    """The first guardian cannon target number: a cannon's is this plus its space."""
    return state.game.fleets * (state.game.content.ships + 1) + MAX_PLANETS + MAX_EXTRA


def cannon_code(state: MothershipState, cell: int) -> int:
    return cannon_base(state) + cell


def decode_target(state: MothershipState, target: int) -> tuple[str, int, int]:
    """(kind, seat, ship) of a target number; for a planet (``planet``, -1, planet index); for a
    guardian cannon (``cannon``, its owner or -1, ``CANNON_UNIT``): its space is ``target_cell``."""
    ships = state.game.content.ships
    base = cannon_base(state)
    if target >= base:
        cell = target - base
        occupant = state.grid[cell] if cell < len(state.grid) else EMPTY
        return CANNON_TARGET, occupant >> 4 if occupant != EMPTY else -1, CANNON_UNIT
    seat, ship = divmod(target, ships + 1)
    if seat >= state.game.fleets:
        return PLANET_TARGET, -1, target - state.game.fleets * (ships + 1)
    return (COLONY if ship == ships else state.game.ship_kinds[ship]), seat, ship


def wingmen(state: MothershipState, seat: int, cell: int) -> int:
    """Friendly ships next to ``cell`` (a defender's space)."""
    assert state.board is not None
    grid = state.grid
    count = 0
    for n in state.board.neighbours[cell]:
        occupant = grid[n]
        if occupant != EMPTY and occupant & 15 != STATION and state.friendly(occupant >> 4, seat):
            count += 1
    return count


def target_cell(state: MothershipState, target: int) -> int:
    """The space of a ship, station or cannon target (a planet's: its planet's space)."""
    kind, seat, unit = decode_target(state, target)
    assert state.board is not None
    if kind == PLANET_TARGET:
        return state.board.planets[unit]
    if kind == CANNON_TARGET:
        return target - cannon_code(state, 0)
    return state.stations[seat] if kind == COLONY else state.pos[seat][unit]
