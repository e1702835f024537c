"""The shaped rewards' progress measures (``Game.progress``): in [0, 1], blind to what the seat
may not see, and paid out by the environments so that an episode adds up to the return and the
progress made."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spacetable
from interop_helpers import GAME_IDS, MULTIPLAYER_IDS, load, random_states, table
from spacetable.interop import pettingzoo
from spacetable.interop.table import Table
from spacetable.testing.toygame import ToyPoker


@pytest.mark.parametrize(
    ("game_id", "options"),
    [(game_id, {}) for game_id in GAME_IDS] + [("mothership", {"mode": "victory_points", "round_limit": 10})],
)
def test_progress_is_a_share_that_a_resample_cannot_change(game_id: str, options: dict[str, object]) -> None:
    game = spacetable.load_finite(game_id, table(game_id)[0], options) if options else load(game_id)
    rng = random.Random(3)
    seen = set()
    for state in random_states(game, seed=3)[::3]:  # every third state of a whole random game
        for seat in range(game.players):
            value = game.progress(state, seat)
            assert value is not None and 0.0 <= value <= 1.0
            assert game.progress(state.resample(seat, rng), seat) == value
            seen.add(value)
    assert len(seen) > 1, f"{game_id}: progress never moved in a whole game"


@pytest.mark.parametrize("game_id", MULTIPLAYER_IDS)
def test_turn_based_shaped_rewards_add_up_to_the_return_and_the_progress_made(game_id: str) -> None:
    """Over a whole game or one cut short by max_cycles (returns are then 0)."""
    players, options = table(game_id)
    env = pettingzoo.env(game_id, players, reward="shaped", max_cycles=50, **options)
    env.reset(seed=6)
    game = env.unwrapped.table.game
    start = [game.progress(env.unwrapped.engine_state, seat) for seat in range(players)]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(6)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else rng.choice(np.flatnonzero(info["action_mask"])))
    state = env.unwrapped.engine_state
    made = [r + game.progress(state, s) - start[s] for s, r in enumerate(state.returns())]
    assert list(totals.values()) == pytest.approx(made)


def test_parallel_shaped_rewards_pay_progress_as_it_is_made() -> None:
    env = pettingzoo.parallel_env("showdown", 4, reward="shaped")
    _, infos = env.reset(seed=7)
    rng = np.random.default_rng(7)
    paid = []
    while env.agents:
        actions = {a: rng.choice(np.flatnonzero(i["action_mask"])) for a, i in infos.items() if i["action_mask"].any()}
        _, rewards, _, _, infos = env.step(actions)
        paid.append(sum(rewards.values()))
    assert any(p != 0 for p in paid[:-1])  # hull bought in the draft pays before the end


def test_a_game_without_a_progress_measure_refuses_the_shaped_reward() -> None:
    with pytest.raises(ValueError, match="has no progress measure"):
        Table(ToyPoker(), together=False, reward="shaped")
