"""The showdown turn: two actions, the end-of-turn sequence, ships on fire, and dispatch.

Rulebook: "Showdown Phase", "Actions", the back page's turn order and the final-duel
edge case. ``legal_actions``, ``chance_outcomes`` and ``apply`` are the state's
protocol methods; they hand each action to the chapter module that rules it.
"""

from __future__ import annotations

from typing import TypeVar

from spacetable.engine import CHANCE, Action, Event, Roll

from ..content import CREW, card_name
from . import boarding, combat, ships, upgrade, xenotech
from .actions import (
    HULL,
    NON_COUNTERMEASURES,
    Attack,
    Board,
    Burn,
    Charge,
    Commit,
    Defend,
    Deploy,
    Done,
    Draw,
    EndTurn,
    First,
    Hack,
    Loot,
    Pick,
    Psionics,
    Repair,
    Reprogram,
    Teleport,
)
from .state import ALIVE, DESTROYED, Boarder, ShowdownState, Token, fits, put_on_mat


# ---- legal actions and chance -------------------------------------------------------------
def legal_actions(state: ShowdownState, seat: int) -> list[Action]:
    phase = state.phase
    if phase == "turn":
        pending = state.pending
        if pending is None:
            return turn_actions(state)
        stage = pending["stage"]
        if stage == "roll":
            return [Roll(v) for v in range(1, pending["die"] + 1)]
        if stage == "react":
            return list(ships.reaction_actions(state, seat))
        if stage == "commit":
            return [Commit(e) for e in range(combat.max_commit(state) + 1)]
        if stage == "mode":
            return boarding.modes(state)
        if stage == "defend":
            return boarding.defenders(state)
        return boarding.loot_options(state)
    if phase == "draft":
        return upgrade.legal_picks(state, seat)
    if phase == "fire":
        return list(legal_burns(state, seat))
    if phase in ("deal", "first"):
        return [a for a, _ in chance_outcomes(state)]
    return []


def chance_outcomes(state: ShowdownState) -> list[tuple[Action, float]]:
    if state.phase == "deal":
        return upgrade.deal_outcomes(state)
    if state.phase == "first":
        n = state.game.players
        return [(First(p), 1 / n) for p in range(n)]
    pending = state.pending
    assert pending is not None
    faces = pending["die"]
    return [(Roll(v), 1 / faces) for v in range(1, faces + 1)]


def turn_actions(state: ShowdownState) -> list[Action]:
    """What the active captain may do with their next action."""
    a = state.active
    actions: list[Action] = []
    if ships.working(state, a, "weapon"):
        for t, status in enumerate(state.status):
            if t != a and status != DESTROYED:
                if t not in state.attacked:
                    actions.append(Attack(t, False))
                if state.actions_left >= 2:
                    actions.append(Attack(t, True))
    if "charge" not in state.used and ships.working(state, a, "engine"):
        actions.append(Charge())
    if "repair" not in state.used and state.damaged[a]:
        actions.append(Repair())
    if "teleport" not in state.used:
        for t in ships.living(state):
            if t != a and not ships.shielded(state, t):
                actions += [Teleport(t, c) for c in CREW if ships.able_crew(state, a, c)]
    actions += xenotech.legal(state)
    actions.append(EndTurn())
    return actions


def legal_burns(state: ShowdownState, p: int) -> list[Burn]:
    """What a burning ship may discard: any card aboard (crew at home) or an intact hull token."""
    mat = state.mats[p]
    burns = [Burn(k) for k in NON_COUNTERMEASURES if mat.get(k) and (k not in CREW or ships.away(state, p, k) < mat[k])]
    burns += [Burn(f"cm{i}") for i in range(len(state.cms[p]))]
    if state.intact[p]:
        burns.append(Burn(HULL))
    return burns


# ---- applying ------------------------------------------------------------------------------
def apply(state: ShowdownState, action: Action, seat: int, events: list[Event]) -> None:
    if isinstance(action, Draw):
        upgrade.deal(state, action.card, events)
    elif isinstance(action, Pick):
        upgrade.pick(state, seat, action, events)
    elif isinstance(action, First):
        _start_showdown(state, action.seat, events)
    elif isinstance(action, Burn):
        _burn(state, seat, action.item, events)
    elif state.pending is not None:
        _step(state, action, events)
    else:
        _act(state, action, events)
    if state.phase == "turn" and state.pending is None:
        a = state.active
        if state.status[a] != ALIVE or state.actions_left <= 0:
            _end_turn(state, events)


_REACTION_DONE = {"attack": combat.after_reaction, "board": boarding.after_reaction, "xeno": xenotech.after_reaction}
_ROLL = {"attack": combat.roll, "board": boarding.roll}


