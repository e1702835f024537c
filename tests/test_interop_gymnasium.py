"""Every game that can be played solo as a Gymnasium environment: Gymnasium's checker, masks,
rewards, and the same observation in all three adapters."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env

import spacetable
from interop_helpers import SHORTER, SOLO_IDS
from spacetable.agents import make_agent
from spacetable.interop import pettingzoo
from spacetable.interop.gymnasium import env_id, register_solo_games
from spacetable.interop.infostate import Trail
from spacetable.interop.openspiel import SpielState, spiel_name
from spacetable.interop.sequential import choose_code


def make(game_id: str, **kwargs: object) -> gymnasium.Env:
    return gymnasium.make(env_id(game_id), **SHORTER.get(game_id, {}), **kwargs)


def test_every_solo_game_is_registered() -> None:
    solo = [cls.id for cls in spacetable.list_games() if cls.min_players == 1]
    assert "falling-skies" in solo
    for game_id in solo:
        assert env_id(game_id) in gymnasium.registry
    assert env_id("falling-skies") == "spacetable/FallingSkies-v0"
    assert register_solo_games() == []  # registering again adds nothing


@pytest.mark.parametrize("game_id", SOLO_IDS)
def test_gymnasium_check_env(game_id: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(make(game_id).unwrapped)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("game_id", SOLO_IDS)
def test_an_episode_with_masks_ends_with_the_game(game_id: str) -> None:
    env = make(game_id)
    observation, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    total, terminated = 0.0, False
    while not terminated:
        assert env.observation_space.contains(observation)
        assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated and "illegal_action" not in info
        total += float(reward)
    state = env.unwrapped.engine_state
    assert state.is_terminal() and [total] == state.returns()
    assert not info["action_mask"].any()


def test_level_is_passed_to_the_game_and_illegal_actions_change_nothing() -> None:
    env = gymnasium.make("spacetable/FallingSkies-v0", level=5)
    _, info = env.reset(seed=1)
    game = env.unwrapped.game
    assert game.board.level == 5
    before = env.unwrapped.engine_state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (0.0, False, True)
    assert env.unwrapped.engine_state.to_json() == before


def test_greedy_bot_plays_an_episode() -> None:
    env = gymnasium.make("spacetable/FallingSkies-v0", level=1)
    env.reset(seed=2)
    bot, rng = make_agent("greedy"), random.Random(2)
    terminated = False
    while not terminated:
        code = choose_code(env.unwrapped.engine_state, 0, bot, rng)
        _, _, terminated, _, info = env.step(code)
        assert "illegal_action" not in info
    outcome = env.unwrapped.engine_state.outcome()
    assert outcome is not None and outcome.scores[0] >= 3  # research reached; random play averages 0.3


def test_render_as_text() -> None:
    env = gymnasium.make("spacetable/FallingSkies-v0", level=2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and text.startswith("Under Falling Skies (9-card solo edition), level 2")
    assert '"phase": "place"' in text


@pytest.mark.parametrize("game_id", SOLO_IDS)
def test_one_state_one_tensor_in_all_three_adapters(game_id: str) -> None:
    env = make(game_id)
    observation, info = env.reset(seed=4)
    options = SHORTER.get(game_id, {})
    spiel = pyspiel.load_game(spiel_name(game_id), {"players": 1, **options})
    turn_based = pettingzoo.GameAECEnv(game_id, 1, **options)
    rng = np.random.default_rng(4)
    for _ in range(30):
        state = env.unwrapped.engine_state
        turn_based.table.state = state.clone()
        spiel_state = SpielState(spiel, Trail(state.clone()))
        assert np.array_equal(observation, np.asarray(spiel_state.observation_tensor(0), np.float32))
        assert np.array_equal(observation, turn_based.observe("player_0"))
        if state.is_terminal():
            break
        observation, _, _, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
