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
- :class:`Chooser`: the steps one seat has chosen so far in its decision.
- Environments: Gymnasium's ``SoloEnv`` and PettingZoo's ``env`` and ``parallel_env`` take
  ``actions="factored"`` (the default of a game with more than ``table.FLAT_ACTIONS_MAX`` flat
  codes: Mothership); :class:`FactoredActions` (Gymnasium), :class:`FactoredAECWrapper` and
  :class:`FactoredParallelWrapper` (PettingZoo) make a flat environment factored. Actions are
  ``Discrete(width)``, the observation is ``{"observation": the game's tensor, "decision": the
  steps chosen so far}`` (``depth`` rows of ``width``, one-hot), ``action_mask`` (and
  ``action_masks()``) is the mask of the step to choose now. Until the last step the game does
  not move: the reward is 0 and the same agent chooses again. A step outside the mask is
  refused as any illegal action is (``interop.table``): nothing changes, the step pays
  ``illegal_reward`` and the info says so, or in strict mode it raises IllegalActionError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import BaseParallelWrapper, BaseWrapper

from spacetable.engine import Game, State

from .table import Table, actions_for, legal_summary

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


class Chooser:
    """The steps one seat has chosen so far in its decision, and the masks of that decision
    (each worked out once)."""

    def __init__(self, codec: FactoredCodec) -> None:
        self.codec = codec
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

    def choose(self, table: Table, seat: int, value: int) -> tuple[int | None, str | None]:
        """Take the step ``value`` for ``seat`` (the seat that may act now): (the flat code,
        None) once the sequence is finished (the prefix starts again), (None, None) before. A
        value outside the mask is refused by ``table.refuse``: (None, the error line), the
        prefix kept (or IllegalActionError in strict mode)."""
        mask = self.mask(table.state, seat)
        if not 0 <= value < len(mask) or not mask[value]:
            legal = legal_summary(np.flatnonzero(mask).tolist(), "action_mask")
            decision = f"step {len(self.prefix)} of seat {seat}'s decision (chosen so far: {self.prefix})"
            error = f"{decision}: {value} is not legal now: {legal}"
            return None, table.refuse(seat, error)
        prefix = [*self.prefix, value]
        if not self.codec.finished(prefix):
            self.prefix = prefix
            return None, None
        self.prefix = []
        return self.codec.code(prefix), None

    def observation(self, tensor: npt.NDArray[np.float32]) -> dict[str, Any]:
        """The factored observation: ``tensor`` and the steps chosen so far."""
        return {"observation": tensor, "decision": self.codec.decision(self.prefix)}


def observation_space(codec: FactoredCodec, tensor: spaces.Space[Any]) -> spaces.Dict:
    """The space of :meth:`Chooser.observation` around the game's ``tensor`` space."""
    return spaces.Dict({"observation": tensor, "decision": codec.decision_space()})


class SeatActions:
    """How an environment of one seat's decisions (``SoloEnv``, ``SelfPlayEnv``) takes them,
    flat or factored (``actions`` as :func:`table.actions_for` reads it): its action and
    observation spaces, the mask of now, the observation around the seat's tensor, and a step's
    value played."""

    def __init__(self, game: Game, actions: str | None) -> None:
        self.game = game
        self.chooser: Chooser | None = None
        """The steps of the decision under way, with factored actions (None: flat)."""
        self.observation_space: spaces.Space[Any] = spaces.Box(0.0, 1.0, game.observation_shape(), np.float32)
        self.action_space = spaces.Discrete(game.actions.size)
        if actions_for(game, actions) == "factored":
            self.factor()

    def factor(self) -> None:
        """Take factored actions from now on (the spaces change with it)."""
        if self.chooser is None:
            codec = FactoredCodec(self.game)
            self.chooser = Chooser(codec)
            self.action_space = spaces.Discrete(codec.width)
            self.observation_space = observation_space(codec, self.observation_space)

    @property
    def depth(self) -> int:
        """The most steps one action takes."""
        return 1 if self.chooser is None else self.chooser.codec.depth

    def restart(self) -> None:
        """Forget the steps chosen so far (a new game)."""
        if self.chooser is not None:
            self.chooser.prefix = []

    def take(self, table: Table, seat: int, value: int) -> tuple[bool, str | None]:
        """``seat``'s action ``value`` (flat), or step (factored: the action is played at the
        decision's last step): (whether the game moved, the refusal's error line or None)."""
        code, error = (value, None) if self.chooser is None else self.chooser.choose(table, seat, value)
        if code is None:
            return False, error
        error = table.play(seat, code)
        return error is None, error

    def mask(self, table: Table, seat: int) -> Mask:
        """1 for each legal action code (or factored, each legal value of the step) of ``seat``
        now, a new array. Once the game is over, all 1: the step a vector environment spends on
        its autoreset ignores the action, and a mask of zeros would leave masked sampling nothing
        to choose from."""
        if table.state.is_terminal():
            return np.ones(int(self.action_space.n), dtype=np.int8)
        if self.chooser is not None:
            return self.chooser.mask(table.state, seat).copy()
        return table.action_mask(seat)

    def observation(self, tensor: npt.NDArray[np.float32]) -> npt.NDArray[np.float32] | dict[str, Any]:
        """A new copy of ``tensor`` (Gymnasium wants no two observations to share data), with
        the steps chosen so far when factored."""
        copy = tensor.copy()
        return copy if self.chooser is None else self.chooser.observation(copy)


