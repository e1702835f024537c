"""What a Mothership seat's information-state tensor remembers beyond its view (``Game.recall``).

The view shows the seat its hand, the cards it knows others hold, its objectives and the
discard pile as it is now; it forgets the cards that passed through the seat's hand, the
discards that went back into the deck when it ran out, and the objectives it gave up. With A
action card kinds and O objective cards in the content (39 and 25 with the printed ones), the
memory holds, in order:

============  =====  ===================================================================
piece         size   values
============  =====  ===================================================================
held          A      copies of each kind that came into the seat's hand (drawn, bought,
                     taken) over the game / its copies, at most 1
discarded     A      copies of each kind seen going to the discard pile over the game (played
                     or sold, by anyone) / its copies, at most 1
objectives    O      1 for each objective card the seat has held
============  =====  ===================================================================

Not remembered: when any of it happened, who discarded what, the board's past (ships' paths,
dice), and counts beyond a kind's copies (a kind reshuffled and seen again saturates at 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from spacetable.engine import Action, State
from spacetable.engine.tensor import Recall, per_game

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..game import Mothership
    from ..rules.state import MothershipState


class CardRecall(Recall):
    """Mothership's memory: the cards through the seat's hand, the discards, the objectives held."""

    def __init__(self, game: Mothership) -> None:
        content = game.content
        self.copies = [max(card.count, 1) for card in content.cards]
        self.discarded_at = len(self.copies)
        self.objectives_at = 2 * len(self.copies)
        self.size = self.objectives_at + len(content.objectives)

    def glimpse(self, state: State, seat: int) -> Any:
        """The seat's view's hand, discard pile and objectives (as ``view(seat)`` has them: the
        seat's own lists at its index), read from the state without copying its shared fields."""
        s = cast("MothershipState", state)
        return {
            "hands": {seat: s.hands[seat][:]},
            "discard": s.peek("discard")[:],
            "objectives": {seat: s.peek("objectives")[seat][:]},
        }

    def remember(
        self, memory: npt.NDArray[np.float32], seat: int, before: Any, action: Action | None, after: Any
    ) -> None:
        for card, gained in _increases(before["hands"][seat], after["hands"][seat]).items():
            memory[card] = min(1.0, memory[card] + gained / self.copies[card])
        for card, (was, now) in enumerate(zip(before["discard"], after["discard"])):
            if now > was:
                at = self.discarded_at + card
                memory[at] = min(1.0, memory[at] + (now - was) / self.copies[card])
        held = after.get("objectives")
        if held:
            for card in held[seat]:
                memory[self.objectives_at + card] = 1.0


def _increases(before: list[int], after: list[int]) -> dict[int, int]:
    """How many more copies of each card number ``after`` holds than ``before``."""
    gained: dict[int, int] = {}
    for card in after:
        gained[card] = gained.get(card, 0) + 1
    for card in before:
        if card in gained:
            gained[card] -= 1
    return {card: count for card, count in gained.items() if count > 0}


@per_game
def recall(game: Mothership) -> CardRecall:
    """The game's :class:`CardRecall` (one per game: it holds only sizes)."""
    return CardRecall(game)
