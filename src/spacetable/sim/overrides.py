"""What a run changes from the game as published: its options away from their defaults and its
content overrides, key by key (for the reports' headers and their settings diff)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from spacetable.engine import JSON, game_class

from .simulate import RunSettings


def describe(settings: RunSettings) -> str:
    """A run's settings in one line: the options not at their defaults (content overrides named, not listed)."""
    options = {k: v for k, v in overrides(settings).items() if not k.startswith("content.")}
    content = " · content overrides" if settings.options.get("content") else ""
    return (
        f"{settings.game} · seats {', '.join(settings.seats)} · seed {settings.seed}"
        f"{' · ' + ', '.join(f'{k}={v}' for k, v in sorted(options.items())) if options else ''}{content}"
    )


def flatten(value: JSON, prefix: str) -> dict[str, JSON]:
    """Nested tables as dotted keys (``content.deck.card_price``), list items by index
    (``content.tech.branches[0].key``)."""
    if isinstance(value, Mapping):
        return {k: v for key, item in value.items() for k, v in flatten(item, f"{prefix}.{key}").items()}
    if isinstance(value, list) and value:
        return {k: v for i, item in enumerate(value) for k, v in flatten(item, f"{prefix}[{i}]").items()}
    return {prefix: value}


def overrides(settings: RunSettings) -> dict[str, JSON]:
    """A run's settings away from the game's: its options not at their defaults and its content
    overrides, key by key."""
    specs = game_class(settings.game).option_specs
    options = {
        k: v
        for k, v in settings.options.items()
        if k != "content" and v is not None and (k not in specs or specs[k].default != v)
    }
    return options | flatten(settings.options.get("content") or {}, "content")


def differences(before: RunSettings, after: RunSettings) -> list[tuple[str, str, str]]:
    """What differs between two runs' settings, key by key: (key, before, after), "default" where a
    run does not override a key."""
    rows = [(f"seat {s}", x, y) for s, (x, y) in enumerate(zip(before.seats, after.seats)) if x != y]
    if before.seed != after.seed:
        rows.append(("seed", str(before.seed), str(after.seed)))
    a, b = overrides(before), overrides(after)
    for key in sorted(a.keys() | b.keys(), key=lambda k: (k.startswith("content."), k)):
        if a.get(key, ...) != b.get(key, ...):
            rows.append((key, _setting(a, key), _setting(b, key)))
    return rows


def _setting(values: Mapping[str, JSON], key: str) -> str:
    if key not in values:
        return "default"
    value = values[key]
    return value if isinstance(value, str) else json.dumps(value)


def listed_overrides(settings: RunSettings) -> list[tuple[str, str]]:
    """A run's overrides as (key, value) text."""
    values = overrides(settings)
    return [(key, _setting(values, key)) for key in sorted(values, key=lambda k: (k.startswith("content."), k))]


__all__ = ["describe", "differences", "flatten", "listed_overrides", "overrides"]
