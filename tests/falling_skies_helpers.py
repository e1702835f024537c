"""Setting up falling-skies positions for scenario tests, through the public JSON form."""

from __future__ import annotations

from typing import Any

import spacetable
from spacetable.engine import Event, Roll
from spacetable.games.falling_skies.rules.actions import Dig, Place, PlaceRobot, Resolve, Spawn
from spacetable.games.falling_skies.rules.state import FallingSkiesState

__all__ = ["Dig", "Place", "PlaceRobot", "Resolve", "Roll", "Spawn", "apply", "new_game", "placing", "position"]


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
