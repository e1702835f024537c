"""Who is connected to a table through the other server processes (several processes on one
PostgreSQL, docs/WEB.md "Deployment"): each process announces the seats its own sockets play at
a table when they change and every ``PRESENCE_SECONDS``; an announcement not renewed within
``PRESENCE_TTL`` lapses (its process is gone)."""

from __future__ import annotations

import time
from collections.abc import Iterable

PRESENCE_SECONDS = 20.0
"""How often a process announces again who it has connected at each of its tables."""
PRESENCE_TTL = 3 * PRESENCE_SECONDS
"""How long an announcement holds: a process silent for longer has no one connected."""


def payload(seats: Iterable[int]) -> str:
    """The announcement's last word: ``p:`` and the seats, e.g. ``p:0,2`` (``p:`` for none)."""
    return "p:" + ",".join(str(seat) for seat in sorted(set(seats)))


def seats_of(word: str) -> frozenset[int] | None:
    """The seats of an announcement's last word; None if it is not one."""
    if not word.startswith("p:"):
        return None
    try:
        return frozenset(int(seat) for seat in word[2:].split(",") if seat)
    except ValueError:
        return None


class Elsewhere:
    """The seats other processes have connected at one table, as each last announced them."""

    def __init__(self) -> None:
        self._heard: dict[str, tuple[frozenset[int], float]] = {}

    def heard(self, origin: str, seats: frozenset[int]) -> bool:
        """Note ``origin``'s announcement; whether the seats connected elsewhere changed."""
        before = self.seats()
        self._heard[origin] = (seats, time.monotonic() + PRESENCE_TTL)
        return self.seats() != before

    def seats(self) -> frozenset[int]:
        """The seats connected through another process now (lapsed announcements forgotten)."""
        now = time.monotonic()
        self._heard = {origin: heard for origin, heard in self._heard.items() if heard[1] > now}
        return frozenset().union(*(seats for seats, _ in self._heard.values()))
