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
- **On the last research space**, four sampled re-rolls are too coarse to tell the placements
  apart: :func:`final_chances` counts, for each placement, the exact chance over every re-roll
  of completing the research this round, on a small model of the round (which die goes to
  which column), and that chance ranks the placements, the play-outs' average breaking ties.

The planner never looks at the true future: it plans on ``state.resample(seat, rng)``
(what its seat may know) and rolls every die itself from ``rng``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

from spacetable.engine import Action, Event, Roll, State

from ..content import Room
from ..rules.actions import Place
from ..rules.placement import move_column, placeable
from ..rules.state import FallingSkiesState
from .heuristic import WIN, evaluate, profile, static_value

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
TIE = 1e-3
"""The weight of the play-outs' average beside exact chances: it only breaks ties."""
FINAL_EXTRA = 5
"""On the last research space: placements played out besides the one-step pass's best, the best
by their exact chance of completing the research this round (:func:`final_chances`), if not 0."""


class RoundPlanner:
    """The falling-skies planner bot (see the module docstring). ``endgame=False`` ranks the
    placements on the last research space by the play-outs alone, as before :func:`final_chances`
    (for paired measurements against it)."""

    name = "planner"

    def __init__(
        self,
        samples: int = SAMPLES,
        stages: Sequence[tuple[int, int, int]] = STAGES,
        beam: int = BEAM,
        decision_budget: int = DECISION_BUDGET,
        endgame: bool = True,
    ) -> None:
        self.samples = samples
        self.endgame = endgame
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
        chances = final_chances(world, legal) if self.endgame else None
        for width, samples, budget in self.stages:
            kept = ranked[:width]
            if chances is not None:
                extra = sorted(ranked[width:], key=lambda a: -chances[a])[:FINAL_EXTRA]
                kept += [a for a in extra if chances[a] > 0.0]
            if len(kept) == 1:
                break
            share = budget // (len(kept) * samples)
            values: list[list[float]] = []
            for action in kept:
                values.append([])
                for stream in streams[:samples]:
                    child, used = _step(world, action, stream, 0)
                    values[-1].append(_finish_placing(child, stream, used, self.beam, Budget(share)))
            scores = _scores(kept, values, chances)
            order = sorted(range(len(kept)), key=lambda i: (-scores[i], i))
            ranked = [kept[i] for i in order]
        return ranked[0]


def _scores(kept: list[Action], values: list[list[float]], chances: dict[Action, float] | None) -> list[float]:
    """Each placement's worth: the average of its play-outs, or on the last research space, with
    its exact chance of winning this round, ``chance * WIN + (1 - chance) * rest`` (``rest``: the
    average play-out that did not win, of all the placements', the same for all of them), ties
    going to the better average. A placement's own play-outs that did not win are too few to
    judge its failures by: of 258 level-1 games played on from the last space, ranking by them
    instead of ``rest`` won 163, half and half 193, ``rest`` 197 (the play-outs' average alone: 173)."""
    means = [sum(row) / len(row) for row in values]
    if chances is None:
        return means
    failed = [v for row in values for v in row if v < WIN]
    rest = sum(failed) / len(failed) if failed else 0.0
    return [chances[a] * WIN + (1.0 - chances[a]) * rest + TIE * mean for a, mean in zip(kept, means, strict=True)]


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


# ---- the last research space: the exact chance of completing it this round --------------------
def final_chances(state: FallingSkiesState, legal: Sequence[Action]) -> dict[Action, float] | None:
    """On the last research space, each placement's exact chance of completing the research this
    round, over every re-roll its white dice bring, played best; None elsewhere, or when no open
    room that can pay the last space can be paid for (energy rooms resolved first are not
    counted).

    The chance is the best over those rooms, each tried alone: its free spaces must get one die
    each, every other die goes in another free column (on its anti-aircraft gun if free), and a
    die that makes a ship destroy the base or bring the mother ship onto the skull loses. Ships
    moved sideways by an arrow are seen only from the next decision on."""
    b = state.board
    if state.research != len(b.research) - 1:
        return None
    rooms = [
        room
        for room in profile(state).final_rooms
        if state.energy >= room.cost and all(state.excavated(s) for s in room.spaces)
    ]
    if not rooms:
        return None
    finals = {s for room in rooms for s in room.spaces}
    chances: dict[Action, float] = {}
    alike: dict[tuple[object, ...], float] = {}  # placements that move the same ships alike
    searches: dict[tuple[int, tuple[int, ...]], _FinalSearch] = {}
    for action in legal:
        assert isinstance(action, Place)
        space = action.space
        kin = (action.color, action.value, b.column_of[space], space in b.aa_spaces, space if space in finals else "")
        known = alike.get(kin)
        if known is None:
            child = state.clone()
            child.apply_legal(action, 0)
            over = child.phase == "over" or child.round != state.round  # lost, or the round ended unwon
            known = alike[kin] = 0.0 if over else max(_room_chance(child, room, searches) for room in rooms)
        chances[action] = known
    return chances


