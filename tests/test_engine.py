"""Unit tests of the engine: the action codec, records, the registry, options and the State base class."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

import pytest

import spacetable
from spacetable.engine import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    ActionSpace,
    Event,
    Game,
    IllegalActionError,
    MalformedActionError,
    OptionsError,
    OptionSpec,
    Outcome,
    Record,
    RecordError,
    Requires,
    Roll,
    State,
    check_json_keys,
    game_class,
    play,
    random_playout,
    register,
    step,
)
from spacetable.testing.conformance import RandomPlayer
from spacetable.testing.toygame import Bet, Deal, OddsEvens, Pass, Show, ToyPoker

# ---- ActionSpace ------------------------------------------------------------------------


class Move(NamedTuple):
    x: int
    y: str
    kind: str = "move"


class Stop(NamedTuple):
    kind: str = "stop"


class Flag(NamedTuple):
    on: bool
    kind: str = "flag"


@pytest.fixture
def space() -> ActionSpace:
    return ActionSpace((Move, {"x": range(3), "y": ("a", "b")}), (Stop, {}), (Flag, {"on": (False, True)}))


def test_space_layout(space: ActionSpace) -> None:
    assert space.size == 3 * 2 + 1 + 2
    assert space.kinds == ["move", "stop", "flag"]
    assert [space.decode(c) for c in range(space.size)] == [
        Move(0, "a"),
        Move(0, "b"),
        Move(1, "a"),
        Move(1, "b"),
        Move(2, "a"),
        Move(2, "b"),
        Stop(),
        Flag(False),
        Flag(True),
    ]


def test_codec_is_a_bijection(space: ActionSpace) -> None:
    decoded = [space.decode(c) for c in range(space.size)]
    assert len(set(decoded)) == space.size
    for code, action in enumerate(decoded):
        assert space.encode(action) == code
        assert type(space.decode(space.encode(action))) is type(action)


@pytest.mark.parametrize("code", [-1, 9, 100, True, 1.0, "3", None])
def test_decode_refuses_codes_outside_the_range(space: ActionSpace, code: Any) -> None:
    with pytest.raises(MalformedActionError, match=r"action code .* is outside 0\.\.8"):
        space.decode(code)


def test_encode_refuses_actions_outside_the_space(space: ActionSpace) -> None:
    with pytest.raises(MalformedActionError, match=r"move: field x=3 is outside its domain \[0, 1, 2\]"):
        space.encode(Move(3, "a"))
    with pytest.raises(MalformedActionError, match=r"is not an action of this game; actions are one of: move, stop"):
        space.encode(Roll(1))


def test_to_json_form(space: ActionSpace) -> None:
    assert space.to_json(Move(1, "b")) == {"x": 1, "y": "b", "kind": "move"}
    assert space.to_json(Stop()) == {"kind": "stop"}
    assert space.to_json(Flag(True)) == {"on": True, "kind": "flag"}
    for code in range(space.size):
        action = space.decode(code)
        parsed = space.from_json(json.loads(json.dumps(space.to_json(action))))
        assert parsed == action and type(parsed) is type(action)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("move", r"an action must be a JSON object with a 'kind', got 'move'"),
        ([1, "a"], r"must be a JSON object"),
        ({"x": 1, "y": "a"}, r"unknown action kind None; expected one of: move, stop, flag"),
        ({"kind": "jump"}, r"unknown action kind 'jump'; expected one of: move, stop, flag"),
        ({"x": 1, "kind": "move"}, r"move: expected fields \['kind', 'x', 'y'\], got \['kind', 'x'\]"),
        ({"x": 1, "y": "a", "z": 0, "kind": "move"}, r"move: expected fields .*got \['kind', 'x', 'y', 'z'\]"),
        ({"x": 5, "y": "a", "kind": "move"}, r"move: field x=5 is outside its domain \[0, 1, 2\]"),
        ({"x": 1, "y": "c", "kind": "move"}, r"move: field y='c' is outside its domain \['a', 'b'\]"),
        ({"x": 1.0, "y": "a", "kind": "move"}, r"move: field x=1\.0 is outside its domain"),
        ({"x": "1", "y": "a", "kind": "move"}, r"move: field x='1' is outside its domain"),
        ({"on": None, "kind": "flag"}, r"flag: field on=None is outside its domain \[False, True\]"),
    ],
)
def test_from_json_errors(space: ActionSpace, data: object, message: str) -> None:
    with pytest.raises(MalformedActionError, match=message):
        space.from_json(data)


def test_from_json_refuses_bool_for_int(space: ActionSpace) -> None:
    """JSON ``true`` is not the number 1 (Python's True == 1 must not let it through)."""
    with pytest.raises(MalformedActionError, match=r"move: field x=True is outside its domain"):
        space.from_json({"x": True, "y": "a", "kind": "move"})


def test_from_json_refuses_int_for_bool(space: ActionSpace) -> None:
    with pytest.raises(MalformedActionError, match=r"flag: field on=1 is outside its domain"):
        space.from_json({"on": 1, "kind": "flag"})


def test_check_refuses_altered_kind_and_unhashable_values(space: ActionSpace) -> None:
    with pytest.raises(MalformedActionError, match=r"kind field altered to 'jump'"):
        space.check(Move(1, "a", "jump"))
    with pytest.raises(MalformedActionError, match=r"field x=\[1\] is outside its domain"):
        space.check(Move([1], "a"))  # type: ignore[arg-type]


def test_space_declaration_errors() -> None:
    class NoKind(NamedTuple):
        x: int

    with pytest.raises(TypeError, match=r"NoKind: the last field must be `kind`"):
        ActionSpace((NoKind, {"x": range(2)}))
    with pytest.raises(TypeError, match=r"Move: domains \['x'\] do not match fields \['x', 'y'\]"):
        ActionSpace((Move, {"x": range(2)}))

    class OtherMove(NamedTuple):
        kind: str = "move"

    with pytest.raises(TypeError, match=r"two action families share the kind 'move'"):
        ActionSpace((Move, {"x": range(2), "y": "ab"}), (OtherMove, {}))


# ---- State: whose turn, validation, chance ---------------------------------------------------


def _poker(cards: list[int], history: str = "") -> State:
    return ToyPoker().state_from_json({"cards": cards, "history": history})


def test_legal_actions_of_a_seat_not_to_act_are_empty() -> None:
    state = _poker([3, 1])
    assert state.current_player() == 0
    assert state.legal_actions(0) == state.legal_actions() == [Bet(), Pass()]
    assert state.legal_actions(1) == []
    assert state.legal_actions(5) == []
    chance = _poker([3])
    assert chance.current_player() == CHANCE
    assert chance.legal_actions(0) == chance.legal_actions(1) == []
    assert chance.legal_actions() == [Deal(1), Deal(2), Deal(4), Deal(5)]


def test_legal_actions_of_minus_one_at_a_chance_node_are_empty_as_for_any_other_int() -> None:
    """Issue 37: -1 is CHANCE's number, not a seat; ``legal_actions(-1)`` gave the chance outcomes."""
    chance = _poker([3])
    assert chance.legal_actions(CHANCE) == chance.legal_actions(-7) == []
    assert chance.legal_actions(None) == chance.legal_actions() == [Deal(1), Deal(2), Deal(4), Deal(5)]


def test_list_append_on_the_legal_actions_makes_nothing_legal() -> None:
    """Issue 37: ``list.append(state.legal_actions(seat), x)`` bypassed the refusing methods, and
    ``apply_action``, which checks against the same cached list, then took ``x``."""
    state = _poker([3, 1])
    before = state.to_json()
    listed = state.legal_actions(0)
    list.append(listed, Deal(2))
    list.__setitem__(listed, 0, Deal(4))
    with pytest.raises(IllegalActionError):
        state.apply_action(Deal(2), 0)
    with pytest.raises(IllegalActionError):
        state.apply_action(Deal(4), 0)
    assert state.to_json() == before
    state.apply_action(Bet(), 0)  # what was legal stays legal


def test_falling_skies_legal_actions_of_other_seats_are_empty() -> None:
    state = spacetable.load("falling-skies").new_initial_state()
    assert state.current_player() == CHANCE
    assert state.legal_actions(0) == []
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0
    assert state.legal_actions(0) and state.legal_actions(1) == []


def test_apply_names_the_seat_that_owes_no_decision() -> None:
    state = _poker([3, 1])
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"^seat 2 owes no decision now: it is seat 1's decision$"):
        state.apply_action(Bet(), 1)
    chance = _poker([3])
    with pytest.raises(IllegalActionError, match=r"^seat 1 owes no decision now: chance acts now$"):
        chance.apply_action(Deal(1), 0)
    assert state.to_json() == before and chance.to_json() == {"cards": [3], "history": ""}


