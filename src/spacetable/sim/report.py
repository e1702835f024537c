"""``spacetable report``: what a run of ``spacetable simulate`` says, and what changed between two.

Every figure comes with its 95% interval and the number of games (or cases) behind it: Wilson's
interval for a rate, Student's t interval for a mean per game. Comparing two runs, each figure
gets a two-sided test of "no change" and a 95% interval on the change: the two-proportion z-test
and Newcombe's interval for rates (win rates, a figure the game reports as a percentage), Welch's
t-test and interval for means (game length, counts per game), with the effect size (Cohen's h
for rates, d for means). A rate whose games may hold several cases is also taken game by game
(``cases``). The statistics are scipy's and statsmodels'.

The figures fall in two families. The *headline* family: each seat's win rate, the starting
player's, the game length in actions and rounds, how the games ended, the figures the game
marks as headline (``Statistic.headline``) and the designer's own (``--figure``). The *details*:
the rest (one per card, per option...). A change is called significant when its p-value passes
Holm's correction within its family at the 5% level: forty cards do not turn up two
"significant" ones by chance, nor drown a change in the game's main figures.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .simulate import VALUE, WEIGHT, RunError, RunSettings, read_run, seat_count

ALPHA = 0.05
POWER = 0.8
"""The power at which a run's minimum detectable effect is stated."""
HEADLINE = "headline"
DETAIL = "detail"


@dataclass(frozen=True)
class Figure:
    """One figure of a run: a rate (``successes`` of ``n``) or a mean of per-game ``values``."""

    name: str
    value: float
    low: float
    high: float
    n: float
    """Games (or cases, for a rate the game weighs by cases) behind the figure."""
    percent: bool
    successes: float = 0.0
    values: tuple[float, ...] = ()
    """A mean's per-game values; a game's rate's linearised per-game values (see ``cases``)."""
    headline: bool = False
    """In the family of headline figures (else a detail)."""
    clustered: bool = False
    """A rate whose games may hold several cases: its interval and test take the game as the unit."""


@dataclass(frozen=True)
class Change:
    """One figure in two runs and the test of whether it changed."""

    name: str
    before: Figure
    after: Figure
    difference: float
    """after - before (a fraction for rates)."""
    low: float
    high: float
    """The difference's 95% interval: Newcombe's (rates) or Welch's (means)."""
    effect: float
    """Cohen's h (rates) or d (means): the change in units that do not depend on the sample size."""
    p: float
    significant: bool = False
    """Passed Holm's correction within its family at the 5% level (set by ``holm``)."""

    @property
    def family(self) -> str:
        return HEADLINE if self.before.headline or self.after.headline else DETAIL


@dataclass(frozen=True)
class FirstPlayer:
    """The starting player's win rate in the games someone won, against the fair share."""

    figure: Figure
    fair: float
    p: float
    """The exact binomial test of "the starting player wins its fair share"."""


@dataclass
class RunSummary:
    """A run's figures (``summarise``)."""

    path: Path
    settings: RunSettings
    games: int
    seats: list[Figure]
    first_player: FirstPlayer | None
    """None where the run has no ``first`` column or it is empty (a one-player game)."""
    length: Figure
    lengths: list[int]
    rounds: Figure | None
    endings: dict[str, int]
    """Games by how they ended, most frequent first."""
    figures: list[Figure] = field(default_factory=list)
    """The game's own figures and the designer's (``--figure``), each in its family."""

    def headline(self) -> list[Figure]:
        """The headline family, in the report's order."""
        first = [self.first_player.figure] if self.first_player else []
        rounds = [self.rounds] if self.rounds else []
        ended = [rate(ending(reason), n, self.games, headline=True) for reason, n in self.endings.items()]
        own = [f for f in self.figures if f.headline]
        return [*self.seats, *first, self.length, *rounds, *ended, *own]

    def details(self) -> list[Figure]:
        return [f for f in self.figures if not f.headline]


