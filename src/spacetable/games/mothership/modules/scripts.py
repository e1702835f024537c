"""Carrying out the expansion's cards: a distress beacon card, an objective's reward.

A card being carried out is one plain record, ``state.script``: who (``seat``), "your ship"
(``ship``, the ship that activated the beacon; -1 for an objective), where it came from
(``source``: ``beacon`` or ``objective``), the ``card`` (a beacon's ``token`` space and the
``option`` taken, -1 before), and the ``effects`` still to do, as
the card's own strings (module :mod:`..content.language`). Effects run in order until one needs a
decision (``state.choice``) or a die (``state.pending``, ``what`` = ``test``); the answer
carries on from there. When no effect is left, the card's module finishes it (its ``scripted``
rule hook, by ``source``). The language's effects that act on a module's own part of the state
(a beacon card kept, objective cards owed) are that module's (its ``effects`` hook), so this
module imports neither of the two whose cards it carries out.

A beacon card: its story is told, then either a die decides the option (``decide``) or the
player chooses among the options whose requirements they meet (one must be chosen; a card with
none open is discarded for the next when drawn, module :mod:`.beacons`). An option with a
``test`` is rolled after it is chosen.
A reward the player cannot take (no planet to explore, no room for a cannon, nothing to
repair) is discarded, as the rulebook says.

The rewards build on three modules and import them: a cannon is deployed by :mod:`.cannons`, a
planet explored by :mod:`.exploration` (which also counts a seat's artifacts for requirements),
and points are awarded by :mod:`.victory`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from spacetable.engine import Event

from ..content import CATEGORIES
from ..content.language import COMPARE, TALLIES, Effect, Need, parse_die, parse_effect, parse_need, parse_test
from ..rules import choices, economy, movement, tech, turns
from ..rules.board import ASTEROID, BLACK_HOLE, NEUTRON_STAR, PLANET
from ..rules.hooks import Module
from ..rules.movement import damage_mothership, destroy_ship, jump
from ..rules.state import CANNON, EMPTY, NOWHERE, STATION
from ..rules.targets import target_code
from . import cannons, exploration, victory

if TYPE_CHECKING:
    from ..content import BeaconModel, BeaconOptionModel
    from ..rules.state import MothershipState


# ---- requirements -----------------------------------------------------------------------------


def _alive(state: MothershipState, seat: int) -> bool:
    return state.pos[seat][0] != NOWHERE


def _tally(index: int) -> Callable[[MothershipState, int], int]:
    return lambda state, seat: state.peek("tallies")[seat][index]  # read after every action: no copy


def _tier(index: int) -> Callable[[MothershipState, int], int]:
    return lambda state, seat: state.tiers[seat][index]


QUANTITY: dict[str, Callable[[MothershipState, int], int]] = {
    "engines": lambda state, seat: state.energy[seat][0] if _alive(state, seat) else 0,
    "weapons": lambda state, seat: state.energy[seat][1] if _alive(state, seat) else 0,
    "shields": movement.shield_energy,
    "resources": lambda state, seat: state.resources[seat],
    "hull": lambda state, seat: state.hp[seat] if _alive(state, seat) else 0,
    "station": lambda state, seat: state.station_hp[seat],
    "planets": lambda state, seat: state.owner.count(seat),
    "artifacts": exploration.count,
    "cards": lambda state, seat: len(state.hands[seat]),
    "ships": lambda state, seat: sum(1 for c in state.pos[seat] if c != NOWHERE),
    "cannons": lambda state, seat: len(state.cannons[seat]),
    "tiers": lambda state, seat: sum(state.tiers[seat]),
    **{f"{category}_tier": _tier(index) for index, category in enumerate(CATEGORIES)},
    **{name: _tally(index) for index, name in enumerate(TALLIES)},
}
"""How each of a requirement's quantities (module :mod:`..content.language`) is read for a seat, built
once (a goal is read after every action)."""


def quantity(state: MothershipState, seat: int, name: str) -> int:
    """The value of a requirement's quantity for ``seat`` (module :mod:`..content.language`)."""
    return QUANTITY[name](state, seat)


