"""Tools for testing games: the conformance suite every game passes, and a toy game to test it on.

``spacetable.testing.conformance.run_all(game)`` runs every check; see that
module for what each one asks of a game. ``spacetable.testing.toygame`` holds a
tiny hidden-information game (not registered) that shows the protocol end to end.
"""

from .conformance import CHECKS, run_all

__all__ = ["CHECKS", "run_all"]
