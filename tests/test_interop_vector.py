"""The batched solo environment (interop/vector.py): the same games as a SyncVectorEnv of
``gymnasium.make`` environments, step for step, through autoresets, truncations and refused
actions; Gymnasium's vector tools take it; bad input is refused and changes nothing.

Gymnasium 1.4 has no checker for vector environments (``gymnasium.utils.env_checker`` checks a
single ``Env``), so the tests check the vector contract against Gymnasium's own ``SyncVectorEnv``
and run it through ``make_vec`` and the ``RecordEpisodeStatistics`` vector wrapper.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from interop_helpers import SHORTER, SOLO_IDS
from spacetable.engine import IllegalActionError
from spacetable.interop.gymnasium import env_id
from spacetable.interop.vector import SoloVectorEnv

GAMES = 3

OPTIONS: dict[str, dict[str, Any]] = {"falling-skies": {"level": 1}, **SHORTER}
"""The options each solo game is played with here (short games)."""

FLAT = {"actions": "flat"}
"""What ``gymnasium.make`` needs to take the flat codes the vector env takes (Mothership's default is factored)."""


def pair(game_id: str, **kwargs: Any) -> tuple[SoloVectorEnv, SyncVectorEnv]:
    """The vector env and Gymnasium's SyncVectorEnv of as many made envs, with the same keywords."""
    options = {**OPTIONS.get(game_id, {}), **kwargs}
    made = [lambda: gymnasium.make(env_id(game_id), **FLAT, **options) for _ in range(GAMES)]
    return SoloVectorEnv(game_id, GAMES, **options), SyncVectorEnv(made)


def legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def assert_same_step(ours: tuple[Any, ...], theirs: tuple[Any, ...], masks: np.ndarray) -> None:
    """One step's observations, rewards, terminations, truncations, refusals and masks agree."""
    for mine, gymnasiums in zip(ours[:4], theirs[:4]):
        assert mine.dtype == gymnasiums.dtype
        assert np.array_equal(mine, gymnasiums)
    assert np.array_equal(masks, theirs[4]["action_mask"])
    assert ours[4].keys() == theirs[4].keys() - {"action_mask", "_action_mask"}
    for key, value in ours[4].items():
        assert np.array_equal(value, theirs[4][key])


@pytest.mark.parametrize("game_id", SOLO_IDS)
@pytest.mark.parametrize(("limit", "unmasked"), [(None, 0.0), (40, 0.2)])
def test_the_same_trajectories_as_a_sync_vector_env_of_made_envs(
    game_id: str, limit: int | None, unmasked: float
) -> None:
    """Random legal actions from the masks (and, with a short step limit, some random codes the
    games refuse) through two games ended per env: every array of every step is the same."""
    kwargs: dict[str, Any] = {"illegal_reward": -0.5}
    if limit is not None:
        kwargs["max_episode_steps"] = limit
    ours, theirs = pair(game_id, **kwargs)
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert (ours.observation_space, ours.action_space) == (theirs.observation_space, theirs.action_space)
    rng = np.random.default_rng(7)
    observations, _ = ours.reset(seed=11)
    expected, infos = theirs.reset(seed=11)
    assert np.array_equal(observations, expected)
    assert np.array_equal(ours.action_masks(), infos["action_mask"])
    ended, truncated, refused = np.zeros(GAMES, dtype=int), 0, 0
    while ended.min() < 2:
        actions = legal_actions(ours.action_masks(), rng)
        wild = rng.random(GAMES) < unmasked
        actions[wild] = rng.integers(ours.single_action_space.n, size=int(wild.sum()))
        step = ours.step(actions)
        assert_same_step(step, theirs.step(actions), ours.action_masks())
        ended += step[2] | step[3]
        truncated += int(step[3].sum())
        refused += int(step[4].get("illegal_action", np.zeros(GAMES, dtype=bool)).sum())
    # the default limit cuts no game of legal actions; the short one, with refusals, cuts them
    assert (truncated > 0, refused > 0) == ((limit is not None,) * 2)
    reseeded = [5, None, 6]
    assert np.array_equal(ours.reset(seed=reseeded)[0], theirs.reset(seed=reseeded)[0])
    theirs.close()


def test_the_step_after_a_game_ends_starts_the_next_and_ignores_its_action() -> None:
    """Next-step autoreset: the action of the step after truncation is not played (not even
    refused), and the new game's steps are counted from 0."""
    envs = SoloVectorEnv("falling-skies", 2, level=1, max_episode_steps=3, illegal_reward=None)
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    outcomes = [envs.step(legal_actions(envs.action_masks(), rng))[2:4] for _ in range(3)]
    assert [(terminated.any(), truncated.all()) for terminated, truncated in outcomes] == [(False, False)] * 2 + [
        (False, True)
    ]
    ended_games = [table.state.to_json() for table in envs.tables]
    unplayable = np.full(2, envs.single_action_space.n - 1)  # never legal at a game's start: it would raise
    _, rewards, terminated, truncated, infos = envs.step(unplayable)
    assert not (terminated.any() or truncated.any() or rewards.any()) and infos == {}
    assert all(new != ended for new, ended in zip([table.state.to_json() for table in envs.tables], ended_games))
    assert (envs.action_masks()[:, -1] == 0).all() and envs.action_masks().any(axis=1).all()
    outcomes = [envs.step(legal_actions(envs.action_masks(), rng))[3] for _ in range(3)]
    assert [truncated.all() for truncated in outcomes] == [False, False, True]


def test_arrays_are_preallocated_and_handed_out_or_copied() -> None:
    envs = SoloVectorEnv("falling-skies", 2, level=1, copy=False)
    observations, _ = envs.reset(seed=3)
    masks = envs.action_masks()
    assert (observations.dtype, observations.shape, masks.dtype, masks.shape) == (
        np.float32,
        (2, 383),
        np.int8,
        (2, 2326),
    )
    rng = np.random.default_rng(3)
    after = envs.step(legal_actions(masks, rng))
    assert after[0] is observations and envs.action_masks() is masks
    assert after[1] is envs.step(legal_actions(masks, rng))[1]
    copied = SoloVectorEnv("falling-skies", 2, level=1)
    first, _ = copied.reset(seed=3)
    assert np.array_equal(first, envs.reset(seed=3)[0])
    assert copied.step(legal_actions(copied.action_masks(), rng))[0] is not first


def test_gymnasium_vector_tools_take_it() -> None:
    """``make_vec`` through a vector entry point (the registered spec with one added) without a
    warning, and the episode statistics wrapper giving what it gives over a SyncVectorEnv."""
    spec = dataclasses.replace(
        gymnasium.spec(env_id("falling-skies")), vector_entry_point="spacetable.interop.vector:SoloVectorEnv"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        made = gymnasium.make_vec(
            spec, num_envs=GAMES, vectorization_mode="vector_entry_point", level=1, reward="shaped"
        )
    assert isinstance(made, SoloVectorEnv) and made.max_episode_steps == spec.max_episode_steps
    ours, theirs = (RecordEpisodeStatistics(envs) for envs in (made, pair("falling-skies", reward="shaped")[1]))
    ours.reset(seed=4)
    theirs.reset(seed=4)
    rng = np.random.default_rng(4)
    while ours.episode_count < 2:
        actions = legal_actions(made.action_masks(), rng)
        mine, gymnasiums = ours.step(actions)[4], theirs.step(actions)[4]
        assert mine.keys() == gymnasiums.keys() - {"action_mask", "_action_mask"}
        if "episode" in mine:
            for key in ("r", "l"):
                assert np.array_equal(mine["episode"][key], gymnasiums["episode"][key])
    assert ours.length_queue == theirs.length_queue and min(ours.length_queue) > 20


@pytest.mark.parametrize("actions", [[0, 0, 0], [[0, 0]], np.zeros(2, dtype=np.float32), np.array([True, False]), "01"])
def test_actions_of_the_wrong_shape_or_type_are_refused_in_one_line_and_change_nothing(actions: Any) -> None:
    envs = SoloVectorEnv("falling-skies", 2, level=1)
    envs.reset(seed=9)
    states, masks = [table.state.to_json() for table in envs.tables], envs.action_masks().copy()
    with pytest.raises(ValueError, match=r"^actions must be 2 integer action codes, one per game") as refusal:
        envs.step(actions)
    assert "\n" not in str(refusal.value)
    assert [table.state.to_json() for table in envs.tables] == states
    assert np.array_equal(envs.action_masks(), masks)


def test_an_illegal_action_raises_before_any_game_moves_when_asked() -> None:
    envs = SoloVectorEnv("falling-skies", 3, level=1, illegal_reward=None)
    observations, _ = envs.reset(seed=2)
    states = [table.state.to_json() for table in envs.tables]
    legal = legal_actions(envs.action_masks(), np.random.default_rng(2))
    actions = legal.copy()
    actions[1] = envs.single_action_space.n - 1
    with pytest.raises(IllegalActionError, match=r"^game 1: action 2325 is not legal now .*; no game moved$"):
        envs.step(actions)
    with pytest.raises(IllegalActionError, match=r"^game 2: action -1 "):
        envs.step(np.array([*legal[:2], -1]))
    assert [table.state.to_json() for table in envs.tables] == states
    assert not np.array_equal(envs.step(legal)[0], observations)


def test_bad_construction_and_seeds_are_refused() -> None:
    with pytest.raises(ValueError, match=r"^showdown cannot be played solo; the solo games are: falling-skies"):
        SoloVectorEnv("showdown", 2)
    with pytest.raises(ValueError, match=r"^num_envs must be a whole number of games, at least 1, not 0$"):
        SoloVectorEnv("falling-skies", 0)
    with pytest.raises(ValueError, match=r"^SoloVectorEnv takes flat action codes only \(actions='flat'\), not"):
        SoloVectorEnv("mothership", 2, actions="factored")
    with pytest.raises(ValueError, match=r"^reward must be one of"):
        SoloVectorEnv("falling-skies", 2, reward="points")
    with pytest.raises(ValueError, match=r"^seed must be an int, None or 2 seeds \(one per game\), not 3$"):
        SoloVectorEnv("falling-skies", 2, level=1).reset(seed=[1, 2, 3])
