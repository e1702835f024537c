"""Any game at any number of seats as a single-agent Gymnasium environment, for self-play.

One seat learns; every other seat is played by an opponent drawn, each episode and for each
seat, from an :class:`OpponentPool`: spacetable's bots (``"random"``, ``"greedy"``, ``"easy"``,
``"normal"``, ``"hard"``, ``"planner"``: ``spacetable.agents.AGENTS``) and policies of
observations, such as frozen copies of the learner (:func:`frozen_copy`). Importing the module
registers it::

    import gymnasium
    import spacetable.interop.selfplay
    env = gymnasium.make("spacetable/SelfPlay-v0", game="showdown", players=4,
                         opponents={"random": 1, "greedy": 1})

- **The learning seat** is ``seat`` or, by default (None), drawn each episode, so that the
  learner plays every position at the table (first-player advantage matters).
- **Actions** are ``actions="flat"`` or ``"factored"``, by default the game's
  (``table.actions_for``: factored for Mothership). Flat: the observation is the game's tensor
  for the learning seat and actions its codes, ``Discrete(game.actions.size)``. Factored
  (:mod:`spacetable.interop.factored`): actions are the steps of a decision,
  ``Discrete(width)``, the observation ``{"observation": the tensor, "decision": the steps
  chosen so far}``, and the game (opponents included) moves only at a decision's last step.
  Either way ``info["action_mask"]`` and :meth:`SelfPlayEnv.action_masks` (sb3-contrib's
  MaskablePPO) mark what is legal now; ``info["seat"]`` is the learning seat, and the reset's
  ``info["opponents"]`` names who sits where.
- **Illegal actions** follow the interop tables (:class:`~spacetable.interop.table.Table`): with
  ``illegal_reward`` a number (default 0.0) the action is refused, nothing changes, the step pays
  that reward with ``info["illegal_action"] = True`` and ``info["error"]`` saying why; None
  raises IllegalActionError.
- **Rewards** are the learning seat's (``reward="win"``: its return when the game ends;
  ``"shaped"``: plus its progress measure's change), from its first observation on: what the
  opponents' opening moves change before it first decides is not paid.
- **Opponents** see only what their seat may see: bots decide on ``state.resample(seat)``
  (``sequential.choose_code``) and give flat codes; policies (:class:`ObservingOpponent`:
  frozen copies of the learner among them) decide on what the learner would see at that seat,
  flat or factored: factored, they are asked once per step, with that step's observation and
  mask, until their decision is complete. Each seat has its own generator, seeded from the
  environment's seed apart from the dice.
- **Deterministic** for a seed: ``reset(seed=s)`` and the same actions give the same game,
  opponents included, as long as the opponents are (bots with iteration budgets are; ``hard``
  also stops at a wall-clock limit; a policy given as a plain callable must be deterministic
  itself, a :class:`SampledOpponent` draws from its seat's generator).
- An episode is truncated after ``step_limit`` steps of the learner (default: the game's bound
  on its length, times the most steps a factored action takes), which only refused actions can
  reach.

The opponents play inside ``step``, so a pool shared by environments in one process
(Stable-Baselines3's ``DummyVecEnv``) may grow while they train; environments in other processes
hold copies of it.
"""

from __future__ import annotations

import abc
import copy
import math
import operator
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, cast, runtime_checkable

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from spacetable.agents import make_agent
from spacetable.engine import JSON, IllegalActionError, Player, State, game_class

from .factored import SeatActions
from .sequential import choose_code, load_game
from .table import RENDER_MODES, Table, check_render_mode, refusal_info

Observation = npt.NDArray[np.float32] | dict[str, Any]
"""The seat's tensor (flat actions), or the tensor and the steps chosen so far (factored)."""
Mask = npt.NDArray[np.int8]
Policy = Callable[[Observation, Mask], Any]
"""A policy of observations: the action's code (flat) or the step's value (factored) from what
the seat observes and its mask."""
Probabilities = Callable[[Observation, Mask], npt.ArrayLike]
"""A stochastic policy: one weight per mask entry (0 outside the mask) from an observation and mask."""

SELFPLAY_ID = "spacetable/SelfPlay-v0"


