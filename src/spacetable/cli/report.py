"""The balance lab's reading command: ``spacetable report`` (a run's figures, or what changed
between two runs of ``spacetable simulate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spacetable.engine import SpacetableError
from spacetable.sim.report import Change, RunSummary, describe, shown, shown_change

from .common import CliError, app, fail, guarded, stdout_console
from .options import check_writable


@app.command("report")
@guarded
def report_command(
    run: Annotated[Path, typer.Argument(metavar="RUN.parquet", help="A run written by `spacetable simulate`.")],
    compare: Annotated[
        Path | None,
        typer.Option(metavar="OTHER.parquet", help="A second run of the same game: each figure side by side, tested."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(dir_okay=False, metavar="FILE", help="Also write a self-contained HTML page with plots here."),
    ] = None,
    plots: Annotated[
        Path | None, typer.Option(file_okay=False, metavar="DIR", help="Also save the plots as PNG files here.")
    ] = None,
) -> None:
    """A run's win rates by seat (95% intervals), first-player advantage, game lengths, endings and
    the game's own figures; with --compare, what changed significantly between two runs."""
    from spacetable.sim import report as lab

    try:
        runs = [lab.summarise(run)] + ([lab.summarise(compare)] if compare is not None else [])
        changes = lab.compare(runs[0], runs[1]) if compare is not None else None
        if html is not None:
            check_writable(html, "--html")
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    console = stdout_console()
    for summary in runs:
        _print_run(summary, console)
    if changes is not None:
        _print_changes(changes, console)
        console.print(escape(lab.verdict(changes, runs[0], runs[1])), soft_wrap=True)
    if html is None and plots is None:
        return
    from spacetable.sim import plots as drawing

    images = drawing.plots(runs, changes)
    if plots is not None:
        drawing.save_plots(images, plots)
        console.print(f"[dim]Plots saved in {escape(str(plots))}: {', '.join(images)}.[/]")
    if html is not None:
        try:
            html.write_text(drawing.html_page(runs, changes, images), encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {str(html)!r}: {exc.strerror or exc}")
        console.print(f"[dim]Report saved to {escape(str(html))}.[/]")


def _print_run(summary: RunSummary, console: Console) -> None:
    console.print(f"[bold]{escape(summary.path.name)}[/]: {summary.games} games · {escape(describe(summary.settings))}")
    table = Table(box=None, padding=(0, 1))
    for column in ("figure", "value", "95% interval", "n"):
        table.add_column(column, justify="left" if column == "figure" else "right")
    rows = [*summary.seats, summary.length, *([summary.rounds] if summary.rounds else []), *summary.figures]
    for f in rows:
        table.add_row(escape(f.name), shown(f), f"{shown(f, f.low)} – {shown(f, f.high)}", f"{f.n:g}")
    console.print(table)
    if summary.first_player is not None:
        edge, p = summary.first_player
        console.print(f"First-player advantage: seat 0 wins {100 * edge:+.1f} points over a fair share (p={p:.2g}).")
    ended = " · ".join(f"{escape(reason or 'unfinished')}: {n}" for reason, n in summary.endings.items())
    console.print(f"How the games ended: {ended}", soft_wrap=True)


def _print_changes(changes: list[Change], console: Console) -> None:
    table = Table(title="Changes (sorted by p-value; * significant at 5% with Holm's correction)", box=None)
    for column in ("figure", "before", "after", "change", "effect", "p", ""):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for c in sorted(changes, key=lambda c: c.p):
        table.add_row(
            escape(c.name),
            shown(c.before),
            shown(c.after),
            shown_change(c),
            f"{c.effect:+.2f}",
            f"{c.p:.3g}",
            "*" if c.significant else "",
        )
    console.print(table)