def _room_chance(
    state: FallingSkiesState, room: Room, searches: dict[tuple[int, tuple[int, ...]], _FinalSearch]
) -> float:
    """The chance that ``room`` completes the last research space this round (see :func:`final_chances`)."""
    b = state.board
    need = b.research[-1] - room.mod
    final = 0
    for space in room.spaces:
        held = state.slots.get(space)
        if held is not None:
            need -= held[1]
        elif state.columns_used >> b.column_of[space] & 1:
            return 0.0  # its column has a die elsewhere
        else:
            final |= 1 << b.column_of[space]
    if final == 0:  # the room is full
        return 1.0 if need <= 0 else 0.0
    if state.phase == "resolve":  # every die placed, and the room is not full
        return 0.0
    free, fatal = 0, []
    for column in range(b.columns):
        mask = 0
        where = _space_for(state, room, column, final)
        if where is not None:
            free |= 1 << column
            for value in range(1, 7):
                if _loses(state, column, value - b.aa_slowdown if where in b.aa_spaces else value):
                    mask |= 1 << value
        fatal.append(mask)
    known = tuple(sorted(_code(color, value) for color, value in state.unplaced))
    search = searches.get((final, tuple(fatal)))
    if search is None:
        search = searches[(final, tuple(fatal))] = _FinalSearch(final, tuple(fatal))
    if state.phase == "place":
        return search.chance(max(need, 0), free, known)
    whites = sum(1 for color in state.to_roll if color == "white")
    if not known:
        return search.reroll(max(need, 0), free, len(state.to_roll) - whites, whites)
    chance = sum(
        p * search.chance(max(need, 0), free, tuple(sorted(known + faces)))
        for faces, p in _rerolls(len(state.to_roll) - whites, whites)
    )
    return min(chance, 1.0)


def _space_for(state: FallingSkiesState, room: Room, column: int, final: int) -> str | None:
    """Where a die in ``column`` goes for the final search: the room's free space there, else the
    column's anti-aircraft gun, else any space it may take; None when the column is taken."""
    b = state.board
    if state.columns_used >> column & 1:
        return None
    if final >> column & 1:
        return next(s for s in room.spaces if b.column_of[s] == column)
    spaces = [s for s in b.spaces if b.column_of[s] == column and placeable(state, s)]
    return next((s for s in spaces if s in b.aa_spaces), spaces[0] if spaces else None)


def _loses(state: FallingSkiesState, column: int, steps: int) -> bool:
    sim = state.clone()
    events: list[Event] = []
    move_column(sim, column, steps, events)
    return sim.phase == "over" and sim.result == "lost"


def _code(color: str, value: int) -> int:
    """A die for the final search: its value, plus 6 when white (placing it re-rolls the rest)."""
    return value + (6 if color == "white" else 0)


_REROLLS: dict[tuple[int, int], list[tuple[tuple[int, ...], float]]] = {}


def _rerolls(blacks: int, whites: int) -> list[tuple[tuple[int, ...], float]]:
    """The outcomes of rolling ``blacks`` black and ``whites`` white dice, as sorted codes with
    their chances."""
    known = _REROLLS.get((blacks, whites))
    if known is None:
        counts: dict[tuple[int, ...], int] = {}
        for faces in itertools.product(range(1, 7), repeat=blacks + whites):
            key = tuple(sorted(f + (6 if i >= blacks else 0) for i, f in enumerate(faces)))
            counts[key] = counts.get(key, 0) + 1
        total = 6 ** (blacks + whites)
        known = _REROLLS[(blacks, whites)] = [(key, n / total) for key, n in counts.items()]
    return known


class _FinalSearch:
    """The best chance of filling the room's ``final`` columns (a bit a column) with a sum of at
    least the need, without a die that loses at once."""

    def __init__(self, final: int, fatal: tuple[int, ...]) -> None:
        self.final = final
        self.fatal = fatal
        """fatal[c]: bit v set when a die of value v in column c loses the game at once."""
        self.memo: dict[tuple[int, int, tuple[int, ...]], float] = {}
        self.rerolled: dict[tuple[int, int, int, int], float] = {}

    def reroll(self, need: int, free: int, blacks: int, whites: int) -> float:
        """The best chance once ``blacks`` black and ``whites`` white dice are rolled anew."""
        key = (need, free, blacks, whites)
        known = self.rerolled.get(key)
        if known is None:
            chance = sum(p * self.chance(need, free, faces) for faces, p in _rerolls(blacks, whites))
            known = self.rerolled[key] = min(chance, 1.0)  # not above 1 by rounding
        return known

    def chance(self, need: int, free: int, dice: tuple[int, ...]) -> float:
        open_final = self.final & free
        if not open_final:
            return 1.0 if need <= 0 else 0.0
        spaces = bin(open_final).count("1")
        if len(dice) < spaces or need > 6 * spaces:
            return 0.0
        if need <= 0 and not any(self.fatal[c] for c in range(len(self.fatal)) if open_final >> c & 1):
            return 1.0  # any die on each space will do
        key = (need, free, dice)
        known = self.memo.get(key)
        if known is not None:
            return known
        best = 0.0
        for i, code in enumerate(dice):
            if i and dice[i - 1] == code:
                continue
            rest = dice[:i] + dice[i + 1 :]
            value, white = (code - 6, True) if code > 6 else (code, False)
            seen: set[int] = set()
            for column in range(len(self.fatal)):
                if not free >> column & 1 or self.fatal[column] >> value & 1:
                    continue
                infinal = self.final >> column & 1
                if not infinal:
                    if self.fatal[column] in seen:
                        continue  # another column that takes a die alike
                    seen.add(self.fatal[column])
                after = max(need - value, 0) if infinal else need
                left = free & ~(1 << column)
                if white and rest:
                    whites = sum(1 for c in rest if c > 6)
                    p = self.reroll(after, left, len(rest) - whites, whites)
                else:
                    p = self.chance(after, left, rest)
                if p > best:
                    best = p
                    if best >= 1.0:
                        self.memo[key] = best
                        return best
        self.memo[key] = best
        return best


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
