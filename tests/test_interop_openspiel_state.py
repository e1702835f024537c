"""OpenSpiel states serialized as the engine state's JSON (with a version, no history replayed)
and tensors worked out only when read (``SeatTensor``); the PettingZoo tables' per-position
caches hand out arrays no later step changes."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment

from spacetable.engine import IllegalActionError
from spacetable.interop import pettingzoo
from spacetable.interop.infostate import FORMAT, KEPT_EVERY, VERSION, from_text
from spacetable.interop.openspiel import SeatTensor


def played(name: str, steps: int, seed: int = 0) -> tuple[Any, Any]:
    """The game ``name`` and a state ``steps`` random actions in (chance included)."""
    game = pyspiel.load_game(name)
    state, rng = game.new_initial_state(), np.random.RandomState(seed)
    for _ in range(steps):
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


@pytest.mark.parametrize("name", ["spacetable_showdown(players=3)", "spacetable_mothership(players=2)"])
def test_a_serialized_state_is_its_json_and_loads_back_without_its_history(name: str) -> None:
    game, state = played(name, 60)
    seats = range(game.num_players())
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert copy.trail.parent is None and copy.trail.length == state.trail.length  # nothing replayed
    assert str(copy) == str(state) and copy.history() == state.history()
    assert [copy.information_state_string(p) for p in seats] == [state.information_state_string(p) for p in seats]
    assert all(copy.information_state_tensor(p) == state.information_state_tensor(p) for p in seats)
    data = json.loads(state.trail.to_text())
    assert (data["format"], data["version"]) == (FORMAT, VERSION)
    assert data["state"] == state.engine_state.to_json()
    action = state.legal_actions()[0] if not state.is_chance_node() else state.chance_outcomes()[0][0]
    assert str(copy.child(action)) == str(state.child(action))
    assert pickle.loads(pickle.dumps(state.trail)).digest(1) == state.trail.digest(1)


def test_a_long_game_keeps_few_positions_alive_and_replays_the_others_exactly() -> None:
    game = pyspiel.load_game("spacetable_mothership(players=3,exploration=True,objectives=hidden)")
    state, rng, seats = game.new_initial_state(), np.random.RandomState(3), range(game.num_players())
    positions = []
    for _ in range(200):
        positions.append((state, state.engine_state.to_json()))
        if len(positions) == 120:  # asked once midway: the last walk starts here
            state.information_state_string(0), np.asarray(state.information_state_tensor(0))
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state = state.child(int(rng.choice(actions, p=probabilities)))
        else:
            state = state.child(int(rng.choice(state.legal_actions())))
    holding = sum(old.trail._state is not None for old, _ in positions)
    assert holding == 1 + 200 // KEPT_EVERY + 1 + 1  # the first step, every KEPT_EVERY-th, the newest, step 120
    # Asked at the end: every seat's past since step 120 is walked over states let go.
    late = [(state.information_state_string(p), np.asarray(state.information_state_tensor(p))) for p in seats]
    asked_along = game.new_initial_state()
    for action in state.history():
        asked_along = asked_along.child(action)
        for p in seats:  # asked at every step: each walk is one step, nothing replayed
            asked_along.information_state_string(p), np.asarray(asked_along.information_state_tensor(p))
    assert [text for text, _ in late] == [asked_along.information_state_string(p) for p in seats]
    assert all(np.array_equal(tensor, asked_along.information_state_tensor(p)) for p, (_, tensor) in zip(seats, late))
    for old, data in positions:  # a position let go comes back the same, and is kept from then on
        assert old.engine_state.to_json() == data and old.trail._state is not None
    decision = next(old for old, _ in positions[100:] if not old.is_chance_node())
    illegal = next(code for code in range(game.num_distinct_actions()) if code not in decision.legal_actions())
    with pytest.raises(IllegalActionError, match="not legal"):  # checked against the codes asked for
        decision.apply_action(illegal)


def test_a_wrong_version_or_garbage_is_one_clear_line() -> None:
    _, state = played("spacetable_showdown(players=2)", 10)
    data = json.loads(state.trail.to_text())
    for text, words in (
        (json.dumps({**data, "version": VERSION + 1}), f"version {VERSION + 1}"),
        ("garbage", "not a serialized spacetable state"),
        (json.dumps({"format": "other"}), "not a serialized spacetable state"),
        (json.dumps({**data, "state": {"nonsense": 1}}), "does not load"),
    ):
        with pytest.raises(ValueError, match=words) as error:
            from_text(text)
        assert "\n" not in str(error.value)


def test_tensors_are_worked_out_when_read_and_equal_pyspiels() -> None:
    game, state = played("spacetable_showdown(players=4)", 40)
    tensors = [state.information_state_tensor(p) for p in range(4)]
    assert not state.trail._tensors  # asked, not read
    assert isinstance(tensors[2], SeatTensor) and len(tensors[2]) == game.information_state_tensor_size()
    assert set(state.trail._tensors) == set() and tensors[2][0] in (0.0, 1.0)
    assert set(state.trail._tensors) == {2}
    array = np.asarray(tensors[2])
    assert array.dtype == np.float32 and array.flags.writeable and not tensors[2].array().flags.writeable
    array[:] = 9.0  # the reader's own copy
    assert tensors[2] != array and np.asarray(tensors[2]).max() <= 1.0
    array = tensors[2].array()
    assert tensors[2] == tensors[2].tolist() == list(tensors[2]) and tensors[2] != tensors[3]
    assert np.array_equal(array, pyspiel.State.information_state_tensor(state, 2))  # pyspiel's own route
    assert np.array_equal(state.observation_tensor(1), pyspiel.State.observation_tensor(state, 1))
    with pytest.raises(RuntimeError, match="player >= 0"):
        state.observation_tensor(-1)


def test_rl_environment_reads_only_the_tensor_the_agent_reads() -> None:
    env = rl_environment.Environment(pyspiel.load_game("spacetable_showdown(players=4)"))
    step = env.reset()
    while step.observations["current_player"] < 0:
        step = env.step([0])
    player = step.observations["current_player"]
    seen = np.asarray(step.observations["info_state"][player])
    assert set(env.get_state.trail._tensors) == {player}
    assert seen.shape == (env.observation_spec()["info_state"][0],)


def test_pettingzoo_observations_are_the_agents_own_arrays() -> None:
    env = pettingzoo.parallel_env("mothership", players=2, actions="factored")
    observations, infos = env.reset(seed=3)
    first = {agent: seen["observation"].copy() for agent, seen in observations.items()}
    agent = next(a for a in env.agents if infos[a]["action_mask"].any())
    step = int(np.flatnonzero(infos[agent]["action_mask"])[0])
    again, *_ = env.step({agent: step})  # the first step of a decision: the game does not move
    for name, seen in again.items():
        assert np.array_equal(seen["observation"], first[name])
        assert seen["observation"] is not observations[name]["observation"]
    again[agent]["observation"][:] = 7.0  # the agent's to change: nothing else sees it
    assert np.array_equal(env.observe(agent), first[agent])
