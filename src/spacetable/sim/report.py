"""``spacetable report``: what a run of ``spacetable simulate`` says, and what changed between two.

Every figure comes with its 95% interval and the number of games (or cases) behind it.
Comparing two runs, each figure gets a two-sided test of "no change": a two-proportion z-test
for rates (win rates, a figure the game reports as a percentage) and Welch's z-test for means
(game length, counts per game), with the effect size (the difference, and Cohen's h for rates
or d for means). A change is called significant when its p-value passes Holm's correction for
the number of figures compared, at the 5% level, so that looking at forty cards does not turn
up two "significant" ones by chance.
"""

from __future__ import annotations

import math
import statistics as pystats
from dataclasses import dataclass, field
from pathlib import Path

from spacetable.engine import game_class

from .simulate import VALUE, WEIGHT, RunError, RunSettings, read_run, seat_count
from .tournament import Z95, wilson

ALPHA = 0.05


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


@dataclass(frozen=True)
class Change:
    """One figure in two runs and the test of whether it changed."""

    name: str
    before: Figure
    after: Figure
    difference: float
    effect: float
    """Cohen's h (rates) or d (means): the change in units that do not depend on the sample size."""
    p: float
    significant: bool = False


@dataclass
class RunSummary:
    path: Path
    settings: RunSettings
    games: int
    seats: list[Figure]
    first_player: tuple[float, float] | None
    """Seat 0's win rate less the fair share, and the p-value of "no advantage" (None solo)."""
    length: Figure
    lengths: list[int]
    rounds: Figure | None
    endings: dict[str, int]
    figures: list[Figure] = field(default_factory=list)


def summarise(path: Path) -> RunSummary:
    """Read a run and work out its figures (RunError if it cannot be read or is empty)."""
    settings, table = read_run(path)
    if table.num_rows == 0:
        raise RunError(f"{path} holds no finished game yet")
    columns = table.to_pydict()
    games = table.num_rows
    players = seat_count(table.column_names)
    seats = [rate(f"seat {s} win rate", sum(columns[f"win {s}"]), games) for s in range(players)]
    first = None
    if players > 1:
        fair = 1 / players
        wins = seats[0].successes
        z = (wins / games - fair) / math.sqrt(fair * (1 - fair) / games)
        first = (wins / games - fair, two_sided(z))
    lengths = [int(a) for a in columns["actions"]]
    rounds = [float(r) for r in columns["rounds"] if r is not None]
    endings: dict[str, int] = {}
    for reason in columns["reason"]:
        endings[reason] = endings.get(reason, 0) + 1
    figures = []
    percent = set(settings.percent)
    for name in table.column_names:
        if not name.startswith(VALUE):
            continue
        figure = name[len(VALUE) :]
        values, weights = columns[name], columns[WEIGHT + figure]
        pairs = [(v, w) for v, w in zip(values, weights) if v is not None and w]
        if figure in percent:
            figures.append(rate(figure, sum(v for v, _ in pairs), sum(w for _, w in pairs)))
        else:
            figures.append(mean(figure, [v / w for v, w in pairs]))
    return RunSummary(
        path=path,
        settings=settings,
        games=games,
        seats=seats,
        first_player=first,
        length=mean("game length (actions)", [float(n) for n in lengths]),
        lengths=lengths,
        rounds=mean("game length (rounds)", rounds) if len(rounds) == games else None,
        endings=dict(sorted(endings.items(), key=lambda kv: -kv[1])),
        figures=figures,
    )


def rate(name: str, successes: float, n: float) -> Figure:
    """A proportion with its 95% Wilson interval."""
    low, high = wilson(successes, round(n)) if n else (0.0, 1.0)
    return Figure(name, successes / n if n else 0.0, low, high, n, True, successes=successes)


def mean(name: str, values: list[float]) -> Figure:
    """A mean with its 95% normal interval (kept within the values seen: a count's is never below 0)."""
    n = len(values)
    if not n:
        return Figure(name, 0.0, 0.0, 0.0, 0, False)
    centre = sum(values) / n
    half = Z95 * pystats.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    low, high = max(centre - half, min(values)), min(centre + half, max(values))
    return Figure(name, centre, low, high, n, False, values=tuple(values))