def test_illegal_and_malformed_actions_change_nothing() -> None:
    state = _poker([3, 1], "b")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"deal 2 is not legal now \(2 other actions are legal\)"):
        state.apply_action(Deal(2))
    with pytest.raises(MalformedActionError, match=r"deal: field card=9 is outside its domain"):
        state.apply_action(Deal(9))
    with pytest.raises(MalformedActionError, match=r"'bet' is not an action of this game"):
        state.apply_action("bet")  # type: ignore[arg-type]
    assert state.to_json() == before
    assert state.legal_actions(1) == [Bet(), Pass()]


def test_apply_at_the_end_raises() -> None:
    state = _poker([3, 1], "pp")
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match=r"the game is over"):
        state.apply_action(Bet())


@pytest.mark.parametrize(
    "lookalike",
    [(3, "roll"), Roll(3.0), Roll(True), Roll([3])],  # type: ignore[arg-type]
    ids=["plain tuple", "float", "bool", "unhashable"],
)
def test_apply_refuses_lookalikes_of_legal_actions(lookalike: Any) -> None:
    """Actions are tuples: ``(3, "roll") == Roll(3) == Roll(3.0)``; membership in the legal list is not enough."""
    state = spacetable.load("falling-skies").new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(lookalike)
    assert state.to_json() == before


