"""Every game that can be played solo as a Gymnasium environment: vector environments, masks,
rewards, illegal actions, and the same observation in all three adapters (the checkers run in
tests/test_interop_checkers.py)."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pyspiel
import pytest

import spacetable
from interop_helpers import SHORTER, SOLO_IDS
from spacetable.agents import make_agent
from spacetable.engine import IllegalActionError
from spacetable.interop import pettingzoo
from spacetable.interop.factored import FactoredCodec
from spacetable.interop.gymnasium import env_id, register_solo_games
from spacetable.interop.infostate import Trail
from spacetable.interop.openspiel import SpielState, spiel_name
from spacetable.interop.sequential import choose_code


def make(game_id: str, **kwargs: object) -> gymnasium.Env:
    return gymnasium.make(env_id(game_id), **SHORTER.get(game_id, {}), **kwargs)


def test_every_solo_game_is_registered_with_its_length_bound() -> None:
    """The bound on a game's actions times the most steps one takes factored."""
    solo = [cls.id for cls in spacetable.list_games() if cls.min_players == 1]
    assert "falling-skies" in solo
    for game_id in solo:
        spec = gymnasium.registry[env_id(game_id)]
        game = spacetable.load_finite(game_id, 1)
        assert spec.max_episode_steps == game.bounded_length() * FactoredCodec(game).depth
    assert env_id("falling-skies") == "spacetable/FallingSkies-v0"
    assert register_solo_games() == []  # registering again adds nothing


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
    assert info["action_mask"].all()  # the autoreset step of a vector env takes any action


@pytest.mark.parametrize("game_id", SOLO_IDS)
def test_the_shaped_reward_adds_up_to_the_return_and_the_progress_made(game_id: str) -> None:
    env = make(game_id, reward="shaped")
    _, info = env.reset(seed=9)
    game = env.unwrapped.game
    start = game.progress(env.unwrapped.engine_state, 0)
    rng = np.random.default_rng(9)
    rewards, terminated = [], False
    while not terminated:
        _, reward, terminated, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        rewards.append(reward)
    state = env.unwrapped.engine_state
    assert sum(rewards) == pytest.approx(state.returns()[0] + game.progress(state, 0) - start)
    assert any(r != 0 for r in rewards[:-1])  # progress pays before the end


def test_an_illegal_action_is_refused_by_default_and_changes_nothing() -> None:
    env = gymnasium.make("spacetable/FallingSkies-v0", level=5)
    observation, info = env.reset(seed=1)
    assert env.unwrapped.game.board.level == 5
    before = env.unwrapped.engine_state.to_json()
    legal = np.flatnonzero(info["action_mask"])
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (0.0, False, False, True)
    assert info["error"] == (
        f"action {illegal} is not legal for seat 0 now: {len(legal)} are legal "
        f"({', '.join(map(str, legal[:8]))}, ...), marked in info['action_mask']"
    )
    assert env.unwrapped.engine_state.to_json() == before and np.array_equal(after, observation)
    _, _, _, _, info = env.step(int(legal[0]))  # the same seat is asked again
    assert "illegal_action" not in info and "error" not in info


def test_an_illegal_action_pays_the_illegal_reward_or_raises_in_strict_mode() -> None:
    env = gymnasium.make("spacetable/FallingSkies-v0", level=1, reward="shaped", illegal_reward=-0.25)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    assert env.step(illegal)[1] == -0.25
    strict = gymnasium.make("spacetable/FallingSkies-v0", level=1, illegal_reward=None)
    strict.reset(seed=1)
    before = strict.unwrapped.engine_state.to_json()
    with pytest.raises(IllegalActionError, match=f"^action {illegal} is not legal for seat 0 now: .* are legal"):
        strict.step(illegal)
    assert strict.unwrapped.engine_state.to_json() == before


def test_an_agent_that_ignores_the_mask_is_truncated() -> None:
    env = gymnasium.make("spacetable/FallingSkies-v0", level=1, illegal_reward=-1.0, max_episode_steps=5)
    env.reset(seed=2)
    illegal = env.action_space.n - 1  # the last code: a respawn choice, never legal while placing dice
    outcomes = [env.step(illegal)[2:4] for _ in range(5)]
    assert outcomes == [(False, False)] * 4 + [(False, True)]


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="reward must be one of"):
        gymnasium.make("spacetable/FallingSkies-v0", reward="points")
    with pytest.raises(ValueError, match=r"actions must be one of \('flat', 'factored'\) or None"):
        gymnasium.make("spacetable/FallingSkies-v0", actions="nested")
    with (
        pytest.warns(UserWarning, match="not in the possible render_modes"),
        pytest.raises(TypeError, match="render_mode must be one of"),  # what SB3's make_vec_env catches
    ):
        gymnasium.make("spacetable/FallingSkies-v0", render_mode="rgb_array")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_vector_env_has_a_legal_mask_on_every_step_through_its_autoresets(mode: str) -> None:
    """Gymnasium's default autoreset (next step): the mask of the final step lets any action
    through, and after the reset it is the new game's."""
    envs = gymnasium.make_vec("spacetable/FallingSkies-v0", num_envs=2, vectorization_mode=mode, level=1)
    _, infos = envs.reset(seed=5)
    rng = np.random.default_rng(5)
    finished = np.zeros(2, dtype=int)
    try:
        while finished.min() < 2:
            masks = infos["action_mask"]
            assert np.array_equal(masks, np.stack(envs.call("action_masks")))
            assert masks.any(axis=1).all()
            # a masked pick is always taken, never refused
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
            _, _, terminated, truncated, infos = envs.step(actions)
            assert not truncated.any() and "illegal_action" not in infos
            finished += terminated
    finally:
        envs.close()


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
    env = make(game_id, actions="flat")
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
