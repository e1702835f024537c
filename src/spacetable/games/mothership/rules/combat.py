"""Chapters 3 (combat), 5 (the colony station) and 7 (planets).

- A dogfight: ships next to their target, declared together before rolling, add
  their dice; a defending ship rolls its own die plus one (``wingman_bonus``) for each
  friendly ship next to it (a colony station rolls nothing and has no wingmen). The
  higher total wins; the loser takes the winner's total as damage; a tie hurts nobody.
  If attackers lose, each of them takes the defender's full total; wingmen are never hurt.
- What damages what: the mothership everything; fighters fighters, bombers,
  mothership shields and planets (never hull points); bombers hull points, shields
  and planets (never fighters or bombers). A ship may join an attack only on a
  target it can damage. A bomber that wins against an attacking fighter only survives.
- Shields absorb damage first; the rest comes off the hull. A colony station loses
  one counter (4 HP) for every full 4 damage of one attack; less removes nothing.
- Guarding: a colony station with a friendly ship next to it cannot be attacked,
  unless only bombers are left in the game.
- A planet attack (no buffs, no defence roll) captures the planet on a total of 6
  or more; several ships may combine. It may be another player's planet, never a
  teammate's. Every attack uses the attacking ships' attack phase.
- Neutron stars (module ``hazards``): a side with a unit of the dogfight beside one has its
  final total halved, rounding up; a mothership beside one has no shield points.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Event

from . import economy, tactics, tech, turns
from .actions import Attack
from .board import PLANET
from .dice import die_name
from .movement import damage_mothership, destroy_ship, shield_points, weapon_die
from .state import EMPTY, NOWHERE, STATION
from .targets import (
    BOMBER,
    CANNON_TARGET,
    CANNON_UNIT,
    COLONY,
    FIGHTER,
    MOTHERSHIP,
    PLANET_TARGET,
    cannon_code,
    decode_target,
    planet_code,
    target_cell,
    target_code,
    wingmen,
)

if TYPE_CHECKING:
    from .state import MothershipState
    from .tactics import Term

DAMAGES = {
    MOTHERSHIP: {MOTHERSHIP, FIGHTER, BOMBER, COLONY, PLANET_TARGET, CANNON_TARGET},
    FIGHTER: {MOTHERSHIP, FIGHTER, BOMBER, PLANET_TARGET, CANNON_TARGET},
    BOMBER: {MOTHERSHIP, COLONY, PLANET_TARGET, CANNON_TARGET},
    COLONY: set(),
    CANNON_TARGET: {MOTHERSHIP, FIGHTER, BOMBER},
}
"""What each kind of unit can damage (a fighter only a mothership's shields; a guardian cannon,
which never attacks, what it defends against)."""


def only_bombers_left(state: MothershipState) -> bool:
    kinds = state.game.ship_kinds
    return all(kinds[ship] == BOMBER for fleet in state.pos for ship, cell in enumerate(fleet) if cell != NOWHERE)


def guarded(state: MothershipState, seat: int) -> bool:
    """Whether ``seat``'s colony station has a friendly ship next to it (and guarding counts)."""
    board = state.board
    assert board is not None
    for n in board.neighbours[state.stations[seat]]:
        occupant = state.grid[n]
        if occupant != EMPTY and occupant & 15 != STATION and state.friendly(occupant >> 4, seat):
            return not only_bombers_left(state)
    return False


def attack_options(state: MothershipState, seat: int) -> list[Action]:
    """Every legal attack: each target next to a ship that may still attack, with every
    non-empty group of the ships next to it that can damage it."""
    board = state.board
    assert board is not None
    kinds = state.game.ship_kinds
    grid, neighbours, terrain = state.grid, board.neighbours, board.terrain
    groups: dict[int, int] = {}
    waiting = waiting_ships(state, seat)  # a ship on a beacon token it must answer attacks after the card
    for ship, cell in enumerate(state.pos[seat]):
        if cell == NOWHERE or (state.attacked | waiting) >> ship & 1 or not weapon_die(state, seat, ship):
            continue
        if held(state, seat, ship):  # in a black hole since the turn began
            continue
        can = DAMAGES[kinds[ship]]
        for n in neighbours[cell]:
            occupant = grid[n]
            if occupant == EMPTY:
                if terrain[n] == PLANET and PLANET_TARGET in can:
                    planet = board.planets.index(n)
                    owner = state.owner[planet]
                    if owner == -1 or (owner >= 0 and not state.friendly(owner, seat)):
                        code = planet_code(state, planet)
                        groups[code] = groups.get(code, 0) | 1 << ship
                continue
            other, unit = occupant >> 4, occupant & 15
            if state.friendly(other, seat):
                continue
            kind = turns.unit_kind(state, unit)
            if kind not in can or (kind == MOTHERSHIP and kinds[ship] == FIGHTER and not shield_points(state, other)):
                continue
            if kind == COLONY and guarded(state, other):
                continue
            if kind == CANNON_TARGET:
                code = cannon_code(state, n)
            else:
                code = target_code(state, other, state.game.content.ships if kind == COLONY else unit)
            groups[code] = groups.get(code, 0) | 1 << ship
    actions: list[Action] = []
    for code, mask in groups.items():
        members = [1 << i for i in range(mask.bit_length()) if mask >> i & 1]
        for size in range(1, len(members) + 1):
            for group in combinations(members, size):
                actions.append(Attack(sum(group), code))
    return actions


