"""``spacetable sweep``: one run of ``spacetable simulate`` per value of a content key (or a game
option), and each figure against the value.

A sweep lives in a folder: ``sweep.json`` (its settings) and one run per value,
``KEY=VALUE.parquet``. Every run plays games ``0..N-1`` with the same seed, so game i starts from
the same dice at every value (paired games). A resumed sweep continues each unfinished run
(``simulate``'s resume) and plays the runs not started.

The report gives each value's figures (every seat's win rate, the game length, the game's headline
figures and any named) with their 95% intervals, and checks a target: a band for each of some
figures (by default for games of several players, every seat's win rate within 2 points of the
fair share). A value meets the target when every estimate is inside its band, surely when every
95% interval is too; the report says when the intervals are too wide to tell.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from spacetable.engine import JSON, Game, SpacetableError, load_finite
from spacetable.engine.content import deep_merge

from .report import Figure, RunSummary, detectable, pooled_spread, shown, summarise
from .simulate import RunSettings, simulate

MANIFEST = "sweep.json"
OPTION = "option:"
"""``--vary option:NAME=...`` varies a game option instead of a content key."""
MAX_VALUES = 100
FAIR_POINTS = 2.0
"""The default target of a game of several players: every seat within this many points of the fair share."""
_KEY = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")
_UNSAFE = re.compile(r"[^A-Za-z0-9._=+-]")


class SweepError(SpacetableError):
    """A sweep that cannot be set up, continued or read (one line for the command line)."""


def parse_value(text: str) -> JSON:
    """One value as TOML reads it (a whole number as an int, ``2.0`` too; true, false; a quoted
    string), any other text as itself; SweepError on a date, an array or a number that is not finite."""
    text = text.strip()
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SweepError(f"bad value {text!r}: a number must be finite")
        return _whole(value)
    if not isinstance(value, bool | int | str):
        raise SweepError(f"bad value {text!r}: write a number, true, false or a word")
    return value


def parse_values(text: str) -> list[JSON]:
    """The VALUES of ``--vary KEY=VALUES``: values and inclusive ranges ``LOW..HIGH`` (step 1) or
    ``LOW..HIGH:STEP`` separated by commas, in the order given. SweepError on an empty list or item,
    a bad range, a value given twice or more than MAX_VALUES values."""
    values: list[JSON] = []
    for item in text.split(","):
        if not item.strip():
            raise SweepError(f"bad --vary values {text!r}: an empty value; write V1,V2,... or LOW..HIGH[:STEP]")
        values += _range(item.strip()) if ".." in item else [parse_value(item)]
        if len(values) > MAX_VALUES:
            raise SweepError(f"bad --vary values {text!r}: more than {MAX_VALUES} values")
    labels = [label(v) for v in values]
    twice = next((x for x in labels if labels.count(x) > 1), None)
    if twice is not None:
        raise SweepError(f"bad --vary values {text!r}: {twice} is given twice")
    return values


def _range(item: str) -> list[JSON]:
    head, _, step_text = item.partition(":")
    low_text, _, high_text = head.partition("..")
    ends = [parse_value(t) for t in (low_text, high_text, step_text or "1")]
    if not all(is_number(v) for v in ends):
        raise SweepError(f"bad range {item!r}: write LOW..HIGH or LOW..HIGH:STEP with numbers, e.g. 2..5 or 0.5..2:0.5")
    low, high, step = ends
    if step <= 0 or low > high:
        raise SweepError(f"bad range {item!r}: LOW must not be above HIGH, and STEP must be above 0")
    count = math.floor((high - low) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise SweepError(f"bad range {item!r}: {count:,} values, more than {MAX_VALUES}")
    return [_whole(float(f"{low + i * step:.12g}")) for i in range(count)]


def _whole(value: float) -> int | float:
    return int(value) if value.is_integer() else value


def is_number(value: JSON) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def label(value: JSON) -> str:
    """A value as the command line writes it: 2, 0.5, true, duel."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def parse_vary(text: str) -> tuple[str, list[JSON]]:
    """``--vary KEY=VALUES``: a dotted content key (``deck.card_price``) or ``option:NAME``, and its values."""
    key, sep, values = text.partition("=")
    key = key.strip()
    name = key.removeprefix(OPTION)
    if not sep or not _KEY.fullmatch(name) or (key.startswith(OPTION) and "." in name):
        raise SweepError(
            f"bad --vary {text[:60]!r}: write KEY=VALUES with a content key (deck.card_price=1,2,3) "
            "or a game option (option:round_limit=20..40:10)"
        )
    if name == "content" and key.startswith(OPTION):
        raise SweepError("--vary option:content: vary one content key instead, e.g. --vary rules.start_hull=2..4")
    return key, parse_values(values)


