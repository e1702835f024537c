"""The bots: MCTS finds best moves, credits every seat with its own return, cannot cheat,
reuses its tree; difficulty levels; tournaments and their statistics."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import ClassVar, NamedTuple

import pytest
from typer.testing import CliRunner

import spacetable
from spacetable.agents import AGENTS, LeveledAgent, MCTSAgent, SearchBudget, level_budget, make_agent
from spacetable.agents.greedy import one_ply_values
from spacetable.agents.mcts import Node, back_up_best
from spacetable.cli.main import app
from spacetable.engine import CHANCE, JSON, TERMINAL, Action, ActionSpace, Event, Game, OptionsError, Outcome, State
from spacetable.sim import tournament


# ---- two tiny perfect-information games ------------------------------------------------------
class Take(NamedTuple):
    stones: int
    kind: str = "take"


class NimState(State):
    """Take 1-3 stones in turn; whoever takes the last stone wins."""

    __slots__ = ("game", "pile", "turn")

    def __init__(self, game: Game, pile: int) -> None:
        self.game, self.pile, self.turn = game, pile, 0
        self._legal_cache = None

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.turn

    def _legal_actions(self, seat: int) -> list[Action]:
        return [Take(n) for n in (1, 2, 3) if n <= self.pile]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return []

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self.pile -= action[0]
        if self.pile:
            self.turn = (self.turn + 1) % self.game.players
        return []

    def returns(self) -> list[float]:
        return [float(self.pile == 0 and p == self.turn) for p in range(self.game.players)]

    def outcome(self) -> Outcome | None:
        return Outcome((self.turn,), "last stone") if self.pile == 0 else None

    def view(self, seat: int | None) -> JSON:
        return {"pile": self.pile, "turn": self.turn}

    def resample(self, seat: int, rng: random.Random) -> NimState:
        return self.clone()

    def to_json(self) -> JSON:
        return {"pile": self.pile, "turn": self.turn}

    def clone(self) -> NimState:
        new = NimState(self.game, self.pile)
        new.turn = self.turn
        return new


class Nim(Game):
    id, name, version, min_players, max_players = "nim", "Nim", "1", 2, 3
    value_scale: ClassVar[float] = 1.0

    def __init__(self, players: int = 2, pile: int = 5) -> None:
        super().__init__(players)
        self.pile = pile
        self.actions = ActionSpace((Take, {"stones": (1, 2, 3)}))
        self.max_length = pile

    def new_initial_state(self) -> NimState:
        return NimState(self, self.pile)

    def state_from_json(self, data: JSON) -> State:
        raise NotImplementedError


class Pick(NamedTuple):
    letter: str
    kind: str = "pick"


class ReplyState(State):
    """Seat 0 picks A or B, then seat 1 does. Seat 1 scores when it picks the other letter;
    seat 0 scores when seat 1 picks A; whoever scores wins (both may). Not zero-sum: seat 0
    must pick B, counting on seat 1 to serve itself (a seat 1 that spites seat 0 leaves
    seat 0 indifferent; one that helps seat 0 makes A better)."""

    __slots__ = ("game", "picks")

    def __init__(self, game: Game) -> None:
        self.game, self.picks = game, []
        self._legal_cache = None

    def current_player(self) -> int:
        return TERMINAL if len(self.picks) == 2 else len(self.picks)

    def _legal_actions(self, seat: int) -> list[Action]:
        return [Pick("A"), Pick("B")]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return []

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self.picks.append(action[0])
        return []

    def returns(self) -> list[float]:
        if len(self.picks) < 2:
            return [0.0, 0.0]
        first, second = self.picks
        return [float(second == "A"), float(second != first)]

    def outcome(self) -> Outcome | None:
        if len(self.picks) < 2:
            return None
        return Outcome(tuple(p for p, r in enumerate(self.returns()) if r), "scored")

    def view(self, seat: int | None) -> JSON:
        return list(self.picks)

    def resample(self, seat: int, rng: random.Random) -> ReplyState:
        return self.clone()

    def to_json(self) -> JSON:
        return list(self.picks)

    def clone(self) -> ReplyState:
        new = ReplyState(self.game)
        new.picks = list(self.picks)
        return new


class Reply(Game):
    id, name, version, min_players, max_players = "reply", "Reply", "1", 2, 2

    def __init__(self) -> None:
        super().__init__(2)
        self.actions = ActionSpace((Pick, {"letter": ("A", "B")}))
        self.max_length = 2

    def new_initial_state(self) -> ReplyState:
        return ReplyState(self)

    def state_from_json(self, data: JSON) -> State:
        raise NotImplementedError


# ---- MCTS ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("pile", "best"), [(5, 1), (6, 2), (7, 3)])
def test_mcts_plays_nim_perfectly(pile: int, best: int) -> None:
    agent = MCTSAgent(SearchBudget(iterations=3000, exploration=0.7))
    state = Nim(pile=pile).new_initial_state()
    assert agent.choose(state, 0, random.Random(1)) == Take(best)  # leave a multiple of four


def test_random_rollouts_before_valuing_a_leaf() -> None:
    agent = MCTSAgent(SearchBudget(iterations=3000, rollout=10, exploration=0.7))
    assert agent.choose(Nim(pile=6).new_initial_state(), 0, random.Random(11)) == Take(2)


def test_every_seat_maximises_its_own_return() -> None:
    agent = MCTSAgent(SearchBudget(iterations=400, exploration=0.7))
    assert agent.choose(Reply().new_initial_state(), 0, random.Random(2)) == Pick("B")


def test_budget_in_iterations_is_exact_and_a_budget_is_required() -> None:
    agent = MCTSAgent(SearchBudget(iterations=123))
    agent.choose(Nim(pile=9).new_initial_state(), 0, random.Random(3))
    assert agent.iterations_done == 123
    with pytest.raises(ValueError, match="needs iterations, seconds or both"):
        SearchBudget(iterations=None)
    with pytest.raises(ValueError, match="must be positive"):
        SearchBudget(iterations=0)
    tiny = MCTSAgent(SearchBudget(iterations=None, seconds=1e-9))
    assert tiny.choose(Nim(pile=9).new_initial_state(), 0, random.Random(3)) in [Take(1), Take(2), Take(3)]
    assert tiny.iterations_done >= 1  # a move always rests on at least one iteration


def test_the_tree_is_reused_after_the_bots_own_move() -> None:
    game = spacetable.load("falling-skies")
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    agent = MCTSAgent(SearchBudget(iterations=300, exploration=0.1))
    state.apply_action(agent.choose(state, 0, rng), 0)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    kept = agent._kept
    assert kept is not None and kept[0].visits > 0
    reused = agent._reuse(state)
    assert reused is kept[0]  # the next decision starts from the subtree already searched


@pytest.mark.parametrize("pile", [5, 6, 7])
def test_the_levels_search_finds_best_moves_too(pile: int) -> None:
    """Root widening in one-ply order and best-line backups (the levels' search) keep the search
    sound: perfect nim, and seat 0 counting on seat 1 to serve itself."""
    budget = SearchBudget(iterations=3000, exploration=0.7, widening=1.0, backup="best")
    assert MCTSAgent(budget).choose(Nim(pile=pile).new_initial_state(), 0, random.Random(1)) == Take(pile % 4)
    assert MCTSAgent(budget).choose(Reply().new_initial_state(), 0, random.Random(2)) == Pick("B")


def test_no_widening_plays_the_best_one_ply_action() -> None:
    game = spacetable.load("mothership", 4)
    state, rng = game.new_initial_state(), random.Random(3)
    while state.is_chance_node() or len(state.legal_actions(state.current_player())) < 10:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.current_player()
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    seat = state.current_player()
    legal = state.legal_actions(seat)
    values = one_ply_values(state, seat, legal)
    choice = MCTSAgent(SearchBudget(iterations=40, widening=0.0, backup="best")).choose(state, seat, random.Random(4))
    assert values[legal.index(choice)] == max(values)  # only the best action is ever opened


def test_a_node_is_valued_by_its_best_line() -> None:
    root, mine = Node(0, 2), Node(0, 2)
    worse, better = Node(1, 2), Node(1, 2)
    root.children[Pick("A")] = mine
    mine.children |= {Pick("A"): worse, Pick("B"): better}
    for node, values in ((worse, [0.9, 0.1]), (better, [0.3, 0.7])):
        node.visits, node.total = 1, list(values)
        back_up_best([root, mine, node], values)
    assert mine.best == [0.3, 0.7]  # seat 1 chooses there: its best, whatever seat 0 would like
    dice, low, high = Node(0, 2), Node(CHANCE, 2), Node(CHANCE, 2)
    dice.children |= {Take(1): low, Take(2): high}
    low.visits, low.best, high.visits, high.best = 3, [0.0, 1.0], 1, [1.0, 0.0]
    back_up_best([root, dice, high], [1.0, 0.0])
    assert dice.best == [0.25, 0.75]  # outcomes weighted by how often each was drawn
    with pytest.raises(ValueError, match="backup must be one of mean, best, not 'max'"):
        SearchBudget(backup="max")


@pytest.mark.parametrize("bot", ["plain", "normal"])
def test_a_search_bot_cannot_see_what_its_seat_cannot(bot: str) -> None:
    game = spacetable.load("showdown", 4)
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.phase != "draft":
        state.apply_action(state.sample_chance(rng))
    one, two = state.resample(0, random.Random(6)), state.resample(0, random.Random(7))
    assert one.hands[1] != two.hands[1] and one.view(0) == two.view(0)  # other hands differ, seat 0's view not
    assert one.resample(0, random.Random(8)).to_json() == two.resample(0, random.Random(8)).to_json()
    agents = [MCTSAgent(SearchBudget(iterations=60)) if bot == "plain" else make_agent(bot) for _ in range(2)]
    choices = [agent.choose(s, 0, random.Random(9)) for agent, s in zip(agents, (one, two))]
    assert choices[0] == choices[1]


# ---- difficulty levels -----------------------------------------------------------------------
def test_levels_are_bots_with_per_game_budgets() -> None:
    assert {"easy", "normal", "hard"} <= set(AGENTS)
    hard = make_agent("hard")
    assert isinstance(hard, LeveledAgent)
    assert level_budget("showdown", "hard").exploration == 0.05
    assert level_budget("spacerace", "normal") == level_budget("no-such-game", "normal")  # the default
    easy, hard_budget = level_budget("falling-skies", "easy"), level_budget("falling-skies", "hard")
    assert easy.iterations is not None and hard_budget.iterations is not None
    assert easy.iterations < hard_budget.iterations
    with pytest.raises(OptionsError, match="unknown level"):
        LeveledAgent("brutal")


def test_a_level_plays_a_whole_game() -> None:
    game = spacetable.load("showdown", 3)
    final = spacetable.engine.play(
        game, [make_agent("easy"), make_agent("random"), make_agent("random")], random.Random(10)
    )
    assert final.is_terminal()


# ---- tournaments --------------------------------------------------------------------------------
def test_wilson_interval() -> None:
    low, high = tournament.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert tournament.wilson(0, 0) == (0.0, 1.0)


def test_seats_rotate() -> None:
    assert [tournament.seating(["a", "b"], 4, i) for i in range(2)] == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert tournament.seating(["a", "b", "c"], 2, 2) == ["c", "a"]


def test_elo_ranks_the_stronger_bot_higher() -> None:
    results = [tournament.GameResult(["a", "b"], [1.0, 0.0], 10, None, [0.0, 0.0], [1, 1], "x") for _ in range(8)] + [
        tournament.GameResult(["b", "a"], [0.0, 1.0], 10, None, [0.0, 0.0], [1, 1], "x") for _ in range(2)
    ]
    ratings = tournament.elo(results)
    assert ratings["a"] > 1600 > 1400 > ratings["b"]
    assert round(ratings["a"] + ratings["b"]) == 3000


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    game = spacetable.load("falling-skies")
    one = tournament.run(game, ["random", "greedy"], 4, seed=3, jobs=1)
    two = tournament.run(game, ["random", "greedy"], 4, seed=3, jobs=2)
    for report in (one, two):
        for row in report.rows:
            row.ms_per_move = 0.0
    assert one.to_json() == two.to_json()
    assert [r.seat_games for r in one.rows] == [2, 2]
    assert one.rows[0].elo is None  # one seat: no head-to-head, no Elo


def test_tournament_command_prints_the_table_and_saves_json(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    runner = CliRunner()
    result = runner.invoke(
        app, ["tournament", "--game", "showdown", "--agents", "greedy,random", "--games", "2", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "95% CI" in result.output and "Elo" in result.output
    data = json.loads(out.read_text())
    assert data["games"] == 2 and {r["agent"] for r in data["rows"]} == {"greedy", "random"}
    bad = runner.invoke(app, ["tournament", "--game", "showdown", "--agents", "greedy,genius"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output


def test_a_solo_tournament_reports_each_bots_score_and_length() -> None:
    report = tournament.run(spacetable.load("falling-skies"), ["random", "greedy"], 4, seed=5)
    rows = {row.agent: row for row in report.rows}
    assert rows["greedy"].mean_score is not None and rows["random"].mean_score is not None
    assert rows["greedy"].mean_score > rows["random"].mean_score  # research reached
    assert rows["greedy"].mean_rounds is not None and rows["greedy"].mean_actions > 0
