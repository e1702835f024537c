"""The ``saves``, ``replay``, ``tournament``, ``bench`` and ``serve`` commands."""

from __future__ import annotations

import enum
import json
import os
import time
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spacetable.agents import AGENTS
from spacetable.engine import RecordError, SpacetableError, State
from spacetable.engine.safejson import write_atomic

from .common import CliError, app, fail, guarded, print_outcome, progress_bar, stdout_console
from .options import check_writable, load_game, load_record
from .saves import list_saves, saves_folder


@app.command("saves")
@guarded
def saves_command() -> None:
    """List the saved games, newest first: the number `play --resume N` takes, the game, its progress."""
    console = stdout_console()
    saves = list_saves()
    if not saves:
        console.print(f"No saved games in {escape(str(saves_folder()))}.", soft_wrap=True)
        return
    table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
    for column in ("#", "game", "actions", "status"):  # whole; the time and seats wrap, the file name folds
        table.add_column(column, justify="right" if column in ("#", "actions") else "left", no_wrap=True)
    table.add_column("saved")
    table.add_column("seats", overflow="fold")
    table.add_column("file", overflow="fold")
    for number, save in enumerate(saves, 1):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(save.modified))
        status = "[dim]finished[/]" if save.finished else "[bold]unfinished[/]"
        table.add_row(
            str(number),
            escape(save.game_id),
            str(save.actions),
            status,
            when,
            escape(", ".join(save.seats)),
            escape(save.path.name),
        )
    console.print(table)
    console.print(
        f"[dim]In {escape(str(saves_folder()))}. Play on with `spacetable play --resume N` "
        "(or `--resume last`: the newest unfinished game).[/]",
        soft_wrap=True,
    )


# ---- replay ------------------------------------------------------------------------


@app.command("replay")
@guarded
def replay_command(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A game record (from `spacetable saves`, --record or the web table).")
    ],
    actions: Annotated[
        bool, typer.Option("--actions", "-a", metavar="", help="List every action as it is replayed.")
    ] = False,
) -> None:
    """Replay a game record, check it ends as recorded, and show the final position.

    Exit code 2: the file is unreadable or not a record of a known game; 1: it does not replay.
    """
    console = stdout_console()
    rec = load_record(file)
    try:
        game = rec.game()
    except RecordError as exc:
        fail(f"{file}: {exc}")
    except (TypeError, ValueError) as exc:  # a mistyped field the record parser let through
        fail(f"{file}: corrupt record ({exc})")
    final: State | None = None
    try:
        for number, state in enumerate(rec.replay()):
            final = state
            if actions and number < len(rec.actions):
                seat, data = rec.actions[number]
                label = state.action_label(game.actions.from_json(data))
                who = "chance" if seat is None else f"seat {seat}"
                console.print(f"[dim]{number + 1:>4}[/] {who:>7}: {escape(label)}", soft_wrap=True)
    except RecordError as exc:
        fail(f"{file}: {exc}", code=1)
    except (TypeError, ValueError) as exc:
        fail(f"{file}: the record does not replay: {exc}", code=1)
    assert final is not None
    console.print(f"[bold]{escape(game.describe())}[/] · seats: {escape(', '.join(map(str, rec.seats)))}")
    print_outcome(final, console, None)
    status = "replayed exactly" if final.is_terminal() else "an unfinished game"
    console.print(f"{len(rec.actions)} actions, {status}.")


# ---- tournament --------------------------------------------------------------------


@app.command("tournament")
@guarded
def tournament_command(
    game_id: Annotated[str, typer.Option("--game", metavar="GAME", help="The game's id.")],
    agents: Annotated[str, typer.Option(metavar="BOTS", help="Bots, comma-separated, e.g. hard,greedy,random.")],
    games: Annotated[int, typer.Option(min=1, metavar="N", help="Games to play.")] = 100,
    players: Annotated[
        int | None, typer.Option(metavar="N", help="Seats per game (default: the game's usual count).")
    ] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the dice and bots; game i uses seed:i.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, metavar="N", help="Processes playing games at once.")] = 1,
    level: Annotated[int | None, typer.Option(metavar="N", help="The game option `level`.")] = None,
    mode: Annotated[str | None, typer.Option(metavar="MODE", help="The game option `mode`, e.g. solo.")] = None,
    content: Annotated[
        Path | None, typer.Option(metavar="FILE", help="A TOML file overriding the game's content data.")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", metavar="KEY=VALUE", help="A game option, repeatable.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(dir_okay=False, metavar="FILE", help="Also write the results as JSON here (kept on Ctrl-C)."),
    ] = None,
) -> None:
    """Bots against bots with rotating seats: win rates (95% CI), game length, time per move, Elo."""
    from spacetable.sim import tournament

    names = [a.strip() for a in agents.split(",") if a.strip()]
    try:
        if not names:
            raise CliError("--agents names no bot")
        unknown = [a for a in names if a not in AGENTS]
        if unknown:
            raise CliError(f"unknown bot(s) {', '.join(unknown)}; bots: {', '.join(sorted(AGENTS))}")
        game = load_game(game_id, players, level, content, option, mode, finite=True)
        if out is not None:
            check_writable(out)
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    console = stdout_console()
    progress = progress_bar(console)
    with progress:
        task = progress.add_task(f"{game.id} tournament", total=games)
        report = tournament.run(game, names, games, seed, jobs, on_game=lambda _: progress.advance(task))
    if report.interrupted:
        console.print(f"[bold]Interrupted[/] after {report.games} of {games} games: the figures are of those.")
    if report.games:
        _print_report(report, console)
    if out is not None:
        try:
            write_atomic(out, json.dumps(report.to_json(), indent=1) + "\n")
        except OSError as exc:
            fail(f"cannot write {str(out)!r}: {exc.strerror or exc}")
        played = "" if report.games else " (no game was finished: the standings are empty)"
        console.print(f"[dim]Results saved to {escape(str(out))}{played}.[/]", soft_wrap=True)  # the path stays whole
    if report.interrupted:
        raise typer.Exit(130)


