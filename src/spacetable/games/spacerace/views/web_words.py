"""The words of SpaceRace's web board: the glossary, and the texts built from the content data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..content import Content


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


# ---- the words (glossary and titles) -------------------------------------------------------


def treasure_kinds(content: Content) -> dict[str, list[tuple[str, int]]]:
    """Treasure card name -> [(change, copies)], from the deck of the content."""
    kinds: dict[str, list[tuple[str, int]]] = {}
    for card, count in zip(content.treasure, content.treasure_counts):
        change = " ".join(f"{s}{_signed(v)}" for s, v in (("D", card.d), ("M", card.m), ("A", card.a)) if v)
        kinds.setdefault(card.name, []).append((change, count))
    return kinds


def treasure_term(name: str) -> str:
    return f"treasure: {name}"


def conquest_text(content: Content) -> str:
    table = ", ".join(f"{roll} → {cards}" for roll, cards in enumerate(content.conquest_treasure, start=1))
    return table


def glossary(content: Content, options: Mapping[str, Any]) -> dict[str, str]:
    """Every term the board names, one sentence each, with the numbers of the content and options."""
    delay = options.get("nexus_delay", 1)
    single = options.get("combat") == "single"
    words = {
        "Nexus": (
            "The hub in the middle of the galaxy: a ship entering it stops there and then sits out "
            f"{plural(delay, 'turn')} of customs before flying on."
        ),
        "planet": "A world to take: a ship ending its move on a planet nobody else guards makes it yours.",
        "homeworld": "The planet a player picked at set-up and starts with; a destroyed mothership is rebuilt there.",
        "starway": (
            f"A lane of {content.starway_tiles} tiles joining two places; every tile, planet and the Nexus is one step."
        ),
        "direct link": "A planet beside the Nexus is one step from it, with no starway between.",
        "treasure tile": "A [T] tile: a ship that ends its move here draws a treasure card.",
        "spaceship tile": "An [S] tile: a ship that ends its move here meets a wild spaceship drawn from the deck.",
        "empty tile": "An empty tile: nothing happens to a ship that stops here.",
        "unlaid tile": "A tile whose starway card has not been drawn yet.",
        "D": "D, defence: a strike only beats this ship when its A is higher than this D.",
        "M": "M, movement: how many steps the ship may fly per move; the higher M strikes first in battle.",
        "A": "A, attack: this ship beats an enemy when its A is higher than the enemy's D.",
        "spaceship": (
            "A ship of a fleet, shown as D|M|A in its owner's colour and shape; a gold badge counts its treasure cards."
        ),
        "mothership": (
            f"The ship each player designs with {content.mothership_points} points over D, M and A "
            f"(at least {content.mothership_minimum} each); it cannot be assimilated."
        ),
        "wild spaceship": "A spaceship card drawn for an [S] tile: beat it to capture it into your fleet.",
        "design": (
            f"Spread {content.mothership_points} points over the mothership's D, M and A, "
            f"each at least {content.mothership_minimum}: choose D, then M, and A takes the rest."
        ),
        "fleet": f"A player's ships, at most {content.fleet_limit}, the mothership included.",
        "treasure": "A card fixed to the ship that found it, raising or lowering its scores (never below 0).",
        "initiative": (
            "The ship with the higher M strikes first; with equal M the player strikes first against a wild ship, "
            "and two players roll a die each."
            if options.get("map_initiative", "player") == "player"
            else "The ship with the higher M strikes first; with equal M each side rolls a die, the higher first."
        ),
        "strike": (
            "One strike decides: A above the target's D wins, an equal A is a standoff, a lower A loses."
            if single
            else "The striker's A against the target's D: higher wins, equal is a standoff, lower lets the "
            "target strike back."
        ),
        "standoff": "No winner after the strikes: the faster attacker may flee, otherwise a die each decides.",
        "contest": "Settle a standoff with a die each; the higher roll wins the battle (ties are rolled again).",
        "flee": "An attacker with the higher M may leave a standoff and return to the space it came from.",
        "assimilate": "The winner of a battle between players takes the beaten ship, treasure and all, into its fleet.",
        "destroy": "The winner of a battle between players scraps the beaten ship and moves its treasure cards aboard.",
        "planetary assault": (
            "Attacking ships that orbit their owner's planet: the defenders fight with M 0 and their D doubled."
        ),
        "conquest roll": (
            f"Taking a planet earns a die roll, paid in treasure cards ({conquest_text(content)})."
            if options.get("conquest_roll", "always") == "always"
            else f"A planet won by planetary assault earns a die roll, paid in treasure cards "
            f"({conquest_text(content)})."
        ),
        "rebuild": (
            f"A destroyed mothership comes back when a die plus the planets its player holds reaches "
            f"{content.rebuild_target}."
        ),
        "customs": "A ship that stopped at the Nexus, or just joined a fleet, waits before it may move again.",
        "round": (
            "Every player takes a turn, moving a ship or passing"
            + (f"; after {options['turn_limit']} rounds the most planets wins." if options.get("turn_limit") else ".")
        ),
        "eliminated": "A player with no planet and no ship left is out of the game.",
        "battle": "Ships of two sides on one space fight: initiative, strikes, maybe a standoff, then the reward.",
    }
    for name, cards in treasure_kinds(content).items():
        changes = ", ".join(f"{change} ({count}×)" for change, count in cards)
        words[treasure_term(name)] = f"Treasure card {name}: {changes} on the ship that carries it."
    return words
