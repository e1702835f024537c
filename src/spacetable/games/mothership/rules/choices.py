"""Decisions the rules ask a player for in the middle of something (the expansion's).

A black hole pulling a ship in (which of its spaces), a warp out of one (where to), a beacon
card (which option), an objective's reward (which group, then where a cannon goes, which
planet to explore...): each is one plain record, ``state.choice``, so a state stops there and
is saved, cloned and resumed like any other.

``ask`` sets it: who answers, ``what`` it is (the rules module that asked handles the answer,
see ``rules.CHOICES``), the option values and their words. ``Choose(value)`` answers with one
of the values; the record is cleared before the handler runs, so a handler may ask again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spacetable.engine import Action

from .actions import Choose

if TYPE_CHECKING:
    from .state import MothershipState


def ask(state: MothershipState, seat: int, what: str, options: list[int], labels: list[str], **context: Any) -> None:
    """``seat`` must choose one of ``options`` (worded by ``labels``, in the same order)."""
    assert options and len(options) == len(labels), "a choice needs options, each with its words"
    state.choice = {"seat": seat, "what": what, "options": options, "labels": labels, **context}


def options(state: MothershipState) -> list[Action]:
    choice = state.choice
    assert choice is not None
    return [Choose(value) for value in choice["options"]]


def take(state: MothershipState, value: int) -> dict[str, Any]:
    """The choice being answered, cleared from the state (so its handler may ask another)."""
    choice = state.choice
    assert choice is not None and value in choice["options"]
    state.choice = None
    return choice


def label(state: MothershipState, value: int) -> str:
    choice = state.choice
    if choice is None or value not in choice["options"]:
        return f"choose {value}"
    return str(choice["labels"][choice["options"].index(value)])


def pass_words(cancel: object, pending: dict[str, Any] | None, trading: object) -> str:
    """What passing does in the decision at hand (the state's or a view's ``cancel``, ``pending``
    and ``trading``), in words: the move's label and the table's button say the same."""
    if cancel:
        return "let the card be played"
    if pending:
        stage = pending.get("stage")
        if stage == "lost":
            return "take the loss (no answering card)"
        if stage == "rolled":
            return "keep the dice as rolled"
        return "play no more cards before the roll"
    if trading:
        return "buy and sell nothing before the next turn"
    return "do nothing more here"
