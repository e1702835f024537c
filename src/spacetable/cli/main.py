"""The ``spacetable`` command: list the games, play them in the terminal, replay records, bench.

Every error a user can cause (a bad option, an unknown bot, a missing or foreign
file) is one clear line on stderr and exit code 2, never a traceback. A record
that reads fine but does not replay exits with 1.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shlex
import time
import tomllib
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar, cast

import click
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from spacetable.agents import AGENTS, make_agent
from spacetable.engine import (
    JSON,
    Action,
    Event,
    Game,
    Player,
    Record,
    RecordError,
    SpacetableError,
    State,
    game_class,
    list_games,
    load,
    load_finite,
    play,
)
from spacetable.engine.safejson import read_json, write_atomic

from .saves import LAST, find_save, list_saves, new_save_path, saves_folder
from .terminal import (
    EventPrinter,
    QuitGame,
    TerminalPlayer,
    find_grouper,
    find_help_terms,
    find_renderer,
    find_titler,
    is_small,
)

app = typer.Typer(
    name="spacetable",
    help="A rules engine and digital tabletop for space strategy board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

DEFAULT_BOT = "greedy"
HUMAN = "human"
_SEAT = re.compile(r"(\d+)=(human|bot(?::([A-Za-z0-9_-]+))?)")


class CliError(Exception):
    """A mistake on the command line or in a file the user named: one line, exit code 2."""


def _stdout() -> Console:
    """The console for results; 120 columns when writing to a pipe or file (rich would use 80)."""
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 120
    return console


def _fail(message: str, code: int = 2) -> NoReturn:
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(code)


Command = TypeVar("Command", bound=Callable[..., None])


def _guarded(command: Command) -> Command:
    """Every error that reaches the command line is one line, never a traceback: the project's
    own errors as they are, anything else (a bug) named with its type and exit code 3."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except (typer.Exit, typer.Abort, click.exceptions.ClickException, KeyboardInterrupt):
            raise
        except SpacetableError as exc:
            _fail(str(exc).replace("\n", " "))
        except (RecursionError, MemoryError) as exc:
            _fail(f"the input is too large or too deeply nested ({type(exc).__name__})")
        except Exception as exc:
            _fail(f"internal error, please report it: {type(exc).__name__}: {str(exc)[:300]}", code=3)

    return cast(Command, run)


# ---- list ------------------------------------------------------------------------


@app.command("list")
@_guarded
def list_command() -> None:
    """List the games: id, name, players, and the options `play` accepts."""
    console = _stdout()
    for cls in list_games():
        span = str(cls.min_players) if cls.min_players == cls.max_players else f"{cls.min_players}-{cls.max_players}"
        usual = f" (usually {cls.default_players})" if cls.default_players else ""
        console.print(
            f"[bold cyan]{escape(cls.id)}[/]  {escape(cls.name)}  [dim]·[/] {span} player{'s' if span != '1' else ''}"
            + usual
        )
        if not cls.option_specs:
            console.print("  [dim]no options[/]")
            continue
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("  option", style="bold", no_wrap=True)
        table.add_column("default", no_wrap=True)
        table.add_column("what it does")
        for name, spec in cls.option_specs.items():
            help_text = spec.help + (f" (one of {', '.join(map(str, spec.choices))})" if spec.choices else "")
            table.add_row(f"  {escape(name)}", escape(json.dumps(spec.default)), escape(help_text))
        console.print(table)
    console.print(
        "[dim]Set options with --option KEY=VALUE (`level`: --level N, `mode`: --mode M, "
        "`content`: --content FILE.toml).[/]"
    )


# ---- play ------------------------------------------------------------------------


