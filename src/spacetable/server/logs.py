"""The server's log lines for its operator (docs/WEB.md, "Operator's view"), with ``structlog``.

Three loggers write them:

- ``spacetable.server``: what went wrong or what the server did on its own (a table resumed, a
  bot that failed, a socket from a foreign origin): the stdlib ``logging`` calls of the modules;
- :data:`ACCESS` (``spacetable.server.access``): one line per HTTP request (``request``: method,
  path without its query string, route template, status, latency_ms, client address) and per
  table socket opened and closed (``socket open`` / ``socket close``: table, seat, client,
  duration_ms);
- :data:`EVENTS` (``spacetable.server.events``): one line per committed move (``move``: table,
  seat, by, n, latency_ms), at INFO.

:func:`configure` (``spacetable serve --log-format text|json --log-level LEVEL``) writes all three
to stderr in one format: JSON lines, or ``key=value`` lines (logfmt), a traceback kept on its
line. The access and event lines are structlog's own, rendered by the processors here; the
records of ``spacetable.server`` pass through a :class:`structlog.stdlib.ProcessorFormatter`
with the same processors and renderer. Until :func:`configure` is called the access and event
lines go nowhere (they never pass through ``logging``: an application that embeds ``create_app``,
or a test's log capture, is not sent a line per request), and the records of
``spacetable.server`` go wherever the process's own logging sends them.

No line carries a token, a header, a query string or the content of an action: the fields are
the ones listed above, and the callers pass nothing else.
"""

from __future__ import annotations

import logging
import sys
from typing import IO, Any, Literal

import structlog
from structlog.stdlib import ProcessorFormatter
from structlog.typing import EventDict, Processor

SERVER_LOGGER = "spacetable.server"
ACCESS_LOGGER = f"{SERVER_LOGGER}.access"
EVENTS_LOGGER = f"{SERVER_LOGGER}.events"
FORMATS = ("text", "json")
LEVELS = ("debug", "info", "warning", "error")

LogFormat = Literal["text", "json"]


def renderer(log_format: LogFormat) -> Processor:
    """The last processor: an event as a JSON object, or as logfmt ``key=value`` pairs (the
    timestamp, level, logger and event first)."""
    if log_format == "json":
        return structlog.processors.JSONRenderer()
    if log_format == "text":
        return structlog.processors.LogfmtRenderer(
            key_order=["timestamp", "level", "logger", "event"], drop_missing=True
        )
    raise ValueError(f"the log format is one of {', '.join(FORMATS)}, not {log_format!r}")


_METHOD_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "exception": logging.ERROR,
    "critical": logging.CRITICAL,
}
"""The level of each method of a structlog logger."""

_STAMPS: list[Processor] = [
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    structlog.processors.format_exc_info,
]
"""After the level and the logger's name: a timestamp (ISO 8601, UTC) and a traceback as text."""


class _Lines:
    """Where :func:`configure` sends the lines: its handler (whose stream and lock the records of
    ``spacetable.server`` share), its least level and its renderer; nowhere before."""

    def __init__(self) -> None:
        self.handler: logging.StreamHandler[IO[str]] | None = None
        self.level = logging.INFO
        self.render: Processor = renderer("text")

    def keep(self, logger: object, method: str, event_dict: EventDict) -> EventDict:
        """The first processor: drops the event when nothing is configured or below the level."""
        if self.handler is None or _METHOD_LEVELS.get(method, logging.INFO) < self.level:
            raise structlog.DropEvent
        return event_dict

    def last(self, logger: object, method: str, event_dict: EventDict) -> Any:
        return self.render(logger, method, event_dict)


class _Writer:
    """The logger structlog wraps: writes each rendered line through the configured handler."""

    def msg(self, line: str) -> None:
        handler = _LINES.handler
        if handler is None:
            return
        handler.acquire()
        try:
            handler.stream.write(line + "\n")
            handler.flush()
        finally:
            handler.release()

    debug = info = warning = error = critical = exception = msg


_LINES = _Lines()


def _structured(name: str) -> Any:
    """A structlog logger of the lines called ``name``."""

    def named(logger: object, method: str, event_dict: EventDict) -> EventDict:
        event_dict["logger"] = name
        return event_dict

    return structlog.wrap_logger(
        _Writer(),
        processors=[_LINES.keep, structlog.stdlib.add_log_level, named, *_STAMPS, _LINES.last],
        wrapper_class=structlog.BoundLogger,
        cache_logger_on_first_use=True,
    )


ACCESS = _structured(ACCESS_LOGGER)
"""The access log: ``ACCESS.info("request", method=..., ...)``."""
EVENTS = _structured(EVENTS_LOGGER)
"""The event log: ``EVENTS.info("move", table=..., ...)``."""


def formatter(log_format: LogFormat) -> ProcessorFormatter:
    """The formatter of the records of ``logging``: the same fields and renderer as the lines."""
    return ProcessorFormatter(
        processors=[
            structlog.stdlib.add_log_level,
            structlog.stdlib.add_logger_name,
            *_STAMPS,
            ProcessorFormatter.remove_processors_meta,
            renderer(log_format),
        ],
    )


def configure(log_format: LogFormat = "text", level: str = "info", stream: IO[str] | None = None) -> None:
    """Write the server's lines (``spacetable.server``, the access and the event lines) at
    ``level`` and above to ``stream`` (default: stderr) in ``log_format``; called again, it
    replaces what the earlier call set."""
    if level.lower() not in LEVELS:
        raise ValueError(f"the log level is one of {', '.join(LEVELS)}, not {level!r}")
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(formatter(log_format))
    reset()
    server = logging.getLogger(SERVER_LOGGER)
    server.setLevel(level.upper())
    server.propagate = False  # written once, here, whatever the process's root logger does
    server.addHandler(handler)
    _LINES.handler, _LINES.level, _LINES.render = handler, logging.getLevelName(level.upper()), renderer(log_format)


def reset() -> None:
    """Undo :func:`configure`: the records of ``spacetable.server`` propagate again, at the level
    its ancestors set, and the access and event lines go nowhere."""
    handler = _LINES.handler
    if handler is None:
        return
    server = logging.getLogger(SERVER_LOGGER)
    server.removeHandler(handler)
    server.setLevel(logging.NOTSET)
    server.propagate = True
    _LINES.handler = None


__all__ = ["ACCESS", "EVENTS", "FORMATS", "LEVELS", "LogFormat", "configure", "formatter", "renderer", "reset"]
