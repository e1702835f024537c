"""The report's plots (matplotlib, the optional extra `lab`) and its self-contained HTML page.

Each plot is a PNG; the page embeds them as base64 ``data:`` URIs, so it is one file that
opens anywhere without the run or the network.
"""

from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path
from typing import Any

from .report import Change, Figure, RunSummary, describe, shown, shown_change, verdict
from .simulate import RunError

MOST_CHANGED = 20
"""The figures drawn in the change plot: those with the smallest p-values."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RunError("plots need matplotlib: pip install 'spacetable[lab]'") from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def plots(runs: list[RunSummary], changes: list[Change] | None) -> dict[str, bytes]:
    """The PNG plots of one run or two, by file name."""
    plt = _pyplot()
    labels = [run.path.stem for run in runs]
    images: dict[str, bytes] = {}

    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / len(runs)
    for k, run in enumerate(runs):
        xs = [s + (k - (len(runs) - 1) / 2) * width for s in range(len(run.seats))]
        values = [f.value for f in run.seats]
        errors = [[f.value - f.low for f in run.seats], [f.high - f.value for f in run.seats]]
        ax.bar(xs, values, width, yerr=errors, capsize=4, label=f"{labels[k]} ({run.games} games)")
    if runs[0].settings.players > 1:
        ax.axhline(1 / runs[0].settings.players, color="grey", linestyle=":", label="fair share")
    ax.set_xticks(range(len(runs[0].seats)), [f"seat {s}\n{b}" for s, b in enumerate(runs[0].settings.seats)])
    ax.set_ylabel("win rate (95% interval)")
    ax.legend(fontsize="small")
    images["win_rates.png"] = _png(plt, fig)

    fig, ax = plt.subplots(figsize=(7, 3.2))
    top = max(max(run.lengths) for run in runs)
    bottom = min(min(run.lengths) for run in runs)
    bins = list(range(bottom, top + 2, max(1, (top - bottom) // 40 + 1)))
    for k, run in enumerate(runs):
        ax.hist(run.lengths, bins=bins, alpha=0.55, label=f"{labels[k]} (mean {run.length.value:.1f})")
    ax.set_xlabel("game length (actions)")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    images["lengths.png"] = _png(plt, fig)

    impact = _impact(plt, runs[0], changes)
    if impact:
        images["figures.png"] = impact
    return images


def _impact(plt: Any, run: RunSummary, changes: list[Change] | None) -> bytes | None:
    """The change of the most-changed figures with their intervals (two runs), or the game's rates
    with their intervals (one run); None when the game reports no such figure."""
    if changes is not None:
        chosen = sorted((c for c in changes if c.before.name in {f.name for f in run.figures}), key=lambda c: c.p)
        chosen = chosen[:MOST_CHANGED][::-1]
        if not chosen:
            return None
        fig, ax = plt.subplots(figsize=(8, 0.32 * len(chosen) + 1.2))
        scaled = [100 if c.before.percent else 1 for c in chosen]
        diffs = [c.difference * s for c, s in zip(chosen, scaled)]
        halves = [_half(c) * s for c, s in zip(chosen, scaled)]
        colours = ["tab:red" if c.significant else "tab:grey" for c in chosen]
        ax.barh(range(len(chosen)), diffs, xerr=halves, color=colours, capsize=3)
        ax.set_yticks(range(len(chosen)), [_label(c.before) for c in chosen], fontsize="small")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("change, uncorrected 95% interval (rates: points; counts: per game); red: significant (Holm)")
        return _png(plt, fig)
    rates = [f for f in run.figures if f.percent and f.n][:40][::-1]
    if not rates:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(rates) + 1.2))
    values = [100 * f.value for f in rates]
    errors = [[100 * (f.value - f.low) for f in rates], [100 * (f.high - f.value) for f in rates]]
    ax.barh(range(len(rates)), values, xerr=errors, capsize=3)
    ax.set_yticks(range(len(rates)), [f"{_label(f)} (n={f.n:g})" for f in rates], fontsize="small")
    ax.set_xlabel("% (95% interval)")
    return _png(plt, fig)


def _half(change: Change) -> float:
    """The half-width of the difference's 95% interval (unpooled)."""
    a, b = change.before, change.after
    return math.hypot(a.high - a.low, b.high - b.low) / 2


def _label(figure: Figure) -> str:
    return figure.name if len(figure.name) <= 48 else figure.name[:47] + "…"


def _png(plt: Any, fig: Any) -> bytes:
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
    """The report as one HTML page with its plots inside."""
    e = html.escape
    out = ["<!doctype html><meta charset='utf-8'><title>spacetable report</title>", _STYLE]
    out.append(f"<h1>{e(runs[0].settings.game)}: {' vs '.join(e(r.path.name) for r in runs)}</h1>")
    for run in runs:
        out.append(f"<p><b>{e(run.path.name)}</b>: {run.games} games · {e(describe(run.settings))}</p>")
    if changes is not None:
        out.append(f"<p class='verdict'>{e(verdict(changes, runs[0], runs[1]))}</p>")
    for name, png in images.items():
        data = base64.b64encode(png).decode()
        out.append(f"<img alt='{e(name)}' src='data:image/png;base64,{data}'>")
    for run in runs:
        out.append(f"<h2>{e(run.path.name)}</h2><table><tr><th>figure<th>value<th>95% interval<th>n</tr>")
        for f in [*run.seats, run.length, *([run.rounds] if run.rounds else []), *run.figures]:
            interval = f"{shown(f, f.low)} – {shown(f, f.high)}"
            out.append(f"<tr><td>{e(f.name)}<td>{shown(f)}<td>{interval}<td>{f.n:g}</tr>")
        out.append("</table>")
        endings = ", ".join(f"{e(reason or 'unfinished')}: {n}" for reason, n in run.endings.items())
        out.append(f"<p>How the games ended: {endings}</p>")
    if changes is not None:
        out.append("<h2>Changes</h2><table><tr><th>figure<th>before<th>after<th>change<th>effect<th>p</tr>")
        for c in sorted(changes, key=lambda c: c.p):
            mark = " class='sig'" if c.significant else ""
            out.append(
                f"<tr{mark}><td>{e(c.name)}<td>{shown(c.before)}<td>{shown(c.after)}<td>{e(shown_change(c))}"
                f"<td>{c.effect:+.2f}<td>{c.p:.3g}</tr>"
            )
        out.append("</table><p>Effect: Cohen's h for rates, d for means. Highlighted: significant at 5% with Holm.</p>")
    return "\n".join(out) + "\n"


_STYLE = """<style>
body { font-family: sans-serif; max-width: 60rem; margin: 1rem auto; }
table { border-collapse: collapse; margin: 0.5rem 0; } td, th { padding: 2px 8px; border-bottom: 1px solid #ddd; }
td:not(:first-child) { text-align: right; } tr.sig { background: #fde2e2; } img { max-width: 100%; display: block; }
.verdict { font-weight: bold; }
</style>"""

__all__ = ["html_page", "plots", "save_plots"]
