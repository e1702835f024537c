"""Starship Showdown: drafting behind privacy screens, then dice combat with reactions."""

from . import state, turns
from .game import Showdown

state.turns = turns

__all__ = ["Showdown"]
