"""The falling-skies round planner: it plans on sampled dice, never on the true future, and it
finds the resolution order that wins. (Its win rates and speed are measured by
benchmarks/falling_skies_bot.py, not here.)"""

from __future__ import annotations

import random

import pytest

import spacetable
from falling_skies_helpers import Place, Resolve, new_game, placing, position
from spacetable.agents import LeveledAgent, PlannerAgent, make_agent
from spacetable.engine import Action, Roll
from spacetable.games.falling_skies.bots import heuristic
from spacetable.games.falling_skies.bots.heuristic import evaluate
from spacetable.games.falling_skies.bots.planner import (
    STAGES,
    Budget,
    RoundPlanner,
    final_chances,
    settle,
    worth_trying,
)
from spacetable.games.falling_skies.rules.state import FallingSkiesState


class _KnownFuture(FallingSkiesState):
    """A state whose coming dice are already decided (every one shows ``face``): the true future.

    Copies keep it, as a deck would keep its order; ``resample`` re-deals it as the rules say a
    seat may know it (fair dice still to roll)."""

    __slots__ = ()
    face = 0

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(Roll(self.face), 1.0)]

    def clone(self) -> FallingSkiesState:
        copy = super().clone()
        copy.__class__ = type(self)
        return copy

    def resample(self, seat: int, rng: random.Random) -> FallingSkiesState:
        return FallingSkiesState.clone(self)


class _AllOnes(_KnownFuture):
    __slots__ = ()
    face = 1


class _AllSixes(_KnownFuture):
    __slots__ = ()
    face = 6


def _with_future(state: FallingSkiesState, kind: type[_KnownFuture]) -> _KnownFuture:
    rigged = state.clone()
    rigged.__class__ = kind
    assert isinstance(rigged, _KnownFuture)
    return rigged


def _clairvoyant(state: FallingSkiesState) -> Action:
    """A bot that cheats: it plays each placement out on the handed state's own future."""

    def value(action: Action) -> float:
        child = state.clone()
        child.apply_action(action, 0)
        while child.is_chance_node():
            child.apply_action(child.sample_chance(random.Random(0)))
        return evaluate(child)

    return max(state.legal_actions(0), key=value)


def test_the_planner_never_reads_the_dice_still_to_roll() -> None:
    # Two dice left: a black 5 and a white 2. D3 holds a 4, so a die on D4 makes the research
    # room D3+D4. Placing the white die first re-rolls the black one. Two positions alike in
    # all the player knows: in one every coming die shows 1, in the other 6.
    known = placing(
        [("black", 5), ("white", 2)],
        excavator=8,
        energy=3,
        slots={"D3": ["black", 4], "B5": ["black", 3], "C1": ["black", 2]},
        columns_used=0b00111,
    )
    ones, sixes = _with_future(known, _AllOnes), _with_future(known, _AllSixes)
    assert ones.view(0) == sixes.view(0)
    after = [s.clone() for s in (ones, sixes)]
    for s in after:
        s.apply_action(Place("white", 2, "A5"), 0)
        s.apply_action(s.sample_chance(random.Random(0)))
    assert after[0].unplaced == [("black", 1)] and after[1].unplaced == [("black", 6)]  # the futures differ
    # a bot that read them would play otherwise: keep the 5 against 1s, re-roll it into a 6
    assert _clairvoyant(ones) == Place("black", 5, "D4") and _clairvoyant(sixes).color == "white"
    searched = ((5, 4, 4000),)  # full play-outs (beam search and exact round ends), not greedy ones
    for seed in (1, 2, 3):
        for stages in (STAGES, searched):
            planner_ones, planner_sixes = RoundPlanner(stages=stages), RoundPlanner(stages=stages)
            assert planner_ones.choose(ones, 0, random.Random(seed)) == planner_sixes.choose(
                sixes, 0, random.Random(seed)
            )


def test_the_planner_finds_the_order_of_rooms_that_wins() -> None:
    # One research space before the last (2, then 12). D3+D4 make 12 and B5 makes 2: B5 first
    # pays the 2 and leaves the 12 for the last space; the other order spends the 12 on the 2.
    state = position(
        phase="resolve",
        research=12,
        excavator=8,
        energy=3,
        slots={"B5": ["black", 3], "D3": ["black", 6], "D4": ["white", 6]},
        pending=["B5", "D3"],
        columns_used=0b11101,
    )
    planner = RoundPlanner()
    first = planner.choose(state, 0, random.Random(1))
    assert first == Resolve("B5", True, "")
    state.apply_action(first, 0)
    state.apply_action(planner.choose(state, 0, random.Random(1)), 0)
    assert state.result == "won"


def test_planner_is_a_bot_and_plays_the_games_without_a_planner_as_hard() -> None:
    assert isinstance(new_game().planner(), RoundPlanner)
    bot = make_agent("planner")
    assert isinstance(bot, PlannerAgent)
    spacerace = spacetable.load("spacerace", 2).new_initial_state()
    rng = random.Random(3)
    while spacerace.is_chance_node():
        spacerace.apply_action(spacerace.sample_chance(rng))
    seat = spacerace.awaiting()[0]
    assert bot.choose(spacerace, seat, rng) in spacerace.legal_actions(seat)
    assert isinstance(bot._planners["spacerace"], LeveledAgent)  # no planner of its own: hard plays


def test_the_planner_finishes_with_the_twelve_when_it_can() -> None:
    # The last research space (12), row F open, energy to pay: 5 + 4 + 3 on F2-F4 wins now.
    state = placing(
        [("black", 5), ("black", 4), ("black", 3), ("black", 1), ("black", 1)],
        research=13,
        excavator=19,
        energy=2,
    )
    _placements_of_one_round(state, random.Random(2))
    assert state.result == "won"


