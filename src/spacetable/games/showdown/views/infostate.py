"""What a showdown seat's information-state tensor remembers beyond its view (``Game.recall``).

The view shows the seat its own mat, hand and hull, and every mat once the privacy screens are
down; it forgets the packs the seat passed on in the draft, the cards it discarded face down,
and countermeasures that were face up once and have left play. With D picks per seat (hand
size times upgrade rounds), N seats and the 15 card kinds, the memory holds, in order:

==============  ==============  =================================================================
piece           size            values
==============  ==============  =================================================================
packs           D * 15          per pick, in order: the hand the seat chose from, copies of each
                                kind / hand size
picks           D * 31          per pick, in order: the card taken (one-hot), 1 if it was
                                discarded for a hull token, the upgrade it replaced (one-hot)
revealed        (N - 1) * 6     per other seat (relative, as in the tensor): 1 for each
                                countermeasure kind seen face up on its mat
==============  ==============  =================================================================

Not remembered: the showdown's dice, the order of attacks and boardings, and how many copies of
a countermeasure kind a seat showed (only that it showed one); the view keeps what is still in
play of those, the public pile what was discarded face up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from spacetable.engine import Action, State
from spacetable.engine.tensor import Recall, per_game, ratio

from ..content import CARD_KINDS, COUNTERMEASURES
from ..rules.actions import HULL, Pick

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..game import Showdown
    from ..rules.state import ShowdownState

KINDS = len(CARD_KINDS)
PICK_WIDTH = 2 * KINDS + 1
"""A pick's block: the card, the hull flag, the replaced upgrade."""


class DraftRecall(Recall):
    """Showdown's memory: the packs and picks of the draft, and the countermeasures seen."""

    def __init__(self, game: Showdown) -> None:
        self.players = game.players
        self.picks = game.content.dealt
        self.hand_size = game.content.rules.hand_size
        self.packs_at = 0
        self.picks_at = self.picks * KINDS
        self.revealed_at = self.picks_at + self.picks * PICK_WIDTH
        self.size = self.revealed_at + (self.players - 1) * len(COUNTERMEASURES)

    def glimpse(self, state: State, seat: int) -> Any:
        """The seat's view's player entries as :meth:`remember` reads them: of its own entry its
        picks and hand, of the others' the cards of the countermeasures it sees face up (none
        behind the privacy screens), as ``ShowdownState.player_view`` shows them."""
        s = cast("ShowdownState", state)
        screened = s.screened()
        return {
            "players": [
                {"picks": s.picks[p], "hand": list(s.hands[p])}
                if p == seat
                else {}
                if screened
                else {"countermeasures": [{"card": slot.card} for slot in s.cms[p] if slot.known]}
                for p in range(self.players)
            ]
        }

    def remember(
        self, memory: npt.NDArray[np.float32], seat: int, before: Any, action: Action | None, after: Any
    ) -> None:
        if isinstance(action, Pick):
            own = before["players"][seat]
            index = own["picks"]
            if index < self.picks:
                self._pick(memory, index, own.get("hand", []), action)
        self._reveal(memory, seat, after["players"])

    def _pick(self, memory: npt.NDArray[np.float32], index: int, hand: list[str], pick: Pick) -> None:
        pack = self.packs_at + index * KINDS
        for kind in set(hand):
            memory[pack + CARD_KINDS.index(kind)] = ratio(hand.count(kind), self.hand_size)
        block = self.picks_at + index * PICK_WIDTH
        memory[block + CARD_KINDS.index(pick.card)] = 1.0
        memory[block + KINDS] = float(pick.use == HULL)
        if pick.replace:
            memory[block + KINDS + 1 + CARD_KINDS.index(pick.replace)] = 1.0

    def _reveal(self, memory: npt.NDArray[np.float32], seat: int, players: list[dict[str, Any]]) -> None:
        n = self.players
        for relative in range(1, n):
            slots: list[dict[str, Any]] = players[(seat + relative) % n].get("countermeasures", [])
            at = self.revealed_at + (relative - 1) * len(COUNTERMEASURES)
            for slot in slots:
                if slot["card"] in COUNTERMEASURES:
                    memory[at + COUNTERMEASURES.index(slot["card"])] = 1.0


@per_game
def recall(game: Showdown) -> DraftRecall:
    """The game's :class:`DraftRecall` (one per game: it holds only sizes)."""
    return DraftRecall(game)