@runtime_checkable
class Opponent(Protocol):
    """Who plays a seat that does not learn: ``act`` gives the (flat) code of the seat's action."""

    name: str

    def act(self, table: Table, seat: int, rng: random.Random) -> int:
        """The code of ``seat``'s action at ``table`` (the seat decides now); ``rng`` is the seat's own."""
        ...


class BotOpponent:
    """A spacetable bot (a :class:`~spacetable.engine.Player`), deciding on ``resample(seat)``."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name

    def act(self, table: Table, seat: int, rng: random.Random) -> int:
        return choose_code(table.state, seat, self.player, rng)


class ObservingOpponent(abc.ABC):
    """An opponent that decides as the learner does, on what its seat observes and the mask:
    :meth:`act` for flat actions; a factored :class:`SelfPlayEnv` asks :meth:`decide` once per
    step of the seat's decision instead."""

    name: str
    observation_space: spaces.Space[Any] | None = None
    """The observations it takes (a frozen copy's, its model's), checked where it is seated; None: any."""

    @abc.abstractmethod
    def decide(self, observation: Observation, mask: Mask, rng: random.Random) -> int:
        """The action's code (flat) or the step's value (factored); ``rng`` is the seat's own."""

    def act(self, table: Table, seat: int, rng: random.Random) -> int:
        return self.decide(table.observation(seat), table.action_mask(seat), rng)


class PolicyOpponent(ObservingOpponent):
    """A :data:`Policy` (such as ``lambda obs, mask: model.predict(obs, action_masks=mask,
    deterministic=True)[0]``) given the seat's observation and mask."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def decide(self, observation: Observation, mask: Mask, rng: random.Random) -> int:
        return operator.index(np.asarray(self.policy(observation, mask)).item())


class SampledOpponent(ObservingOpponent):
    """A stochastic policy given as its :data:`Probabilities`, drawn from with the seat's generator
    (so a stochastic opponent replays for a seed)."""

    def __init__(self, probabilities: Probabilities, name: str = "sampled") -> None:
        self.probabilities = probabilities
        self.name = name

    def decide(self, observation: Observation, mask: Mask, rng: random.Random) -> int:
        weights = np.asarray(self.probabilities(observation, mask), dtype=np.float64) * mask
        cumulative = np.cumsum(weights)
        if not cumulative[-1] > 0:
            raise ValueError(f"opponent {self.name!r} gives no weight to any value its mask allows")
        drawn = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        return min(drawn, int(np.flatnonzero(weights)[-1]))  # a product rounded up to the total


OpponentSpec = str | Player | Opponent | Policy
"""What a pool takes: a bot's name, a spacetable Player, an :class:`Opponent`, or a :data:`Policy`."""


def opponent(spec: OpponentSpec) -> Opponent:
    """The :class:`Opponent` a spec stands for; a bot's name unknown to ``make_agent`` raises
    OptionsError listing the bots."""
    if isinstance(spec, str):
        return BotOpponent(make_agent(spec))
    if isinstance(spec, Opponent):
        return spec
    if callable(getattr(spec, "choose", None)):
        return BotOpponent(cast(Player, spec))  # a Player, known by its choose method
    if callable(spec):
        return PolicyOpponent(spec, getattr(spec, "__name__", "policy"))
    raise TypeError(f"an opponent is a bot's name, a Player, an Opponent or a policy, not {type(spec).__name__}")


def frozen_copy(model: Any, name: str, deterministic: bool = False) -> ObservingOpponent:
    """A copy of an sb3-contrib MaskablePPO ``model``'s policy as it is now (training on does not
    change it): its masked action distribution sampled with the seat's generator, or its most
    likely action (``deterministic``). A model of a factored environment gives a copy that
    decides in steps; either copy plays only in environments with its model's observation
    space. Needs torch (the ``train`` extra)."""
    import torch

    live = model.policy
    # the distribution of the policy's last batch, kept until its next one, holds tensors of the
    # training graph after a training phase, which deepcopy refuses: the copy starts without it
    unused = {id(getattr(live.action_dist, "distribution", None)): None}
    policy = copy.deepcopy(live, unused).to("cpu").eval()

    def probabilities(observation: Observation, mask: Mask) -> npt.NDArray[np.float64]:
        """The policy's masked softmax (what its ``get_distribution`` gives, without building
        torch distributions, a few times slower for one observation)."""
        with torch.no_grad():
            features = policy.extract_features(policy.obs_to_tensor(observation)[0], policy.pi_features_extractor)
            output = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
        logits = np.where(mask == 0, -np.inf, np.asarray(output.numpy(), dtype=np.float64))
        weights = np.exp(logits - logits.max())
        return np.asarray(weights / weights.sum(), dtype=np.float64)

    copied: ObservingOpponent
    if deterministic:
        copied = PolicyOpponent(lambda observation, mask: int(np.argmax(probabilities(observation, mask))), name)
    else:
        copied = SampledOpponent(probabilities, name)
    copied.observation_space = model.observation_space
    return copied


