"""Every multiplayer game as a PettingZoo environment with flat actions: PettingZoo's own tests
(on the default environments in tests/test_interop_checkers.py), spacetable's bots playing
through it, illegal actions, and the global state."""

from __future__ import annotations

import functools
import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

import spacetable
from interop_helpers import MULTIPLAYER_IDS, random_states, table
from spacetable.agents import make_agent
from spacetable.engine import SIMULTANEOUS, IllegalActionError
from spacetable.interop import pettingzoo
from spacetable.interop.infostate import Trail
from spacetable.interop.openspiel import SpielState, spiel_name
from spacetable.interop.sequential import choose_code, load_game
from spacetable.interop.table import actions_for


def aec(game_id: str, **kwargs: Any) -> Any:
    players, options = table(game_id)
    return pettingzoo.env(game_id, players, **{"actions": "flat", **options, **kwargs})


def parallel(game_id: str, **kwargs: Any) -> Any:
    players, options = table(game_id)
    return pettingzoo.parallel_env(game_id, players, **{"actions": "flat", **options, **kwargs})


FLAT_NOT_DEFAULT_IDS = [g for g in MULTIPLAYER_IDS if actions_for(load_game(g, table(g)[0], {}), None) != "flat"]
"""The games whose flat environment is not the default, which test_interop_checkers.py checks."""


