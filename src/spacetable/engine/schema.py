"""Typed schemas for ``state_from_json``: every field's type, range and length, checked by pydantic.

A game builds one schema per :class:`~spacetable.engine.Game` (sizes such as the seats,
the board's spaces or the card kinds are the game's), with the small constructors here:
``Int(0, 6)``, ``Ints(0, 6, length=players)``, ``Grid(...)``. :func:`validate` turns the
first errors into one ``ValueError`` that names the field, e.g.
``mothership state: hp[0]: Input should be greater than or equal to 0``. Integers are
strict: ``true`` and ``1.0`` are not 1.

:func:`probe` then asks a state built from checked fields the questions every driver
asks first (whose turn, the legal actions, the views): a combination of fields that no
game reaches and that the rules cannot answer is refused there, not mid-game.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError, create_model

from .protocol import JSON, Game, State

STRICT = ConfigDict(extra="forbid")
"""Extra keys refused; the numbers, booleans and strings are Strict* types (true is not 1)."""

G = TypeVar("G", bound=Game)


def per_game(build: Callable[[G], type[BaseModel]]) -> Callable[[G], type[BaseModel]]:
    """Build a game's schema once: later calls for the same game object return the same model
    (kept as long as the game is)."""
    built: weakref.WeakKeyDictionary[Game, type[BaseModel]] = weakref.WeakKeyDictionary()

    @functools.wraps(build)
    def cached(game: G) -> type[BaseModel]:
        model = built.get(game)
        if model is None:
            model = built[game] = build(game)
        return model

    return cached


Bool = StrictBool
Str = Annotated[StrictStr, Field(max_length=10_000)]


def Int(low: int, high: int) -> Any:
    """An exact int in ``low..high``."""
    return Annotated[StrictInt, Field(ge=low, le=high)]


def Ints(low: int, high: int, length: int | None = None, most: int = 10_000) -> Any:
    """A list of ints in ``low..high``: exactly ``length`` of them, or at most ``most``."""
    return ListOf(Int(low, high), length, most)


_list: Any = list
_tuple: Any = tuple
_dict: Any = dict


def ListOf(item: Any, length: int | None = None, most: int = 10_000) -> Any:
    """A list of ``item``: exactly ``length``, or at most ``most``."""
    lo, hi = (length, length) if length is not None else (0, most)
    return Annotated[_list[item], Field(min_length=lo, max_length=hi)]


def Tuple(*items: Any) -> Any:
    """A list of exactly these items, in order (a NamedTuple's JSON form)."""
    return _tuple[items]


def DictOf(key: Any, value: Any) -> Any:
    """An object from ``key`` to ``value`` (at most 1,000 keys)."""
    return Annotated[_dict[key, value], Field(max_length=1000)]


def OneOf(*values: str) -> Any:
    """One of the given strings."""
    from typing import Literal

    return Literal[values]


def schema(name: str, fields: Mapping[str, Any], optional: Mapping[str, Any] | None = None) -> type[BaseModel]:
    """A strict model with exactly ``fields`` (a field's type, each required) and the
    ``optional`` ones, which may be absent but never null."""
    definitions: dict[str, Any] = {key: (kind, ...) for key, kind in fields.items()}
    definitions.update({key: (kind, None) for key, kind in (optional or {}).items()})
    model: type[BaseModel] = create_model(name, __config__=STRICT, **definitions)
    return model


def validate(model: type[BaseModel], data: JSON, what: str) -> None:
    """Raise one ValueError naming the first bad fields of ``data`` (up to three)."""
    try:
        model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        lines = [f"{_where(err['loc'])}: {err['msg']}" for err in errors[:3]]
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        raise ValueError(f"{what}: " + "; ".join(lines) + more) from None


def _where(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the state"


def probe(state: State, what: str) -> None:
    """Ask ``state`` what every driver asks first; any error becomes ValueError naming ``what``."""
    try:
        player = state.current_player()
        if not state.is_terminal() and not state.is_chance_node() and not state.awaiting():
            raise ValueError("the game goes on, but nobody is to act")
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if not outcomes:
                raise ValueError("a chance node without outcomes")
        for seat in state.awaiting():
            if not 0 <= seat < state.game.players:
                raise ValueError(f"seat {seat} is to act, but seats are indices 0 to {state.game.players - 1} here")
            if not state.legal_actions(seat):
                raise ValueError(f"seat {seat + 1} is to act but has no legal action")
        if player >= 0 or state.is_chance_node():
            for action in state.legal_actions(None if player < 0 else player)[:64]:
                state.action_label(action)
        for seat in [None, *range(state.game.players)]:
            state.view(seat)
        state.returns()
        state.outcome()
    except ValueError as exc:
        raise ValueError(f"{what}: the fields do not make a position of the game ({exc})") from None
    except Exception as exc:  # the rules cannot read this combination of fields
        raise ValueError(
            f"{what}: the fields do not make a position of the game ({type(exc).__name__}: {exc})"
        ) from None
    finally:
        state._legal_cache = None


__all__ = ["STRICT", "Bool", "DictOf", "Int", "Ints", "ListOf", "OneOf", "Str", "Tuple", "probe", "schema", "validate"]
