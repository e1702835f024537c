"""The server's Prometheus metrics (docs/WEB.md, "Operator's view"), with ``prometheus-client``.

One :class:`Metrics` per application (``create_app`` keeps it as ``app.state.metrics``; the hall
holds it as ``Tables.metrics``), each with its own ``CollectorRegistry``, never the process's
global one: several applications in one process (the tests) count apart. ``GET /metrics`` answers
:meth:`Metrics.exposition`.

- ``spacetable_sockets_open{role}``: open table sockets, ``role`` ``player`` or ``spectator``;
- ``spacetable_tables_loaded``: tables in memory (read from the hall when scraped);
- ``spacetable_moves_total{by}``: committed moves, ``by`` ``person``, ``bot``, ``clock`` (a bot
  moved for a person whose clock ran out) or ``chance``; moves per second is its ``rate()``;
- ``spacetable_act_latency_seconds``: for each accepted ``act`` frame, the seconds from its
  arrival on the socket to the moment the first update that shows the move (its ``n`` at least
  the move's) is built for that same socket and handed to it to send (:class:`Acts`): the checks,
  the commit, the chance outcomes that follow it, and the building of the seat's view;
- ``spacetable_refusals_total{reason}``: refusals, ``reason`` one of :data:`REASONS` (a fixed
  category, never the refusal's text; :func:`refusal_reason`);
- ``spacetable_bot_decision_seconds{level}``: the wall time of each bot decision (the worker's
  thinking and the trip to it), by bot level (``greedy`` for a clock's);
- ``spacetable_http_requests_total{method, route, status}``: HTTP requests by route template
  (``/api/tables/{table_id}/record``, ``unmatched`` for a path no route has), counted by
  :class:`Observe`, which also writes each request's access line (``logs.ACCESS``).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import logs

if TYPE_CHECKING:
    from .tables import Table

__all__ = [
    "CONTENT_TYPE_LATEST",
    "MOVERS",
    "REASONS",
    "ROLES",
    "Acts",
    "Metrics",
    "Observe",
    "move_started",
    "refusal_reason",
]

ROLES = ("player", "spectator")
MOVERS = ("person", "bot", "clock", "chance")
REASONS = (
    "stale",  # made on an old update
    "not_your_turn",  # the seat owes no decision, or a bot plays it now
    "duplicate",  # a message id already received
    "illegal",  # an action the game does not know or the rules refuse
    "game_over",
    "spectator",  # a spectator's act, vote or take-back
    "bad_frame",  # not JSON within the limits, not an object, an unknown type, a malformed field
    "too_large",  # a frame or a request body over its size limit
    "unsaved",  # the move or seat change could not be stored
    "rate_limited",  # too many new tables from one address
    "bad_origin",  # a socket from a page of another origin
    "bad_token",  # a hello or a record request with a token that is no seat's
    "bad_hello",  # a socket whose first frame is no hello, or none in time
    "no_table",  # a socket to a table there is none of
    "too_slow",  # a client that read too slowly, dropped
    "too_many_sockets",  # a socket over the limit of one address
    "other",
)
"""The ``reason`` label of ``spacetable_refusals_total``: a fixed set, each counted from 0."""

_PHRASES = (
    ("stale move", "stale"),
    ("owes no decision", "not_your_turn"),
    ("a bot plays seat", "not_your_turn"),
    ("already received", "duplicate"),
    ("the game is over", "game_over"),
    ("spectators", "spectator"),
    ("only a player", "spectator"),
    ("could not be saved", "unsaved"),
    ("failed to apply", "other"),  # a bug in a game, logged
    ("-byte limit", "too_large"),
    ("frames must be json", "bad_frame"),
    ("the frame is not json", "bad_frame"),
    ("a frame must be", "bad_frame"),
    ("unknown frame type", "bad_frame"),
    ("'id' must be", "bad_frame"),
    ("'n' must be", "bad_frame"),
    ("a vote is {", "bad_frame"),
)
"""The words of the server's refusals (``tables.py``, ``app.py``) and the category each is counted as."""

ACT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

_move_started: ContextVar[float | None] = ContextVar("spacetable_move_started", default=None)
"""When (``time.perf_counter()``) the move this task is making began: a person's act frame
arrived, or a bot's decision started (the event log's ``latency_ms`` counts from it)."""


def refusal_reason(kind: object, reason: str) -> str:
    """The category (one of :data:`REASONS`) of a refused frame of type ``kind`` whose one-line
    ``reason`` the client is sent: by the refusal's words; an act refused otherwise is one the
    game does not decode or the rules refuse (``illegal``)."""
    text = reason.lower()
    for phrase, category in _PHRASES:
        if phrase in text:
            return category
    return "illegal" if kind == "act" else "other"


@contextlib.contextmanager
def move_started(since: float) -> Iterator[None]:
    """Within the block, a move committed is logged with its latency from ``since``."""
    token = _move_started.set(since)
    try:
        yield
    finally:
        _move_started.reset(token)