def test_chance_outcomes_and_sampling() -> None:
    chance = _poker([3])
    outcomes = chance.chance_outcomes()
    assert outcomes == [(Deal(c), 0.25) for c in (1, 2, 4, 5)]

    class Fixed(random.Random):
        def __init__(self, r: float) -> None:
            super().__init__(0)
            self.r = r

        def random(self) -> float:
            return self.r

    assert chance.sample_chance(Fixed(0.0)) == Deal(1)
    assert chance.sample_chance(Fixed(0.3)) == Deal(2)
    assert chance.sample_chance(Fixed(0.99)) == Deal(5)
    with pytest.raises(IllegalActionError, match=r"not a chance node"):
        _poker([3, 1]).chance_outcomes()


def test_simultaneous_decisions() -> None:
    state = OddsEvens().new_initial_state()
    assert state.current_player() == SIMULTANEOUS
    assert state.awaiting() == (0, 1)
    with pytest.raises(IllegalActionError, match=r"^seats 1 and 2 act at once: name the seat$"):
        state.legal_actions()
    with pytest.raises(IllegalActionError, match=r"^seats 1 and 2 act at once: name the seat$"):
        state.apply_action(Show(1))
    state.apply_action(Show(1), 1)
    assert state.awaiting() == (0,)
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalActionError, match=r"^seat 2 owes no decision now; waiting for seat 1$"):
        state.apply_action(Show(2), 1)
    assert state.view(0)["shown"] == [0, 0] and state.view(1)["shown"] == [0, 1]
    state.apply_action(Show(2), 0)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_digest_follows_the_state() -> None:
    state = _poker([3, 1])
    digest = state.digest()
    assert len(digest) == 16 and int(digest, 16) >= 0
    assert state.clone().digest() == digest
    state.apply_action(Bet())
    assert state.digest() != digest


