"""Every registered game as an OpenSpiel Python game. Importing this module registers them::

    import pyspiel
    import spacetable.interop.openspiel
    game = pyspiel.load_game("spacetable_showdown(players=4)")

A game is named ``spacetable_<id>`` (``-`` written ``_``). Its parameters are ``players`` and
every option whose value is a number, a string or a flag; an option without a default (such as
falling-skies' ``level``) takes -1 or "" for "not given". Options holding tables (``content``)
are left to ``spacetable.load``. A loaded game's parameters (``str(game)``,
``game.get_parameters()``) are the values it runs with: the options that make it end
(``Game.finite_options``, e.g. showdown's ``fire_round=20``) included.

- Actions and chance outcomes are the game's codec (``game.actions``); every roll, shuffle and
  blind draw is a chance node. Seats deciding at once are asked one after another
  (:mod:`spacetable.interop.sequential`).
- Observations are ``view(seat)``: the game's tensor (``spacetable.interop.planes.split`` cuts
  out its image planes where the game is a grid) and its canonical JSON; the public
  observation is the spectator's view, the private one what a seat's view adds to it.
  Information state strings have perfect recall; the information state tensor is the
  observation tensor, flat, then the game's fixed-size memory of the seat's past
  (:mod:`spacetable.interop.infostate`), so ``rl_environment`` hands it out as ``info_state``.
- ``resample_from_infostate(player, sampler)`` re-deals through ``state.resample(seat)``.
- Search: OpenSpiel's C++ MCTS and ISMCTS bots crash on Python games; use the Python ones in
  ``open_spiel.python.algorithms``, with :class:`HeuristicEvaluator` to value leaves by the
  game's evaluation, and for ISMCTS ``bot.set_resampler(resampler(seed))``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, overload

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import mcts

from spacetable.agents.mcts import estimate
from spacetable.engine import CHANCE, JSON, TERMINAL, Game, State, list_games

from .infostate import Trail, information_shape
from .sequential import canonical, chance_codes, load_game, observation_string

PREFIX = "spacetable_"
UNSET: dict[type, JSON] = {int: -1, float: -1.0, str: ""}
"""The OpenSpiel value that stands for "not given" for an option whose default is None (no such
option takes a negative number; 0 may be a seat, Mothership's ``first_seat``)."""
_PLAYER_IDS = {CHANCE: int(pyspiel.PlayerId.CHANCE), TERMINAL: int(pyspiel.PlayerId.TERMINAL)}


def spiel_name(game_id: str) -> str:
    """The OpenSpiel short name of a spacetable game: ``spacetable_falling_skies``."""
    return PREFIX + game_id.replace("-", "_")


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """One spacetable game, players and options fixed, as an OpenSpiel game. Each spacetable game
    has its subclass (:func:`register_games`), which OpenSpiel calls with the parameters."""

    game_class: ClassVar[type[Game]]

    def __init__(self, params: dict[str, JSON]) -> None:
        game_class = self.game_class
        game = self.game = load_game(game_class.id, int(params["players"]), _options(game_class, params))
        info = pyspiel.GameInfo(
            num_distinct_actions=game.actions.size,
            max_chance_outcomes=game.actions.size,
            num_players=game.players,
            min_utility=game.returns_range[0],
            max_utility=game.returns_range[1],
            utility_sum=game.returns_sum,
            max_game_length=game.bounded_length(),
        )
        super().__init__(_game_type(game_class), info, _running_parameters(game, params))
        self.start = Trail(game.new_initial_state())
        """The trail every new game starts from (immutable, so shared)."""
        self.sizes = (math.prod(game.observation_shape()), information_shape(game)[0])
        """The lengths of the observation and information state tensors (pyspiel works them
        out from an observer of the initial state on every ask)."""

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self.start)

    def max_chance_nodes_in_history(self) -> int:
        return self.game.bounded_length()

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> Observer:
        return Observer(self.game, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def _player_id(trail: Trail) -> int:
    """OpenSpiel's number for who acts at the end of ``trail``: a seat, or its chance or terminal id."""
    player = trail.decider()
    return _PLAYER_IDS.get(player, player)


class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """A position of a spacetable game as an OpenSpiel state."""

    def __init__(self, game: SpielGame, trail: Trail) -> None:
        super().__init__(game)
        self.trail = trail
        """How the position was reached (``trail.state`` is the engine's state); OpenSpiel's
        ``history()`` is the list of action codes."""
        self._player = _player_id(trail)
        """OpenSpiel's current player, which it asks a dozen times a step."""

    @property
    def engine_state(self) -> State:
        """The spacetable state (do not change it: trails share their states)."""
        return self.trail.state

    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        return self.trail.legal_codes(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return chance_codes(self.trail.state)

    def _apply_action(self, action: int) -> None:
        self.trail = self.trail.then(action)
        self._player = _player_id(self.trail)

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.trail.state
        return state.action_label(state.game.actions.decode(action))

    def is_terminal(self) -> bool:
        return self._player == _PLAYER_IDS[TERMINAL]

    def observation_tensor(self, player: int | None = None) -> SeatTensor:
        """``player``'s observation tensor (default: the current player's), worked out when
        first read (:class:`SeatTensor`): ``rl_environment`` asks every seat's after each
        step, an agent reads its own."""
        seat = self._seat(player)
        trail = self.trail
        return SeatTensor(lambda: trail.tensor(seat).ravel(), self.get_game().sizes[0])

    def information_state_tensor(self, player: int | None = None) -> SeatTensor:
        """``player``'s information state tensor (default: the current player's), worked out
        when first read, as :meth:`observation_tensor`."""
        seat = self._seat(player)
        trail = self.trail
        return SeatTensor(lambda: trail.information_tensor(seat), self.get_game().sizes[1])

    def _seat(self, player: int | None) -> int:
        """``player`` checked as pyspiel checks it (RuntimeError), or the current player."""
        seat = self.current_player() if player is None else player
        if seat < 0:
            raise RuntimeError(f"{self.get_game()}: player >= 0 is required, not {seat}")
        if seat >= self.num_players():
            raise RuntimeError(f"{self.get_game()}: player < {self.num_players()} is required, not {seat}")
        return seat

    def returns(self) -> list[float]:
        return self.trail.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> SpielState:
        """A state that ``player_id`` cannot tell from this one, everything hidden from it re-dealt
        by ``state.resample``, from a generator seeded with ``probability_sampler()``. Its
        ``history()`` is empty: the engine re-deals the present, not a past."""
        rng = random.Random(probability_sampler())
        return SpielState(self.get_game(), self.trail.resampled(player_id, rng))

    def __str__(self) -> str:
        return canonical(self.trail.state.to_json())


class SeatTensor(Sequence[float]):
    """A seat's tensor as ``SpielState.observation_tensor`` and ``information_state_tensor``
    hand it out in Python (where pyspiel gives a list of floats): a read-only sequence of
    float32 numbers, worked out on its first read (``np.asarray``, an index, a slice,
    iteration, ``==``) and kept; ``len`` needs no work. ``np.asarray(tensor)`` is a new
    writable array (torch warns on read-only ones), :meth:`array` the kept one, read-only;
    ``tolist()`` gives the list pyspiel would. C++ callers (OpenSpiel's C++
    algorithms, pickled states) go through :class:`Observer` and get numbers as before."""

    __slots__ = ("_array", "_make", "_size")

    def __init__(self, make: Callable[[], npt.NDArray[np.float32]], size: int) -> None:
        self._make: Callable[[], npt.NDArray[np.float32]] | None = make
        self._size = size
        self._array: npt.NDArray[np.float32] | None = None

    def array(self) -> npt.NDArray[np.float32]:
        """The numbers, flat (a read-only array, shared with the position's cache)."""
        if self._array is None:
            assert self._make is not None
            self._array, self._make = self._make(), None
            self._array.flags.writeable = False
        return self._array

    def tolist(self) -> list[float]:
        values: list[float] = self.array().tolist()
        return values

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> float: ...
    @overload
    def __getitem__(self, index: slice) -> list[float]: ...
    def __getitem__(self, index: int | slice) -> float | list[float]:
        if isinstance(index, slice):
            part: list[float] = self.array()[index].tolist()
            return part
        return float(self.array()[index])

    def __iter__(self) -> Iterator[float]:
        return iter(self.tolist())

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        array = self.array()
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array if copy is False else array.copy()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeatTensor | list | tuple | np.ndarray):
            return len(other) == self._size and bool(np.array_equal(self.array(), np.asarray(other)))
        return NotImplemented

    def __repr__(self) -> str:
        return f"SeatTensor({self.tolist()!r})"


class Observer:
    """OpenSpiel's observer of one kind of observation (``IIGObservationType``):

    - the default (public and the seat's private information): ``view(seat)``, with the tensor;
    - public information only: the spectator's ``view(None)``;
    - the seat's private information only: what ``view(seat)`` adds to ``view(None)``;
    - perfect recall (the information state): :meth:`Trail.information_state`, with the tensor
      :meth:`Trail.information_tensor` (the observation, then the memory).
    """

    def __init__(self, game: Game, kind: pyspiel.IIGObservationType, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"{spiel_name(game.id)} observations take no parameters, got {params}")
        self.kind = _observation_kind(kind)
        if self.kind is None:
            raise ValueError(f"{spiel_name(game.id)} has no observation of kind {kind}")
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if self.kind == "view":
            self.tensor = np.zeros(game.observation_shape(), dtype=np.float32)
            self.dict = {"observation": self.tensor}
        elif self.kind == "information state":
            self.tensor = np.zeros(information_shape(game), dtype=np.float32)
            seen = math.prod(game.observation_shape())
            observation = self.tensor[:seen].reshape(game.observation_shape())
            self.dict = {"observation": observation, "memory": self.tensor[seen:]}

    def set_from(self, state: SpielState, player: int) -> None:
        if self.tensor is None:
            return
        trail = state.trail
        self.tensor[...] = trail.tensor(player) if self.kind == "view" else trail.information_tensor(player)

    def string_from(self, state: SpielState, player: int) -> str:
        engine = state.trail.state
        if self.kind == "view":
            return observation_string(engine, player)
        if self.kind == "public":
            return observation_string(engine, None)
        if self.kind == "private":
            private = _private_part(engine.view(player), engine.view(None))
            return "" if private is None else canonical(private)
        return state.trail.information_state(player)


class HeuristicEvaluator(mcts.Evaluator):  # type: ignore[misc]  # open_spiel has no type stubs
    """Values a leaf by the game's own evaluation (``Game.evaluate``), as spacetable's search bots
    do (``spacetable.agents.mcts.estimate``: each seat's chance of winning), put on OpenSpiel's
    utility scale. No rollouts: long games stay quick. Priors are uniform."""

    def evaluate(self, state: SpielState) -> npt.NDArray[np.float64]:
        engine = state.trail.state
        low, high = engine.game.returns_range
        return low + (high - low) * np.asarray(estimate(engine), dtype=np.float64)

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


def resampler(seed: int | None = None) -> Callable[[SpielState, int], SpielState]:
    """For ``ISMCTSBot.set_resampler``: worlds re-dealt through ``state.resample(seat)`` from one
    generator seeded with ``seed``, so a search is reproducible."""
    rng = random.Random(seed)

    def resample(state: SpielState, player: int) -> SpielState:
        return state.resample_from_infostate(player, rng.random)

    return resample


def register_games() -> list[str]:
    """Register every spacetable game not yet known to OpenSpiel; returns the names registered.
    Importing this module calls it; call it again for games registered with spacetable since."""
    known = set(pyspiel.registered_names())
    added = []
    for game_class in list_games():
        name = spiel_name(game_class.id)
        if name not in known:
            # OpenSpiel keeps the factory until the process ends; a class (not a closure) outlives
            # Python's shutdown safely, as OpenSpiel's own Python games do
            factory = type(f"Spiel{game_class.__name__}", (SpielGame,), {"game_class": game_class})
            pyspiel.register_game(_game_type(game_class), factory)
            added.append(name)
    return added


def _game_type(game_class: type[Game]) -> pyspiel.GameType:
    kind = pyspiel.GameType
    if game_class.returns_sum is None:
        utility = kind.Utility.GENERAL_SUM
    elif game_class.returns_sum == 0:
        utility = kind.Utility.ZERO_SUM
    else:
        utility = kind.Utility.CONSTANT_SUM
    hidden = game_class.hidden_information
    return pyspiel.GameType(
        short_name=spiel_name(game_class.id),
        long_name=game_class.name,
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kind.Information.IMPERFECT_INFORMATION if hidden else kind.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=game_class.max_players,
        min_num_players=game_class.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game_class),
    )


