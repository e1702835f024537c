"""``spacetable ladder``: how much stronger each bot level is than the one below, with intervals.

A ladder is a folder of ``spacetable simulate`` runs, one per *match*, and ``ladder.json``, its
settings. In a game for several players every pair of bots (A, B) plays two runs of half the
games each: seats A, B, A, B, ... and B, A, B, A, ..., so each bot sits in every seat equally
often, and both runs share the seed, so game i of one has the dice of game i of the other as far
as the bots let it. A game's result for A is the share of the win its seats took (0.5 to each
side when nobody won); Bradley-Terry ratings on the Elo scale are fitted to every game of every
match, anchored at 0 for the first bot (``random``), with 95% intervals from a bootstrap of the
games within each run. A level is measurably stronger than the one below it when the interval of
its step (its rating minus the lower one's) lies above 0.

In a one-player game the ladder is the win rate of each bot at each of the game's levels
(option ``level``), a run per bot and level, with Wilson intervals, and the mean of the game's
own score (falling-skies: research reached).

Runs are resumable (``resume``: each run continues where it stopped, and runs not begun are
played) and a ladder can grow: more games per match, or more bots (new matches are added).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from spacetable.agents import AGENTS, LEVELS, has_planner
from spacetable.engine import JSON, Game, load_finite

from .simulate import RunError, read_run, simulate
from .tournament import wilson

SETTINGS_FILE = "ladder.json"
BOOTSTRAP = 400
"""Bootstrap samples of the games behind each rating interval."""
PRIOR_DRAWS = 0.5
"""A draw this many games long added to every pair that played, so that a bot that never lost
to another gets a finite rating gap (a weak prior next to any real number of games)."""


def default_bots(game: Game) -> list[str]:
    """random, greedy, the search levels, and ``planner`` where the game has a planner of its own
    (its ``Game.planner`` or the turn planner)."""
    bots = ["random", "greedy", *LEVELS]
    return [*bots, "planner"] if has_planner(game) else bots


@dataclass(frozen=True)
class LadderSettings:
    """What decides a ladder's games (``games``: per match, i.e. per pair of bots, or per bot and
    level in a one-player game)."""

    game: str
    players: int
    options: dict[str, JSON]
    bots: list[str]
    games: int
    seed: int
    levels: list[int]
    """The game's levels a one-player ladder plays (empty for several players)."""

    def difference(self, before: LadderSettings) -> str | None:
        """Why a ladder with ``before``'s settings cannot be continued with these (None: it can)."""
        for name in ("game", "players", "options", "seed"):
            if getattr(before, name) != getattr(self, name):
                return f"its {name} {'are' if name.endswith('s') else 'is'} {json.dumps(getattr(before, name))[:80]}"
        if self.games < before.games:
            return f"it has {before.games} games a match: resume it with that many or more"
        return None


@dataclass(frozen=True)
class Match:
    """One run of a ladder: its file's stem, the seats' bots and the game's level (solo ladders)."""

    name: str
    seats: tuple[str, ...]
    level: int | None
    games: int


def matches(settings: LadderSettings) -> list[Match]:
    """Every run of the ladder, in the order they are played."""
    if settings.players == 1:
        return [
            Match(f"{bot}-level{level}", (bot,), level, settings.games)
            for level in settings.levels
            for bot in settings.bots
        ]
    half = (settings.games + 1) // 2
    runs = []
    for i, a in enumerate(settings.bots):
        for b in settings.bots[i + 1 :]:
            for first, second in ((a, b), (b, a)):
                seats = tuple(first if seat % 2 == 0 else second for seat in range(settings.players))
                runs.append(Match(f"{first}-vs-{second}", seats, None, half))
    return runs