def test_events_visibility() -> None:
    public, private = Event("deal", "a card"), Event("card", "you get 3", to=(1,))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(1) and not private.visible_to(0) and not private.visible_to(None)


def test_outcome_to_json() -> None:
    outcome = Outcome(winners=(1,), reason="showdown", scores=(-2.0, 2.0))
    assert outcome.to_json() == {"winners": [1], "reason": "showdown", "scores": [-2.0, 2.0], "ranks": []}


def test_check_json_keys() -> None:
    assert check_json_keys({"a": 1}, {"a"}, "thing") == {"a": 1}
    with pytest.raises(ValueError, match=r"thing: expected a JSON object, got list"):
        check_json_keys([], {"a"}, "thing")
    with pytest.raises(ValueError, match=r"thing: missing keys \['a'\], unexpected keys \['b'\]"):
        check_json_keys({"b": 1}, {"a"}, "thing")


def test_default_evaluate_is_the_return_at_the_end() -> None:
    game = ToyPoker()
    assert game.evaluate(_poker([3, 1]), 0) == 0.0
    assert game.evaluate(_poker([3, 1], "bb"), 0) == 2.0
    assert game.evaluate(_poker([3, 1], "bb"), 1) == -2.0


# ---- the play loop ----------------------------------------------------------------------------


def test_step_records_chance_and_seats() -> None:
    game = ToyPoker()
    state = game.new_initial_state()
    record = Record.start(game, ["a", "b"])
    rng = random.Random(1)
    while not state.is_terminal():
        step(state, [RandomPlayer(), RandomPlayer()], rng, record)
    assert [seat for seat, _ in record.actions[:2]] == [None, None]
    assert [seat for seat, _ in record.actions[2:]] == [i % 2 for i in range(len(record.actions) - 2)]


def test_play_checks_the_player_count() -> None:
    with pytest.raises(ValueError, match=r"toy-poker has 2 seats but 1 players were given"):
        play(ToyPoker(), [RandomPlayer()], random.Random(0))


def test_random_playout_counts_actions_and_decisions_and_shows_each_state() -> None:
    game = spacetable.load("falling-skies")
    seen: list[str] = []
    state = game.new_initial_state()
    actions, decisions = random_playout(state, random.Random(3), game.max_length, lambda s: seen.append(s.phase))
    assert 0 < decisions < actions <= game.max_length  # the dice are chance, not decisions
    assert len(seen) == actions and seen[-1] == "over" and state.is_terminal()
    with pytest.raises(RuntimeError, match=r"falling-skies: no end after 5 actions"):
        random_playout(game.new_initial_state(), random.Random(3), 5)


# ---- records ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_text() -> str:
    game = spacetable.load("falling-skies", options={"level": 3})
    record = Record.start(game, ["random"])
    play(game, [RandomPlayer()], random.Random(11), record=record)
    return record.dumps()


def _edited(text: str, **changes: Any) -> str:
    data = json.loads(text)
    data.update(changes)
    return json.dumps(data)


def test_record_round_trip_and_replay(record_text: str) -> None:
    record = Record.loads(record_text)
    assert record.game_id == "falling-skies" and record.options["level"] == 3 and record.seats == ["random"]
    assert Record.loads(record.dumps()).to_json() == record.to_json()
    states = [s.digest() for s in record.replay()]
    assert len(states) == len(record.actions) + 1
    assert states[-1] == record.final_digest
    final = record.final_state()
    outcome = final.outcome()
    assert final.is_terminal() and outcome is not None and outcome.to_json() == record.outcome


