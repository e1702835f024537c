"""The standard SpaceRace decks, generated from the rulebook's distributions.

The rulebook gives shapes, not card lists: spaceships average 10 points over
[D|M|A] on a bell curve; treasure is mostly +1 to +3 on one score, a quarter to a
third downgrades of -1 or -2 and a rare -3; starways mix [T], [S] and empty tiles
in various densities. This module turns those shapes into card lists with no
randomness at all, so the committed ``content/decks.toml`` is reproducible:

    python -m spacetable.games.spacerace.content.deckgen > src/spacetable/games/spacerace/content/decks.toml

A test checks that the committed file is exactly this output. Designers who want
other cards edit a copy and pass it with ``--content`` (see RULINGS.md, "Content").

* **Spaceships** (:data:`SHIP_TOTALS`): the number of cards with each point total
  follows a binomial-like bell around 10 (6 to 14 points, 34 cards). Each total's
  cards cycle through its splits from the most balanced (every score at least 1,
  the highest at most 4 above the lowest), so balanced ships are the most common
  and specialists rarer; the splits are laid on D, M and A so that the three
  scores have the same sum over the deck (113, 114, 113).
* **Treasure** (:data:`TREASURE_COUNTS`): per score, four +1, three +2 and one +3
  (24 upgrades), two -1 and one -2 (9 downgrades), and one -3 "bogeyman" on D:
  10 downgrades of 34 cards (29%).
* **Starways** (:data:`DENSITIES`): 24 cards of 4 tiles per deck; the number of
  encounter tiles on a card follows Binomial(4, p) with p = 0.25 (sparse), 0.4
  (standard) or 0.55 (dense), by largest remainders; the cards with k encounters
  take the k-position patterns in turn, and their tiles alternate [T] and [S]
  (swapped on each new pass over the patterns), so each type shows at every place.
"""

from __future__ import annotations

import itertools
import math

SHIP_TOTALS = {6: 1, 7: 2, 8: 4, 9: 6, 10: 8, 11: 6, 12: 4, 13: 2, 14: 1}
"""Spaceship point total -> number of cards."""
MAX_SPREAD = 4
"""A spaceship's highest score is at most this much above its lowest."""
STATS = ("d", "m", "a")
TREASURE_COUNTS = {3: 1, 2: 3, 1: 4, -1: 2, -2: 1}
"""Treasure value -> cards per score (D, M and A each); plus one -3 on D."""
BOGEYMAN = ("d", -3)
UPGRADE_NAMES = {"d": "Shield plating", "m": "Ion thrusters", "a": "Plasma cannons"}
DOWNGRADE_NAMES = {"d": "Hull breach", "m": "Fuel leak", "a": "Jammed turrets"}
STARWAY_CARDS = 24
STARWAY_TILES = 4
DENSITIES = {"sparse": 0.25, "standard": 0.4, "dense": 0.55}
"""Starway deck name -> chance that a tile holds an encounter."""


def ship_shapes(total: int) -> list[tuple[int, int, int]]:
    """The ways to split ``total`` points (lowest score first), each score 1 or more and
    the highest at most :data:`MAX_SPREAD` above the lowest, from the most balanced."""
    shapes = [
        (low, mid, total - low - mid)
        for low in range(1, total)
        for mid in range(low, total)
        if mid <= total - low - mid <= low + MAX_SPREAD
    ]
    return sorted(shapes, key=lambda s: (s[2] - s[0], s))


def ship_deck() -> list[tuple[int, int, int]]:
    """Every spaceship card as (D, M, A), in generation order.

    The cards of one total cycle through its shapes from the most balanced, so
    balanced ships are the most common. Each card's shape is laid on D, M and A in
    the order that keeps the deck's three score sums closest together (the first
    such order alphabetically on ties), so no score is favoured.
    """
    deck: list[tuple[int, int, int]] = []
    sums = (0, 0, 0)
    for total, count in SHIP_TOTALS.items():
        shapes = ship_shapes(total)
        for i in range(count):
            orders = sorted(set(itertools.permutations(shapes[i % len(shapes)])))
            card = min(orders, key=lambda o: _imbalance(tuple(s + v for s, v in zip(sums, o))))
            deck.append((card[0], card[1], card[2]))
            sums = (sums[0] + card[0], sums[1] + card[1], sums[2] + card[2])
    return deck


def _imbalance(sums: tuple[int, ...]) -> int:
    return max(sums) - min(sums)


def treasure_deck() -> list[tuple[str, int, int]]:
    """(stat, value, count) for every treasure card."""
    cards = [(stat, value, count) for value, count in TREASURE_COUNTS.items() for stat in STATS]
    return [*cards, (*BOGEYMAN, 1)]


def _largest_remainders(weights: list[float], total: int) -> list[int]:
    exact = [w * total / sum(weights) for w in weights]
    counts = [math.floor(x) for x in exact]
    order = sorted(range(len(exact)), key=lambda i: (counts[i] - exact[i], i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return counts


def starway_deck(p: float) -> list[tuple[str, int]]:
    """(tiles, count) for a deck whose tiles hold an encounter with probability ``p``."""
    n = STARWAY_TILES
    per_k = _largest_remainders([math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)], STARWAY_CARDS)
    cards: list[str] = []
    encounter = 0
    for k, count in enumerate(per_k):
        places = list(itertools.combinations(range(n), k))
        for i in range(count):
            tiles = ["."] * n
            for place in places[i % len(places)]:
                tiles[place] = "TS"[(encounter + i // len(places)) % 2]
                encounter += 1
            cards.append("".join(tiles))
    merged: dict[str, int] = {}
    for card in cards:
        merged[card] = merged.get(card, 0) + 1
    return list(merged.items())


def render_toml() -> str:
    """The text of ``content/decks.toml``."""
    lines = [
        "# SpaceRace standard decks. GENERATED by `python -m spacetable.games.spacerace.content.deckgen`:",
        "# do not edit by hand; copy what you want to change into your own file and play it with",
        "# `spacetable play spacerace --content my-decks.toml` (a deck given there replaces this one).",
        "# The distributions are documented in deckgen.py and RULINGS.md.",
        "",
        "# Spaceship cards: [D|M|A], `count` copies of each. Point totals 6-14, bell-shaped around 10.",
        "spaceships = [",
    ]
    deck = ship_deck()
    for split in sorted(set(deck), key=lambda s: (sum(s), s)):
        d, m, a = split
        lines.append(f"  {{ d = {d}, m = {m}, a = {a}, count = {deck.count(split)} }},")
    lines += [
        "]",
        "",
        "# Treasure cards: a change to one score of the ship they are attached to.",
        "treasure = [",
    ]
    for stat, value, count in treasure_deck():
        name = (UPGRADE_NAMES if value > 0 else DOWNGRADE_NAMES)[stat]
        delta = {s: (value if s == stat else 0) for s in STATS}
        lines.append(f'  {{ name = "{name}", d = {delta["d"]}, m = {delta["m"]}, a = {delta["a"]}, count = {count} }},')
    lines += ["]", "", "# Starway decks by density: 4 tiles each, T treasure, S spaceship, . empty.", "[starways]"]
    for name, p in DENSITIES.items():
        lines.append(f"{name} = [")
        lines += [f'  {{ tiles = "{tiles}", count = {count} }},' for tiles, count in starway_deck(p)]
        lines.append("]")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render_toml(), end="")
