"""Stable-Baselines3 and sb3-contrib on every solo game: ``make_vec_env``, MaskablePPO taking a
few masked steps, the size of its policy on Mothership's default, factored actions (the
``train`` extra, with torch's CPU build, which ``make test`` installs; SB3's checker runs in
tests/test_interop_checkers.py)."""

from __future__ import annotations

import runpy
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env

from interop_helpers import SHORTER, SOLO_IDS
from spacetable.interop.gymnasium import env_id


@pytest.mark.parametrize("game_id", SOLO_IDS)
def test_make_vec_env_gives_masks_of_each_game(game_id: str) -> None:
    """SB3 asks for render_mode='rgb_array' first and falls back on the TypeError it gets."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not in the possible render_modes")
        envs = make_vec_env(env_id(game_id), n_envs=2, seed=1, env_kwargs=SHORTER.get(game_id, {}))
    observations = envs.reset()
    masks = get_action_masks(envs)
    space = envs.observation_space
    if isinstance(space, gymnasium.spaces.Dict):  # factored actions: the tensor and the steps chosen
        assert {key: value.shape for key, value in observations.items()} == {
            key: (2, *part.shape) for key, part in space.items()
        }
    else:
        assert observations.shape == (2, *space.shape)
    assert masks.shape == (2, envs.action_space.n) and masks.any(axis=1).all()
    envs.step(np.array([np.flatnonzero(mask)[0] for mask in masks]))
    assert get_action_masks(envs).any(axis=1).all()
    envs.close()


def test_maskable_ppo_on_default_mothership_is_small() -> None:
    """MaskablePPO with its default policy on the default solo Mothership (factored: a Dict
    observation, so ``MultiInputPolicy``): its output layer has ``width`` actions, not the flat
    191,814, so the policy holds under a million parameters (about 13 million flat)."""
    env = gymnasium.make(env_id("mothership"))
    model = MaskablePPO("MultiInputPolicy", env, device="cpu", seed=1)
    parameters = sum(parameter.numel() for parameter in model.policy.parameters())
    assert env.action_space.n < 300 and parameters < 1_000_000
    observation, info = env.reset(seed=1)
    action, _ = model.predict(observation, action_masks=info["action_mask"])
    assert info["action_mask"][int(action)] == 1


@pytest.mark.soak  # torch's training loop: about 10 s of CI's ten minutes, so make soak runs it
def test_maskable_ppo_learns_for_a_few_steps_with_the_shaped_reward() -> None:
    """A smoke check only (training lives in examples/train_falling_skies.py): MaskablePPO's
    rollouts take only masked actions (none is refused)."""
    settings = {"level": 1, "reward": "shaped", "render_mode": None}  # None: SB3 asks for no rgb_array
    envs = make_vec_env(env_id("falling-skies"), n_envs=1, seed=2, env_kwargs=settings)
    model = MaskablePPO("MlpPolicy", envs, n_steps=32, batch_size=32, n_epochs=1, seed=2, device="cpu")
    model.learn(total_timesteps=64)
    observation = envs.reset()
    action, _ = model.predict(observation, action_masks=get_action_masks(envs))
    assert get_action_masks(envs)[0][action[0]]


@pytest.mark.soak  # about 16 s of the example's training loop: CI runs it in make soak
def test_the_training_example_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The example with a budget of seconds: its figures are in docs/INTEROP.md."""
    example = Path(__file__).parent.parent / "examples" / "train_falling_skies.py"
    monkeypatch.setattr(sys, "argv", ["train_falling_skies.py", "--minutes", "0.05", "--episodes", "2"])
    runpy.run_path(str(example), run_name="__main__")
    out = capsys.readouterr().out
    assert "random agent: research" in out and "research reached, before -> after:" in out
