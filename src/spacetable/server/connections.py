"""A client's socket at a table (``Connection``): its seat and the frames waiting for it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import messages
from .messages import Frame

if TYPE_CHECKING:
    from .tables import Table

OUTBOX = 64
"""Frames that may wait for one client; one more drops the client (it reconnects to resume)."""


@dataclass(eq=False)
class Connection:
    """One socket at a table: its seat (None: a spectator) and the frames waiting to be sent.

    An update is queued as ``None`` and built when it is sent, from the table as it is then, so a
    slow client is sent one current update rather than a backlog of old ones. At most ``OUTBOX``
    frames wait: a client that reads slower than that is dropped (``too_slow`` is set, the frames
    are let go) and may reconnect with its ``since`` to resume."""

    seat: int | None
    sent_n: int
    """Events numbered up to this have been sent."""
    outbox: asyncio.Queue[Frame | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    too_slow: asyncio.Event = field(default_factory=asyncio.Event)
    _update_queued: bool = False

    def send(self, frame: Frame | None) -> None:
        """Queue ``frame`` (None: an update); drop the client if its queue is full."""
        if self.too_slow.is_set():
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            self.too_slow.set()
            while not self.outbox.empty():
                self.outbox.get_nowait()

    def send_update(self) -> None:
        if not self._update_queued:
            self._update_queued = True
            self.send(None)

    async def next_frame(self, table: Table) -> Frame:
        item = await self.outbox.get()
        if item is not None:
            return item
        self._update_queued = False
        frame = messages.update(table, self.seat, self.sent_n)
        self.sent_n = table.n
        return frame
