"""Guardian cannons, as far as the expansion's rewards need them (RULINGS.md, ruling 103).

The expansion deploys a guardian cannon as a reward (objectives, beacon cards) without
saying what one does: that is another module's rule. spacetable's cannon is a small
stationary defence:

- It is deployed on a free empty space beside one of its player's ships, with no limit (the
  rulebook's reward ignores what the colony can support).
- It never moves. It stands in the way of enemy ships (friendly ships pass), guards its
  player's colony station and counts as a wingman, like a ship beside them.
- It never attacks. Motherships, fighters and bombers may attack it; it defends with its die
  (``content.cannons.die``) and its wingmen. It is destroyed when it loses, worth a fighter's
  loot and points; if it wins, it damages its attackers as a mothership would.
- It is not a ship: a player with cannons but no ship left is out.

Cannons are ``state.cannons[seat]`` (their spaces); the grid holds ``seat * 16 + CANNON``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Event

from ..rules.board import EMPTY as OPEN
from ..rules.hooks import Module
from ..rules.state import CANNON, EMPTY, NOWHERE

if TYPE_CHECKING:
    from ..rules.state import MothershipState

WORTH = 2.0
"""A cannon in the greedy evaluation's units (a fighter is 3): it guards, it does not attack."""


def spaces(state: MothershipState, seat: int) -> list[int]:
    """Where ``seat`` may deploy a cannon now: free empty spaces beside its ships."""
    board = state.board
    assert board is not None
    near = {n for cell in state.pos[seat] if cell != NOWHERE for n in board.neighbours[cell]}
    return sorted(c for c in near if board.terrain[c] == OPEN and state.grid[c] == EMPTY)


def deploy(state: MothershipState, seat: int, cell: int, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    state.cannons[seat].append(cell)
    state.grid[cell] = seat * 16 + CANNON
    events.append(Event("cannon", f"{state.player_name(seat)} deploys a guardian cannon at {board.name_of(cell)}."))


def remove(state: MothershipState, seat: int, cell: int) -> None:
    state.cannons[seat].remove(cell)
    state.grid[cell] = EMPTY


def owner(state: MothershipState, cell: int) -> int:
    """The seat whose cannon stands on ``cell``, else -1."""
    occupant = state.grid[cell] if 0 <= cell < len(state.grid) else EMPTY
    return occupant >> 4 if occupant != EMPTY and occupant & 15 == CANNON else -1


def _knocked_out(state: MothershipState, seat: int, events: list[Event]) -> None:
    """A player out loses its cannons."""
    for cannon in list(state.cannons[seat]):
        remove(state, seat, cannon)


PLUGIN = Module(
    "cannons",
    lambda game: "beacons" in game.modules or "objectives" in game.modules,
    {"structure_destroyed": remove, "knocked_out": _knocked_out},
)
"""Guardian cannons: deployed by the rewards of beacon and objective cards, so in play with either."""