def _print_report(report: Any, console: Console) -> None:
    table = Table(
        title=f"{report.game}, {report.players} seat(s), {report.games} games (fair share {report.fair_share:.0%})"
    )
    # the figures whole at 80 columns: short headers, the numbers never wrapped, the bots' names folded
    table.add_column("bot", overflow="fold")
    for column in ("games", "win rate", "95% CI", "Elo", "score", "rounds", "ms/move"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in sorted(report.rows, key=lambda r: -r.win_rate):
        elo = "" if row.elo is None else f"{row.elo:.0f}"
        ci = f"{100 * row.ci_low:.1f}–{100 * row.ci_high:.1f}%"
        score = "" if row.mean_score is None else f"{row.mean_score:.2f}"
        rounds = "" if row.mean_rounds is None else f"{row.mean_rounds:.1f}"
        cells = [f"{row.win_rate:.1%}", ci, elo, score, rounds, f"{row.ms_per_move:.1f}"]
        table.add_row(row.agent, str(row.seat_games), *cells)
    console.print(table)
    length = f"{report.average_actions:.1f} actions"
    if report.average_rounds is not None:
        length += f", {report.average_rounds:.1f} rounds"
    endings = ", ".join(f"{escape(reason or 'unfinished')}: {n}" for reason, n in sorted(report.endings.items()))
    console.print(f"Average game: {length}. Endings: {endings}.", soft_wrap=True)


# ---- bench -------------------------------------------------------------------------


@app.command("bench")
@guarded
def bench_command(
    game_id: Annotated[str | None, typer.Argument(metavar="[GAME]", help="One game (default: every game).")] = None,
    seconds: Annotated[float, typer.Option(min=0.01, metavar="SECONDS", help="Time budget per measurement.")] = 2.0,
) -> None:
    """Measure the engine's speed (playouts, clones, legal actions) and print a table."""
    from spacetable import bench  # imported only when benchmarking

    try:
        rows = bench.run(game_id, seconds)
    except SpacetableError as exc:
        fail(str(exc))
    table = Table(title="spacetable bench")  # one column per game: the measures are many, the games few
    table.add_column("measure")
    for row in rows:
        table.add_column(escape(str(row["game"])), justify="right")
    measures: list[str] = list(dict.fromkeys(key for row in rows for key in row if key != "game"))
    for measure in measures:
        cells = [_cell(row.get(measure)) for row in rows]
        if measure == "options":  # "k=v,k=v" spaced out, to wrap between words rather than be cut
            cells = [cell.replace(",", ", ").replace("=", " = ") for cell in cells]
        table.add_row(measure, *cells)
    stdout_console().print(table)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float | int) and not isinstance(value, bool):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return escape(str(value))


# ---- serve -------------------------------------------------------------------------


class LogFormat(enum.StrEnum):
    """How ``spacetable serve`` writes its log lines (``spacetable.server.logs``)."""

    text = "text"
    json = "json"


class LogLevel(enum.StrEnum):
    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


