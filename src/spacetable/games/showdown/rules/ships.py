"""A captain's ship: what works on it, hull and damage, countermeasures, and player elimination.

Rulebook: "Player Elimination", "Card/Token Details" (hull, crew, countermeasures) and
the countermeasures' timing ("expire at the end of your next turn").
"""

from __future__ import annotations

from collections.abc import Callable

from spacetable.engine import Event

from ..content import XENOTECH, card_name
from .actions import Deploy, Done
from .state import AI_REUSED, ALIVE, DESTROYED, LIFELESS, ShowdownState, Slot


def name(state: ShowdownState, p: int) -> str:
    return state.content.captains[p].name


# ---- what works -------------------------------------------------------------------------
def hacks_on(state: ShowdownState, p: int, card: str) -> int:
    return sum(1 for t in state.tokens if t.target == p and t.card == card)


def working(state: ShowdownState, p: int, kind: str) -> int:
    """Copies of engine or weapon that ``p`` can use now (hacked cards do not count)."""
    have = state.mats[p].get(kind, 0)
    return max(0, have - hacks_on(state, p, kind)) if have else 0


def xenotech_of(state: ShowdownState, p: int) -> str:
    """The xenotech card ``p`` holds ("" if none)."""
    mat = state.mats[p]
    return next((x for x in XENOTECH if mat.get(x)), "")


def usable_xenotech(state: ShowdownState, p: int) -> str:
    """The xenotech ``p`` can use now: held and not hacked ("" otherwise)."""
    x = xenotech_of(state, p)
    return x if x and not hacks_on(state, p, "xenotech") else ""


def away(state: ShowdownState, p: int, crew: str) -> int:
    return sum(1 for b in state.boarders if b.owner == p and b.crew == crew)


def able_crew(state: ShowdownState, p: int, crew: str) -> int:
    """Crew of a type aboard their own ship and free to act (not away, not under psionics)."""
    have = state.mats[p].get(crew, 0)
    if not have:
        return 0
    return max(0, have - away(state, p, crew) - hacks_on(state, p, crew))


def slot_hacked(state: ShowdownState, p: int, slot: Slot) -> bool:
    return hacks_on(state, p, f"#{slot.id}") > 0


def active_countermeasure(state: ShowdownState, p: int, kind: str) -> Slot | None:
    """A deployed, working countermeasure of ``kind`` on ``p``'s ship (a boosted one first)."""
    found = None
    for slot in state.cms[p]:
        if slot.card == kind and slot.deployed and not slot_hacked(state, p, slot):
            if slot.boosted:
                return slot
            found = slot
    return found


def die_bonus(state: ShowdownState, p: int) -> int:
    """Boosted Adrenal Stim: +1 to each of ``p``'s die results."""
    slot = active_countermeasure(state, p, "adrenal_stim")
    return 1 if slot is not None and slot.boosted else 0


def extra_rerolls(state: ShowdownState, p: int) -> int:
    """Adrenal Stim: one more re-roll whenever ``p``'s crew re-roll."""
    return 1 if active_countermeasure(state, p, "adrenal_stim") is not None else 0


def shielded(state: ShowdownState, p: int) -> bool:
    return active_countermeasure(state, p, "energy_shields") is not None


def scrambled(state: ShowdownState, p: int) -> bool:
    return active_countermeasure(state, p, "frequency_scrambler") is not None


def living(state: ShowdownState) -> list[int]:
    return [p for p, s in enumerate(state.status) if s == ALIVE]


def free_tokens(state: ShowdownState, xeno: str) -> int:
    """Xenotech tokens of a kind still in the box."""
    if xeno == "ai":
        out = sum(1 for ship in state.cms for s in ship if s.ai and s.ai != AI_REUSED)
    else:
        out = sum(1 for t in state.tokens if t.xeno == xeno)
    return state.content.tokens[xeno] - out


# ---- countermeasures --------------------------------------------------------------------
def deployable(state: ShowdownState, p: int) -> list[int]:
    """Slots of ``p``'s face-down countermeasures that may be deployed now (not hacked)."""
    return [i for i, s in enumerate(state.cms[p]) if not s.deployed and not slot_hacked(state, p, s)]


def offer_reaction(
    state: ShowdownState, then: Callable[[ShowdownState, list[Event]], None], events: list[Event]
) -> None:
    """The target of the action in progress may now deploy countermeasures; if it has none it
    can deploy (or its captain is out), the action goes on at once with ``then``."""
    pending = state.pending
    assert pending is not None
    t = pending["target"]
    if state.status[t] == ALIVE and deployable(state, t):
        pending.update(stage="react", actor=t)
    else:
        then(state, events)


