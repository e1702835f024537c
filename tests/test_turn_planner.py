"""The turn planner: it finds a line of its own decisions the greedy bot misses, values a roll
by its odds and plans no further, cannot see what its seat cannot, and is Mothership's
``bot:planner`` (with a budget checked on load)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import pytest

import spacetable
import spacetable.agents as agents
from render_helpers import decisions
from spacetable.agents import GreedyAgent, PlannerAgent, TurnPlanner, has_planner, make_agent, turn_planner
from spacetable.engine import CHANCE, JSON, TERMINAL, Action, ActionSpace, ContentError, Event, Game, Outcome, State
from spacetable.engine.match import decide
from spacetable.sim.ladder import default_bots


class Do(NamedTuple):
    what: str
    kind: str = "do"


AIM, STRIKE, END, HIT, MISS = Do("aim"), Do("strike"), Do("end"), Do("hit"), Do("miss")


class RangeState(State):
    """One player. Aiming costs 0.1 and makes a strike hit 9 times in 10 instead of 3; a hit
    scores 1 and ends the game, as a miss or ending does. The best turn is aim, then strike
    (0.8 expected), though striking at once (0.3) is the best single step."""

    __slots__ = ("aimed", "game", "over", "rolling", "score")

    def __init__(self, game: Game) -> None:
        self.game, self.aimed, self.rolling, self.score, self.over = game, False, False, 0.0, False
        self._legal_cache = None

    def current_player(self) -> int:
        return TERMINAL if self.over else CHANCE if self.rolling else 0

    def _legal_actions(self, seat: int) -> list[Action]:
        return [STRIKE, END] if self.aimed else [AIM, STRIKE, END]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        hit = 0.9 if self.aimed else 0.3
        return [(HIT, hit), (MISS, 1 - hit)]

    def _apply(self, action: Action, seat: int) -> list[Event]:
        if action == AIM:
            self.aimed, self.score = True, self.score - 0.1
        elif action == STRIKE:
            self.rolling = True
        else:
            self.rolling, self.over = False, True
            self.score += action == HIT
        return []

    def returns(self) -> list[float]:
        return [self.score]

    def outcome(self) -> Outcome | None:
        return Outcome((0,), "done") if self.over else None

    def view(self, seat: int | None) -> JSON:
        return self.to_json()

    def resample(self, seat: int, rng: random.Random) -> RangeState:
        return self.clone()

    def to_json(self) -> JSON:
        return {"aimed": self.aimed, "rolling": self.rolling, "score": self.score, "over": self.over}

    def clone(self) -> RangeState:
        new = RangeState(self.game)
        new.aimed, new.rolling, new.score, new.over = self.aimed, self.rolling, self.score, self.over
        return new


class Range(Game):
    id, name, version, min_players, max_players = "range", "Range", "1", 1, 1
    value_scale: ClassVar[float] = 1.0

    def __init__(self) -> None:
        super().__init__(1)
        self.actions = ActionSpace((Do, {"what": ("aim", "strike", "end", "hit", "miss")}))
        self.max_length = 4

    def new_initial_state(self) -> RangeState:
        return RangeState(self)

    def state_from_json(self, data: JSON) -> State:
        raise NotImplementedError

    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, RangeState)
        return state.score


def test_the_planner_aims_before_it_strikes_where_the_greedy_bot_strikes_at_once() -> None:
    state = Range().new_initial_state()
    assert GreedyAgent().choose(state, 0, random.Random(1)) == STRIKE
    value, line = TurnPlanner(width=2, depth=3).plan(state, 0, random.Random(1))
    assert line == (AIM, STRIKE)  # the roll ends the line: what follows it is not planned
    assert value == pytest.approx(-0.1 + 0.9)  # the strike valued by its odds
    assert TurnPlanner(width=2, depth=3).choose(state, 0, random.Random(1)) == AIM
    assert TurnPlanner(width=2, depth=1).choose(state, 0, random.Random(1)) == STRIKE  # one step: greedy


def test_a_planner_needs_a_width_and_a_depth() -> None:
    with pytest.raises(ValueError, match="width and depth of at least 1, not 0 and 8"):
        TurnPlanner(width=0, depth=8)


def _decision_with_hidden_cards(game: Game, seed: int) -> tuple[State, int]:
    """A Mothership position, reached by random play, where the seat on turn has a choice and a
    rival holds cards."""
    state: Any = game.new_initial_state()
    for seat in decisions(state, random.Random(seed)):
        rivals_hold = any(hand for s, hand in enumerate(state.hands) if s != seat)
        if rivals_hold and state.phase == "turn" and len(state.legal_actions(seat)) > 20:
            return state, seat
    raise AssertionError("no position with rivals' cards in the game")


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_planner_cannot_see_what_its_seat_cannot(seed: int) -> None:
    game = spacetable.load("mothership", 4, options={"exploration": True, "objectives": "hidden"})
    state, seat = _decision_with_hidden_cards(game, seed)
    one, two = state.resample(seat, random.Random(6)), state.resample(seat, random.Random(7))
    assert one.view(seat) == two.view(seat)
    assert one.hands != two.hands or one.objectives != two.objectives  # what the seat cannot see differs
    # the planner is handed a resample drawn from its seat's view alone, so the same one for both
    assert one.resample(seat, random.Random(8)).to_json() == two.resample(seat, random.Random(8)).to_json()
    planner = turn_planner("mothership")
    assert planner is not None
    assert decide(planner, one, seat, random.Random(9)) == decide(planner, two, seat, random.Random(9))


def test_mothership_plays_the_turn_planner_as_its_planner_with_the_budget_of_levels_toml() -> None:
    game = spacetable.load("mothership", 4)
    planner = turn_planner("mothership")
    assert isinstance(planner, TurnPlanner) and (planner.width, planner.depth) == (4, 8)
    assert has_planner(game) and "planner" in default_bots(game)
    state, seat = _decision_with_hidden_cards(game, 3)
    bot = make_agent("planner")
    assert isinstance(bot, PlannerAgent)
    assert bot.choose(state.resample(seat, random.Random(1)), seat, random.Random(2)) == planner.choose(
        state.resample(seat, random.Random(1)), seat, random.Random(2)
    )
    assert turn_planner("spacerace") is None and not has_planner(spacetable.load("spacerace", 3))


def test_a_bad_turn_planner_budget_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    levels = tmp_path / "levels.toml"
    levels.write_text("[turn-planner]\nmothership = { width = 4, deep = 8 }\n")
    monkeypatch.setattr(agents, "LEVELS_FILE", levels)
    refused = r"^levels.toml: turn-planner.mothership is not a turn planner's budget: .*deep"
    with pytest.raises(ContentError, match=refused):
        turn_planner("mothership")
