"""Content data shared by every game: TOML files of defaults, a designer's overrides, validation.

A game keeps its tunable numbers and cards in ``games/<id>/content/*.toml`` and a
pydantic model of them. :func:`load_content` reads the files once, deep-merges a
designer's overrides (a parsed TOML table, e.g. from ``--content my.toml``) and
validates the result, turning the validation errors into one readable
:class:`ContentError` that names the offending keys (the first few of them).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import ContentError

Model = TypeVar("Model", bound=BaseModel)

SHOWN_ERRORS = 5
"""The invalid keys a ContentError lists; it counts the rest (a file of junk has thousands)."""

_idle: ContextVar[list[str] | None] = ContextVar("idle_overrides", default=None)


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override`` laid over it: tables merge key by key, anything else is replaced."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), Mapping):
            merged[key] = deep_merge(base[key], value)
        else:
            merged[key] = value
    return merged


@cache
def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file parsed once per process (callers must not mutate the result)."""
    with path.open("rb") as f:
        return tomllib.load(f)


@contextmanager
def idle_overrides() -> Iterator[list[str]]:
    """Within the ``with``, each load of overrides that change nothing (none given, or every
    value already the default's) adds why to the list yielded; elsewhere nothing is noted."""
    noted: list[str] = []
    token = _idle.set(noted)
    try:
        yield noted
    finally:
        _idle.reset(token)


def load_content(
    defaults: Path | Sequence[Path], model: type[Model], what: str, overrides: Mapping[str, Any] | None = None
) -> Model:
    """The files ``defaults`` deep-merged in order, ``overrides`` laid over them, validated by ``model``.

    Raises ContentError listing the first invalid keys, e.g. ``rules.start_hull: Input should be ...``.
    """
    paths = (defaults,) if isinstance(defaults, Path) else tuple(defaults)
    base: dict[str, Any] = {}
    for path in paths:
        base = deep_merge(base, read_toml(path))
    data = base if overrides is None else deep_merge(base, overrides)
    idle = _idle.get()
    if idle is not None and overrides is not None and data == base:
        idle.append("each value it sets is already the default" if overrides else "it sets nothing")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        lines = [f"  {'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors]
        if len(lines) > SHOWN_ERRORS:
            lines[SHOWN_ERRORS:] = [f"  ... and {len(lines) - SHOWN_ERRORS:,} more"]
        raise ContentError(f"{what} is invalid:\n" + "\n".join(lines)) from None


__all__ = ["SHOWN_ERRORS", "deep_merge", "idle_overrides", "load_content", "read_toml"]
