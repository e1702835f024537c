"""Figures of a finished game for designers' batch reports (``spacetable simulate``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import JSON, Statistic

from ..content import CATEGORIES
from ..modules import beacons, exploration, objectives, victory

if TYPE_CHECKING:
    from ..rules.state import MothershipState


def statistics(state: MothershipState, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
    """Headline figures: the cards bought and played in a game, in all and by timing (when a card
    may be played); each technology branch's pick rate (the share of players who climbed it) and
    the win rate of its climbers (ties share a win); the tiers reached and the resources held at
    the end, per player. Details: the copies of each card bought and played, the win rate of the
    players who played each card (found in ``moves``, the record's rows) and of those who held it
    at the end, and the tiers each branch's climbers reached. Then the figures of the modes and
    options in play."""
    content = state.game.content
    seats = range(state.game.players)
    share = 1 / len(state.winners) if state.winners else 0.0
    figures = {
        "cards bought (total)": Statistic(sum(state.bought[s] for s in seats), 1, headline=True),
        "cards played (total)": Statistic(sum(state.played), 1, headline=True),
    }
    for timing in dict.fromkeys(card.timing for card in content.cards):
        kinds = [k for k, card in enumerate(content.cards) if card.timing == timing]
        bought, played = sum(state.bought_kinds[k] for k in kinds), sum(state.played[k] for k in kinds)
        figures[f"cards bought (timing: {timing})"] = Statistic(bought, 1, headline=True)
        figures[f"cards played (timing: {timing})"] = Statistic(played, 1, headline=True)
    played_by: list[set[int]] = [set() for _ in content.cards]
    for seat, data in moves:
        if seat is not None and isinstance(data, dict) and data.get("kind") == "play":
            played_by[int(data["card"])].add(seat)
    for card, (bought, played) in enumerate(zip(state.bought_kinds, state.played)):
        name = content.cards[card].name
        figures[f"bought: {name}"] = Statistic(bought, 1)
        figures[f"played: {name}"] = Statistic(played, 1)
        groups = {f"held {name} at the end": [s for s in seats if card in state.hands[s]]}
        if moves:
            groups[f"played {name}"] = sorted(played_by[card])
        for what, group in groups.items():
            wins = sum(share for s in group if s in state.winners)
            figures[f"win rate, {what}"] = Statistic(wins, len(group), percent=True)
    for index, branch in enumerate(content.branches):
        category = CATEGORIES.index(branch.category)
        climbers = [s for s in seats if state.branches[s][category] == index]
        wins = sum(share for s in climbers if s in state.winners)
        tiers = sum(state.tiers[s][category] for s in climbers)
        figures[f"pick rate, {branch.name} tree"] = Statistic(len(climbers), len(seats), percent=True, headline=True)
        figures[f"win rate, {branch.name} tree"] = Statistic(wins, len(climbers), percent=True, headline=True)
        figures[f"tiers reached, {branch.name} tree"] = Statistic(tiers, len(climbers))
    tiers_reached = sum(sum(state.tiers[s]) for s in seats)
    figures["tech tiers reached (per player)"] = Statistic(tiers_reached, len(seats), headline=True)
    resources = sum(state.resources[s] for s in seats)
    figures["resources held at the end (per player)"] = Statistic(resources, len(seats), headline=True)
    figures.update(victory.statistics(state))  # mode victory_points: points and how games ended
    figures.update(exploration.statistics(state))  # option exploration: artifacts found and held
    figures.update(beacons.statistics(state))  # option beacons: each card's draws and options
    figures.update(objectives.statistics(state))  # option objectives: each card dealt, done, rewards
    return figures
