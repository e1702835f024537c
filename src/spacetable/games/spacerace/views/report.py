"""Figures of a finished game for designers' batch reports (``spacetable simulate``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import JSON, Statistic

from ..rules.planets import planet_count
from ..rules.setup import design_splits

if TYPE_CHECKING:
    from ..rules.state import SpaceRaceState

CHOICES = ("draw_treasure", "draw_ship", "flee", "contest", "assimilate", "destroy")
"""The kinds of the record's rows the figures count (the draws are chance's)."""


def statistics(state: SpaceRaceState, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
    """Headline figures: the planets and ships each player holds at the end and the mothership
    design's D, M and A, per player; from the record's rows ``moves``, the treasure cards drawn
    and spaceship encounters a game, the share of standoffs fled (where the attacker, faster, may
    flee) and of beaten ships assimilated.
    Details: the win rate of the players who chose each mothership design, and of those who hold
    each treasure card and spaceship card at the end (ties share a win); from ``moves``, the
    copies of each card drawn a game. Cards with the same face count as one card."""
    content = state.content
    seats = range(state.game.players)
    fleets = state.fleets
    share = 1 / len(state.winners) if state.winners else 0.0
    planets = sum(planet_count(state, s) for s in seats)
    figures = {
        "planets held at the end (per player)": Statistic(planets, len(seats), headline=True),
        "ships at the end (per player)": Statistic(sum(len(fleets[s]) for s in seats), len(seats), headline=True),
    }
    for score, letter in enumerate("DMA"):
        chosen = sum(design[score] for design in state.designs if design is not None)
        figures[f"mothership design: {letter} (per player)"] = Statistic(chosen, len(seats), headline=True)

    def win_rate(name: str, group: list[int]) -> None:
        wins = sum(share for s in group if s in state.winners)
        figures[f"win rate, {name}"] = Statistic(wins, len(group), percent=True)

    for design in design_splits(content.mothership_points, content.mothership_minimum):
        win_rate("mothership design [{}|{}|{}]".format(*design), [s for s in seats if state.designs[s] == design])
    treasure: dict[str, list[int]] = {}
    for card, face in enumerate(content.treasure):
        treasure.setdefault(face.describe(), []).append(card)
    ships: dict[str, list[int]] = {}
    for card, stats in enumerate(content.ships):
        ships.setdefault("spaceship [{}|{}|{}]".format(*stats), []).append(card)
    for name, cards in treasure.items():
        win_rate(f"held {name} at the end", [s for s in seats if any(set(cards) & set(p.treasure) for p in fleets[s])])
    for name, cards in ships.items():
        win_rate(f"held {name} at the end", [s for s in seats if any(p.card in cards for p in fleets[s])])
    if not moves:
        return figures
    counts = dict.fromkeys(CHOICES, 0)
    drawn = {"draw_treasure": [0] * len(content.treasure), "draw_ship": [0] * len(content.ships)}
    for _, data in moves:
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind in counts:
            counts[kind] += 1
        if kind in drawn:
            drawn[kind][int(data["card"])] += 1
    standoffs, rewards = counts["flee"] + counts["contest"], counts["assimilate"] + counts["destroy"]
    figures["treasure cards drawn (total)"] = Statistic(counts["draw_treasure"], 1, headline=True)
    figures["spaceship encounters (total)"] = Statistic(counts["draw_ship"], 1, headline=True)
    figures["standoffs fled"] = Statistic(counts["flee"], standoffs, percent=True, headline=True)
    figures["beaten ships assimilated"] = Statistic(counts["assimilate"], rewards, percent=True, headline=True)
    for name, cards in treasure.items():
        figures[f"drawn: {name}"] = Statistic(sum(drawn["draw_treasure"][c] for c in cards), 1)
    for name, cards in ships.items():
        figures[f"encountered: {name}"] = Statistic(sum(drawn["draw_ship"][c] for c in cards), 1)
    return figures
