"""The expansion's two card decks, beacons and objectives, kept alike.

Copies of each kind in the deck and in the discard pile (the order is chance's), and the cards
that need a module."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacetable.engine import Action

from ..content.language import ABSENT

if TYPE_CHECKING:
    from ..game import Mothership


def outcomes(deck: list[int], draw: Callable[[int], Action]) -> list[tuple[Action, float]]:
    """The top card of ``deck`` as a chance node: each kind weighted by its copies."""
    total = sum(deck)
    return [(draw(card), copies / total) for card, copies in enumerate(deck) if copies]


def refill(deck: list[int], discard: list[int]) -> None:
    """An empty ``deck`` takes the ``discard`` pile back, in place (shuffled: draws are chance's)."""
    if not sum(deck):
        deck[:], discard[:] = discard, [0] * len(discard)


def lacking(game: Mothership, requires: list[str]) -> list[str]:
    """The modules of ``requires`` not in ``game`` (spacetable's absent ones never are)."""
    present = set(game.modules) | {game.mode}
    return [m for m in requires if m in ABSENT or m not in present]


def dry(deck: list[int], discard: list[int], playable: Callable[[int], bool]) -> bool:
    """Whether no card that can be played (``playable``) is left in the deck or the discard pile."""
    return not any((copies or discard[card]) and playable(card) for card, copies in enumerate(deck))
