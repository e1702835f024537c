"""Random play to a position a test needs."""

from __future__ import annotations

import random
from collections.abc import Callable

from spacetable.engine import State


def advance(state: State, rng: random.Random, until: Callable[[State], bool]) -> State:
    """Play random legal actions (chance outcomes sampled) until ``until(state)`` holds; the
    game must not end before."""
    while not until(state):
        assert not state.is_terminal(), "the game ended before the position was reached"
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return state
