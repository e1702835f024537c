"""Figures of a finished game for designers' batch reports (``spacetable simulate``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import JSON, Statistic

from ..content import CARD_KINDS, card_name, family
from ..rules.actions import HULL

if TYPE_CHECKING:
    from ..rules.state import ShowdownState


def statistics(state: ShowdownState, moves: Sequence[tuple[int | None, JSON]]) -> dict[str, Statistic]:
    """From the record's rows ``moves`` (none without them). Headline figures: the upgrade cards
    played onto the mats in a game, in all and by family; the share of picks discarded for a hull
    token; the attacks and boardings of the showdown. Details, per kind of card: the copies played
    and discarded for hull tokens a game, and the win rate of the captains who played one (ties
    share a win)."""
    if not moves:
        return {}
    kinds = [k for k in CARD_KINDS if k in state.content.deck]
    played = dict.fromkeys(kinds, 0)
    hull = dict.fromkeys(kinds, 0)
    players: dict[str, set[int]] = {k: set() for k in kinds}
    actions = {"attack": 0, "teleport": 0}
    for seat, data in moves:
        if seat is None or not isinstance(data, dict):
            continue
        kind = data.get("kind")
        if kind == "pick":
            card = str(data["card"])
            if data["use"] == HULL:
                hull[card] += 1
            else:
                played[card] += 1
                players[card].add(seat)
        elif kind in actions:
            actions[str(kind)] += 1
    picks = sum(played.values()) + sum(hull.values())
    figures = {
        "cards played (total)": Statistic(sum(played.values()), 1, headline=True),
        "picks discarded for hull tokens": Statistic(sum(hull.values()), picks, percent=True, headline=True),
        "attacks (total)": Statistic(actions["attack"], 1, headline=True),
        "boardings (total)": Statistic(actions["teleport"], 1, headline=True),
    }
    for group in dict.fromkeys(family(k) for k in kinds):
        total = sum(n for k, n in played.items() if family(k) == group)
        figures[f"cards played ({group})"] = Statistic(total, 1, headline=True)
    share = 1 / len(state.winners) if state.winners else 0.0
    for kind in kinds:
        name = card_name(kind)
        figures[f"played: {name}"] = Statistic(played[kind], 1)
        figures[f"discarded for hull: {name}"] = Statistic(hull[kind], 1)
        wins = sum(share for s in players[kind] if s in state.winners)
        figures[f"win rate, played {name}"] = Statistic(wins, len(players[kind]), percent=True)
    return figures
