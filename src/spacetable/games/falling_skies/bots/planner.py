"""A round planner for falling-skies: a bot that plans each round on sampled dice.

A round has two halves. Placing dice is where chance lives (a white die re-rolls every
die not yet placed); everything after the last placement (the order of resolving rooms,
which rooms to pay for, which robot to rebuild, where the new robot goes, where ships
respawn) is certain until the next round's roll.

- **After the dice are placed**, :func:`settle` searches the lines to the next roll
  (memoised on the position, so orders that lead to the same position are searched once;
  of the respawn columns only one, since the value does not depend on them) and values
  their ends with :func:`heuristic.static_value`; past its budget of positions it values
  a position by :func:`heuristic.evaluate` instead.
- **While placing**, each legal placement is tried on ``samples`` determinizations of the
  dice still to be rolled this round: sequences of die faces drawn from the bot's own
  random numbers, the same sequences for every placement (common random numbers). A
  first pass ranks every placement worth trying by its average value one step ahead; then
  each of the :data:`STAGES` keeps the best placements so far and plays each out to the end
  of the placements on some of the sequences, re-ranking them by the average value at the
  next roll. A play-out is a beam search ranked by :func:`heuristic.evaluate` (which resolves
  standing dice on a copy), the rest of that round searched by :func:`settle`; a stage with
  no budget completes the placements greedily (one position kept a step) and values the
  result by :func:`heuristic.evaluate`. Each stage's play-outs share a budget of positions
  (a greedy completion is bounded by the dice and spaces left), so a decision stays bounded;
  the best placement of the last stage is played.

The planner never looks at the true future: it plans on ``state.resample(seat, rng)``
(what its seat may know) and rolls every die itself from ``rng``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from spacetable.engine import Action, Roll, State

from ..rules.actions import Place
from ..rules.state import FallingSkiesState
from .heuristic import evaluate, static_value

SAMPLES = 4
"""Determinizations of the coming re-rolls per placement decision."""
STAGES = ((10, 4, 0),)
"""How the placements are narrowed after the one-step pass, one (width, samples, budget) a stage:
keep the ``width`` best so far and play each out on the first ``samples`` determinizations, the
play-outs sharing ``budget`` positions (0: greedy completions). The one-step pass alone ranks
placements badly; greedy completions of its ten best on all four samples won more level-1 games,
at less cost, than full play-outs of its five best, and a stage of full play-outs after them
gained nothing measurable (benchmarks/README.md)."""
BEAM = 3
"""Positions kept at each step of the search over a sample's remaining placements."""
DECISION_BUDGET = 3000
"""Positions the exact search after the last placement may expand for one decision."""
STREAM = 24
"""Die faces per determinization: more than a round can roll (5 dice, and re-rolls after 2 whites)."""


class RoundPlanner:
    """The falling-skies planner bot (see the module docstring)."""

    name = "planner"

    def __init__(
        self,
        samples: int = SAMPLES,
        stages: Sequence[tuple[int, int, int]] = STAGES,
        beam: int = BEAM,
        decision_budget: int = DECISION_BUDGET,
    ) -> None:
        self.samples = samples
        self.stages = tuple(stages)
        self.beam = beam
        self.decision_budget = decision_budget
        self._line: dict[tuple[object, ...], tuple[float, Action | None]] = {}
        """The last settle search's best action for each position it met (reused while valid)."""
        self._game: object = None
        """The game the line belongs to."""

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        world = state.resample(seat, rng)
        assert isinstance(world, FallingSkiesState), "the round planner plays falling-skies only"
        legal = world.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if world.phase == "place":
            return self._placement(world, worth_trying(world, legal), rng)
        known = self._line.get(position_key(world)) if world.game is self._game else None
        if known is not None and known[1] in legal:
            return known[1]
        self._line, self._game = {}, world.game
        action = settle(world, self._line, Budget(self.decision_budget))[1]
        assert action is not None
        return action

    # ---- phase 1 ----------------------------------------------------------------------------
    def _placement(self, world: FallingSkiesState, legal: Sequence[Action], rng: random.Random) -> Action:
        streams = [[rng.randint(1, 6) for _ in range(STREAM)] for _ in range(self.samples)]
        first: list[tuple[float, int, Action]] = []
        for index, action in enumerate(legal):
            total = 0.0
            for stream in streams:
                child, _ = _step(world, action, stream, 0)
                total += evaluate(child)
            first.append((total / len(streams), index, action))
        first.sort(key=lambda t: (-t[0], t[1]))
        ranked = [action for _, _, action in first]
        for width, samples, budget in self.stages:
            kept = ranked[:width]
            if len(kept) == 1:
                break
            share = budget // (len(kept) * samples)
            scored: list[tuple[float, int, Action]] = []
            for rank, action in enumerate(kept):
                total = 0.0
                for stream in streams[:samples]:
                    child, used = _step(world, action, stream, 0)
                    total += _finish_placing(child, stream, used, self.beam, Budget(share))
                scored.append((total, rank, action))
            scored.sort(key=lambda t: (-t[0], t[1]))
            ranked = [action for _, _, action in scored]
        return ranked[0]


