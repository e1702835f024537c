"""Setting up falling-skies positions for scenario tests, through the public JSON form."""

from __future__ import annotations

from typing import Any

import spacetable
from spacetable.engine import Action, Event, Record, Roll
from spacetable.games.falling_skies.rules.actions import Dig, Place, PlaceRobot, Resolve, Spawn
from spacetable.games.falling_skies.rules.state import FallingSkiesState

__all__ = [
    "Dig",
    "Place",
    "PlaceRobot",
    "Resolve",
    "Roll",
    "Spawn",
    "apply",
    "new_game",
    "placing",
    "position",
    "warning_position",
]


def new_game(**options: Any) -> Any:
    return spacetable.load("falling-skies", options=options)


def position(game: Any = None, **changes: Any) -> FallingSkiesState:
    """The initial state with some fields replaced (names as in ``to_json``)."""
    game = game or new_game()
    data = game.new_initial_state().to_json()
    unknown = set(changes) - set(data)
    assert not unknown, f"not state fields: {unknown}"
    data.update(changes)
    state = game.state_from_json(data)
    assert isinstance(state, FallingSkiesState)
    return state


def placing(dice: list[tuple[str, int]], game: Any = None, **changes: Any) -> FallingSkiesState:
    """A position in phase 1 with ``dice`` rolled and waiting to be placed."""
    return position(game, phase="place", to_roll=[], unplaced=[list(d) for d in dice], **changes)


def apply(state: FallingSkiesState, *actions: Any) -> list[Event]:
    """Apply actions in order (dice values as ints mean forced rolls); return all events."""
    events: list[Event] = []
    for action in actions:
        events += state.apply_action(Roll(action) if isinstance(action, int) else action)
    return events


def ships(state: FallingSkiesState) -> set[tuple[int, int, bool]]:
    """Ships as (row, column 1-based, red); row 0 is the starting spot."""
    return {(r, c + 1, red) for r, c, red in state.ships}


def _hastening(state: FallingSkiesState) -> Action:
    """The move that brings the ships down fastest: the highest die on the column whose lowest
    ship is nearest the city, no room used and no digging, else the first move offered."""
    actions = state.legal_actions()
    places = [a for a in actions if isinstance(a, Place)]
    if not places:
        return next((a for a in actions if not getattr(a, "use", True)), actions[0])
    lowest = {col: row for row, col, _ in sorted(state.ships)}
    column_of = state.board.column_of
    return max(places, key=lambda a: (lowest.get(column_of[a.space], -1), a.value, a.space))


def warning_position() -> tuple[dict[str, Any], int, str, str]:
    """A level-1 game where every die rolls a 6 and goes where it brings the ships down fastest,
    no room being used, up to the first decision where one legal move is warned of (it loses the
    game) and another is not: (the record's JSON, the seat deciding, the warned move's label (one
    that loses at once where there is one), a safe move's label)."""
    game = new_game(level=1)
    state = game.new_initial_state()
    record = Record.start(game, game.seat_names())
    for _ in range(1000):
        if state.is_chance_node():
            action: Action = Roll(6)
            seat = None
        else:
            seat = state.current_player()
            actions = state.legal_actions()
            warned = sorted(
                (a for a in actions if state.action_warning(a)),
                key=lambda a: "at once" not in str(state.action_warning(a)),
            )
            safe = [a for a in actions if not state.action_warning(a)]
            if warned and safe:
                return record.to_json(), seat, state.action_label(warned[0]), state.action_label(safe[0])
            action = _hastening(state)
        record.add(game, seat, action)
        state.apply_action(action, seat)
    raise AssertionError("no decision with a warned move and a safe one")
