"""Figures of a finished game for designers' batch reports (``spacetable play --games N``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Statistic

from . import beacons, exploration, objectives, victory
from .content import CATEGORIES

if TYPE_CHECKING:
    from .state import MothershipState


def statistics(state: MothershipState) -> dict[str, Statistic]:
    """Cards of each kind bought and played (per game), the win rate of the players who climbed
    each technology branch (ties share a win), and the figures of the modes and options in play."""
    content = state.game.content
    figures: dict[str, Statistic] = {}
    for card, (bought, played) in enumerate(zip(state.bought_kinds, state.played)):
        name = content.cards[card].name
        figures[f"bought: {name}"] = Statistic(bought, 1)
        figures[f"played: {name}"] = Statistic(played, 1)
    share = 1 / len(state.winners) if state.winners else 0.0
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
