"""The factored action space (spacetable.interop.factored): each decision as a few small
choices with exact masks, one sequence per legal action, in Gymnasium and PettingZoo (turn-based
and parallel), Mothership's default; steps outside the mask refused as any illegal action."""

from __future__ import annotations

import itertools
import random

import gymnasium
import numpy as np
import pytest

import spacetable
from interop_helpers import GAME_IDS, load, random_states
from spacetable.engine import SIMULTANEOUS, IllegalActionError, State
from spacetable.interop import pettingzoo
from spacetable.interop.factored import FactoredActions, FactoredAECWrapper, FactoredCodec, FactoredParallelWrapper
from spacetable.interop.gymnasium import env_id
from spacetable.interop.sequential import decider, legal_codes
from spacetable.interop.table import FLAT_ACTIONS_MAX

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


def test_mothership_is_far_smaller_factored_and_factored_by_default() -> None:
    game = load("mothership")
    codec = FactoredCodec(game)
    assert (
        game.actions.size
        > 190_000
        > FLAT_ACTIONS_MAX
        > max(load(g).actions.size for g in GAME_IDS if g != "mothership")
    )
    assert codec.width * codec.depth < 1_000
    assert gymnasium.make(env_id("mothership")).action_space.n == FactoredCodec(load_solo("mothership")).width
    assert pettingzoo.env("mothership").action_space("player_0").n == codec.width
    assert pettingzoo.parallel_env("mothership").action_space("player_0").n == codec.width
    assert pettingzoo.env("mothership", actions="flat").action_space("player_0").n == game.actions.size
    assert gymnasium.make(env_id("falling-skies")).action_space.n == load_solo("falling-skies").actions.size
    move = game.actions.kinds.index("move")
    assert codec.fields[move] == (game.content.ships, game.size * game.size)  # the ship, then where


def load_solo(game_id: str) -> spacetable.Game:
    return spacetable.load_finite(game_id, 1)


@pytest.mark.parametrize("wrapped", [False, True])
def test_gymnasium_factored_falling_skies_plays_to_the_end(wrapped: bool) -> None:
    """Made with ``actions="factored"``, or flat and wrapped: the same environment."""
    if wrapped:
        env = FactoredActions(gymnasium.make(env_id("falling-skies"), level=1, illegal_reward=-0.5))
    else:
        env = gymnasium.make(env_id("falling-skies"), level=1, illegal_reward=-0.5, actions="factored")
    assert env.unwrapped.action_space == env.action_space  # the spacetable environment is factored
    observation, info = env.reset(seed=3)
    rng = random.Random(3)
    over, moves = False, 0
    while not over:
        assert env.observation_space.contains(observation)
        state = env.unwrapped.engine_state  # type: ignore[attr-defined]
        before = state.to_json(), observation["decision"]
        allowed = np.flatnonzero(info["action_mask"])
        refused, reward, _, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
        assert reward == -0.5 and info["illegal_action"] and "is not legal now" in info["error"]
        assert state.to_json() == before[0] and np.array_equal(refused["decision"], before[1])  # nothing changed
        assert np.array_equal(np.flatnonzero(info["action_mask"]), allowed)  # the same step is asked again
        observation, reward, over, _, info = env.step(int(rng.choice(allowed)))
        decided = not observation["decision"].any()  # the sequence is finished: the game moved
        moves += decided
        if not decided:
            assert reward == 0.0 and state.to_json() == before[0]
    assert moves > 10 and info["action_mask"].all()  # all 1 for a vector env's autoreset step


def test_a_factored_step_outside_the_mask_raises_in_strict_mode() -> None:
    env = gymnasium.make(env_id("mothership"), illegal_reward=None)
    _, info = env.reset(seed=6)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    before = env.unwrapped.engine_state.to_json(), env.unwrapped.seat_actions.chooser.prefix[:]
    mask = env.unwrapped.action_masks()
    with pytest.raises(
        IllegalActionError, match=r"^step 1 of seat 0's decision \(chosen so far: \[\d+\]\): \d+ is not"
    ):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert (env.unwrapped.engine_state.to_json(), env.unwrapped.seat_actions.chooser.prefix) == before
    aec = pettingzoo.env("mothership", players=2, illegal_reward=None)
    aec.reset(seed=6)
    with pytest.raises(IllegalActionError, match=r"^step 0 of seat 0's decision"):
        aec.step(int(np.flatnonzero(aec.infos["player_0"]["action_mask"] == 0)[0]))


def test_pettingzoo_factored_mothership() -> None:
    """The default turn-based environment; api_test runs in test_interop_checkers.py."""
    env = pettingzoo.env("mothership", players=4, round_limit=10, illegal_reward=-1.0)
    env.reset(seed=4)
    rng = random.Random(4)
    refused = 0
    for _ in range(200):
        agent = env.agent_selection
        _, _, over, cut, info = env.last()
        if over or cut:
            break
        engine = env.unwrapped.engine_state
        legal = legal_codes(engine, env.possible_agents.index(agent))
        if rng.random() < 0.2:  # a step outside the mask: refused, the same agent asked again
            before = engine.to_json(), env.observe(agent)["decision"]
            env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
            _, reward, _, _, info = env.last()
            assert (reward, info["illegal_action"], env.agent_selection) == (-1.0, True, agent)
            assert engine.to_json() == before[0] and np.array_equal(env.observe(agent)["decision"], before[1])
            refused += 1
            continue
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if env.observe(agent)["decision"].any():  # mid-decision: same agent, the game unmoved
            assert env.agent_selection == agent and env.last()[1] == 0.0
            assert "illegal_action" not in env.infos[agent]
            assert legal_codes(engine, env.possible_agents.index(agent)) == legal
    assert refused > 10


def test_pettingzoo_parallel_factored_showdown_drafts_in_steps() -> None:
    """Every seat of a draft round takes its steps at once; the round ends at their last."""
    env = pettingzoo.parallel_env("showdown", players=4, actions="factored")
    assert isinstance(env, FactoredParallelWrapper)
    observations, infos = env.reset(seed=2)
    state = env.unwrapped.engine_state
    assert state.current_player() == SIMULTANEOUS and len(state.awaiting()) == 4
    picks, rng, steps = list(state.picks), random.Random(2), 0
    while list(env.unwrapped.engine_state.picks) == picks:
        assert all(info["action_mask"].any() for info in infos.values())
        actions = {agent: int(rng.choice(np.flatnonzero(info["action_mask"]))) for agent, info in infos.items()}
        observations, _, _, _, infos = env.step(actions)
        steps += 1
        assert all(env.observation_space(agent).contains(observation) for agent, observation in observations.items())
    assert steps > 1 and [p - q for p, q in zip(env.unwrapped.engine_state.picks, picks)] == [1, 1, 1, 1]
    assert not any(observation["decision"].any() for observation in observations.values())


def test_a_factored_environment_is_not_wrapped_again() -> None:
    with pytest.raises(ValueError, match="takes factored actions already"):
        FactoredAECWrapper(pettingzoo.env("mothership"))
    with pytest.raises(ValueError, match="takes factored actions already"):
        FactoredParallelWrapper(pettingzoo.parallel_env("mothership").env)


def test_gymnasium_factored_mothership_builds_no_flat_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solo Mothership's flat mask has 190k entries: under the wrapper nothing builds it."""
    env = gymnasium.make(env_id("mothership"), round_limit=5)
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
