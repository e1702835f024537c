"""A factored action space: one decision as a few small choices, each with its own mask.

A game's flat codec (``game.actions``, what OpenSpiel uses) numbers every action of every
family: Mothership's runs to 191,814-539,014 codes with a dozen or so legal at a time. Here an
action is chosen in steps (``ActionSpace.parts``): first its family (move, attack, play a
card, set the energy...), then each of its fields in order: a move's ship, then its
destination; an attack's ships, then its target; a card, then its unit, then its spot; the
control panel's engines, then weapons, then shields. Every step is a choice among at most
``width`` values, and its mask marks exactly the values that some legal action continues with,
so every sequence the masks allow ends in one legal action and every legal action has one
sequence. The engine applies the action when its last step is chosen.

- :class:`FactoredCodec`: the steps of a game (``width``, ``depth``), the mask of the next step
  after a prefix, and the flat code a finished sequence stands for.
- :class:`FactoredActions` (Gymnasium) and :class:`FactoredAECWrapper` (PettingZoo, turn-based)
  wrap a spacetable environment: actions are ``Discrete(width)``, the observation is
  ``{"observation": the game's tensor, "decision": the steps chosen so far}`` (``depth`` rows
  of ``width``, one-hot), ``action_mask`` (and ``action_masks()``) is the mask of the step to
  choose now. A step outside the mask raises ValueError and changes nothing. Until the last
  step the game does not move: the reward is 0 and the same agent chooses again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from spacetable.engine import Game, State

from .gymnasium import SoloEnv

Mask = npt.NDArray[np.int8]


class FactoredCodec:
    """The factored steps of one game's actions."""

    def __init__(self, game: Game) -> None:
        self.game = game
        actions = game.actions
        self.fields = actions.part_sizes
        """Per family, the size of each field's domain."""
        chosen = [sizes for kind, sizes in zip(actions.kinds, self.fields) if kind not in actions.chance_kinds]
        self.depth = 1 + max(len(sizes) for sizes in chosen)
        """The most steps one action of a seat takes (the family, then its fields)."""
        self.width = max(len(self.fields), *(size for sizes in chosen for size in sizes))
        """The most values one step of a seat chooses from (chance's families, which the game
        may declare, left out)."""

    def mask(self, legal: Sequence[tuple[int, ...]], prefix: Sequence[int]) -> Mask:
        """1 for each value of the next step that some legal action continues ``prefix`` with."""
        mask = np.zeros(self.width, dtype=np.int8)
        k, start = len(prefix), tuple(prefix)
        mask[[parts[k] for parts in legal if len(parts) > k and parts[:k] == start]] = 1
        return mask

    def finished(self, prefix: Sequence[int]) -> bool:
        """Whether ``prefix`` names a family and every one of its fields."""
        return bool(prefix) and len(prefix) == 1 + len(self.fields[prefix[0]])

    def code(self, parts: Sequence[int]) -> int:
        """The flat code of the action a finished sequence stands for."""
        actions = self.game.actions
        return actions.encode(actions.from_parts(parts))

    def decision(self, prefix: Sequence[int]) -> npt.NDArray[np.float32]:
        """The steps chosen so far, one-hot: row ``i`` marks step ``i`` (all 0 beyond the prefix)."""
        rows = np.zeros((self.depth, self.width), dtype=np.float32)
        rows[np.arange(len(prefix)), list(prefix)] = 1.0
        return rows.ravel()

    def decision_space(self) -> spaces.Box:
        return spaces.Box(0.0, 1.0, (self.depth * self.width,), np.float32)


class _Chooser:
    """What both wrappers share: the prefix chosen so far by the seat that decides, and the
    masks of the decision (each worked out once)."""

    def __init__(self, game: Game) -> None:
        self.codec = FactoredCodec(game)
        self.prefix: list[int] = []
        self._decision: tuple[Sequence[Any], list[tuple[int, ...]], dict[tuple[int, ...], Mask]] = ((), [], {})

    def mask(self, state: State, seat: int) -> Mask:
        """The mask of ``seat``'s next step (a read-only array)."""
        actions = state.legal_actions(seat)  # one list until the state moves
        if self._decision[0] is not actions:
            parts = self.codec.game.actions.parts
            self._decision = (actions, [parts(action) for action in actions], {})
        _, legal, masks = self._decision
        prefix = tuple(self.prefix)
        mask = masks.get(prefix)
        if mask is None:
            mask = masks[prefix] = self.codec.mask(legal, prefix)
            mask.flags.writeable = False
        return mask

    def choose(self, state: State, seat: int, value: int) -> int | None:
        """Take the step ``value``: the flat code once the sequence is finished (the prefix
        starts again), else None. ValueError, changing nothing, for a value outside the mask."""
        mask = self.mask(state, seat)
        if not 0 <= value < len(mask) or not mask[value]:
            legal = np.flatnonzero(mask).tolist()
            raise ValueError(f"step {len(self.prefix)} of the decision: {value} is not allowed now; allowed: {legal}")
        prefix = [*self.prefix, value]
        if not self.codec.finished(prefix):
            self.prefix = prefix
            return None
        self.prefix = []
        return self.codec.code(prefix)


