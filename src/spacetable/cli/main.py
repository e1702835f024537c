"""The ``spacetable`` command's entry point, and ``play``: a game in the terminal, or a batch of bot games.

Every error a user can cause (a bad option, an unknown bot, a missing or foreign
file) is one clear line on stderr and exit code 2, never a traceback. A record
that reads fine but does not replay exits with 1.
"""

from __future__ import annotations

import functools
import random
import shlex
import sys
import time
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spacetable.agents import AGENTS, make_agent
from spacetable.engine import Action, Event, Game, Player, Record, SpacetableError, State, play
from spacetable.engine.safejson import MAX_INT

from . import listing  # noqa: F401  (registers `list`, the first command in the help)
from .common import CliError, app, ask_yes_no, fail, guarded, print_outcome, progress_bar, stdout_console
from .options import DEFAULT_BOT, HUMAN, check_replaceable, check_writable, load_game, load_record, parse_seats
from .saves import LAST, find_save, new_save_path, starting_seed_words
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


def _save(record: Record, path: Path | None, console: Console, quiet: bool = False) -> None:
    """Write the record atomically (a crash mid-write leaves the previous file whole)."""
    if path is None:
        return
    try:
        record.save(path)
    except OSError as exc:
        fail(f"cannot write the record to {str(path)!r}: {exc.strerror or exc}")
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


def _draw_seed(seed: int | None, console: Console, resumed_from: Record | None = None) -> int:
    """The seed of the dice and bots from here on; one is drawn when none is given. It is shown when
    drawn, to replay the game, and always on resuming, beside the seed the game began with."""
    given = seed is not None
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if resumed_from is not None:
        source = ", from --seed," if given else ""
        began = starting_seed_words(resumed_from.seed)
        console.print(f"[dim]seed {seed}{source} for the rest of the game ({escape(began)})[/]", soft_wrap=True)
    elif not given:
        console.print(f"[dim]seed {seed}[/]")
    return seed


def make_players(
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
    players = make_players(seats, console, game)
    start = time.perf_counter()
    progress = progress_bar(console)
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
        fail(f"all {len(failed)} games failed; the first: {failed[0][2][:200]}", code=1)
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
    delay: float = 0.0,
    full_screen: bool = False,
    resumed: tuple[Record, State] | None = None,
) -> tuple[int, bool]:
    """One game with the terminal watching (humans at the prompt); returns the exit code and
    whether the game was played to its end.

    ``seed``: of the dice and bots from here on. ``resumed``: a saved record and the position
    it reached, to play on from. ``delay``: seconds each bot waits before its move.
    ``full_screen``: the people play on the full-screen table (:mod:`.tui`), else line by line.
    """
    humans = [s for s, who in enumerate(seats) if who == HUMAN]
    viewer = humans[0] if len(humans) == 1 else None
    record, state = resumed if resumed else (Record.start(game, seats, seed=seed), None)
    record.seats = list(seats)
    if path is None:
        path = new_save_path(game.id)
    printer = EventPrinter(console, viewer, hold=bool(humans))
    players = make_players(seats, console, game, printer, delay)
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
        if full_screen and humans:
            from .tui import TableApp, play_at_table  # Textual is loaded only for a game on the full-screen table

            table_players = [None if who == HUMAN else player for who, player in zip(seats, players, strict=True)]
            saver = functools.partial(_save, record, path, console, True)  # after every action
            final = play_at_table(TableApp(game, table_players, seed, record, state, saver))
        else:
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
    print_outcome(final, console, viewer)
    _save(record, path, console, quiet=True)
    _print_summary(final, record, seed, path, console, resumed is not None)
    return 0, True


def _print_summary(final: State, record: Record, seed: int, path: Path, console: Console, resumed: bool) -> None:
    """The end of a game in a few lines: result and reason, scores, rounds, seed (of a resumed game:
    the seed of its last part and the one it began with), the record."""
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
    began = f" since the last resume ({starting_seed_words(record.seed)})" if resumed else ""
    table.add_row("seed", escape(f"{seed}{began}"))
    table.add_row("record", escape(str(path)))
    console.print()
    console.print(table)
    console.print(f"[dim]`spacetable replay {escape(shlex.quote(str(path)))}` replays it.[/]", soft_wrap=True)