def declare(state: MothershipState, seat: int, ships: list[int], target: int, events: list[Event]) -> None:
    """An attack is declared: the attackers' phase is used, the dice are set out to roll."""
    for ship in ships:
        state.attacked |= 1 << ship
    if 0 in ships:
        state.locked = True
    kind, other, unit = decode_target(state, target)
    dice = [weapon_die(state, seat, ship) for ship in ships]
    if kind == COLONY and tech.bonus(state, other, "station_die"):
        dice.append(tech.bonus(state, other, "station_die"))  # Station Guns: the station rolls
    if kind in (MOTHERSHIP, FIGHTER, BOMBER):
        defence = weapon_die(state, other, unit)
        if defence:
            dice.append(defence)
    elif kind == CANNON_TARGET:
        dice.append(state.game.content.cannons.die)
    who = " and ".join(state.game.ship_names[s] for s in ships)
    events.append(
        Event(
            "attack",
            f"{state.player_name(seat)}'s {who} {'attacks' if len(ships) == 1 else 'attack'} "
            f"{target_name(state, target)}: " + ", ".join(die_name(d) for d in dice) + ".",
        )
    )
    state.pending = {"what": "dogfight", "seat": seat, "ships": ships, "target": target, "dice": dice, "rolls": []}
    tactics.open_window(state)


def target_name(state: MothershipState, target: int) -> str:
    kind, seat, unit = decode_target(state, target)
    assert state.board is not None
    if kind == PLANET_TARGET:
        if unit >= len(state.owner):
            return f"planet {unit + 1} (this board has {len(state.owner)})"
        owner = state.owner[unit]
        whose = f"{state.player_name(owner)}'s" if owner >= 0 else "the neutral"
        return f"{whose} planet at {state.board.name_of(state.board.planets[unit])}"
    if kind == COLONY:
        return f"{state.player_name(seat)}'s colony station"
    if kind == CANNON_TARGET:
        cell = target_cell(state, target)
        where = state.board.name_of(cell) if cell < len(state.grid) else f"space {cell}"
        return f"{state.player_name(seat) if seat >= 0 else 'a'} guardian cannon at {where}"
    return state.ship_name(seat, unit)


