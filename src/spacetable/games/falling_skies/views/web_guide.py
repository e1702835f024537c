"""The guide line and the end screen's words, from a view alone.

:func:`guide` says in one line what the round waits for and from whom: the dice being rolled,
then the player placing them, resolving the rooms, placing a new robot and respawning ships;
to the player, what they may do now and how on the board; to a spectator, who decides and
what. Where the mother ship's next step ends the game, it says so. :func:`explain_outcome`
says who won or lost, how, and what the score counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Outcome
from spacetable.engine.words import count

from ..content import Board
from ..rules.actions import Place, Resolve
from ..rules.state import DECISIONS
from .web_base import excavated

if TYPE_CHECKING:
    from ..game import FallingSkies

WAITING = {
    "place": "placing the dice",
    "resolve": "resolving the rooms",
    "robot": "placing the new robot",
    "respawn": "respawning the ships on the mother ship",
}
"""What the player decides in each phase, as a spectator is told."""


def guide(game: FallingSkies, view: Mapping[str, Any], seat: int | None, actions: Sequence[Action] = ()) -> str:
    """The line for ``seat`` (None: a spectator) at ``view``; ``actions``: its legal moves."""
    board, phase = game.board, view["phase"]
    name = game.seat_names(view)[0]
    if phase == "over":
        who = "you" if seat == 0 else name
        return f"Game over: {who} {view['result']}, {view['reason']}"
    if phase not in DECISIONS:
        placed = view["columns_used"] != 0
        line = "the white die re-rolls the dice not yet placed" if placed else "the round's dice are rolled"
    elif seat == 0:
        line = "Your move: " + _your_move(board, view, actions)
    else:
        left = _left(view)
        line = f"Waiting for {name}: {WAITING[phase]}" + (f" ({left} left)" if left else "")
    return f"Round {view['round']} · {line}{_danger(board, view)}"


def _your_move(board: Board, view: Mapping[str, Any], actions: Sequence[Action]) -> str:
    """What the player may do in this phase, and how on the board."""
    phase = view["phase"]
    if phase == "place":
        line = (
            "click a die in the tray, then a base space in a column without a die: "
            "that column's ships move down by its value"
        )
        if any(color == "white" for color, _ in view["unplaced"]):
            line += "; a white die re-rolls the dice left"
        if any(isinstance(a, Place) and not excavated(board, view, a.space) for a in actions):
            line += "; one die a round may dig into the rock"
        return line
    if phase == "resolve":
        usable = {a.room for a in actions if isinstance(a, Resolve) and a.use}
        rooms = count(len(view["pending"]), "room")
        line = (
            f"resolve the rooms in any order ({rooms} left): click a room to use it, paying its energy, "
            "or its button under the base to skip it"
            if usable
            else f"no room left can be used ({rooms}): skip each with its button under the base"
        )
        if any(not excavated(board, view, space) for space in view["slots"]):
            line += "; click the digging die's space to dig (1 energy), or its button to discard it"
        return line
    if phase == "robot":
        return f"put the new robot ({view['new_robots'][0]}) to work: click it in the tray, then a free excavated room"
    green, red = view["waiting"]
    ships = " and ".join(count(n, f"{color} ship") for n, color in ((green, "green"), (red, "red")) if n)
    return f"respawn the {ships} waiting on the mother ship: click one, then a starting spot"


def _left(view: Mapping[str, Any]) -> str:
    phase = view["phase"]
    if phase == "place":
        return count(len(view["unplaced"]), "die", "dice")
    if phase == "resolve":
        return count(len(view["pending"]), "room")
    return ""


def _danger(board: Board, view: Mapping[str, Any]) -> str:
    """Where the mother ship's next step ends the game, a warning: the research must come first."""
    m = view["mothership"]
    if board.skull_row - m <= 1:
        threat = "the mother ship comes down onto the skull row"
    elif board.track[m] == "dmg" and board.lose_at_damage - view["damage"] <= 1:
        threat = "the mother ship's bombardment destroys the base"
    else:
        return ""
    when = "the next round" if view["phase"] == "respawn" else "this round"
    return f" · At the end of {when} {threat}: only completing the research first wins"


def explain_outcome(game: FallingSkies, view: Mapping[str, Any], outcome: Outcome, seat: int | None) -> str:
    """Who won or lost, how, and what the score counts, for ``seat`` (None: a spectator)."""
    board = game.board
    who = "You" if seat == 0 else game.seat_names(view)[0]
    spaces = len(board.research)
    reached = round(outcome.scores[0]) if outcome.scores else view["research"]
    if view["result"] == "won":
        return (
            f"{who} won in round {view['round']}: the research reached the last of its {spaces} spaces, and the "
            f"weapon destroyed the mother ship. The score, {reached}, counts the research spaces reached."
        )
    if view["damage"] >= board.lose_at_damage:
        how = f"the base took {view['damage']} damage and was destroyed"
    else:
        how = f"the mother ship came down onto the skull row (row {board.skull_row})"
    return (
        f"{who} lost in round {view['round']}: {how}. The score, {reached}, counts the research spaces "
        f"reached, of the {spaces} that win."
    )