@dataclass(frozen=True)
class Sweep:
    """A sweep's settings, as ``sweep.json`` keeps them: the base game (its options, the content
    file's overrides among them), the key varied and its values, the seats' bots, games per value, seed."""

    game: str
    players: int
    options: dict[str, JSON]
    key: str
    values: list[JSON]
    seats: list[str]
    games: int
    seed: int

    @classmethod
    def of(cls, game: Game, seats: list[str], key: str, values: list[JSON], games: int, seed: int) -> Sweep:
        return cls(game.id, game.players, dict(game.options), key, list(values), list(seats), games, seed)

    def name(self, value: JSON) -> str:
        """A value of the sweep in words: ``deck.card_price=2``."""
        return f"{self.key}={label(value)}"

    def file(self, value: JSON) -> str:
        """The name of a value's run in the sweep's folder."""
        return _UNSAFE.sub("_", self.name(value)) + ".parquet"

    def variant(self, value: JSON) -> Game:
        """The game at ``value``: the key laid over the base content (or the option set); SweepError
        naming the value if the game refuses it (the content's validation, an option's check)."""
        options = dict(self.options)
        if self.key.startswith(OPTION):
            options[self.key.removeprefix(OPTION)] = value
        else:
            override: JSON = value
            for part in reversed(self.key.split(".")):
                override = {part: override}
            options["content"] = deep_merge(options.get("content") or {}, override)
        try:
            return load_finite(self.game, self.players, options)
        except SpacetableError as exc:
            message = " ".join(line.strip() for line in str(exc).splitlines())
            raise SweepError(f"--vary {self.name(value)}: {message}") from None

    def variants(self) -> list[Game]:
        """Every value's game (SweepError on the first refused, or on two values with one file name)."""
        files = [self.file(v) for v in self.values]
        twice = next((f for f in files if files.count(f) > 1), None)
        if twice is not None:
            raise SweepError(f"two values of --vary {self.key} would share the run file {twice!r}")
        return [self.variant(v) for v in self.values]

    def base(self) -> RunSettings:
        """The settings every run shares, without the value (for ``report.describe``)."""
        return RunSettings(self.game, self.players, self.options, self.seats, self.seed, self.games, [])

    def difference(self, other: Sweep) -> str | None:
        """The first setting in which ``other`` differs, said with this sweep's value ("its key is ...");
        None if none does (``games`` aside: a resumed sweep may raise it)."""
        mine, theirs = _plain(asdict(self)), _plain(asdict(other))
        for name in ("game", "players", "key", "values", "seats", "seed", "options"):
            if mine[name] != theirs[name]:
                return f"its {name} {'are' if name.endswith('s') else 'is'} {json.dumps(mine[name])[:80]}"
        return None


def _plain(data: Any) -> Any:
    """``data`` as JSON reads it back (tuples as lists), to compare settings with a manifest."""
    return json.loads(json.dumps(data))


