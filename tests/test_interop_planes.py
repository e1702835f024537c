"""Image planes where a game is a grid: Mothership's board and falling-skies' sky, a part of
the flat tensor shaped (channels, rows, columns), in every adapter."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pyspiel
import pytest

import spacetable
import spacetable.interop.gymnasium
import spacetable.interop.openspiel
from interop_helpers import random_step
from spacetable.games.mothership.rules.board import PLANET
from spacetable.games.mothership.rules.state import MothershipState
from spacetable.games.mothership.views.tensor import KINDS, TERRAIN
from spacetable.interop import pettingzoo
from spacetable.interop.infostate import Trail
from spacetable.interop.openspiel import SpielState
from spacetable.interop.planes import PlanesAECWrapper, PlanesObservation, split
from spacetable.interop.sequential import observe


def _mothership_in_turns(players: int, seed: int) -> MothershipState:
    game = spacetable.load("mothership", players, {"round_limit": 10})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.phase != "turn":
        random_step(state, rng)
    assert isinstance(state, MothershipState)
    return state


def test_mothership_planes_show_the_board_from_the_observers_seat() -> None:
    state = _mothership_in_turns(4, seed=3)
    game, n, size = state.game, 4, state.game.size
    seat = 2
    tensor = observe(state, seat)
    planes, vector = split(game, tensor)
    assert planes.shape == (len(TERRAIN) + 6 * n + 5, size, size)
    assert planes.size + vector.size == tensor.size
    board = game.board_for(state.board_seed)
    planets = [divmod(cell, size) for cell in range(size * size) if board.terrain[cell] == PLANET]
    assert [tuple(rc) for rc in np.argwhere(planes[TERRAIN.index(PLANET)])] == planets
    for r in range(n):  # relative seats: the observer's fleet first
        owner = (seat + r) % n
        motherships = planes[len(TERRAIN) + n + len(KINDS) * r + KINDS.index("mothership")]
        assert [tuple(rc) for rc in np.argwhere(motherships)] == [divmod(state.pos[owner][0], size)]
    assert not planes.flags.writeable  # a view of the tensor, not a copy


def test_a_game_without_a_grid_has_no_planes() -> None:
    game = spacetable.load("showdown", 4)
    assert game.observation_planes() is None
    with pytest.raises(ValueError, match="showdown is not played on a grid"):
        split(game, np.zeros(game.observation_shape(), np.float32))


def test_gymnasium_planes_wrapper_on_falling_skies() -> None:
    env = PlanesObservation(gymnasium.make("spacetable/FallingSkies-v0", level=1))
    observation, info = env.reset(seed=4)
    assert env.observation_space.contains(observation)
    board = env.unwrapped.game.board  # type: ignore[attr-defined]
    assert observation["planes"].shape == (2, board.sky_rows + 1, board.columns)
    legal = np.flatnonzero(info["action_mask"])
    observation, *_ = env.step(int(legal[0]))
    assert env.observation_space.contains(observation)


def test_pettingzoo_and_openspiel_planes_agree() -> None:
    env = PlanesAECWrapper(pettingzoo.env("mothership", players=2, round_limit=10))
    env.reset(seed=5)
    for _ in range(8):  # into the game, past the board
        observation, _, _, _, info = env.last()
        assert env.observation_space(env.agent_selection).contains(observation)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    engine = env.unwrapped.engine_state
    spiel = pyspiel.load_game("spacetable_mothership(players=2,round_limit=10)")
    state = SpielState(spiel, Trail(engine.clone()))  # the same position
    spiel_planes, _ = split(engine.game, np.asarray(state.observation_tensor(seat), np.float32))
    assert np.array_equal(spiel_planes, env.observe(agent)["planes"])


def test_planes_keep_the_factored_decision_beside_them() -> None:
    """Mothership's default (factored) environment split into planes still shows the steps of
    the decision chosen so far, as its own entry (SB3's MultiInputPolicy takes no nested dict)."""
    env = PlanesObservation(gymnasium.make("spacetable/Mothership-v0", round_limit=10))
    observation, info = env.reset(seed=3)
    assert set(observation) == {"planes", "vector", "decision"}
    for _ in range(6):
        assert env.observation_space.contains(observation)
        observation, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    flat = PlanesObservation(gymnasium.make("spacetable/Mothership-v0", round_limit=10, actions="flat"))
    assert set(flat.reset(seed=3)[0]) == {"planes", "vector"}
