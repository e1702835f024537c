"""Chapter 12, planetary exploration (the option ``exploration``). To be written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

if TYPE_CHECKING:
    from .state import MothershipState


def options(state: MothershipState, seat: int) -> list[Action]:
    return []


def outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    return []


def explore(state: MothershipState, seat: int, planet: int, events: list[Event]) -> None:
    raise NotImplementedError


def reveal(state: MothershipState, artifact: int, events: list[Event]) -> None:
    raise NotImplementedError