def summarise(path: Path, own: Mapping[str, str] | None = None) -> RunSummary:
    """Read a run and work out its figures, with the designer's own per-game figures ``own``
    (name: a duckdb expression over a row); RunError if it cannot be read, is empty, or an
    expression fails."""
    settings, table = read_run(path)
    return summary(path, settings, table, own)


def summary(path: Path, settings: RunSettings, table: Any, own: Mapping[str, str] | None = None) -> RunSummary:
    """The figures of a run's rows (a ``pyarrow.Table``; ``summarise`` reads them from ``path``)."""
    if table.num_rows == 0:
        raise RunError(f"{path} holds no finished game yet")
    columns = table.to_pydict()
    games = table.num_rows
    players = seat_count(table.column_names)
    seats = [rate(f"seat {s} win rate", sum(columns[f"win {s}"]), games, headline=True) for s in range(players)]
    lengths = [int(a) for a in columns["actions"]]
    rounds = [float(r) for r in columns["rounds"] if r is not None]
    endings: dict[str, int] = {}
    for reason in columns["reason"]:
        endings[reason] = endings.get(reason, 0) + 1
    figures = []
    percent, headline = set(settings.percent), set(settings.headline)
    for name in table.column_names:
        if not name.startswith(VALUE):
            continue
        figure = name[len(VALUE) :]
        values, weights = columns[name], columns[WEIGHT + figure]
        pairs = [(v, w) if v is not None and w else (0.0, 0.0) for v, w in zip(values, weights)]
        top = figure in headline
        if figure in percent:
            figures.append(cases(figure, pairs, headline=top))
        else:
            figures.append(mean(figure, [v / w for v, w in pairs if w], headline=top))
    run = RunSummary(
        path=path,
        settings=settings,
        games=games,
        seats=seats,
        first_player=first_player(columns, players),
        length=mean("game length (actions)", [float(n) for n in lengths], headline=True),
        lengths=lengths,
        rounds=mean("game length (rounds)", rounds, headline=True) if len(rounds) == games else None,
        endings=dict(sorted(endings.items(), key=lambda kv: -kv[1])),
        figures=figures,
    )
    if own:
        from .query import per_game

        taken = {f.name for f in [*run.headline(), *run.details()]}
        for name, expression in own.items():
            if name in taken:
                raise RunError(f"--figure {name!r}: the run already has a figure of that name")
            values = per_game(table, name, expression)
            run.figures.append(mean(name, [v for v in values if v is not None], headline=True))
    return run


def first_player(columns: Mapping[str, list[Any]], players: int) -> FirstPlayer | None:
    """The starting player's share of the wins in the games someone won (ties shared; rounded to
    whole games for the binomial test), from the ``first`` column; None without one."""
    starts, winners = columns.get("first") or [], columns["winners"]
    decided = [(seat, columns[f"win {seat}"][i]) for i, seat in enumerate(starts) if seat is not None and winners[i]]
    if players < 2 or not decided:
        return None
    from scipy.stats import binomtest

    wins = sum(share for _, share in decided)
    fair = 1 / players
    p = float(binomtest(round(wins), len(decided), fair).pvalue)
    return FirstPlayer(rate("starting player win rate", wins, len(decided), headline=True), fair, p)


def ending(reason: str) -> str:
    """The name of the figure "share of the games that ended this way"."""
    return f"ended: {reason or 'unfinished'}"


def rate(name: str, successes: float, n: float, headline: bool = False) -> Figure:
    """A proportion with its 95% Wilson interval."""
    if not n:
        return Figure(name, 0.0, 0.0, 1.0, 0, True, headline=headline)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, n, alpha=ALPHA, method="wilson")
    return Figure(name, successes / n, float(low), float(high), n, True, successes=successes, headline=headline)


