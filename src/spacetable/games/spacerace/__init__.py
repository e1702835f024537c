"""SpaceRace: a race for the planets of a galaxy (rulebook: spacerace-rulebook.md)."""

from .game import SpaceRace

__all__ = ["SpaceRace"]
