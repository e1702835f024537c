"""Phase 2, "Resolve rooms": room effects, excavation and robots.

Rulebook: every placed die is resolved, one at a time, in the order the player
chooses. Using a room costs its energy; otherwise its dice are removed with no
effect. The modifier changes the value used, never how far ships moved. A room of
several spaces needs all of them filled and uses the sum. A robot stays on its
room and loses one pip each time it is resolved, used or not; at one it is
removed. A die on an unexcavated space digs: one energy, and a value at least
the route's length, moves the excavator there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from ..content import ROBOT, Room
from . import mothership
from .actions import Dig, Resolve

if TYPE_CHECKING:
    from .state import FallingSkiesState


def start_resolution(state: FallingSkiesState, events: list[Event]) -> None:
    """Enter phase 2: clear what cannot be resolved, then wait for the player's order."""
    b = state.board
    state.phase = "resolve"
    for space in [s for s in state.slots if s in b.aa_spaces]:
        del state.slots[space]  # anti-aircraft guns took effect when their die was placed
    for room in b.rooms:
        if any(s in state.slots and state.excavated(s) for s in room.spaces) and not is_full(state, room):
            events.append(Event("partial", f"Room {room.id} is not full: its dice do nothing."))
            _clear(state, room, events)
    state.pending = [room.id for room in b.rooms if room.spaces[0] in state.slots and is_full(state, room)]
    _next_or_done(state, events)


def is_full(state: FallingSkiesState, room: Room) -> bool:
    """Every space of the room is excavated and holds a die or a robot."""
    return all(s in state.slots and state.excavated(s) for s in room.spaces)


def _clear(state: FallingSkiesState, room: Room, events: list[Event]) -> None:
    """Remove a room's dice after resolution; its robots lose a pip (removed at one)."""
    for s in room.spaces:
        held = state.slots.get(s)
        if held is None or not state.excavated(s):
            continue  # an unexcavated space holds a digging die, resolved on its own
        color, value = held
        if color != ROBOT:
            del state.slots[s]
        elif value > 1:
            state.slots[s] = (ROBOT, value - 1)
        else:
            del state.slots[s]
            state.robot_supply += 1
            events.append(Event("robot", f"The robot on {s} wears out and is removed."))


def room_value(state: FallingSkiesState, room: Room) -> int:
    return sum(state.slots[s][1] for s in room.spaces) + room.mod


def digging_dice(state: FallingSkiesState) -> list[str]:
    """Spaces of digging dice still to resolve (the only dice on unexcavated spaces)."""
    return [s for s in state.slots if not state.excavated(s)]


def can_use(state: FallingSkiesState, room: Room) -> bool:
    """The room can be paid for and its value does something."""
    return state.energy >= room.cost and room_value(state, room) >= 1


def can_dig(state: FallingSkiesState, space: str) -> bool:
    """The digging die on ``space`` can be paid for and covers the route."""
    route = state.board.dig_index[space] - state.excavator
    return state.energy >= state.board.dig_cost and state.slots[space][1] >= route


def legal_resolutions(state: FallingSkiesState) -> list[Action]:
    actions: list[Action] = []
    for room in map(state.board.room_of.__getitem__, state.pending):
        actions.append(Resolve(room.id, False, ""))
        if not can_use(state, room):
            continue
        if ROBOT in room.effects:  # a blue die from the supply, or a placed robot rebuilt
            others = [s for s, (c, _) in state.slots.items() if c == ROBOT and s not in room.spaces]
            actions += [Resolve(room.id, True, s) for s in others]
            if state.robot_supply or room.effects != (ROBOT,):
                actions.append(Resolve(room.id, True, ""))  # from the supply; else its other effects alone
        else:
            actions.append(Resolve(room.id, True, ""))
    for space in digging_dice(state):
        actions.append(Dig(space, False))
        if can_dig(state, space):
            actions.append(Dig(space, True))
    return actions


def resolve_room(state: FallingSkiesState, action: Resolve, events: list[Event]) -> None:
    room = state.board.room_of[action.room]
    state.pending.remove(room.id)
    work_room(state, room, action.use, action.take, events)
    if state.phase != "over":
        _next_or_done(state, events)


def work_room(state: FallingSkiesState, room: Room, use: bool, take: str, events: list[Event]) -> None:
    """Resolve a full room: its effects when used (paying its cost), then its dice go and robots wear.

    Changes no phase; ``take`` names a placed robot to rebuild ("": a blue die from the supply).
    """
    if use:
        value = room_value(state, room)
        state.energy -= room.cost
        spent = f", spending {room.cost} energy" if room.cost else ""
        events.append(Event("use", f"Room {room.id} ({'+'.join(room.effects)}) works with value {value}{spent}."))
        for effect in room.effects:
            EFFECTS[effect](state, value, take, events)
            if state.phase == "over":
                return
    else:
        events.append(Event("skip", f"Room {room.id} is skipped."))
    _clear(state, room, events)