def _step(state: ShowdownState, action: Action, events: list[Event]) -> None:
    """A step inside an action in progress (``state.pending``)."""
    pending = state.pending
    assert pending is not None
    if isinstance(action, Roll):
        _ROLL.get(pending["kind"], _repair_roll)(state, action.value, events)
    elif isinstance(action, Deploy):
        t = pending["actor"]
        ships.deploy(state, t, action.slot, action.boost, events)
        if not ships.deployable(state, t):
            _REACTION_DONE[pending["kind"]](state, events)
    elif isinstance(action, Done):
        _REACTION_DONE[pending["kind"]](state, events)
    elif isinstance(action, Commit):
        combat.commit(state, action.energy, events)
    elif isinstance(action, Board):
        boarding.choose_mode(state, action.mode, events)
    elif isinstance(action, Defend):
        boarding.defend(state, action.crew, events)
    elif isinstance(action, Loot):
        boarding.loot(state, action.item, events)


def _act(state: ShowdownState, action: Action, events: list[Event]) -> None:
    """One of the active captain's actions."""
    a = state.active
    if isinstance(action, Attack):
        combat.declare(state, action, events)
    elif isinstance(action, Charge):
        gained = ships.working(state, a, "engine")
        state.energy[a] += gained
        state.used.append("charge")
        state.actions_left -= 1
        events.append(Event("energy", f"{ships.name(state, a)} charges the reactor: +{gained} energy."))
    elif isinstance(action, Repair):
        state.used.append("repair")
        state.actions_left -= 1
        rerolls = (1 if ships.able_crew(state, a, "engineer") else 0) + ships.extra_rerolls(state, a)
        die = state.content.rules.repair_die
        state.pending = {"kind": "repair", "stage": "roll", "actor": CHANCE, "die": die, "rerolls": rerolls}
        events.append(Event("repair", f"{ships.name(state, a)} attempts a repair."))
    elif isinstance(action, Teleport):
        boarding.declare(state, action, events)
    elif isinstance(action, Hack | Psionics):
        xenotech.declare(state, action, events)
    elif isinstance(action, Reprogram):
        xenotech.reprogram(state, action, events)
    elif isinstance(action, EndTurn):
        state.actions_left = 0


