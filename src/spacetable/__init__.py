"""spacetable: a rules engine and digital tabletop for space strategy board games."""

from . import compiled

compiled.guard()  # before any game module is imported: a stale compiled build is never loaded

from .engine import list_games, load, load_finite  # noqa: E402

__version__ = "0.1.0"
__all__ = ["__version__", "list_games", "load", "load_finite"]
