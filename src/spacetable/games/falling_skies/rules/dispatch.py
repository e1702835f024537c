"""The dispatch from the state's protocol to the rules chapters, one a phase of the round.

``placement`` (rolling and placing dice), ``rooms`` (resolving rooms, digging, the new robot),
``mothership`` (the mother ship's advance and respawns); ``losing`` (the moves that lose the game).

The rules import the state (module ``state``: plain data and the protocol), never the reverse:
the package's ``__init__`` hands this module to the state once both are loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event, Roll

from ..content import SPOT
from . import losing, mothership, placement, rooms
from .actions import Dig, Place, PlaceRobot, Resolve, Spawn

if TYPE_CHECKING:
    from .state import FallingSkiesState

_WAITING_FOR = {
    "roll": "a die roll",
    "place": "placing a die",
    "resolve": "resolving rooms",
    "robot": "placing the new robot",
    "respawn": "respawning ships",
}


def legal_actions(state: FallingSkiesState) -> list[Action]:
    """The player's actions in a decision phase (none once the game is over)."""
    phase = state.phase
    if phase == "place":
        return placement.legal_placements(state)
    if phase == "resolve":
        return rooms.legal_resolutions(state)
    if phase == "robot":
        return [PlaceRobot(s) for s in rooms.robot_spaces(state)]
    if phase == "respawn":
        return mothership.legal_spawns(state)
    return []


def apply(state: FallingSkiesState, action: Action, events: list[Event]) -> None:
    """Carry out a legal action (a die's roll or the player's choice)."""
    if isinstance(action, Roll):
        placement.roll(state, action.value, events)
    elif isinstance(action, Place):
        placement.place(state, action, events)
    elif isinstance(action, Resolve):
        rooms.resolve_room(state, action, events)
    elif isinstance(action, Dig):
        rooms.resolve_dig(state, action, events)
    elif isinstance(action, PlaceRobot):
        rooms.place_robot(state, action.space, events)
    elif isinstance(action, Spawn):
        mothership.spawn(state, action, events)


def why_illegal(state: FallingSkiesState, action: Action) -> str:
    """Why an action is not legal now, in words."""
    if state.phase == "over":
        return "the game is over"
    if isinstance(action, Place) and state.phase == "place":
        return placement.why_not(state, action)
    return f"the game is waiting for {_WAITING_FOR[state.phase]}"


def label(state: FallingSkiesState, action: Action) -> str:
    """An action in words, for ``state.action_label``."""
    b = state.board
    if isinstance(action, Roll):
        return f"roll {action.value}"
    if isinstance(action, Place):
        return f"place {action.color} {action.value} on {placement.describe_space(state, action.space)}"
    if isinstance(action, Resolve):
        room = b.room_of.get(action.room)
        if room is None:
            return f"resolve {action.room} (not a room)"
        if not action.use:
            return f"skip {action.room} ({room.describe()}): remove its dice"
        full = all(s in state.slots for s in room.spaces)
        value = f" with value {rooms.room_value(state, room)}" if full else ""
        take = f", rebuilding the robot from {action.take}" if action.take else ""
        return f"use {action.room} ({room.describe()}){value}{take}"
    if isinstance(action, Dig):
        if action.use and action.space in b.dig_index:
            return f"dig to {action.space} (1 energy, route {b.dig_index[action.space] - state.excavator})"
        return f"discard the digging die on {action.space}"
    if isinstance(action, PlaceRobot):
        return (
            f"put the new robot ({state.new_robots[0] if state.new_robots else '?'}) on "
            f"{placement.describe_space(state, action.space)}"
        )
    if isinstance(action, Spawn):
        return f"respawn a {'red' if action.red else 'green'} ship above column {action.column}"
    return repr(action)


def warnings(state: FallingSkiesState) -> dict[Action, str]:
    """The legal moves that lose the game, each with why, for ``state.action_warning``."""
    return losing.warnings(state)


def check(state: FallingSkiesState) -> None:
    """What no single field shows: no two ships on one space, the mother ship on its track while
    the game goes on, a result only at the end, no more dice to roll and place than the round
    has. (The ship counts are bounded by the schema, not conserved: tests set up positions with
    extra ships.)"""
    flying = [(r, c) for r, c, _ in state.ships if r != SPOT]
    if len(set(flying)) != len(flying):
        raise ValueError("two ships share a space of the sky")
    if state.phase != "over" and state.mothership >= min(len(state.board.track), state.board.skull_row):
        raise ValueError(f"the mother ship is on row {state.mothership}, past its track, but the game is not over")
    if state.phase == "roll" and not state.to_roll:
        raise ValueError("phase roll, but no die is left to roll")
    if state.phase == "robot" and not state.new_robots:
        raise ValueError("phase robot, but no new robot waits to be placed")
    if len(state.to_roll) + len(state.unplaced) > len(state.board.dice):  # a roll moves a die from one to the other
        raise ValueError(
            f"{len(state.to_roll)} dice to roll and {len(state.unplaced)} to place: more than the round's "
            f"{len(state.board.dice)}"
        )
    if len(set(state.pending)) != len(state.pending):
        raise ValueError(f"pending names a room twice: {state.pending}")
    for room in state.pending:
        if not rooms.is_full(state, state.board.room_of[room]):
            raise ValueError(f"pending room {room} is to be resolved, but its spaces are not all taken")
    if (state.phase == "over") != (state.result != ""):
        raise ValueError(f"result {state.result!r} does not fit phase {state.phase}")
