"""Every registered game that can be played solo as a Gymnasium environment. Importing this
module registers them, ``spacetable/<Name>-v0`` with the game id in CamelCase::

    import gymnasium
    import spacetable.interop.gymnasium
    env = gymnasium.make("spacetable/FallingSkies-v0", level=1, reward="shaped")

(or ``gymnasium.make("spacetable.interop.gymnasium:spacetable/FallingSkies-v0")``, which imports
it). Keywords are the game's options, and:

- ``reward``: ``"win"`` (default), ``returns()`` when the game ends (a win is 1); ``"shaped"``,
  that plus the change in the game's progress measure after every step (``Game.progress``).
- ``illegal_reward``: an action outside the mask is refused (``interop.table``'s policy, the
  same in PettingZoo): it changes nothing, the step gives ``illegal_reward`` (default 0.0; a
  negative number is a penalty), ``info["illegal_action"] = True`` and ``info["error"]`` says
  why. None is the strict mode: the step raises IllegalActionError.
- ``actions``: ``"flat"`` or ``"factored"``; the default is the game's (factored above
  ``table.FLAT_ACTIONS_MAX`` flat codes: Mothership; flat for the others).

Flat: the observation is the game's tensor (values in [0, 1]); actions are the game's codes,
``Discrete(game.actions.size)``. Factored (:mod:`spacetable.interop.factored`): actions are
the steps of a decision, ``Discrete(width)``, and the observation is
``{"observation": the tensor, "decision": the steps chosen so far}``. Either way
``info["action_mask"]`` (and :meth:`SoloEnv.action_masks`, as sb3-contrib's MaskablePPO asks)
marks the legal actions or steps. Chance is drawn from the environment's generator. Each id is
registered with ``max_episode_steps`` (:func:`episode_steps`). ``render()`` gives the game as
text (render modes ``ansi``: returned, ``human``: printed).
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from spacetable.engine import JSON, Game, State, list_games, load_finite

from .factored import FactoredCodec, SeatActions
from .sequential import load_game
from .table import RENDER_MODES, Table, check_render_mode, refusal_info

Observation = npt.NDArray[np.float32] | dict[str, Any]
"""The tensor (flat actions), or the tensor and the steps chosen so far (factored)."""


def env_id(game_id: str) -> str:
    """The Gymnasium id of a solo game: ``spacetable/FallingSkies-v0``."""
    return f"spacetable/{''.join(word.capitalize() for word in game_id.split('-'))}-v0"


class SoloEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game played solo; see the module's docstring."""

    # Gymnasium reads it from the class (as a mutable dict); its checker wants a frame rate
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        reward: str = "win",
        illegal_reward: float | None = 0.0,
        actions: str | None = None,
        **options: JSON,
    ) -> None:
        check_render_mode(render_mode)
        self.game = load_game(game_id, 1, options)
        self.render_mode = render_mode
        self.table = Table(self.game, together=False, reward=reward, illegal_reward=illegal_reward)
        self.seat_actions = SeatActions(self.game, actions)
        """Flat or factored: the spaces, masks and observations."""
        self.observation_space = self.seat_actions.observation_space
        self.action_space = self.seat_actions.action_space
        self._tensor = np.zeros(self.game.observation_shape(), np.float32)
        """The tensor of the position, copied into each observation."""

    def factor_actions(self) -> None:
        """Take factored actions from now on (what ``actions="factored"`` and
        ``interop.factored.FactoredActions`` do); the next reset starts a decision."""
        self.seat_actions.factor()
        self.observation_space = self.seat_actions.observation_space
        self.action_space = self.seat_actions.action_space

    @property
    def engine_state(self) -> State:
        """The true spacetable state (for a spacetable bot, see ``sequential.choose_code``)."""
        return self.table.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game; ``options`` are not used (the game's options are given to ``make``)."""
        super().reset(seed=seed)
        self.table.reset(int(self.np_random.integers(2**63)))
        self._tensor = self.table.observation(0)
        self.seat_actions.restart()
        if self.render_mode == "human":
            self.render()
        return self._observation(), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the action (flat), or take a step of the decision and play it at its last
        (factored); an illegal one is refused (see the module's docstring)."""
        moved, error = self.seat_actions.take(self.table, 0, operator.index(action))
        if moved:
            self._tensor = self.table.observation(0)
        info = {"action_mask": self.action_masks(), **refusal_info(error)}
        if self.render_mode == "human":
            self.render()
        return self._observation(), self.table.rewards()[0], self.table.state.is_terminal(), False, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for each legal action code (or factored, each legal value of the step) now; all 1
        once the game is over (``SeatActions.mask``)."""
        return self.seat_actions.mask(self.table, 0)

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def _observation(self) -> Observation:
        return self.seat_actions.observation(self._tensor)


def episode_steps(game: Game) -> int:
    """The ``max_episode_steps`` an id is registered with: the game's bound on its actions
    (``Game.bounded_length``, chance included, at the default options made finite) times the
    most steps a factored action takes, so that no episode of legal steps is ever cut, flat or
    factored; only an agent whose illegal actions are refused can reach it. Options that
    lengthen the game need a larger ``max_episode_steps`` given to ``make``."""
    return game.bounded_length() * FactoredCodec(game).depth


def register_solo_games() -> list[str]:
    """Register every solo-capable spacetable game not yet known to Gymnasium; returns the ids
    registered. Importing this module calls it; call it again for games registered since."""
    added = []
    for game_class in list_games():
        name = env_id(game_class.id)
        if game_class.min_players == 1 and name not in gymnasium.registry:
            gymnasium.register(
                name,
                entry_point=f"{__name__}:SoloEnv",
                kwargs={"game_id": game_class.id},
                max_episode_steps=episode_steps(load_finite(game_class.id, 1)),
            )
            added.append(name)
    return added


register_solo_games()
