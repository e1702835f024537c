"""Starship Showdown: drafting behind privacy screens, then dice combat with reactions."""

from .game import Showdown
from .rules import state, turns

state.turns = turns

__all__ = ["Showdown"]
