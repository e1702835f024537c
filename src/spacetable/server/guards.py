"""The server's guards against what a client may send or do (docs/WEB.md, "Limits and headers").

- :func:`read_body` reads a request body up to a limit without holding more than the limit, and
  parses it with :func:`spacetable.engine.safejson.read_json` (size, depth, number limits);
- :class:`SecurityHeaders` adds the security headers (:data:`SECURITY_HEADERS`) to every HTTP
  response;
- :class:`Origins` decides whether a WebSocket's ``Origin`` may open a table's socket;
- :class:`RateLimit` counts what each client address did in the last minute (new tables).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spacetable.engine.safejson import read_json

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # the boards' SVG (set with innerHTML) carries style="" attributes
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""The headers every HTTP response carries (a route may not override them)."""


class TooLarge(ValueError):
    """A request body over its limit; ``str()`` is the one-line reason (answered 413)."""


async def read_body(request: Request, limit: int) -> Any:
    """The request's body parsed as bounded JSON: :class:`TooLarge` when it is (or says it is)
    over ``limit`` bytes, found from ``Content-Length`` or while streaming, never holding more than
    ``limit`` bytes; ValueError in one sentence when it is not JSON within the limits."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the request is {int(declared):,} bytes; the limit is {limit:,}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the request is over the {limit:,}-byte limit")
        chunks.append(chunk)
    return read_json(b"".join(chunks), max_bytes=limit)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response that passes through it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def origin_of(url: str) -> str:
    """``url`` as a browser's ``Origin`` header writes it (``scheme://host[:port]``, lower case);
    ValueError for anything that is not an http(s) or ws(s) address without a path."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an origin such as https://games.example.org")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"{url!r} is not an origin: give only scheme://host[:port]")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{url!r} has a port that is not a number from 0 to 65535") from None
    default = {"http": 80, "https": 443}[parts.scheme.lower()]
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme.lower()}://{host}" + ("" if port in (None, default) else f":{port}")


class Origins:
    """Which ``Origin`` may open a WebSocket: none at all (a client that is not a browser), the
    address the page was served from (the request's ``Host``), or one of ``allowed``."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(origin_of(url) for url in allowed)

    def admits(self, origin: str | None, host: str | None) -> bool:
        if origin is None:
            return True
        try:
            theirs = origin_of(origin)
        except ValueError:
            return False  # "null" (a sandboxed frame, a file) or nonsense
        if theirs in self.allowed:
            return True
        if not host:
            return False
        served = set()
        for scheme in ("http", "https"):
            try:
                served.add(origin_of(f"{scheme}://{host}"))
            except ValueError:
                continue
        return theirs in served


class RateLimit:
    """At most ``per_minute`` events per key in any 60 seconds of ``clock`` (a sliding window)."""

    WINDOW = 60.0

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute < 1:
            raise ValueError(f"a rate limit must allow at least 1 a minute, not {per_minute}")
        self.per_minute = per_minute
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def take(self, key: str) -> float | None:
        """Count one event for ``key`` and return None, or, over the limit, count nothing and
        return the seconds until one more is allowed."""
        now = self.clock()
        if len(self._seen) > 10_000:  # forget the addresses that have been quiet for a minute
            self._seen = {k: q for k, q in self._seen.items() if q and q[-1] > now - self.WINDOW}
        times = self._seen.setdefault(key, deque())
        while times and times[0] <= now - self.WINDOW:
            times.popleft()
        if len(times) >= self.per_minute:
            return times[0] + self.WINDOW - now
        times.append(now)
        return None


class SocketLimit:
    """At most ``per_address`` table sockets open at once per client address."""

    def __init__(self, per_address: int) -> None:
        if per_address < 1:
            raise ValueError(f"a socket limit must allow at least 1 per address, not {per_address}")
        self.per_address = per_address
        self._open: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count one more socket from ``address``; False (nothing counted) if it has its most."""
        if self._open.get(address, 0) >= self.per_address:
            return False
        self._open[address] = self._open.get(address, 0) + 1
        return True

    def close(self, address: str) -> None:
        left = self._open.get(address, 0) - 1
        if left > 0:
            self._open[address] = left
        else:
            self._open.pop(address, None)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "Origins",
    "RateLimit",
    "SecurityHeaders",
    "TooLarge",
    "origin_of",
    "read_body",
    "retry_after",
]
