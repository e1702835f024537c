"""What ``state_from_json`` accepts: the typed schema of a Showdown state, and its invariants.

The schema gives every field its type, range and length (per seat); :func:`check` then
checks what no single field can say: every card of the game is in exactly one place
(deck, piles, hands, mats, countermeasure slots, loot carried home), hands and mats
within the rules' limits, tokens and boarders name seats and cards that exist.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from spacetable.engine.safejson import check_plain
from spacetable.engine.schema import Bool, DictOf, Int, Ints, ListOf, OneOf, Str, Tuple, per_game, schema

from .content import CAPTAIN, CARD_KINDS, COUNTERMEASURES, CREW, XENOTECH

if TYPE_CHECKING:
    from .game import Showdown
    from .state import ShowdownState

BIG = 10**6


@per_game
def state_schema(game: Showdown) -> type[BaseModel]:
    n = game.players
    seat = Int(0, n - 1)
    card = OneOf(*CARD_KINDS)
    counts = DictOf(card, Int(0, 99))

    def per_seat(item: Any) -> Any:
        return ListOf(item, length=n)

    slot = Tuple(Int(-1, BIG), OneOf(*COUNTERMEASURES), Bool, Bool, Int(0, 2), Bool, Int(0, 99))
    token = Tuple(seat, OneOf(*XENOTECH), seat, Str, Int(0, 99))
    boarder = Tuple(seat, Str, seat, Int(0, 99), Str, Str)
    fields: dict[str, Any] = {
        "phase": OneOf("deal", "draft", "first", "turn", "fire", "over"),
        "deck": counts,
        "pile": counts,
        "public_pile": counts,
        "hands": per_seat(ListOf(card, most=99)),
        "picks": Ints(0, 99, length=n),
        "picked": per_seat(Bool),
        "draft_round": Int(0, 99),
        "mats": per_seat(counts),
        "cms": per_seat(ListOf(slot, most=99)),
        "intact": Ints(0, 999, length=n),
        "damaged": Ints(0, 999, length=n),
        "energy": Ints(0, 999, length=n),
        "status": per_seat(OneOf("alive", "lifeless", "destroyed")),
        "fallen": Ints(0, 99, length=n),
        "batch": Int(0, 99),
        "tokens": ListOf(token, most=99),
        "boarders": ListOf(boarder, most=99),
        "next_id": Int(0, BIG),
        "first": seat,
        "round": Int(0, BIG),
        "active": seat,
        "actions_left": Int(0, 99),
        "used": ListOf(Str, most=99),
        "attacked": Ints(0, n - 1, most=n),
        "pending": _pending_schema(n) | None,
        "burns": per_seat(Str),
        "fire_from": Int(0, BIG),
        "winners": Ints(0, n - 1, most=n),
        "reason": Str,
    }
    return schema("ShowdownStateJSON", fields)


def _pending_schema(n: int) -> type[BaseModel]:
    """A turn's work in progress: every key optional, each with its type (die faces up to 20)."""
    from pydantic import create_model

    from spacetable.engine.schema import STRICT

    face, count, who = Int(1, 20), Int(0, 99), Int(-1, n - 1)
    kinds: dict[str, Any] = {
        "a": ListOf(face, most=99),
        "d": ListOf(face, most=99),
        "ab": count,
        "ac": count,
        "an": count,
        "dauto": count,
        "db": count,
        "dc": count,
        "dn": count,
        "die": Int(0, 20),
        "rerolls": count,
        "success": Int(0, 99),
        "actor": who,
        "attacker": who,
        "target": who,
        "at": ListOf(Int(-1, 99) | Str, most=99),
        "card": Str,
        "crew": OneOf(*CREW),
        "defender": OneOf(CAPTAIN, *CREW),
        "double": Bool,
        "kind": OneOf("attack", "board", "repair", "xeno"),
        "rr": ListOf(ListOf(Int(-1, 99) | Str | Bool, most=9), most=99),
        "side": OneOf("a", "d"),
        "stage": OneOf("", "commit", "defend", "loot", "mode", "react", "roll"),
        "xeno": OneOf(*XENOTECH),
    }
    definitions: dict[str, Any] = {key: (kind | None, None) for key, kind in kinds.items()}
    model: type[BaseModel] = create_model("ShowdownPendingJSON", __config__=STRICT, **definitions)
    return model


def check(state: ShowdownState) -> None:
    """The invariants no single field shows; ValueError naming the first one broken."""
    game, rules = state.game, state.content.rules
    n = game.players
    pending = state.pending
    if pending is not None:
        check_plain(pending, "pending", max_depth=3, max_int=BIG)
        for key in ("actor", "attacker", "target"):
            if key in pending and (type(pending[key]) is not int or not -1 <= pending[key] < n):
                raise ValueError(f"pending.{key} is {pending[key]!r}, not a seat (or -1: chance)")
        if "actor" not in pending or "kind" not in pending or "stage" not in pending:
            raise ValueError("pending names no actor, kind and stage")
    if state.phase != "turn" and pending is not None:
        raise ValueError(f"pending is set in phase {state.phase}")
    places: Counter[str] = Counter(state.deck) + Counter(state.pile) + Counter(state.public_pile)
    for p in range(n):
        places += Counter(state.hands[p]) + Counter(state.mats[p]) + Counter(s.card for s in state.cms[p])
        if len(state.hands[p]) > rules.hand_size:
            raise ValueError(f"hands[{p}] holds {len(state.hands[p])} cards, more than a hand of {rules.hand_size}")
    places += Counter(b.loot for b in state.boarders if b.loot in CARD_KINDS)
    full = Counter(state.content.deck)
    if places != full:
        kind = next(k for k in sorted(set(places) | set(full)) if places[k] != full[k])
        raise ValueError(
            f"cards are not conserved: {places[kind]} {kind!r} in the game's places, the game has {full[kind]}"
        )
    for t in state.tokens:
        if t.owner == t.target:
            raise ValueError(f"token {list(t)} is on its owner's own ship")
    for b in state.boarders:
        if b.owner == b.host:
            raise ValueError(f"boarder {list(b)} is aboard its owner's own ship")
    if len(set(state.winners)) != len(state.winners):
        raise ValueError(f"winners {state.winners} are not distinct seats")


__all__ = ["check", "state_schema"]
