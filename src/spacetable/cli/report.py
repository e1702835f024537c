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
from spacetable.sim.overrides import describe, differences, listed_overrides
from spacetable.sim.report import (
    HEADLINE,
    Change,
    Figure,
    RunSummary,
    first_player_sentence,
    sensitivity,
    shown,
    shown_change,
    shown_change_interval,
    shown_interval,
    shown_p,
)

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
    figure: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=EXPR",
            help="Your own per-game figure, repeatable: a duckdb SQL expression over a row of the run, "
            'column names quoted (e.g. \'bought="value: bought: Prod" + "value: bought: Convoy"\').',
        ),
    ] = None,
    csv: Annotated[
        Path | None,
        typer.Option(dir_okay=False, metavar="FILE", help="Also write every figure (and change) as CSV rows here."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(dir_okay=False, metavar="FILE", help="Also write a self-contained HTML page with plots here."),
    ] = None,
    plots: Annotated[
        Path | None, typer.Option(metavar="DIR", help="Also save the plots as PNG files here (a folder).")
    ] = None,
) -> None:
    """A run's win rates by seat and the starting player's (95% intervals), game lengths, endings
    and the game's own figures; with --compare, what changed significantly between two runs, each
    change with its 95% interval."""
    from spacetable.sim import report as lab

    try:
        own = _own_figures(figure or [])
        for path, option in ((csv, "--csv"), (html, "--html")):
            if path is not None:
                check_writable(path, option)
        if plots is not None and plots.exists() and not plots.is_dir():
            raise CliError(f"--plots {str(plots)!r} is a file, not a folder")
        runs = [lab.summarise(run, own)] + ([lab.summarise(compare, own)] if compare is not None else [])
        changes = lab.compare(runs[0], runs[1]) if compare is not None else None
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    console = stdout_console()
    for summary in runs:
        console.print(
            f"[bold]{escape(summary.path.name)}[/]: {summary.games} games · {escape(describe(summary.settings))}",
            soft_wrap=True,
        )
    if changes is None:
        _print_run(runs[0], console)
    else:
        _print_comparison(runs, changes, console)
    if csv is not None:
        _write(csv, lab.csv_text(runs, changes))
        console.print(f"[dim]Figures saved to {escape(str(csv))}.[/]")
    if html is None and plots is None:
        return
    from spacetable.sim import plots as drawing

    images = drawing.plots(runs, changes)
    if plots is not None:
        drawing.save_plots(images, plots)
        console.print(f"[dim]Plots saved in {escape(str(plots))}: {', '.join(images)}.[/]")
    if html is not None:
        _write(html, drawing.html_page(runs, changes, images))
        console.print(f"[dim]Report saved to {escape(str(html))}.[/]")


def _own_figures(values: list[str]) -> dict[str, str]:
    """``--figure NAME=EXPR`` values by name; CliError on a value without a name or an expression."""
    own: dict[str, str] = {}
    for item in values:
        name, sep, expression = item.partition("=")
        name = name.strip()
        if not sep or not name or not expression.strip():
            raise CliError(f"bad --figure {item[:60]!r}: write NAME=EXPR, e.g. 'long game=actions > 500'")
        if name in own:
            raise CliError(f"--figure {name!r} is given twice")
        own[name] = expression
    return own


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {str(path)!r}: {exc.strerror or exc}")


def _print_run(summary: RunSummary, console: Console) -> None:
    listed = listed_overrides(summary.settings)
    overrides = " · ".join(f"{k} = {v}" for k, v in listed) if listed else "none (the game as its rulebook sets it)"
    console.print(f"Overrides: {escape(overrides)}", soft_wrap=True)
    console.print(_figure_table("Headline figures", summary.headline()))
    for said in (first_player_sentence(summary), sensitivity([summary])):
        if said:
            console.print(escape(said), soft_wrap=True)
    ended = " · ".join(f"{escape(reason or 'unfinished')}: {n}" for reason, n in summary.endings.items())
    console.print(f"How the games ended: {ended}", soft_wrap=True)
    if summary.details():
        console.print(_figure_table("Details", summary.details()))


def _figure_table(title: str, figures: list[Figure]) -> Table:
    table = Table(title=title, title_justify="left", box=None, padding=(0, 1))
    table.add_column("figure", overflow="fold")  # the names wrap, the numbers stay whole
    for column in ("value", "95% interval", "n"):
        table.add_column(column, justify="right", no_wrap=True)
    for f in figures:
        table.add_row(escape(f.name), shown(f), shown_interval(f), f"{f.n:g}")
    return table


def _print_comparison(runs: list[RunSummary], changes: list[Change], console: Console) -> None:
    from spacetable.sim.report import verdict

    rows = differences(runs[0].settings, runs[1].settings)
    if rows:
        table = Table(title="What differs between the runs", title_justify="left", box=None, padding=(0, 1))
        for column in ("setting", runs[0].path.name, runs[1].path.name):
            table.add_column(escape(column))
        for key, before, after in rows:
            table.add_row(escape(key), escape(before), escape(after))
        console.print(table)
    else:
        console.print("The two runs have the same settings (game, seats, seed, options, content).")
    console.print(f"[bold]{escape(verdict(changes, runs[0], runs[1]))}[/]", soft_wrap=True)
    power = sensitivity(runs)
    if power:
        console.print(escape(power), soft_wrap=True)
    for run in runs:
        said = first_player_sentence(run)
        if said:
            console.print(f"{escape(run.path.name)}: {escape(said)}", soft_wrap=True)
    headline = [c for c in changes if c.family == HEADLINE]
    details = sorted((c for c in changes if c.family != HEADLINE), key=lambda c: c.p)
    console.print(_change_table("Headline figures", headline))
    if details:
        console.print(_change_table("Details (smallest p first)", details))
    console.print("[dim]* significant at 5% with Holm's correction within its family (headline, details)[/]")


def _change_table(title: str, changes: list[Change]) -> Table:
    table = Table(title=title, title_justify="left", box=None, padding=(0, 1))
    table.add_column("figure", overflow="fold")  # the names wrap, the numbers stay whole
    for column in ("before", "after", "change", "95% interval", "effect", "p", ""):
        table.add_column(column, justify="right", no_wrap=True)
    for c in changes:
        table.add_row(
            escape(c.name),
            shown(c.before),
            shown(c.after),
            shown_change(c),
            shown_change_interval(c),
            f"{c.effect:+.2f}",
            shown_p(c.p),
            "*" if c.significant else "",
        )
    return table