def test_unfinished_record_replays_without_a_digest(record_text: str) -> None:
    data = json.loads(record_text)
    data["actions"] = data["actions"][:10]
    record = Record.loads(_edited(record_text, actions=data["actions"], final_digest=None, outcome=None))
    assert len(list(record.replay())) == 11


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{oops", r"not a spacetable record: the file is not valid JSON"),
        ("[1, 2]", r"not a spacetable record: the 'format' field is missing or different"),
        ('{"game": "falling-skies"}', r"the 'format' field is missing or different"),
    ],
)
def test_loads_refuses_what_is_not_a_record(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.loads(text)


def test_loads_refuses_another_format(record_text: str) -> None:
    with pytest.raises(RecordError, match=r"the 'format' field is missing or different"):
        Record.loads(_edited(record_text, format="chess-pgn"))
    with pytest.raises(RecordError, match=r"format version 2 is not supported \(this spacetable reads version 1\)"):
        Record.loads(_edited(record_text, format_version=2))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"actions": None}, r"corrupt record: .*'?actions'? .*None"),
        ({"actions": [1]}, r"corrupt record"),
        ({"actions": [{"seat": 0}]}, r"corrupt record.*'action'"),
        ({"options": [1]}, r"corrupt record: 'options' must be"),
        ({"players": "1"}, r"corrupt record: 'players' must be"),
    ],
)
def test_loads_refuses_corrupt_records(record_text: str, changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.loads(_edited(record_text, **changes))


def test_loads_refuses_a_record_without_a_field(record_text: str) -> None:
    data = json.loads(record_text)
    del data["seats"]
    with pytest.raises(RecordError, match=r"corrupt record: .*'seats'"):
        Record.loads(json.dumps(data))


def _replay_error(text: str) -> str:
    record = Record.loads(text)
    with pytest.raises(RecordError) as info:
        list(record.replay())
    return str(info.value)


def test_replay_refuses_an_action_that_does_not_replay(record_text: str) -> None:
    actions = json.loads(record_text)["actions"]
    total = len(actions)
    player_action = next(a for a in actions if a["seat"] == 0)
    illegal = [{"seat": None, "action": player_action["action"]}, *actions[1:]]  # placing before any roll
    message = _replay_error(_edited(record_text, actions=illegal))
    assert message.startswith(f"action 1 of {total} does not replay: ")
    assert "not legal now" in message
    unknown = [*actions[:5], {"seat": None, "action": {"kind": "teleport"}}, *actions[6:]]
    assert "action 6 of" in _replay_error(_edited(record_text, actions=unknown))
    assert "unknown action kind 'teleport'" in _replay_error(_edited(record_text, actions=unknown))
    wrong_seat = [{"seat": 0, "action": actions[0]["action"]}, *actions[1:]]
    assert "seat 1 owes no decision now: chance acts now" in _replay_error(_edited(record_text, actions=wrong_seat))


def test_replay_detects_a_tampered_digest(record_text: str) -> None:
    message = _replay_error(_edited(record_text, final_digest="0123456789abcdef"))
    assert "the replay ends in a different position than recorded" in message
    assert "instead of 0123456789abcdef" in message


def test_replay_detects_a_tampered_outcome(record_text: str) -> None:
    outcome = json.loads(record_text)["outcome"]
    message = _replay_error(_edited(record_text, outcome={**outcome, "reason": "aliens gave up"}))
    assert "differs from the recorded" in message and "aliens gave up" in message


def test_replay_refuses_another_game_version_or_unknown_game(record_text: str) -> None:
    message = _replay_error(_edited(record_text, game_version="0.9"))
    assert "made with falling-skies version 0.9; this spacetable has version" in message
    message = _replay_error(_edited(record_text, game="nope"))
    assert "the record's game cannot be set up: unknown game 'nope'" in message
    message = _replay_error(_edited(record_text, players=3))
    assert "cannot be set up: falling-skies is played by 1 player" in message and "not 3" in message


# ---- registry and options -----------------------------------------------------------------------


def test_load_unknown_game_lists_the_games() -> None:
    with pytest.raises(OptionsError, match=r"unknown game 'nope'; games: .*falling-skies"):
        spacetable.load("nope")


@pytest.mark.parametrize("players", [0, 2, -1, "1", 1.0])
def test_load_refuses_a_wrong_player_count(players: Any) -> None:
    with pytest.raises(OptionsError, match=r"falling-skies is played by 1 players?, not"):
        spacetable.load("falling-skies", players)


def test_load_refuses_unknown_options() -> None:
    with pytest.raises(OptionsError, match=r"falling-skies: unknown option\(s\) \['colour'\]; known options: .*level"):
        spacetable.load("falling-skies", options={"colour": "red"})


def test_load_defaults() -> None:
    game = spacetable.load("falling-skies")
    assert game.players == 1
    assert game.options == {"level": None, "hard": None, "energy_room": "gain", "content": None}
    assert type(game) is game_class("falling-skies")
    assert [cls.id for cls in spacetable.list_games()] == sorted(cls.id for cls in spacetable.list_games())


def test_register_refuses_a_taken_id() -> None:
    original = game_class("falling-skies")
    impostor = type("Impostor", (ToyPoker,), {"id": "falling-skies"})
    with pytest.raises(ValueError, match=r"game id 'falling-skies' is already registered by FallingSkies"):
        register(impostor)
    assert game_class("falling-skies") is original
    assert register(original) is original  # registering the same class again is harmless


class Tunable(Game):
    """A game with options of every sort, for option validation (never played)."""

    id = "tunable"
    name = "Tunable"
    version = "0"
    min_players = 2
    max_players = 4
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "speed": OptionSpec(1, "how fast", choices=(1, 2, 3), kind=int),
        "title": OptionSpec("x", "a name", kind=str),
        "extra": OptionSpec(None, "anything listed", kind=list),
    }

    def new_initial_state(self) -> State:
        raise NotImplementedError

    def state_from_json(self, data: Any) -> State:
        raise NotImplementedError


