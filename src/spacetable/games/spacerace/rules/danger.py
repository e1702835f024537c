"""Warnings before a losing move (RULINGS.md 38): a move that loses the player's mothership, or
their last ship while they hold no planet, with at least ``state.warning_chance``.

Three ways, each counted from what every seat sees (nothing in SpaceRace is hidden) and the dice:

* a move into battles the ship loses: the ships on the space it enters, strongest first, then
  the wild spaceship of an [S] tile, drawn from the cards left in the deck. A standoff the ship
  may flee from costs nothing (the player may flee); one it may not goes to the dice (a half);
* a move that stops at the Nexus, where customs hold the ship for ``nexus_delay`` turns: every
  rival ship that can fly there before it may leave is taken to attack it, strongest defender
  of the space first, and to settle any standoff with the dice;
* contesting a standoff: a die each, a half.

The ship's scores are taken as they are now (treasure it may find or take on the way is not
guessed at), and a rival's flight as the steps of the map at its M a turn, the Nexus's customs
counted where it passes there (ships in its way are not counted).
"""

from __future__ import annotations

from collections.abc import Iterator
from math import prod
from typing import TYPE_CHECKING

from spacetable.engine import Action
from spacetable.engine.words import count

from ..content import Stats, listed
from .actions import Contest, Move
from .battle import attacker_ship, chances, fighting_scores, may_flee
from .mapgen import NEXUS
from .planets import planet_count
from .ships import Ship
from .state import ASSAULT, PVM

if TYPE_CHECKING:
    from .state import SpaceRaceState

NAMED = 2
"""Rival ships a warning names; the others are counted."""


def warning(state: SpaceRaceState, action: Action) -> str | None:
    """Why ``action`` (legal for the seat to act) loses the player's mothership, or their last
    ship while they hold no planet, with at least ``state.warning_chance``; None otherwise."""
    if isinstance(action, Move) and state.phase == "move":
        return _move_warning(state, action)
    if isinstance(action, Contest) and state.phase == "standoff":
        return _contest_warning(state)
    return None


def _stake(state: SpaceRaceState, seat: int, ship: Ship) -> str | None:
    """What losing ``ship`` costs its player, in words, where it is a loss this module warns of."""
    no_planet = planet_count(state, seat) == 0
    if len(state.fleets[seat]) == 1 and no_planet:
        last = "your mothership" if ship.is_mothership else "your last ship"
        return f"{last}, and with no planet held you would be out of the game"
    if ship.is_mothership:
        later = "cannot be rebuilt while you hold no planet" if no_planet else "would go home to be rebuilt"
        return f"your mothership, which {later}"
    return None


def _percent(chance: float) -> str:
    """A chance in whole per cent."""
    return f"{round(100 * chance)}%"


# ---- a move ---------------------------------------------------------------------------------


def _move_warning(state: SpaceRaceState, move: Move) -> str | None:
    seat = state.turn
    ship = state.fleets[seat][move.ship]
    stake = _stake(state, seat, ship)
    if stake is None:
        return None
    lost_now = _arrival_loss(state, seat, ship.stats, move.to)
    held = _customs_threat(state, seat, ship, move.to) if move.to == NEXUS else None
    lost_later = held[0] if held else 0.0
    lost = lost_now + (1.0 - lost_now) * lost_later
    if lost < state.warning_chance:
        return None
    if held is None or lost_now >= state.warning_chance:
        return f"{ship.label()} loses {_fights(state, seat, move.to)} {_percent(lost_now)} of the time: it is {stake}."
    _, rivals = held
    delay = state.game.options["nexus_delay"]
    bare = _bare_planets(state, seat, move)
    return (
        f"{ship.label()} would sit out {count(delay, 'turn')} of customs at the Nexus, where "
        f"{listed(rivals)} can reach it first: if attacked, it is lost {_percent(lost)} of the time. "
        f"It is {stake}" + (f"; and with {listed(bare)} left unguarded you could be out of the game." if bare else ".")
    )


def _bare_planets(state: SpaceRaceState, seat: int, move: Move) -> list[str]:
    """The planets of a player whose only ship ``move`` sends to customs, when rival ships can
    take every one of them before it may leave (none otherwise)."""
    if len(state.fleets[seat]) != 1:
        return []
    held = [p for p in state.galaxy.planets if state.owner[p] == seat]
    turns = _customs_turns(state)
    if all(any(_rivals_within(state, seat, p, turns)) for p in held):
        return [state.galaxy.names[p] for p in held]
    return []


def _fights(state: SpaceRaceState, seat: int, node: int) -> str:
    """The battles that a ship entering ``node`` fights, in words."""
    foe = state.occupant(node, seat)
    wild = "a wild spaceship drawn from the deck"
    if foe < 0:
        return f"the fight against {wild}"
    whose = state.player_name(foe)
    battle = (
        f"the planetary assault on {whose}'s {state.galaxy.names[node]}"
        if state.owner[node] == foe
        else f"the battle against {whose}'s ships at {state.galaxy.place(node)}"
    )
    return battle + (f", then {wild}," if state.tiles[node] == "S" else "")