def two_sided(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion(x1: float, n1: float, x2: float, n2: float) -> tuple[float, float, float]:
    """The pooled two-proportion z-test: (difference p2 - p1, z, two-sided p-value)."""
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return p2 - p1, 0.0, 1.0
    z = (p2 - p1) / se
    return p2 - p1, z, two_sided(z)


def welch(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float]:
    """Welch's test of two means with the normal distribution (runs have hundreds of games):
    (difference mean(b) - mean(a), z, two-sided p-value)."""
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = pystats.variance(a) if len(a) > 1 else 0.0
    vb = pystats.variance(b) if len(b) > 1 else 0.0
    se = math.sqrt(va / len(a) + vb / len(b))
    if se == 0:
        return mb - ma, 0.0, 1.0
    z = (mb - ma) / se
    return mb - ma, z, two_sided(z)


def cohens_h(p1: float, p2: float) -> float:
    return 2 * math.asin(math.sqrt(p2)) - 2 * math.asin(math.sqrt(p1))


def cohens_d(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    spread = (len(a) - 1) * pystats.variance(a) + (len(b) - 1) * pystats.variance(b)
    pooled = math.sqrt(spread / (len(a) + len(b) - 2))
    return (sum(b) / len(b) - sum(a) / len(a)) / pooled if pooled else 0.0


def compare_figures(before: Figure, after: Figure) -> Change:
    """The test of one figure in two runs (rates by proportions, means by Welch)."""
    if before.percent:
        difference, _, p = two_proportion(before.successes, before.n, after.successes, after.n)
        effect = cohens_h(min(1.0, before.value), min(1.0, after.value))
    else:
        difference, _, p = welch(before.values, after.values)
        effect = cohens_d(before.values, after.values) if len(before.values) > 1 < len(after.values) else 0.0
    return Change(before.name, before, after, difference, effect, p)


def holm(changes: list[Change], alpha: float = ALPHA) -> list[Change]:
    """The changes marked significant by Holm's step-down correction, in their original order."""
    order = sorted(range(len(changes)), key=lambda i: changes[i].p)
    significant = set()
    for rank, i in enumerate(order):
        if changes[i].p > alpha / (len(changes) - rank):
            break
        significant.add(i)
    return [Change(**{**c.__dict__, "significant": i in significant}) for i, c in enumerate(changes)]


def compare(before: RunSummary, after: RunSummary) -> list[Change]:
    """Every figure both runs have, tested (RunError if they are runs of different games)."""
    a, b = before.settings, after.settings
    if (a.game, a.players) != (b.game, b.players):
        raise RunError(
            f"{after.path} is a run of {b.game} with {b.players} seat(s) and {before.path} of {a.game} "
            f"with {a.players}: compare runs of one game and player count"
        )
    pairs: list[tuple[Figure, Figure]] = list(zip(before.seats, after.seats))
    pairs.append((before.length, after.length))
    if before.rounds is not None and after.rounds is not None:
        pairs.append((before.rounds, after.rounds))
    for reason in dict.fromkeys([*before.endings, *after.endings]):
        name = f"ended: {reason or 'unfinished'}"
        pairs.append(
            (
                rate(name, before.endings.get(reason, 0), before.games),
                rate(name, after.endings.get(reason, 0), after.games),
            )
        )
    theirs = {f.name: f for f in after.figures}
    pairs += [(f, theirs[f.name]) for f in before.figures if f.name in theirs and f.n and theirs[f.name].n]
    return holm([compare_figures(x, y) for x, y in pairs if x.n > 1 and y.n > 1])


def shown(figure: Figure, value: float | None = None) -> str:
    """A figure's value as text: a percentage for a rate, else two decimals."""
    v = figure.value if value is None else value
    return f"{v:.1%}" if figure.percent else f"{v:.2f}"


def shown_change(change: Change) -> str:
    sign = "+" if change.difference >= 0 else ""
    if change.before.percent:
        return f"{sign}{100 * change.difference:.1f} points"
    return f"{sign}{change.difference:.2f}"


def verdict(changes: list[Change], before: RunSummary, after: RunSummary) -> str:
    """One sentence: what changed significantly from the first run to the second."""
    found = sorted((c for c in changes if c.significant), key=lambda c: c.p)
    tests = f"{len(changes)} figures compared, 5% level with Holm's correction"
    if not found:
        return (
            f"Nothing changed significantly from {before.path.name} ({before.games} games) to "
            f"{after.path.name} ({after.games} games) ({tests})."
        )
    parts = [f"{c.name} {shown(c.before)} → {shown(c.after)} ({shown_change(c)}, p={c.p:.2g})" for c in found[:6]]
    more = f" and {len(found) - 6} more" if len(found) > 6 else ""
    return (
        f"From {before.path.name} ({before.games} games) to {after.path.name} ({after.games} games), "
        f"{len(found)} figure(s) changed significantly ({tests}): {'; '.join(parts)}{more}."
    )


def describe(settings: RunSettings) -> str:
    """A run's settings in one line: the options not at their defaults (content overrides named, not listed)."""
    specs = game_class(settings.game).option_specs
    options = {
        k: v
        for k, v in settings.options.items()
        if k != "content" and v is not None and (k not in specs or specs[k].default != v)
    }
    content = " · content overrides" if settings.options.get("content") else ""
    return (
        f"{settings.game} · seats {', '.join(settings.seats)} · seed {settings.seed}"
        f"{' · ' + ', '.join(f'{k}={v}' for k, v in sorted(options.items())) if options else ''}{content}"
    )


__all__ = [
    "Change",
    "Figure",
    "RunSummary",
    "cohens_d",
    "cohens_h",
    "compare",
    "describe",
    "holm",
    "mean",
    "rate",
    "summarise",
    "two_proportion",
    "two_sided",
    "verdict",
    "welch",
]
