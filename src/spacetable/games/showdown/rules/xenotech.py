"""Use Xenotech: Artificial Intelligence, Hacking and Psionics, and the Frequency Scrambler.

Rulebook: "Xenotech", "Use Xenotech" and the edge cases on tokens. Hacking and
Psionics put a token on one card of another captain; it comes back at the end of
the user's next turn (``Token.wait``). The AI token sits on one of the user's own
countermeasures and saves it from being discarded once.
"""

from __future__ import annotations

from spacetable.engine import Action, Event

from ..content import CREW, card_name
from . import ships
from .actions import Hack, Psionics, Reprogram, hack_targets
from .state import ShowdownState, Token


def legal(state: ShowdownState) -> list[Action]:
    """The xenotech uses open to the active captain now."""
    a = state.active
    xeno = ships.usable_xenotech(state, a)
    rules = state.content.rules
    if (
        not xeno
        or "xenotech" in state.used
        or state.energy[a] < rules.xenotech_cost
        or not ships.free_tokens(state, xeno)
    ):
        return []
    actions: list[Action] = []
    if xeno == "ai":
        actions += [Reprogram(i) for i, s in enumerate(state.cms[a]) if not s.ai]
        return actions
    for t in ships.living(state):
        if t == a or ships.scrambled(state, t):
            continue
        if xeno == "hacking":
            actions += [Hack(t, card) for card in hack_targets(state.content) if _card_key(state, t, card)]
        else:
            actions += [Psionics(t, c) for c in CREW if ships.able_crew(state, t, c)]
    return actions


def _card_key(state: ShowdownState, t: int, card: str) -> str:
    """What a hacking token on ``card`` names (a kind or ``#<slot id>``); "" if nothing hackable is there."""
    if card in ("engine", "weapon"):
        return card if ships.working(state, t, card) else ""
    if card == "xenotech":
        return card if ships.usable_xenotech(state, t) else ""
    index = int(card[2:])
    if index >= len(state.cms[t]):
        return ""
    slot = state.cms[t][index]
    return "" if ships.slot_hacked(state, t, slot) else f"#{slot.id}"


def token_keys(state: ShowdownState, xeno: str, t: int) -> set[str]:
    """Every key a ``xeno`` token on ``t``'s ship can name: a crew type for psionics; for hacking
    the engine, the weapon, the xenotech or one of ``t``'s countermeasure slots."""
    if xeno == "psionics":
        return set(CREW)
    if xeno == "hacking":
        return {"engine", "weapon", "xenotech"} | {f"#{slot.id}" for slot in state.cms[t]}
    return set()


def _describe(state: ShowdownState, t: int, key: str) -> str:
    if key.startswith("#"):
        slot = next(s for s in state.cms[t] if f"#{s.id}" == key)
        return card_name(slot.card) if slot.known else "a face-down countermeasure"
    if key == "xenotech":
        return card_name(ships.xenotech_of(state, t))
    return card_name(key)


def declare(state: ShowdownState, action: Hack | Psionics, events: list[Event]) -> None:
    a, t = state.active, action.target
    state.actions_left -= 1
    state.used.append("xenotech")
    state.energy[a] -= state.content.rules.xenotech_cost
    xeno = "hacking" if isinstance(action, Hack) else "psionics"
    key = _card_key(state, t, action.card) if isinstance(action, Hack) else action.crew
    state.pending = {"kind": "xeno", "xeno": xeno, "attacker": a, "target": t, "card": key, "stage": "", "actor": a}
    events.append(
        Event(
            "xeno",
            f"{ships.name(state, a)} uses {card_name(xeno)} on {ships.name(state, t)}'s {_describe(state, t, key)}.",
        )
    )
    ships.offer_reaction(state, after_reaction, events)


def after_reaction(state: ShowdownState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    a, t, xeno, key = pending["attacker"], pending["target"], pending["xeno"], pending["card"]
    state.pending = None
    scrambler = ships.active_countermeasure(state, t, "frequency_scrambler")
    if scrambler is None:
        state.tokens.append(Token(a, xeno, t, key, wait=1))
        events.append(Event("xeno", f"{ships.name(state, t)}'s {_describe(state, t, key)} is disabled."))
        return
    events.append(Event("xeno", f"{ships.name(state, t)}'s Frequency Scrambler blocks the {card_name(xeno)}."))
    if scrambler.boosted:
        mirror = _mirror(state, a, xeno, key)
        if mirror:
            state.tokens.append(Token(a, xeno, a, mirror, wait=1))
            events.append(
                Event("xeno", f"It is reflected: {ships.name(state, a)}'s {_describe(state, a, mirror)} is disabled.")
            )


def _mirror(state: ShowdownState, a: int, xeno: str, key: str) -> str:
    """The attacker's card of the same kind that a reflected token lands on ("" if none)."""
    if xeno == "psionics":
        return key if ships.able_crew(state, a, key) else ""
    if key.startswith("#"):
        return next((f"#{s.id}" for s in state.cms[a] if not ships.slot_hacked(state, a, s)), "")
    card = key
    return _card_key(state, a, card)


def reprogram(state: ShowdownState, action: Reprogram, events: list[Event]) -> None:
    a = state.active
    state.actions_left -= 1
    state.used.append("xenotech")
    state.energy[a] -= state.content.rules.xenotech_cost
    slot = state.cms[a][action.slot]
    state.cms[a][action.slot] = slot._replace(ai=1)
    what = card_name(slot.card) if slot.known else "a face-down countermeasure"
    events.append(Event("xeno", f"{ships.name(state, a)} puts an AI token on {what}."))