def _parameters(game_class: type[Game]) -> dict[str, JSON]:
    """``players`` and the options OpenSpiel can carry, with their defaults."""
    params: dict[str, JSON] = {"players": game_class.usual_players()}
    for name, spec in game_class.option_specs.items():
        if isinstance(spec.default, bool | int | float | str):
            params[name] = spec.default
        elif spec.default is None and spec.kind in UNSET:
            params[name] = UNSET[spec.kind]
    return params


def _running_parameters(game: Game, params: dict[str, JSON]) -> dict[str, JSON]:
    """OpenSpiel's parameters with the values ``game`` runs with: each option ``params`` carries
    as the game has it (an unset one still "not given"), so that the game's string loads it back."""
    running = dict(params)
    for name in params:
        value = game.options.get(name)
        if name != "players" and value is not None:
            running[name] = value
    return running


def _options(game_class: type[Game], params: dict[str, JSON]) -> dict[str, JSON]:
    """The spacetable options in OpenSpiel's parameters (an unset option left out)."""
    specs = game_class.option_specs
    return {
        name: value
        for name, value in params.items()
        if name != "players" and not (specs[name].default is None and value == UNSET[specs[name].kind])
    }


def _observation_kind(kind: pyspiel.IIGObservationType) -> str | None:
    """Which of :class:`Observer`'s observations ``kind`` asks for (None: none of them)."""
    single = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
    if kind.perfect_recall:
        return "information state" if kind.public_info and single else None
    if not kind.public_info:
        return "private" if single else None
    if single:
        return "view"
    return "public" if kind.private_info == pyspiel.PrivateInfoType.NONE else None


def _private_part(mine: JSON, public: JSON) -> JSON:
    """What the view ``mine`` holds beyond the view ``public``: the entries of a dict (or items
    of a list of the same length) that differ, recursively; None when nothing does."""
    if isinstance(mine, dict) and isinstance(public, dict):
        parts = {key: _private_part(value, public.get(key)) for key, value in mine.items()}
        differ = {key: part for key, part in parts.items() if part is not None}
        return differ or None
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        items = [_private_part(a, b) for a, b in zip(mine, public)]
        return None if all(item is None for item in items) else items
    return None if mine == public else mine


register_games()
