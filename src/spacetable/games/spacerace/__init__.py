"""SpaceRace: a race for the planets of a galaxy (rulebook: spacerace-rulebook.md)."""

from . import rules, state
from .game import SpaceRace

state.rules = rules

__all__ = ["SpaceRace"]
