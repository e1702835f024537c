"""What ``state_from_json`` accepts: the typed schema of a Mothership state, and its invariants.

The schema (one per game: the fleets, ships, card kinds and board size are the game's)
gives every field its type, range and length; :func:`check` then checks what no single
field can say: the board is a real one of this game (its seed drawn from the game's
seeds, or the layout's), ships stand where the grid says, action cards are conserved
(deck + discard + hands = the cards of the game), cards known in another hand are in
that hand, the winners are seats. Finally the rules are asked the first questions every
driver asks (``schema.probe``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from spacetable.engine.safejson import check_plain
from spacetable.engine.schema import Bool, Int, Ints, ListOf, OneOf, Str, per_game, schema

from . import economy
from .language import TALLIES

if TYPE_CHECKING:
    from .game import Mothership
    from .state import MothershipState

BIG = 10**6
"""A bound no count reaches (rounds, resources, points): finite, so no loop runs 10⁹ times."""


@per_game
def state_schema(game: Mothership) -> type[BaseModel]:
    c = game.content
    f, s = game.fleets, c.ships
    kinds, beacons, objectives = len(c.cards), len(c.beacons), len(c.objectives)
    spaces = 25 * 25
    code = f * 16 + 15
    fleet = Int(0, f - 1)

    def per_fleet(item: Any) -> Any:
        return ListOf(item, length=f)

    deck = Ints(0, 99, length=kinds)
    plain = dict[str, Any] | None
    fields: dict[str, Any] = {
        "phase": OneOf("board", "place", "order", "turn", "over"),
        "board_seed": Int(-1, max(len(game.board_outcomes), 1) - 1),
        "grid": Ints(-1, code, most=spaces),
        "pos": per_fleet(Ints(-1, spaces - 1, length=s)),
        "hp": Ints(0, 999, length=f),
        "station_hp": Ints(0, 999, length=f),
        "energy": per_fleet(Ints(0, 36, length=3)),
        "shield": Ints(0, 999, length=f),
        "resources": Ints(0, BIG, length=f),
        "owner": Ints(-2, f - 1, most=spaces),
        "cleared": per_fleet(Ints(-1, spaces - 1, length=s)),
        "out": Ints(0, BIG, length=f),
        "turn": fleet,
        "first": fleet,
        "round": Int(0, BIG),
        "used": Ints(0, 1000, length=s),
        "attacked": Int(0, 2**s - 1),
        "locked": Bool,
        "order_rolls": Ints(0, 6, length=f),
        "pending": plain,
        "winners": Ints(0, f - 1, most=f),
        "reason": Str,
        "deck": deck,
        "hands": per_fleet(Ints(0, kinds - 1, most=99 * kinds)),
        "discard": deck,
        "known": per_fleet(per_fleet(Ints(0, kinds - 1, most=99 * kinds))),
        "draws": Ints(0, f - 1, most=999),
        "steal": Ints(0, f - 1, most=2),
        "reward": Ints(-1, f - 1, most=2),
        "bought": Ints(0, BIG, length=f),
        "trading": Ints(0, f - 1, most=f),
        "played": Ints(0, BIG, length=kinds),
        "effects": ListOf(ListOf(Str | Int(-BIG, BIG), length=6), most=999),
        "playing": Ints(-1, BIG, most=4),
        "cancel": Ints(0, f - 1, most=f),
        "escort": Int(0, 2**s - 1),
        "stations": Ints(-1, spaces - 1, most=f),
        "event_roll": Ints(-1, BIG, most=2),
        "branches": per_fleet(Ints(-1, 5, length=3)),
        "tiers": per_fleet(Ints(0, 5, length=3)),
        "charges": Ints(0, 99, length=f),
        "bought_kinds": Ints(0, BIG, length=kinds),
        "buying": Int(0, 1),
        "artifacts": Ints(-1, len(c.artifacts) - 1, most=spaces),
        "explorers": Ints(-1, f - 1, most=spaces),
        "exploring": Int(-1, spaces - 1),
        "points": Ints(0, BIG, length=f),
        "respawns": ListOf(Ints(-1, BIG, length=3), most=f * s),
        "raiding": Int(0, 2**s - 1),
        "acted": Int(0, 2**s - 1),
        "choice": plain,
        "stuck": Int(0, 2**s - 1),
        "cannons": per_fleet(Ints(-1, spaces - 1, most=99)),
        "tokens": ListOf(Ints(-1, spaces - 1, length=2), most=99),
        "flipping": Int(0, 99),
        "beacon_deck": Ints(0, 99, length=beacons),
        "beacon_discard": Ints(0, 99, length=beacons),
        "beacon_draw": Ints(-1, spaces - 1, most=3),
        "activated": Int(0, 255),
        "kept": per_fleet(ListOf(Ints(-BIG, BIG, length=3), most=99)),
        "script": plain,
        "objective_deck": Ints(0, 99, length=objectives),
        "objective_discard": Ints(0, 99, length=objectives),
        "objectives": per_fleet(Ints(0, max(objectives - 1, 0), most=99)),
        "public_objectives": Ints(0, max(objectives - 1, 0), most=99),
        "completed": per_fleet(Ints(0, max(objectives - 1, 0), most=99)),
        "objective_draws": Ints(-1, f - 1, most=999),
        "tallies": per_fleet(Ints(0, BIG, length=len(TALLIES))),
        "beacon_log": ListOf(Ints(0, BIG, length=4), length=beacons),
        "objective_log": ListOf(Ints(0, BIG, length=6), length=objectives),
        "secret": per_fleet(Ints(0, BIG, length=2)),
        "layout": Str | None,
    }
    return schema("MothershipStateJSON", fields)


def check(state: MothershipState) -> None:
    """The invariants no single field shows; ValueError naming the first one broken."""
    game = state.game
    for name in ("pending", "choice", "script"):
        check_plain(getattr(state, name), name, max_depth=6, max_int=BIG)
    if state.phase == "board":
        if state.board_seed != -1 or state.grid:
            raise ValueError("before the board is drawn, board_seed is -1 and the grid is empty")
        return
    board = state.board
    assert board is not None
    if game.layout_board is None and state.board_seed < 0:
        raise ValueError(f"board_seed {state.board_seed} is not one of this game's {len(game.board_outcomes)} seeds")
    if len(state.grid) != len(board.terrain):
        raise ValueError(f"grid has {len(state.grid)} spaces, the board {len(board.terrain)}")
    if len(state.owner) != len(board.planets):
        raise ValueError(f"owner has {len(state.owner)} planets, the board {len(board.planets)}")
    for name in ("artifacts", "explorers"):
        if len(getattr(state, name)) not in (0, len(board.planets)):
            raise ValueError(f"{name} has {len(getattr(state, name))} planets, the board {len(board.planets)}")
    spaces = len(board.terrain)
    for f, ships in enumerate(state.pos):
        for ship, space in enumerate(ships):
            if space >= spaces:
                raise ValueError(f"pos[{f}][{ship}] is space {space}, off the board of {spaces}")
            if space >= 0 and state.grid[space] != f * 16 + ship:
                raise ValueError(f"pos[{f}][{ship}] is space {space}, but the grid holds {state.grid[space]} there")
    for space, occupant in enumerate(state.grid):
        if occupant >= 0:
            f, ship = divmod(occupant, 16)
            if f >= game.fleets or (ship != 15 and (ship >= game.content.ships or state.pos[f][ship] != space)):
                raise ValueError(f"grid[{space}] holds {occupant}, which is no ship standing there")
    for name in ("stations", "cannons", "tokens", "beacon_draw"):
        values = getattr(state, name)
        flat = [v for row in values for v in (row if isinstance(row, list) else [row])]
        if any(v >= spaces for v in flat):
            raise ValueError(f"{name} names a space off the board of {spaces}")
    start = economy.start_deck(state)
    held = Counter(card for hand in state.hands for card in hand)
    totals = [state.deck[k] + state.discard[k] + held[k] for k in range(len(state.deck))]
    if totals != start:
        kind = next(k for k, (a, b) in enumerate(zip(totals, start)) if a != b)
        name = game.content.cards[kind].name
        raise ValueError(
            f"action cards are not conserved: {totals[kind]} {name!r} in deck, discard and hands, "
            f"the game has {start[kind]}"
        )
    for observer, row in enumerate(state.known):
        for holder, cards in enumerate(row):
            if Counter(cards) - Counter(state.hands[holder]):
                raise ValueError(f"known[{observer}][{holder}] holds cards that are not in hands[{holder}]")
    for fleet, (dice, total) in enumerate(state.secret):
        if not dice <= total <= 4 * dice:
            raise ValueError(f"secret[{fleet}]: {dice} d4s cannot sum to {total}")
    if len(set(state.winners)) != len(state.winners) or any(w >= game.players for w in state.winners):
        raise ValueError(f"winners {state.winners} are not distinct seats")
    if any(h != sorted(h) for h in state.hands):
        raise ValueError("hands are kept sorted")


__all__ = ["check", "state_schema"]
