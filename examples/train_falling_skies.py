"""Train MaskablePPO (sb3-contrib) on Under Falling Skies with the shaped reward, and compare the
research spaces it reaches with a uniformly random masked agent's, before and after.

    pip install 'torch==2.13.0+cpu' -e '.[train]'     # or: make rl-check
    python examples/train_falling_skies.py --minutes 5 --seed 0

The shaped reward (docs/INTEROP.md, "Rewards") pays the change in the game's progress measure
after every step: research spaces passed (nine tenths) and rounds survived (one tenth), plus 1
for a win. The score printed is what the game's outcome reports: research spaces reached.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import spacetable.interop.gymnasium  # noqa: F401  (importing it registers spacetable/<Game>-v0)

ENV_ID = "spacetable/FallingSkies-v0"
LEVEL = 1


def research_reached(policy, episodes: int, seed: int) -> list[float]:
    """Research spaces reached in ``episodes`` games, each action from ``policy(observation, mask)``."""
    env = gymnasium.make(ENV_ID, level=LEVEL)
    scores = []
    for episode in range(episodes):
        observation, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            action = policy(observation, info["action_mask"])
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        scores.append(env.unwrapped.engine_state.outcome().scores[0])
    return scores


class StopAfter(BaseCallback):
    """Ends training once the wall-clock budget is spent."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time (wall clock)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=100, help="games to score each agent on")
    args = parser.parse_args()
    torch.set_num_threads(1)
    evaluation_seed = 10_000 + args.seed  # games the agent never trained on

    rng = np.random.default_rng(args.seed)
    before = research_reached(lambda _, mask: rng.choice(np.flatnonzero(mask)), args.episodes, evaluation_seed)
    print(f"random agent: research {np.mean(before):.2f} of 14 on average over {args.episodes} games")

    # render_mode=None: SB3 would ask for rgb_array first (spacetable renders text)
    settings = {"level": LEVEL, "reward": "shaped", "render_mode": None}
    envs = make_vec_env(ENV_ID, n_envs=4, seed=args.seed, env_kwargs=settings)
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=512, batch_size=256, learning_rate=3e-4, ent_coef=0.01, seed=args.seed, device="cpu"
    )
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=StopAfter(60 * args.minutes))
    trained_for = time.monotonic() - start
    print(f"trained {model.num_timesteps} steps in {trained_for / 60:.1f} minutes")

    def trained(observation, mask):
        return int(model.predict(observation, action_masks=mask, deterministic=True)[0])

    after = research_reached(trained, args.episodes, evaluation_seed)
    print(f"trained agent: research {np.mean(after):.2f} of 14 on average over {args.episodes} games")
    print(f"research reached, before -> after: {np.mean(before):.2f} -> {np.mean(after):.2f}")


if __name__ == "__main__":
    main()
