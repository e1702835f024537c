"""Content data shared by every game: a TOML file of defaults, a designer's overrides, validation.

A game keeps its tunable numbers and cards in ``games/<id>/content/*.toml`` and a
pydantic model of them. :func:`load_content` reads the file once, deep-merges a
designer's overrides (a parsed TOML table, e.g. from ``--content my.toml``) and
validates the result, turning every validation error into one readable
:class:`ContentError` that names the offending keys.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import ContentError

Model = TypeVar("Model", bound=BaseModel)


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


def load_content(path: Path, model: type[Model], what: str, overrides: Mapping[str, Any] | None = None) -> Model:
    """The defaults in ``path`` with ``overrides`` deep-merged, validated by ``model``.

    Raises ContentError listing every invalid key, e.g. ``rules.start_hull: Input should be ...``.
    """
    data = read_toml(path)
    if overrides:
        data = deep_merge(data, overrides)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        lines = [f"  {'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors(include_url=False)]
        raise ContentError(f"{what} is invalid:\n" + "\n".join(lines)) from None


__all__ = ["deep_merge", "load_content", "read_toml"]
