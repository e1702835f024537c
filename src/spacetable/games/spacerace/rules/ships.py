"""Spaceships on the map: the plain record of one ship and how its scores are worked out.

A ship's scores are its card's [D|M|A] (for a mothership: its owner's design)
plus the changes of every treasure card attached to it, each at least 0. They
are kept in the record, and worked out again whenever its treasure changes.
"""

from __future__ import annotations

from typing import NamedTuple

from ..content import Content, Stats

MOTHERSHIP = -1
"""The ``card`` of a mothership (its scores are its owner's design, not a card's)."""


class Ship(NamedTuple):
    card: int
    """The spaceship card, or MOTHERSHIP."""
    name: str
    node: int
    treasure: tuple[int, ...]
    """Treasure card ids attached, in the order found."""
    d: int
    m: int
    a: int
    wait: int
    """Turn starts of its owner before it may move again (0: free to move)."""
    acted: bool
    """Moved this turn."""

    @property
    def is_mothership(self) -> bool:
        return self.card == MOTHERSHIP

    @property
    def stats(self) -> Stats:
        return (self.d, self.m, self.a)

    def label(self) -> str:
        """``Kestrel [3|4|3]``."""
        return f"{self.name} [{self.d}|{self.m}|{self.a}]"


def scores(base: Stats, treasure: tuple[int, ...], content: Content) -> Stats:
    """Base scores plus the treasure's changes, each at least 0."""
    d, m, a = base
    for card in treasure:
        t = content.treasure[card]
        d, m, a = d + t.d, m + t.m, a + t.a
    return (max(d, 0), max(m, 0), max(a, 0))


def new_ship(
    card: int, name: str, node: int, base: Stats, treasure: tuple[int, ...], content: Content, wait: int
) -> Ship:
    d, m, a = scores(base, treasure, content)
    return Ship(card, name, node, treasure, d, m, a, wait, False)


def with_treasure(ship: Ship, treasure: tuple[int, ...], base: Stats, content: Content) -> Ship:
    """The same ship carrying ``treasure`` instead, scores worked out again."""
    d, m, a = scores(base, treasure, content)
    return ship._replace(treasure=treasure, d=d, m=m, a=a)


def strength(ship: Ship) -> int:
    """The ship's total of scores, the tie-break of the final score."""
    return ship.d + ship.m + ship.a
