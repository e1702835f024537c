"""The greedy bot and the one-ply values it (and the search's root ordering) stands on."""

from __future__ import annotations

import random

from spacetable.engine import Action, State


def one_ply_values(state: State, seat: int, actions: list[Action]) -> list[float]:
    """``seat``'s evaluation (``Game.evaluate``) after each of ``actions``, in order.

    Each action is applied to a copy; one that leads to a chance node is valued by the average
    over its outcomes (one level deep). Actions whose value the game tells without playing them
    (``Game.quick_values``) are not played."""
    quick = state.game.quick_values(state, seat, actions) or [None] * len(actions)
    values = []
    for action, known in zip(actions, quick):
        if known is None:
            child = state.clone()
            child.apply_legal(action, seat)
            known = expected_value(child, seat)
        values.append(known)
    return values


def expected_value(state: State, seat: int) -> float:
    """``seat``'s evaluation of ``state``; at a chance node, averaged over its outcomes."""
    evaluate = state.game.evaluate
    if not state.is_chance_node():
        return evaluate(state, seat)
    total = 0.0
    for outcome, p in state.chance_outcomes():
        child = state.clone()
        child.apply_legal(outcome)
        total += p * evaluate(child, seat)
    return total


class GreedyAgent:
    """One-ply lookahead on the game's own evaluation (:func:`one_ply_values`). Ties are broken
    at random so that the bot does not always favour the first action."""

    name = "greedy"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        actions = state.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_value = float("-inf")
        for action, value in zip(actions, one_ply_values(state, seat, actions)):
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return rng.choice(best)