def resolve(state: MothershipState, events: list[Event]) -> None:
    """Every die is rolled: the totals decide the dogfight (or planet attack). A defender that
    lost, if it holds cards, may then answer (Last Stand, Life Support) before the damage."""
    pending = state.pending
    assert pending is not None and state.board is not None
    seat, ships, target, rolls = pending["seat"], pending["ships"], pending["target"], pending["rolls"]
    attack_rolls, defence_rolls = rolls[: len(ships)], rolls[len(ships) :]
    kind, other, unit = decode_target(state, target)
    attackers = [state.pos[seat][ship] for ship in ships]
    if kind == PLANET_TARGET:  # no buffs: only Git off Mah Propertay! raises the total needed
        state.pending = None
        bonus = sum(value for _, value in tactics.faced(attack_terms(state, pending, events), attack_rolls))
        total = final_total(state, attackers, sum(attack_rolls) + bonus, "the planet attack", events)
        capture(state, seat, unit, total, events, tactics.capture_needs(state, pending))
        return
    cell = target_cell(state, target)
    dice = pending["dice"]
    attacking = Sum(
        [
            (f"{state.ship_name(seat, ship)}'s {die_name(dice[i])}", face)
            for i, (ship, face) in enumerate(zip(ships, attack_rolls))
        ]
    )
    attacking.add(tactics.faced(attack_terms(state, pending, events), attack_rolls))
    defender = (
        f"{state.player_name(other)}'s colony station"
        if kind == COLONY
        else "the guardian cannon"
        if kind == CANNON_TARGET
        else state.ship_name(other, unit)
    )
    defending = Sum([(f"{defender}'s {die_name(dice[len(ships) + i])}", face) for i, face in enumerate(defence_rolls)])
    defending.add(tactics.faced(defence_terms(state, pending, events), defence_rolls))
    attack, roll = attacking.total, defending.total
    helpers, wingman = wingmen_term(state, pending)
    defending.add([wingman])
    defence = defending.total
    worth = wingman[1]
    extra = "" if not helpers else f" + {helpers} wingman" if worth == helpers else f" + {worth} ({helpers} wingman)"
    events.append(Event("roll", f"Attack {attack} against defence {roll}{extra} = {defence}."))
    events.append(Event("roll", f"How: attack {attacking}; defence {defending}."))
    attack = final_total(state, attackers, attack, "the attack", events)
    defence = final_total(state, [cell], defence, "the defence", events)
    pending["result"] = [attack, defence]
    tactics.open_lost(state)
    if tactics.decided(state):
        settle(state, events)


def attack_terms(state: MothershipState, pending: dict[str, Any], events: list[Event]) -> list[Term]:
    """What the attacking side adds to its dice, in the order its total lists them: the cards played,
    the modules' roll bonuses, the technology tree, an Overcharge held, the modules' dogfight
    bonuses; nothing on a planet (chapter 7: no buffs there). What is good for one roll (an
    Overcharge, a kept beacon card) is spent, and told in ``events``: a forecast asks on a clone."""
    seat, ships = pending["seat"], pending["ships"]
    if decode_target(state, pending["target"])[0] == PLANET_TARGET:
        return []
    hooks, kinds = state.game.hooks, state.game.ship_kinds
    terms = tactics.card_terms(state, pending, tactics.ATTACK)
    terms += [(term, sum(bonus(state, seat, ship) for ship in ships)) for term, bonus in hooks.roll_bonus]
    terms.append(("technology tree", sum(tech.bonus(state, seat, "attack", kinds[ship]) for ship in ships)))
    terms.append(("Overcharge", tech.overcharge(state, seat, events)))
    terms += [(term, bonus(state, seat, events)) for term, bonus in hooks.dogfight_bonus]
    return terms


def defence_terms(state: MothershipState, pending: dict[str, Any], events: list[Event]) -> list[Term]:
    """What the defending unit adds to its die, wingmen aside (:func:`wingmen_term`): the cards
    played, the modules' roll bonuses (a mothership's), and unless it is a colony station the
    tree's defence for its kind, an Overcharge held and the modules' dogfight bonuses (spent and
    told as in :func:`attack_terms`)."""
    kind, other, unit = decode_target(state, pending["target"])
    hooks = state.game.hooks
    terms = tactics.card_terms(state, pending, tactics.DEFENCE)
    if kind == MOTHERSHIP:
        terms += [(term, bonus(state, other, unit)) for term, bonus in hooks.roll_bonus]
    if kind != COLONY:
        terms.append(("technology tree", tech.bonus(state, other, "defence", kind)))
        terms.append(("Overcharge", tech.overcharge(state, other, events)))
        terms += [(term, bonus(state, other, events)) for term, bonus in hooks.dogfight_bonus]
    return terms


def wingmen_term(state: MothershipState, pending: dict[str, Any]) -> tuple[int, tuple[str, int]]:
    """(friendly ships beside the defending unit, their term: ``"N wingman"`` and what they add,
    each the rules' wingman bonus and the tree's); a colony station has none (the rule helps a
    defending *ship*)."""
    kind, other, _ = decode_target(state, pending["target"])
    helpers = 0 if kind == COLONY else wingmen(state, other, target_cell(state, pending["target"]))
    each = state.game.content.wingman_bonus + tech.bonus(state, other, "wingman")
    return helpers, (f"{helpers} wingman", helpers * each)