class FactoredActions(gymnasium.Wrapper[dict[str, Any], np.int64, npt.NDArray[np.float32], np.int64]):
    """A spacetable Gymnasium environment (``gymnasium.make("spacetable/Mothership-v0")``)
    choosing each action in factored steps; see the module's docstring."""

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)  # Gymnasium types a wrapper's env with the wrapper's own spaces
        solo = env.unwrapped
        if not isinstance(solo, SoloEnv):
            raise TypeError(f"FactoredActions wraps a spacetable environment, not {type(solo).__name__}")
        solo.flat_masks = False  # this wrapper gives the masks
        self._chooser = _Chooser(solo.game)
        codec = self._chooser.codec
        self.action_space = spaces.Discrete(codec.width)
        self.observation_space = spaces.Dict({"observation": env.observation_space, "decision": codec.decision_space()})
        self._tensor: npt.NDArray[np.float32] = np.zeros(env.observation_space.shape or (), np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        tensor, info = self.env.reset(seed=seed, options=options)
        self._tensor = cast(npt.NDArray[np.float32], tensor)
        self._chooser.prefix = []
        return self._observation(), {**info, "action_mask": self.action_masks()}

    def step(self, action: np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        code = self._chooser.choose(self._state, 0, int(action))
        if code is None:
            return self._observation(), 0.0, False, False, {"action_mask": self.action_masks()}
        tensor, reward, over, cut, info = self.env.step(np.int64(code))
        self._tensor = cast(npt.NDArray[np.float32], tensor)
        return self._observation(), float(reward), over, cut, {**info, "action_mask": self.action_masks()}

    def action_masks(self) -> Mask:
        """The mask of the step to choose now (all 0 once the game is over)."""
        state = self._state
        if state.is_terminal():
            return np.zeros(self._chooser.codec.width, dtype=np.int8)
        return self._chooser.mask(state, 0)

    @property
    def _state(self) -> State:
        state: State = self.env.unwrapped.engine_state  # type: ignore[attr-defined]  # a SoloEnv
        return state

    def _observation(self) -> dict[str, Any]:
        return {"observation": self._tensor, "decision": self._chooser.codec.decision(self._chooser.prefix)}


class FactoredAECWrapper(BaseWrapper):  # type: ignore[misc]  # pettingzoo has no type stubs
    """A spacetable PettingZoo turn-based environment (``pettingzoo.env("mothership",
    players=4)``) choosing each action in factored steps; see the module's docstring. Between
    steps of one decision the same agent is selected, and every reward is 0."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        env.unwrapped.flat_masks = False  # this wrapper gives the masks
        self._chooser = _Chooser(env.unwrapped.table.game)
        codec = self._chooser.codec
        self._spaces = {
            agent: (
                spaces.Discrete(codec.width),
                spaces.Dict({"observation": env.observation_space(agent), "decision": codec.decision_space()}),
            )
            for agent in env.possible_agents
        }
        self._idle = np.zeros(codec.width, dtype=np.int8)
        self._idle.flags.writeable = False
        self._choosing = False
        """True between the steps of one decision (the game has not moved)."""
        self._moves = 0
        """Actions the game has taken since the wrapper was made (the tensors' position)."""
        self._tensors: tuple[int, dict[str, npt.NDArray[np.float32]]] = (-1, {})
        self._infos: tuple[Any, tuple[str, tuple[int, ...]], dict[str, dict[str, Any]]] = (None, ("", ()), {})
        """The infos last made: for the environment's infos, at (agent, prefix)."""

    @property
    def chosen(self) -> tuple[int, ...]:
        """The steps the selected agent has chosen so far in its decision (empty at its start)."""
        return tuple(self._chooser.prefix)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._chooser.prefix = []
        self._choosing = False
        self._moves += 1
        self.env.reset(seed=seed, options=options)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent][0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent][1]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's tensor (worked out once per position: the steps of a decision share
        one read-only array) and the steps it has chosen so far."""
        if self._tensors[0] != self._moves:
            self._tensors = (self._moves, {})
        tensors = self._tensors[1]
        if agent not in tensors:
            tensor = tensors[agent] = self.env.observe(agent)
            tensor.flags.writeable = False  # shared by the steps of a decision
        prefix = self._chooser.prefix if agent == self.env.agent_selection else []
        return {"observation": tensors[agent], "decision": self._chooser.codec.decision(prefix)}

    def step(self, action: Any) -> None:
        agent = self.env.agent_selection
        if self.env.terminations[agent] or self.env.truncations[agent]:
            self._moves += 1
            self.env.step(action)
            return
        seat = self.env.possible_agents.index(agent)
        code = self._chooser.choose(self.env.unwrapped.engine_state, seat, int(action))
        self._choosing = code is None
        if code is not None:
            self._moves += 1
            self.env.step(code)

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """The environment's infos, each ``action_mask`` the mask of the agent's next step (one
        dict per step of a decision, the same however often asked)."""
        inner, selected = self.env.infos, self.env.agent_selection
        key = (selected, tuple(self._chooser.prefix))
        if self._infos[0] is not inner or self._infos[1] != key:
            state = self.env.unwrapped.engine_state
            infos = {}
            for agent, info in inner.items():
                mask = self._idle
                if agent == selected and not state.is_terminal():
                    seat = self.env.possible_agents.index(agent)
                    mask = self._chooser.mask(state, seat)
                infos[agent] = {**info, "action_mask": mask}
            self._infos = (inner, key, infos)
        return self._infos[2]

    @property
    def rewards(self) -> dict[str, float]:
        rewards: dict[str, float] = self.env.rewards
        return dict.fromkeys(rewards, 0.0) if self._choosing else rewards

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        cumulative: dict[str, float] = self.env._cumulative_rewards
        if self._choosing:  # the selected agent's reward was given at its first step
            return {**cumulative, self.env.agent_selection: 0.0}
        return cumulative