def parse_seats(values: list[str], players: int, batch: bool) -> list[str]:
    """Each seat's occupant, ``human`` or ``bot:<name>``, from ``--seat`` values.

    Unnamed seats: with ``batch`` (``--games``) a bot, otherwise a human in seat 0
    and a bot elsewhere. Raises CliError naming any bad value.
    """
    named: dict[int, str] = {}
    for value in values:
        match = _SEAT.fullmatch(value.strip())
        if match is None:
            raise CliError(f"bad --seat {value!r}: write SEAT=human or SEAT=bot:NAME, e.g. 0=bot:{DEFAULT_BOT}")
        seat = int(match.group(1))
        if seat >= players:
            raise CliError(f"bad --seat {value!r}: this game has seats 0 to {players - 1}")
        if seat in named:
            raise CliError(f"seat {seat} is named twice (--seat {value!r})")
        if match.group(2) == HUMAN:
            named[seat] = HUMAN
        else:
            bot = match.group(3) or DEFAULT_BOT
            if bot not in AGENTS:
                raise CliError(f"unknown bot {bot!r} in --seat {value!r}; bots: {', '.join(sorted(AGENTS))}")
            named[seat] = f"bot:{bot}"
    seats = []
    for seat in range(players):
        default = HUMAN if seat == 0 and not batch else f"bot:{DEFAULT_BOT}"
        seats.append(named.get(seat, default))
    if batch and HUMAN in seats:
        raise CliError("--games plays bots only: a human seat cannot play a batch of games")
    return seats


def read_content(path: Path) -> dict[str, Any]:
    """A content override file, parsed as TOML; CliError if it cannot be read or parsed."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read the content file {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CliError(f"the content file {str(path)!r} is not valid TOML: {exc}") from None


def _check_writable(path: Path, option: str = "--record") -> None:
    if path.is_dir():
        raise CliError(f"{option} {str(path)!r} is a directory, not a file")
    if not path.resolve().parent.is_dir():
        raise CliError(f"{option} {str(path)!r}: the folder {str(path.parent)!r} does not exist")


def _save(record: Record, path: Path | None, console: Console, quiet: bool = False) -> None:
    """Write the record atomically (a crash mid-write leaves the previous file whole)."""
    if path is None:
        return
    try:
        record.save(path)
    except OSError as exc:
        _fail(f"cannot write the record to {str(path)!r}: {exc.strerror or exc}")
    if not quiet:
        # soft_wrap: a long path stays one piece to copy, never broken by a newline
        console.print(f"Game saved to {escape(str(path))} ({len(record.actions)} actions).", soft_wrap=True)


def _resume_hint(path: Path, console: Console) -> None:
    """How to play on from ``path``: ``--resume last`` when it is the newest unfinished save."""
    try:
        newest = find_save(LAST).resolve() == path.resolve()
    except LookupError:
        newest = False
    name = LAST if newest else shlex.quote(str(path))
    console.print(f"Play on with: [bold]spacetable play --resume {escape(name)}[/]", soft_wrap=True)


def _draw_seed(seed: int | None, console: Console) -> int:
    """The seed of the dice and bots; one is drawn and shown when none is given, to replay the game."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        console.print(f"[dim]seed {seed}[/]")
    return seed


def _make_players(
    seats: list[str], console: Console, game: Game, log: EventPrinter | None = None, delay: float = 0.0
) -> list[Player]:
    """The players of ``seats``: a :class:`TerminalPlayer` per human (``log`` shown under their
    board), a bot otherwise (waiting ``delay`` seconds before each move, to be watched)."""
    players: list[Player] = []
    render, grouper, terms, titler = (
        find_renderer(game, console),
        find_grouper(game),
        find_help_terms(game),
        find_titler(game),
    )
    for who in seats:
        if who == HUMAN:
            players.append(
                TerminalPlayer(
                    console, render, grouper, help_terms=terms, log=log, compact=is_small(console), titler=titler
                )
            )
        else:
            bot = make_agent(who.partition(":")[2])
            players.append(_Paced(bot, delay) if delay else bot)
    return players


class _Paced:
    """A bot that waits before each move, so a person can follow a game of bots."""

    def __init__(self, bot: Player, delay: float) -> None:
        self.bot = bot
        self.delay = delay
        self.name = getattr(bot, "name", "bot")

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        time.sleep(self.delay)
        return self.bot.choose(state, seat, rng)


