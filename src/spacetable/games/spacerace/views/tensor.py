"""The observation tensor of SpaceRace: the view as numbers in [0, 1], for learners.

The view is the whole state (nothing is hidden); the layout is documented in docs/INTEROP.md too.

Seats are relative: "seat r" is the seat r places after the observer (the observer is r = 0),
so one policy serves every seat. A ship's scores are worked out from its card (or its owner's
design) and its treasure, as the rules do. With N seats, V map nodes (``galaxy``: the Nexus is
node 0), F fleet places, and the deck sizes Ws (starway cards of the chosen density), Sc
(spaceship cards) and T (treasure cards), the flat tensor holds, in order:

=============  =================  ===============================================================
piece          size               values
=============  =================  ===============================================================
phase          14                 one-hot: starways, order, homeworld, design, rebuild, move,
                                  initiative, standoff, contest, reward, encounter, conquest,
                                  treasure, over
clock          2                  round / turn limit (without one: / 40, the batches' limit),
                                  treasure cards still to draw / the most a conquest draws
turn           2 * N              seat whose turn it is, seat who started the round
tiles          6 * V              per node: Nexus, planet, treasure, spaceship, empty, not yet laid
owners         N * V              per seat: 1 on each planet it controls
move           F + V              the turn seat's fleet place that is moving, the node it left
fleets         N * F * (8 + V)    per seat and fleet place: present, mothership, D, M and A /
                                  (2 * mothership points), wait / (Nexus delay + 1), moved this
                                  turn, treasure cards / treasure cards in the deck, its node
seats          N * (V + 7 + N)    per seat: homeworld node, design D, M and A / mothership
                                  points, has a design, rebuilding its mothership, eliminated,
                                  its order roll / 6, its place in the order of choice
decks          Ws + Sc + T        copies left of each card / copies in the deck
battle         12 + N             a battle is on, its kind (player vs map, player vs player,
                                  planetary assault), the defending seat, the defender's D, M, A
                                  / (2 * mothership points), who strikes first (attacker,
                                  defender), the attacker's contest die / 6, the winner
                                  (attacker, defender)
winners        N                  1 for each winner
=============  =================  ===============================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spacetable.engine import JSON
from spacetable.engine.tensor import one_hot, ratio

from ..content import Stats
from ..rules.mapgen import NEXUS_MARK, PLANET_MARK, UNLAID
from ..rules.ships import MOTHERSHIP, scores
from ..rules.state import ASSAULT, ATTACKER, DEFENDER, PHASES, PVM, PVP
from ..rules.turns import BATCH_ROUNDS

if TYPE_CHECKING:
    from ..game import SpaceRace

MARKS = (NEXUS_MARK, PLANET_MARK, "T", "S", ".", UNLAID)
BATTLES = (PVM, PVP, ASSAULT)
SIDES = (ATTACKER, DEFENDER)
SHIP_FIELDS = 8
SEAT_FIELDS = 7


def shape(game: SpaceRace) -> tuple[int, ...]:
    n, nodes, fleet = game.players, game.galaxy.size, game.content.fleet_limit
    decks = len(game.starway_counts) + len(game.content.ships) + len(game.content.treasure)
    size = len(PHASES) + 2 + 2 * n + len(MARKS) * nodes + n * nodes + fleet + nodes
    size += n * fleet * (SHIP_FIELDS + nodes) + n * (nodes + SEAT_FIELDS + n) + decks
    return (size + 1 + len(BATTLES) + n + 3 + len(SIDES) + 1 + len(SIDES) + n,)


def encode(game: SpaceRace, view: JSON, seat: int) -> list[float]:
    """The tensor of ``view``, which is ``state.view(seat)`` of this game."""
    c, galaxy = game.content, game.galaxy
    n, nodes = game.players, galaxy.size
    v: dict[str, Any] = view
    order = [(seat + r) % n for r in range(n)]
    cap = 2 * c.mothership_points
    out = one_hot(v["phase"], PHASES)
    out += [ratio(v["round"], game.options["turn_limit"] or BATCH_ROUNDS), ratio(v["draws"], max(c.conquest_treasure))]
    out += one_hot((v["turn"] - seat) % n, range(n)) + one_hot((v["starter"] - seat) % n, range(n))
    for mark in v["tiles"]:
        out += one_hot(mark, MARKS)
    for p in order:
        out += [float(owner == p) for owner in v["owner"]]
    out += one_hot(v["moving"], range(c.fleet_limit)) + one_hot(v["origin"], range(nodes))
    for p in order:
        fleet = v["fleets"][p]
        for place in range(c.fleet_limit):
            if place >= len(fleet):
                out += [0.0] * (SHIP_FIELDS + nodes)
                continue
            card, _name, node, treasure, wait, acted = fleet[place]
            d, m, a = _scores(game, v, p, card, treasure)
            out += [1.0, float(card == MOTHERSHIP), ratio(d, cap), ratio(m, cap), ratio(a, cap)]
            out += [ratio(wait, game.options["nexus_delay"] + 1), float(acted), ratio(len(treasure), len(c.treasure))]
            out += one_hot(node, range(nodes))
    for p in order:
        design = v["designs"][p] or [0, 0, 0]
        out += one_hot(v["homeworld"][p], range(nodes))
        out += [ratio(score, c.mothership_points) for score in design]
        out += [float(v["designs"][p] is not None), float(v["rebuilding"][p]), float(v["out"][p])]
        out += [ratio(v["rolls"][p], 6), *one_hot(v["order"].index(p) if p in v["order"] else None, range(n))]
    out += [ratio(left, full) for left, full in zip(v["starway_deck"], game.starway_counts)]
    out += [ratio(left, full) for left, full in zip(v["ship_deck"], c.ship_counts)]
    out += [ratio(left, full) for left, full in zip(v["treasure_deck"], c.treasure_counts)]
    out += _battle(game, v, seat)
    return out + [float(p in v["winners"]) for p in order]


def _battle(game: SpaceRace, v: dict[str, Any], seat: int) -> list[float]:
    n = game.players
    fight = v["battle"]
    if fight is None:
        return [0.0] * (1 + len(BATTLES) + n + 3 + len(SIDES) + 1 + len(SIDES))
    kind, foe, foe_ship, first, roll, winner = fight
    if kind == PVM:
        defender = game.content.ships[foe_ship]
    else:
        card, _name, _node, treasure, _wait, _acted = v["fleets"][foe][foe_ship]
        defender = _scores(game, v, foe, card, treasure)
    cap = 2 * game.content.mothership_points
    out = [1.0, *one_hot(kind, BATTLES), *(one_hot((foe - seat) % n, range(n)) if foe >= 0 else [0.0] * n)]
    out += [ratio(score, cap) for score in defender]
    return out + one_hot(first, SIDES) + [ratio(roll, 6)] + one_hot(winner, SIDES)


def _scores(game: SpaceRace, v: dict[str, Any], owner: int, card: int, treasure: list[int]) -> Stats:
    """A ship's [D|M|A]: its card's (a mothership: its owner's design) changed by its treasure."""
    d, m, a = v["designs"][owner] if card == MOTHERSHIP else game.content.ships[card]
    return scores((d, m, a), tuple(treasure), game.content)