def reaction_actions(state: ShowdownState, p: int) -> list[Deploy | Done]:
    boost = state.energy[p] >= state.content.rules.boost_cost
    actions: list[Deploy | Done] = []
    for i in deployable(state, p):
        actions.append(Deploy(i, False))
        if boost:
            actions.append(Deploy(i, True))
    actions.append(Done())
    return actions


def deploy(state: ShowdownState, p: int, index: int, boost: bool, events: list[Event]) -> Slot:
    """Flip a countermeasure face up (paying for a boost); returns the deployed slot."""
    slot = state.cms[p][index]
    if boost:
        state.energy[p] -= state.content.rules.boost_cost
    armor = state.content.rules.armor_tokens if slot.card == "armor_plating" else 0
    ai = AI_REUSED if slot.ai == 2 else slot.ai  # the second deployment takes the AI token off
    new = slot._replace(deployed=True, boosted=boost, known=True, armor=armor, ai=ai)
    state.cms[p][index] = new
    extra = " (boosted)" if boost else ""
    events.append(Event("deploy", f"{name(state, p)} deploys {card_name(slot.card)}{extra}."))
    if slot.ai == 2:
        events.append(Event("deploy", f"The AI token comes off {name(state, p)}'s {card_name(slot.card)}."))
    return new


def expire(state: ShowdownState, p: int, events: list[Event]) -> None:
    """End of ``p``'s turn: deployed countermeasures are discarded (an AI token saves one once)."""
    keep: list[Slot] = []
    for slot in state.cms[p]:
        if not slot.deployed:
            keep.append(slot)
            continue
        if slot.armor and slot.boosted:
            state.intact[p] += slot.armor
            events.append(Event("hull", f"{name(state, p)} keeps {slot.armor} armor tokens as hull."))
        if slot.ai == 1:
            keep.append(slot._replace(deployed=False, boosted=False, ai=2, armor=0))
            events.append(Event("deploy", f"{name(state, p)}'s AI resets {card_name(slot.card)} for one more use."))
            continue
        _to_public_pile(state, slot.card)
        state.tokens = [t for t in state.tokens if not (t.target == p and t.card == f"#{slot.id}")]
        events.append(Event("deploy", f"{name(state, p)}'s {card_name(slot.card)} is spent."))
    state.cms[p] = keep


# ---- hull and damage --------------------------------------------------------------------
def damage(state: ShowdownState, p: int, amount: int, events: list[Event]) -> None:
    """``p`` takes ``amount`` damage: working armor tokens go first, then hull tokens flip.

    Losses are settled by :func:`settle` once the whole effect has been applied.
    """
    if amount <= 0 or state.status[p] == DESTROYED:
        return
    for i, slot in enumerate(state.cms[p]):
        if slot.armor and amount and not slot_hacked(state, p, slot):
            taken = min(amount, slot.armor)
            state.cms[p][i] = slot._replace(armor=slot.armor - taken)
            amount -= taken
            events.append(Event("hull", f"{name(state, p)}'s armor plating absorbs {taken}."))
    flips = min(amount, state.intact[p])
    if flips:
        state.intact[p] -= flips
        state.damaged[p] += flips
        events.append(Event("hull", f"{name(state, p)} flips {flips} hull token{'s' if flips > 1 else ''}."))


def settle(state: ShowdownState, events: list[Event]) -> None:
    """Wreck every ship whose hull is all damaged, with collateral damage, cascades included.

    Each wrecked ship flips one hull token of every other ship still afloat; a ship
    that this wrecks explodes in turn. Captains whose ship is wrecked are eliminated
    together, as one batch.
    """
    queue = [p for p, s in enumerate(state.status) if s != DESTROYED and state.intact[p] == 0]
    if not queue:
        return
    state.batch += 1
    while queue:
        p = queue.pop(0)
        wreck(state, p, events, "is destroyed!")
        for q, status in enumerate(state.status):
            if q != p and status != DESTROYED and q not in queue:
                events.append(Event("hull", f"Collateral damage hits {name(state, q)}."))
                damage(state, q, 1, events)
                if state.intact[q] == 0:
                    queue.append(q)
    check_end(state, events)


def wreck(state: ShowdownState, p: int, events: list[Event], how: str) -> None:
    """``p``'s ship is a wreck: its captain (if still in) is eliminated; crew aboard die with it."""
    was = state.status[p]
    state.status[p] = DESTROYED
    events.append(Event("eliminate", f"{name(state, p)}'s ship {how}"))
    if was == ALIVE:
        eliminate(state, p, events)
    _lose_boarders_aboard(state, p, events)


