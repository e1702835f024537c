"""Train MaskablePPO (sb3-contrib) on Mothership's solo challenge through its factored actions, and
compare its play with a uniformly random masked agent's and with spacetable's greedy bot.

    pip install 'torch==2.13.0+cpu' -e '.[train]'     # or: make rl-check
    python examples/train_mothership.py --minutes 5 --seed 0

Mothership's flat codec has 191,814 codes; its Gymnasium id takes decisions in a few small steps
instead (docs/INTEROP.md, "Factored actions"): a family, then each field, each step a choice of at
most a few hundred values with its own mask, so the policy's last layer stays small. The reward is
shaped: the change in the solo challenge's progress (NPC ships destroyed, the station's hull left)
after every step, plus 1 for a win. The scores printed are the game's: wins, and the progress
measure when the game ends.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env
from statsmodels.stats.proportion import proportion_confint
from train_falling_skies import StopAfter  # examples/ is on the path of a script run from it

import spacetable.interop.gymnasium  # noqa: F401  (importing it registers spacetable/<Game>-v0)
from spacetable.agents import make_agent
from spacetable.interop.sequential import choose_code

ENV_ID = "spacetable/Mothership-v0"


def play(env: gymnasium.Env, choose: Callable, episodes: int, seed: int) -> tuple[int, list[float]]:
    """Wins and end-of-game progress over ``episodes`` games, each step from ``choose(env, observation, info)``."""
    wins, progress = 0, []
    for episode in range(episodes):
        observation, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(choose(env, observation, info))
            done = terminated or truncated
        state = env.unwrapped.engine_state
        wins += state.is_terminal() and state.returns()[0] > 0
        progress.append(state.game.progress(state, 0))
    return wins, progress


def report(name: str, wins: int, progress: list[float]) -> None:
    low, high = proportion_confint(wins, len(progress), method="wilson")
    print(
        f"{name:>14}: won {wins} of {len(progress)} ({100 * low:.0f}-{100 * high:.0f}%), "
        f"progress {np.mean(progress):.3f} at the end on average"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time (wall clock)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=20, help="games to score each agent on")
    args = parser.parse_args()
    torch.set_num_threads(1)
    evaluation_seed = 10_000 + args.seed  # games the agent never trained on

    factored = gymnasium.make(ENV_ID)
    rng = np.random.default_rng(args.seed)
    report(
        "random",
        *play(
            factored,
            lambda env, _, info: rng.choice(np.flatnonzero(info["action_mask"])),
            args.episodes,
            evaluation_seed,
        ),
    )

    greedy, bot_rng = make_agent("greedy"), random.Random(args.seed)
    flat = gymnasium.make(ENV_ID, actions="flat")
    report(
        "greedy bot",
        *play(
            flat,
            lambda env, *_: choose_code(env.unwrapped.engine_state, 0, greedy, bot_rng),
            args.episodes,
            evaluation_seed,
        ),
    )

    # render_mode=None: SB3 would ask for rgb_array first (spacetable renders text)
    envs = make_vec_env(ENV_ID, n_envs=4, seed=args.seed, env_kwargs={"reward": "shaped", "render_mode": None})
    model = MaskablePPO(
        "MultiInputPolicy", envs, n_steps=256, batch_size=256, ent_coef=0.01, seed=args.seed, device="cpu"
    )
    parameters = sum(p.numel() for p in model.policy.parameters())
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=StopAfter(60 * args.minutes))
    took = time.monotonic() - start
    print(
        f"trained {model.num_timesteps:,} steps in {took / 60:.1f} minutes "
        f"({model.num_timesteps / took:.0f} steps a second, a policy of {parameters:,} parameters)"
    )

    def trained(env: gymnasium.Env, observation: dict, info: dict) -> int:
        return int(model.predict(observation, action_masks=info["action_mask"], deterministic=True)[0])

    report("trained agent", *play(factored, trained, args.episodes, evaluation_seed))


if __name__ == "__main__":
    main()
