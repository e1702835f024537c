"""Mothership: a grid war of motherships, fighters and bombers (rulebook: mothership-base-rulebook.txt)."""

from .game import Mothership
from .rules import dispatch, state

state.dispatch = dispatch

__all__ = ["Mothership"]