def check_bots(bots: Sequence[str], players: int, levels: Sequence[int]) -> None:
    """RunError (one line) for a ladder that cannot be played: unknown or repeated bots, too few."""
    unknown = [b for b in bots if b not in AGENTS]
    if unknown:
        raise RunError(f"unknown bot {unknown[0]!r}; bots: {', '.join(sorted(AGENTS))}")
    if len(set(bots)) != len(bots):
        raise RunError("each bot may be named once")
    if players > 1 and len(bots) < 2:
        raise RunError("a ladder needs at least two bots")
    if players == 1 and not levels:
        raise RunError("a one-player ladder needs at least one --level")
    if players > 1 and levels:
        raise RunError("--level is for one-player games; give a game option with -o KEY=VALUE")


def run_ladder(
    game: Game,
    bots: list[str],
    games: int,
    out: Path,
    seed: int = 0,
    jobs: int = 1,
    ray_address: str | None = None,
    resume: bool = False,
    levels: Sequence[int] = (),
    on_game: Callable[[int, int], None] | None = None,
) -> tuple[int, int]:
    """Play the ladder into the folder ``out``; ``resume`` continues the ladder there (same game,
    options and seed; as many games or more; bots may be added). ``on_game(done, total)`` after
    each game. Returns (games kept from before, games played now); KeyboardInterrupt propagates
    with every finished game saved."""
    settings = LadderSettings(game.id, game.players, _options(game), list(bots), games, seed, list(levels))
    check_bots(bots, game.players, levels)
    path = out / SETTINGS_FILE
    if resume:
        before = read_settings(out)
        difference = settings.difference(before)
        if difference:
            raise RunError(f"{out} is a different ladder: {difference}")
        grown = {
            "bots": [*before.bots, *(b for b in bots if b not in before.bots)],
            "levels": [*before.levels, *(lv for lv in levels if lv not in before.levels)],
        }
        settings = LadderSettings(**{**asdict(settings), **grown})
    elif out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file: a ladder is a folder")
    elif out.exists() and any(out.iterdir()):
        raise RunError(f"{out} exists and is not empty: --resume continues that ladder, or choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(settings), indent=1, sort_keys=True) + "\n")
    runs = matches(settings)
    total = sum(m.games for m in runs)
    files = [out / f"{match.name}.parquet" for match in runs]
    rows = [read_run(file)[1].num_rows if file.exists() else 0 for file in files]
    kept = sum(rows)
    if on_game and kept:
        on_game(kept, total)  # every kept game at once, first: a progress rate then counts only new ones
    played = 0
    for match, file, done_before in zip(runs, files, rows):
        options = {**game.options, "level": match.level} if match.level is not None else dict(game.options)
        advance = _advance(on_game, kept + played - done_before, done_before, total) if on_game else None
        match_game = load_finite(game.id, game.players, options)
        _, now = simulate(
            match_game, list(match.seats), match.games, file, seed, jobs, ray_address, file.exists(), advance
        )
        played += now
    return kept, played


def _advance(on_game: Callable[[int, int], None], offset: int, after: int, total: int) -> Callable[[int], None]:
    """A run's ``on_game(done)`` as the ladder's: games done beyond ``after`` (those it kept,
    already counted), shifted by ``offset``."""
    return lambda done: on_game(offset + done, total) if done > after else None


def _options(game: Game) -> dict[str, JSON]:
    """The options a ladder is defined by (unset ones left out; the level is the ladder's own)."""
    return {k: v for k, v in game.options.items() if v is not None and not (game.players == 1 and k == "level")}


def read_settings(out: Path) -> LadderSettings:
    """The settings of the ladder in ``out``; RunError if there is none."""
    path = out / SETTINGS_FILE
    if not path.is_file():
        raise RunError(f"{out} holds no ladder (no {SETTINGS_FILE})")
    try:
        return LadderSettings(**json.loads(path.read_text()))
    except (TypeError, ValueError) as exc:
        raise RunError(f"{path} is damaged ({str(exc).splitlines()[0][:120]})") from None


# ---- reading a ladder -----------------------------------------------------------------------------


@dataclass
class Rating:
    bot: str
    elo: float
    low: float
    high: float
    step: float | None
    """Its rating minus the bot's before it in the ladder's order (None for the first)."""
    step_low: float | None
    step_high: float | None
    games: int


@dataclass
class LadderTable:
    settings: LadderSettings
    ratings: list[Rating]
    """Several players: one per bot, in the ladder's order."""
    pairs: dict[tuple[str, str], tuple[float, int]]
    """(A, B) -> (A's share of the wins against B, games), both seatings together."""
    solo: dict[tuple[str, int], tuple[float, int, float | None]]
    """One player: (bot, level) -> (wins, games, the mean of the game's own score, where it gives one)."""


def read_ladder(out: Path, samples: int = BOOTSTRAP, seed: int = 0) -> LadderTable:
    """Every game the ladder in ``out`` has played so far, fitted (see the module's docstring)."""
    settings = read_settings(out)
    if settings.players == 1:
        solo = {}
        for match in matches(settings):
            file = out / f"{match.name}.parquet"
            if file.exists():
                rows = read_run(file)[1].to_pydict()
                scores = [score for score in rows["score 0"] if score is not None]
                mean = sum(scores) / len(scores) if scores and len(scores) == len(rows["score 0"]) else None
                solo[match.seats[0], match.level or 0] = (sum(rows["win 0"]), len(rows["win 0"]), mean)
        return LadderTable(settings, [], {}, solo)
    runs: list[tuple[str, str, list[float]]] = []  # (A, B, A's result in each game)
    for match in matches(settings):
        first, second = match.seats[0], match.seats[1]
        results = _results(out, match)
        if results:
            runs.append((first, second, results))
    pairs: dict[tuple[str, str], tuple[float, int]] = {}
    for a, b, results in runs:
        key, flip = ((a, b), False) if settings.bots.index(a) < settings.bots.index(b) else ((b, a), True)
        score, n = pairs.get(key, (0.0, 0))
        pairs[key] = (score + sum(1 - r if flip else r for r in results), n + len(results))
    bots = [b for b in settings.bots if any(b in key for key in pairs)]
    ratings = _ratings(bots, runs, samples, random.Random(seed))
    return LadderTable(settings, ratings, pairs, {})


def _results(out: Path, match: Match) -> list[float]:
    """Seat 0's side's result in each game of a match's run (empty if not begun): its share of the
    win, or 0.5 where nobody won."""
    file = out / f"{match.name}.parquet"
    if not file.exists():
        return []
    _, table = read_run(file)
    columns = table.to_pydict()
    seats = len(match.seats)
    side = [s for s in range(seats) if match.seats[s] == match.seats[0]]
    results = []
    for g in range(table.num_rows):
        shares = [columns[f"win {s}"][g] for s in range(seats)]
        total = sum(shares)
        results.append(sum(shares[s] for s in side) / total if total else 0.5)
    return results


def _ratings(
    bots: list[str], runs: list[tuple[str, str, list[float]]], samples: int, rng: random.Random
) -> list[Rating]:
    index = {b: i for i, b in enumerate(bots)}
    fitted = bradley_terry(len(bots), [(index[a], index[b], r) for a, b, r in runs])
    draws = []
    for _ in range(samples):
        resampled = [(index[a], index[b], [rng.choice(r) for _ in r]) for a, b, r in runs]
        draws.append(bradley_terry(len(bots), resampled))
    ratings = []
    for i, bot in enumerate(bots):
        games = sum(len(r) for a, b, r in runs if bot in (a, b))
        low, high = _interval([d[i] for d in draws])
        step = step_low = step_high = None
        if i:
            step = fitted[i] - fitted[i - 1]
            step_low, step_high = _interval([d[i] - d[i - 1] for d in draws])
        ratings.append(Rating(bot, fitted[i], low, high, step, step_low, step_high, games))
    return ratings


def _interval(values: list[float]) -> tuple[float, float]:
    """The central 95% of ``values`` (a bootstrap's percentile interval)."""
    ordered = sorted(values)
    n = len(ordered)
    return ordered[int(0.025 * (n - 1))], ordered[math.ceil(0.975 * (n - 1))]


def bradley_terry(count: int, games: Sequence[tuple[int, int, Sequence[float]]], iterations: int = 500) -> list[float]:
    """Bradley-Terry ratings on the Elo scale (400 points: 10 to 1 odds), the first at 0, fitted by
    minorise-maximise to ``games``: (A, B, A's result in each game between them, 0 to 1). Every
    pair that played gets :data:`PRIOR_DRAWS` more games of 0.5."""
    wins = [0.0] * count
    played: dict[tuple[int, int], float] = {}
    for a, b, results in games:
        score = sum(results)
        wins[a] += score + PRIOR_DRAWS / 2
        wins[b] += len(results) - score + PRIOR_DRAWS / 2
        key = (a, b) if a < b else (b, a)
        played[key] = played.get(key, 0.0) + len(results) + PRIOR_DRAWS
    strength = [1.0] * count
    for _ in range(iterations):
        rate = [0.0] * count
        for (a, b), n in played.items():
            share = n / (strength[a] + strength[b])
            rate[a] += share
            rate[b] += share
        new = [wins[i] / rate[i] if rate[i] else strength[i] for i in range(count)]
        total = math.exp(sum(math.log(s) for s in new) / count)
        new = [s / total for s in new]
        converged = max(abs(math.log(x / y)) for x, y in zip(new, strength)) < 1e-9
        strength = new
        if converged:
            break
    base = math.log10(strength[0])
    return [400 * (math.log10(s) - base) for s in strength]


def markdown(table: LadderTable) -> str:
    """The ladder as markdown tables (ratings and steps, then each pair's score; or the solo rates)."""
    s = table.settings
    if s.players == 1:
        head = "| bot | " + " | ".join(f"level {level}" for level in s.levels) + " |"
        lines = [head, "|---|" + "---|" * len(s.levels)]
        for bot in s.bots:
            cells = []
            for level in s.levels:
                wins, n, score = table.solo.get((bot, level), (0.0, 0, None))
                low, high = wilson(wins, n)
                scored = "" if score is None else f", score {score:.2f}"
                cells.append(f"{100 * wins / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}] ({n}{scored})" if n else "-")
            lines.append(f"| {bot} | " + " | ".join(cells) + " |")
        return "\n".join(lines)
    anchor = table.ratings[0].bot if table.ratings else "-"
    lines = [
        f"| bot | Elo (0 = {anchor}) [95%] | step over the bot above [95%] | games |",
        "|---|---|---|---|",
    ]
    for r in table.ratings:
        step = "-" if r.step is None else f"{r.step:+.0f} [{r.step_low:+.0f}, {r.step_high:+.0f}]"
        marked = "" if r.step_low is None or r.step_low > 0 else " (not above)"
        lines.append(f"| {r.bot} | {r.elo:.0f} [{r.low:.0f}, {r.high:.0f}] | {step}{marked} | {r.games} |")
    bots = [r.bot for r in table.ratings]
    lines += ["", "| A's share of the wins against B (games) | " + " | ".join(bots[1:]) + " |"]
    lines.append("|---|" + "---|" * (len(bots) - 1))
    for a in bots[:-1]:
        cells = []
        for b in bots[1:]:
            played = table.pairs.get((a, b))
            cells.append(f"{played[0] / played[1]:.2f} ({played[1]})" if played and played[1] else "")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ladder_json(table: LadderTable) -> dict[str, Any]:
    """The ladder's figures as plain data (``--json``)."""
    return {
        "settings": asdict(table.settings),
        "ratings": [asdict(r) for r in table.ratings],
        "pairs": [{"a": a, "b": b, "score": s, "games": n} for (a, b), (s, n) in table.pairs.items()],
        "solo": [
            {"bot": b, "level": lv, "wins": w, "games": n, "mean_score": score}
            for (b, lv), (w, n, score) in table.solo.items()
        ],
    }


__all__ = [
    "LadderSettings",
    "LadderTable",
    "Match",
    "Rating",
    "bradley_terry",
    "default_bots",
    "ladder_json",
    "markdown",
    "matches",
    "read_ladder",
    "run_ladder",
]
