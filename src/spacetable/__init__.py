"""spacetable: a rules engine and digital tabletop for space strategy board games."""

from .engine import list_games, load, load_finite

__version__ = "0.1.0"
__all__ = ["__version__", "list_games", "load", "load_finite"]