def _print_outcome(state: State, console: Console, render_seat: int | None) -> None:
    outcome = state.outcome()
    render = find_renderer(state.game, console)
    console.print()
    console.print(render(state, render_seat), soft_wrap=True)
    if outcome is None:
        console.print("[bold]The game is not over.[/]")
        return
    if state.game.players == 1:
        head = "[bold green]You won[/]" if outcome.winners else "[bold red]You lost[/]"
    elif outcome.winners:
        head = f"[bold]Winner{'s' if len(outcome.winners) > 1 else ''}: seat {', '.join(map(str, outcome.winners))}[/]"
    else:
        head = "[bold]Nobody won[/]"
    console.print(f"{head}: {escape(outcome.reason)}.", soft_wrap=True)


def _progress(console: Console) -> Progress:
    """The progress bar of a batch of games (shown only on a terminal)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def _play_batch(game: Game, seats: list[str], rng: random.Random, games: int, console: Console) -> Record:
    """Play ``games`` bot games; print one summary line; return the last game's record.

    Ctrl-C stops early and summarises the games finished so far.
    """
    wins = [0] * game.players
    endings: dict[str, int] = {}
    totals: dict[str, tuple[float, float]] = {}
    percents: dict[str, bool] = {}
    scores = [0.0] * game.players
    scored = True
    played = actions = rounds = 0
    has_rounds = True
    record = Record.start(game, seats)
    failed: list[tuple[int, int, str]] = []
    """(game number, its seed, the error) of games that raised."""
    players = _make_players(seats, console, game)
    start = time.perf_counter()
    progress = _progress(console)
    try:
        with progress:
            task = progress.add_task(game.id, total=games)
            for number in range(games):
                game_seed = rng.randrange(2**31)
                current = Record.start(game, seats)
                try:
                    final = play(game, players, random.Random(game_seed), record=current)
                except Exception as exc:  # a bug in a game or a bot: report it, keep the batch
                    failed.append((number, game_seed, f"{type(exc).__name__}: {exc}"))
                    progress.advance(task)
                    continue
                record = current
                outcome = final.outcome()
                for seat in outcome.winners if outcome else ():
                    wins[seat] += 1
                if outcome is not None:
                    endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
                if outcome is not None and len(outcome.scores) == game.players:
                    scores = [total + score for total, score in zip(scores, outcome.scores)]
                else:
                    scored = False
                for name, figure in game.statistics(final, current.actions).items():
                    value, weight = totals.get(name, (0.0, 0.0))
                    totals[name] = (value + figure.value, weight + figure.weight)
                    percents[name] = figure.percent
                played += 1
                actions += len(current.actions)
                final_round = getattr(final, "round", None)
                if isinstance(final_round, int):
                    rounds += final_round
                else:
                    has_rounds = False
                progress.advance(task)
    except KeyboardInterrupt:
        console.print(f"[bold]Interrupted[/] after {played} of {games} games.")
        if not played:
            raise typer.Exit(130) from None
    for number, game_seed, error in failed:
        console.print(
            f"[bold red]Game {number + 1} failed[/] with seed {game_seed} (without --games, with --seed "
            f"{game_seed} and the same --seat bots, it plays again): {escape(error[:300])}",
            soft_wrap=True,
        )
    if not played:
        _fail(f"all {len(failed)} games failed; the first: {failed[0][2][:200]}", code=1)
    elapsed = max(time.perf_counter() - start, 1e-9)
    rates = " · ".join(
        f"seat {s} ({who}): {wins[s] / played:.1%} wins" + (f", score {scores[s] / played:.2f}" if scored else "")
        for s, who in enumerate(seats)
    )
    length = f"{actions / played:.1f} actions" + (f", {rounds / played:.1f} rounds" if has_rounds else "")
    console.print(escape(game.describe()), soft_wrap=True)
    console.print(
        f"{played} games of {game.id} · {rates} · average {length} · {played / elapsed:.1f} games/s"
        + (f" · {len(failed)} failed" if failed else ""),
        soft_wrap=True,
    )
    if len(endings) <= 8:  # reasons are a few fixed phrases in a well-made game; a free text would flood
        ended = " · ".join(f"{escape(reason)}: {n}" for reason, n in sorted(endings.items(), key=lambda kv: -kv[1]))
        console.print(f"How the games ended: {ended}", soft_wrap=True)
    if totals:
        table = Table(title=f"{game.id}: figures over {played} games")
        table.add_column("figure")
        table.add_column("value", justify="right")
        table.add_column("cases", justify="right")
        for name in sorted(totals):
            value, weight = totals[name]
            shown = "-" if not weight else f"{value / weight:.1%}" if percents[name] else f"{value / weight:.2f}"
            table.add_row(escape(name), shown, f"{weight:g}")
        console.print(table)
    return record


def _play_one(
    game: Game,
    seats: list[str],
    seed: int,
    console: Console,
    path: Path | None,
    resumed: tuple[Record, State] | None = None,
    delay: float = 0.0,
) -> tuple[int, bool]:
    """One game with the terminal watching (humans at the prompt); returns the exit code and
    whether the game was played to its end.

    ``seed``: of the dice and bots from here on. ``resumed``: a saved record and the position
    it reached, to play on from. ``delay``: seconds each bot waits before its move.
    """
    humans = [s for s, who in enumerate(seats) if who == HUMAN]
    viewer = humans[0] if len(humans) == 1 else None
    record, state = resumed if resumed else (Record.start(game, seats), None)
    record.seats = list(seats)
    if path is None:
        path = new_save_path(game.id)
    printer = EventPrinter(console, viewer, hold=bool(humans))
    players = _make_players(seats, console, game, printer, delay)
    console.print(f"[bold]{escape(game.describe())}[/] · seats: {escape(', '.join(seats))}")
    if resumed:
        console.print(f"Resuming after {len(record.actions)} recorded actions.")
    _save(record, path, console, quiet=True)  # listed by `spacetable saves` from the start

    def on_events(now: State, events: Sequence[Event]) -> None:
        """Log the events and save after every action, atomically, so that a crash loses nothing
        (a save of a 2,000-action record takes about 20 ms)."""
        printer(now, events)
        _save(record, path, console, quiet=True)

    try:
        final = play(game, players, random.Random(seed), record=record, on_events=on_events, state=state)
    except QuitGame as exc:
        printer.flush()
        console.print(f"[bold]Game left:[/] {escape(str(exc))}.")
        _save(record, path, console)
        _resume_hint(path, console)
        return 0, False
    except KeyboardInterrupt:
        printer.flush()
        console.print("\n[bold]Interrupted.[/]")
        _save(record, path, console)
        _resume_hint(path, console)
        return 130, False
    except Exception:  # a bug in a game or a bot: keep every action taken so far, then report it
        _save(record, path, console, quiet=True)
        raise
    printer.flush()
    _print_outcome(final, console, viewer)
    _save(record, path, console, quiet=True)
    _print_summary(final, record, seed, path, console, resumed is not None)
    return 0, True


def _print_summary(final: State, record: Record, seed: int, path: Path, console: Console, resumed: bool) -> None:
    """The end of a game in a few lines: result and reason, scores, rounds, seed, the record."""
    outcome = final.outcome()
    game = final.game
    table = Table(title="The game is over", box=None, show_header=False, padding=(0, 1), title_justify="left")
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    if outcome is not None:
        if game.players == 1:
            result = "you won" if outcome.winners else "you lost"
        else:
            names = ", ".join(f"seat {s} ({record.seats[s]})" for s in outcome.winners)
            result = f"won by {names}" if outcome.winners else "nobody won"
        table.add_row("result", escape(result))
        table.add_row("how", escape(outcome.reason))
        if len(outcome.scores) == game.players:
            table.add_row("score", escape(", ".join(f"seat {s}: {v:g}" for s, v in enumerate(outcome.scores))))
    final_round = getattr(final, "round", None)
    if isinstance(final_round, int):
        table.add_row("rounds", str(final_round))
    table.add_row("actions", str(len(record.actions)))
    table.add_row("seed", f"{seed}" + (" (of the resumed part)" if resumed else ""))
    table.add_row("record", escape(str(path)))
    console.print()
    console.print(table)
    console.print(f"[dim]`spacetable replay {escape(shlex.quote(str(path)))}` replays it.[/]", soft_wrap=True)


def _offer_again(console: Console) -> bool:
    """Ask whether to play another game like this one (no on end of input or on a pipe)."""
    if not console.is_terminal:
        return False
    try:
        answer = console.input("Play again with a new seed? (y/N): ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


@app.command("play")
@_guarded
def play_command(
    game_id: Annotated[
        str | None,
        typer.Argument(metavar="[GAME]", help="The game's id (see `spacetable list`); not needed to resume."),
    ] = None,
    level: Annotated[int | None, typer.Option(metavar="N", help="Difficulty level (the game option `level`).")] = None,
    mode: Annotated[
        str | None, typer.Option(metavar="MODE", help="The game's mode (the game option `mode`), e.g. solo.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Seed of the dice and of the bots (default: random).")
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            metavar="SEAT=WHO",
            help="Who sits where, repeatable: 0=human, 1=bot:greedy, 2=bot:random. "
            "Unnamed seats: a human in seat 0 and bots elsewhere (all bots with --games).",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help="Play N bot-only games and print a summary instead of one game."),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            dir_okay=False,
            metavar="FILE",
            help="Save the game record to this file instead of the saves folder (with --games: the last game "
            "only; batches are not saved otherwise).",
        ),
    ] = None,
    content: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="A TOML file overriding the game's content data (cards, boards)."),
    ] = None,
    players: Annotated[
        int | None, typer.Option(metavar="N", help="Number of players (default: the game's usual count).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="KEY=VALUE", help="A game option, repeatable (see `spacetable list`)."),
    ] = None,
    delay: Annotated[
        float,
        typer.Option(
            min=0, max=60, metavar="SECONDS", help="Seconds each bot waits before its move, to watch a game of bots."
        ),
    ] = 0.0,
    resume: Annotated[
        str | None,
        typer.Option(
            metavar="SAVE",
            help="Play on from a saved game: `last` (the newest unfinished one), a number from "
            "`spacetable saves`, or a record file. It keeps growing in that file unless --record names "
            "another. Game options come from the record.",
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots, or a batch of bot games with --games.

    Every game is saved after every action (see `spacetable saves`); `--resume last` plays on.
    """
    console = _stdout()
    if resume is not None:
        try:
            file = find_save(resume)
        except LookupError as exc:
            _fail(str(exc))
        _resume(game_id, file, seat or [], seed, record, console, delay)
        return
    if game_id is None:
        _fail("name the game to play (see `spacetable list`), or resume one with --resume last")
    try:
        game = _load_game(game_id, players, level, content, option, mode, finite=games is not None)
        seats = parse_seats(seat or [], game.players, batch=games is not None)
        if record is not None:
            _check_writable(record)
    except (CliError, SpacetableError) as exc:
        _fail(str(exc))
    game_seed = _draw_seed(seed, console)
    try:
        if games is not None:
            last = _play_batch(game, seats, random.Random(game_seed), games, console)
            _save(last, record, console)
            return
        code, finished = _play_one(game, seats, game_seed, console, record, delay=delay)
        while finished and HUMAN in seats and _offer_again(console):
            code, finished = _play_one(game, seats, _draw_seed(None, console), console, None, delay=delay)
    except SpacetableError as exc:
        _fail(str(exc))
    if code:
        raise typer.Exit(code)