def _placements_of_one_round(state: FallingSkiesState, rng: random.Random) -> list[Place]:
    """Let the planner play ``state``'s round to its end (or the game's); its placements in order.
    Any re-roll comes from ``rng``, which the planner never sees."""
    planner, placed, start = RoundPlanner(), [], state.round
    while state.round == start and state.phase != "over":
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        action = planner.choose(state, 0, random.Random(7))
        if isinstance(action, Place):
            placed.append(action)
        state.apply_action(action, 0)
    return placed


def test_the_exact_search_of_a_round_end_stops_at_its_budget() -> None:
    # Four full rooms waiting to be resolved in any order: more lines than the budget allows.
    state = position(
        phase="resolve",
        research=3,
        excavator=8,
        energy=4,
        slots={"B5": ["black", 3], "C1": ["black", 4], "D3": ["black", 5], "D4": ["white", 6], "B1": ["black", 2]},
        pending=["B5", "C1", "D3", "B1"],
        columns_used=0b11111,
    )
    unbounded: dict[tuple[object, ...], tuple[float, Action | None]] = {}
    settle(state.clone(), unbounded, Budget(10**6))
    assert len(unbounded) > 20, len(unbounded)
    memo: dict[tuple[object, ...], tuple[float, Action | None]] = {}
    _, action = settle(state.clone(), memo, Budget(20))
    assert len(memo) <= 20 and action in state.legal_actions(0)


def test_a_live_position_is_worth_more_than_a_lost_game_however_crowded_the_sky() -> None:
    # One damage from destruction, a ship low over every column: grim, but not yet lost.
    crowded = position(damage=4, research=6, ships=[[15, c, False] for c in range(5)] + [[14, 0, True]])
    lost = position(damage=4, phase="over", result="lost", reason="the base was destroyed")
    assert evaluate(lost) == -heuristic.WIN < heuristic.static_value(crowded) < heuristic.WIN
    calm = position(damage=4, research=6)
    assert heuristic.static_value(crowded) < heuristic.static_value(calm)


def test_the_last_research_space_counts_only_rooms_whose_dice_would_not_destroy_the_base() -> None:
    # On the last research space (12), rows D and F open, energy to pay, one damage from
    # destruction. A ship on row 14 above column 2 would reach the city with F2's die (about
    # a 4), so F2-F4 is out and only D3+D4 (two 6s) is left; above column 1 it is in no room's way.
    chance = heuristic.FEATURES.index("chance of making the last research space next round")
    last = {"research": 13, "excavator": 19, "energy": 2, "damage": 4}
    in_the_way = heuristic.features(position(ships=[[14, 1, False]], **last))[chance]
    aside = heuristic.features(position(ships=[[14, 0, False]], **last))[chance]
    assert in_the_way == 1 / 36
    assert aside == sum(a + b + c >= 12 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)) / 216


def test_on_the_last_research_space_the_chance_of_finishing_this_round_is_counted_exactly() -> None:
    # The last space needs 12; only D3+D4 can pay it, D3 holds a 6. The black 3 on D4 makes 9;
    # the white 2 anywhere but columns 3 and 4 re-rolls the black die, a 6 (one chance in six)
    # then finishes on D4. Nothing else can.
    state = placing(
        [("white", 2), ("black", 3)], research=13, excavator=8, energy=2, slots={"D3": ["black", 6]}, columns_used=0b100
    )
    chances = final_chances(state, state.legal_actions(0))
    assert chances is not None
    assert chances[Place("white", 2, "A1")] == chances[Place("white", 2, "A5")] == pytest.approx(1 / 6)
    assert all(chances[a] == 0 for a in (Place("black", 3, "D4"), Place("white", 2, "D4"), Place("black", 3, "A1")))
    choice = RoundPlanner().choose(state, 0, random.Random(1))
    assert isinstance(choice, Place) and choice.color == "white" and choice.space[1] in "125"
    # elsewhere than on the last space, or with no energy to pay the room, nothing is counted
    assert final_chances(position(**{**state.to_json(), "research": 12}), state.legal_actions(0)) is None
    assert final_chances(position(**{**state.to_json(), "energy": 0}), state.legal_actions(0)) is None


def test_on_the_last_research_space_the_planner_keeps_its_six_for_the_twelve() -> None:
    # Only D3+D4 (two dice) can make 12. With one 6 rolled, the 6 goes on the room at once and
    # the white dice re-roll the rest for the second: about 60%, against none for a plan that
    # spends the 6 elsewhere.
    state = placing(
        [("black", 6), ("black", 3), ("black", 2), ("white", 1), ("white", 4)], research=13, excavator=8, energy=2
    )
    chances = final_chances(state, worth_trying(state, state.legal_actions(0)))
    assert chances is not None and max(chances.values()) == chances[Place("black", 6, "D3")] > 0.55
    choice = RoundPlanner().choose(state, 0, random.Random(1))
    assert isinstance(choice, Place) and choice.value == 6 and choice.space in ("D3", "D4"), choice
    # one damage from destruction, a ship over column 3 that a 6 brings into the city: no 6 can
    # go on D3, so no line makes 12 this round
    low = position(**{**state.to_json(), "damage": 4, "ships": [[10, 2, False]]})
    chances = final_chances(low, worth_trying(low, low.legal_actions(0)))
    assert chances is not None and max(chances.values()) == 0