def kill_captain(state: ShowdownState, p: int, events: list[Event]) -> None:
    """``p``'s captain is killed: eliminated, no collateral; the hull floats on as a target.

    The cards stay on the mat until the killer has taken their loot (:func:`discard_ship`).
    """
    state.batch += 1
    state.status[p] = LIFELESS
    events.append(Event("eliminate", f"{name(state, p)}'s captain is killed! The ship drifts, lifeless."))
    eliminate(state, p, events, discard=False)
    check_end(state, events)


def eliminate(state: ShowdownState, p: int, events: list[Event], discard: bool = True) -> None:
    """Take ``p`` out: tokens they placed or carry are removed, their boarders are lost."""
    state.fallen[p] = state.batch
    hidden = sorted(card_name(s.card) for s in state.cms[p] if not s.known)
    if hidden:
        state.cms[p] = [s._replace(known=True) for s in state.cms[p]]
        events.append(Event("reveal", f"{name(state, p)}'s face-down countermeasures: {', '.join(hidden)}."))
    if any(t.owner == p for t in state.tokens):
        events.append(Event("token", f"{name(state, p)}'s xenotech tokens are removed."))
    state.tokens = [t for t in state.tokens if t.owner != p and t.target != p]
    for b in state.boarders:
        if b.owner == p and b.loot in state.content.deck:
            _to_public_pile(state, b.loot)
    state.boarders = [b for b in state.boarders if b.owner != p]
    state.energy[p] = 0
    state.burns[p] = ""
    if discard:
        discard_ship(state, p)
    if len(living(state)) == 2 and state.phase != "over":
        state.fire_from = min(state.fire_from, state.round + 1)


def discard_ship(state: ShowdownState, p: int) -> None:
    """Every card of an eliminated captain goes face up to the discard pile (the hull stays)."""
    for kind, n in state.mats[p].items():
        if n:
            _to_public_pile(state, kind, n)
    for slot in state.cms[p]:
        _to_public_pile(state, slot.card)
    state.mats[p] = {}
    state.cms[p] = []


def _lose_boarders_aboard(state: ShowdownState, host: int, events: list[Event]) -> None:
    """Crew aboard a wrecked ship die with it (and whatever loot they carried)."""
    lost = [b for b in state.boarders if b.host == host]
    for b in lost:
        remove_card(state, b.owner, b.crew)
        if b.loot in state.content.deck:
            _to_public_pile(state, b.loot)
        events.append(Event("crew", f"{name(state, b.owner)}'s {card_name(b.crew)} dies aboard the wreck."))
    state.boarders = [b for b in state.boarders if b.host != host]


def remove_slot(state: ShowdownState, p: int, index: int) -> Slot:
    """The countermeasure in slot ``index`` leaves ``p``'s mat face up (with any token on it)."""
    slot = state.cms[p].pop(index)
    state.tokens = [t for t in state.tokens if not (t.target == p and t.card == f"#{slot.id}")]
    _to_public_pile(state, slot.card)
    return slot


def remove_card(state: ShowdownState, p: int, kind: str) -> None:
    """One card of ``kind`` (not a countermeasure) leaves ``p``'s mat face up (killed crew, burnt cards)."""
    state.mats[p][kind] -= 1
    if not state.mats[p][kind]:
        del state.mats[p][kind]
    if kind in XENOTECH:
        state.tokens = [t for t in state.tokens if not (t.target == p and t.card == "xenotech")]
    _to_public_pile(state, kind)


def _to_public_pile(state: ShowdownState, kind: str, n: int = 1) -> None:
    state.public_pile[kind] = state.public_pile.get(kind, 0) + n


# ---- the end ----------------------------------------------------------------------------
def check_end(state: ShowdownState, events: list[Event]) -> None:
    """End the game once at most one captain is left.

    If the last captains fall together, the captain whose turn it is wins if among them
    (the rulebook's answer to mutual destruction); otherwise they share the win.
    """
    if state.phase == "over":
        return
    alive = living(state)
    if len(alive) > 1:
        return
    if alive:
        state.winners = alive
        state.reason = "last captain standing"
    else:
        last = [p for p in range(state.game.players) if state.fallen[p] == state.batch]
        if state.phase == "turn" and state.active in last:
            state.winners = [state.active]
            state.reason = "last captain standing (the others fell with them)"
        else:
            state.winners = last
            state.reason = "the last captains fell together"
    state.phase = "over"
    state.pending = None
    names = " and ".join(name(state, p) for p in state.winners)
    events.append(Event("end", f"{names} win{'s' if len(state.winners) == 1 else ''}: {state.reason}."))