@app.command("saves")
@_guarded
def saves_command() -> None:
    """List the saved games, newest first: the number `play --resume N` takes, the game, its progress."""
    console = _stdout()
    saves = list_saves()
    if not saves:
        console.print(f"No saved games in {escape(str(saves_folder()))}.", soft_wrap=True)
        return
    table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
    for column in ("#", "game", "actions", "status", "saved", "seats", "file"):
        table.add_column(column, justify="right" if column in ("#", "actions") else "left")
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


def parse_options(values: list[str]) -> dict[str, JSON]:
    """Game options from ``--option KEY=VALUE`` values: VALUE is read as JSON (30, true, "x",
    [1, 2]) and otherwise taken as text. Raises CliError on a value without ``=``."""
    options: dict[str, JSON] = {}
    for item in values:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise CliError(f"bad --option {item!r}: write KEY=VALUE, e.g. turn_limit=30")
        try:
            options[key.strip()] = read_json(text, max_bytes=100_000, max_depth=8)
        except ValueError as exc:
            if "not valid JSON" not in str(exc):
                raise CliError(f"bad --option {item[:60]!r}: {exc}") from None
            options[key.strip()] = text
    return options


def _load_game(
    game_id: str,
    players: int | None,
    level: int | None,
    content: Path | None,
    extra: list[str] | None = None,
    mode: str | None = None,
    finite: bool = False,
) -> Game:
    """The game from the command line's options (CliError or SpacetableError if they are wrong);
    ``finite``: bots' batches, with the game's ``finite_options`` under those given, so every
    game ends (a table with a person plays the rulebook's game)."""
    options = parse_options(extra or [])
    if level is not None:
        options["level"] = level
    if mode is not None:
        options["mode"] = mode
    if content is not None:
        options["content"] = read_content(content)
    cls = game_class(game_id)
    seats = cls.usual_players(options) if players is None else players
    return (load_finite if finite else load)(game_id, seats, options)


