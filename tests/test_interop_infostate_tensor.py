"""Information state tensors for OpenSpiel: the observation tensor, then a fixed-size memory of
the seat's past (``Game.recall``). They hold nothing the seat may not know, remember what the
view forgets, and serve OpenSpiel's algorithms (rl_environment and its learners: policy
gradient here, which needs no more than torch; NFSP in examples/nfsp_showdown.py)."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.observation import make_observation
from open_spiel.python.pytorch import policy_gradient

from interop_helpers import GAME_IDS, table
from spacetable.games.showdown.content import CARD_KINDS
from spacetable.games.showdown.rules.actions import HULL, NONE, Draw, Pick
from spacetable.interop.openspiel import spiel_name

PERFECT_RECALL = pyspiel.IIGObservationType(perfect_recall=True)


def spiel_game(game_id: str) -> Any:
    players, options = table(game_id)
    return pyspiel.load_game(spiel_name(game_id), {"players": players, **options})


def random_child(state: Any, rng: np.random.RandomState) -> Any:
    if state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        return state.child(rng.choice(actions, p=probabilities))
    return state.child(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_tensor_is_the_observation_then_the_memory(game_id: str) -> None:
    game = spiel_game(game_id)
    engine = game.game
    recall = engine.recall()
    seen = math.prod(engine.observation_shape())
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [seen + (0 if recall is None else recall.size)]
    assert (recall is None) == (not engine.hidden_information)  # perfect information: the view is the state
    observer = make_observation(game, PERFECT_RECALL)
    state, rng = game.new_initial_state(), np.random.RandomState(1)
    for _ in range(80):
        if state.is_terminal():
            break
        for seat in range(game.num_players()):
            tensor = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
            assert tensor.min() >= 0.0 and tensor.max() <= 1.0
            assert np.array_equal(tensor[:seen], np.ravel(state.observation_tensor(seat)))
            observer.set_from(state, seat)
            assert np.array_equal(observer.tensor, tensor)
            assert observer.string_from(state, seat) == state.information_state_string(seat)
        state = random_child(state, rng)


HIDDEN = [
    ("spacetable_showdown(players=3)", 220),
    ("spacetable_mothership(players=2,round_limit=4,exploration=True,objectives=hidden)", 260),
]


@pytest.mark.parametrize(("name", "steps"), HIDDEN)
def test_resampling_what_a_seat_cannot_see_keeps_its_tensor(name: str, steps: int) -> None:
    """Along a random game, every world re-dealt for a seat gives it the same tensor; and the
    memory fills up as the game goes (it is not all 0)."""
    game = pyspiel.load_game(name)
    seen = game.observation_tensor_size()
    state, rng, sampler = game.new_initial_state(), np.random.RandomState(3), random.Random(4).random
    redealt = 0
    for _ in range(steps):
        if state.is_terminal():
            break
        for seat in range(game.num_players()):
            other = state.resample_from_infostate(seat, sampler)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            redealt += str(other) != str(state)
        state = random_child(state, rng)
    assert redealt > 20
    assert any(np.asarray(state.information_state_tensor(seat))[seen:].any() for seat in range(game.num_players()))


def _draft(game: Any, deals: list[str]) -> Any:
    """A two-captain showdown: chance deals ``deals`` in order, each captain discards for hull the
    first card of its hand (in CARD_KINDS order), until every card of ``deals`` is dealt."""
    codec = game.game.actions
    state = game.new_initial_state()
    queue = list(deals)
    while queue or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(codec.encode(Draw(queue.pop(0))))
        else:
            hand = state.engine_state.hands[state.current_player()]
            first = min(hand, key=CARD_KINDS.index)
            state.apply_action(codec.encode(Pick(first, HULL, NONE)))
    return state


def test_the_memory_tells_apart_pasts_that_end_in_the_same_view() -> None:
    """Two drafts in which captain 1 passes seat 0 a hacking or a psionics card: at the second
    deal seat 0 sees the same, but remembers which pack it saw."""
    game = pyspiel.load_game("spacetable_showdown(players=2)")
    mine = ["engine"] * 3 + ["weapon"] * 3
    second = [
        "engine",
        "engine",
        "weapon",
        "gunner",
        "pilot",
        "cryo",
        "weapon",
        "weapon",
        "engineer",
        "gunner",
        "pilot",
        "cryo",
    ]
    pasts = [_draft(game, mine + ["engine"] * 3 + ["weapon"] * 2 + [odd] + second) for odd in ("hacking", "psionics")]
    assert all(past.engine_state.phase == "draft" and past.engine_state.draft_round == 2 for past in pasts)
    first, other = pasts
    assert first.observation_string(0) == other.observation_string(0)
    assert first.observation_tensor(0) == other.observation_tensor(0)
    assert first.information_state_tensor(0) != other.information_state_tensor(0)
    assert first.information_state_string(0) != other.information_state_string(0)


def test_random_simulations_pass_with_the_tensor() -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game("spacetable_showdown(players=3)"), num_sims=2, serialize=True, verbose=False
    )


def test_rl_environment_hands_out_the_tensor_and_a_learner_trains_on_it() -> None:
    game = pyspiel.load_game("spacetable_showdown(players=2)")
    env = rl_environment.Environment(game, seed=5)
    size = env.observation_spec()["info_state"][0]
    assert size == game.information_state_tensor_size() > game.observation_tensor_size()
    agents = [
        policy_gradient.PolicyGradient(
            seat, size, env.action_spec()["num_actions"], hidden_layers_sizes=[32], batch_size=1, num_critic_before_pi=1
        )
        for seat in range(2)
    ]
    for _ in range(2):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            info_state = time_step.observations["info_state"][seat]
            assert info_state == env.get_state.information_state_tensor(seat)
            time_step = env.step([agents[seat].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
    assert sum(time_step.rewards) == pytest.approx(1.0)
    assert all(None not in agent.loss for agent in agents)  # the critic and the policy took gradient steps
