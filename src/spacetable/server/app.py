"""The FastAPI application: the HTTP routes, the WebSocket endpoint and the static client (docs/WEB.md).

Every error a client can cause is JSON ``{"error": "one line"}`` with a 4xx status (a refused
frame on the socket); no traceback ever reaches a client. Every JSON a client sends is read within
``safejson``'s limits, every response carries the security headers, a WebSocket from a foreign
``Origin`` is refused and new tables are limited per client address (``guards``, docs/WEB.md
"Limits and headers").

``GET /metrics`` is the operator's view (``metrics``, docs/WEB.md "Operator's view"): each request
is counted and written to the access log (``metrics.Observe``), each table socket when it opens
and closes, each refusal by its category, and each accepted act's time until its update is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from spacetable.agents import AGENTS
from spacetable.engine import Game, SpacetableError, list_games, load
from spacetable.engine.lessons import Lesson
from spacetable.engine.safejson import check_plain, read_json

from . import guards, lessons, messages, pages
from .bots import TABLE_SECONDS, BotPool
from .connections import OUTBOX, Connection
from .errors import BadToken, Refused, TableUnavailable, one_line
from .hall import GRACE, IDLE_SECONDS, Tables
from .logs import ACCESS
from .logs import configure as configure_logs
from .metrics import CONTENT_TYPE_LATEST, Acts, Metrics, Observe, move_started, refusal_reason
from .requests import TableSpec
from .storage import Storage, default_url
from .tables import Table

log = logging.getLogger("spacetable.server")

STATIC = Path(__file__).parent / "static"
MAX_FRAME = 16 * 1024
"""Largest client frame, in bytes of UTF-8: a larger one is refused and the socket stays open."""
MAX_WIRE_FRAME = 4 * MAX_FRAME
"""Largest frame ``spacetable serve`` lets uvicorn read at all (``ws_max_size``): a larger one
closes the socket with 1009 before it is read whole."""
MAX_BODY = 1024 * 1024
"""Largest request body (a new table with a content override), in bytes."""
MAX_LESSON_BODY = 64 * 1024
"""Largest lesson request (the learner's moves from the lesson's start), in bytes."""
SOCKETS_PER_ADDRESS = 64
"""Table sockets one client address may hold open at once by default (``--sockets-per-address``)."""
MAX_TABLES = 10_000
"""Unfinished tables a server holds at most by default (``spacetable serve --max-tables``)."""
HELLO_SECONDS = 30.0
"""A socket that says no hello within this is closed."""
READY_SECONDS = 5.0
"""``/readyz`` answers 503 when the database takes longer than this."""
CLOSE_BAD_TOKEN, CLOSE_NO_TABLE, CLOSE_BAD_HELLO, CLOSE_BAD_ORIGIN, CLOSE_TOO_SLOW = 4401, 4404, 4400, 4403, 4408
CLOSE_TOO_MANY = 4429
CLOSE_SECONDS = 5.0
"""How long closing a dropped client's socket may take before it is left to uvicorn."""


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status, headers=headers)


