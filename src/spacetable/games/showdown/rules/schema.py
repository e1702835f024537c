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

from spacetable.engine import CHANCE
from spacetable.engine.safejson import check_plain
from spacetable.engine.schema import Bool, DictOf, Int, Ints, ListOf, OneOf, Str, Tuple, per_game, schema

from ..content import CAPTAIN, CARD_KINDS, COUNTERMEASURES, CREW, XENOTECH
from . import dice, turns, xenotech
from .actions import ENERGY, HULL

if TYPE_CHECKING:
    from ..game import Showdown
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

    slot = Tuple(Int(-1, BIG), OneOf(*COUNTERMEASURES), Bool, Bool, Int(0, 3), Bool, Int(0, 99))
    token = Tuple(seat, OneOf(*XENOTECH), seat, Str, Int(0, 99))
    boarder = Tuple(seat, OneOf(*CREW), seat, Int(0, 99), OneOf("", "sabotage"), OneOf("", HULL, ENERGY, *CARD_KINDS))
    fields: dict[str, Any] = {
        "phase": OneOf("deal", "draft", "first", "turn", "fire", "over"),
        "deck": counts,
        "pile": counts,
        "public_pile": counts,
        "hands": per_seat(ListOf(card, most=99)),
        "picks": Ints(0, 99, length=n),
        "picked": per_seat(Bool),
        "draft_round": Int(1, game.content.rules.upgrade_rounds),
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
        "pending": _pending_schema(game) | None,
        "burns": per_seat(Str),
        "fire_from": Int(0, BIG),
        "winners": Ints(0, n - 1, most=n),
        "reason": Str,
    }
    return schema("ShowdownStateJSON", fields)


def _pending_schema(game: Showdown) -> type[BaseModel]:
    """A turn's work in progress: every key optional (never null), each with its type; die
    faces up to the game's largest die. ``at`` points at the die being rolled (a side and an
    index), ``rr`` is the queue of re-rolls (a side and why)."""
    rules = game.content.rules
    top = max(rules.attack_die, rules.teleporter_die, rules.repair_die)
    face, count, who = Int(1, top), Int(0, 99), Int(-1, game.players - 1)
    side = OneOf("a", "d")
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
        "die": Int(1, top),
        "rerolls": count,
        "success": Int(0, 99),
        "actor": who,
        "attacker": Int(0, game.players - 1),
        "target": Int(0, game.players - 1),
        "at": Tuple() | Tuple(side, count),
        "card": Str,
        "crew": OneOf(*CREW),
        "defender": OneOf(CAPTAIN, *CREW),
        "double": Bool,
        "kind": OneOf("attack", "board", "repair", "xeno"),
        "rr": ListOf(Tuple(side, OneOf("forced", "own")), most=99),
        "side": side,
        "stage": OneOf("commit", "defend", "loot", "mode", "react", "roll"),
        "xeno": OneOf(*XENOTECH),
    }
    return schema("ShowdownPendingJSON", {}, optional=kinds)


ROLL = tuple(dice.new_roll(1, 1, 0, 0))
"""The keys of a roll under way (the dice of both sides, their bonuses and re-rolls)."""
PENDING: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "attack": (("commit", "react", "roll"), ("attacker", "target", "double", *ROLL)),
    "board": (("mode", "react", "defend", "roll", "loot"), ("attacker", "target", "crew")),
    "xeno": (("react",), ("attacker", "target", "card", "xeno")),
    "repair": (("roll",), ("die", "rerolls")),
}
"""Per kind of pending work: the stages a decision can wait at (the empty stage of a fresh
declaration never outlasts the action that made it), and the keys it always has."""


def _check_pending(pending: dict[str, Any]) -> None:
    """The keys a pending attack, boarding, xenotech or repair needs at its stage."""
    if "actor" not in pending or "kind" not in pending or "stage" not in pending:
        raise ValueError("pending names no actor, kind and stage")
    kind, stage = pending["kind"], pending["stage"]
    stages, keys = PENDING[kind]
    if stage not in stages:
        raise ValueError(f"pending {kind} has no stage {stage!r}")
    if kind == "board" and stage == "roll":
        keys = (*keys, "defender", *ROLL)
    if stage == "commit":
        keys = (*keys, "side")
    missing = [key for key in keys if key not in pending]
    if missing:
        raise ValueError(f"pending {kind} at stage {stage!r} lacks {', '.join(missing)}")
    if (stage == "roll") != (pending["actor"] == CHANCE):
        raise ValueError(f"pending {kind} at stage {stage!r} cannot wait for actor {pending['actor']}")
    for side, count in (("a", "an"), ("d", "dn")):
        if side in pending and len(pending[side]) > pending[count]:
            raise ValueError(f"pending has {len(pending[side])} dice on side {side!r}, more than its {count}")
    if stage == "roll" and kind != "repair" and not pending["at"]:
        raise ValueError(f"pending {kind} is rolling, but at names no die")


