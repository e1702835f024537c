"""The report's plots (matplotlib, the optional extra `lab`) and its self-contained HTML page.

Each plot has one unit: win rates, the share of games by length, the changes of rates in points,
the changes of per-game counts. Every interval drawn is the one the report's tables give (the
test's own), and a change is coloured as the verdict calls it (Holm's correction within its
family). Each plot is a PNG; the page embeds them as base64 ``data:`` URIs, so it is one file
that opens anywhere without the run or the network.
"""

from __future__ import annotations

import base64
import html
import io
import textwrap
from pathlib import Path
from typing import Any

from .overrides import describe, differences, listed_overrides
from .report import (
    ALPHA,
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
    verdict,
)
from .simulate import RunError

MOST = 20
"""The bars of a plot of figures: the headline ones, then the details with the smallest p-values
(two runs) or the most cases (one run)."""
SETTINGS = 12
"""The settings shown before the rest are folded."""
SIGNIFICANT, NOMINAL, NOTHING = "tab:red", "tab:orange", "tab:grey"
LENGTHS = ("game length (actions)", "game length (rounds)")


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RunError("plots need matplotlib: pip install 'spacetable[lab]'") from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def plots(runs: list[RunSummary], changes: list[Change] | None) -> dict[str, bytes]:
    """The PNG plots of one run or two, by file name, the key ones first."""
    plt = _pyplot()
    images = {"win_rates.png": _win_rates(plt, runs)}
    if changes is not None:
        rates = [c for c in changes if c.before.percent]
        counts = [c for c in changes if not c.before.percent and c.name not in LENGTHS]
        drawn = [
            ("rate_changes.png", rates, "Change in rates, points (95% interval)"),
            ("count_changes.png", counts, "Change in counts per game (95% interval)"),
        ]
        for name, chosen, title in drawn:
            if chosen:
                images[name] = _changes(plt, chosen, title, 100 if chosen[0].before.percent else 1)
    images["lengths.png"] = _lengths(plt, runs)
    if changes is None:
        run = runs[0]
        for name, percent, unit in (("rates.png", True, "rates, %"), ("counts.png", False, "counts per game")):
            figures = [f for f in run.figures if f.percent == percent and f.n]
            if figures:
                images[name] = _figures(plt, run, figures, unit)
    return images


