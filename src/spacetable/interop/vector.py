"""Many games of one solo game stepped in one call: a Gymnasium vector environment.

``SoloVectorEnv("falling-skies", num_envs=32, level=1)`` plays 32 games of a game that can be
played solo (``min_players == 1``, the games :mod:`spacetable.interop.gymnasium` registers) in
this process. It gives what ``gymnasium.vector.SyncVectorEnv`` over as many
``gymnasium.make("spacetable/<Name>-v0", ...)`` environments gives, step for step (the tests
compare them), without a wrapper stack per game:

- **Arrays.** Observations are written into one float32 array ``(num_envs, *shape)``, the
  masks into one int8 array ``(num_envs, game.actions.size)`` (:meth:`SoloVectorEnv.action_masks`,
  the array itself, rewritten by the next step), rewards (float64), terminations and
  truncations are arrays of ``num_envs``. ``copy=False`` hands out the arrays themselves, which
  the next call overwrites; the default hands out copies of all but the masks.
- **Actions** are one flat action code per game (``MultiDiscrete``; the games' flat codecs,
  Mothership's too: ``gymnasium.make(..., actions="flat")``). Anything but an integer array of
  shape ``(num_envs,)`` raises ValueError before any game moves.
- **Seeding.** ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (a list gives each its own),
  as ``SyncVectorEnv`` does for its sub-environments; each game is a ``SoloEnv`` reset with
  that seed, so game ``i`` is the game ``gymnasium.make(...).reset(seed=s + i)`` plays.
- **Autoreset: next step** (``metadata["autoreset_mode"]``, Gymnasium's default). The step
  that ends a game returns its last observation, its reward and ``terminated`` or
  ``truncated``; the next step ignores that game's action and starts its next game (reward 0,
  neither flag). Meanwhile an ended game's mask is all 1, as ``SoloEnv.action_masks``.
- **Truncation** after ``max_episode_steps`` steps of a game (default: the id's registered
  value, as ``gymnasium.make`` applies it), counted as Gymnasium's ``TimeLimit`` counts them.
- **Illegal actions** follow :mod:`spacetable.interop.table`'s policy: with a number for
  ``illegal_reward`` (default 0.0) the game does not move, the step pays that reward and the
  infos say so; with None (strict) IllegalActionError naming the game is raised before any
  game moves.

Infos are Gymnasium's vector dict: for the games whose action was refused, ``illegal_action``
and ``error`` (each with its ``_key`` mask), nothing else. The masks are not in the infos: ask
:meth:`SoloVectorEnv.action_masks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from spacetable.engine import JSON, IllegalActionError, game_class, list_games

from .gymnasium import SoloEnv, episode_steps
from .sequential import load_game
from .table import refusal_info

Observations = npt.NDArray[np.float32]
Codes = npt.NDArray[np.int64]


class SoloVectorEnv(VectorEnv[Observations, Codes, npt.NDArray[Any]]):
    """``num_envs`` games of one solo game; see the module's docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        reward: str = "win",
        illegal_reward: float | None = 0.0,
        max_episode_steps: int | None = None,
        copy: bool = True,
        actions: str = "flat",
        **options: JSON,
    ) -> None:
        if actions != "flat":
            raise ValueError(f"SoloVectorEnv takes flat action codes only (actions='flat'), not actions={actions!r}")
        if game_class(game_id).min_players != 1:
            solo = ", ".join(cls.id for cls in list_games() if cls.min_players == 1)
            raise ValueError(f"{game_id} cannot be played solo; the solo games are: {solo}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of games, at least 1, not {num_envs!r}")
        self.envs = [
            SoloEnv(game_id, reward=reward, illegal_reward=illegal_reward, actions=actions, **options)
            for _ in range(num_envs)
        ]
        """One ``SoloEnv`` per game: reset through it, stepped through its ``table`` (read its
        ``engine_state``; do not step it yourself)."""
        self.tables = [env.table for env in self.envs]
        self.num_envs = num_envs
        self.max_episode_steps = (
            episode_steps(load_game(game_id, 1, {})) if max_episode_steps is None else max_episode_steps
        )
        """Steps of a game before it is truncated; by default the id's registered value."""
        self.copy = copy
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        game = self.envs[0].game
        self._observations = np.zeros((num_envs, *game.observation_shape()), dtype=np.float32)
        self._masks = np.zeros((num_envs, game.actions.size), dtype=np.int8)
        self._marked: list[list[int] | None] = [[] for _ in range(num_envs)]
        """The codes set to 1 in each row of the masks (None: the whole row), to clear them."""
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        """The games that start again at the next step (autoreset)."""
        self._steps = [0] * num_envs

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """New games: game ``i`` seeded with ``seed + i`` (or ``seed[i]``; None: carry on with
        its generator). ``options`` are not used (the game's options are given to the constructor)."""
        seeds = self._seeds(seed)
        for index, game_seed in enumerate(seeds):
            self._start(index, game_seed)
        self._terminations[:] = False
        self._truncations[:] = False
        self._ended[:] = False
        return self._handed(self._observations), {}

    def step(
        self, actions: Any
    ) -> tuple[Observations, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Play each game's action (or start its next game, for a game the last step ended)."""
        codes = self._checked(actions)
        if self.tables[0].illegal_reward is None:
            self._refuse_illegal(codes)
        infos: dict[str, Any] = {}
        for index, (table, code) in enumerate(zip(self.tables, codes.tolist())):
            if self._ended[index]:
                self._start(index, None)
                self._rewards[index] = 0.0
                self._terminations[index] = self._truncations[index] = False
                continue
            error = table.play(0, code)
            if error is None:
                self._observations[index] = table.observation(0)
                self._mark(index)
            else:
                infos = self._add_info(infos, refusal_info(error), index)
            self._rewards[index] = table.rewards()[0]
            self._steps[index] += 1
            self._terminations[index] = table.state.is_terminal()
            self._truncations[index] = self._steps[index] >= self.max_episode_steps
        np.logical_or(self._terminations, self._truncations, out=self._ended)
        handed = self._handed
        return (
            handed(self._observations),
            handed(self._rewards),
            handed(self._terminations),
            handed(self._truncations),
            infos,
        )

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The masks, ``(num_envs, actions)``: 1 for each legal code of each game (all 1 for a game
        that has just ended). The array itself, rewritten by the next step or reset."""
        return self._masks

    def _start(self, index: int, seed: int | None) -> None:
        observation, _ = self.envs[index].reset(seed=seed)
        self._observations[index] = cast(Observations, observation)  # flat actions: the tensor
        self._steps[index] = 0
        self._mark(index)

    def _mark(self, index: int) -> None:
        """Write game ``index``'s mask into its row, clearing only what was marked before."""
        row, marked, table = self._masks[index], self._marked[index], self.tables[index]
        if marked is None:
            row.fill(0)
        else:
            row[marked] = 0
        if table.state.is_terminal():
            row.fill(1)
            self._marked[index] = None
        else:
            codes = table.legal_codes(0)
            row[codes] = 1
            self._marked[index] = codes

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int):
            return [seed + index for index in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed must be an int, None or {self.num_envs} seeds (one per game), not {len(seeds)}")
        return seeds

    def _checked(self, actions: Any) -> Codes:
        codes = np.asarray(actions)
        if codes.shape != (self.num_envs,) or codes.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integer action codes, one per game (shape ({self.num_envs},)), "
                f"not {codes.dtype} of shape {codes.shape}"
            )
        return codes.astype(np.int64, copy=False)

    def _refuse_illegal(self, codes: Codes) -> None:
        """Raise IllegalActionError before any game moves if a game that plays gets an illegal code."""
        size = self._masks.shape[1]
        allowed = self._ended | ((codes >= 0) & (codes < size))
        playing = np.flatnonzero(~self._ended & allowed)
        allowed[playing] = self._masks[playing, codes[playing]] == 1
        if allowed.all():
            return
        index = int(np.flatnonzero(~allowed)[0])
        legal = int(self._masks[index].sum())
        raise IllegalActionError(
            f"game {index}: action {codes[index]} is not legal now (its mask allows {legal} codes); no game moved"
        )

    def _handed(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array