def near(state: MothershipState, seat: int, ship: int, thing: str) -> bool:
    """Whether ``seat``'s ``ship`` is on or next to ``thing`` (module :mod:`..content.language`)."""
    board = state.board
    assert board is not None
    cell = state.pos[seat][ship] if ship >= 0 else NOWHERE
    if cell == NOWHERE:
        return False
    around = (cell, *board.neighbours[cell])
    if thing in ("planet", "asteroid", "neutron_star", "black_hole"):
        mark = {"planet": PLANET, "asteroid": ASTEROID, "neutron_star": NEUTRON_STAR, "black_hole": BLACK_HOLE}[thing]
        return any(board.terrain[c] == mark for c in around)
    occupants = [state.grid[c] for c in around if state.grid[c] != EMPTY]
    if thing == "station":
        return any(o & 15 == STATION for o in occupants)
    ships = [o for o in occupants if o & 15 not in (STATION, CANNON)]  # an enemy *ship*: no cannon
    return any(not state.friendly(o >> 4, seat) for o in ships)


def meets(state: MothershipState, seat: int, ship: int, needs: list[str]) -> bool:
    """Whether ``seat`` (and its ``ship``) meets every requirement of ``needs``."""
    return all(_holds(state, seat, ship, parse_need(text)) for text in needs)


@cache
def goal(needs: tuple[str, ...]) -> Callable[[MothershipState, int], bool]:
    """Whether a seat meets every requirement of ``needs`` (none ``near``: a player's own, as an
    objective's goal), the requirements parsed once into one test (a goal is read after every
    action)."""
    tests = [(QUANTITY[n.quantity], COMPARE[n.op], n.amount) for n in map(parse_need, needs)]
    if len(tests) == 1:
        read, holds, amount = tests[0]
        return lambda state, seat: holds(read(state, seat), amount)
    if len(tests) == 2:  # most goals of two parts: no generator per reading
        (read, holds, amount), (read2, holds2, amount2) = tests
        return lambda state, seat: holds(read(state, seat), amount) and holds2(read2(state, seat), amount2)
    return lambda state, seat: all(holds(read(state, seat), amount) for read, holds, amount in tests)


def _holds(state: MothershipState, seat: int, ship: int, need: Need) -> bool:
    if need.quantity == "near":
        return near(state, seat, ship, need.op)
    return COMPARE[need.op](quantity(state, seat, need.quantity), need.amount)


# ---- a beacon card ----------------------------------------------------------------------------


def begin_beacon(state: MothershipState, seat: int, ship: int, card: int, token: int, events: list[Event]) -> None:
    """Beacon card ``card``, drawn for the token on space ``token``, is read out: a die decides
    its option, or ``seat`` chooses one."""
    model = state.game.content.beacons[card][1]
    events.append(Event("beacon", f"{model.name}: {model.story}"))
    state.script = {
        "seat": seat,
        "ship": ship,
        "source": "beacon",
        "card": card,
        "token": token,
        "option": -1,
        "effects": [],
    }
    if model.decide is not None:
        _roll(state, seat, parse_die(model.decide))
        return
    offered = open_options(state, seat, ship, card)
    choices.ask(state, seat, "option", offered, [option_words(model.options[i]) for i in offered])


def open_options(state: MothershipState, seat: int, ship: int, card: int) -> list[int]:
    """The options of beacon ``card`` open to ``seat`` and its ``ship`` (a die deciding: both)."""
    model = state.game.content.beacons[card][1]
    if model.decide is not None:
        return [0, 1]
    return [i for i, o in enumerate(model.options) if meets(state, seat, ship, o.needs)]


def option_words(option: BeaconOptionModel) -> str:
    """An option as the player is told it: its text, requirements, test and rewards."""
    parts = [option.text]
    if option.needs:
        parts.append("needs " + ", ".join(option.needs))
    if option.test:
        parts.append(f"roll {option.test}: " + (", ".join(option.effects) or "nothing"))
        parts.append("else " + (", ".join(option.otherwise) or "nothing"))
    elif option.effects:
        parts.append(", ".join(option.effects))
    return " | ".join(parts)


def _roll(state: MothershipState, seat: int, sides: int) -> None:
    state.pending = {"what": "test", "seat": seat, "ships": [], "target": -1, "dice": [sides], "rolls": []}