def worth_trying(state: FallingSkiesState, legal: Sequence[Action]) -> list[Action]:
    """The placements not plainly worse than another: of the digging placements of one die in
    one column, only the deepest it reaches (a shallower one opens less for the same die), and
    none it cannot reach while that column's anti-aircraft gun is free (the gun moves the
    ships one row less and the die does nothing either way), else one."""
    b = state.board
    deepest: dict[tuple[str, int, int], int] = {}
    wasted: set[tuple[str, int, int]] = set()
    kept: list[Action] = []
    for action in legal:
        if not isinstance(action, Place) or state.excavated(action.space):
            kept.append(action)
            continue
        column = b.column_of[action.space]
        route = b.dig_index[action.space] - state.excavator
        if route > action.value:
            gun = next((s for s in b.aa_spaces if b.column_of[s] == column), None)
            if (gun is None or gun in state.slots) and (action.color, action.value, column) not in wasted:
                wasted.add((action.color, action.value, column))  # one such space does what all do
                kept.append(action)
            continue
        key = (action.color, action.value, column)
        if route > deepest.get(key, -1):
            deepest[key] = route
    for action in legal:
        if isinstance(action, Place) and not state.excavated(action.space):
            route = b.dig_index[action.space] - state.excavator
            if route <= action.value and deepest[(action.color, action.value, b.column_of[action.space])] == route:
                kept.append(action)
    return kept


def _step(state: FallingSkiesState, action: Action, stream: list[int], used: int) -> tuple[FallingSkiesState, int]:
    """A copy with ``action`` applied and any dice it sends to be rolled rolled from ``stream``."""
    child = state.clone()
    child.apply_legal(action, 0)
    while child.phase == "roll":
        child.apply_legal(Roll(stream[used % len(stream)]))
        used += 1
    return child, used


def _finish_placing(state: FallingSkiesState, stream: list[int], used: int, beam: int, budget: Budget) -> float:
    """The best value at the next roll over the remaining placements on one determinization.

    A beam search: each step expands every kept position by every placement worth trying
    (re-rolls from ``stream``), merges positions reached by placing the same dice in another
    order, and keeps the ``beam`` best by :func:`heuristic.evaluate` (one only once ``budget``
    is spent; each position valued costs one). The positions left when the dice are placed
    have the rest of their round searched by :func:`settle`, best first, on what is left of
    ``budget``; the best of them is the sample's value."""
    kept = [(state, used)]
    while any(s.phase == "place" for s, _ in kept):
        scored: dict[tuple[object, ...], tuple[float, FallingSkiesState, int]] = {}
        for position, at in kept:
            if position.phase != "place":
                scored.setdefault((*position_key(position), at), (evaluate(position), position, at))
                continue
            for action in worth_trying(position, position.legal_actions(0)):
                child, after = _step(position, action, stream, at)
                key = (*position_key(child), after)
                if key not in scored:
                    scored[key] = (evaluate(child), child, after)
                    budget.left -= 1
        ranked = sorted(scored.values(), key=lambda t: -t[0])
        kept = [(child, after) for _, child, after in ranked[: beam if budget.left > 0 else 1]]
    return max(settle(position, {}, budget)[0] for position, _ in kept)


# ---- phases 2 and 3: certain until the next roll ------------------------------------------------
class Budget:
    """How many more positions an exact search may expand."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


def settle(
    state: FallingSkiesState, memo: dict[tuple[object, ...], tuple[float, Action | None]], budget: Budget
) -> tuple[float, Action | None]:
    """The best value reachable from ``state`` by the next roll (or the end), and its first action.

    Lines are searched depth first, memoised on the position (the caller may reuse ``memo``
    for the following decisions of the same line). Once ``budget`` positions have been
    expanded, a position not yet searched is valued by :func:`heuristic.evaluate` (its
    standing dice resolved as a player would) instead, so the search stays bounded."""
    if state.phase in ("roll", "over"):
        return evaluate(state) if state.phase == "over" else static_value(state), None
    key = position_key(state)
    known = memo.get(key)
    if known is not None:
        return known
    if budget.left <= 0:
        return evaluate(state), None
    budget.left -= 1
    best: tuple[float, Action | None] = (-math.inf, None)
    legal = state.legal_actions(0)
    if state.phase == "respawn":
        legal = legal[:1]  # a ship's starting spot does not change the value: one column will do
    for action in legal:
        child = state.clone()
        child.apply_legal(action, 0)
        value = settle(child, memo, budget)[0]
        if value > best[0]:
            best = (value, action)
    memo[key] = best
    return best


def position_key(state: FallingSkiesState) -> tuple[object, ...]:
    """Everything a decision after the dice are placed depends on, hashable."""
    return (
        state.phase,
        state.round,
        state.mothership,
        state.energy,
        state.damage,
        state.research,
        state.excavator,
        tuple(sorted(state.ships)),
        tuple(state.waiting),
        state.red_supply,
        state.robot_supply,
        tuple(sorted(state.slots.items())),
        tuple(state.new_robots),
        tuple(state.pending),
        tuple(state.unplaced),
        tuple(state.to_roll),
        state.columns_used,
        state.dug,
    )
