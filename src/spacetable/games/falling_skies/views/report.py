"""Figures of a finished game for designers' batch reports (``spacetable simulate``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import JSON, Statistic

if TYPE_CHECKING:
    from ..rules.state import FallingSkiesState


def statistics(state: FallingSkiesState, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
    """Headline figures: the research spaces passed, the damage taken and the spaces the excavator
    dug a game; from the record's rows ``moves``, the rooms used (paid for) a game, in all and by
    effect, the share of the rooms resolved that were skipped, and the dice put on anti-aircraft
    guns. Details, from ``moves``: each room's uses a game, and the win rate of the games that
    used it."""
    board = state.board
    figures = {
        "research spaces passed": Statistic(state.research, 1, headline=True),
        "damage taken": Statistic(state.damage, 1, headline=True),
        "spaces excavated": Statistic(state.excavator, 1, headline=True),
    }
    if not moves:
        return figures
    used = {room.id: 0 for room in board.rooms}
    skipped = guns = 0
    for _, data in moves:
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind == "resolve" and data["use"]:
            used[str(data["room"])] += 1
        elif kind == "resolve":
            skipped += 1
        elif kind == "place" and data["space"] in board.aa_spaces:
            guns += 1
    uses = sum(used.values())
    figures["rooms used (total)"] = Statistic(uses, 1, headline=True)
    for effect in dict.fromkeys(e for room in board.rooms for e in room.effects):
        total = sum(used[room.id] for room in board.rooms if effect in room.effects)
        figures[f"rooms used ({effect})"] = Statistic(total, 1, headline=True)
    figures["rooms skipped"] = Statistic(skipped, uses + skipped, percent=True, headline=True)
    figures["dice on anti-aircraft guns"] = Statistic(guns, 1, headline=True)
    won = float(state.result == "won")
    for room in board.rooms:
        name = f"room {room.id} ({'+'.join(room.effects)})"
        figures[f"used: {name}"] = Statistic(used[room.id], 1)
        figures[f"win rate, used {name}"] = Statistic(won, float(used[room.id] > 0), percent=True)
    return figures
