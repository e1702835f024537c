"""Bots. Each is a :class:`spacetable.engine.Player`: it is handed ``state.resample(seat)``
only, so it cannot see what its seat may not know.

``random`` and ``greedy`` are the floor; ``easy``, ``normal`` and ``hard`` are the search bot
(:mod:`spacetable.agents.mcts`) with the budgets of ``levels.toml``; ``planner`` is a game's own
planning bot (``Game.planner``) where it has one, else the turn planner
(:mod:`spacetable.agents.turn_planner`) where ``levels.toml`` gives it a budget for the game, else
``hard``. ``make_agent("hard")`` builds one from its name, as written in ``--seat 1=bot:hard``;
``make_agent("hard", seconds=1.0)`` caps the wall time of its decisions (the web table's cap),
which batch runs never do.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable
from pathlib import Path

from spacetable.engine import Action, ContentError, Game, OptionsError, Player, State
from spacetable.engine.content import read_toml

from .greedy import GreedyAgent
from .mcts import MCTSAgent, SearchBudget
from .turn_planner import TurnPlanner


class RandomAgent:
    """Uniformly random legal actions: the floor every other bot must beat."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions(seat))


LEVELS_FILE = Path(__file__).parent / "levels.toml"
LEVELS = ("easy", "normal", "hard")


def level_budget(game_id: str, level: str) -> SearchBudget:
    """The search budget of a difficulty level for a game (its own entry, else the default)."""
    table = read_toml(LEVELS_FILE)
    entry = table.get(game_id, {}).get(level) or table["default"][level]
    try:
        return SearchBudget(**entry)
    except (TypeError, ValueError) as exc:
        raise ContentError(f"levels.toml: {game_id}.{level} is not a search budget: {exc}") from None


def turn_planner(game_id: str) -> TurnPlanner | None:
    """The turn planner with the game's budget in ``levels.toml`` (table ``turn-planner``), or
    None where it gives none."""
    entry = read_toml(LEVELS_FILE).get("turn-planner", {}).get(game_id)
    if entry is None:
        return None
    try:
        return TurnPlanner(**entry)
    except (TypeError, ValueError) as exc:
        raise ContentError(f"levels.toml: turn-planner.{game_id} is not a turn planner's budget: {exc}") from None


def has_planner(game: Game) -> bool:
    """Whether ``planner`` is a planner of its own for ``game`` (not the ``hard`` fallback)."""
    return game.planner() is not None or turn_planner(game.id) is not None


def capped(budget: SearchBudget, seconds: float | None) -> SearchBudget:
    """``budget`` with a wall-clock limit of at most ``seconds`` (None: unchanged); its iterations
    stay an upper bound, so a fast machine may still stop before the cap."""
    if seconds is None:
        return budget
    if seconds <= 0:
        raise ValueError(f"a cap on a decision's seconds must be positive, not {seconds}")
    limit = seconds if budget.seconds is None else min(budget.seconds, seconds)
    return dataclasses.replace(budget, seconds=limit)


class LeveledAgent:
    """A difficulty level: information-set MCTS with the level's budget for whatever game it plays.

    ``seconds`` caps each decision's wall time (:func:`capped`); None (batch runs) keeps the
    level's budget as it is, so that iteration budgets give the same games on every machine."""

    def __init__(self, level: str, seconds: float | None = None) -> None:
        if level not in LEVELS:
            raise OptionsError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.name = level
        self.seconds = seconds
        self._searchers: dict[str, MCTSAgent] = {}

    def searcher(self, game_id: str) -> MCTSAgent:
        agent = self._searchers.get(game_id)
        if agent is None:
            budget = capped(level_budget(game_id, self.name), self.seconds)
            agent = self._searchers[game_id] = MCTSAgent(budget, self.name)
        return agent

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.searcher(state.game.id).choose(state, seat, rng)


class PlannerAgent:
    """The game's own planner (``Game.planner``) for each game it plays, else the turn planner
    where ``levels.toml`` gives it a budget for the game (:func:`turn_planner`), else ``hard``.

    ``seconds`` caps the ``hard`` fallback; the planners keep their own budgets (falling-skies'
    counts positions searched, the turn planner lines kept: neither counts seconds)."""

    name = "planner"

    def __init__(self, seconds: float | None = None) -> None:
        self._planners: dict[str, Player] = {}
        self._fallback = LeveledAgent("hard", seconds)

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        game = state.game
        planner = self._planners.get(game.id)
        if planner is None:
            planner = self._planners[game.id] = game.planner() or turn_planner(game.id) or self._fallback
        return planner.choose(state, seat, rng)


AGENTS: dict[str, Callable[[], Player]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    **{level: functools.partial(LeveledAgent, level) for level in LEVELS},
    "planner": PlannerAgent,
}


def make_agent(name: str, seconds: float | None = None) -> Player:
    """The bot called ``name``; raises OptionsError listing the known bots.

    ``seconds`` (the web table's cap) limits the wall time of each decision of the search levels
    and of ``planner``'s ``hard`` fallback; ``random`` and ``greedy`` (tens of milliseconds) need
    none (benchmarks/table_bot_time.py). None, as in every batch run, keeps the levels' budgets."""
    factory = AGENTS.get(name)
    if factory is None:
        raise OptionsError(f"unknown bot {name!r}; bots: {', '.join(sorted(AGENTS))}")
    agent = factory()
    if seconds is not None:
        if isinstance(agent, LeveledAgent):
            agent = LeveledAgent(agent.name, seconds)
        elif isinstance(agent, PlannerAgent):
            agent = PlannerAgent(seconds)
    return agent


__all__ = [
    "AGENTS",
    "LEVELS",
    "GreedyAgent",
    "LeveledAgent",
    "MCTSAgent",
    "PlannerAgent",
    "RandomAgent",
    "SearchBudget",
    "TurnPlanner",
    "capped",
    "has_planner",
    "make_agent",
    "turn_planner",
]