def cases(name: str, pairs: list[tuple[float, float]], headline: bool = False) -> Figure:
    """A rate the game weighs by cases, sum(value) / sum(weight) over the games' (value, weight).

    Where no game holds more than one case, the cases are independent: Wilson's interval. Where a
    game may hold several (each player who played a card, each pick), they may not be, and the
    game is also taken as the unit: the ratio R's linearised values R + (value - R weight) / mean
    weight, one a game, whose mean is R and whose variance over the games is the ratio's (the delta
    method). That variance is too small where few games hold a case (4 wins in 4 cases: none), the
    cases' where they are alike within a game, so the figure keeps the more cautious of the two:
    the union of Wilson's interval and the t interval of the linearised values (and a comparison
    the larger p of the two tests, see ``compare_figures``).
    """
    successes, n = sum(v for v, _ in pairs), sum(w for _, w in pairs)
    figure = replace(rate(name, successes, n, headline), values=_linearised(pairs))
    if not n or max(w for _, w in pairs) <= 1:
        return figure
    low, high = _t_interval(figure.value, figure.values)
    return replace(figure, low=min(figure.low, max(0.0, low)), high=max(figure.high, min(1.0, high)), clustered=True)


def _linearised(pairs: list[tuple[float, float]]) -> tuple[float, ...]:
    successes, n = sum(v for v, _ in pairs), sum(w for _, w in pairs)
    if not n:
        return ()
    ratio, weight = successes / n, n / len(pairs)
    return tuple(round(ratio + (v - ratio * w) / weight, 12) for v, w in pairs)  # no float noise in a constant


def mean(name: str, values: list[float], headline: bool = False) -> Figure:
    """A mean with its 95% t interval (kept within the values seen: a count's is never below 0)."""
    n = len(values)
    if not n:
        return Figure(name, 0.0, 0.0, 0.0, 0, False, headline=headline)
    centre = sum(values) / n
    low, high = _t_interval(centre, values)
    low, high = max(low, min(values)), min(high, max(values))
    return Figure(name, centre, low, high, n, False, values=tuple(values), headline=headline)


def _t_interval(centre: float, values: Sequence[float]) -> tuple[float, float]:
    """The 95% t interval of the mean ``centre`` of ``values`` (a point without spread)."""
    if len(values) < 2 or min(values) == max(values):
        return centre, centre
    spread = math.sqrt(_variance(values))
    from scipy.stats import t

    low, high = t.interval(1 - ALPHA, len(values) - 1, loc=centre, scale=spread / math.sqrt(len(values)))
    return float(low), float(high)


def _variance(values: Sequence[float]) -> float:
    """The sample variance of two values or more (numpy's: the standard library's is exact and slow)."""
    import numpy as np

    return float(np.var(values, ddof=1))


def two_proportion(x1: float, n1: float, x2: float, n2: float) -> tuple[float, float, float, float, float]:
    """The pooled two-proportion z-test with Newcombe's 95% interval on the difference:
    (difference p2 - p1, low, high, z, two-sided p-value)."""
    from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

    low, high = confint_proportions_2indep(x2, n2, x1, n1, method="newcomb", compare="diff", alpha=ALPHA)
    pooled = (x1 + x2) / (n1 + n2)
    z, p = (0.0, 1.0) if pooled in (0, 1) else proportions_ztest([x2, x1], [n2, n1])
    return x2 / n2 - x1 / n1, float(low), float(high), float(z), float(p)


def welch(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float, float]:
    """Welch's t-test of two means with its 95% interval on the difference:
    (difference mean(b) - mean(a), low, high, t, two-sided p-value)."""
    from scipy.stats import ttest_1samp, ttest_ind

    ma, mb = sum(a) / len(a), sum(b) / len(b)
    difference = mb - ma
    flat_a, flat_b = min(a) == max(a), min(b) == max(b)
    if flat_a and flat_b:  # scipy's t would be infinite or undefined
        return difference, difference, difference, 0.0, 1.0 if difference == 0 else 0.0
    if flat_a or flat_b:  # Welch's test against a constant side is the other side's one-sample t-test
        varied, constant, sign = (b, ma, 1) if flat_a else (a, mb, -1)  # (scipy warns on a constant sample)
        one = ttest_1samp(varied, constant)
        ends = [sign * (float(end) - constant) for end in one.confidence_interval(1 - ALPHA)]
        return difference, min(ends), max(ends), sign * float(one.statistic), float(one.pvalue)
    result = ttest_ind(b, a, equal_var=False)
    low, high = result.confidence_interval(1 - ALPHA)
    return difference, float(low), float(high), float(result.statistic), float(result.pvalue)