class Metrics:
    """The metrics of one application, in their own registry (module docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.sockets = Gauge("spacetable_sockets_open", "Open table sockets.", ["role"], registry=registry)
        self.tables = Gauge("spacetable_tables_loaded", "Tables in memory.", registry=registry)
        self.moves = Counter("spacetable_moves", "Committed moves, by who made them.", ["by"], registry=registry)
        self.act_latency = Histogram(
            "spacetable_act_latency_seconds",
            "From an accepted act frame's arrival to the first update showing the move built for its socket.",
            buckets=ACT_BUCKETS,
            registry=registry,
        )
        self.refusals = Counter(
            "spacetable_refusals", "Refused frames, sockets and requests, by category.", ["reason"], registry=registry
        )
        self.bot_decisions = Histogram(
            "spacetable_bot_decision_seconds",
            "Wall time of each bot decision, by level.",
            ["level"],
            buckets=BOT_BUCKETS,
            registry=registry,
        )
        self.http_requests = Counter(
            "spacetable_http_requests",
            "HTTP requests, by method, route template and status.",
            ["method", "route", "status"],
            registry=registry,
        )
        for role in ROLES:
            self.sockets.labels(role)
        for by in MOVERS:
            self.moves.labels(by)
        for reason in REASONS:
            self.refusals.labels(reason)

    def exposition(self) -> bytes:
        """Every metric in the text exposition format (``CONTENT_TYPE_LATEST``)."""
        return generate_latest(self.registry)

    def count_tables(self, loaded: Callable[[], int]) -> None:
        """Read ``spacetable_tables_loaded`` from ``loaded`` (the hall's) whenever scraped."""
        self.tables.set_function(loaded)

    # ---- sockets and refusals --------------------------------------------------------------
    def socket_opened(self, seat: int | None) -> None:
        self.sockets.labels(_role(seat)).inc()

    def socket_closed(self, seat: int | None) -> None:
        self.sockets.labels(_role(seat)).dec()

    def refused(self, reason: str) -> None:
        """Count a refusal; ``reason`` one of :data:`REASONS` (anything else counts as ``other``)."""
        self.refusals.labels(reason if reason in REASONS else "other").inc()

    def acts(self) -> Acts:
        """A socket's record of its accepted acts, for ``spacetable_act_latency_seconds``."""
        return Acts(self.act_latency)

    # ---- moves and bots --------------------------------------------------------------------
    def moved(self, table: Table, seat: int | None, by: str) -> None:
        """A move of ``seat`` was committed at ``table`` (``table.n`` is its number): count it and
        write its event line, with its latency from the act frame's arrival (a person's move) or
        the start of the bot's decision (a bot's or a clock's), or null (chance)."""
        self.moves.labels(by).inc()
        since = None if by == "chance" else _move_started.get()
        latency = None if since is None else round((time.perf_counter() - since) * 1000, 3)
        logs.EVENTS.info("move", table=table.id, seat=seat, by=by, n=table.n, latency_ms=latency)

    @contextlib.contextmanager
    def deciding(self, level: str) -> Iterator[None]:
        """Time a bot's decision (``spacetable_bot_decision_seconds{level}``); the move that follows
        in this task (a bot's own) is logged with its latency from the decision's start."""
        start = time.perf_counter()
        _move_started.set(start)
        try:
            yield
        finally:
            self.bot_decisions.labels(level).observe(time.perf_counter() - start)


def _role(seat: int | None) -> str:
    return "spectator" if seat is None else "player"


class Acts:
    """The accepted acts of one socket whose move it has not been shown yet: each is timed until
    the first update with its ``n`` (or a later one) is built for the socket."""

    def __init__(self, histogram: Histogram) -> None:
        self._histogram = histogram
        self._waiting: deque[tuple[int, float]] = deque()

    def accepted(self, n: int, since: float) -> None:
        """The act that arrived at ``since`` (``time.perf_counter()``) was committed as move ``n``."""
        self._waiting.append((n, since))

    def shown(self, n: int) -> None:
        """An update of ``n`` is about to be sent: the acts it shows are timed."""
        now = time.perf_counter()
        while self._waiting and self._waiting[0][0] <= n:
            _, since = self._waiting.popleft()
            self._histogram.observe(now - since)


class Observe:
    """ASGI middleware: counts each HTTP request in ``spacetable_http_requests_total`` by its route
    template and writes its access line (``logs.ACCESS``): method, path (never the query string),
    route, status, latency_ms, client address. Sockets and the lifespan pass through."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500  # unless a response starts: an exception, or a client gone first

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            method = str(scope.get("method", "GET")).upper()
            route = _route_of(scope)
            self.metrics.http_requests.labels(method if method in HTTP_METHODS else "other", route, str(status)).inc()
            client = scope.get("client")
            logs.ACCESS.info(
                "request",
                method=method[:16],
                path=str(scope.get("path", ""))[:200],
                route=route,
                status=status,
                latency_ms=round((time.perf_counter() - start) * 1000, 3),
                client=client[0] if client else None,
            )


def _route_of(scope: Scope) -> str:
    """The template of the route that answered (``/t/{table_id}``, ``/static``), else ``unmatched``."""
    route: Any = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"
