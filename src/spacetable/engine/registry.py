"""The game registry: ``load(game_id, players, options)``, ``load_finite`` and ``list_games()``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .errors import OptionsError
from .protocol import JSON, Game

_GAMES: dict[str, type[Game]] = {}
_BUILTIN_MODULES = (
    "spacetable.games.falling_skies",
    "spacetable.games.mothership",
    "spacetable.games.showdown",
    "spacetable.games.spacerace",
)
_builtins_loaded = False


def register(game_class: type[Game]) -> type[Game]:
    """Make a game loadable by its id. Usable as a class decorator."""
    existing = _GAMES.get(game_class.id)
    if existing is not None and existing is not game_class:
        raise ValueError(f"game id {game_class.id!r} is already registered by {existing.__qualname__}")
    _GAMES[game_class.id] = game_class
    return game_class


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        for module in _BUILTIN_MODULES:
            importlib.import_module(module)


def game_class(game_id: str) -> type[Game]:
    _load_builtins()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise OptionsError(f"unknown game {game_id!r}; games: {', '.join(sorted(_GAMES))}") from None


def list_games() -> list[type[Game]]:
    """Every registered game class, by id."""
    _load_builtins()
    return [_GAMES[k] for k in sorted(_GAMES)]


def load(game_id: str, players: int | None = None, options: Mapping[str, JSON] | None = None) -> Game:
    """The game ``game_id`` for ``players`` seats (default: its usual count) with ``options``."""
    cls = game_class(game_id)
    return cls(cls.usual_players(options) if players is None else players, options)


def load_finite(game_id: str, players: int | None = None, options: Mapping[str, JSON] | None = None) -> Game:
    """``load`` for machines that need every game to end (batch runs, research adapters,
    benchmarks, fuzzing): the game's ``finite_options`` (a round limit, ...) are laid under
    ``options``, so an option the caller sets wins; one given as None (a game's full options
    list every default) is not set. People's tables use ``load``: the rulebook's game, which
    may go on as long as the players like."""
    cls = game_class(game_id)
    given = {k: v for k, v in (options or {}).items() if v is not None or k not in cls.finite_options}
    return load(game_id, players, {**cls.finite_options, **given})
