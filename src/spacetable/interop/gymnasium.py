"""Every registered game that can be played solo as a Gymnasium environment. Importing this
module registers them, ``spacetable/<Name>-v0`` with the game id in CamelCase::

    import gymnasium
    import spacetable.interop.gymnasium
    env = gymnasium.make("spacetable/FallingSkies-v0", level=1, reward="shaped")

(or ``gymnasium.make("spacetable.interop.gymnasium:spacetable/FallingSkies-v0")``, which imports
it). Keywords are the game's options, and:

- ``reward``: ``"win"`` (default), ``returns()`` when the game ends (a win is 1); ``"shaped"``,
  that plus the change in the game's progress measure after every step (``Game.progress``).
- ``illegal_reward``: None (default), an action outside the mask raises IllegalActionError and
  changes nothing; a number (a penalty such as -0.1), the action is skipped, the step gives that
  reward and ``info["illegal_action"] = True``.

The observation is the game's tensor (values in [0, 1]); actions are the game's codes,
``Discrete(game.actions.size)``; ``info["action_mask"]`` (and :meth:`SoloEnv.action_masks`, as
sb3-contrib's MaskablePPO asks) marks the legal ones; a wrapper that masks its own way sets
``flat_masks = False`` and infos then carry none. Chance is drawn from the environment's
generator. Each id is registered with ``max_episode_steps`` (:func:`episode_steps`).
``render()`` gives the game as text (render modes ``ansi``: returned, ``human``: printed).
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from spacetable.engine import JSON, Game, State, list_games, load_finite

from .sequential import load_game
from .table import RENDER_MODES, Table, check_render_mode

Observation = npt.NDArray[np.float32]


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
        illegal_reward: float | None = None,
        **options: JSON,
    ) -> None:
        check_render_mode(render_mode)
        self.game = load_game(game_id, 1, options)
        self.render_mode = render_mode
        self.table = Table(self.game, together=False, reward=reward, illegal_reward=illegal_reward)
        self.observation_space = spaces.Box(0.0, 1.0, self.game.observation_shape(), np.float32)
        self.action_space = spaces.Discrete(self.game.actions.size)
        self.flat_masks = True
        """Whether infos carry the flat ``action_mask`` (a wrapper that masks otherwise, such
        as ``interop.factored``'s, turns it off rather than have it built and thrown away)."""

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
        if self.render_mode == "human":
            self.render()
        return self.table.observation(0), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        info = self._info(illegal=not self.table.play(0, operator.index(action)))
        over = self.table.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return self.table.observation(0), self.table.rewards()[0], over, False, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for each legal action code now. Once the game is over, all 1: the step a vector
        environment spends on its autoreset ignores the action, and a mask of zeros would leave
        masked sampling nothing to choose from."""
        if self.table.state.is_terminal():
            return np.ones(self.game.actions.size, dtype=np.int8)
        return self.table.action_mask(0)

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        """The step's info: the flat mask (while ``flat_masks``), and whether the action was skipped."""
        info: dict[str, Any] = {"action_mask": self.action_masks()} if self.flat_masks else {}
        if illegal:
            info["illegal_action"] = True
        return info


def episode_steps(game: Game) -> int:
    """The ``max_episode_steps`` an id is registered with: the game's bound on its actions
    (``Game.bounded_length``, chance included, at the default options made finite), so that no
    episode of legal actions is ever cut; only an agent whose illegal actions are skipped
    (``illegal_reward``) can reach it. Options that lengthen the game need a larger
    ``max_episode_steps`` given to ``make``."""
    return game.bounded_length()


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