def _load_record(file: Path) -> Record:
    """Read and parse a record file; exit 2 with a clear message if it is unreadable or foreign."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {str(file)!r}: {getattr(exc, 'strerror', None) or exc}")
    try:
        return Record.loads(text)
    except RecordError as exc:
        _fail(f"{file}: {exc}")


def _resume(
    game_id: str | None,
    file: Path,
    seat_values: list[str],
    seed: int | None,
    path: Path | None,
    console: Console,
    delay: float = 0.0,
) -> None:
    rec = _load_record(file)
    try:
        if game_id is not None and rec.game_id != game_id:
            raise CliError(f"{file} is a record of {rec.game_id}, not {game_id}")
        game = rec.game()
        state = rec.final_state()
        if state.is_terminal():
            raise CliError(f"{file}: that game is over; `spacetable replay {file}` shows it")
        seats = parse_seats(seat_values, game.players, batch=False) if seat_values else _record_seats(rec, file)
        target = path or file
        _check_writable(target)
    except (CliError, SpacetableError) as exc:
        _fail(str(exc))
    code, _ = _play_one(game, seats, _draw_seed(seed, console), console, target, resumed=(rec, state), delay=delay)
    if code:
        raise typer.Exit(code)


def _record_seats(rec: Record, file: Path) -> list[str]:
    """The seats a record names, checked as --seat values are (CliError naming the bad one)."""
    if len(rec.seats) != rec.players:
        raise CliError(
            f"{file}: the record names {len(rec.seats)} seat(s) for {rec.players} players; "
            "give them with --seat, e.g. --seat 0=human"
        )
    for seat, who in enumerate(rec.seats):
        if who != HUMAN and not (who.startswith("bot:") and who[4:] in AGENTS):
            raise CliError(
                f"{file}: seat {seat} is {who!r:.40}, neither human nor a known bot ({', '.join(sorted(AGENTS))}); "
                f"give it with --seat {seat}=bot:{DEFAULT_BOT}"
            )
    return list(rec.seats)


# ---- replay ------------------------------------------------------------------------


@app.command("replay")
@_guarded
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
    console = _stdout()
    rec = _load_record(file)
    try:
        game = rec.game()
    except RecordError as exc:
        _fail(f"{file}: {exc}")
    except (TypeError, ValueError) as exc:  # a mistyped field the record parser let through
        _fail(f"{file}: corrupt record ({exc})")
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
        _fail(f"{file}: {exc}", code=1)
    except (TypeError, ValueError) as exc:
        _fail(f"{file}: the record does not replay: {exc}", code=1)
    assert final is not None
    console.print(f"[bold]{escape(game.describe())}[/] · seats: {escape(', '.join(map(str, rec.seats)))}")
    _print_outcome(final, console, None)
    status = "replayed exactly" if final.is_terminal() else "an unfinished game"
    console.print(f"{len(rec.actions)} actions, {status}.")


# ---- tournament --------------------------------------------------------------------


@app.command("tournament")
@_guarded
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
        game = _load_game(game_id, players, level, content, option, mode, finite=True)
        if out is not None:
            _check_writable(out)
    except (CliError, SpacetableError) as exc:
        _fail(str(exc))
    console = _stdout()
    progress = _progress(console)
    with progress:
        task = progress.add_task(f"{game.id} tournament", total=games)
        report = tournament.run(game, names, games, seed, jobs, on_game=lambda _: progress.advance(task))
    if report.interrupted:
        console.print(f"[bold]Interrupted[/] after {report.games} of {games} games: the figures are of those.")
        if not report.games:
            raise typer.Exit(130)
    _print_report(report, console)
    if out is not None:
        try:
            write_atomic(out, json.dumps(report.to_json(), indent=1) + "\n")
        except OSError as exc:
            _fail(f"cannot write {str(out)!r}: {exc.strerror or exc}")
        console.print(f"[dim]Results saved to {escape(str(out))}.[/]")
    if report.interrupted:
        raise typer.Exit(130)


def _print_report(report: Any, console: Console) -> None:
    table = Table(
        title=f"{report.game}, {report.players} seat(s), {report.games} games (fair share {report.fair_share:.0%})"
    )
    columns = ["bot", "seat-games", "win rate", "95% CI", "Elo", "score", "rounds", "ms/move"]
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in sorted(report.rows, key=lambda r: -r.win_rate):
        elo = "" if row.elo is None else f"{row.elo:.0f}"
        ci = f"{row.ci_low:.1%}-{row.ci_high:.1%}"
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
@_guarded
def bench_command(
    game_id: Annotated[str | None, typer.Argument(metavar="[GAME]", help="One game (default: every game).")] = None,
    seconds: Annotated[float, typer.Option(min=0.01, metavar="SECONDS", help="Time budget per measurement.")] = 2.0,
) -> None:
    """Measure the engine's speed (playouts, clones, legal actions) and print a table."""
    from spacetable import bench  # imported only when benchmarking

    try:
        rows = bench.run(game_id, seconds)
    except SpacetableError as exc:
        _fail(str(exc))
    table = Table(title="spacetable bench")  # one column per game: the measures are many, the games few
    table.add_column("measure")
    for row in rows:
        table.add_column(escape(str(row["game"])), justify="right")
    measures: list[str] = list(dict.fromkeys(key for row in rows for key in row if key != "game"))
    for measure in measures:
        table.add_row(measure, *(_cell(row.get(measure)) for row in rows))
    _stdout().print(table)


