"""The Mothership state's fields: their order, which ones a clone shares, and how they are copied."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import MothershipState


FIELDS = (
    "phase",
    "board_seed",
    "grid",
    "pos",
    "hp",
    "station_hp",
    "energy",
    "shield",
    "resources",
    "owner",
    "cleared",
    "out",
    "turn",
    "first",
    "round",
    "used",
    "attacked",
    "locked",
    "order_rolls",
    "pending",
    "winners",
    "reason",
    "deck",
    "hands",
    "discard",
    "known",
    "draws",
    "steal",
    "reward",
    "bought",
    "trading",
    "played",
    "effects",
    "playing",
    "cancel",
    "escort",
    "stations",
    "event_roll",
    "branches",
    "tiers",
    "charges",
    "bought_kinds",
    "buying",
    "artifacts",
    "explorers",
    "exploring",
    "points",
    "respawns",
    "raiding",
    "acted",
    "choice",
    "stuck",
    "cannons",
    "tokens",
    "flipping",
    "beacon_deck",
    "beacon_discard",
    "beacon_draw",
    "activated",
    "kept",
    "script",
    "objective_deck",
    "objective_discard",
    "objectives",
    "public_objectives",
    "completed",
    "objective_draws",
    "tallies",
    "beacon_log",
    "objective_log",
    "secret",
)


SHARED = {
    "order_rolls": 1,
    "winners": 1,
    "discard": 1,
    "known": 3,
    "bought": 1,
    "played": 1,
    "bought_kinds": 1,
    "artifacts": 1,
    "explorers": 1,
    "points": 1,
    "respawns": 2,
    "beacon_deck": 1,
    "beacon_discard": 1,
    "kept": 3,
    "objective_deck": 1,
    "objective_discard": 1,
    "objectives": 2,
    "public_objectives": 1,
    "completed": 2,
    "tallies": 2,
    "beacon_log": 2,
    "objective_log": 2,
    "secret": 2,
}
"""Fields a clone shares with its original until either side first reads or sets them (each
then copies its own, to the depth of lists given here): those most turns never touch (set-up
rolls, report counters, the expansion modules' parts). Every other field a clone copies."""
COPIED = tuple(name for name in FIELDS if name not in SHARED)
"""The fields a clone copies (each a slot of the state)."""
SHARED_INDEX = {name: index for index, name in enumerate(SHARED)}
"""Each field of ``SHARED`` by name: its place in ``state._parts``."""

_PARTS_SHARED = 1 << len(SHARED)
ALL_SHARED = (_PARTS_SHARED << 1) - 1
"""``state._shared`` of a state and its clone just made: every shared field, and ``_parts`` itself, may be shared."""


def _copier(depth: int) -> Callable[[list[Any]], list[Any]]:
    """A copy of nested lists ``depth`` deep (1: the list itself)."""
    if depth == 1:
        return list.copy
    inner = _copier(depth - 1)
    return lambda value: [*map(inner, value)]


def shared_field(index: int, depth: int) -> property:
    """The ``index``-th field of ``SHARED``: copied first if it may be shared with a clone."""
    bit, copy = 1 << index, _copier(depth)

    def own(state: MothershipState) -> list[Any]:
        """``state._parts``, made the state's own."""
        if state._shared & _PARTS_SHARED:
            state._parts = state._parts[:]
            state._shared &= ~_PARTS_SHARED
        return state._parts

    def read(state: MothershipState) -> Any:
        if state._shared & bit:
            parts = own(state)
            parts[index] = copy(parts[index])
            state._shared &= ~bit
        return state._parts[index]

    def write(state: MothershipState, value: Any) -> None:
        own(state)[index] = value
        state._shared &= ~bit

    return property(read, write)


def plain(value: Any) -> Any:
    """A deep copy of JSON-shaped data (lists and dicts), so states never share mutable parts."""
    if type(value) is list:
        return [plain(v) if type(v) in NESTED else v for v in value]  # (a choice's long lists: no call a number)
    if type(value) is dict:
        return {k: plain(v) if type(v) in NESTED else v for k, v in value.items()}
    return value


NESTED = (list, dict)
"""The types :func:`plain` copies."""