def resolve_dig(state: FallingSkiesState, action: Dig, events: list[Event]) -> None:
    dig(state, action.space, action.use, events)
    _next_or_done(state, events)


def dig(state: FallingSkiesState, space: str, use: bool, events: list[Event]) -> None:
    """Resolve the digging die on ``space``: pay and move the excavator there, or just remove it."""
    del state.slots[space]
    if use:
        state.energy -= state.board.dig_cost
        state.excavator = state.board.dig_index[space]
        events.append(Event("dig", f"The excavator digs through to {space} ({state.board.dig_cost} energy)."))
    else:
        events.append(Event("skip", f"The digging die on {space} is removed."))


def _next_or_done(state: FallingSkiesState, events: list[Event]) -> None:
    if not state.pending and not digging_dice(state):
        _robots_then_mothership(state, events)


def _robots_then_mothership(state: FallingSkiesState, events: list[Event]) -> None:
    """After phase 2: place the robots built (if they have room), then phase 3."""
    if state.new_robots and not robot_spaces(state):
        events.append(Event("robot", "No free excavated room for the new robot: it goes back to the supply."))
        state.robot_supply += len(state.new_robots)
        state.new_robots = []
    if state.new_robots:
        state.phase = "robot"
    else:
        mothership.mothership_phase(state, events)


# ---- room effects ------------------------------------------------------------


def _energy(state: FallingSkiesState, value: int, take: str, events: list[Event]) -> None:
    cap = state.board.energy_max
    before = state.energy
    if state.game.options["energy_room"] == "gain":
        state.energy = min(cap, before + value)
    else:
        state.energy = max(before, min(cap, value))
    events.append(Event("energy", f"Energy {before} -> {state.energy}."))


def _shoot(state: FallingSkiesState, value: int, take: str, events: list[Event]) -> None:
    explosion = state.board.explosion
    hit = [s for s in state.ships if s[0] > 0 and 0 < explosion[s[0]][s[1]] <= value]
    for ship in hit:
        state.ships.remove(ship)
        row, col, red = ship
        if red:
            state.red_supply += 1
        else:
            state.waiting[0] += 1
        events.append(Event("shot", f"Shot down the {'red' if red else 'green'} ship at row {row}, column {col + 1}."))
    if not hit:
        events.append(Event("shot", f"No ship stands on an explosion space of {value} or less."))


def _research(state: FallingSkiesState, value: int, take: str, events: list[Event]) -> None:
    track = state.board.research
    before = state.research
    left = value
    while state.research < len(track) and track[state.research] <= left:
        left -= track[state.research]
        state.research += 1
    events.append(
        Event(
            "research",
            f"Research advances {state.research - before} space(s): {state.research}/{len(track)}.",
        )
    )
    if state.research == len(track):
        state.finish("won", "the research is complete and the weapon destroys the mother ship", events)


def _robot(state: FallingSkiesState, value: int, take: str, events: list[Event]) -> None:
    """Build a robot: rebuild the placed one on ``take`` if named, else take a blue die from the
    supply; with neither, nothing is built."""
    if take:
        del state.slots[take]
        events.append(Event("robot", f"The robot on {take} is taken to be rebuilt."))
        left_behind = state.board.room_of[take]
        if left_behind.id in state.pending:  # not resolved yet, and now short of a die
            state.pending.remove(left_behind.id)
            events.append(Event("partial", f"Room {left_behind.id} is no longer full: its dice do nothing."))
            _clear(state, left_behind, events)
    elif state.robot_supply:
        state.robot_supply -= 1
    else:
        return
    built = min(value, state.board.robot_max)
    state.new_robots.append(built)
    events.append(Event("robot", f"A robot is built with value {built}; it is placed after all rooms resolve."))


EFFECTS = {"energy": _energy, "shoot": _shoot, "research": _research, "robot": _robot}


# ---- robots ------------------------------------------------------------------------


def robot_spaces(state: FallingSkiesState) -> list[str]:
    """Free excavated room spaces a new robot may go on (not anti-aircraft guns: see RULINGS)."""
    return [s for s in state.board.room_of if s not in state.slots and state.excavated(s)]


def place_robot(state: FallingSkiesState, space: str, events: list[Event]) -> None:
    value = state.new_robots.pop(0)
    state.slots[space] = (ROBOT, value)
    events.append(Event("robot", f"The robot ({value}) goes to work on {space}."))
    _robots_then_mothership(state, events)
