"""Property tests at the edges: a hypothesis state machine per game, and a fuzz target per decoder.

Budgets are small and fixed here (``FUZZ_EXAMPLES``, no deadline) so the suite stays quick;
``make soak`` runs them again with 100 examples each, ``make fuzz`` with ``SPACETABLE_FUZZ_EXAMPLES``.

- The state machine mixes legal actions, illegal ones (legal elsewhere, decoded from random
  codes, malformed values, wrong seats) and clone/resample/JSON round trips, and checks the
  protocol's invariants after every step: an illegal action raises IllegalActionError and
  changes nothing, whose turn it is stays consistent, the JSON round-trips.
- The decoders: ``Record.loads``/``replay`` on arbitrary and mutated records, ``state_from_json``
  on mutated states, ``actions.from_json`` with arbitrary seats, content overrides.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import spacetable
from budget import playouts
from spacetable.engine import TERMINAL, IllegalActionError, Record, State, game_class, play
from spacetable.testing.conformance import RandomPlayer, deciders
from spacetable.testing.fuzz import fuzz_action, fuzz_content, fuzz_record_text, fuzz_state, mutate, sample_states

FUZZ_EXAMPLES = int(os.environ.get("SPACETABLE_FUZZ_EXAMPLES", playouts(8, 100)))
SETTINGS = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=FUZZ_EXAMPLES <= 8,  # the quick run is the same every time
)
GAMES = {  # laid over each game's finite_options: random games must end within max_length
    "falling-skies": {},
    "spacerace": {},
    "showdown": {},
    "mothership": {"round_limit": 6},
}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


# ---- a state machine per game --------------------------------------------------------------------


class ProtocolMachine(RuleBasedStateMachine):
    game_id = "falling-skies"

    def __init__(self) -> None:
        super().__init__()
        self.game = spacetable.load_finite(self.game_id, options=GAMES[self.game_id] or None)
        self.state: State = self.game.new_initial_state()
        self.rng = random.Random(0)
        self.steps = 0

    @precondition(lambda self: not self.state.is_terminal())
    @rule(pick=st.integers(min_value=0, max_value=10**6))
    def legal(self, pick: int) -> None:
        who = deciders(self.state)
        seat = who[pick % len(who)]
        actions = self.state.legal_actions(seat)
        self.state.apply_action(actions[pick % len(actions)], seat)
        self.steps += 1

    @rule(code=st.integers(min_value=0), seat=st.sampled_from([None, 0, 1, 2, 5, -1, 0.0, True, "0"]))
    def illegal(self, code: int, seat: Any) -> None:
        action = self.game.actions.decode(code % self.game.actions.size)
        before = self.state.to_json()
        exact = seat is None or type(seat) is int
        player = self.state.current_player()
        actor = player if seat is None and player >= 0 else seat  # None: whoever decides alone now
        if exact and actor in deciders(self.state) and action in self.state.legal_actions(actor):
            return  # a legal action: not this rule's business
        with pytest.raises(IllegalActionError):
            self.state.apply_action(action, seat)
        assert self.state.to_json() == before

    @rule(value=JSON_VALUES)
    def malformed(self, value: Any) -> None:
        before = self.state.to_json()
        with pytest.raises(IllegalActionError):
            self.state.apply_action(value)
        assert self.state.to_json() == before

    @rule(seat=st.integers(min_value=0, max_value=5))
    def copies_are_independent(self, seat: int) -> None:
        before = self.state.to_json()
        copy = self.state.clone() if seat >= self.game.players else self.state.resample(seat, self.rng)
        for decider in deciders(copy):
            with pytest.raises(TypeError):
                copy.legal_actions(decider).append(None)  # type: ignore[arg-type]
        if not copy.is_terminal():
            who = deciders(copy)[0]
            copy.apply_action(copy.legal_actions(who)[0], who)
        assert self.state.to_json() == before

    @invariant()
    def round_trips_and_turn_is_consistent(self) -> None:
        data = self.state.to_json()
        assert self.game.state_from_json(json.loads(json.dumps(data))).to_json() == data
        player = self.state.current_player()
        assert self.state.is_terminal() == (player == TERMINAL)
        if player == TERMINAL:
            assert self.state.legal_actions() == []
        for seat in range(self.game.players):
            if seat not in self.state.awaiting():
                assert self.state.legal_actions(seat) == []


def _machine(game_id: str) -> Any:
    machine = type(f"Machine_{game_id.replace('-', '_')}", (ProtocolMachine,), {"game_id": game_id})
    case = machine.TestCase
    case.settings = settings(SETTINGS, stateful_step_count=40)
    return case


TestFallingSkiesMachine = _machine("falling-skies")
TestSpaceRaceMachine = _machine("spacerace")
TestShowdownMachine = _machine("showdown")
TestMothershipMachine = _machine("mothership")


# ---- decoders ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_text() -> str:
    game = spacetable.load("showdown", 2)
    record = Record.start(game, ["random", "random"])
    play(game, [RandomPlayer(), RandomPlayer()], random.Random(1), record=record)
    return record.dumps()


@SETTINGS
@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_fuzz_record_loads_arbitrary_text(text: str | bytes) -> None:
    fuzz_record_text(text)


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_fuzz_record_mutated(record_text: str, seed: int) -> None:
    rng = random.Random(seed)
    data = json.loads(record_text)
    for _ in range(rng.randint(1, 3)):
        data = mutate(data, rng)
    fuzz_record_text(json.dumps(data))


@pytest.fixture(scope="module")
def sampled() -> dict[str, tuple[Any, list[State]]]:
    out = {}
    for game_id, options in GAMES.items():
        game = spacetable.load_finite(game_id, options=options or None)
        out[game_id] = (game, sample_states(game, 1, every=13))
    return out


@SETTINGS
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.integers(min_value=0, max_value=2**32))
def test_fuzz_state_from_json_mutated(sampled: dict[str, tuple[Any, list[State]]], game_id: str, seed: int) -> None:
    game, states = sampled[game_id]
    rng = random.Random(seed)
    data = mutate(rng.choice(states).to_json(), rng)
    fuzz_state(game, data, random.Random(seed), steps=20)


@SETTINGS
@given(game_id=st.sampled_from(sorted(GAMES)), data=JSON_VALUES)
def test_fuzz_state_from_json_arbitrary(sampled: dict[str, tuple[Any, list[State]]], game_id: str, data: Any) -> None:
    game, _ = sampled[game_id]
    fuzz_state(game, data, random.Random(0), steps=5)


@SETTINGS
@given(
    game_id=st.sampled_from(sorted(GAMES)),
    data=JSON_VALUES | st.fixed_dictionaries({"kind": st.sampled_from(["roll", "move", "pick", "place"])}),
    seat=st.none() | st.integers(min_value=-3, max_value=7) | st.floats() | st.booleans() | st.text(max_size=2),
    which=st.integers(min_value=0, max_value=100),
)
def test_fuzz_action_from_json(
    sampled: dict[str, tuple[Any, list[State]]], game_id: str, data: Any, seat: Any, which: int
) -> None:
    game, states = sampled[game_id]
    fuzz_action(game, states[which % len(states)].clone(), data, seat)


@SETTINGS
@given(
    game_id=st.sampled_from(["falling-skies", "showdown", "spacerace"]),
    section=st.sampled_from(["rules", "cards", "names", "economy"]),
    key=st.sampled_from(["energy_max", "energy_start", "start_hull", "hand_size", "engine", "fleet_limit", "x"]),
    value=st.integers(min_value=-(10**12), max_value=10**12) | JSON_VALUES,
)
def test_fuzz_content_override(game_id: str, section: str, key: str, value: Any) -> None:
    fuzz_content(game_id, game_class(game_id).usual_players(), {section: {key: value}})
