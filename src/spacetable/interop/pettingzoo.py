"""Every registered game as a PettingZoo environment, agents ``player_0``, ``player_1``...

- :func:`env` is turn-based (AEC): the agent selected is the seat that decides; seats deciding
  at once (a showdown draft) are selected one after another, lowest first
  (:mod:`spacetable.interop.sequential`).
- :func:`parallel_env` lets every seat that decides now act in the same step, so a draft round
  is one step; the other agents' actions are ignored.
- :func:`game_module` gives a game as a module the way PettingZoo lays out its own
  environments (``env`` and ``parallel_env``), for tests that take one (``max_cycles_test``).

``max_cycles`` truncates the game after that many cycles: steps of the parallel environment,
and for the turn-based one as many steps as it has agents per cycle. ``reward`` is ``"win"``
(default: the game's ``returns()`` when it ends) or ``"shaped"`` (that plus the change in each
seat's ``Game.progress`` after every step). ``illegal_reward`` (default 0.0) is what an illegal
action earns: it changes nothing, the agent is asked again, with
``infos[agent]["illegal_action"] = True`` and ``infos[agent]["error"]`` saying why; None makes
it raise IllegalActionError instead (``interop.table``'s policy, the same in Gymnasium).

``actions`` is ``"flat"`` or ``"factored"`` (``interop.factored``); the default is the game's:
factored above ``table.FLAT_ACTIONS_MAX`` flat codes (Mothership), else flat. Flat: actions are
the game's codes (``Discrete(game.actions.size)``), an observation is the game's tensor for the
agent's seat (values in [0, 1]), the same as OpenSpiel's and Gymnasium's,
``infos[agent]["action_mask"]`` has 1 for each action the agent may take now (all 0 while it
waits), and ``infos[agent]["legal_actions"]`` the codes of those actions, ascending (an agent
need not scan a mask of hundreds of thousands of entries for them). Factored: the wrappers of
``interop.factored`` around the flat environment (``env.unwrapped``).

``state()`` is the global state for centralised critics (``state_space``: a Box in [0, 1]):
every seat's tensor, seat 0 first, from the TRUE state, so for training only, never for a
policy that acts. Chance is drawn from the generator seeded by ``reset(seed)``. ``render()``
gives the spectator's view as text (render modes ``ansi``: returned, ``human``: printed).
"""

from __future__ import annotations

import operator
import types
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import parallel_to_aec, wrappers

from spacetable.engine import JSON, State, game_class

from .factored import FactoredAECWrapper, FactoredParallelWrapper
from .sequential import load_game
from .table import RENDER_MODES, Table, actions_for, check_render_mode, refusal_info

Info = dict[str, Any]


def env(
    game_id: str, players: int | None = None, render_mode: str | None = None, actions: str | None = None, **kwargs: Any
) -> AECEnv:
    """The turn-based environment of a game: ``env("showdown", players=4)``; ``actions``,
    ``max_cycles``, ``reward``, ``illegal_reward`` and the game's options as keywords."""
    flat = GameAECEnv(game_id, players, render_mode, **kwargs)
    factored = actions_for(flat.table.game, actions) == "factored"
    return wrappers.OrderEnforcingWrapper(FactoredAECWrapper(flat) if factored else flat)


def parallel_env(
    game_id: str, players: int | None = None, render_mode: str | None = None, actions: str | None = None, **kwargs: Any
) -> ParallelEnv:
    """The parallel environment of a game: every seat that decides now acts in the same step."""
    flat = GameParallelEnv(game_id, players, render_mode, **kwargs)
    return FactoredParallelWrapper(flat) if actions_for(flat.table.game, actions) == "factored" else flat


