"""The full-screen terminal table (Textual): :func:`play_at_table` plays one game on it."""

from __future__ import annotations

from spacetable.engine import State

from ..terminal import QuitGame
from .app import TableApp

LEAVE_WAIT = 5.0
"""Seconds to let the game's thread finish a bot's move once the person has left."""


def play_at_table(app: TableApp) -> State:
    """Play the game of ``app`` on the full-screen table until it ends; return the final state.
    :class:`QuitGame` when the person leaves the table (every action so far is in the app's
    record); a bug in a game or bot is raised as it happened."""
    app.run()
    if app.final is not None:
        return app.final
    app.leaving = True
    app.thread.join(LEAVE_WAIT)
    if app.failure is None or isinstance(app.failure, QuitGame):
        raise QuitGame("you left the table")
    raise app.failure


__all__ = ["TableApp", "play_at_table"]