@app.command(
    "play",
    epilog="Keys at the table: type to filter the moves; the arrow keys and Enter, or a move's number, "
    "choose one; a mouse click on a piece, then on a place; Tab moves between the panels; F1 shows the "
    "help; Ctrl+Q leaves, and the game stays saved (`--resume last` plays on).\n\n"
    "When the input is piped (no terminal), the table reads lines: a number chooses, b shows the board, "
    "l the log, ? the help, q quits.",
)
@guarded
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
            f"The bots: {', '.join(sorted(AGENTS))}. "
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
            "only; batches are not saved otherwise). An existing file (but the game resumed) is replaced only "
            "after a yes, or with --overwrite.",
        ),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", metavar="", help="Replace an existing --record file without asking.")
    ] = False,
    line: Annotated[
        bool,
        typer.Option(
            "--line",
            metavar="",
            help="Play line by line (a menu, then a prompt) rather than on the full-screen table: for screen "
            "readers and scripts; also used whenever input or output is not a terminal.",
        ),
    ] = False,
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
            help="Play on from a saved game: `last` (the newest unfinished one, of GAME when it is named), "
            "a number from `spacetable saves`, or a record file. It keeps growing in that file unless --record "
            "names another. Game options come from the record; --seed seeds the rest of the game.",
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots, or a batch of bot games with --games.

    Every game is saved after every action (see `spacetable saves`); `--resume last` plays on.
    """
    console = stdout_console()
    full_screen = not line and console.is_terminal and sys.stdin.isatty()
    if seed is not None and abs(seed) > MAX_INT:
        fail(f"bad --seed {seed}: a seed must be within ±{MAX_INT:,}, to be kept in the game's record")
    if resume is not None:
        try:
            file = find_save(resume, game_id)
        except LookupError as exc:
            fail(str(exc))
        _resume(game_id, file, seat or [], seed, record, console, delay, overwrite, full_screen)
        return
    if game_id is None:
        fail("name the game to play (see `spacetable list`), or resume one with --resume last")
    try:
        game = load_game(game_id, players, level, content, option, mode, finite=games is not None)
        seats = parse_seats(seat or [], game.players, batch=games is not None)
        if record is not None:
            check_writable(record)
            check_replaceable(record, overwrite, console)
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    game_seed = _draw_seed(seed, console)
    try:
        if games is not None:
            last = _play_batch(game, seats, random.Random(game_seed), games, console)
            _save(last, record, console)
            return
        code, finished = _play_one(game, seats, game_seed, console, record, delay, full_screen=full_screen)
        again = "Play again with a new seed?"
        while finished and HUMAN in seats and ask_yes_no(console, again, default=False, on_pipe=False):
            new_seed = _draw_seed(None, console)
            code, finished = _play_one(game, seats, new_seed, console, None, delay, full_screen=full_screen)
    except SpacetableError as exc:
        fail(str(exc))
    if code:
        raise typer.Exit(code)


def _resume(
    game_id: str | None,
    file: Path,
    seat_values: list[str],
    seed: int | None,
    path: Path | None,
    console: Console,
    delay: float = 0.0,
    overwrite: bool = False,
    full_screen: bool = False,
) -> None:
    """Play on from the record in ``file``, saving to ``path`` (default: ``file`` itself)."""
    rec = load_record(file)
    try:
        if game_id is not None and rec.game_id != game_id:
            raise CliError(f"{file} is a record of {rec.game_id}, not {game_id}")
        game = rec.game()
        state = rec.final_state()
        if state.is_terminal():
            raise CliError(f"{file}: that game is over; `spacetable replay {file}` shows it")
        seats = parse_seats(seat_values, game.players, batch=False) if seat_values else _record_seats(rec, file)
        target = path or file
        check_writable(target)
        if target.resolve() != file.resolve():
            check_replaceable(target, overwrite, console)
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    rest_seed = _draw_seed(seed, console, resumed_from=rec)
    code, _ = _play_one(game, seats, rest_seed, console, target, delay, full_screen, resumed=(rec, state))
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


# the commands after `play` in the help, in this order: saves, replay, tournament, bench, serve; simulate, report
from . import commands, lab, ladder, learn, report, sweep, trajectories  # noqa: E402, F401  (register saves ... serve, simulate ... trajectories)


def main() -> None:
    """The console-script entry point."""
    app()


def _show_version(value: bool) -> None:
    if value:
        stdout_console().print(f"spacetable {version('spacetable')}")
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