def asteroid_terms(state: MothershipState, pending: dict[str, Any], events: list[Event]) -> list[Term]:
    """What a ship adds to its die against an asteroid field: the cards played, the modules' roll
    bonuses, the tree's asteroid buffs and defence buffs for its kind, an Overcharge held (spent
    and told as in :func:`attack_terms`)."""
    seat, ship = pending["seat"], pending["ships"][0]
    kind = state.game.ship_kinds[ship]
    terms = tactics.card_terms(state, pending, tactics.DEFENCE)
    terms += [(term, bonus(state, seat, ship)) for term, bonus in state.game.hooks.roll_bonus]
    terms.append(("technology tree", tech.bonus(state, seat, "asteroid") + tech.bonus(state, seat, "defence", kind)))
    terms.append(("Overcharge", tech.overcharge(state, seat, events)))
    return terms


def held(state: MothershipState, seat: int, ship: int) -> bool:
    """Whether ``seat``'s ``ship`` may not start a dogfight (or fire an ability) now (a module's
    hold: a black hole since the turn began)."""
    hooks = state.game.hooks.ship_held
    return bool(hooks) and any(holds(state, seat, ship) for holds in hooks)


def waiting_ships(state: MothershipState, seat: int) -> int:
    """Bit mask of ``seat``'s ships that must answer something of a module's (a beacon token they
    stand on) before they attack or the turn ends."""
    mask = 0
    for waiting in state.game.hooks.waiting_ships:
        mask |= waiting(state, seat)
    return mask


def final_total(state: MothershipState, cells: list[int], total: int, what: str, events: list[Event]) -> int:
    """A side's final total (``what``, in words) from its units on ``cells``, after what the
    modules make of it (a neutron star beside one halves it)."""
    for change in state.game.hooks.roll_total:
        total = change(state, cells, total, what, events)
    return total


class Sum:
    """A total and how it was made: each die (whose, which) and each bonus (its source), in order;
    ``str`` writes it out, e.g. ``9 = Player 1's Fighter 1's d6 4 + Volt Switch 2 + technology tree 3``."""

    def __init__(self, terms: list[tuple[str, int]]) -> None:
        self.terms = terms

    def add(self, terms: list[tuple[str, int]]) -> None:
        """Add the terms that count (a bonus of 0 is left out)."""
        self.terms += [(source, value) for source, value in terms if value]

    @property
    def total(self) -> int:
        return sum(value for _, value in self.terms)

    def __str__(self) -> str:
        text = " ".join(f"{'-' if value < 0 else '+'} {source} {abs(value)}" for source, value in self.terms)
        return f"{self.total} = {text.removeprefix('+ ')}" if self.terms else "0"


def settle(state: MothershipState, events: list[Event]) -> None:
    """The damage of a decided dogfight, with the loser's answers and the shield cards."""
    pending = state.pending
    assert pending is not None
    state.pending = None
    seat, ships, target = pending["seat"], pending["ships"], pending["target"]
    attack, defence = pending["result"]
    kind, other, unit = decode_target(state, target)
    shields_before = {s: state.shield[s] for s in (seat, other)}
    extra_shields = tactics.apply_shields(state, pending, events)
    shields_before.update({s: state.shield[s] for s in extra_shields})
    saved = tactics.saved_ship(pending)
    kinds = state.game.ship_kinds
    turns.tally(state, seat if attack > defence else other if defence > attack else -1, "dogfights_won")
    if attack > defence:
        hull = any(kinds[s] != FIGHTER for s in ships)
        if kind == CANNON_TARGET:
            unit = target_cell(state, target)
        hit(state, seat, other, unit, kind, attack, hull, events, saved)
    elif defence > attack and pending.get("ranged"):
        events.append(Event("miss", "The defence holds; at range, the attackers take no damage."))
    elif defence > attack:
        guns = {FIGHTER, BOMBER} if kind == COLONY and tech.bonus(state, other, "station_die") else set()
        for ship in ships:
            if kinds[ship] in DAMAGES[kind] | guns:
                hit(state, other, seat, ship, kinds[ship], defence, kind != FIGHTER, events, saved)
            else:
                events.append(Event("miss", f"{state.ship_name(seat, ship)} loses but cannot be hurt by a {kind}."))
    else:
        events.append(Event("miss", "A tie: nobody takes damage."))
    tactics.drop_extra_shields(state, extra_shields, shields_before)
    tactics.last_stand(state, pending, events)
    turns.check_out(state, [other, seat], events)