def test_options_defaults_and_values() -> None:
    assert Tunable(2).options == {"speed": 1, "title": "x", "extra": None}
    assert Tunable(4, {"speed": 3, "extra": [1]}).options == {"speed": 3, "title": "x", "extra": [1]}
    assert Tunable(3).describe() == "Tunable (3 players)"


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, r"tunable is played by 2 to 4 players, not 1"),
        (5, {}, r"tunable is played by 2 to 4 players, not 5"),
        ("2", {}, r"not '2'"),
        (2, {"sped": 2}, r"tunable: unknown option\(s\) \['sped'\]; known options: extra, speed, title"),
        (2, {"speed": 4}, r"tunable: option speed=4 must be one of \[1, 2, 3\]"),
        (2, {"title": 7}, r"tunable: option title=7 must be of type str"),
        (2, {"extra": "x"}, r"tunable: option extra='x' must be of type list"),
    ],
)
def test_options_validation(players: Any, options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        Tunable(players, options)


class Linked(Game):
    """A game whose options depend on each other and on the player count (never played)."""

    id = "linked"
    name = "Linked"
    version = "0"
    min_players = 1
    max_players = 4
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "speed": OptionSpec(
            1,
            "how fast",
            choices=(1, 2, 3),
            kind=int,
            label="Speed",
            choice_labels={1: "slow", 2: "fast", 3: "very fast"},
        ),
        "turbo": OptionSpec(
            False, "a boost", kind=bool, label="Turbo boost", requires=(Requires((True,), "speed", (2, 3)),)
        ),
        "duel": OptionSpec(
            False, "head to head", kind=bool, requires=(Requires(None, "players", (2,), "a duel is for two"),)
        ),
    }

    def new_initial_state(self) -> State:
        raise NotImplementedError

    def state_from_json(self, data: Any) -> State:
        raise NotImplementedError


