"""Bots. Each is a :class:`spacetable.engine.Player`: it is handed ``state.resample(seat)``
only, so it cannot see what its seat may not know.

``random`` and ``greedy`` are the floor; ``easy``, ``normal`` and ``hard`` are the search bot
(:mod:`spacetable.agents.mcts`) with the budgets of ``levels.toml``; ``planner`` is a game's own
planning bot (``Game.planner``) where it has one, else ``hard``. ``make_agent("hard")`` builds
one from its name, as written in ``--seat 1=bot:hard``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from pathlib import Path

from spacetable.engine import Action, ContentError, OptionsError, Player, State
from spacetable.engine.content import read_toml

from .mcts import MCTSAgent, SearchBudget


class RandomAgent:
    """Uniformly random legal actions: the floor every other bot must beat."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions(seat))


class GreedyAgent:
    """One-ply lookahead on the game's own evaluation (``Game.evaluate``).

    Each legal action is applied to a copy; an action that leads to a chance
    node is valued by the average over its outcomes (one level deep). Ties are
    broken at random so that the bot does not always favour the first action.
    """

    name = "greedy"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        actions = state.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_value = float("-inf")
        for action in actions:
            child = state.clone()
            child.apply_legal(action, seat)
            value = self._value(child, seat)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return rng.choice(best)

    def _value(self, state: State, seat: int) -> float:
        evaluate = state.game.evaluate
        if not state.is_chance_node():
            return evaluate(state, seat)
        total = 0.0
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply_legal(outcome)
            total += p * evaluate(child, seat)
        return total


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


class LeveledAgent:
    """A difficulty level: information-set MCTS with the level's budget for whatever game it plays."""

    def __init__(self, level: str) -> None:
        if level not in LEVELS:
            raise OptionsError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.name = level
        self._searchers: dict[str, MCTSAgent] = {}

    def searcher(self, game_id: str) -> MCTSAgent:
        agent = self._searchers.get(game_id)
        if agent is None:
            agent = self._searchers[game_id] = MCTSAgent(level_budget(game_id, self.name), self.name)
        return agent

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.searcher(state.game.id).choose(state, seat, rng)


class PlannerAgent:
    """The game's own planner (``Game.planner``) for each game it plays; ``hard`` where a game has none."""

    name = "planner"

    def __init__(self) -> None:
        self._planners: dict[str, Player] = {}
        self._fallback = LeveledAgent("hard")

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        game = state.game
        planner = self._planners.get(game.id)
        if planner is None:
            planner = self._planners[game.id] = game.planner() or self._fallback
        return planner.choose(state, seat, rng)


AGENTS: dict[str, Callable[[], Player]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    **{level: functools.partial(LeveledAgent, level) for level in LEVELS},
    "planner": PlannerAgent,
}


def make_agent(name: str) -> Player:
    """The bot called ``name``; raises OptionsError listing the known bots."""
    factory = AGENTS.get(name)
    if factory is None:
        raise OptionsError(f"unknown bot {name!r}; bots: {', '.join(sorted(AGENTS))}")
    return factory()


__all__ = [
    "AGENTS",
    "LEVELS",
    "GreedyAgent",
    "LeveledAgent",
    "MCTSAgent",
    "PlannerAgent",
    "RandomAgent",
    "SearchBudget",
    "make_agent",
]
