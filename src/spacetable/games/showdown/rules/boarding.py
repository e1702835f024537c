"""Teleport: boarding an enemy ship to sabotage or to fight its crew; a killed captain's loot.

Rulebook: "Teleport", "Sabotage", "Combat", "Teleporting is risky business!" and Player
Elimination. The steps: the crew member goes aboard -> the target deploys
countermeasures (Energy Shields stop the rest) -> the boarder's owner chooses sabotage
or combat -> in combat the target chooses who meets the boarder -> teleporter dice ->
resolution (a killed captain: the killer chooses the loot).
"""

from __future__ import annotations

from typing import Any

from spacetable.engine import CHANCE, Action, Event
from spacetable.engine.words import article

from ..content import CAPTAIN, CARD_KINDS, COUNTERMEASURES, CREW, card_name
from . import dice, ships
from .actions import ENERGY, HULL, MODES, Board, Defend, Loot, Teleport
from .state import DESTROYED, Boarder, ShowdownState

SABOTEURS = ("engineer", "gunner", "pilot")
"""Crew with a sabotage ability (Cryo-Crew have none)."""


def declare(state: ShowdownState, action: Teleport, events: list[Event]) -> None:
    a, t = state.active, action.target
    state.actions_left -= 1
    state.used.append("teleport")
    state.boarders.append(Boarder(a, action.crew, t, wait=1))
    state.pending = {"kind": "board", "attacker": a, "target": t, "crew": action.crew, "stage": "", "actor": a}
    events.append(
        Event(
            "board",
            f"{ships.name(state, a)} teleports {article(card_name(action.crew))} aboard {ships.name(state, t)}'s ship.",
        )
    )
    ships.offer_reaction(state, after_reaction, events)


def _boarder_index(state: ShowdownState, pending: dict[str, Any]) -> int:
    """The boarder this action sent (the latest of its owner, host and type)."""
    a, t, crew = pending["attacker"], pending["target"], pending["crew"]
    return max(i for i, b in enumerate(state.boarders) if (b.owner, b.host, b.crew) == (a, t, crew))