def test_an_unmet_requirement_is_refused_in_one_line_naming_both_options_in_words() -> None:
    with pytest.raises(OptionsError) as refused:
        Linked(2, {"turbo": True})
    assert str(refused.value) == (
        "linked: Turbo boost on needs Speed fast or very fast, but Speed is slow (options turbo=true, speed=1)"
    )
    assert Linked(2, {"turbo": True, "speed": 3}).options["turbo"] is True
    assert Linked(2, {"speed": 1}).options == {"speed": 1, "turbo": False, "duel": False}  # at its default: free
    with pytest.raises(
        OptionsError, match=r"^linked: a duel is for two, but the table has 3 players \(option duel=true\)$"
    ):
        Linked(3, {"duel": True})
    with pytest.raises(OptionsError, match="a duel is for two, but the table has one player"):
        Linked(1, {"duel": True})
    assert Linked(2, {"duel": True}).options["duel"] is True


def test_mothership_refuses_objectives_without_exploration_from_its_declared_dependency() -> None:
    needs = game_class("mothership").option_specs["objectives"].requires
    assert Requires(("hidden", "global"), "exploration", (True,), "objectives need planetary exploration") in needs
    for objectives in ("hidden", "global"):
        with pytest.raises(OptionsError) as refused:
            spacetable.load("mothership", 2, {"objectives": objectives})
        assert str(refused.value) == (
            "mothership: objectives need planetary exploration, but Planetary exploration is off "
            f'(options objectives="{objectives}", exploration=false)'
        )
    assert spacetable.load("mothership", 2, {"objectives": "hidden", "exploration": True}).options["exploration"]
    with pytest.raises(OptionsError, match="the solo challenge is for one player, but the table has 4 players"):
        spacetable.load("mothership", 4, {"mode": "solo"})


def test_falling_skies_option_values() -> None:
    with pytest.raises(OptionsError, match=r"option energy_room='x' must be one of \['gain', 'restore'\]"):
        spacetable.load("falling-skies", options={"energy_room": "x"})
    with pytest.raises(OptionsError, match=r"option level='3' must be of type int"):
        spacetable.load("falling-skies", options={"level": "3"})
    with pytest.raises(OptionsError, match=r"level must be 1 to 8, got 9"):
        spacetable.load("falling-skies", options={"level": 9})
    assert spacetable.load("falling-skies", options={"level": 8}).level == 8


@pytest.mark.parametrize("game_id", ["falling-skies", "showdown"])
def test_apply_legal_plays_exactly_like_apply_action(game_id: str) -> None:
    """The search fast path skips validation only: the states and events are the same."""
    game = spacetable.load(game_id)
    checked, fast = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(3)
    while not checked.is_terminal():
        if checked.is_chance_node():
            seat, action = None, checked.sample_chance(rng)
        else:
            seat = rng.choice(checked.awaiting())
            action = rng.choice(checked.legal_actions(seat))
        assert checked.apply_action(action, seat) == fast.apply_legal(action, seat)
        assert checked.to_json() == fast.to_json()


def test_a_player_never_holds_the_generator_that_rolls_the_dice() -> None:
    """A bot handed the driver's generator could copy it and foresee every coming roll; each
    decision gets a generator of its own instead, seeded from the driver's, so seeded games
    still replay."""
    driver = random.Random(5)
    held: list[tuple[bool, bool]] = []

    class Spy:
        name = "spy"

        def choose(self, state: Any, seat: int, rng: random.Random) -> Any:
            held.append((rng is driver, rng.getstate() == driver.getstate()))
            return state.legal_actions(seat)[0]

    game = spacetable.load("falling-skies")
    first = play(game, [Spy()], driver)
    assert held and not any(same or copied for same, copied in held)
    assert play(game, [Spy()], random.Random(5)).to_json() == first.to_json()
