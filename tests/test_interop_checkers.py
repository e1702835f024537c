"""The libraries' own checkers on every default environment: Gymnasium's and SB3's
``check_env`` on every registered solo id as ``gymnasium.make`` gives it (and made with the
other kind of actions), PettingZoo's ``api_test`` and ``parallel_api_test`` on every game's
``env`` and ``parallel_env`` at its usual seats. They step with unmasked random actions, which
the environments refuse (``interop.table``'s illegal-action policy) rather than raise on."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from interop_helpers import GAME_IDS, SOLO_IDS
from spacetable.engine import game_class
from spacetable.interop import pettingzoo
from spacetable.interop.gymnasium import env_id
from spacetable.interop.sequential import load_game
from spacetable.interop.table import actions_for

FACTORED_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
"""What PettingZoo's tests say of a factored environment's dict observation (documented in
docs/INTEROP.md): they know dict observations only of their own environments."""


def default_actions(game_id: str, players: int) -> str:
    return actions_for(load_game(game_id, players, {}), None)


def solo_cases() -> Iterator[tuple[str, str | None]]:
    """Every solo id at its defaults, then made with the other kind of actions."""
    for game_id in SOLO_IDS:
        yield game_id, None
        yield game_id, "flat" if default_actions(game_id, 1) == "factored" else "factored"


def _made(game_id: str, actions: str | None) -> gymnasium.Env[Any, Any]:
    return gymnasium.make(env_id(game_id), **({} if actions is None else {"actions": actions}))


def _gymnasium_warnings(env: gymnasium.Env[Any, Any]) -> list[str]:
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        check_env(env)
    return [str(record.message) for record in records]


@pytest.mark.parametrize(("game_id", "actions"), list(solo_cases()))
def test_gymnasium_check_env(game_id: str, actions: str | None) -> None:
    """On ``env.unwrapped``, as the checker asks, with no warning: the spacetable environment is
    the whole of it, factored or not. On what ``make`` gives, its one warning is that very advice
    (it warns of any wrapper, such as the TimeLimit ``make`` adds)."""
    env = _made(game_id, actions)
    assert _gymnasium_warnings(env.unwrapped) == []
    [wrapped] = _gymnasium_warnings(env)
    assert "is different from the unwrapped version" in wrapped
    expected = actions or default_actions(game_id, 1)
    assert isinstance(env.observation_space, gymnasium.spaces.Dict) == (expected == "factored")


@pytest.mark.parametrize(("game_id", "actions"), list(solo_cases()))
def test_sb3_check_env(game_id: str, actions: str | None) -> None:
    """On the environment ``gymnasium.make`` gives, wrappers and all; SB3 warns of nothing."""
    env = _made(game_id, actions)
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        sb3_check_env(env, warn=True)
    assert [str(record.message) for record in records] == []


def _pettingzoo_check(game_id: str, make: Callable[..., Any], check: Callable[[Any], None]) -> None:
    players = game_class(game_id).usual_players()
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        check(make(game_id))
    messages = {str(record.message) for record in records}
    allowed = FACTORED_OBSERVATION_WARNINGS if default_actions(game_id, players) == "factored" else set()
    assert messages <= allowed


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pettingzoo_api_test_on_the_default_env(game_id: str) -> None:
    _pettingzoo_check(game_id, pettingzoo.env, lambda env: api_test(env, num_cycles=40))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pettingzoo_parallel_api_test_on_the_default_env(game_id: str) -> None:
    _pettingzoo_check(game_id, pettingzoo.parallel_env, lambda env: parallel_api_test(env, num_cycles=40))
