"""How hard the long checks try: a small fixed budget in `make test` (CI stays under ten minutes
on two cores), a larger one in `make soak` (SPACETABLE_SOAK=1)."""

from __future__ import annotations

import os

SOAK = os.environ.get("SPACETABLE_SOAK") == "1"


def playouts(test: int, soak: int) -> int:
    """The number of playouts a conformance check walks: ``test`` in the suite, ``soak`` in a soak."""
    return soak if SOAK else test


def rounds(test: int, soak: int) -> int:
    """The round limit of a long game a conformance check walks (the same budget as ``playouts``)."""
    return playouts(test, soak)
