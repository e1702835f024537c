"""Phase 3, "Move the mother ship": its symbol, its descent, obstructing ships, respawns.

Rulebook: resolve the symbol under the mother ship card's arrow, move the card one
row down (ships on the row it now covers go back onto it), then put every ship
waiting on the card on a free starting spot, preferring columns without a ship.
A ship landing on a mother ship icon also moves the card down, without the symbol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from ..content import ROBOT, SPOT, step_back
from .actions import Spawn

if TYPE_CHECKING:
    from .state import FallingSkiesState


def mothership_phase(state: FallingSkiesState, events: list[Event]) -> None:
    """Run phase 3 up to the respawn choices, or on to the next round."""
    symbol = state.board.track[state.mothership]
    apply_symbol(state, symbol, events)
    if state.phase == "over":
        return
    descend(state, events)
    if state.phase == "over":
        return
    if state.waiting[0] or state.waiting[1]:
        events.append(Event("respawn", f"Ships to respawn: {state.waiting[0]} green, {state.waiting[1]} red."))
    _respawn_or_next_round(state, events)


def apply_symbol(state: FallingSkiesState, symbol: str, events: list[Event]) -> None:
    """The effect of a mother ship track symbol (the SKULL is the descent's business)."""
    dig_back, research_back = step_back(symbol, "exc"), step_back(symbol, "res")
    if dig_back:
        before = state.excavator
        state.excavator = max(0, before - dig_back)
        events.append(
            Event("symbol", f"The mother ship pushes the excavator back {before - state.excavator} space(s).")
        )
        for space in [s for s, (color, _) in state.slots.items() if color == ROBOT and not state.excavated(s)]:
            del state.slots[space]
            state.robot_supply += 1
            events.append(Event("robot", f"The robot on {space} is lost with the collapsed room."))
    elif research_back:
        before = state.research
        state.research = max(0, before - research_back)
        events.append(Event("symbol", f"The mother ship sets the research back {before - state.research} space(s)."))
    elif symbol == "+red":
        if state.red_supply:
            state.red_supply -= 1
            state.waiting[1] += 1
            events.append(Event("symbol", "A red ship joins the mother ship."))
        else:
            events.append(Event("symbol", "No red ship is left to join the mother ship."))
    elif symbol == "dmg":
        state.take_damage(events, "the mother ship's bombardment")


def descend(state: FallingSkiesState, events: list[Event]) -> None:
    """Move the mother ship card one row down; ships on the row it covers go back onto it."""
    state.mothership += 1
    row = state.mothership
    events.append(Event("descend", f"The mother ship descends to row {row}."))
    if row >= state.board.skull_row:
        state.finish("lost", "the mother ship reached the skull", events)
        return
    for ship in [s for s in state.ships if s[0] == row]:
        state.ships.remove(ship)
        state.waiting[ship[2]] += 1
        events.append(Event("obstruct", f"The ship in column {ship[1] + 1} is taken back onto the mother ship."))


def spawn_columns(state: FallingSkiesState) -> list[int]:
    """Columns whose starting spot may take the next ship (0-based)."""
    cols = range(state.board.columns)
    on_spot = {c for r, c, _ in state.ships if r == SPOT}
    in_sky = {c for r, c, _ in state.ships if r != SPOT}
    free = [c for c in cols if c not in on_spot]
    preferred = [c for c in free if c not in in_sky]
    return preferred or free


def legal_spawns(state: FallingSkiesState) -> list[Action]:
    kinds = [red for red in (False, True) if state.waiting[red]]
    return [Spawn(c + 1, red) for red in kinds for c in spawn_columns(state)]


def spawn(state: FallingSkiesState, action: Spawn, events: list[Event]) -> None:
    state.waiting[action.red] -= 1
    state.ships.append((SPOT, action.column - 1, action.red))
    events.append(Event("spawn", f"A {'red' if action.red else 'green'} ship respawns above column {action.column}."))
    _respawn_or_next_round(state, events)


def _respawn_or_next_round(state: FallingSkiesState, events: list[Event]) -> None:
    if (state.waiting[0] or state.waiting[1]) and spawn_columns(state):
        state.phase = "respawn"
        return
    if state.waiting[0] or state.waiting[1]:
        events.append(Event("respawn", "Every starting spot is taken: the other ships wait for the next round."))
    state.round += 1
    state.phase = "roll"
    state.to_roll = list(state.board.dice)
    state.columns_used = 0
    state.dug = False
    events.append(Event("round", f"Round {state.round} begins."))