def _repair_roll(state: ShowdownState, value: int, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    a = state.active
    total = value + ships.die_bonus(state, a)
    if total >= state.content.rules.repair_success:
        state.intact[a] += 1
        state.damaged[a] -= 1
        events.append(Event("repair", f"Repair die {value}: a hull token is patched."))
        state.pending = None
    elif pending["rerolls"]:
        pending["rerolls"] -= 1
        events.append(Event("repair", f"Repair die {value}: re-rolled."))
    else:
        events.append(Event("repair", f"Repair die {value}: the repair fails."))
        state.pending = None


# ---- turn order ---------------------------------------------------------------------------
def _start_showdown(state: ShowdownState, first: int, events: list[Event]) -> None:
    state.first = first
    state.round = 1
    events.append(Event("phase", f"{ships.name(state, first)} plays first."))
    _start_round(state, first, events)


def _start_round(state: ShowdownState, starter: int, events: list[Event]) -> None:
    """A round begins; burning ships first discard in secret."""
    if state.round >= state.fire_from and len(ships.living(state)) >= 2:
        state.phase = "fire"
        state.burns = [""] * state.game.players
        events.append(Event("phase", f"Round {state.round}: the ships are on fire! Each captain discards in secret."))
        return
    _start_turn(state, starter, events)


def _start_turn(state: ShowdownState, p: int, events: list[Event]) -> None:
    state.phase = "turn"
    state.active = p
    state.actions_left = state.content.rules.actions_per_turn
    state.used = []
    state.attacked = []
    events.append(Event("turn", f"Round {state.round}: {ships.name(state, p)}'s turn."))


def _end_turn(state: ShowdownState, events: list[Event]) -> None:
    """The back page's steps 2 to 6: tokens back, crew home, countermeasures spent, +1 energy, next."""
    a = state.active
    if state.status[a] == ALIVE:
        _tick_tokens(state, a, events)
        _tick_boarders(state, a, events)
        ships.expire(state, a, events)
        state.energy[a] += state.content.rules.energy_per_turn
    n = state.game.players
    order = [(a + k) % n for k in range(1, n + 1)]
    nxt = next(p for p in order if state.status[p] == ALIVE)
    place = (a - state.first) % n
    if (nxt - state.first) % n <= place:
        state.round += 1
        _start_round(state, nxt, events)
    else:
        _start_turn(state, nxt, events)


def _tick_tokens(state: ShowdownState, a: int, events: list[Event]) -> None:
    state.tokens, back = _count_down(state.tokens, a)
    for t in back:
        events.append(Event("token", f"{ships.name(state, a)} takes back a {card_name(t.xeno)} token."))


def _tick_boarders(state: ShowdownState, a: int, events: list[Event]) -> None:
    state.boarders, home = _count_down(state.boarders, a)
    for b in home:
        events.append(Event("crew", f"{ships.name(state, a)}'s {card_name(b.crew)} teleports home."))
        if b.loot:
            _install_loot(state, a, b.loot, events)


Waiting = TypeVar("Waiting", Token, Boarder)


def _count_down(items: list[Waiting], owner: int) -> tuple[list[Waiting], list[Waiting]]:
    """At the end of ``owner``'s turn: (what stays, with its wait counted down; what comes back now)."""
    stay: list[Waiting] = []
    back: list[Waiting] = []
    for item in items:
        if item.owner != owner:
            stay.append(item)
        elif item.wait:
            stay.append(item._replace(wait=item.wait - 1))
        else:
            back.append(item)
    return stay, back


def _install_loot(state: ShowdownState, a: int, item: str, events: list[Event]) -> None:
    rules = state.content.rules
    if item == HULL:
        state.intact[a] += 1
        text = "an intact hull token"
    elif item == "energy":
        state.energy[a] += rules.loot_energy
        text = f"{rules.loot_energy} energy"
    elif fits(state, a, item):
        put_on_mat(state, a, item, known=True)
        text = card_name(item)
    else:
        state.public_pile[item] = state.public_pile.get(item, 0) + 1
        events.append(Event("loot", f"{card_name(item)} cannot be equipped (limit reached) and is discarded."))
        return
    events.append(Event("loot", f"{ships.name(state, a)} installs the loot: {text}."))


# ---- ships on fire ----------------------------------------------------------------------------
def _burn(state: ShowdownState, p: int, item: str, events: list[Event]) -> None:
    state.burns[p] = item
    events.append(Event("burn", f"You will discard {_burn_name(state, p, item)}.", (p,)))
    events.append(Event("burn", f"{ships.name(state, p)} has chosen."))
    burning = ships.living(state)
    if any(not state.burns[q] for q in burning):
        return
    for q in burning:
        choice = state.burns[q]
        if choice == HULL:
            state.intact[q] -= 1
            what = "an intact hull token"
        elif choice.startswith("cm"):
            what = card_name(ships.remove_slot(state, q, int(choice[2:])).card)
        else:
            ships.remove_card(state, q, choice)
            what = card_name(choice)
        events.append(Event("burn", f"{ships.name(state, q)} discards {what}."))
    state.burns = [""] * state.game.players
    burnt = [q for q in burning if not state.intact[q]]
    if burnt:
        state.batch += 1
        for q in burnt:
            ships.wreck(state, q, events, "burns out.")
        ships.check_end(state, events)
        if state.phase == "over":
            return
    n = state.game.players
    starter = next(q for q in ((state.first + k) % n for k in range(n)) if state.status[q] == ALIVE)
    _start_turn(state, starter, events)


def _burn_name(state: ShowdownState, p: int, item: str) -> str:
    if item == HULL:
        return "an intact hull token"
    if item.startswith("cm"):
        return card_name(state.cms[p][int(item[2:])].card)
    return card_name(item)


# ---- why an action is refused -----------------------------------------------------------------
_STAGES = {
    "roll": "a die roll",
    "react": "{who} to deploy countermeasures (or not)",
    "commit": "{who} to set energy aside",
    "mode": "{who} to choose sabotage or combat",
    "defend": "{who} to choose a defender",
    "loot": "{who} to choose the loot",
}


def why_illegal(state: ShowdownState, action: Action, actor: int) -> str:
    phase = state.phase
    if phase == "draft":
        return "pick a card from your hand: play it, play it in place of an upgrade, or discard it for hull"
    if phase == "fire":
        return "choose a card aboard or an intact hull token to discard"
    if phase in ("deal", "first"):
        return "chance deals the cards and picks the first player"
    pending = state.pending
    if pending is not None:
        who = ships.name(state, pending["actor"]) if pending["actor"] >= 0 else "chance"
        return "waiting for " + _STAGES[pending["stage"]].format(who=who)
    a = state.active
    if isinstance(action, Attack):
        if not ships.working(state, a, "weapon"):
            return "you have no working weapon"
        if action.target == a:
            return "you cannot attack your own ship"
        if state.status[action.target] == DESTROYED:
            return "that ship is already a wreck"
        if action.double and state.actions_left < 2:
            return "a double attack needs both of your actions"
        return "a second attack on the same target must be declared as a double attack"
    if isinstance(action, Charge | Repair | Teleport | Hack | Psionics | Reprogram):
        return "it is not available: each of these actions once per turn, with what it needs (energy, crew, a target)"
    return f"it is {ships.name(state, a)}'s turn to choose an action"