@app.command("serve")
def serve_command(
    host: Annotated[
        str, typer.Option(metavar="ADDRESS", help="The address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, metavar="N", help="The port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="Database URL (default: a SQLite file in the user data folder), "
            "e.g. postgresql+psycopg://user@127.0.0.1:5432/spacetable.",
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", metavar="", help="Open the lobby in a web browser.")
    ] = False,
    bot_seconds: Annotated[
        float,
        typer.Option(
            min=0.0,
            metavar="SECONDS",
            help="The most wall-clock time a bot takes for one decision at a table, whatever its level "
            "(0: each level's own budget, as in batch runs).",
        ),
    ] = 1.0,
    bot_pace: Annotated[
        float,
        typer.Option(
            min=0.0,
            metavar="SECONDS",
            help="The least time between two bot moves shown at a table, for people to follow (0: at once).",
        ),
    ] = 0.7,
    grace: Annotated[
        float,
        typer.Option(
            min=0.0,
            metavar="SECONDS",
            help="How long an absent player's seat is kept for them before the others may hand it to a bot.",
        ),
    ] = 120.0,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            metavar="URL",
            help="An origin (scheme://host[:port]) besides this server's own address whose pages may "
            "open a table's WebSocket, e.g. https://games.example.org behind a proxy; repeatable.",
        ),
    ] = None,
    tables_per_minute: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="N",
            help="The most tables one client address may create in a minute; more are answered 429 (0: no limit).",
        ),
    ] = 30,
    max_tables: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="N",
            help="The most unfinished games the database may hold; new tables are then answered 503 (0: no limit).",
        ),
    ] = 10_000,
    sockets_per_address: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="N",
            help="The most table sockets one client address may hold open at once; more are closed "
            "with 4429 (0: no limit).",
        ),
    ] = 64,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            metavar="N",
            help="Server processes sharing the port; more than 1 needs a PostgreSQL --db, whose tables "
            "every process serves (docs/WEB.md, 'Deployment').",
        ),
    ] = 1,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            case_sensitive=False,
            metavar="text|json",
            help="How the log lines on stderr are written: key=value pairs (text) or one JSON object a line (json).",
        ),
    ] = LogFormat.text,
    log_level: Annotated[
        LogLevel,
        typer.Option(
            case_sensitive=False,
            metavar="LEVEL",
            help="The least level of the lines logged: debug, info (a line per request, socket and move), "
            "warning or error.",
        ),
    ] = LogLevel.info,
) -> None:
    """Run the web table: the lobby, the tables and the bots (Ctrl-C stops it)."""
    import threading
    import webbrowser

    import uvicorn
    from sqlalchemy.engine import make_url

    from spacetable.server import create_app
    from spacetable.server.app import MAX_WIRE_FRAME
    from spacetable.server.guards import Origins
    from spacetable.server.logs import configure as configure_logs
    from spacetable.server.logs import reset as reset_logs

    def shown(url: str) -> str:
        try:
            return make_url(url).render_as_string(hide_password=True)
        except Exception:  # not a URL at all: show it as given
            return url

    console = stdout_console()
    try:
        Origins(allow_origin or ())
    except ValueError as exc:
        fail(f"--allow-origin: {exc}")

    def refuse(message: str) -> NoReturn:
        reset_logs()  # a start refused leaves the process's logging as it found it
        fail(message)

    configure_logs(log_format.value, log_level.value)
    settings: dict[str, Any] = {
        "db_url": db,
        "bot_seconds": bot_seconds or None,
        "bot_pace": bot_pace,
        "grace": grace,
        "allowed_origins": allow_origin or [],
        "tables_per_minute": tables_per_minute or None,
        "max_tables": max_tables or None,
        "sockets_per_address": sockets_per_address or None,
    }
    try:
        web = create_app(**settings)
    except Exception as exc:  # a bad URL, a missing driver, a database that refuses: one line, no traceback
        where = shown(db) if db else "in the user data folder"
        refuse(f"cannot open the database {where}: {_first_line(exc)}")
    if workers > 1 and not web.state.storage.shared:
        web.state.storage.close()
        refuse("--workers above 1 needs a PostgreSQL --db (postgresql+psycopg://...): a SQLite file serves one process")
    try:
        listener = _listen(host, port)
    except OSError as exc:
        web.state.storage.close()
        refuse(f"cannot listen on {host}:{port}: {exc.strerror or _first_line(exc)}")
    url = f"http://{host}:{port}/"

    def started() -> None:
        console.print(f"Tables are stored in {escape(shown(web.state.db_url))}", soft_wrap=True)
        console.print(f"The lobby: [bold]{url}[/]", soft_wrap=True)
        if not open_browser:
            return
        try:
            webbrowser.get()
        except webbrowser.Error:
            console.print("[dim]No web browser found here: open the address above in one.[/]")
        else:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    class Server(uvicorn.Server):
        """uvicorn's server, telling the address once the application has started on the socket."""

        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                started()

    # uvicorn's own access log stays off: the server writes its own (spacetable.server.logs)
    if workers == 1:
        config = uvicorn.Config(web, log_level="warning", access_log=False, ws_max_size=MAX_WIRE_FRAME)
        with listener:
            Server(config).run(sockets=[listener])
        return
    from uvicorn.supervisors import Multiprocess

    from spacetable.server.app import SETTINGS_ENV

    web.state.storage.close()  # each worker opens its own
    os.environ[SETTINGS_ENV] = json.dumps(
        {**settings, "db_url": web.state.db_url, "logs": [log_format.value, log_level.value]}
    )
    config = uvicorn.Config(
        "spacetable.server.app:app_from_environment",
        factory=True,
        workers=workers,
        log_level="warning",
        access_log=False,
        ws_max_size=MAX_WIRE_FRAME,
    )
    started()  # the socket listens: the workers take its connections as they start
    with listener:
        Multiprocess(config, sockets=[listener]).run()


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def _listen(host: str, port: int) -> Any:
    """A TCP socket bound to ``host``:``port`` and listening (OSError when the port is taken or
    the address is not this machine's), so that the lobby's address is told only once it is ours."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise OSError(exc.errno, f"no such address ({exc.strerror})") from None
    listener = socket.socket(family, kind, proto)
    try:
        if hasattr(socket, "SO_REUSEADDR") and os.name != "nt":  # as uvicorn: restart while TIME_WAIT
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    return listener
