"""Observations as image planes where a game is a grid (``Game.observation_planes()``):
Mothership's board (terrain, stations, ships, planets, beacons, cannons: channels x rows x
columns) and falling-skies' sky (green and red ships).

The planes are a part of the flat tensor, so nothing is encoded twice: :func:`split` gives the
planes (a view of the tensor, shaped ``(channels, rows, columns)``) and the rest of it (the
numbers that are no grid). :class:`PlanesObservation` (Gymnasium) and :class:`PlanesAECWrapper`
(PettingZoo, turn-based) observe ``{"planes": ..., "vector": ...}`` with those two parts, and
with factored actions (Mothership's default) the steps chosen so far too, ``decision``.
For OpenSpiel, split ``state.observation_tensor(player)`` (as a float32 array) or an observer's
``tensor``: an observer's ``dict`` stays ``{"observation": tensor}``, since pyspiel concatenates
every entry of it into the tensor it reports.
"""

from __future__ import annotations

import math
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from spacetable.engine import Game

Planes = npt.NDArray[np.float32]


def layout(game: Game) -> tuple[int, tuple[int, int, int]]:
    """``game.observation_planes()``, or a clear error for a game that is no grid."""
    planes = game.observation_planes()
    if planes is None:
        raise ValueError(f"{game.id} is not played on a grid: its observation has no image planes")
    return planes


def split(game: Game, tensor: npt.NDArray[np.float32]) -> tuple[Planes, npt.NDArray[np.float32]]:
    """The flat ``tensor`` of ``game`` as (planes, the rest): the planes a read-only view of it."""
    offset, shape = layout(game)
    end = offset + math.prod(shape)
    planes = tensor[offset:end].reshape(shape)
    planes.flags.writeable = False
    return planes, np.concatenate((tensor[:offset], tensor[end:]))


def observation_space(game: Game, space: spaces.Space[Any] | None = None) -> spaces.Dict:
    """The space of the split observation: ``planes`` (channels, rows, columns) and ``vector``;
    given an environment's ``space`` with factored actions (a dict holding the tensor as
    ``observation``), its other entries (``decision``) beside them."""
    shape = layout(game)[1]
    rest = math.prod(game.observation_shape()) - math.prod(shape)
    others = (
        {key: value for key, value in space.spaces.items() if key != "observation"}
        if isinstance(space, spaces.Dict)
        else {}
    )
    return spaces.Dict(
        {
            "planes": spaces.Box(0.0, 1.0, shape, np.float32),
            "vector": spaces.Box(0.0, 1.0, (rest,), np.float32),
            **others,
        }
    )


def _as_dict(game: Game, observation: npt.NDArray[np.float32] | dict[str, Any]) -> dict[str, Any]:
    """The observation split; a factored environment's other entries kept beside the parts."""
    if isinstance(observation, dict):
        others = {key: value for key, value in observation.items() if key != "observation"}
        return {**_as_dict(game, observation["observation"]), **others}
    planes, vector = split(game, observation)
    return {"planes": planes, "vector": vector}


class PlanesObservation(gymnasium.ObservationWrapper[dict[str, Any], np.int64, Any]):
    """A spacetable Gymnasium environment observing ``{"planes", "vector"}``:
    ``PlanesObservation(gymnasium.make("spacetable/Mothership-v0"))``."""

    def __init__(self, env: gymnasium.Env[Any, np.int64]) -> None:
        super().__init__(env)
        self.game: Game = env.unwrapped.game  # type: ignore[attr-defined]  # a SoloEnv
        self.observation_space = observation_space(self.game, env.observation_space)

    def observation(self, observation: npt.NDArray[np.float32] | dict[str, Any]) -> dict[str, Any]:
        return _as_dict(self.game, observation)


class PlanesAECWrapper(BaseWrapper):  # type: ignore[misc]  # pettingzoo has no type stubs
    """A spacetable PettingZoo turn-based environment observing ``{"planes", "vector"}``:
    ``PlanesAECWrapper(pettingzoo.env("mothership", players=4))``."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self.game: Game = env.unwrapped.table.game
        self.observation_spaces = {
            agent: observation_space(self.game, env.observation_space(agent)) for agent in env.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        return _as_dict(self.game, super().observe(agent))
