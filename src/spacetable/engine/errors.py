"""The engine's exceptions: every one names what is wrong in words a player can act on."""

from __future__ import annotations


class SpacetableError(Exception):
    """Base of every error spacetable raises on purpose."""


class IllegalActionError(SpacetableError, ValueError):
    """An action that is well formed but not allowed now; the state is unchanged."""


class MalformedActionError(IllegalActionError):
    """A value that is not an action of this game at all; the state is unchanged."""


class OptionsError(SpacetableError, ValueError):
    """Unknown game, bad player count or bad game options."""


class ContentError(SpacetableError, ValueError):
    """A content file (cards, boards, tables) failed validation."""


class RecordError(SpacetableError, ValueError):
    """A game record that cannot be read, belongs to another game, or does not replay."""
