"""Starship Showdown: drafting behind privacy screens, then dice combat with reactions."""

from .game import Showdown
from .rules import risk, state, turns

state.turns = turns
state.risk = risk

__all__ = ["Showdown"]
