"""SpaceRace: a race for the planets of a galaxy (rulebook: spacerace-rulebook.md)."""

from .game import SpaceRace
from .rules import dispatch, state

state.dispatch = dispatch

__all__ = ["SpaceRace"]
