"""The view as SpaceRace's web board reads it: the ships with their scores, the seat deciding, the context."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..content import Content, Stats
from ..rules.mapgen import Galaxy
from ..rules.ships import MOTHERSHIP, scores
from ..rules.state import ATTACKER
from .web_layout import MapLayout
from .web_markup import PLAYER_NAMES

# ---- reading the view ------------------------------------------------------------------------


@dataclass(frozen=True)
class ShipView:
    seat: int
    index: int
    card: int
    name: str
    node: int
    treasure: tuple[int, ...]
    stats: Stats
    wait: int
    acted: bool

    @property
    def label(self) -> str:
        return f"{self.name} [{'|'.join(map(str, self.stats))}]"

    @property
    def mothership(self) -> bool:
        return self.card == MOTHERSHIP


def ship_views(view: Mapping[str, Any], content: Content) -> list[list[ShipView]]:
    fleets = []
    for seat, fleet in enumerate(view["fleets"]):
        ships = []
        for index, (card, name, node, treasure, wait, acted) in enumerate(fleet):
            base: Stats
            if card == MOTHERSHIP:
                design = view["designs"][seat]
                base = (design[0], design[1], design[2]) if design else (0, 0, 0)
            else:
                base = content.ships[card]
            cards = tuple(treasure)
            ships.append(ShipView(seat, index, card, name, node, cards, scores(base, cards, content), wait, acted))
        fleets.append(ships)
    return fleets


def deciding_seat(view: Mapping[str, Any]) -> int:
    """The seat deciding now, or -1 (chance, or the end)."""
    phase = view["phase"]
    if phase in ("homeworld", "design"):
        key = "homeworld" if phase == "homeworld" else "designs"
        done = sum(1 for h in view[key] if (h >= 0 if phase == "homeworld" else h is not None))
        order = view["order"]
        return int(order[done]) if done < len(order) else -1
    if phase == "reward":
        b = view["battle"]
        return int(view["turn"]) if b[5] == ATTACKER else int(b[1])
    if phase in ("move", "standoff"):
        return int(view["turn"])
    return -1


@dataclass
class Ctx:
    """What every part of the drawing reads."""

    galaxy: Galaxy
    content: Content
    options: Mapping[str, Any]
    view: Mapping[str, Any]
    seat: int | None
    fleets: list[list[ShipView]]
    lay: MapLayout

    def who(self, seat: int) -> str:
        return PLAYER_NAMES[seat] + (" (you)" if seat == self.seat else "")

    def treasure_words(self, cards: Sequence[int]) -> str:
        return ", ".join(self.content.treasure[c].describe() for c in cards)

    def ship_title(self, ship: ShipView) -> str:
        d, m, a = ship.stats
        kind = "mothership" if ship.mothership else "spaceship"
        words = f"{PLAYER_NAMES[ship.seat]}'s {kind} {ship.name}: D {d} defence, M {m} movement, A {a} attack."
        if ship.treasure:
            words += f" Treasure: {self.treasure_words(ship.treasure)}."
        else:
            words += " No treasure."
        words += f" At {self.galaxy.place(ship.node)}."
        if ship.wait:
            words += " Waiting (customs, or just joined the fleet)."
        if ship.acted:
            words += " Moved this turn."
        if ship.seat == self.view["turn"] and self.view["phase"] == "move":
            words += f" Ship number {ship.index + 1} of the fleet."
        return words