def _arrival_loss(state: SpaceRaceState, seat: int, stats: Stats, node: int) -> float:
    """The chance that a ship with ``stats`` entering ``node`` is beaten there: by the ships of
    the player there, one after the other (it flees a standoff where it may), then by a wild
    spaceship if the space is an [S] tile."""
    single = state.game.options["combat"] == "single"
    foe = state.occupant(node, seat)
    defenders: list[Stats] = []
    if foe >= 0:
        doubled = state.owner[node] == foe
        defenders = [(2 * s.d, 0, s.a) if doubled else s.stats for s in _defenders(state.fleets[foe], node, doubled)]
    reach, lost = 1.0, 0.0
    for defender in defenders:
        ends = chances(stats, defender, single, 0.5)
        dice = 0.0 if may_flee(stats, defender) else 0.5 * ends.standoff
        lost += reach * (ends.defender + dice)
        reach *= ends.attacker + dice
    if state.tiles[node] == "S" and any(state.ship_deck):
        lost += reach * _wild_loss(state, stats)
    return lost


def _wild_loss(state: SpaceRaceState, stats: Stats) -> float:
    """The chance that a wild spaceship drawn from the cards left beats a ship with ``stats``."""
    single = state.game.options["combat"] == "single"
    first = 1.0 if state.game.options["map_initiative"] == "player" else 0.5
    total = sum(state.ship_deck)
    lost = 0.0
    for card, copies in enumerate(state.ship_deck):
        if copies:
            wild = state.content.ships[card]
            ends = chances(stats, wild, single, first)
            dice = 0.0 if may_flee(stats, wild) else 0.5 * ends.standoff
            lost += copies / total * (ends.defender + dice)
    return lost


def _defenders(fleet: list[Ship], node: int, doubled: bool) -> list[Ship]:
    """The ships of ``fleet`` on ``node`` in the order they meet an attacker: the highest D as
    they fight first, then A (as ``turns.arrive`` chooses them)."""
    here = [(i, s) for i, s in enumerate(fleet) if s.node == node]
    here.sort(key=lambda item: (-(2 if doubled else 1) * item[1].d, -item[1].a, item[0]))
    return [s for _, s in here]


def _customs_turns(state: SpaceRaceState) -> int:
    """Each rival's turns before a ship stopping at the Nexus now may leave (it waits
    ``nexus_delay`` of its owner's turns; 0: no customs)."""
    delay: int = state.game.options["nexus_delay"]
    return delay + 1 if delay else 0


def _rivals_within(state: SpaceRaceState, seat: int, node: int, turns: int) -> Iterator[tuple[int, Ship]]:
    """Every rival ship (with its seat) that can fly to ``node`` in its next ``turns`` turns, at
    its M a turn, once it may move (ships on ``node`` are left out)."""
    delay = state.game.options["nexus_delay"]
    for rival, fleet in enumerate(state.fleets):
        if rival == seat or state.out[rival]:
            continue
        for ship in fleet:
            if ship.m and ship.node != node:
                moves = turns - max(1, ship.wait) + 1
                if state.galaxy.travel_turns(ship.node, node, ship.m, delay) <= moves:
                    yield rival, ship


def _customs_threat(state: SpaceRaceState, seat: int, ship: Ship, node: int) -> tuple[float, list[str]] | None:
    """For ``ship`` stopping at the Nexus (``node``) to wait in customs: the chance it is lost if
    every rival ship that can fly there before it may leave attacks it, and those ships' names;
    None with no customs, or nobody able to come."""
    turns = _customs_turns(state)
    single = state.game.options["combat"] == "single"
    moved = ship._replace(node=node)
    guards = _defenders([*(s for s in state.fleets[seat] if s.node == node), moved], node, doubled=False)
    ahead = guards[: guards.index(moved) + 1]
    safe = 1.0
    threats: list[tuple[float, str]] = []
    for rival, attacker in _rivals_within(state, seat, node, turns) if turns else ():
        wins = prod(_attack_wins(attacker.stats, guard.stats, single) for guard in ahead)
        if wins > 0:
            safe *= 1.0 - wins
            threats.append((wins, f"{state.player_name(rival)}'s {attacker.label()}"))
    if not threats:
        return None
    threats.sort(key=lambda threat: -threat[0])
    names = [name for _, name in threats[:NAMED]]
    if len(threats) > NAMED:
        names.append(count(len(threats) - NAMED, "other ship"))
    return 1.0 - safe, names


def _attack_wins(attacker: Stats, defender: Stats, single: bool) -> float:
    """The chance that a rival attacking a ship in open space wins, a standoff going to the dice."""
    ends = chances(attacker, defender, single, 0.5)
    return ends.attacker + 0.5 * ends.standoff


# ---- a standoff -------------------------------------------------------------------------------


def _contest_warning(state: SpaceRaceState) -> str | None:
    battle = state.battle
    assert battle is not None
    seat = state.turn
    ship = attacker_ship(state)
    stake = _stake(state, seat, ship)
    if stake is None or state.warning_chance > 0.5:
        return None
    attacker, defender = fighting_scores(state, battle)
    foe = "the wild spaceship" if battle.kind == PVM else "the defender"
    kind = " (a planetary assault)" if battle.kind == ASSAULT else ""
    return (
        f"A die each against {foe}{kind} loses {ship.label()} half the time: it is {stake}. "
        f"Fleeing keeps it (its M {attacker[1]} beats {defender[1]})."
    )