@pytest.fixture
def no_warnings() -> Iterator[None]:
    """PettingZoo's tests warn about anything doubtful: fail on any warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    assert [str(w.message) for w in caught] == []


@pytest.mark.usefixtures("no_warnings")
@pytest.mark.parametrize("game_id", FLAT_NOT_DEFAULT_IDS)
def test_pettingzoo_api_test_with_flat_actions(game_id: str) -> None:
    api_test(aec(game_id), num_cycles=1000)


@pytest.mark.usefixtures("no_warnings")
@pytest.mark.parametrize("game_id", MULTIPLAYER_IDS)
def test_pettingzoo_seed_test(game_id: str) -> None:
    seed_test(functools.partial(aec, game_id), num_cycles=100)


@pytest.mark.usefixtures("no_warnings")
@pytest.mark.parametrize("game_id", MULTIPLAYER_IDS)
def test_pettingzoo_max_cycles_test(game_id: str) -> None:
    """max_cycles_test on the module the project gives: its env is the parallel environment
    turn by turn (PettingZoo's AEC view), one step per agent per cycle, as the test counts; the
    turn-based env() asks only the seat to decide (its truncation is tested below)."""
    players, options = table(game_id)
    module = pettingzoo.game_module(game_id, players, **options)
    max_cycles_test(module)
    assert isinstance(module.env().unwrapped, pettingzoo.GameParallelEnv)  # the same environment, turn by turn
    assert len(module.parallel_env().possible_agents) == players  # the table's options are kept


@pytest.mark.parametrize("game_id", MULTIPLAYER_IDS)
def test_the_turn_based_env_is_truncated_after_max_cycles_times_its_agents_steps(game_id: str) -> None:
    env = aec(game_id, max_cycles=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    for _ in env.agent_iter():
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        steps += 1
    assert steps == 3 * len(env.possible_agents)
    assert not env.unwrapped.engine_state.is_terminal()
    assert all(env.unwrapped.truncations.values()) and not any(env.unwrapped.terminations.values())


def test_an_illegal_action_raises_when_no_illegal_reward_is_given() -> None:
    env = aec("showdown", illegal_reward=None)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(env.infos[env.agent_selection]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {illegal} is not legal for seat 0 now"):
        env.step(illegal)


@pytest.mark.usefixtures("no_warnings")
@pytest.mark.parametrize("game_id", FLAT_NOT_DEFAULT_IDS)
def test_pettingzoo_parallel_api_test_with_flat_actions(game_id: str) -> None:
    parallel_api_test(parallel(game_id), num_cycles=1000)


@pytest.mark.parametrize("bots", [("greedy", "random", "random"), ("easy", "greedy", "random", "random")])
@pytest.mark.parametrize("game_id", MULTIPLAYER_IDS)
def test_spacetable_bots_play_through_the_environment(game_id: str, bots: tuple[str, ...]) -> None:
    """Each agent's move comes from a spacetable bot thinking on a resample of its seat; the
    environment's rewards are the game's returns, and only the seat to act has a mask."""
    game_class = spacetable.engine.game_class(game_id)
    players = max(game_class.min_players, min(len(bots), game_class.max_players))
    env = pettingzoo.env(game_id, players, actions="flat", **table(game_id)[1])
    env.reset(seed=3)
    agents = [make_agent(name) for name in bots[:players]]
    rng = random.Random(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        state = env.unwrapped.engine_state
        assert observation.shape == env.observation_space(agent).shape
        assert [a for a in env.possible_agents if env.infos[a]["action_mask"].any()] == [agent]
        for other in env.possible_agents:
            assert env.infos[other]["legal_actions"] == np.flatnonzero(env.infos[other]["action_mask"]).tolist()
        code = choose_code(state, seat, agents[seat], rng)
        assert info["action_mask"][code] == 1
        env.step(code)
    final = env.unwrapped.engine_state
    assert final.is_terminal()
    assert list(totals.values()) == final.returns()


def test_an_illegal_action_changes_nothing() -> None:
    env = aec("showdown", illegal_reward=-0.5)
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.unwrapped.engine_state.to_json()
    legal = env.infos[agent]["legal_actions"]
    illegal = int(np.flatnonzero(env.infos[agent]["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.agent_selection == agent and env.last()[1] == -0.5
    assert env.infos[agent]["illegal_action"] is True
    assert env.infos[agent]["error"].startswith(f"action {illegal} is not legal for seat 0 now: {len(legal)} are legal")
    assert env.unwrapped.engine_state.to_json() == before
    env.step(legal[0])
    assert "illegal_action" not in env.infos[agent]


def test_a_refused_parallel_action_says_so_and_the_others_are_played() -> None:
    env = parallel("showdown")
    _, infos = env.reset(seed=2)
    actions = {agent: int(np.flatnonzero(info["action_mask"])[0]) for agent, info in infos.items()}
    actions["player_1"] = int(np.flatnonzero(infos["player_1"]["action_mask"] == 0)[0])
    _, rewards, _, _, infos = env.step(actions)
    assert [agent for agent, info in infos.items() if info.get("illegal_action")] == ["player_1"]
    assert "seat 1 now" in infos["player_1"]["error"] and rewards["player_1"] == 0.0
    assert env.unwrapped.engine_state.awaiting() == (1,)  # the other seats picked; seat 1 is asked again


@pytest.mark.parametrize("game_id", MULTIPLAYER_IDS)
@pytest.mark.parametrize("kind", ["aec", "parallel"])
def test_the_global_state_is_every_seat_observation_in_turn(game_id: str, kind: str) -> None:
    """Along a random game of the default environment: ``state()`` in ``state_space``, seat 0's
    tensor first, then seat 1's..."""
    players, options = table(game_id)
    env = (pettingzoo.env if kind == "aec" else pettingzoo.parallel_env)(game_id, players, **options)
    env.reset(seed=7)
    inner = env.unwrapped
    for state in random_states(inner.table.game, 7)[::5]:
        inner.table.state = state
        global_state = env.state()
        assert global_state.shape == env.state_space.shape and env.state_space.contains(global_state)
        tensors = [inner.observe(agent).ravel() for agent in inner.possible_agents]
        assert np.array_equal(global_state, np.concatenate(tensors))


def test_the_global_state_holds_the_hands_no_one_seat_sees() -> None:
    """In a showdown draft, re-dealing what seat 0 cannot see leaves its observation alone and
    changes the global state: the others' hands are in it."""
    env = aec("showdown")
    env.reset(seed=3)
    inner = env.unwrapped
    state = inner.engine_state
    assert state.current_player() == SIMULTANEOUS
    seen, whole = env.observe("player_0"), env.state()
    changed = 0
    for seed in range(5):
        inner.table.state = state.resample(0, random.Random(seed))
        assert np.array_equal(env.observe("player_0"), seen)
        changed += not np.array_equal(env.state(), whole)
        assert any(not np.array_equal(env.observe(agent), seen) for agent in inner.possible_agents[1:])
    assert changed >= 4


def test_a_draft_round_is_one_parallel_step() -> None:
    env = parallel("showdown")
    _, infos = env.reset(seed=2)
    state = env.unwrapped.engine_state
    assert state.current_player() == SIMULTANEOUS and len(state.awaiting()) == 4
    assert all(info["action_mask"].any() for info in infos.values())
    assert all(info["legal_actions"] == np.flatnonzero(info["action_mask"]).tolist() for info in infos.values())
    actions = {a: int(np.flatnonzero(info["action_mask"])[0]) for a, info in infos.items()}
    picks = list(state.picks)
    env.step(actions)
    assert [p - q for p, q in zip(env.unwrapped.engine_state.picks, picks)] == [1, 1, 1, 1]


def test_render_shows_the_spectator_view() -> None:
    env = aec("showdown", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert text.startswith("Starship Showdown, 4 captains: seats [0] to act")
    assert '"hand"' not in text  # a spectator sees no hand


@pytest.mark.parametrize("game_id", MULTIPLAYER_IDS)
def test_observations_are_openspiel_observations(game_id: str) -> None:
    """The same state gives the same tensor in the PettingZoo and OpenSpiel adapters."""
    env = aec(game_id)
    env.reset(seed=5)
    spiel = pyspiel.load_game(spiel_name(game_id), {"players": table(game_id)[0], **table(game_id)[1]})
    rng = np.random.default_rng(5)
    for _ in range(60):
        state = SpielState(spiel, Trail(env.unwrapped.engine_state.clone()))
        for seat, agent in enumerate(env.possible_agents):
            assert np.array_equal(env.observe(agent), np.asarray(state.observation_tensor(seat), np.float32))
        if state.is_terminal():
            break
        env.step(rng.choice(np.flatnonzero(env.infos[env.agent_selection]["action_mask"])))
