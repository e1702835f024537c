"""The engine's protocol as a sequential game of integer actions: what the adapters share.

- **One seat decides at a time.** Where several seats decide at once (a showdown draft, the
  secret discards of burning ships), the lowest awaited seat decides first, then the next. This
  is sound because a seat's choice stays out of the other seats' views until every seat has
  chosen, so an answer given later cannot depend on one given earlier (the interop tests check
  the views), and the engine makes the result independent of the order of the answers.
- **Actions are integers**: the game's codec (``game.actions.encode``), ``range(actions.size)``
  for every seat and for chance.
- **Observations** are the game's tensor (``Game.observation_tensor``, float32) and its view as
  canonical JSON (sorted keys, no spaces): exactly what ``view(seat)`` gives.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import numpy as np
import numpy.typing as npt

from spacetable.engine import SIMULTANEOUS, Game, Player, State, decide, load_finite


def decider(state: State) -> int:
    """Who acts now: CHANCE, TERMINAL, or a seat (the lowest awaited where several decide at once)."""
    player = state.current_player()
    return state.awaiting()[0] if player == SIMULTANEOUS else player


def legal_codes(state: State, seat: int) -> list[int]:
    """The codes of ``seat``'s legal actions, ascending ([] unless the seat decides now)."""
    return codes_of(state, seat) if decider(state) == seat else []


def codes_of(state: State, seat: int) -> list[int]:
    """The codes of ``seat``'s legal actions, ascending (the seat must be one that may act)."""
    return state.game.actions.codes(state.legal_actions(seat))


def chance_codes(state: State) -> list[tuple[int, float]]:
    """At a chance node: each outcome's code with its probability, by code."""
    encode = state.game.actions.encode
    return sorted((encode(action), p) for action, p in state.chance_outcomes())


def apply_code(state: State, code: int, actor: int | None = None) -> int:
    """Apply the action ``code`` for whoever acts now (``actor`` when the caller knows it:
    ``decider(state)``), validated (an illegal code raises
    :class:`~spacetable.engine.IllegalActionError` or ``MalformedActionError`` and changes
    nothing); returns who acted (a seat, or CHANCE)."""
    if actor is None:
        actor = decider(state)
    state.apply_action(state.game.actions.decode(code), actor if actor >= 0 else None)
    return actor


def observe(state: State, seat: int, shared: dict[str, Any] | None = None) -> npt.NDArray[np.float32]:
    """The game's observation tensor of ``state`` for ``seat``, shaped ``game.observation_shape()``.
    ``shared``: a dict kept with the unchanged state, for the work the seats' tensors share
    (``Game.observation_tensor_shared``)."""
    game = state.game
    if shared is None:
        tensor = np.asarray(game.observation_tensor(state, seat), dtype=np.float32)
    else:
        tensor = np.asarray(game.observation_tensor_shared(state, seat, shared), dtype=np.float32)
    shape = game.observation_shape()
    if tensor.size != math.prod(shape):
        raise ValueError(f"{game.id}: observation_tensor gave {tensor.size} numbers, observation_shape is {shape}")
    return tensor.reshape(shape)


def canonical(data: Any) -> str:
    """JSON with sorted keys and no spaces: one text for one value."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def observation_string(state: State, seat: int | None) -> str:
    """``state.view(seat)`` as canonical JSON (``None``: a spectator's view)."""
    return canonical(state.view(seat))


def choose_code(state: State, seat: int, player: Player, rng: random.Random) -> int:
    """The code of the action a spacetable :class:`~spacetable.engine.Player` (a bot from
    ``spacetable.agents.make_agent``) picks for ``seat``, thinking only on ``resample(seat)``
    as in spacetable's own play loop."""
    return state.game.actions.encode(decide(player, state, seat, rng))


def load_game(game_id: str, players: int, options: dict[str, Any]) -> Game:
    """``spacetable.load_finite`` (research needs games that end: the game's round limit or the
    like unless ``options`` set it), built once per (id, players, options) and shared (games are
    immutable): states of one game, however they were made (cloned, pickled), then have the
    same game."""
    key = canonical([game_id, players, options])
    game = _GAMES.get(key)
    if game is None:
        game = load_finite(game_id, players, options)
        _GAMES[key] = _GAMES[canonical([game_id, players, game.options])] = game
    return game


_GAMES: dict[str, Game] = {}
