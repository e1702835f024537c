"""Starship Showdown: drafting behind privacy screens, then dice combat with reactions."""

from .game import Showdown

__all__ = ["Showdown"]