# ---- serve -------------------------------------------------------------------------


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
) -> None:
    """Run the web table: the lobby, the tables and the bots, in one process (Ctrl-C stops it)."""
    import socket
    import threading
    import webbrowser

    import uvicorn
    from sqlalchemy.engine import make_url

    from spacetable.server import create_app

    def shown(url: str) -> str:
        try:
            return make_url(url).render_as_string(hide_password=True)
        except Exception:  # not a URL at all: show it as given
            return url

    console = _stdout()
    try:
        web = create_app(db)
    except Exception as exc:  # a bad URL, a missing driver, a database that refuses: one line, no traceback
        where = shown(db) if db else "in the user data folder"
        _fail(f"cannot open the database {where}: {str(exc).splitlines()[0]}")
    console.print(f"Tables are stored in {escape(shown(web.state.db_url))}", soft_wrap=True)
    url = f"http://{host}:{port}/"
    console.print(f"The lobby: [bold]{url}[/]", soft_wrap=True)

    def open_when_listening() -> None:
        for _ in range(300):
            try:
                socket.create_connection((host, port), timeout=1).close()
            except OSError:
                time.sleep(0.1)
                continue
            webbrowser.open(url)
            return

    if open_browser:
        try:
            webbrowser.get()
        except webbrowser.Error:
            console.print("[dim]No web browser found here: open the address above in one.[/]")
        else:
            threading.Thread(target=open_when_listening, daemon=True).start()
    uvicorn.run(web, host=host, port=port, log_level="warning")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float | int) and not isinstance(value, bool):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return escape(str(value))


from . import lab  # noqa: E402, F401  (registers `simulate` and `report`)


def main() -> None:
    """The console-script entry point."""
    app()


def _show_version(value: bool) -> None:
    if value:
        _stdout().print(f"spacetable {version('spacetable')}")
        raise typer.Exit()


@app.callback()
def _options(
    show_version: Annotated[
        bool,
        typer.Option("--version", metavar="", callback=_show_version, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """A rules engine and digital tabletop for space strategy board games."""


if __name__ == "__main__":
    main()
