"""The layout of the Mothership tensor's pieces after the global row (``views/tensor.py``):
what each piece is, where it starts, and the most of each count there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine.tensor import per_game

from ..content.language import KEEPS, TALLIES, parse_effect, parse_need
from ..modules.random_events import NAMES as EVENTS
from ..rules.schema import CHOICES, EFFECTS, ROLLS

if TYPE_CHECKING:
    from ..game import Mothership

LASTING = tuple(name for name in EFFECTS if name != "event")
"""The lasting card and ability effects, in order (the random event in force has its own piece)."""
QUESTIONS = (*CHOICES, "reward", "event", "cancel", "trading", "roll")
"""What the decision asked now is, in order: a choice of each kind, the card a capture takes, doubling
or avoiding a random event, cancelling a card, the end-of-turn trading window, cards on a roll."""
ODDS = ("win", "tie", "lose")
PUBLIC = (
    "tech",
    "holdings",
    "decks",
    "discard",
    "objective discard",
    "beacon deck",
    "kept",
    "artifacts",
    "tallies",
    "fleet ships",
    "turn marks",
    "effects",
    "event",
    "asking",
    "roll detail",
    "script",
)
"""The pieces after ``global row``, in order."""


class PublicLayout:
    """Where each piece after the global row starts, and the most of each count there, from the
    game's content."""

    def __init__(self, game: Mothership) -> None:
        import numpy as np

        c = game.content
        n, ships, cards = game.fleets, c.ships, len(c.cards)
        beacons, objectives = len(c.beacons), len(c.objectives)
        sizes = (
            n * len(c.branches),
            4 * n,
            2,
            cards,
            objectives,
            beacons,
            n * len(KEEPS),
            n * len(c.artifacts),
            n * len(TALLIES),
            2 * n * ships,
            3 * ships + 2,
            n * len(LASTING) * ships,
            len(EVENTS) - 1 + n + 2,
            n + len(QUESTIONS) + ships + cards + n,
            len(ROLLS) + n + ships + 2 + 2 + len(ODDS) + 2 * cards,
            2 + n + beacons + objectives,
        )
        self.at = dict(zip(PUBLIC, (sum(sizes[:i]) for i in range(len(sizes)))))
        """Each piece's start, counted from the first piece after the global row."""
        self.size = sum(sizes)
        self.branch_tiers = [len(branch.tiers) for branch in c.branches]
        self.cards = sum(card.count for card in c.cards)
        self.objectives = sum(model.count for _, model in c.objectives)
        self.objectives_each = c.objective_cards.per_player
        self.beacon_inverse = np.array([1 / model.count if model.count else 0.0 for _, model in c.beacons])
        self.keep_most = [0] * len(KEEPS)
        """The most one beacon card keeps, per kind."""
        for _, beacon in c.beacons:
            for option in beacon.options:
                for effect in map(parse_effect, option.effects + option.otherwise):
                    if effect.verb == "keep":
                        kind = KEEPS.index(effect.word)
                        self.keep_most[kind] = max(self.keep_most[kind], effect.amount)
        self.tally_most = [0] * len(TALLIES)
        """The most an objective asks of each tally."""
        for _, objective in c.objectives:
            for need in map(parse_need, objective.goal):
                if need.quantity in TALLIES:
                    tally = TALLIES.index(need.quantity)
                    self.tally_most[tally] = max(self.tally_most[tally], need.amount)
        self.tally_inverse = np.array([1 / most if most else 0.0 for most in self.tally_most], dtype=np.float32)


public_layout = per_game(PublicLayout)
