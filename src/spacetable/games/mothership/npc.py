"""Chapter 14, the solo challenge: the NPC fleet's set-up and its scripted turns.

Filled in below; ``deploy`` places the fleet, ``proceed`` plays the NPC's turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Event

if TYPE_CHECKING:
    from .state import MothershipState


def deploy(state: MothershipState) -> None:
    """The NPC's fleet on the board, its control panel and its tech tree (by level)."""


def proceed(state: MothershipState, events: list[Event]) -> None:
    """Play the NPC's turn on until it needs dice (a chance node), a human's answer, or it ends."""