def read_sweep(folder: Path) -> Sweep:
    """The settings in ``folder/sweep.json``; SweepError if there is none or it is damaged."""
    path = folder / MANIFEST
    if not path.is_file():
        raise SweepError(f"{folder} holds no sweep (no {MANIFEST})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        known = {f.name for f in fields(Sweep)}
        return Sweep(**{k: v for k, v in data.items() if k in known})
    except (OSError, UnicodeDecodeError, ValueError, TypeError, AttributeError) as exc:
        raise SweepError(f"{path} is damaged or not a sweep's: {str(exc)[:120]}") from None


def check_folder(sweep: Sweep, folder: Path, resume: bool) -> None:
    """SweepError unless ``folder`` can take ``sweep``: a new folder, or one without this sweep's runs;
    with ``resume``, a folder holding this very sweep."""
    if folder.exists() and not folder.is_dir():
        raise SweepError(f"--out {str(folder)!r} is a file, not a sweep's folder")
    if not folder.resolve().parent.is_dir():
        raise SweepError(f"--out {str(folder)!r}: the folder {str(folder.parent)!r} does not exist")
    if resume:
        difference = read_sweep(folder).difference(sweep)
        if difference is not None:
            raise SweepError(f"{folder} holds another sweep: {difference}; resume it with its own settings")
        return
    if (folder / MANIFEST).exists():
        raise SweepError(f"{folder} holds a sweep: --resume continues it, or choose another --out")
    for value in sweep.values:
        if (folder / sweep.file(value)).exists():
            raise SweepError(f"{folder / sweep.file(value)} exists: choose another --out")


def run_sweep(
    sweep: Sweep,
    folder: Path,
    jobs: int = 1,
    ray_address: str | None = None,
    resume: bool = False,
    on_start: Callable[[str], None] | None = None,
    on_game: Callable[[int], None] | None = None,
    on_end: Callable[[str, int, int], None] | None = None,
) -> None:
    """Play the sweep into ``folder``: each value's run in turn, each on ``jobs`` processes or Ray.

    Every value's game and the folder are checked first (SweepError, nothing written). ``resume``
    continues the runs present and plays the rest. ``on_start(name)`` and ``on_end(name, kept,
    played)`` come around each run, ``on_game(done)`` after each of its games (see ``simulate``).
    KeyboardInterrupt propagates after the finished rows are saved.
    """
    variants = sweep.variants()
    check_folder(sweep, folder, resume)
    manifest = folder / MANIFEST
    try:
        folder.mkdir(exist_ok=True)
        partial = manifest.with_name(MANIFEST + ".partial")
        partial.write_text(json.dumps(asdict(sweep), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(partial, manifest)
    except OSError as exc:
        raise SweepError(f"cannot write the sweep in {str(folder)!r}: {exc.strerror or exc}") from None
    for value, game in zip(sweep.values, variants):
        out = folder / sweep.file(value)
        if on_start:
            on_start(sweep.name(value))
        resumed = out.exists()  # only with ``resume``: check_folder refuses a run present otherwise
        kept, played = simulate(game, sweep.seats, sweep.games, out, sweep.seed, jobs, ray_address, resumed, on_game)
        if on_end:
            on_end(sweep.name(value), kept, played)


@dataclass(frozen=True)
class Point:
    """One value's run: its figures by name (seats' win rates, lengths, the game's own)."""

    value: JSON
    name: str
    games: int
    figures: dict[str, Figure]
    headline: list[str]
    """The figures the report shows by default: each seat's win rate, the game length, the game's
    headline figures (``Statistic.headline``)."""


@dataclass(frozen=True)
class SweepSummary:
    sweep: Sweep
    folder: Path
    points: list[Point]
    """The values with a run, in the sweep's order."""
    missing: list[str]
    """The values without a run yet, in words."""
    detects: str | None = None
    """What a comparison of two values can detect, in a sentence (:func:`detectable_sentence`)."""


def summarise_sweep(folder: Path) -> SweepSummary:
    """Read a sweep's runs (SweepError if none has a game yet, RunError if one cannot be read)."""
    sweep = read_sweep(folder)
    points, missing, runs = [], [], []
    for value in sweep.values:
        path = folder / sweep.file(value)
        if not path.exists():
            missing.append(sweep.name(value))
            continue
        run = summarise(path)
        runs.append(run)
        main = [*run.seats, run.length, *([run.rounds] if run.rounds else [])]
        figures = {f.name: f for f in [*main, *run.figures]}
        headline = [f.name for f in main] + [n for n in run.settings.headline if n in figures]
        points.append(Point(value, sweep.name(value), run.games, figures, headline))
    if not points:
        raise SweepError(f"{folder}: no value has a finished game yet; --resume plays them")
    return SweepSummary(sweep, folder, points, missing, detectable_sentence(runs))


def detectable_sentence(runs: list[RunSummary]) -> str | None:
    """The smallest difference between two values' runs that a test finds with 80% power (two-sided,
    5%), in a win rate from the fair share (or from the win rate, one player) and in the game
    length, for the smallest run; None when a run has fewer than two games."""
    games = min(run.games for run in runs)
    lengths = [run.length.values for run in runs if len(run.length.values) > 1]
    if games < 2 or not lengths:
        return None
    players = runs[0].settings.players
    base = 1 / players if players > 1 else sum(r.seats[0].successes for r in runs) / sum(r.games for r in runs)
    spread = pooled_spread(lengths[0], lengths[-1])
    points, actions = detectable((games, games), base, spread)
    return (
        f"With {games} games per value, two values must differ by about {100 * points:.0f} points in a win "
        f"rate (from {base:.0%}) or {actions:.0f} actions in the game length for a test to tell them apart "
        "(80% power, two-sided 5% test of one figure)."
    )


def figure_names(summary: SweepSummary, named: list[str]) -> list[str]:
    """The report's figures: the runs' headline figures (see ``Point.headline``), then ``named``
    (SweepError naming any figure no run has)."""
    for name in named:
        _check_figure(summary, name)
    return list(dict.fromkeys([*(n for p in summary.points for n in p.headline), *named]))


def _check_figure(summary: SweepSummary, name: str) -> None:
    known = list(dict.fromkeys(n for p in summary.points for n in p.figures))
    if name not in known:
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else f" ({len(known)} figures)"
        raise SweepError(f"no run of {summary.folder} has the figure {name!r}{hint}")


@dataclass(frozen=True)
class Band:
    """A target for one figure: its estimate within ``low..high`` (a rate's as fractions)."""

    figure: str
    low: float
    high: float
    percent: bool
    """Written in percent: the figure must be a rate."""


@dataclass(frozen=True)
class Target:
    """What the designer aims for: every band met; ``words`` says it for people."""

    bands: tuple[Band, ...]
    words: str


def parse_band(text: str) -> Band:
    """``--target 'FIGURE=LOW..HIGH'``: a rate's band in percent (``seat 0 win rate=40%..60%``) or as
    fractions (0.4..0.6), a mean's in its units (``game length (rounds)=8..12``)."""
    figure, sep, bounds = text.rpartition("=")
    low_text, dots, high_text = bounds.partition("..")
    percent, high_percent = (t.strip().endswith("%") for t in (low_text, high_text))
    ends = [parse_value(t.strip().removesuffix("%")) for t in (low_text, high_text)]
    if not sep or not figure.strip() or not dots or percent != high_percent or not all(is_number(v) for v in ends):
        raise SweepError(f"bad --target {text[:60]!r}: write FIGURE=LOW..HIGH, e.g. 'seat 0 win rate=40%..60%'")
    low, high = (float(v) / (100 if percent else 1) for v in ends)
    if low > high:
        raise SweepError(f"bad --target {text[:60]!r}: LOW is above HIGH")
    return Band(figure.strip(), low, high, percent)


def choose_target(players: int, bands: list[Band], fair_within: float | None) -> Target | None:
    """The report's target: ``bands``, and every seat within ``fair_within`` points of the fair share;
    with neither, that fair band at FAIR_POINTS for games of several players, none for one player."""
    if fair_within is not None and players == 1:
        raise SweepError(
            "a one-player game has no fair share: aim its win rate with --target 'seat 0 win rate=40%..60%'"
        )
    if fair_within is None and not bands and players > 1:
        fair_within = FAIR_POINTS
    words = [f"{b.figure} between {_bound(b, b.low)} and {_bound(b, b.high)}" for b in bands]
    if fair_within is not None:
        fair, width = 1 / players, fair_within / 100
        bands = [*(Band(f"seat {s} win rate", fair - width, fair + width, True) for s in range(players)), *bands]
        words.insert(0, f"every seat's win rate within {fair_within:g} points of the fair share ({fair:.1%})")
    return Target(tuple(bands), "; ".join(words)) if bands else None


def _bound(band: Band, value: float) -> str:
    return f"{value:.1%}" if band.percent else f"{value:g}"


def check_target(summary: SweepSummary, target: Target | None) -> None:
    """SweepError if a band names a figure no run has, is in percent for a figure that is not a rate,
    or above 1 for a rate without %."""
    for band in target.bands if target else ():
        _check_figure(summary, band.figure)
        rates = {p.figures[band.figure].percent for p in summary.points if band.figure in p.figures}
        if band.percent and False in rates:
            raise SweepError(f"--target {band.figure!r} is not a rate: write its band without %")
        if not band.percent and True in rates and band.high > 1:
            raise SweepError(
                f"--target {band.figure!r} is a rate: write its band in percent (40%..60%) or as fractions (0.4..0.6)"
            )


@dataclass(frozen=True)
class Verdict:
    """How one value stands against the target."""

    met: bool
    """Every estimate inside its band."""
    sure: bool
    """Every 95% interval inside its band too."""
    miss: float
    """How far the estimate furthest outside its band is, in widths of that band (0 when met)."""
    worst: str
    """That estimate in words ("seat 1 win rate 54.3%, 2.3 points outside"); empty when met."""


def judge(point: Point, target: Target) -> Verdict:
    """Whether ``point`` meets ``target``, surely or by its estimates, and if not by how much."""
    met = sure = True
    miss, worst = 0.0, ""
    for band in target.bands:
        figure = point.figures.get(band.figure)
        if figure is None:
            met = sure = False
            miss, worst = math.inf, f"{band.figure}: none"
            continue
        sure = sure and band.low <= figure.low and figure.high <= band.high
        outside = max(band.low - figure.value, figure.value - band.high, 0.0)
        if outside > 0:
            met = False
            relative = outside / (band.high - band.low) if band.high > band.low else math.inf
            if relative > miss:
                miss, worst = relative, f"{band.figure} {shown(figure)}, {_amount(figure, outside)} outside"
    return Verdict(met, met and sure, miss, worst)


def _amount(figure: Figure, amount: float) -> str:
    """A difference in a figure's units: points for a rate."""
    return f"{100 * amount:.1f} points" if figure.percent else f"{amount:.2f}"


def findings(summary: SweepSummary, target: Target) -> list[str]:
    """What the sweep says about the target, in sentences: the values meeting it, and whether the
    intervals are narrow enough to tell (with the games per value that would make them so)."""
    verdicts = [judge(p, target) for p in summary.points]
    key = summary.sweep.key
    met = [label(p.value) for p, v in zip(summary.points, verdicts) if v.met]
    sure = [label(p.value) for p, v in zip(summary.points, verdicts) if v.sure]
    said = [f"Target: {target.words}."]
    if met:
        surely = f"surely (whole 95% intervals inside) at {key} {_listed(sure)}" if sure else "none surely"
        said.append(f"Met (estimates inside) at {key} {_listed(met)}; {surely}.")
    else:
        nearest = min(zip(summary.points, verdicts), key=lambda pv: pv[1].miss)
        said.append(f"Met by no value; the nearest is {nearest[0].name} ({nearest[1].worst}).")
    widths = [  # (interval width / band width, the point, band and figure)
        ((f.high - f.low) / (band.high - band.low), point, band, f)
        for point in summary.points
        for band in target.bands
        if band.high > band.low and (f := point.figures.get(band.figure)) is not None
    ]
    if widths:
        ratio, point, band, figure = max(widths, key=lambda w: w[0])
        half, band_half = (figure.high - figure.low) / 2, (band.high - band.low) / 2
        widest = (
            f"the widest: {band.figure} at {point.name}, ±{_amount(figure, half)} against ±{_amount(figure, band_half)}"
        )
        if ratio <= 1:
            said.append(f"Every 95% interval is narrower than its band ({widest}).")
        else:  # an interval narrows as 1/sqrt(games)
            games = _round_up(max(p.games * r**2 for r, p, _, _ in widths))
            if all(r > 1 for r, *_ in widths):
                wide = "These runs cannot tell which values meet the target: every 95% interval is wider than its band"
            else:
                wide = "Some 95% intervals are wider than their bands"
            said.append(f"{wide} ({widest}); about {games:,} games per value would narrow them to the bands.")
    return said


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _round_up(n: float) -> int:
    """``n`` rounded up to two significant digits (2,401 → 2,500), rounding error aside (4,000.0000001 → 4,000)."""
    n = float(f"{n:.9g}")
    scale: int = 10 ** max(0, len(str(math.ceil(n))) - 2)
    return math.ceil(n / scale) * scale


__all__ = [
    "MANIFEST",
    "Band",
    "Point",
    "Sweep",
    "SweepError",
    "SweepSummary",
    "Target",
    "Verdict",
    "check_folder",
    "check_target",
    "choose_target",
    "detectable_sentence",
    "figure_names",
    "findings",
    "is_number",
    "judge",
    "label",
    "parse_band",
    "parse_value",
    "parse_values",
    "parse_vary",
    "read_sweep",
    "run_sweep",
    "summarise_sweep",
]