class FactoredActions(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Makes a flat spacetable Gymnasium environment factored: the same as making it with
    ``actions="factored"``. It switches the environment it wraps (``SoloEnv.factor_actions``)
    and then passes everything through, so ``env.unwrapped`` is factored too."""

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        from .gymnasium import SoloEnv  # imported here: the gymnasium module imports this one

        solo = env.unwrapped
        if not isinstance(solo, SoloEnv):
            raise TypeError(f"FactoredActions wraps a spacetable environment, not {type(solo).__name__}")
        solo.factor_actions()
        super().__init__(env)


def _turn_off_flat_masks(env: AECEnv | ParallelEnv) -> Table:
    """The table of a spacetable PettingZoo environment, whose infos then carry no flat mask
    (a factored wrapper gives the masks rather than have 300k-entry ones built and thrown away)."""
    inner = env.unwrapped
    if not inner.flat_masks:
        raise ValueError(
            f"{inner.metadata['name']} takes factored actions already (make it with actions='flat' to wrap it)"
        )
    inner.flat_masks = False
    table: Table = inner.table
    return table


class FactoredAECWrapper(BaseWrapper):  # type: ignore[misc]  # pettingzoo has no type stubs
    """A spacetable PettingZoo turn-based environment (``pettingzoo.env("mothership",
    players=4, actions="flat")``) choosing each action in factored steps; see the module's
    docstring. Between steps of one decision the same agent is selected, and every reward is 0;
    every step counts towards ``max_cycles``."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._table = _turn_off_flat_masks(env)
        self._chooser = Chooser(FactoredCodec(self._table.game))
        codec = self._chooser.codec
        self._spaces = {
            agent: (spaces.Discrete(codec.width), observation_space(codec, env.observation_space(agent)))
            for agent in env.possible_agents
        }
        self._idle = np.zeros(codec.width, dtype=np.int8)
        self._idle.flags.writeable = False
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
        if agent == self.env.agent_selection:
            return self._chooser.observation(tensors[agent])
        return {"observation": tensors[agent], "decision": self._chooser.codec.decision(())}

    def step(self, action: Any) -> None:
        agent = self.env.agent_selection
        if self.env.terminations[agent] or self.env.truncations[agent]:
            self._moves += 1
            self.env.step(action)
            return
        seat = self.env.possible_agents.index(agent)
        code, error = self._chooser.choose(self._table, seat, int(action))
        if code is None:  # a step within the decision, or a refused one: the game does not move
            self.env.unwrapped.settle(agent, error)
        else:
            self._moves += 1
            self.env.step(code)

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """The environment's infos, each ``action_mask`` the mask of the agent's next step (one
        dict per step, the same however often asked)."""
        inner, selected = self.env.infos, self.env.agent_selection
        key = (selected, tuple(self._chooser.prefix))
        if self._infos[0] is not inner or self._infos[1] != key:
            state = self._table.state
            infos = {}
            for agent, info in inner.items():
                mask = self._idle
                if agent == selected and not state.is_terminal():
                    mask = self._chooser.mask(state, self.env.possible_agents.index(agent))
                infos[agent] = {**info, "action_mask": mask}
            self._infos = (inner, key, infos)
        return self._infos[2]


class FactoredParallelWrapper(BaseParallelWrapper):  # type: ignore[misc]  # pettingzoo has no type stubs
    """A spacetable PettingZoo parallel environment (``pettingzoo.parallel_env("mothership",
    actions="flat")``) choosing each action in factored steps; see the module's docstring.
    Every agent that may act takes one step of its own decision per environment step; an
    agent's action is applied at its last step (a draft round ends once every seat's is).
    Every step counts towards ``max_cycles``."""

    def __init__(self, env: ParallelEnv) -> None:
        super().__init__(env)
        self._table = _turn_off_flat_masks(env)
        codec = FactoredCodec(self._table.game)
        self._choosers = [Chooser(codec) for _ in env.possible_agents]
        self._spaces = {
            agent: (spaces.Discrete(codec.width), observation_space(codec, env.observation_space(agent)))
            for agent in env.possible_agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        for chooser in self._choosers:
            chooser.prefix = []
        observations, infos = self.env.reset(seed=seed, options=options)
        return self._factored(observations, infos)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent][0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent][1]

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """One step of the decision of every agent that may act now (the others' are ignored)."""
        errors = {}
        table = self._table
        for seat in table.acting():
            agent = self.env.possible_agents[seat]
            if agent in actions:
                code, error = self._choosers[seat].choose(table, seat, int(actions[agent]))
                if code is not None:
                    error = table.play(seat, code)
                if error is not None:
                    errors[agent] = error
        observations, rewards, terminations, truncations, infos = self.env.unwrapped.settle(errors)
        observed, infos = self._factored(observations, infos)
        return observed, rewards, terminations, truncations, infos

    def _factored(self, observations: dict[str, Any], infos: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The observations with each agent's steps chosen so far, and the infos with each
        agent's ``action_mask`` the mask of its next step (0 while it waits)."""
        table, seats = self._table, self.env.possible_agents.index
        acting = table.acting()
        observed, factored = {}, {}
        for agent, tensor in observations.items():
            seat = seats(agent)
            chooser = self._choosers[seat]
            observed[agent] = chooser.observation(tensor)
            if seat in acting:
                mask = chooser.mask(table.state, seat).copy()
            else:
                mask = np.zeros(chooser.codec.width, dtype=np.int8)
            factored[agent] = {**infos[agent], "action_mask": mask}
        return observed, factored
