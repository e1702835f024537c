"""Attack and Defend: weapons against engines, energy set aside, re-rolls, damage.

Rulebook: "Actions: Attack", "Free actions: Defend" and Nitro Fuel. The steps of one
attack: declare the target (and a double attack) -> the attacker sets energy aside ->
the target deploys countermeasures -> the target sets energy aside -> both pools are
rolled (one chance node per die), forced re-rolls, own re-rolls -> resolution.
"""

from __future__ import annotations

from spacetable.engine import CHANCE, Event
from spacetable.engine.words import article

from . import dice, ships
from .actions import MAX_COMMIT, Attack
from .state import ALIVE, ShowdownState


def declare(state: ShowdownState, action: Attack, events: list[Event]) -> None:
    a, t = state.active, action.target
    state.actions_left -= 2 if action.double else 1
    if not action.double:
        state.attacked.append(t)
    weapons = ships.working(state, a, "weapon")
    rules = state.content.rules
    pending = dice.new_roll(rules.attack_die, rules.attack_success, weapons * (2 if action.double else 1), 0)
    pending.update(kind="attack", attacker=a, target=t, double=action.double, stage="", actor=a)
    state.pending = pending
    how = "twice, in one volley" if action.double else "once"
    events.append(
        Event(
            "attack",
            f"{ships.name(state, a)} fires {weapons} weapon{'s' if weapons > 1 else ''} "
            f"at {ships.name(state, t)} {how}.",
        )
    )
    if state.energy[a]:
        _ask_commit(state, a, "a")
    else:
        ships.offer_reaction(state, after_reaction, events)


def max_commit(state: ShowdownState) -> int:
    """Energy the actor may set aside: all they have, up to what could lift every die."""
    pending = state.pending
    assert pending is not None
    who: int = pending["actor"]
    count: int = pending["an"] if pending["side"] == "a" else pending["dn"]
    success: int = pending["success"]
    return min(state.energy[who], (success - 1) * count, MAX_COMMIT)


def _ask_commit(state: ShowdownState, who: int, side: str) -> None:
    pending = state.pending
    assert pending is not None
    pending.update(stage="commit", actor=who, side=side)


def commit(state: ShowdownState, energy: int, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    who, side = pending["actor"], pending["side"]
    state.energy[who] -= energy
    pending["ac" if side == "a" else "dc"] = energy
    if energy:
        events.append(Event("energy", f"{ships.name(state, who)} sets {energy} energy aside for the roll."))
    if side == "a":
        ships.offer_reaction(state, after_reaction, events)
    else:
        _start_roll(state, events)


def after_reaction(state: ShowdownState, events: list[Event]) -> None:
    """The target has deployed what it wanted: count its dice and let it set energy aside."""
    pending = state.pending
    assert pending is not None
    t = pending["target"]
    if state.status[t] == ALIVE:
        engines = ships.working(state, t, "engine")
        pending["dn"] = engines * (2 if ships.active_countermeasure(state, t, "nitro_fuel") else 1)
    if pending["dn"] and state.energy[t]:
        _ask_commit(state, t, "d")
    else:
        _start_roll(state, events)


def _start_roll(state: ShowdownState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    a, t, double = pending["attacker"], pending["target"], pending["double"]
    nitro = ships.active_countermeasure(state, t, "nitro_fuel") is not None
    queue: list[list[str]] = []
    queue += [["a", "forced"]] * _saboteurs(state, a, "gunner")
    queue += [["d", "forced"]] * _saboteurs(state, t, "pilot")
    own_a = (2 if double else 1) if ships.able_crew(state, a, "gunner") else 0
    own_d = (2 if double or nitro else 1) if ships.able_crew(state, t, "pilot") and pending["dn"] else 0
    queue += [["a", "own"]] * (own_a + ships.extra_rerolls(state, a))
    if pending["dn"]:
        queue += [["d", "own"]] * (own_d + ships.extra_rerolls(state, t))
    pending.update(rr=queue, ab=ships.die_bonus(state, a), db=ships.die_bonus(state, t), stage="roll", actor=CHANCE)
    if not dice.next_die(pending):
        resolve(state, events)


def _saboteurs(state: ShowdownState, host: int, crew: str) -> int:
    """Enemy crew of a type sabotaging aboard ``host`` (Energy Shields stop them)."""
    if ships.shielded(state, host):
        return 0
    return sum(1 for b in state.boarders if b.host == host and b.crew == crew and b.mode == "sabotage")


def roll(state: ShowdownState, value: int, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    old = dice.record(pending, value)
    if old is not None:
        side = pending["at"][0]
        who = pending["attacker"] if side == "a" else pending["target"]
        events.append(Event("dice", f"{ships.name(state, who)} re-rolls {article(str(old))}: {value}."))
    elif dice.initial_done(pending):
        _announce(state, events)
    if not dice.next_die(pending):
        resolve(state, events)


def _announce(state: ShowdownState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    a, t = pending["attacker"], pending["target"]
    text = f"{ships.name(state, a)} rolls {dice.show(pending['a'])}"
    if pending["dn"]:
        text += f"; {ships.name(state, t)} rolls {dice.show(pending['d'])}"
    events.append(Event("dice", text + "."))


def resolve(state: ShowdownState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    a, t = pending["attacker"], pending["target"]
    hits, blocks = dice.successes(pending, "a"), dice.successes(pending, "d")
    rules = state.content.rules
    events.append(Event("attack", f"{ships.name(state, a)}: {hits} success(es); {ships.name(state, t)}: {blocks}."))
    refund = (pending["an"] - hits) * rules.energy_per_failed_attack_die
    if refund:
        state.energy[a] += refund
        events.append(Event("energy", f"{ships.name(state, a)} recovers {refund} energy from failed dice."))
    if hits > blocks:
        ships.damage(state, t, hits - blocks, events)
    elif blocks > hits and state.status[t] == ALIVE:
        state.energy[t] += blocks - hits
        events.append(Event("energy", f"{ships.name(state, t)} gains {blocks - hits} energy from the excess."))
    nitro = ships.active_countermeasure(state, t, "nitro_fuel")
    if nitro is not None and nitro.boosted and blocks and state.status[t] == ALIVE:
        events.append(
            Event("attack", f"{ships.name(state, t)}'s boosted Nitro Fuel turns {blocks} success(es) on the attacker.")
        )
        ships.damage(state, a, blocks, events)
    state.pending = None
    ships.settle(state, events)