def game_module(game_id: str, players: int | None = None, **kwargs: Any) -> types.ModuleType:
    """The game as a module laid out like PettingZoo's own environments
    (``pettingzoo.atari.pong_v3``), for the tests that take one, such as
    ``pettingzoo.test.max_cycles_test(game_module("showdown", players=4))``: its
    ``parallel_env(**more)`` is :func:`parallel_env` with ``players``, ``kwargs`` and ``more``,
    and its ``env(**more)`` that environment seen turn by turn, every agent once a cycle
    (``pettingzoo.utils.parallel_to_aec``, as PettingZoo's Atari games, parallel at heart,
    make their ``env``). It is not the turn-based :func:`env`, which asks only the seat that
    decides."""

    def parallel(**more: Any) -> ParallelEnv:
        return parallel_env(game_id, players, **{**kwargs, **more})

    def aec(**more: Any) -> AECEnv:
        return parallel_to_aec(parallel(**more))

    name = f"spacetable_{game_id.replace('-', '_')}_v0"
    module = types.ModuleType(name, f"{game_id} laid out as a PettingZoo environment module (game_module).")
    vars(module).update(parallel_env=parallel, env=aec)
    return module


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class _GameEnv:
    """What both environments share: the game at its table, the agents and their spaces,
    seeding, observations and rendering."""

    def __init__(
        self,
        game_id: str,
        players: int | None,
        render_mode: str | None,
        options: dict[str, JSON],
        together: bool,
        max_cycles: int | None,
        reward: str,
        illegal_reward: float | None,
    ) -> None:
        check_render_mode(render_mode)
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
        seats = game_class(game_id).usual_players(options) if players is None else players
        game = load_game(game_id, seats, options)
        self.table = Table(game, together, reward, illegal_reward)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": f"spacetable_{game.id}_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(game.players)]
        self.observation_spaces = {
            agent: spaces.Box(0.0, 1.0, game.observation_shape(), np.float32) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(game.actions.size) for agent in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (self.table.global_state_size(),), np.float32)
        """The space of :meth:`state`."""
        self._generator: np.random.Generator | None = None
        self._no_actions = np.zeros(game.actions.size, dtype=np.int8)
        self._no_actions.flags.writeable = False
        self.flat_masks = True
        """Whether infos carry the flat ``action_mask`` (a wrapper that masks otherwise, such
        as ``interop.factored``'s, turns it off rather than have it built and thrown away)."""

    @property
    def engine_state(self) -> State:
        """The true spacetable state (for a spacetable bot, see ``sequential.choose_code``)."""
        return self.table.state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> npt.NDArray[np.float32]:
        return self.table.observation(self.possible_agents.index(agent))

    def state(self) -> npt.NDArray[np.float32]:
        """The global state: every seat's observation tensor, seat 0 first, which together hold
        all that any seat knows. Built from the TRUE state: for a centralised critic in
        training (MAPPO), never for a policy that acts."""
        return self.table.global_state()

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def _new_game(self, seed: int | None) -> None:
        """A new game, its chance from the generator ``seed`` starts (None: the generator goes
        on, or starts unseeded)."""
        if seed is not None or self._generator is None:
            self._generator, _ = seeding.np_random(seed)
        self.table.reset(int(self._generator.integers(2**63)))

    def _info(self, agent: str, error: str | None = None) -> Info:
        """The agent's info; the mask is worked out only for a seat that may act now (the
        others share one read-only array of zeros); ``error``: why its action was refused."""
        info: Info = {}
        if self.flat_masks:
            seat = self.possible_agents.index(agent)
            if seat in self.table.acting():
                codes = self.table.legal_codes(seat)
                info["action_mask"] = self.table.action_mask(seat, codes)
                info["legal_actions"] = list(codes)
            else:
                info["action_mask"], info["legal_actions"] = self._no_actions, []
        info.update(refusal_info(error))
        return info


class GameAECEnv(_GameEnv, AECEnv):  # type: ignore[misc]  # pettingzoo has no type stubs
    """The turn-based (AEC) environment of a game; see the module's docstring."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        reward: str = "win",
        illegal_reward: float | None = 0.0,
        **options: JSON,
    ) -> None:
        AECEnv.__init__(self)
        _GameEnv.__init__(self, game_id, players, render_mode, options, False, max_cycles, reward, illegal_reward)
        self.steps = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``options`` are not used (the game's options are given to :func:`env`)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._info(agent) for agent in self.agents}
        self.agent_selection = agent_name(self.table.acting()[0])
        self.steps = 0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.settle(agent, self.table.play(self.possible_agents.index(agent), operator.index(action)))

    def settle(self, agent: str, error: str | None) -> None:
        """What a step of the selected ``agent`` ends with, once its action was played or
        refused (``error``), or was a step within a factored decision: rewards, infos, who is
        done, who acts next. It counts towards ``max_cycles``."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.steps += 1
        self.infos = {a: self._info(a, error if a == agent else None) for a in self.agents}
        self.rewards = dict(zip(self.possible_agents, self.table.rewards()))
        if self.table.state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self.steps >= self.max_cycles * len(self.possible_agents):
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = agent_name(self.table.acting()[0])
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class GameParallelEnv(_GameEnv, ParallelEnv):  # type: ignore[misc]  # pettingzoo has no type stubs
    """The parallel environment of a game; see the module's docstring."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        reward: str = "win",
        illegal_reward: float | None = 0.0,
        **options: JSON,
    ) -> None:
        _GameEnv.__init__(self, game_id, players, render_mode, options, True, max_cycles, reward, illegal_reward)
        self.metadata["is_parallelizable"] = True
        self.agents: list[str] = []
        self.cycles = 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, Info]]:
        """A new game; ``options`` are not used (the game's options are given to :func:`parallel_env`)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return {agent: self.observe(agent) for agent in self.agents}, {
            agent: self._info(agent) for agent in self.agents
        }

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Apply the action of every agent that may act now (the others' are ignored)."""
        errors = {}
        for seat in self.table.acting():
            agent = agent_name(seat)
            if agent in actions:
                error = self.table.play(seat, operator.index(actions[agent]))
                if error is not None:
                    errors[agent] = error
        return self.settle(errors)

    def settle(self, errors: dict[str, str]) -> tuple[dict[str, Any], ...]:
        """What a step ends with once the agents' actions were played or refused (``errors``,
        by agent), or were steps within factored decisions: the step's five dicts. It counts
        towards ``max_cycles``."""
        self.cycles += 1
        state = self.table.state
        over = state.is_terminal()
        cut = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        earned = dict(zip(self.possible_agents, self.table.rewards()))
        observations = {agent: self.observe(agent) for agent in self.agents}
        rewards = {agent: earned[agent] for agent in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        infos = {agent: self._info(agent, errors.get(agent)) for agent in self.agents}
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos
