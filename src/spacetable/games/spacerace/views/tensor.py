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

from typing import TYPE_CHECKING, Any, TypeAlias

from spacetable.engine import JSON, State
from spacetable.engine.tensor import GLOBAL, SEATS, one_hot, per_game, ratio, turned

from ..content import Stats
from ..rules.mapgen import NEXUS_MARK, PLANET_MARK, UNLAID
from ..rules.ships import MOTHERSHIP, scores
from ..rules.state import ASSAULT, ATTACKER, DEFENDER, PHASES, PVM, PVP
from ..rules.turns import BATCH_ROUNDS

if TYPE_CHECKING:
    import numpy as np  # the rl extra's: imported inside the functions that build tensors
    import numpy.typing as npt

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
    return _turned(_pieces(game, view), seat, game.players)


def encode_shared(game: SpaceRace, state: State, seat: int, shared: dict[str, Any]) -> npt.NDArray[np.float64]:
    """:func:`encode` of ``state.view(seat)``, the same numbers: the view is the same for every
    seat, so its tensor with the seats absolute is worked out once per state and kept in
    ``shared`` (a dict kept with the unchanged state), then turned round to each seat."""
    import numpy as np

    absolute = shared.get("spacerace")
    if absolute is None:
        pieces = _pieces(game, state.view(None))
        absolute = shared["spacerace"] = np.array([x for blocks in pieces for block in blocks for x in block])
    return absolute[_layout(game)[seat]]


@per_game
def _layout(game: SpaceRace) -> list[npt.NDArray[np.intp]]:
    """Where each entry of a seat's tensor is in the tensor with the seats absolute (:func:`turned`)."""
    pieces = _pieces(game, game.new_initial_state().view(None))
    turning = [(sum(map(len, blocks)), GLOBAL if len(blocks) == 1 else SEATS) for blocks in pieces]
    return turned(game.players, turning)


Piece: TypeAlias = list[list[float]]
"""A piece of the tensor with the seats absolute: one block (the same for every observer), or a
block per seat."""


def _turned(pieces: list[Piece], seat: int, n: int) -> list[float]:
    """The tensor of ``seat``: the pieces in order, each piece's blocks from ``seat``'s on."""
    out: list[float] = []
    for blocks in pieces:
        if len(blocks) == 1:
            out += blocks[0]
        else:
            for r in range(n):
                out += blocks[(seat + r) % n]
    return out


def _pieces(game: SpaceRace, view: JSON) -> list[Piece]:
    """The tensor's pieces of ``view``, seats absolute."""
    c, galaxy = game.content, game.galaxy
    n, nodes, seats = game.players, galaxy.size, range(game.players)
    v: dict[str, Any] = view
    cap = 2 * c.mothership_points
    head = one_hot(v["phase"], PHASES)
    head += [ratio(v["round"], game.options["turn_limit"] or BATCH_ROUNDS), ratio(v["draws"], max(c.conquest_treasure))]
    tiles: list[float] = []
    for mark in v["tiles"]:
        tiles += one_hot(mark, MARKS)
    move = one_hot(v["moving"], range(c.fleet_limit)) + one_hot(v["origin"], range(nodes))
    fleets: Piece = []
    for p in seats:
        fleet, block = v["fleets"][p], []
        for place in range(c.fleet_limit):
            if place >= len(fleet):
                block += [0.0] * (SHIP_FIELDS + nodes)
                continue
            card, _name, node, treasure, wait, acted = fleet[place]
            d, m, a = _scores(game, v, p, card, treasure)
            block += [1.0, float(card == MOTHERSHIP), ratio(d, cap), ratio(m, cap), ratio(a, cap)]
            block += [ratio(wait, game.options["nexus_delay"] + 1), float(acted), ratio(len(treasure), len(c.treasure))]
            block += one_hot(node, range(nodes))
        fleets.append(block)
    players: Piece = []
    for p in seats:
        design = v["designs"][p] or [0, 0, 0]
        block = one_hot(v["homeworld"][p], range(nodes)) + [ratio(score, c.mothership_points) for score in design]
        block += [float(v["designs"][p] is not None), float(v["rebuilding"][p]), float(v["out"][p])]
        block += [ratio(v["rolls"][p], 6), *one_hot(v["order"].index(p) if p in v["order"] else None, range(n))]
        players.append(block)
    decks = [ratio(left, full) for left, full in zip(v["starway_deck"], game.starway_counts)]
    decks += [ratio(left, full) for left, full in zip(v["ship_deck"], c.ship_counts)]
    decks += [ratio(left, full) for left, full in zip(v["treasure_deck"], c.treasure_counts)]
    pieces = [[head], _seat_blocks(v["turn"] % n, n), _seat_blocks(v["starter"] % n, n), [tiles]]
    pieces += [[[float(owner == p) for owner in v["owner"]] for p in seats], [move], fleets, players, [decks]]
    return pieces + _battle(game, v) + [[[float(p in v["winners"])] for p in seats]]


def _seat_blocks(p: int | None, n: int) -> Piece:
    """Seat ``p`` one-hot, a block per seat (all 0 for None)."""
    return [[float(p == q)] for q in range(n)]


def _battle(game: SpaceRace, v: dict[str, Any]) -> list[Piece]:
    n = game.players
    fight = v["battle"]
    tail_size = 3 + len(SIDES) + 1 + len(SIDES)
    if fight is None:
        return [[[0.0] * (1 + len(BATTLES))], _seat_blocks(None, n), [[0.0] * tail_size]]
    kind, foe, foe_ship, first, roll, winner = fight
    if kind == PVM:
        defender = game.content.ships[foe_ship]
    else:
        card, _name, _node, treasure, _wait, _acted = v["fleets"][foe][foe_ship]
        defender = _scores(game, v, foe, card, treasure)
    cap = 2 * game.content.mothership_points
    tail = [ratio(score, cap) for score in defender] + one_hot(first, SIDES) + [ratio(roll, 6)] + one_hot(winner, SIDES)
    return [[[1.0, *one_hot(kind, BATTLES)]], _seat_blocks(foe if foe >= 0 else None, n), [tail]]


def _scores(game: SpaceRace, v: dict[str, Any], owner: int, card: int, treasure: list[int]) -> Stats:
    """A ship's [D|M|A]: its card's (a mothership: its owner's design) changed by its treasure."""
    d, m, a = v["designs"][owner] if card == MOTHERSHIP else game.content.ships[card]
    return scores((d, m, a), tuple(treasure), game.content)
