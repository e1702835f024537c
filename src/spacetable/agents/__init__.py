"""Bots. Each is a :class:`spacetable.engine.Player`: it is handed ``state.resample(seat)``
only, so it cannot see what its seat may not know.

``make_agent("greedy")`` builds one from its name, as written in ``--seat 0=bot:greedy``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from spacetable.engine import Action, OptionsError, Player, State


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
            child.apply_action(action, seat)
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
            child.apply_action(outcome)
            total += p * evaluate(child, seat)
        return total


AGENTS: dict[str, Callable[[], Player]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str) -> Player:
    """The bot called ``name``; raises OptionsError listing the known bots."""
    factory = AGENTS.get(name)
    if factory is None:
        raise OptionsError(f"unknown bot {name!r}; bots: {', '.join(sorted(AGENTS))}")
    return factory()


__all__ = ["AGENTS", "GreedyAgent", "RandomAgent", "make_agent"]