class OpponentPool:
    """Opponents with weights; each episode draws one for every seat that does not learn.

    ``opponents``: specs (equal weights), or a mapping from spec to weight; a pool may grow
    (:meth:`add`) while environments use it."""

    def __init__(self, opponents: Iterable[OpponentSpec] | Mapping[Any, float] = ("random",)) -> None:
        self.opponents: list[Opponent] = []
        self.weights: list[float] = []
        weighted = opponents.items() if isinstance(opponents, Mapping) else ((spec, 1.0) for spec in opponents)
        for spec, weight in weighted:
            self.add(spec, weight)
        if not self.opponents:
            raise ValueError("an opponent pool needs at least one opponent")

    def add(self, spec: OpponentSpec, weight: float = 1.0) -> Opponent:
        """Put an opponent in the pool, drawn with ``weight`` (positive) among the weights' sum."""
        if not (math.isfinite(weight) and weight > 0):
            raise ValueError(f"an opponent's weight must be positive and finite, not {weight!r}")
        chosen = opponent(spec)
        self.opponents.append(chosen)
        self.weights.append(float(weight))
        return chosen

    def draw(self, rng: random.Random) -> Opponent:
        return rng.choices(self.opponents, weights=self.weights)[0]

    def __len__(self) -> int:
        return len(self.opponents)

    def __repr__(self) -> str:
        entries = ", ".join(f"{o.name}: {w:g}" for o, w in zip(self.opponents, self.weights))
        return f"OpponentPool({{{entries}}})"


