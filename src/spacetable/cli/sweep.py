"""The balance lab's sweep: ``spacetable sweep`` (a run of ``spacetable simulate`` per value of a
content key or game option, and each figure against the value; sim/sweep.py does the work)."""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spacetable.engine import SpacetableError
from spacetable.sim import sweep as sweeps
from spacetable.sim import sweep_report

from .common import CliError, app, fail, guarded, progress_bar, stdout_console
from .lab import progress_lines
from .options import BotSeats, GameOptions, Jobs, Players, RayAddress, check_writable, load_game, parse_seats

NAME_WIDTH = 40
"""A figure's name longer than this is wrapped between words, so that its column fits beside the value's
in 80 columns; the tables take as many figures as fit the console's width."""


@app.command("sweep")
@guarded
def sweep_command(
    game_id: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="The game's id (see `spacetable list`); not with --report.")
    ] = None,
    vary: Annotated[
        str | None,
        typer.Option(
            metavar="KEY=VALUES",
            help="The content key to vary (deck.card_price) or option:NAME (a game option), and its values: "
            "a comma list (1,2,3), an inclusive range (2..5, 0.5..2:0.5 with a step), or both (1..3,10).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="The sweep's folder: sweep.json and one run per value."),
    ] = None,
    games: Annotated[int, typer.Option(min=1, metavar="N", help="Games per value.")] = 100,
    players: Players = None,
    seat: BotSeats = None,
    option: GameOptions = None,
    content: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="A TOML file overriding the game's content; each value is laid over it."),
    ] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="The seed of every run: game i plays with seed:i.")] = 0,
    jobs: Jobs = 1,
    ray: RayAddress = None,
    resume: Annotated[bool, typer.Option(help="Continue the sweep in --out (the same settings).")] = False,
    report: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Only report the sweep in DIR (finished or not)."),
    ] = None,
    figure: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME", help="Also report this figure of the runs, repeatable."),
    ] = None,
    fair_within: Annotated[
        float | None,
        typer.Option(
            min=0,
            metavar="POINTS",
            help=f"Target: every seat's win rate within POINTS of the fair share (the default with "
            f"{sweeps.FAIR_POINTS:g} for games of several players when no --target is given).",
        ),
    ] = None,
    target: Annotated[
        list[str] | None,
        typer.Option(
            metavar="FIGURE=LOW..HIGH",
            help="Target: a figure's band, repeatable: 'seat 0 win rate=40%..60%', 'game length (rounds)=8..12'.",
        ),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(dir_okay=False, metavar="FILE", help="Also write a self-contained HTML page with plots here."),
    ] = None,
    plots: Annotated[
        Path | None, typer.Option(file_okay=False, metavar="DIR", help="Also save the plots as PNG files here.")
    ] = None,
    csv: Annotated[
        Path | None,
        typer.Option(
            dir_okay=False, metavar="FILE", help="Also write value, figure, estimate, low, high, n as CSV here."
        ),
    ] = None,
) -> None:
    """Play a run of bot games per value of a content key (or a game option), with the same seeds,
    and report each figure against the value with its 95% interval and the values meeting a target."""
    try:
        if report is not None:
            if game_id is not None or vary is not None or out is not None:
                raise CliError("--report DIR reads a sweep: give it without GAME, --vary or --out")
            folder = report
        elif game_id is None or vary is None or out is None:
            raise CliError("name the GAME, --vary KEY=VALUES and --out DIR (or read a sweep with --report DIR)")
        else:
            folder = out
        bands = [sweeps.parse_band(text) for text in target or []]
        for path, name in ((html, "--html"), (csv, "--csv")):
            if path is not None:
                check_writable(path, name)
        sweep = None
        if report is None and game_id is not None and vary is not None:
            key, values = sweeps.parse_vary(vary)
            game = load_game(game_id, players, None, content, option, finite=True)  # bots' games must end
            bots = [who.partition(":")[2] for who in parse_seats(seat or [], game.players, batch=True)]
            sweep = sweeps.Sweep.of(game, bots, key, values, games, seed)
            sweeps.choose_target(game.players, bands, fair_within)
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    console = stdout_console()
    if sweep is not None:
        _play(sweep, folder, jobs, ray, resume, console)
    summary = sweeps.summarise_sweep(folder)
    chosen = sweeps.choose_target(summary.sweep.players, bands, fair_within)
    sweeps.check_target(summary, chosen)
    names = sweeps.figure_names(summary, figure or [])
    _print(summary, names, chosen, console)
    if csv is not None:
        sweep_report.write_csv(summary, names, csv)
        console.print(f"[dim]Figures saved to {escape(str(csv))}.[/]")
    if html is None and plots is None:
        return
    from spacetable.sim.plots import save_plots

    images = sweep_report.sweep_plots(summary, names, chosen)
    if plots is not None:
        save_plots(images, plots)
        console.print(f"[dim]Plots saved in {escape(str(plots))}: {', '.join(images)}.[/]", soft_wrap=True)
    if html is not None:
        try:
            html.write_text(sweep_report.html_page(summary, names, chosen, images), encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {str(html)!r}: {exc.strerror or exc}")
        console.print(f"[dim]Report saved to {escape(str(html))}.[/]")


def _play(sweep: sweeps.Sweep, folder: Path, jobs: int, ray: str | None, resume: bool, console: Console) -> None:
    """Play the sweep: a line as each value's run starts and ends, and its progress: a bar on a
    terminal, else a plain line now and then (``simulate``'s)."""
    progress = progress_bar(console)
    task = None
    lines: Callable[[int], None] | None = None
    started = 0.0

    def start(name: str) -> None:
        nonlocal task, lines, started
        console.print(f"{escape(name)}: playing …")
        task = progress.add_task(name, total=sweep.games)
        lines = None if console.is_terminal else progress_lines(console, name, sweep.games)
        started = time.monotonic()

    def advance(done: int) -> None:
        if task is not None:
            progress.update(task, completed=done)
        if lines is not None:
            lines(done)

    def end(name: str, kept: int, played: int) -> None:
        if task is not None:
            progress.remove_task(task)
        again = f" after the {kept} kept" if kept else ""
        console.print(f"{escape(name)}: {played} games played{again} in {time.monotonic() - started:.1f} s.")

    try:
        with progress:
            sweeps.run_sweep(sweep, folder, jobs, ray, resume, on_start=start, on_game=advance, on_end=end)
    except KeyboardInterrupt:
        console.print(
            f"[bold]Interrupted.[/] The finished games are in {escape(str(folder))}; --resume plays the rest."
        )
        raise typer.Exit(130) from None


def _print(summary: sweeps.SweepSummary, names: list[str], target: sweeps.Target | None, console: Console) -> None:
    console.print(
        f"[bold]{escape(str(summary.folder))}[/]: {escape(sweep_report.describe_sweep(summary))}", soft_wrap=True
    )
    header, rows = sweep_report.table(summary, names, target)
    fixed = len(header) - len(names)
    header[fixed:] = [textwrap.fill(name, NAME_WIDTH, break_long_words=False) for name in header[fixed:]]
    for chunk in _chunks(_column_widths(header, rows), fixed, console.width):
        table = Table(box=None, padding=(0, 1))
        for k in chunk:
            table.add_column(escape(header[k]), justify="left" if k == 0 else "right", no_wrap=True)
        for row in rows:
            table.add_row(*(escape(row[k]) for k in chunk))
        console.print(table)
    if summary.missing:
        console.print(f"Not played yet: {escape(', '.join(summary.missing))} (--resume plays them).", soft_wrap=True)
    if target is not None:
        console.print(f"[dim]{escape(sweep_report.MARKS)}.[/]", soft_wrap=True)
        for line in sweeps.findings(summary, target):
            console.print(escape(line), soft_wrap=True)
    if summary.detects:
        console.print(escape(summary.detects), soft_wrap=True)


def _column_widths(header: list[str], rows: list[list[str]]) -> list[int]:
    """Each column's width, its padding included: its widest cell or header line."""
    return [
        max(cell_len(line) for line in [*header[k].splitlines(), *(row[k] for row in rows)]) + 2
        for k in range(len(header))
    ]


def _chunks(widths: list[int], fixed: int, width: int) -> list[list[int]]:
    """The columns of each table the report prints, so that every cell fits whole in ``width``:
    the first table the ``fixed`` columns and as many figures as fit, the next ones the value and
    as many more (at least one each)."""
    chunks: list[list[int]] = []
    chunk = list(range(fixed))
    for k in range(fixed, len(widths)):
        alone = len(chunk) == (fixed if not chunks else 1)
        if not alone and sum(widths[c] for c in chunk) + widths[k] > width:
            chunks.append(chunk)
            chunk = [0]
        chunk.append(k)
    return [*chunks, chunk]
