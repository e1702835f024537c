"""The report of a sweep (sim/sweep.py): its table, CSV, plots and HTML page."""

from __future__ import annotations

import base64
import csv
import html
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path

from .overrides import describe
from .plots import _STYLE, _png, _pyplot
from .report import Figure, shown
from .sweep import SweepError, SweepSummary, Target, findings, is_number, judge, label


def table(summary: SweepSummary, names: list[str], target: Target | None) -> tuple[list[str], list[list[str]]]:
    """The report's table as text: its header and one row per value: the value, its games, the
    target's mark (met: every interval in its band, met?: every estimate, else empty), then each
    figure of ``names`` as ``estimate (low–high)``, a rate's in percent."""
    header = [summary.sweep.key, "games", *(["target"] if target else []), *names]
    rows = []
    for point in summary.points:
        cells = [label(point.value), str(point.games)]
        if target:
            verdict = judge(point, target)
            cells.append("met" if verdict.sure else "met?" if verdict.met else "")
        cells += [_cell(point.figures.get(name)) for name in names]
        rows.append(cells)
    return header, rows


def _cell(f: Figure | None) -> str:
    return "–" if f is None else f"{shown(f)} ({_interval(f)})"


def _interval(f: Figure) -> str:
    """A figure's 95% interval, a rate's in percent without the sign: 29.3–40.0."""
    return f"{100 * f.low:.1f}–{100 * f.high:.1f}" if f.percent else f"{shown(f, f.low)}–{shown(f, f.high)}"


MARKS = "met: every 95% interval inside its band; met?: every estimate inside its band"


def describe_sweep(summary: SweepSummary) -> str:
    """The sweep in one line: game, seats, seed, base options, the key and its values."""
    sweep = summary.sweep
    values = ", ".join(label(v) for v in sweep.values)
    return f"{describe(sweep.base())} · {sweep.games} games per value · {sweep.key} over {values}"


def write_csv(summary: SweepSummary, names: list[str], path: Path) -> None:
    """One row per value and figure: value, figure, estimate, low, high, n (a rate as a fraction)."""
    try:
        with path.open("w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(["value", "figure", "estimate", "low", "high", "n"])
            for point in summary.points:
                for name in names:
                    f = point.figures.get(name)
                    if f is not None:
                        writer.writerow([label(point.value), name, f.value, f.low, f.high, f"{f.n:g}"])
    except OSError as exc:
        raise SweepError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def sweep_plots(summary: SweepSummary, names: list[str], target: Target | None) -> dict[str, bytes]:
    """A PNG per unit, by file name: every seat's win rate in one (with the fair share), each other
    figure alone; each estimate with its 95% interval, the target's bands shaded, and the values
    meeting the target in green on the axis."""
    plt = _pyplot()
    sweep = summary.sweep
    numeric = all(is_number(p.value) for p in summary.points)
    xs = [float(p.value) if numeric else float(i) for i, p in enumerate(summary.points)]
    gap = min((b - a for a, b in zip(sorted(xs), sorted(xs)[1:])), default=1.0)
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    met = [target is not None and judge(p, target).met for p in summary.points]
    seats = [f"seat {s} win rate" for s in range(sweep.players)]
    groups = [("win_rates.png", "win rate by seat", [n for n in names if n in seats])]
    groups += [(_slug(n) + ".png", n, [n]) for n in names if n not in seats]
    images: dict[str, bytes] = {}
    for file, title, group in groups:
        if not group:
            continue
        fig, ax = plt.subplots(figsize=(7, 3.6))
        percent = any(p.figures[n].percent for p in summary.points for n in group if n in p.figures)
        scale = 100 if percent else 1
        for k, name in enumerate(group):
            shift = (k - (len(group) - 1) / 2) * 0.08 * gap  # the seats side by side, their bars apart
            chosen = [i for i in order if name in summary.points[i].figures]
            drawn = [summary.points[i].figures[name] for i in chosen]
            ax.errorbar(
                [xs[i] + shift for i in chosen],
                [scale * f.value for f in drawn],
                yerr=[[scale * (f.value - f.low) for f in drawn], [scale * (f.high - f.value) for f in drawn]],
                marker="o",
                capsize=3,
                label=f"{name.removesuffix(' win rate')} ({sweep.seats[seats.index(name)]})" if name in seats else None,
            )
        if group[0] in seats and sweep.players > 1:
            ax.axhline(100 / sweep.players, color="grey", linestyle=":", label="fair share")
        bands = sorted({(b.low, b.high) for b in target.bands if b.figure in group}) if target else []
        for k, (low, high) in enumerate(bands):
            ax.axhspan(scale * low, scale * high, color="tab:green", alpha=0.15, label=None if k else "target")
        if numeric and len(xs) > 20:
            ax.xaxis.get_major_locator().set_params(integer=all(isinstance(p.value, int) for p in summary.points))
        else:
            ax.set_xticks(xs, [label(p.value) for p in summary.points], rotation=45 if len(xs) > 10 else 0)
            for tick, good in zip(ax.get_xticklabels(), met):
                if good:
                    tick.set_color("tab:green")
                    tick.set_fontweight("bold")
        ax.set_xlabel(sweep.key + (" (green: meets the target)" if any(met) else ""))
        unit = "win rate, %" if group[0] in seats else "%" if percent else "mean per game"
        ax.set_ylabel(f"{unit} (95% interval)")
        ax.set_title(textwrap.fill(title, 70), fontsize="medium")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
        images[file] = _png(plt, fig)
    return images


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "figure"


def html_page(summary: SweepSummary, names: list[str], target: Target | None, images: Mapping[str, bytes]) -> str:
    """The sweep's report as one HTML page with its plots inside."""
    e = html.escape
    out = ["<!doctype html><meta charset='utf-8'><title>spacetable sweep</title>", _STYLE]
    out.append(f"<h1>{e(summary.sweep.game)}: a sweep of {e(summary.sweep.key)}</h1>")
    out.append(f"<p>{e(describe_sweep(summary))}</p>")
    header, rows = table(summary, names, target)
    fixed = len(header) - len(names)
    out.append("<table><tr>" + "".join(f"<th>{e(h)}" for h in header) + "</tr>")
    for point, row in zip(summary.points, rows):  # each figure's interval under its estimate
        cells = [e(c) for c in row[:fixed]]
        for name in names:
            f = point.figures.get(name)
            below = f"<br><span class='note' style='white-space: nowrap'>{_interval(f)}</span>" if f else ""
            cells.append(f"{shown(f)}{below}" if f else "–")
        out.append("<tr>" + "".join(f"<td>{c}" for c in cells) + "</tr>")
    out.append("</table>")
    if target:
        out.append(f"<p>{e(MARKS)}.</p>")
        out += [f"<p class='verdict'>{e(line)}</p>" for line in findings(summary, target)]
    if summary.detects:
        out.append(f"<p>{e(summary.detects)}</p>")
    if summary.missing:
        out.append(f"<p>Not played yet: {e(', '.join(summary.missing))}.</p>")
    out.append("<div class='plots'>")
    for name, png in images.items():
        out.append(f"<img alt='{e(name)}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>")
    out.append("</div>")
    return "\n".join(out) + "\n"


__all__ = ["MARKS", "describe_sweep", "html_page", "sweep_plots", "table", "write_csv"]