def resolve_asteroids(state: MothershipState, events: list[Event]) -> None:
    """An asteroid dogfight whose dice are rolled and whose windows are closed: the ship defends
    with its die, its cards (Defence Buff, Volt Switch, ...), the tree's defence buffs for its
    kind, the asteroid tile and an Overcharge held; a tie or better lets it roam the field."""
    pending = state.pending
    assert pending is not None and state.board is not None
    state.pending = None
    seat, ship = pending["seat"], pending["ships"][0]
    rocks, rolls = pending["rolls"][0], pending["rolls"][1:]
    name = state.ship_name(seat, ship)
    roll = Sum([(f"{name}'s {die_name(sides)}", face) for sides, face in zip(pending["dice"][1:], rolls)])
    roll.add(tactics.faced(asteroid_terms(state, pending, events), rolls))
    events.append(Event("roll", f"How: {roll} against the asteroids' {rocks}."))
    total = roll.total
    cell = state.pos[seat][ship]
    total = final_total(state, [cell], total, f"{name}'s roll", events)
    if total >= rocks:
        state.cleared[seat][ship] = state.board.field[cell]
        events.append(Event("asteroid", f"{name} ({total}) beats the asteroids ({rocks}): it may roam the field."))
        return
    if ship != 0:
        destroy_ship(state, seat, ship)
        events.append(Event("damage", f"{name} ({total}) loses to the asteroids ({rocks}) and explodes."))
    else:
        before = state.shield[seat]
        extra = tactics.apply_shields(state, pending, events)  # Auxiliary Shield
        lost = damage_mothership(state, seat, rocks, hull=True)
        tactics.drop_extra_shields(state, extra, {seat: before + extra.get(seat, 0)})
        events.append(Event("damage", f"{name} ({total}) loses to the asteroids ({rocks}): {lost}."))
        if state.pos[seat][0] != NOWHERE:
            state.cleared[seat][ship] = state.board.field[cell]
    turns.check_out(state, [seat], events)


def hit(
    state: MothershipState,
    by: int,
    seat: int,
    unit: int,
    kind: str,
    amount: int,
    hull: bool,
    events: list[Event],
    saved: int = -1,
) -> None:
    """``seat``'s ``unit`` (a ``kind``) loses a dogfight to ``by``'s total ``amount``; ``hull``:
    whether the winners can damage hull points (fighters alone cannot); ``saved``: a ship of the
    loser's that Life Support keeps (its loot is still paid). A cannon's ``unit`` is its space."""
    c = state.game.content
    if kind == CANNON_TARGET:
        for destroyed in state.game.hooks.structure_destroyed:
            destroyed(state, seat, unit)
        events.append(Event("damage", f"{state.player_name(seat)}'s guardian cannon is destroyed."))
        turns.destroyed(state, by, seat, CANNON_UNIT, events)
        return
    if kind == COLONY:
        counters = amount // c.station_counter
        state.station_hp[seat] = max(0, state.station_hp[seat] - counters * c.station_counter)
        events.append(
            Event(
                "damage",
                f"{state.player_name(seat)}'s colony station takes {amount}: {counters} counter(s) "
                f"lost, {state.station_hp[seat]} HP left.",
            )
        )
        if state.station_hp[seat] == 0:
            turns.destroyed(state, by, seat, STATION, events)
        return
    name = state.ship_name(seat, unit)
    if kind == MOTHERSHIP:
        words = damage_mothership(state, seat, amount, hull)
        events.append(Event("damage", f"{name} takes {amount}: {words}."))
        if state.pos[seat][0] == NOWHERE:
            turns.destroyed(state, by, seat, 0, events)
        return
    if unit == saved:
        events.append(Event("card", f"Life Support: {name} survives."))
    else:
        destroy_ship(state, seat, unit)
        events.append(Event("damage", f"{name} explodes."))
    turns.destroyed(state, by, seat, unit, events, survived=unit == saved)


def capture(state: MothershipState, seat: int, planet: int, total: int, events: list[Event], need: int = 0) -> None:
    """A planet attack totalling ``total`` (``need``: the total that captures, the rules' 6 by default)."""
    need = need or state.game.content.capture_total
    assert state.board is not None
    where = state.board.name_of(state.board.planets[planet])
    if total < need:
        events.append(
            Event(
                "capture", f"{state.player_name(seat)} rolls {total} on the planet at {where}: {need} needed, it holds."
            )
        )
        return
    previous = state.owner[planet]
    events.append(Event("capture", f"{state.player_name(seat)} rolls {total} and captures the planet at {where}."))
    turns.change_owner(state, planet, seat, events)
    economy.capture_reward(state, seat, previous, events)
