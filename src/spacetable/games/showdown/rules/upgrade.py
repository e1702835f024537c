"""Set-up and the upgrade phase: dealing, drafting behind privacy screens, the reveal.

Rulebook: "Setup & Showdown Overview", "Upgrade Phase (2 rounds)" and "Permanent upgrade?".
Every seat picks at once; a pick goes straight onto the picker's (hidden) mat, so the
order in which seats answer changes nothing. Hands pass when everyone has picked.
"""

from __future__ import annotations

from spacetable.engine import Action, Event

from ..content import CARD_KINDS, COUNTERMEASURES, card_name, family
from .actions import HULL, NONE, Draw, Pick
from .ships import name
from .state import ShowdownState, Slot, fits, put_on_mat


def deal_outcomes(state: ShowdownState) -> list[tuple[Action, float]]:
    total = sum(state.deck.values())
    return [(Draw(kind), n / total) for kind in CARD_KINDS if (n := state.deck.get(kind, 0))]


def deal(state: ShowdownState, card: str, events: list[Event]) -> None:
    """Deal one card to the first seat whose hand is not full; start drafting once all are."""
    size = state.content.rules.hand_size
    p = next(q for q, hand in enumerate(state.hands) if len(hand) < size)
    state.deck[card] -= 1
    if not state.deck[card]:
        del state.deck[card]
    hand = state.hands[p]
    hand.append(card)
    hand.sort(key=CARD_KINDS.index)
    events.append(Event("deal", f"You are dealt {card_name(card)}.", (p,)))
    if all(len(h) == size for h in state.hands):
        state.phase = "draft"
        state.picked = [False] * state.game.players
        way = "clockwise" if state.draft_round % 2 else "counter-clockwise"
        events.append(Event("phase", f"Upgrade round {state.draft_round}: hands will pass {way}."))


def legal_picks(state: ShowdownState, p: int) -> list[Action]:
    """Each card of the hand: discard it for a hull token, play it, or play it in place of an upgrade."""
    actions: list[Action] = []
    held = {s.card for s in state.cms[p]}
    held.update(state.mats[p])
    on_mat = [k for k in CARD_KINDS if k in held]
    for card in dict.fromkeys(state.hands[p]):
        actions.append(Pick(card, HULL, NONE))
        if fits(state, p, card):
            actions.append(Pick(card, "play", NONE))
        for old in on_mat:
            if old != card and _fits_replacing(state, p, card, old):
                actions.append(Pick(card, "play", old))
    return actions


def _fits_replacing(state: ShowdownState, p: int, card: str, old: str) -> bool:
    return fits(state, p, card) or family(card) == family(old)


def pick(state: ShowdownState, p: int, action: Pick, events: list[Event]) -> None:
    state.hands[p].remove(action.card)
    state.picks[p] += 1
    state.picked[p] = True
    if action.use == HULL:
        _to_pile(state, action.card)
        state.intact[p] += 1
        events.append(Event("pick", f"You discard {card_name(action.card)} for a hull token.", (p,)))
    else:
        text = f"You play {card_name(action.card)}"
        if action.replace:
            _take_back(state, p, action.replace)
            _to_pile(state, action.replace)
            text += f" in place of your {card_name(action.replace)} (no hull token)"
        put_on_mat(state, p, action.card)
        events.append(Event("pick", text + ".", (p,)))
    events.append(Event("pick", f"{name(state, p)} has chosen."))
    if all(state.picked):
        _pass_hands(state, events)


def _take_back(state: ShowdownState, p: int, kind: str) -> None:
    if kind in COUNTERMEASURES:
        slots = state.cms[p]
        slots.pop(next(i for i, s in enumerate(slots) if s.card == kind))
    else:
        state.mats[p][kind] -= 1
        if not state.mats[p][kind]:
            del state.mats[p][kind]


def _to_pile(state: ShowdownState, kind: str) -> None:
    state.pile[kind] = state.pile.get(kind, 0) + 1


def _pass_hands(state: ShowdownState, events: list[Event]) -> None:
    n = state.game.players
    step = 1 if state.draft_round % 2 else -1  # clockwise, then counter-clockwise
    hands = state.hands
    state.hands = [hands[(p - step) % n] for p in range(n)]
    state.picked = [False] * n
    if state.hands[0]:
        for p in range(n):
            cards = ", ".join(card_name(c) for c in state.hands[p])
            events.append(Event("pick", f"You receive {name(state, (p - step) % n)}'s hand: {cards}.", (p,)))
        return
    if state.draft_round < state.content.rules.upgrade_rounds:
        state.draft_round += 1
        state.phase = "deal"
        return
    _reveal(state, events)


def _reveal(state: ShowdownState, events: list[Event]) -> None:
    """Privacy screens come down: every mat and hull is shown; countermeasures stay face down."""
    state.phase = "first"
    next_id = 0
    for p in range(state.game.players):
        renumbered: list[Slot] = []
        for slot in state.cms[p]:
            renumbered.append(slot._replace(id=next_id))
            next_id += 1
        state.cms[p] = renumbered
    state.next_id = next_id
    events.append(Event("phase", "Privacy screens come down. The showdown begins!"))
    for p in range(state.game.players):
        events.append(Event("reveal", f"{name(state, p)}: {describe_ship(state, p)}."))


def describe_ship(state: ShowdownState, p: int) -> str:
    """A mat in words as everyone sees it: cards, face-down countermeasures, hull."""
    parts = []
    for kind in CARD_KINDS:
        n = state.mats[p].get(kind, 0)
        if n:
            parts.append(f"{n} {card_name(kind)}" if n > 1 else card_name(kind))
    hidden = sum(1 for s in state.cms[p] if not s.known)
    shown = [card_name(s.card) for s in state.cms[p] if s.known]
    parts += shown
    if hidden:
        parts.append(f"{hidden} face-down countermeasure{'s' if hidden > 1 else ''}")
    hull = f"hull {state.intact[p]} intact, {state.damaged[p]} damaged"
    return (", ".join(parts) or "no upgrades") + f"; {hull}"
