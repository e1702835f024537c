"""Figures of a finished game for designers' batch reports (``spacetable play --games N``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import JSON, Statistic

from ..content import CATEGORIES
from ..modules import beacons, exploration, objectives, victory

if TYPE_CHECKING:
    from ..rules.state import MothershipState


def statistics(state: MothershipState, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
    """Cards of each kind bought and played (per game); the win rate of the players who played
    each card (found in ``moves``, the record's rows) and of those who held it at the end; the
    win rate of the players who climbed each technology branch (ties share a win); and the
    figures of the modes and options in play."""
    content = state.game.content
    figures: dict[str, Statistic] = {}
    share = 1 / len(state.winners) if state.winners else 0.0
    players = range(state.game.players)
    played_by: list[set[int]] = [set() for _ in content.cards]
    for seat, data in moves:
        if seat is not None and isinstance(data, dict) and data.get("kind") == "play":
            played_by[int(data["card"])].add(seat)
    for card, (bought, played) in enumerate(zip(state.bought_kinds, state.played)):
        name = content.cards[card].name
        figures[f"bought: {name}"] = Statistic(bought, 1)
        figures[f"played: {name}"] = Statistic(played, 1)
        groups = {f"held {name} at the end": [s for s in players if card in state.hands[s]]}
        if moves:
            groups[f"played {name}"] = sorted(played_by[card])
        for what, seats in groups.items():
            wins = sum(share for s in seats if s in state.winners)
            figures[f"win rate, {what}"] = Statistic(wins, len(seats), percent=True)
    for branch in content.branches:
        category = CATEGORIES.index(branch.category)
        index = content.branches.index(branch)
        climbers = [s for s in range(state.game.players) if state.branches[s][category] == index]
        wins = sum(share for s in climbers if s in state.winners)
        figures[f"win rate, {branch.name} tree"] = Statistic(wins, len(climbers), percent=True)
    figures.update(victory.statistics(state))  # mode victory_points: points and how games ended
    figures.update(exploration.statistics(state))  # option exploration: artifacts found and held
    figures.update(beacons.statistics(state))  # option beacons: each card's draws and options
    figures.update(objectives.statistics(state))  # option objectives: each card dealt, done, rewards
    return figures
