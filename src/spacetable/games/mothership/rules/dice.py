"""The dice (chapter 4): a roll in progress, its chance outcomes, and the d2 rolled as a d4.

A roll in progress is ``state.pending``: ``what`` is rolled for (``dogfight``,
``asteroid``), ``dice`` the sides of every die still to roll in order, ``rolls`` the
values rolled so far. Each die is one chance node; its outcome is the face shown.
A d2 is a d4 read as odd = 1, even = 2, so its chance node has four faces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Roll

if TYPE_CHECKING:
    from .state import MothershipState

FACES = tuple(tuple(Roll(v) for v in range(1, n + 1)) for n in range(13))
"""The outcomes of a die of n sides, built once."""


def rolled_sides(sides: int) -> int:
    """The die actually thrown for a die of ``sides`` (a d4 for a d2)."""
    return 4 if sides == 2 else sides


def face_value(sides: int, face: int) -> int:
    """What a thrown face counts for: a d2's d4 counts 1 on odd faces and 2 on even ones."""
    return 2 - face % 2 if sides == 2 else face


def next_die(state: MothershipState) -> int:
    """The sides of the die to roll now: the next of ``dice``, or the one a card rolls again."""
    pending = state.pending
    assert pending is not None
    again = pending.get("reroll")
    return int(pending["dice"][again[0] if again else len(pending["rolls"])])


def outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    thrown = rolled_sides(next_die(state))
    p = 1 / thrown
    return [(face, p) for face in FACES[thrown]]


def die_name(sides: int) -> str:
    return f"d{sides}" + (" (a d4: odd 1, even 2)" if sides == 2 else "")