def _chosen(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    _take_option(state, value, events)


def _take_option(state: MothershipState, index: int, events: list[Event]) -> None:
    script = state.script
    assert script is not None
    model = _beacon(state)
    option = model.options[index]
    script["option"] = index
    state.beacon_log[script["card"]][2 + index] += 1
    events.append(Event("beacon", f"{state.player_name(script['seat'])} takes option {index + 1}: {option.text}"))
    if option.test is not None:
        _roll(state, script["seat"], parse_test(option.test).sides)
        return
    _carry_out(state, option.effects, option.outcome, events)


def rolled(state: MothershipState, events: list[Event]) -> None:
    """The die of a card is rolled: it decides the option, or the chosen option's test."""
    pending = state.pending
    script = state.script
    assert pending is not None and script is not None
    state.pending = None
    roll = pending["rolls"][0]
    model = _beacon(state)
    if script["option"] < 0:  # the die decides
        index = next(i for i, o in enumerate(model.options) if o.faces and o.faces[0] <= roll <= o.faces[1])
        _take_option(state, index, events)
        return
    option = model.options[script["option"]]
    assert option.test is not None
    test = parse_test(option.test)
    if COMPARE[test.op](roll, test.amount):
        events.append(Event("beacon", f"{roll}: it works ({option.test})."))
        _carry_out(state, option.effects, option.outcome, events)
    else:
        events.append(Event("beacon", f"{roll}: it fails ({option.test})."))
        _carry_out(state, option.otherwise, None, events)


def _beacon(state: MothershipState) -> BeaconModel:
    script = state.script
    assert script is not None
    card: int = script["card"]
    return state.game.content.beacons[card][1]


def _carry_out(state: MothershipState, effects: list[str], outcome: str | None, events: list[Event]) -> None:
    script = state.script
    assert script is not None
    if outcome:
        events.append(Event("beacon", outcome))
    script["effects"] = list(effects)
    run(state, events)


# ---- an objective's reward --------------------------------------------------------------------


def begin_reward(state: MothershipState, seat: int, card: int, events: list[Event]) -> None:
    """``seat`` claims objective ``card``: it chooses one of its two reward groups."""
    model = state.game.content.objectives[card][1]
    events.append(Event("objective", f"{state.player_name(seat)} completes the objective {model.name}: {model.text}"))
    state.script = {"seat": seat, "ship": -1, "source": "objective", "card": card, "option": -1, "effects": []}
    labels = [", ".join(group) for group in model.rewards]
    choices.ask(state, seat, "group", [0, 1], labels)


def _group(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    script = state.script
    assert script is not None
    state.objective_log[script["card"]][2 + value] += 1
    script["option"] = value
    _carry_out(state, state.game.content.objectives[script["card"]][1].rewards[value], None, events)


# ---- the effects ------------------------------------------------------------------------------


def run(state: MothershipState, events: list[Event]) -> None:
    """Do the script's effects in order until one waits for a choice or a die; finish it after the last."""
    while state.script is not None and state.choice is None and state.pending is None and state.phase == "turn":
        script = state.script
        if not script["effects"] or state.out[script["seat"]]:  # done, or its player knocked out by it
            _done(state, events)
            return
        effect = parse_effect(script["effects"].pop(0))
        carry_out = EFFECTS.get(effect.verb) or state.game.hooks.effects[effect.verb]  # ``keep``: the beacons'
        carry_out(state, script["seat"], script["ship"], effect, events)


def _done(state: MothershipState, events: list[Event]) -> None:
    script = state.script
    assert script is not None
    state.script = None
    state.game.hooks.scripted[script["source"]](state, script, events)


def _discarded(state: MothershipState, seat: int, why: str, events: list[Event]) -> None:
    events.append(Event("reward", f"{state.player_name(seat)} cannot take {why}: it is discarded."))


def _resources(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    before = state.resources[seat]
    state.resources[seat] = max(0, before + effect.amount)
    change = state.resources[seat] - before
    words = f"gains {change}" if change >= 0 else f"pays {-change}"
    events.append(Event("reward", f"{state.player_name(seat)} {words} resources."))


def _cards(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    economy.owe_cards(state, seat, effect.amount, events)


def _objectives(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    """Objective cards are owed only with hidden objectives (their module deals them); else discarded."""
    if state.game.options["objectives"] != "hidden":
        _discarded(state, seat, "objective cards (no hidden objectives in this game)", events)
        return
    state.game.hooks.effects["objectives"](state, seat, ship, effect, events)


def _repair(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    c = state.game.content
    amounts = {
        0: min(effect.amount, c.mothership_hp - state.hp[seat]) if state.pos[seat][0] != NOWHERE else 0,
        1: min(effect.amount // c.station_counter * c.station_counter, c.station_hp - state.station_hp[seat])
        if state.station_hp[seat] > 0
        else 0,
    }
    open_to = [where for where, amount in amounts.items() if amount > 0]
    if not open_to:
        _discarded(state, seat, f"a repair of {effect.amount} (nothing to repair)", events)
        return
    labels = [("the mothership", "the colony station")[w] + f" +{amounts[w]} HP" for w in open_to]
    choices.ask(state, seat, "repair", open_to, labels, amounts=[amounts[0], amounts[1]])


def _repaired(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    seat, amount = choice["seat"], choice["amounts"][value]
    if value == 0:
        state.hp[seat] += amount
        events.append(Event("reward", f"{state.player_name(seat)}'s mothership is repaired to {state.hp[seat]} HP."))
    else:
        state.station_hp[seat] += amount
        events.append(
            Event("reward", f"{state.player_name(seat)}'s colony station is repaired to {state.station_hp[seat]} HP.")
        )
    run(state, events)


def _cannon(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    spaces = cannons.spaces(state, seat)
    if not spaces:
        _discarded(state, seat, "a guardian cannon (no room beside a ship)", events)
        return
    assert state.board is not None
    choices.ask(state, seat, "cannon", spaces, [f"deploy a cannon at {state.board.name_of(c)}" for c in spaces])


def _cannon_placed(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    cannons.deploy(state, choice["seat"], value, events)
    run(state, events)


def _artifact(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    planets = exploration.explorable(state, seat)
    if not planets:
        _discarded(state, seat, "an artifact (no unexplored planet held, or no token left)", events)
        return
    labels = [f"explore the planet at {exploration.where(state, p)}" for p in planets]
    choices.ask(state, seat, "artifact", planets, labels)


def _explored(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    events.append(
        Event(
            "explore", f"{state.player_name(choice['seat'])} explores the planet at {exploration.where(state, value)}."
        )
    )
    exploration.start(state, value)
    run(state, events)


def _tech(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    category = CATEGORIES.index(effect.word)
    chosen = state.branches[seat][category]
    if chosen >= 0:
        if state.tiers[seat][category] >= tech.TOP_TIER:
            _discarded(state, seat, f"a {effect.word} tier (the branch is complete)", events)
            return
        _climb(state, seat, chosen, events)
        return
    branches = [i for i, b in enumerate(state.game.content.branches) if b.category == effect.word]
    labels = [f"climb {state.game.content.branches[b].name}" for b in branches]
    choices.ask(state, seat, "tech", branches, labels)


def _climb(state: MothershipState, seat: int, branch: int, events: list[Event]) -> None:
    tech.climb(state, seat, branch, events, cost=0)


def _branch_chosen(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    _climb(state, choice["seat"], value, events)
    run(state, events)


def _development(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    _discarded(state, seat, "a planetary development (spacetable has no developments)", events)


def _points(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    victory.award(state, seat, effect.amount, "a card", events)  # nothing outside mode victory_points


def _your_ship(state: MothershipState, seat: int, ship: int) -> bool:
    return ship >= 0 and state.pos[seat][ship] != NOWHERE


def _damage(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    if _your_ship(state, seat, ship):
        harm(state, -1, seat, ship, effect.amount, events)


def _destroy(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    if _your_ship(state, seat, ship):
        destroy_ship(state, seat, ship)
        events.append(Event("damage", f"{state.ship_name(seat, ship)} is destroyed."))
        turns.check_out(state, [seat], events)


def harm(state: MothershipState, by: int, seat: int, ship: int, amount: int, events: list[Event]) -> None:
    """``amount`` damage to ``seat``'s ``ship`` from a card (``by``: whose units did it, -1 nobody):
    a fighter or bomber is destroyed, a mothership's shields absorb first."""
    name = state.ship_name(seat, ship)
    if ship == 0:
        words = damage_mothership(state, seat, amount, hull=True)
        events.append(Event("damage", f"{name} takes {amount}: {words}."))
    else:
        destroy_ship(state, seat, ship)
        events.append(Event("damage", f"{name} takes {amount} and explodes."))
    if state.pos[seat][ship] == NOWHERE and by >= 0:
        turns.destroyed(state, by, seat, ship, events)
    turns.check_out(state, [seat], events)


def _closest(state: MothershipState, seat: int, ship: int, places: list[int]) -> list[int]:
    """The places nearest ``seat``'s ``ship`` (all of them on a tie)."""
    board = state.board
    assert board is not None
    cell = state.pos[seat][ship]
    best = min(board.distance(cell, p) for p in places)
    return [p for p in places if board.distance(cell, p) == best]


def _warp(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    if not _your_ship(state, seat, ship):
        return
    spaces: list[int] = []
    if effect.word == "anywhere":
        spaces = [c for c in range(len(state.grid)) if movement.landing(state, c)]
    else:
        places = {
            "planet": [board.planets[p] for p, o in enumerate(state.owner) if o != -2],
            "station": [state.stations[seat]] if state.station_hp[seat] > 0 else [],
            "enemy": [
                c for s in range(state.game.fleets) if not state.friendly(s, seat) for c in state.pos[s] if c != NOWHERE
            ],
        }[effect.word]
        while places and not spaces:  # the closest with room beside it
            nearest = _closest(state, seat, ship, places)
            spaces = sorted({n for p in nearest for n in board.neighbours[p] if movement.landing(state, n)})
            places = [p for p in places if p not in nearest]
    if not spaces:
        _discarded(state, seat, "the warp (no free space)", events)
        return
    labels = [f"warp {state.game.ship_names[ship]} to {board.name_of(c)}" for c in spaces]
    choices.ask(state, seat, "warp", spaces, labels, ship=ship)


def _warped(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    seat, ship = choice["seat"], choice["ship"]
    jump(state, seat, ship, value)
    events.append(Event("move", f"{state.ship_name(seat, ship)} warps to {board.name_of(value)}."))
    run(state, events)


def _strike(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    if not _your_ship(state, seat, ship):
        return
    enemies = {
        state.pos[s][u]: (s, u)
        for s in range(state.game.fleets)
        if not state.friendly(s, seat) and not state.out[s]
        for u in range(len(state.pos[s]))
        if state.pos[s][u] != NOWHERE
    }
    if not enemies:
        _discarded(state, seat, "the strike (no enemy ship)", events)
        return
    nearest = _closest(state, seat, ship, sorted(enemies))
    codes = [target_code(state, *enemies[c]) for c in nearest]
    labels = [f"strike {state.ship_name(*enemies[c])} for {effect.amount}" for c in nearest]
    choices.ask(state, seat, "strike", codes, labels, amount=effect.amount)


def _struck(state: MothershipState, choice: dict[str, Any], value: int, events: list[Event]) -> None:
    ships = state.game.content.ships
    victim, unit = divmod(value, ships + 1)
    harm(state, choice["seat"], victim, unit, choice["amount"], events)
    run(state, events)


EFFECTS: dict[str, Callable[[MothershipState, int, int, Effect, list[Event]], None]] = {
    "resources": _resources,
    "cards": _cards,
    "objectives": _objectives,
    "repair": _repair,
    "cannon": _cannon,
    "artifact": _artifact,
    "tech": _tech,
    "development": _development,
    "points": _points,
    "damage": _damage,
    "destroy": _destroy,
    "warp": _warp,
    "strike": _strike,
}
"""What each effect verb of the card language does, but those a module carries out on its own part
of the state (its ``effects`` hook: ``keep``, a beacon card kept)."""

CHOICES: dict[str, Callable[[MothershipState, dict[str, Any], int, list[Event]], None]] = {
    "option": _chosen,
    "group": _group,
    "repair": _repaired,
    "cannon": _cannon_placed,
    "artifact": _explored,
    "tech": _branch_chosen,
    "warp": _warped,
    "strike": _struck,
}
"""The choices a card asks for, and what each answer does (``rules.CHOICES`` routes them here)."""


PLUGIN = Module(
    "scripts",
    lambda game: "beacons" in game.modules or "objectives" in game.modules,
    {"rolled": {"test": rolled}, "choices": CHOICES},
)
"""The story cards' language, carried out for beacon and objective cards (either module)."""
