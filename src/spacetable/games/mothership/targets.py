"""What the rules point at: unit kinds, attack target numbers, and the ships beside a space.

Shared by the chapters that name targets (combat, the cards played in a dogfight, the
cards played on the player's turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import EMPTY, STATION

if TYPE_CHECKING:
    from .state import MothershipState

MOTHERSHIP, FIGHTER, BOMBER, COLONY, PLANET_TARGET = "mothership", "fighter", "bomber", "station", "planet"


def target_code(state: MothershipState, seat: int, ship: int) -> int:
    """The attack target number of a ship or (``ship == ships``) a colony station."""
    return seat * (state.game.content.ships + 1) + ship


def planet_code(state: MothershipState, planet: int) -> int:
    return state.game.fleets * (state.game.content.ships + 1) + planet


def decode_target(state: MothershipState, target: int) -> tuple[str, int, int]:
    """(kind, seat, ship) of a target number; for a planet (``planet``, -1, planet index)."""
    ships = state.game.content.ships
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
