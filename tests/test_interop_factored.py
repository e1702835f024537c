"""The factored action space (spacetable.interop.factored): each decision as a few small
choices with exact masks, one sequence per legal action, in Gymnasium and PettingZoo."""

from __future__ import annotations

import itertools
import random

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test

from interop_helpers import GAME_IDS, load, random_states
from spacetable.engine import State
from spacetable.interop import pettingzoo
from spacetable.interop.factored import FactoredActions, FactoredAECWrapper, FactoredCodec
from spacetable.interop.gymnasium import env_id
from spacetable.interop.sequential import decider, legal_codes

DECISIONS = 120
"""Decisions checked per game (from two random games), enough to meet most families."""


def _sequences(codec: FactoredCodec, legal: list[tuple[int, ...]], prefix: list[int]) -> list[int]:
    """The flat codes of every sequence the masks allow after ``prefix``; asserts that no
    value the mask allows is a dead end."""
    if codec.finished(prefix):
        return [codec.code(prefix)]
    allowed = np.flatnonzero(codec.mask(legal, prefix)).tolist()
    assert allowed, f"a dead end after {prefix}"
    codes = []
    for value in allowed:
        below = _sequences(codec, legal, [*prefix, value])
        assert below, f"{[*prefix, value]} leads to no legal action"
        codes += below
    return codes


def _decisions(game_id: str) -> list[tuple[State, int]]:
    game = load(game_id)
    states = itertools.chain(random_states(game, 1), random_states(game, 2))
    found = [(state, decider(state)) for state in states if decider(state) >= 0]
    return found[:: max(1, len(found) // DECISIONS)][:DECISIONS]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_sequence_is_one_legal_action_and_every_legal_action_has_one(game_id: str) -> None:
    decisions = _decisions(game_id)
    codec = FactoredCodec(decisions[0][0].game)
    for state, seat in decisions:
        legal = [state.game.actions.parts(action) for action in state.legal_actions(seat)]
        codes = _sequences(codec, legal, [])
        assert len(codes) == len(set(codes))  # one sequence per action
        assert sorted(codes) == legal_codes(state, seat)  # exactly the legal ones
        assert all(len(parts) <= codec.depth and max(parts) < codec.width for parts in legal)


def test_mothership_is_far_smaller_factored() -> None:
    game = load("mothership")
    codec = FactoredCodec(game)
    assert game.actions.size > 190_000
    assert codec.width * codec.depth < 1_000
    move = game.actions.kinds.index("move")
    assert codec.fields[move] == (game.content.ships, game.size * game.size)  # the ship, then where


def test_gymnasium_factored_falling_skies_plays_to_the_end() -> None:
    env = FactoredActions(gymnasium.make(env_id("falling-skies"), level=1))
    observation, info = env.reset(seed=3)
    rng = random.Random(3)
    over, moves = False, 0
    while not over:
        assert env.observation_space.contains(observation)
        state = env.unwrapped.engine_state  # type: ignore[attr-defined]
        before = len(state.legal_actions(0)), state.to_json()
        allowed = np.flatnonzero(info["action_mask"])
        with pytest.raises(ValueError, match="is not allowed now"):
            env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
        assert state.to_json() == before[1]  # the refused step changed nothing
        observation, reward, over, _, info = env.step(int(rng.choice(allowed)))
        decided = not observation["decision"].any()  # the sequence is finished: the game moved
        moves += decided
        if not decided:
            assert reward == 0.0 and state.to_json() == before[1]
    assert moves > 10 and not info["action_mask"].any()


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # a dict observation, as documented
def test_pettingzoo_factored_mothership() -> None:
    env = FactoredAECWrapper(pettingzoo.env("mothership", players=4, round_limit=10))
    api_test(env, num_cycles=60)
    env.reset(seed=4)
    rng = random.Random(4)
    for _ in range(200):
        agent = env.agent_selection
        _, _, over, cut, info = env.last()
        if over or cut:
            break
        engine = env.unwrapped.engine_state
        legal = legal_codes(engine, env.possible_agents.index(agent))
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if env.observe(agent)["decision"].any():  # mid-decision: same agent, the game unmoved
            assert env.agent_selection == agent and env.last()[1] == 0.0
            assert legal_codes(engine, env.possible_agents.index(agent)) == legal


def test_gymnasium_factored_mothership_builds_no_flat_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solo Mothership's flat mask has 190k entries: under the wrapper nothing builds it."""
    env = FactoredActions(gymnasium.make(env_id("mothership"), round_limit=5))
    table = env.unwrapped.table

    def refuse(seat: int) -> None:
        raise AssertionError(f"the flat mask of seat {seat} was built")

    monkeypatch.setattr(table, "action_mask", refuse)
    _, info = env.reset(seed=5)
    rng, moves = random.Random(5), 0
    for _ in range(60):
        assert len(info["action_mask"]) == env.action_space.n  # the wrapper's own, one step wide
        observation, _, over, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        moves += not observation["decision"].any()
        if over:
            break
    assert moves > 5  # the game moved


def test_factored_actions_wrap_only_a_spacetable_environment() -> None:
    with pytest.raises(TypeError, match="wraps a spacetable environment, not CartPoleEnv"):
        FactoredActions(gymnasium.make("CartPole-v1"))
