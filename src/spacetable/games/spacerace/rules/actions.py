"""The actions of SpaceRace: what players (and chance) can do.

Chance: every d6 is a :class:`~spacetable.engine.Roll`; every blind draw names
the card drawn (an index into its deck in the content), with the probability of
its remaining copies.
"""

from __future__ import annotations

from typing import NamedTuple

from spacetable.engine import ActionSpace, Roll

from ..content import Content
from .mapgen import Galaxy


class LayStarway(NamedTuple):
    """Chance, set-up: the starway card drawn for the next starway of the map."""

    card: int
    kind: str = "lay_starway"


class DrawShip(NamedTuple):
    """Chance: the spaceship card drawn for an [S] encounter."""

    card: int
    kind: str = "draw_ship"


class DrawTreasure(NamedTuple):
    """Chance: the treasure card drawn (on a [T] tile or for a planetary conquest)."""

    card: int
    kind: str = "draw_treasure"


class Homeworld(NamedTuple):
    """Set-up: choose this planet (a node) as your homeworld."""

    planet: int
    kind: str = "homeworld"


class Design(NamedTuple):
    """Set-up: spread the mothership's points over its [D|M|A]."""

    d: int
    m: int
    a: int
    kind: str = "design"


class Move(NamedTuple):
    """Move your ship number ``ship`` (its place in your fleet) to node ``to``."""

    ship: int
    to: int
    kind: str = "move"


class EndTurn(NamedTuple):
    """End your turn (the ships not moved stay where they are)."""

    kind: str = "end_turn"


class Contest(NamedTuple):
    """In a standoff: settle the battle with a d6 each, the higher wins."""

    kind: str = "contest"


class Flee(NamedTuple):
    """In a standoff, with the higher M: go back to the space you came from."""

    kind: str = "flee"


class Assimilate(NamedTuple):
    """After winning against a player: take the defeated ship into your fleet."""

    kind: str = "assimilate"


class Destroy(NamedTuple):
    """After winning against a player: destroy the defeated ship and take its treasure cards."""

    kind: str = "destroy"


def action_space(content: Content, galaxy: Galaxy, starway_deck: str) -> ActionSpace:
    points = range(content.mothership_points + 1)
    return ActionSpace(
        (Roll, {"value": range(1, 7)}),
        (LayStarway, {"card": range(len(content.starway_decks[starway_deck][0]))}),
        (DrawShip, {"card": range(len(content.ships))}),
        (DrawTreasure, {"card": range(len(content.treasure))}),
        (Homeworld, {"planet": galaxy.planets}),
        (Design, {"d": points, "m": points, "a": points}),
        (Move, {"ship": range(content.fleet_limit), "to": range(galaxy.size)}),
        (EndTurn, {}),
        (Contest, {}),
        (Flee, {}),
        (Assimilate, {}),
        (Destroy, {}),
    )
