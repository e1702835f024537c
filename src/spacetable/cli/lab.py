"""The balance lab's run command: ``spacetable simulate`` (a run of bot games into a Parquet file).
``spacetable report`` (cli/report.py) reads its runs; docs/LAB.md shows a designer's workflow."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from spacetable.engine import SpacetableError

from .common import CliError, app, fail, guarded, stdout_console
from .options import (
    BotSeats,
    GameOptions,
    Jobs,
    Players,
    RayAddress,
    VariantContent,
    check_writable,
    load_game,
    parse_seats,
)

LINE_SECONDS = 30.0
"""Off a terminal, the longest wait between two progress lines."""
TOGETHER_SECONDS = 0.0005
"""Games reported closer together than this arrived at once (a batch's results, the kept games):
microseconds apart, where playing a game takes milliseconds at the least."""


@app.command("simulate")
@guarded
def simulate_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="The game's id (see `spacetable list`).")],
    out: Annotated[
        Path, typer.Option(dir_okay=False, metavar="RUN.parquet", help="The run's Parquet file, one row per game.")
    ],
    games: Annotated[int, typer.Option(min=1, metavar="N", help="Games in the run.")] = 100,
    players: Players = None,
    seat: BotSeats = None,
    option: GameOptions = None,
    content: VariantContent = None,
    seed: Annotated[int, typer.Option(metavar="N", help="The run's seed; game i plays with seed:i.")] = 0,
    jobs: Jobs = 1,
    ray: RayAddress = None,
    resume: Annotated[bool, typer.Option(help="Continue the run in --out (same game, seats, options, seed).")] = False,
) -> None:
    """Play a run of bot games and write one row per game to a Parquet file as they finish.

    For offline RL, `spacetable trajectories` writes every decision of the same games (per-step rows).
    """
    from spacetable.sim.simulate import simulate

    try:
        game = load_game(game_id, players, None, content, option, finite=True)  # bots' games must end
        bots = [who.partition(":")[2] for who in parse_seats(seat or [], game.players, batch=True)]
        check_writable(out, "--out")
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    console = stdout_console()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    kept = played = 0
    lines = None if console.is_terminal else progress_lines(console, game.id, games)
    try:
        with progress:
            task = progress.add_task(game.id, total=games, rate="")

            def advance(done: int) -> None:
                speed = progress.tasks[0].speed
                progress.update(task, completed=done, rate=f"{speed:.1f} games/s" if speed else "")
                if lines is not None:
                    lines(done)

            kept, played = simulate(game, bots, games, out, seed, jobs, ray, resume, on_game=advance)
    except KeyboardInterrupt:
        console.print(f"[bold]Interrupted.[/] The finished games are in {escape(str(out))}; --resume plays the rest.")
        raise typer.Exit(130) from None
    elapsed = progress.tasks[0].finished_time or progress.tasks[0].elapsed or 0.0
    speed = f" in {elapsed:.1f} s ({played / elapsed:.2f} games/s)" if played and elapsed else ""
    again = f" after the {kept} kept" if kept else ""
    console.print(f"{played} games of {game.id} played{again}{speed}; {kept + played} rows in {escape(str(out))}.")


def progress_lines(console: Console, name: str, games: int) -> Callable[[int], None]:
    """Progress off a terminal (a pipe, a log file): ``on_game(done)`` prints a plain line with
    the games done of ``games``, games/s and the time left, every tenth of the run or every
    LINE_SECONDS, whichever comes first (not at the end, which the run's last line says). The
    rate counts from the last of the games reported together at the start (the kept games, the
    first batch), so a batch arriving at once is not a rate of thousands a second."""
    step = max(1, games // 10)
    since: tuple[float, int] | None = None  # (time, games done) the rate counts from
    shown = (0.0, 0)

    def line(done: int) -> None:
        nonlocal since, shown
        now = time.monotonic()
        if since is None:
            shown = (now, done)
        if since is None or now - since[0] < TOGETHER_SECONDS:
            since = (now, done)
        if done >= games or (done - shown[1] < step and now - shown[0] < LINE_SECONDS):
            return
        shown = (now, done)
        rate = (done - since[1]) / (now - since[0]) if now > since[0] and done > since[1] else 0.0
        pace = f" · {rate:.2f} games/s · about {_duration((games - done) / rate)} left" if rate else ""
        console.print(f"{escape(name)}: {done:,}/{games:,} games ({done / games:.0%}){pace}", soft_wrap=True)

    return line


def _duration(seconds: float) -> str:
    """A time left in words a log reader takes in at a glance: 45 s, 12 min, 2 h 05 min."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"