def check(state: ShowdownState) -> None:
    """The invariants no single field shows; ValueError naming the first one broken."""
    game, rules = state.game, state.content.rules
    n = game.players
    pending = state.pending
    if pending is not None:
        check_plain(pending, "pending", max_depth=3, max_int=BIG)
        _check_pending(pending)
        if pending["kind"] == "xeno" and pending["card"] not in xenotech.token_keys(
            state, pending["xeno"], pending["target"]
        ):
            raise ValueError(f"pending {pending['xeno']} names {pending['card']!r}, which it cannot disable")
        if pending["kind"] == "board" and not any(
            (b.owner, b.host, b.crew) == (pending.get("attacker"), pending.get("target"), pending.get("crew"))
            for b in state.boarders
        ):
            raise ValueError("pending boards a ship, but no boarder of that crew is aboard it")
        if "success" in pending:
            name = {"attack": "attack", "board": "teleporter"}.get(pending["kind"])
            rolled = (getattr(rules, f"{name}_die"), getattr(rules, f"{name}_success")) if name else None
            if (pending["die"], pending["success"]) != rolled:
                raise ValueError(
                    f"pending {pending['kind']} rolls a d{pending['die']} succeeding on {pending['success']}: "
                    "not the rules' die for it"
                )
        if pending.get("at"):
            side, index = pending["at"]
            if side not in pending or index > len(pending[side]):
                raise ValueError(
                    f"pending.at points at die {index} of {side!r}, which has {len(pending.get(side, []))}"
                )
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
    if state.phase in ("deal", "draft"):
        to_deal = (rules.upgrade_rounds - state.draft_round) * n * rules.hand_size
        if state.phase == "deal":
            to_deal += n * rules.hand_size - sum(len(hand) for hand in state.hands)
        if sum(state.deck.values()) < to_deal:
            raise ValueError(
                f"the deck holds {sum(state.deck.values())} cards, too few to deal the {to_deal} the upgrade "
                f"phase still needs from round {state.draft_round}"
            )
    for p in range(n):
        if state.status[p] != "destroyed" and state.intact[p] == 0 and state.phase != "deal":
            raise ValueError(f"ship {p} has no intact hull token left, yet it is not destroyed")
    if state.phase == "draft" and len({len(state.hands[p]) + state.picked[p] for p in range(n)}) > 1:
        raise ValueError("in a draft round every hand holds one card more than it will after this pick")
    burning = [p for p in range(n) if state.burns[p]]
    if burning and state.phase != "fire":
        raise ValueError(f"burns are chosen in phase {state.phase}, not only in the fire phase")
    for p in burning:
        if state.burns[p] not in {burn.item for burn in turns.legal_burns(state, p)}:
            raise ValueError(f"burns[{p}] is {state.burns[p]!r}, which that ship cannot burn")
    for t in state.tokens:  # a boosted Frequency Scrambler reflects a token onto its owner's own ship
        if t.card not in xenotech.token_keys(state, t.xeno, t.target):
            raise ValueError(f"token {list(t)} names nothing a {t.xeno} token can disable on ship {t.target}")
    for b in state.boarders:
        if b.owner == b.host:
            raise ValueError(f"boarder {list(b)} is aboard its owner's own ship")
    aboard = Counter((b.owner, b.crew) for b in state.boarders)
    for (owner, crew), count in aboard.items():
        if state.mats[owner].get(crew, 0) < count:
            raise ValueError(
                f"{count} {crew} of seat {owner} are aboard other ships, its mat has {state.mats[owner].get(crew, 0)}"
            )
    if len(set(state.winners)) != len(state.winners):
        raise ValueError(f"winners {state.winners} are not distinct seats")


__all__ = ["check", "state_schema"]
