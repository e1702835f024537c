"""Phase 1, "Place dice and move ships": rolling, placing, white re-rolls, ship movement.

Rulebook: a die goes on a free spot, one die per column, only on excavated rooms,
except once a round on an unexcavated space to dig. Right after a die is placed,
every ship in its column moves down by the die's face value (one less under an
anti-aircraft gun) and the space it lands on takes effect. Placing a white die
re-rolls every die not yet placed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event
from spacetable.engine.words import count

from ..content import SPOT
from . import mothership, rooms
from .actions import Place

if TYPE_CHECKING:
    from .state import FallingSkiesState


def roll(state: FallingSkiesState, value: int, events: list[Event]) -> None:
    """Chance: the next die to roll shows ``value``."""
    color = state.to_roll.pop(0)
    state.unplaced.append((color, value))
    events.append(Event("roll", f"Rolled a {color} {value}."))
    if not state.to_roll:
        state.phase = "place"
        if not can_place(state):
            _discard_unplaceable(state, events)


def placeable(state: FallingSkiesState, space: str) -> bool:
    """Whether a die may go on ``space`` now (ignoring which die)."""
    b = state.board
    if space in state.slots or state.columns_used >> b.column_of[space] & 1:
        return False
    if state.excavated(space):
        return space in b.aa_spaces or space in b.room_of
    return not state.dug and space in b.dig_index


def legal_spaces(state: FallingSkiesState) -> list[str]:
    return [s for s in state.board.spaces if placeable(state, s)]


def can_place(state: FallingSkiesState) -> bool:
    return any(placeable(state, s) for s in state.board.spaces)


def legal_placements(state: FallingSkiesState) -> list[Action]:
    spaces = legal_spaces(state)
    return [Place(color, value, s) for color, value in sorted(set(state.unplaced)) for s in spaces]


def why_not(state: FallingSkiesState, action: Place) -> str:
    """Why a placement is refused, in the rulebook's terms."""
    b = state.board
    if (action.color, action.value) not in state.unplaced:
        dice = ", ".join(f"{c} {v}" for c, v in state.unplaced) or "none"
        return f"there is no unplaced {action.color} {action.value}; unplaced dice: {dice}"
    if action.space in state.slots:
        return f"{action.space} already holds a die"
    if state.columns_used >> b.column_of[action.space] & 1:
        return f"column {b.column_of[action.space] + 1} already has a die this round"
    if not state.excavated(action.space):
        if state.dug:
            return "you have already placed a die to dig this round"
        return f"{action.space} cannot be excavated"
    return f"{action.space} is a tunnel, not a room"


def place(state: FallingSkiesState, action: Place, events: list[Event]) -> None:
    b = state.board
    die = (action.color, action.value)
    state.unplaced.remove(die)
    col = b.column_of[action.space]
    state.slots[action.space] = die
    state.columns_used |= 1 << col
    digging = not state.excavated(action.space)
    if digging:
        state.dug = True
    events.append(Event("place", f"Placed the {action.color} {action.value} on {describe_space(state, action.space)}."))
    steps = action.value - b.aa_slowdown if action.space in b.aa_spaces else action.value
    move_column(state, col, steps, events)
    if state.phase == "over":
        return
    if action.color == "white" and state.unplaced:
        state.to_roll = [color for color, _ in state.unplaced]
        state.unplaced = []
        state.phase = "roll"
        rest = count(len(state.to_roll), "unplaced die", "unplaced dice")
        events.append(Event("reroll", f"The white die re-rolls the {rest.removeprefix('1 ')}."))
    elif not state.unplaced:
        rooms.start_resolution(state, events)
    elif not can_place(state):
        _discard_unplaceable(state, events)


def _discard_unplaceable(state: FallingSkiesState, events: list[Event]) -> None:
    dice = ", ".join(f"{c} {v}" for c, v in state.unplaced)
    events.append(Event("discard", f"No free space can take {dice}: set aside."))
    state.unplaced = []
    rooms.start_resolution(state, events)


def move_column(state: FallingSkiesState, col: int, steps: int, events: list[Event]) -> None:
    """Move every ship in column ``col`` down ``steps`` rows, then resolve where they land.

    Ships move together; the spaces they land on take effect from the lowest ship
    up (see RULINGS.md). A ship that moves past the last sky row hits the base.
    """
    moving = [s for s in state.ships if s[1] == col]
    if steps <= 0 or not moving:
        return
    b = state.board
    state.ships = [s for s in state.ships if s[1] != col]
    landed: list[tuple[int, int, bool]] = []
    hits: list[bool] = []
    for row, c, red in moving:
        new_row = (state.mothership if row == SPOT else row) + steps
        if new_row > b.sky_rows:
            hits.append(red)
        else:
            landed.append((new_row, c, red))
    state.ships += landed
    for red in hits:
        state.waiting[red] += 1
        events.append(Event("hit", f"A {_color(red)} ship in column {col + 1} reaches the city."))
        state.take_damage(events, "a ship reached the city")
        if state.phase == "over":
            return
    for ship in sorted(landed, reverse=True):
        if ship in state.ships:  # an earlier mother ship descent may have taken it back
            land(state, ship, events)
            if state.phase == "over":
                return


def land(state: FallingSkiesState, ship: tuple[int, int, bool], events: list[Event]) -> None:
    """Resolve the sky space a ship's move ended on."""
    b = state.board
    row, col, red = ship
    step = b.arrow[row][col]
    if step:
        if state.ship_at(row, col + step):
            events.append(Event("arrow", f"The arrow at row {row} is blocked: the ship stays in column {col + 1}."))
        else:
            state.ships[state.ships.index(ship)] = (row, col + step, red)
            events.append(Event("arrow", f"The arrow moves the ship from column {col + 1} to {col + step + 1}."))
    elif b.mother_icon[row][col]:
        events.append(Event("mother_icon", f"A ship lands on a mother ship icon (row {row}, column {col + 1})."))
        mothership.descend(state, events)
    else:
        where = f"row {row}, column {col + 1}"
        extra = f", an explosion space {b.explosion[row][col]}+" if b.explosion[row][col] else ""
        events.append(Event("move", f"A {_color(red)} ship moves to {where}{extra}."))


def describe_space(state: FallingSkiesState, space: str) -> str:
    b = state.board
    if space in b.aa_spaces:
        return f"{space} (anti-aircraft gun)"
    if not state.excavated(space):
        return f"{space} (dig, route {b.dig_index[space] - state.excavator})"
    room = b.room_of.get(space)
    return f"{space} ({room.describe()})" if room else f"{space} (tunnel)"


def _color(red: bool) -> str:
    return "red" if red else "green"
