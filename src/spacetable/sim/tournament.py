"""Bots against bots: seat rotation, win rates with confidence intervals, Elo ratings.

Game ``i`` seats agent ``agents[(seat + i) % len(agents)]`` in each seat, so over a multiple
of ``len(agents)`` games every agent sits in every seat equally often, and it is played
with the dice and bots of the generator seeded ``"{seed}:{i}"`` (sim.batch): the results do
not depend on how many processes play the games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from spacetable.agents import make_agent
from spacetable.engine import JSON, Game, load_finite

from .batch import GameResult, GameSpec, run_games

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass
class AgentRow:
    agent: str
    seat_games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    ci_low: float = 0.0
    ci_high: float = 0.0
    ms_per_move: float = 0.0
    elo: float | None = None
    mean_score: float | None = None
    """The mean of the game's own score (outcome scores), where the game gives one."""
    mean_actions: float = 0.0
    """The mean length, in actions, of the games this bot played."""
    mean_rounds: float | None = None
    think: float = field(default=0.0, repr=False)
    moves: int = field(default=0, repr=False)


@dataclass
class Report:
    game: str
    players: int
    options: dict[str, JSON]
    games: int
    fair_share: float
    average_actions: float
    average_rounds: float | None
    endings: dict[str, int]
    rows: list[AgentRow]
    interrupted: bool = False
    """Stopped by Ctrl-C: the figures are of the games finished by then (``games`` of them)."""

    def to_json(self) -> dict[str, JSON]:
        data = asdict(self)
        for row in data["rows"]:
            del row["think"], row["moves"]
        return data


def seating(agents: list[str], players: int, index: int) -> list[str]:
    return [agents[(seat + index) % len(agents)] for seat in range(players)]


def run(
    game: Game,
    agents: list[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
) -> Report:
    """Play ``games`` games and summarise them. ``jobs`` > 1 plays them in that many processes.
    Bots' games must end: the game's ``finite_options`` fill the options it leaves unset.

    Ctrl-C (KeyboardInterrupt) stops early: the report, marked ``interrupted``, is of the games
    finished by then (with ``jobs`` > 1, the batches under way are abandoned: sim.batch)."""
    game = load_finite(game.id, game.players, game.options)
    for name in agents:
        make_agent(name)  # fail early on an unknown bot
    seats = [(i, seating(agents, game.players, i)) for i in range(games)]
    results: list[GameResult] = []
    try:
        for result in run_games(GameSpec.of(game), seed, seats, jobs):
            results.append(result)
            if on_game:
                on_game(result)
    except KeyboardInterrupt:
        report = summarise(game, agents, results)
        report.interrupted = True
        return report
    return summarise(game, agents, results)


def summarise(game: Game, agents: list[str], results: list[GameResult]) -> Report:
    rows = {name: AgentRow(name) for name in agents}
    endings: dict[str, int] = {}
    scored = all(r.scores is not None for r in results)
    totals = {name: [0.0, 0.0, 0.0, 0.0] for name in agents}  # score, actions, rounds, games with rounds
    for r in results:
        endings[r.reason] = endings.get(r.reason, 0) + 1
        for seat, name in enumerate(r.seats):
            row = rows[name]
            row.seat_games += 1
            row.wins += r.share[seat]
            row.think += r.think[seat]
            row.moves += r.moves[seat]
            total = totals[name]
            total[0] += r.scores[seat] if r.scores is not None else 0.0
            total[1] += r.actions
            if r.rounds is not None:
                total[2] += r.rounds
                total[3] += 1
    for row in rows.values():
        n = row.seat_games
        score, actions, rounds, with_rounds = totals[row.agent]
        row.mean_score = score / n if scored and n else None
        row.mean_actions = actions / n if n else 0.0
        row.mean_rounds = rounds / with_rounds if with_rounds else None
        row.win_rate = row.wins / n if n else 0.0
        row.ci_low, row.ci_high = wilson(row.wins, n)
        row.ms_per_move = 1000 * row.think / row.moves if row.moves else 0.0
    if game.players > 1 and len(agents) > 1:
        for name, rating in elo(results).items():
            rows[name].elo = round(rating, 1)
    game_rounds = [r.rounds for r in results if r.rounds is not None]
    played = len(results) or 1
    return Report(
        game=game.id,
        players=game.players,
        options={k: v for k, v in game.options.items() if v is not None and k != "content"},
        games=len(results),
        fair_share=1 / game.players,
        average_actions=sum(r.actions for r in results) / played,
        average_rounds=sum(game_rounds) / len(game_rounds) if game_rounds else None,
        endings=endings,
        rows=list(rows.values()),
    )


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(results: list[GameResult], iterations: int = 200) -> dict[str, float]:
    """Elo ratings (mean 1500) fitted to every pair of seats of different bots in every game.

    A seat with a larger share of the win beats the other; equal shares are a draw. The fit
    is the Bradley-Terry maximum likelihood (minorise-maximise updates), on the Elo scale.
    """
    score: dict[tuple[str, str], float] = {}
    count: dict[tuple[str, str], int] = {}
    names: set[str] = set()
    for r in results:
        for i, a in enumerate(r.seats):
            for j, b in enumerate(r.seats):
                if i < j and a != b:
                    s = 1.0 if r.share[i] > r.share[j] else 0.0 if r.share[i] < r.share[j] else 0.5
                    score[a, b] = score.get((a, b), 0.0) + s
                    score[b, a] = score.get((b, a), 0.0) + 1 - s
                    count[a, b] = count.get((a, b), 0) + 1
                    count[b, a] = count.get((b, a), 0) + 1
                    names |= {a, b}
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        for a in names:
            # a prior of one draw against a player of strength 1 keeps unbeaten bots finite
            won = sum(score.get((a, b), 0.0) for b in names if b != a) + 0.5
            rate = sum(count.get((a, b), 0) / (strength[a] + strength[b]) for b in names if b != a)
            rate += 1 / (strength[a] + 1)
            strength[a] = won / rate
    logs = {a: 400 * math.log10(s) for a, s in strength.items()}
    mean = sum(logs.values()) / len(logs) if logs else 0.0
    return {a: 1500 + v - mean for a, v in logs.items()}


__all__ = ["AgentRow", "GameResult", "Report", "elo", "run", "seating", "summarise", "wilson"]