def _win_rates(plt: Any, runs: list[RunSummary]) -> bytes:
    """Each seat's win rate (and the starting player's) with its Wilson interval, run by run."""
    groups = [f"seat {s}\n{bot}" for s, bot in enumerate(runs[0].settings.seats)]
    if any(run.first_player for run in runs):
        groups.append("starting\nplayer")
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    width = 0.8 / len(runs)
    for k, run in enumerate(runs):
        shown_rates = [*run.seats, *([run.first_player.figure] if run.first_player else [])]
        xs = [g + (k - (len(runs) - 1) / 2) * width for g in range(len(shown_rates))]
        values = [100 * f.value for f in shown_rates]
        errors = [[100 * (f.value - f.low) for f in shown_rates], [100 * (f.high - f.value) for f in shown_rates]]
        ax.bar(xs, values, width, yerr=errors, capsize=4, label=f"{run.path.stem} ({run.games} games)")
    if runs[0].settings.players > 1:
        ax.axhline(100 / runs[0].settings.players, color="black", linestyle=":", label="fair share")
    ax.set_xticks(range(len(groups)), groups)
    ax.yaxis.set_major_formatter("{x:.0f}%")
    ax.set_title("Win rate (95% interval)")
    fig.legend(loc="lower center", ncols=3, fontsize="small", frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return _png(plt, fig, laid_out=True)


def _lengths(plt: Any, runs: list[RunSummary]) -> bytes:
    """Histograms of the game length, each bar the share of its run's games."""
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    top = max(max(run.lengths) for run in runs)
    bottom = min(min(run.lengths) for run in runs)
    bins = list(range(bottom, top + 2, max(1, (top - bottom) // 30 + 1)))
    for run in runs:
        weights = [100 / len(run.lengths)] * len(run.lengths)
        label = f"{run.path.stem} (mean {run.length.value:.1f})"
        ax.hist(run.lengths, bins=bins, weights=weights, alpha=0.55, label=label)
    ax.yaxis.set_major_formatter("{x:g}%")
    ax.set_title("Game length in actions (share of games)")
    ax.legend(fontsize="small")
    return _png(plt, fig)


def _changes(plt: Any, changes: list[Change], title: str, scale: int) -> bytes:
    """The changes of one unit, headline ones on top, then up to ``MOST`` with the smallest p."""
    headline = [c for c in changes if c.family == HEADLINE]
    details = sorted((c for c in changes if c.family != HEADLINE), key=lambda c: c.p)
    chosen = [*headline, *details[: max(0, MOST - len(headline))]]
    return _bars(
        plt,
        [c.name for c in chosen],
        [scale * c.difference for c in chosen],
        [scale * c.low for c in chosen],
        [scale * c.high for c in chosen],
        [_colour(c) for c in chosen],
        len(headline),
        title + (f": the {len(chosen) - len(headline)} details with the smallest p" if details else ""),
        legend=True,
    )


def _figures(plt: Any, run: RunSummary, figures: list[Figure], unit: str) -> bytes:
    """One run's figures of one unit with their intervals: headline ones, then the details with
    the most cases (rates) or the largest means (counts)."""
    headline = [f for f in figures if f.headline]
    percent = figures[0].percent
    details = sorted((f for f in figures if not f.headline), key=lambda f: -f.n if percent else -f.value)
    chosen = [*headline, *details[: max(0, MOST - len(headline))]]
    scale = 100 if percent else 1
    most = "the most cases" if percent else "the largest means"
    more = f": the {len(chosen) - len(headline)} of {len(details)} details with {most}" if details else ""
    return _bars(
        plt,
        [f.name for f in chosen],
        [scale * f.value for f in chosen],
        [scale * f.low for f in chosen],
        [scale * f.high for f in chosen],
        ["tab:blue"] * len(chosen),
        len(headline),
        f"{unit.capitalize()} in {run.path.stem} (95% interval){more}",
        legend=False,
    )


def _bars(
    plt: Any,
    names: list[str],
    values: list[float],
    lows: list[float],
    highs: list[float],
    colours: list[str],
    headline: int,
    title: str,
    legend: bool,
) -> bytes:
    """Horizontal bars with their intervals, top to bottom; a line under the ``headline`` first ones."""
    from matplotlib.patches import Patch

    labels = ["\n".join(textwrap.wrap(name, 38)) for name in names]
    rows = len(names) + sum(label.count("\n") for label in labels) * 0.6
    fig, ax = plt.subplots(figsize=(8, 0.3 * rows + 1.6))
    ys = list(range(len(names)))[::-1]
    errors = [[v - lo for v, lo in zip(values, lows)], [hi - v for v, hi in zip(values, highs)]]
    ax.barh(ys, values, xerr=errors, color=colours, capsize=3)
    ax.set_yticks(ys, labels, fontsize="small")
    if 0 < headline < len(names):
        ax.axhline(len(names) - headline - 0.5, color="black", linewidth=0.6, linestyle="--")
    if legend:
        ax.axvline(0, color="black", linewidth=0.8)
        keys = [
            Patch(color=SIGNIFICANT, label="significant (Holm, within its family)"),
            Patch(color=NOMINAL, label=f"p < {ALPHA:g} before the correction"),
            Patch(color=NOTHING, label="no change found"),
        ]
        fig.legend(handles=keys, loc="lower center", ncols=3, fontsize="small", frameon=False)
    ax.set_title("\n".join(textwrap.wrap(title, 70)), fontsize="medium")
    fig.tight_layout(rect=(0, 0.4 / fig.get_figheight() if legend else 0, 1, 1))
    return _png(plt, fig, laid_out=True)


def _colour(change: Change) -> str:
    if change.significant:
        return SIGNIFICANT
    return NOMINAL if change.p < ALPHA else NOTHING


def _png(plt: Any, fig: Any, laid_out: bool = False) -> bytes:
    if not laid_out:
        fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()


def save_plots(images: dict[str, bytes], folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, png in images.items():
            (folder / name).write_bytes(png)
    except OSError as exc:
        raise RunError(f"cannot write the plots to {str(folder)!r}: {exc.strerror or exc}") from None


def html_page(runs: list[RunSummary], changes: list[Change] | None, images: dict[str, bytes]) -> str:
    """The report as one HTML page with its plots inside: what a designer reads first on one screen
    (the verdict, what the runs can detect, what differs between them, the headline figures, the
    key plots), then the details folded."""
    e = html.escape
    out = ["<!doctype html><meta charset='utf-8'><title>spacetable report</title>", _STYLE]
    out.append(f"<h1>{e(runs[0].settings.game)}: {' vs '.join(e(r.path.name) for r in runs)}</h1>")
    for run in runs:
        out.append(f"<p class='run'><b>{e(run.path.name)}</b>: {run.games} games · {e(describe(run.settings))}</p>")
    if changes is not None:
        out.append(f"<p class='verdict'>{e(verdict(changes, runs[0], runs[1]))}</p>")
    power = sensitivity(runs)
    if power:
        out.append(f"<p>{e(power)}</p>")
    out.append(_settings(runs))
    if changes is not None:
        out.append(_change_table("Headline figures", [c for c in changes if c.family == HEADLINE], runs))
    else:
        out.append(_figure_table("Headline figures", runs[0].headline()))
    for run in runs:
        said = first_player_sentence(run)
        if said:
            out.append(f"<p>{e(run.path.name)}: {e(said)}</p>")
    out.append("<div class='plots'>")
    for name, png in images.items():
        out.append(f"<img alt='{e(name)}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>")
    out.append("</div>")
    if changes is not None:
        details = sorted((c for c in changes if c.family != HEADLINE), key=lambda c: c.p)
        if details:
            found = sum(c.significant for c in details)
            summary = f"Details: {len(details)} figures compared, {found} changed significantly"
            out.append(f"<details><summary>{summary}</summary>{_change_table('', details, runs)}</details>")
    for run in runs:
        if run.details():
            summary = f"{e(run.path.name)}: {len(run.details())} details (per card, per option…)"
            out.append(f"<details><summary>{summary}</summary>{_figure_table('', run.details())}</details>")
        endings = ", ".join(f"{e(reason or 'unfinished')}: {n}" for reason, n in run.endings.items())
        out.append(f"<p>{e(run.path.name)}, how the games ended: {endings}</p>")
    return "\n".join(out) + "\n"


def _settings(runs: list[RunSummary]) -> str:
    """What differs between the runs (one run: its overrides), the first ``SETTINGS`` keys shown
    and the rest folded (an override of a whole list names each of its items)."""
    e = html.escape
    if len(runs) == 2:
        rows: list[tuple[str, ...]] = list(differences(runs[0].settings, runs[1].settings))
        if not rows:
            return "<p>The two runs have the same settings (game, seats, seed, options, content).</p>"
        title = "What differs between the runs"
        head = f"<tr><th>setting<th>{e(runs[0].path.name)}<th>{e(runs[1].path.name)}</tr>"
    else:
        rows = list(listed_overrides(runs[0].settings))
        if not rows:
            return "<p>The run overrides no option and no content: the game as its rulebook sets it.</p>"
        title, head = "Overrides", "<tr><th>setting<th>value</tr>"
    lines = ["<tr>" + "".join(f"<td>{e(cell)}" for cell in row) + "</tr>" for row in rows]
    out = f"<h2>{title}</h2><table class='settings'>{head}{''.join(lines[:SETTINGS])}</table>"
    if len(lines) > SETTINGS:
        more = f"<table class='settings'>{''.join(lines[SETTINGS:])}</table>"
        out += f"<details><summary>{len(lines) - SETTINGS} more keys</summary>{more}</details>"
    return out


def _figure_table(title: str, figures: list[Figure]) -> str:
    e = html.escape
    out = [f"<h2>{e(title)}</h2>" if title else "", "<table><tr><th>figure<th>value<th>95% interval<th>n</tr>"]
    for f in figures:
        out.append(f"<tr><td>{e(f.name)}<td>{shown(f)}<td>{shown_interval(f)}<td>{f.n:g}</tr>")
    return "".join(out) + "</table>"


def _change_table(title: str, changes: list[Change], runs: list[RunSummary]) -> str:
    e = html.escape
    out = [f"<h2>{e(title)}</h2>" if title else ""]
    out.append(
        f"<table><tr><th>figure<th>{e(runs[0].path.stem)}<th>{e(runs[1].path.stem)}<th>change"
        "<th>95% interval<th>effect<th>p</tr>"
    )
    for c in changes:
        mark = " class='sig'" if c.significant else ""
        out.append(
            f"<tr{mark}><td>{e(c.name)}<td>{shown(c.before)}<td>{shown(c.after)}<td>{e(shown_change(c))}"
            f"<td>{e(shown_change_interval(c))}<td>{c.effect:+.2f}<td>{e(shown_p(c.p))}</tr>"
        )
    out.append(
        "</table><p class='note'>Highlighted: significant at 5% with Holm's correction within the family. "
        "Effect: Cohen's h for rates, d for means.</p>"
    )
    return "".join(out)


_STYLE = """<style>
body { font-family: sans-serif; max-width: 72rem; margin: 1rem auto; padding: 0 1rem; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.05rem; margin: 0.8rem 0 0.2rem; } p { margin: 0.3rem 0; }
table { border-collapse: collapse; margin: 0.3rem 0; } td, th { padding: 1px 8px; border-bottom: 1px solid #ddd; }
td:not(:first-child) { text-align: right; } table.settings td { text-align: left; }
tr.sig { background: #fde2e2; } .verdict { font-weight: bold; } .note, .run { font-size: 0.85rem; color: #444; }
.plots { display: flex; flex-wrap: wrap; gap: 0.5rem; } .plots img { max-width: 49%; height: auto; }
details { margin: 0.5rem 0; } summary { cursor: pointer; font-weight: bold; }
</style>"""

__all__ = ["html_page", "plots", "save_plots"]