def cohens_h(p1: float, p2: float) -> float:
    """The effect size of a rate moving from ``p1`` to ``p2`` (statsmodels' arcsine difference)."""
    from statsmodels.stats.proportion import proportion_effectsize

    return float(proportion_effectsize(min(1.0, p2), min(1.0, p1)))


def cohens_d(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The difference of the means of ``b`` and ``a`` in pooled standard deviations (0 without spread)."""
    spread = pooled_spread(a, b)
    return (sum(b) / len(b) - sum(a) / len(a)) / spread if spread else 0.0


def pooled_spread(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The pooled standard deviation of two samples of at least two values each."""
    spread = (len(a) - 1) * _variance(a) + (len(b) - 1) * _variance(b)
    return math.sqrt(spread / (len(a) + len(b) - 2))


def compare_figures(before: Figure, after: Figure) -> Change:
    """The test of one figure in two runs: rates by proportions, means by Welch. A rate whose games
    may hold several cases is also tested with the game as the unit (Welch's test of the games'
    linearised values, see ``cases``), and keeps the more cautious: the larger p, the union of the
    two intervals."""
    if before.percent:
        difference, low, high, _, p = two_proportion(before.successes, before.n, after.successes, after.n)
        effect = cohens_h(before.value, after.value)
        if before.clustered or after.clustered:
            _, game_low, game_high, _, game_p = welch(before.values, after.values)
            low, high, p = min(low, game_low), max(high, game_high), max(p, game_p)
    else:
        difference, low, high, _, p = welch(before.values, after.values)
        effect = cohens_d(before.values, after.values)
    return Change(before.name, before, after, difference, low, high, effect, p)


def holm(changes: list[Change], alpha: float = ALPHA) -> list[Change]:
    """The changes marked significant by Holm's correction within each family, in their order."""
    from statsmodels.stats.multitest import multipletests

    significant: set[int] = set()
    for family in (HEADLINE, DETAIL):
        members = [i for i, c in enumerate(changes) if c.family == family]
        if members:
            reject = multipletests([changes[i].p for i in members], alpha=alpha, method="holm")[0]
            significant |= {i for i, passed in zip(members, reject) if passed}
    return [replace(c, significant=i in significant) for i, c in enumerate(changes)]


def compare(before: RunSummary, after: RunSummary) -> list[Change]:
    """Every figure both runs have, tested, the headline family first (RunError if they are runs
    of different games)."""
    a, b = before.settings, after.settings
    if (a.game, a.players) != (b.game, b.players):
        raise RunError(
            f"{after.path} is a run of {b.game} with {b.players} seat(s) and {before.path} of {a.game} "
            f"with {a.players}: compare runs of one game and player count"
        )
    pairs: list[tuple[Figure, Figure]] = list(zip(before.seats, after.seats))
    if before.first_player and after.first_player:
        pairs.append((before.first_player.figure, after.first_player.figure))
    pairs.append((before.length, after.length))
    if before.rounds is not None and after.rounds is not None:
        pairs.append((before.rounds, after.rounds))
    for reason in dict.fromkeys([*before.endings, *after.endings]):
        pairs.append(
            (
                rate(ending(reason), before.endings.get(reason, 0), before.games, headline=True),
                rate(ending(reason), after.endings.get(reason, 0), after.games, headline=True),
            )
        )
    theirs = {f.name: f for f in after.figures}
    pairs += [(f, theirs[f.name]) for f in before.figures if f.name in theirs]
    changes = [compare_figures(x, y) for x, y in pairs if _testable(x, y)]
    return holm(sorted(changes, key=lambda c: c.family != HEADLINE))


def _testable(x: Figure, y: Figure) -> bool:
    """Both runs have two cases or more (and two games or more where the games are the unit)."""
    by_games = not x.percent or x.clustered or y.clustered
    return x.n > 1 and y.n > 1 and (not by_games or (len(x.values) > 1 and len(y.values) > 1))


def detectable(games: tuple[int, int], base: float, spread: float) -> tuple[float, float]:
    """The smallest changes a comparison of runs of ``games`` finds with 80% power in a two-sided
    5% test of one figure: (in a rate from ``base``, as a fraction; in a mean whose per-game
    standard deviation is ``spread``, in its unit). Cohen's h and d from statsmodels' power
    solvers, turned back into those units; a rate moves towards one half."""
    from statsmodels.stats.power import NormalIndPower, TTestIndPower

    n1, n2 = games
    h = NormalIndPower().solve_power(nobs1=n1, ratio=n2 / n1, alpha=ALPHA, power=POWER)
    d = TTestIndPower().solve_power(nobs1=n1, ratio=n2 / n1, alpha=ALPHA, power=POWER)
    angle = math.asin(math.sqrt(base)) + (h / 2 if base <= 0.5 else -h / 2)
    return abs(math.sin(angle) ** 2 - base), float(d) * spread


def sensitivity(runs: list[RunSummary]) -> str | None:
    """What a comparison of these runs (or of one run with another of its size) can detect, in a
    sentence; None with fewer than two games a side."""
    n1, n2 = runs[0].games, runs[-1].games
    if min(n1, n2) < 2:
        return None
    if runs[0].settings.players > 1:
        base, whose = 1 / runs[0].settings.players, "the fair share"
    else:
        base = sum(r.seats[0].successes for r in runs) / sum(r.games for r in runs)
        whose = "its win rate" if len(runs) == 1 else "their win rate"
    a, b = runs[0].length.values, runs[-1].length.values
    points, actions = detectable((n1, n2), base, pooled_spread(a, b))
    if len(runs) == 1:
        who = f"With {n1} games this run can detect, against another run of {n1} games,"
    else:
        who = f"With {f'{n1} games a side' if n1 == n2 else f'{n1} and {n2} games'} this comparison can detect"
    return (
        f"{who} a change of {_two_digits(100 * points)} points in a win rate (from {whose}, "
        f"{base:.0%}) and of {_two_digits(actions)} actions in the game length (80% power, two-sided 5% test "
        f"of one figure)."
    )


def _two_digits(x: float) -> str:
    return f"{x:.0f}" if x >= 10 else f"{x:.2g}"


def shown(figure: Figure, value: float | None = None) -> str:
    """A figure's value as text: a percentage for a rate, else two decimals."""
    v = figure.value if value is None else value
    return f"{v:.1%}" if figure.percent else f"{v:.2f}"


def shown_interval(figure: Figure) -> str:
    return f"{shown(figure, figure.low)} – {shown(figure, figure.high)}"


def shown_p(p: float) -> str:
    """A p-value as text: "< 0.001" below that, else two significant digits."""
    return "< 0.001" if p < 0.001 else f"{p:.2g}"


def p_clause(p: float) -> str:
    return f"p {shown_p(p)}" if p < 0.001 else f"p = {shown_p(p)}"


def _signed(change: Change, x: float) -> str:
    return f"{100 * x:+.1f}" if change.before.percent else f"{x:+.2f}"


def shown_change(change: Change) -> str:
    """The difference, in points for a rate."""
    return _signed(change, change.difference) + (" points" if change.before.percent else "")


def shown_change_interval(change: Change) -> str:
    return f"{_signed(change, change.low)} to {_signed(change, change.high)}"


def verdict(changes: list[Change], before: RunSummary, after: RunSummary) -> str:
    """One sentence: what changed significantly from the first run to the second, the headline
    figures first."""
    headline = [c for c in changes if c.family == HEADLINE]
    details = [c for c in changes if c.family == DETAIL]
    tests = (
        f"{len(headline)} headline figures and {len(details)} details compared, Holm's correction at 5% "
        "within each family"
    )
    runs = f"{before.path.name} ({before.games} games) to {after.path.name} ({after.games} games)"
    found = [sorted((c for c in family if c.significant), key=lambda c: c.p) for family in (headline, details)]
    if not any(found):
        return f"Nothing changed significantly from {runs} ({tests})."
    parts = []
    for kind, chosen in zip(("headline figure(s)", "detail(s)"), found):
        if chosen:
            listed = "; ".join(
                f"{c.name} {shown(c.before)} → {shown(c.after)} ({shown_change(c)}, 95% interval "
                f"{shown_change_interval(c)}, {p_clause(c.p)})"
                for c in chosen[:6]
            )
            more = f" and {len(chosen) - 6} more" if len(chosen) > 6 else ""
            parts.append(f"{len(chosen)} {kind} changed significantly: {listed}{more}")
    return f"From {runs}, {'. And '.join(parts)} ({tests})."


def first_player_sentence(run: RunSummary) -> str | None:
    """The starting player's win rate against the fair share, or None where the run cannot say."""
    if run.first_player is None:
        return None
    f = run.first_player.figure
    return (
        f"The starting player won {shown(f)} (95% interval {shown_interval(f)}) of the {f.n:g} games "
        f"someone won, against a fair share of {run.first_player.fair:.1%}: {p_clause(run.first_player.p)} "
        "(binomial test)."
    )


CSV_COLUMNS = (
    "row",
    "run",
    "figure",
    "family",
    "kind",
    "value",
    "low",
    "high",
    "n",
    "before",
    "after",
    "p",
    "significant",
)


def csv_text(runs: list[RunSummary], changes: list[Change] | None) -> str:
    """Every figure of the runs, then every change, as CSV (rates as fractions; a change's value is
    its difference, low and high its 95% interval)."""
    buffer = io.StringIO()
    out = csv.DictWriter(buffer, CSV_COLUMNS, lineterminator="\n")
    out.writeheader()
    for run in runs:
        for f in [*run.headline(), *run.details()]:
            family = HEADLINE if f.headline else DETAIL
            row = {"row": "figure", "run": run.path.name, "figure": f.name, "family": family, "kind": _kind(f)}
            row |= _numbers(value=f.value, low=f.low, high=f.high, n=f.n)
            if run.first_player and f is run.first_player.figure:
                row |= _numbers(p=run.first_player.p)
            out.writerow(row)
    for c in changes or []:
        row = {"row": "change", "run": f"{runs[0].path.name} vs {runs[1].path.name}", "figure": c.name}
        row |= {"family": c.family, "kind": _kind(c.before), "significant": "true" if c.significant else "false"}
        out.writerow(
            row
            | _numbers(value=c.difference, low=c.low, high=c.high, before=c.before.value, after=c.after.value, p=c.p)
        )
    return buffer.getvalue()


def _kind(figure: Figure) -> str:
    return "rate" if figure.percent else "mean"


def _numbers(**xs: float) -> dict[str, str]:
    return {k: f"{x:.6g}" for k, x in xs.items()}


__all__ = [
    "CSV_COLUMNS",
    "DETAIL",
    "HEADLINE",
    "Change",
    "Figure",
    "FirstPlayer",
    "RunSummary",
    "cohens_d",
    "cohens_h",
    "compare",
    "csv_text",
    "detectable",
    "first_player_sentence",
    "holm",
    "mean",
    "p_clause",
    "rate",
    "sensitivity",
    "shown",
    "shown_change",
    "shown_change_interval",
    "shown_interval",
    "shown_p",
    "summarise",
    "summary",
    "two_proportion",
    "verdict",
    "welch",
]