def after_reaction(state: ShowdownState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    t = pending["target"]
    shields = ships.active_countermeasure(state, t, "energy_shields")
    if shields is not None:
        text = f"Energy Shields stop the boarder; it stays stuck aboard {ships.name(state, t)}'s ship"
        if shields.boosted:
            i = _boarder_index(state, pending)
            state.boarders[i] = state.boarders[i]._replace(wait=state.boarders[i].wait + 1)
            text += " for an extra round"
        events.append(Event("board", text + "."))
        state.pending = None
        return
    if modes(state) == [Board("combat")]:
        _to_combat(state, events)
    else:
        pending.update(stage="mode", actor=pending["attacker"])


def modes(state: ShowdownState) -> list[Action]:
    pending = state.pending
    assert pending is not None
    return [Board(m) for m in MODES if m == "combat" or pending["crew"] in SABOTEURS]


def choose_mode(state: ShowdownState, mode: str, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    if mode == "combat":
        _to_combat(state, events)
        return
    a, t, crew = pending["attacker"], pending["target"], pending["crew"]
    i = _boarder_index(state, pending)
    state.boarders[i] = state.boarders[i]._replace(mode="sabotage")
    state.pending = None
    if crew == "engineer":
        events.append(Event("board", f"{ships.name(state, a)}'s Engineer sabotages the hull."))
        ships.damage(state, t, 1, events)
        ships.settle(state, events)
    else:
        what = "attacks" if crew == "gunner" else "defence rolls"
        events.append(
            Event("board", f"{ships.name(state, a)}'s {card_name(crew)} sabotages {ships.name(state, t)}'s {what}.")
        )


def defenders(state: ShowdownState) -> list[Action]:
    """Who may meet the boarder: crew aboard and free to act, or the captain."""
    pending = state.pending
    assert pending is not None
    t = pending["target"]
    return [Defend(c) for c in (CAPTAIN, *CREW) if c == CAPTAIN or ships.able_crew(state, t, c)]


def _to_combat(state: ShowdownState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    options = defenders(state)
    if len(options) == 1:
        defend(state, CAPTAIN, events)
    else:
        pending.update(stage="defend", actor=pending["target"])


def defend(state: ShowdownState, crew: str, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    a, t = pending["attacker"], pending["target"]
    rules, rating = state.content.rules, state.content.rating
    drone = ships.active_countermeasure(state, t, "security_drone")
    extra = 1 if drone is not None and not drone.boosted else 0
    roll = dice.new_roll(rules.teleporter_die, rules.teleporter_success, rating[pending["crew"]], rating[crew] + extra)
    roll.update(
        dauto=1 if drone is not None and drone.boosted else 0,
        ab=ships.die_bonus(state, a),
        db=ships.die_bonus(state, t),
        rr=[["a", "own"]] * ships.extra_rerolls(state, a) + [["d", "own"]] * ships.extra_rerolls(state, t),
    )
    pending.update(roll, defender=crew, stage="roll", actor=CHANCE)
    events.append(Event("board", f"{ships.name(state, t)}'s {card_name(crew)} meets the {card_name(pending['crew'])}."))
    if not dice.next_die(pending):
        resolve(state, events)


def roll(state: ShowdownState, value: int, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    old = dice.record(pending, value)
    if old is not None:
        events.append(Event("dice", f"A teleporter die is re-rolled: {old} becomes {value}."))
    if not dice.next_die(pending):
        resolve(state, events)


def resolve(state: ShowdownState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    a, t, crew, defender = pending["attacker"], pending["target"], pending["crew"], pending["defender"]
    hits, blocks = dice.successes(pending, "a"), dice.successes(pending, "d")
    events.append(
        Event(
            "dice",
            f"Teleporter combat: {ships.name(state, a)} rolls {dice.show(pending['a'])} ({hits}), "
            f"{ships.name(state, t)} rolls {dice.show(pending['d'])} ({blocks}).",
        )
    )
    state.pending = None
    if hits > blocks:
        if defender == CAPTAIN:
            ships.kill_captain(state, t, events)
            if state.phase == "over":
                ships.discard_ship(state, t)
            else:
                state.pending = {"kind": "board", "stage": "loot", "actor": a, "attacker": a, "target": t, "crew": crew}
            return
        ships.remove_card(state, t, defender)
        events.append(Event("crew", f"{ships.name(state, t)}'s {card_name(defender)} is killed."))
    elif blocks > hits:
        i = _boarder_index(state, pending)
        del state.boarders[i]
        ships.remove_card(state, a, crew)
        events.append(Event("crew", f"{ships.name(state, a)}'s {card_name(crew)} is killed aboard the enemy ship."))
    else:
        events.append(Event("crew", "Neither side prevails."))


def loot_options(state: ShowdownState) -> list[Action]:
    pending = state.pending
    assert pending is not None
    t = pending["target"]
    kinds = set(state.mats[t]) | {s.card for s in state.cms[t]}
    options: list[Action] = [Loot(k) for k in CARD_KINDS if k in kinds]
    if state.intact[t]:
        options.append(Loot(HULL))
    options.append(Loot(ENERGY))
    return options


def loot(state: ShowdownState, item: str, events: list[Event]) -> None:
    """The killer's crew takes ``item`` home when it returns; the rest of the ship's cards are discarded."""
    pending = state.pending
    assert pending is not None
    a, t = pending["attacker"], pending["target"]
    if item == HULL:
        state.intact[t] -= 1
        if not state.intact[t]:
            state.status[t] = DESTROYED  # nothing left to shoot at; taking a token is no explosion
    elif item != ENERGY:
        if item in COUNTERMEASURES:
            slots = state.cms[t]
            slots.pop(next(i for i, s in enumerate(slots) if s.card == item))
        else:
            state.mats[t][item] -= 1
    ships.discard_ship(state, t)
    i = _boarder_index(state, pending)
    state.boarders[i] = state.boarders[i]._replace(loot=item)
    what = {HULL: "an intact hull token", ENERGY: f"{state.content.rules.loot_energy} energy"}.get(
        item, card_name(item)
    )
    events.append(Event("loot", f"{ships.name(state, a)} loots {what} from {ships.name(state, t)}'s ship."))
    state.pending = None