def create_app(
    db_url: str | None = None,
    *,
    data_dir: Path | str | None = None,
    bot_workers: int | None = None,
    bot_seconds: float | None = TABLE_SECONDS,
    bot_pace: float = 0.0,
    grace: float = GRACE,
    allowed_origins: Iterable[str] = (),
    tables_per_minute: int | None = 30,
    max_tables: int | None = MAX_TABLES,
    sockets_per_address: int | None = SOCKETS_PER_ADDRESS,
    idle_seconds: float = IDLE_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The web table on the database ``db_url`` (default: ``tables.sqlite3`` in ``data_dir``, by
    default the user data directory). The database is opened and migrated here, so a bad URL
    raises now; the tables are rebuilt and the bots start when the application starts.

    ``bot_seconds`` caps the wall time of a bot's decision (None: each level's own budget);
    ``bot_pace`` is the least time between two bot moves told at a table (0, the default here,
    tells them at once; ``spacetable serve`` paces them, docs/WEB.md); ``grace`` is how long an
    absent person's seat is kept for them before the others may hand it to a bot.

    ``allowed_origins``: the origins (``https://host[:port]``) besides the served host's whose
    pages may open a table's WebSocket (ValueError for one that is not an origin);
    ``tables_per_minute``: how many tables one client address may create in any minute of
    ``clock`` (None: no limit); ``max_tables``: how many unfinished tables the database may hold
    before new ones are refused with 503 (None: no limit); ``sockets_per_address``: how many
    table sockets one client address may hold open at once (None: no limit); ``idle_seconds``:
    how long a table with nobody connected and nothing pending stays in memory."""
    if bot_seconds is not None and bot_seconds <= 0:
        raise ValueError(f"the bots' cap must be positive seconds or None, not {bot_seconds}")
    if bot_pace < 0:
        raise ValueError(f"the bots' pace cannot be negative: {bot_pace} s")
    if grace < 0:
        raise ValueError(f"the grace period cannot be negative: {grace} s")
    origins = guards.Origins(allowed_origins)
    limit = None if tables_per_minute is None else guards.RateLimit(tables_per_minute, clock)
    if db_url is None:
        db_url = default_url() if data_dir is None else f"sqlite:///{Path(data_dir) / 'tables.sqlite3'}"
    storage = Storage(db_url)
    observed = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        bots = BotPool(bot_workers, bot_seconds)
        hall = Tables(storage, bots, bot_pace, grace, idle_seconds, metrics=observed)
        observed.count_tables(lambda: hall.loaded)
        app.state.tables = hall
        try:
            await hall.start()
            yield
        finally:
            await hall.stop()
            bots.close()
            storage.close()

    app = FastAPI(title="spacetable", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.db_url = db_url
    app.state.storage = storage
    app.state.origins = origins
    app.state.table_limit = limit
    app.state.max_tables = max_tables
    app.state.socket_limit = None if sockets_per_address is None else guards.SocketLimit(sockets_per_address)
    app.state.metrics = observed
    app.add_middleware(guards.SecurityHeaders)
    app.add_middleware(Observe, metrics=observed)  # outermost: it sees the status the client is sent
    _add_error_handlers(app)
    _add_routes(app)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


SETTINGS_ENV = "SPACETABLE_SERVE_SETTINGS"
"""Where ``spacetable serve --workers N`` hands each worker process its settings (JSON)."""


def app_from_environment() -> FastAPI:
    """A worker's application (``spacetable serve --workers N``, uvicorn's factory): its logs set up
    and ``create_app`` called with the keyword arguments in ``SETTINGS_ENV``'s JSON, whose
    ``"logs"`` is ``[format, level]``."""
    settings = json.loads(os.environ[SETTINGS_ENV])
    configure_logs(*settings.pop("logs"))
    return create_app(**settings)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(Exception)
    async def internal_error(_: Request, exc: Exception) -> JSONResponse:
        log.error("internal error", exc_info=exc)
        # answered by the outermost middleware, outside SecurityHeaders: the headers come here
        return _error(500, "internal server error (logged)", guards.SECURITY_HEADERS)


def _tables(request: Request | WebSocket) -> Tables:
    hall: Tables = request.app.state.tables
    return hall


def _metrics(request: Request | WebSocket) -> Metrics:
    found: Metrics = request.app.state.metrics
    return found


async def _table(request: Request, table_id: str) -> Table:
    try:
        return await _tables(request).get(table_id)
    except TableUnavailable as exc:
        raise HTTPException(404, str(exc)) from None


def _game(game_id: str) -> Game:
    """The game ``game_id`` with its default content; 404 for a game nobody registered."""
    try:
        return load(game_id)
    except SpacetableError as exc:
        raise HTTPException(404, str(exc)) from None


def _lesson(game_id: str, lesson_id: str) -> Lesson:
    """The lesson ``lesson_id`` of ``game_id``; 404 naming the lessons there are."""
    try:
        return lessons.lesson(game_id, lesson_id)
    except lessons.NoLesson as exc:
        raise HTTPException(404, str(exc)) from None


def _add_routes(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [
            {
                "id": cls.id,
                "name": cls.name,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "default_players": cls.usual_players(),
                "options": [
                    {
                        "name": name,
                        "label": spec.named(name),
                        "default": spec.default,
                        "help": spec.help,
                        "choices": None if spec.choices is None else list(spec.choices),
                        # by the value as JS's String() writes it ("null", "true", "2", "hidden")
                        "choice_labels": {
                            value if isinstance(value, str) else json.dumps(value): text
                            for value, text in spec.choice_labels.items()
                        },
                        "kind": spec.kind.__name__,
                        "group": spec.group or "Options",
                        "requires": [need.to_json() for need in spec.requires],
                        "seat": spec.seat,
                    }
                    for name, spec in cls.option_specs.items()
                ],
                "bots": sorted(AGENTS),
            }
            for cls in list_games()
        ]

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        """The process is up and answers."""
        return {"status": "ok"}

    @app.get("/readyz")
    async def readyz(request: Request) -> JSONResponse:
        """The database answers and its migrations are at head; 503 with the reason otherwise."""
        storage: Storage = request.app.state.storage
        try:
            reason = await asyncio.wait_for(asyncio.to_thread(storage.unready), READY_SECONDS)
        except TimeoutError:
            reason = f"the database did not answer within {READY_SECONDS:g} s"
        if reason is not None:
            log.warning("not ready: %s", one_line(reason))
            return _error(503, reason)
        return JSONResponse({"status": "ok"})

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """The Prometheus metrics of this application (``metrics.Metrics``), as text."""
        return Response(_metrics(request).exposition(), media_type=CONTENT_TYPE_LATEST)

    @app.post("/api/tables", status_code=201)
    async def new_table(request: Request) -> JSONResponse:
        limit: guards.RateLimit | None = request.app.state.table_limit
        if limit is not None:
            wait = limit.take(request.client.host if request.client else "")
            if wait is not None:
                _metrics(request).refused("rate_limited")
                return _error(
                    429,
                    f"too many new tables from your address: {limit.per_minute} a minute; "
                    f"try again in {guards.retry_after(wait)} s",
                    {"Retry-After": guards.retry_after(wait)},
                )
        try:
            data = await guards.read_body(request, MAX_BODY)
        except guards.TooLarge as exc:
            _metrics(request).refused("too_large")
            return _error(413, str(exc))
        except ValueError as exc:
            return _error(400, f"the request body must be JSON within the limits: {exc}")
        try:
            spec = TableSpec.parse(data)
        except Refused as exc:
            return _error(400, str(exc))
        most: int | None = request.app.state.max_tables
        if most is not None and await asyncio.to_thread(request.app.state.storage.unfinished) >= most:
            return _error(503, f"this server holds {most} unfinished games, its most; try again once some end")
        created = await _tables(request).create(spec)
        return JSONResponse(created.to_json(), status_code=201)

    @app.get("/api/tables")
    async def tables(request: Request) -> list[dict[str, Any]]:
        return await _tables(request).lobby()

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        """The record as a download: the whole of it after the game; during the game only the copy
        of the seat whose token comes as ``Authorization: Bearer <token>`` (what it may know)."""
        table = await _table(request, table_id)
        if table.state.is_terminal():
            record = messages.record(table)
        else:
            scheme, _, token = request.headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                _metrics(request).refused("bad_token")
                return _error(
                    403, "during the game a seat's record is sent only with its token (Authorization: Bearer)"
                )
            try:
                seat = table.seat_of(token.strip())
            except BadToken as exc:
                _metrics(request).refused("bad_token")
                return _error(403, str(exc))
            assert seat is not None  # a token is always a seat's, never a spectator's
            record = await asyncio.to_thread(messages.record(table).as_known_by, seat)
        filename = f"{table.game.id}-{table.id}.json"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"}
        return Response(record.dumps(), media_type="application/json", headers=headers)

    @app.get("/api/tables/{table_id}/replay/{k}")
    async def replay(request: Request, table_id: str, k: int, seat: int | None = None) -> JSONResponse:
        table = await _table(request, table_id)
        if not table.state.is_terminal():
            return _error(409, "replays are available once the game has ended")
        if not 0 <= k <= table.n:
            return _error(400, f"k must be from 0 to {table.n}")
        if seat is not None and not 0 <= seat < table.game.players:
            return _error(400, f"seat must be from 0 to {table.game.players - 1}, or absent for a spectator")
        return JSONResponse(messages.replay(table, k, seat))

    @app.get("/learn/{game_id}/{lesson_id}", include_in_schema=False)
    async def lesson_page(game_id: str, lesson_id: str) -> FileResponse:
        await asyncio.to_thread(_lesson, game_id, lesson_id)
        return FileResponse(STATIC / "table.html")

    @app.get("/api/lessons")
    async def all_lessons() -> list[dict[str, Any]]:
        return await asyncio.to_thread(lessons.catalogue)

    @app.post("/api/lessons/{game_id}/{lesson_id}")
    async def lesson_move(request: Request, game_id: str, lesson_id: str) -> JSONResponse:
        """The lesson played again from its start with the learner's moves (docs/WEB.md, "Lessons")."""
        found = await asyncio.to_thread(_lesson, game_id, lesson_id)
        try:
            data = await guards.read_body(request, MAX_LESSON_BODY)
            check_plain(data, "the JSON", max_depth=8)
        except guards.TooLarge as exc:
            _metrics(request).refused("too_large")
            return _error(413, str(exc))
        except ValueError as exc:
            return _error(400, f'the request body must be JSON {{"moves": [action JSON, ...]}}: {exc}')
        try:
            moves = lessons.moves_of(data, found)
            run, reply = await asyncio.to_thread(lessons.play, found, moves)
        except Refused as exc:
            return _error(400, str(exc))
        return JSONResponse(await asyncio.to_thread(lessons.frame, run, reply))

    @app.get("/howto/{game_id}", include_in_schema=False)
    async def how_to_play(game_id: str) -> HTMLResponse:
        return HTMLResponse(pages.how_to_play(_game(game_id)))

    @app.get("/rulings/{game_id}", include_in_schema=False)
    async def rulings(game_id: str) -> HTMLResponse:
        game = _game(game_id)
        text = game.rulings()
        if text is None:
            raise HTTPException(404, f"{game.name} has no rulings page")
        return HTMLResponse(pages.rulings(game, text))

    @app.get("/api/glossary/{game_id}")
    async def glossary(game_id: str) -> dict[str, str]:
        return _game(game_id).glossary()

    @app.websocket("/ws/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        origin = ws.headers.get("origin")
        origins: guards.Origins = ws.app.state.origins
        if not origins.admits(origin, ws.headers.get("host")):
            log.warning("table %.16s: a socket from origin %.80r refused", table_id, origin)
            await _close(ws, CLOSE_BAD_ORIGIN, "this server does not accept sockets from the page's origin")
            return
        sockets: guards.SocketLimit | None = ws.app.state.socket_limit
        address = ws.client.host if ws.client else ""
        if sockets is not None and not sockets.open(address):
            await _close(ws, CLOSE_TOO_MANY, f"too many sockets from your address: {sockets.per_address} at most")
            return
        try:
            await _table_socket(ws, table_id)
        finally:
            if sockets is not None:
                sockets.close(address)

    async def _table_socket(ws: WebSocket, table_id: str) -> None:
        """A table's socket once admitted: its hello, then its frames until it closes."""
        try:
            table = await _tables(ws).get(table_id)
        except TableUnavailable as exc:
            await _close(ws, CLOSE_NO_TABLE, str(exc))
            return
        try:
            hello = _frame(await asyncio.wait_for(ws.receive(), HELLO_SECONDS))
            if hello.get("type") != "hello":
                await _close(ws, CLOSE_BAD_HELLO, "the first frame must be {type: hello, token, since}")
                return
            seat = table.seat_of(hello.get("token"))
        except BadToken as exc:
            await _close(ws, CLOSE_BAD_TOKEN, str(exc))
            return
        except Refused as exc:
            await _close(ws, CLOSE_BAD_HELLO, str(exc))
            return
        except TimeoutError:
            await _close(ws, CLOSE_BAD_HELLO, f"no hello within {HELLO_SECONDS:g} seconds")
            return
        except WebSocketDisconnect:
            return
        conn = table.join(seat, hello.get("since"))
        observed, opened, client = _metrics(ws), time.perf_counter(), ws.client.host if ws.client else None
        observed.socket_opened(seat)
        ACCESS.info("socket open", table=table.id, seat=seat, client=client)
        acts = observed.acts()
        writer = asyncio.create_task(_write(ws, table, conn, acts))
        dropper = asyncio.create_task(_drop_when_too_slow(ws, table, conn, writer))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await _handle(table, conn, message, acts)
        except WebSocketDisconnect:
            pass
        finally:
            writer.cancel()
            dropper.cancel()
            table.leave(conn)
            observed.socket_closed(seat)
            duration = round((time.perf_counter() - opened) * 1000, 3)
            ACCESS.info("socket close", table=table.id, seat=seat, client=client, duration_ms=duration)


_CLOSE_REASONS = {
    CLOSE_BAD_ORIGIN: "bad_origin",
    CLOSE_NO_TABLE: "no_table",
    CLOSE_BAD_HELLO: "bad_hello",
    CLOSE_BAD_TOKEN: "bad_token",
    CLOSE_TOO_MANY: "too_many_sockets",
}
"""The refusal category (``metrics.REASONS``) of each close code a socket is refused with at its opening."""


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    """Refuse a socket at its opening: the reason as a ``refused`` frame, then the close ``code``."""
    _metrics(ws).refused(_CLOSE_REASONS.get(code, "other"))
    with contextlib.suppress(Exception):  # the client may be gone already
        await ws.send_json(messages.refused(None, reason))
        await ws.close(code, one_line(reason, 120))


def _frame(message: Any) -> dict[str, Any]:
    """A client frame as a JSON object; Refused for binary, oversized or non-JSON frames."""
    if message.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise Refused("frames must be JSON text, not binary")
    size = len(text.encode())
    if size > MAX_FRAME:
        raise Refused(f"a frame of {size} bytes is over the {MAX_FRAME}-byte limit")
    try:
        data = read_json(text, max_bytes=MAX_FRAME)
    except ValueError as exc:
        raise Refused(f"the frame is not JSON within the limits: {exc}") from None
    if not isinstance(data, dict):
        raise Refused("a frame must be a JSON object with a 'type'")
    return data


async def _handle(table: Table, conn: Connection, message: Any, acts: Acts) -> None:
    """One client frame; a refusal is answered with the reason and a fresh update, and counted by
    its category. An accepted act is noted in ``acts``: it is timed until its update is sent."""
    received = time.perf_counter()
    message_id = None
    kind = None
    try:
        data = _frame(message)
        kind = data.get("type")
        if kind == "act":
            message_id = data.get("id") if isinstance(data.get("id"), str) else None
            with move_started(received):
                await table.act(conn.seat, data.get("id"), data.get("n"), data.get("action"))
            acts.accepted(table.n, received)
        elif kind == "replace":
            await table.vote(conn.seat, data.get("seat"), data.get("agree"))
        elif kind == "take_back":
            message_id = data.get("id") if isinstance(data.get("id"), str) else None
            await table.take_back(conn.seat)
        elif kind == "rematch":
            await table.ask_rematch(conn.seat)
        elif kind == "ping":
            conn.send({"type": "pong"})
        else:
            raise Refused(f"unknown frame type {kind!r:.40}; types: act, replace, take_back, rematch, ping")
    except Refused as exc:
        table.hall.metrics.refused(refusal_reason(kind, str(exc)))
        conn.send(messages.refused(message_id, str(exc)))
        conn.send_update()


async def _drop_when_too_slow(ws: WebSocket, table: Table, conn: Connection, writer: asyncio.Task[None]) -> None:
    """Close the socket of a client whose frames piled up (``connections.OUTBOX``); the reader then ends.
    The close frame may never be read: after ``CLOSE_SECONDS`` the socket is left to uvicorn."""
    await conn.too_slow.wait()
    writer.cancel()
    _metrics(ws).refused("too_slow")
    log.warning("table %s: a client read too slowly (%d frames waiting); dropped", table.id, OUTBOX)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(CLOSE_TOO_SLOW, "too many frames waiting: reconnect to resume"), CLOSE_SECONDS)


async def _write(ws: WebSocket, table: Table, conn: Connection, acts: Acts) -> None:
    """Send the connection's frames in order until the socket closes; an update ends the timing
    of the accepted acts it shows (``acts``)."""
    try:
        while True:
            frame = await conn.next_frame(table)
            if frame.get("type") == "update":
                acts.shown(frame["n"])
            await ws.send_text(json.dumps(frame, separators=(",", ":")))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the socket closed; the reader sees it too
    except Exception:
        log.exception("table %s: a frame could not be built or sent; closing the socket", table.id)
        with contextlib.suppress(Exception):
            await ws.close(1011)
