"""Under Falling Skies, 9-card solo edition (rulebook: solo-base-defense-rulebook.txt)."""

from .game import FallingSkies
from .rules import dispatch, state

state.dispatch = dispatch

__all__ = ["FallingSkies"]
