"""The server's refusals: a message or request that changes nothing, a table that cannot be had."""

from __future__ import annotations


class Refused(Exception):
    """A message or request that changes nothing; ``str()`` is the one-line reason for the client."""


class BadToken(Refused):
    """A hello whose token is not one of the table's seats."""


class Conflict(Refused):
    """Another process committed the table's next action first; the table has caught up with it."""


class TableUnavailable(Exception):
    """No such table, or one that cannot be rebuilt; ``str()`` says which, in one line."""


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
