"""Mothership: a grid war of motherships, fighters and bombers (rulebook: mothership-base-rulebook.txt)."""

from . import rules, state
from .game import Mothership

state.rules = rules

__all__ = ["Mothership"]
