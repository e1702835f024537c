"""Under Falling Skies, 9-card solo edition (rulebook: solo-base-defense-rulebook.txt)."""

from . import rules, state
from .game import FallingSkies

state.rules = rules

__all__ = ["FallingSkies"]
