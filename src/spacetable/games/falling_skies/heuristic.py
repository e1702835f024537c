"""A falling-skies position's value for bots: what a player weighs at a glance."""

from __future__ import annotations

from .state import FallingSkiesState


def evaluate(state: FallingSkiesState) -> float:
    if state.phase == "over":
        return 1000.0 if state.result == "won" else -1000.0
    return float(state.research - state.damage - state.mothership)