class SelfPlayEnv(gymnasium.Env[Observation, np.int64]):
    """One learning seat of a game against a pool of opponents; see the module's docstring.

    ``game``: a game id; ``players``: its seats (default the game's usual number);
    ``opponents``: an :class:`OpponentPool` (kept, not copied: it may grow) or what one is made
    of; ``seat``: the learning seat, None to draw it each episode; ``actions``: ``"flat"``,
    ``"factored"`` or None (the game's default); the game's options as keywords.
    """

    # Gymnasium reads it from the class (as a mutable dict); its checker wants a frame rate
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int | None = None,
        opponents: OpponentPool | Iterable[OpponentSpec] | Mapping[Any, float] = ("random",),
        seat: int | None = None,
        render_mode: str | None = None,
        reward: str = "win",
        illegal_reward: float | None = 0.0,
        step_limit: int | None = None,
        actions: str | None = None,
        **options: JSON,
    ) -> None:
        check_render_mode(render_mode)
        seats = game_class(game).usual_players(options) if players is None else players
        self.game = load_game(game, seats, options)
        if seat is not None and not 0 <= seat < self.game.players:
            raise ValueError(f"seat must be one of 0..{self.game.players - 1} (or None to draw it), not {seat}")
        self.seat_actions = SeatActions(self.game, actions)
        """Flat or factored: the spaces, masks and observations; with factored actions its
        chooser holds the steps of the decision under way, the learner's or (inside a step) an
        opponent's."""
        self.observation_space = self.seat_actions.observation_space
        self.action_space = self.seat_actions.action_space
        if step_limit is None:
            step_limit = self.game.bounded_length() * self.seat_actions.depth
        if step_limit < 1:
            raise ValueError(f"step_limit must be at least 1, not {step_limit}")
        self.step_limit = step_limit
        self.pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool(opponents)
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.table = Table(self.game, together=False, reward=reward, illegal_reward=illegal_reward)
        self.seat = 0 if seat is None else seat
        """The learning seat of this episode."""
        self.seated: dict[int, Opponent] = {}
        """This episode's opponents, by seat."""
        self._generators: dict[int, random.Random] = {}
        self._tensor = np.zeros(self.game.observation_shape(), np.float32)
        """The learner's tensor of the position, copied into each observation."""
        self._steps = 0

    @property
    def engine_state(self) -> State:
        """The true spacetable state (for tests and spectators; the learner sees its tensor)."""
        return self.table.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game: the learning seat and the opponents drawn, the opponents played up to the
        learner's first decision. ``options`` are not used (the game's are given to ``make``)."""
        super().reset(seed=seed)
        draws = random.Random(int(self.np_random.integers(2**63)))
        seats = self.game.players
        self.seat = draws.randrange(seats) if self.fixed_seat is None else self.fixed_seat
        others = [other for other in range(seats) if other != self.seat]
        self.seated = {other: self._seatable(self.pool.draw(draws)) for other in others}
        self._generators = {other: random.Random(draws.getrandbits(64)) for other in others}
        self.table.reset(int(self.np_random.integers(2**63)))
        self.seat_actions.restart()
        self._steps = 0
        self._play_opponents()
        if not self.table.acting():
            raise RuntimeError(f"{self.game.describe()}: the game ended before seat {self.seat} decided")
        self._tensor = self.table.observation(self.seat)
        self.table.rewards()  # the ledger starts at the learner's first observation
        if self.render_mode == "human":
            self.render()
        info = {**self._info(), "opponents": {other: o.name for other, o in self.seated.items()}}
        return self._observation(), info

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action (flat), or take a step of its decision and play the action
        at the last step (factored), then the opponents up to its next decision; an illegal
        action or step is refused (see the module's docstring)."""
        moved, error = self.seat_actions.take(self.table, self.seat, operator.index(action))
        if moved:
            self._play_opponents()
            self._tensor = self.table.observation(self.seat)
        self._steps += 1
        over = self.table.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        info = {**self._info(), **refusal_info(error)}
        cut = not over and self._steps >= self.step_limit
        return self._observation(), self.table.rewards()[self.seat], over, cut, info

    def action_masks(self) -> Mask:
        """1 for each legal action code (or factored, each legal value of the step) of the
        learner now; all 1 once the game is over (``SeatActions.mask``)."""
        return self.seat_actions.mask(self.table, self.seat)

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def _seatable(self, drawn: Opponent) -> Opponent:
        """``drawn``, checked to take this environment's observations if it names the ones it takes."""
        space = getattr(drawn, "observation_space", None)
        if space is not None and space != self.observation_space:
            raise ValueError(
                f"opponent {drawn.name!r} takes observations {space}, not this environment's {self.observation_space}"
            )
        return drawn

    def _play_opponents(self) -> None:
        """The opponents' decisions until the learner decides or the game is over."""
        table = self.table
        while (acting := table.acting()) and acting[0] != self.seat:
            seat = acting[0]
            player = self.seated[seat]
            error = table.play(seat, self._opponent_code(player, seat))
            if error is not None:
                raise IllegalActionError(f"opponent {player.name!r}: {error}")

    def _opponent_code(self, player: Opponent, seat: int) -> int:
        """The code of ``seat``'s action: what ``act`` gives, or with factored actions an
        :class:`ObservingOpponent`'s steps, asked for one by one until the decision is complete."""
        rng, chooser = self._generators[seat], self.seat_actions.chooser
        if chooser is None or not isinstance(player, ObservingOpponent):
            return player.act(self.table, seat, rng)
        tensor = self.table.observation(seat)  # the steps of a decision share it
        while True:
            value = player.decide(chooser.observation(tensor), chooser.mask(self.table.state, seat), rng)
            code, error = chooser.choose(self.table, seat, value)
            if error is not None:
                chooser.prefix = []
                raise IllegalActionError(f"opponent {player.name!r}: {error}")
            if code is not None:
                return code

    def _observation(self) -> Observation:
        return self.seat_actions.observation(self._tensor)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}


def register_selfplay() -> bool:
    """Register :data:`SELFPLAY_ID` with Gymnasium unless it is known; whether it was added.
    Importing this module calls it."""
    if SELFPLAY_ID in gymnasium.registry:
        return False
    gymnasium.register(SELFPLAY_ID, entry_point=f"{__name__}:SelfPlayEnv")
    return True


register_selfplay()
