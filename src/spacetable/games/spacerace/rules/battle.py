"""Space battles: player vs map, player vs player and planetary assault.

The ship that moved (the attacker) meets one defender: a spaceship card drawn for
an [S] tile, or another player's ship on the space it entered. On another
player's planet the defenders orbit it: their M counts as 0 and their D double.

1. **Initiative** (the movement tables): the higher M strikes first. Equal M: the
   player against a map ship (the table's parentheses; option
   ``map_initiative = "roll"`` contests it instead), a d6 each between players,
   the higher die first.
2. **The exchange** (the combat tables): the first striker's A against the
   other's D. Higher: the other ship is beaten. Equal: standoff. Lower: the other
   ship survives and strikes back with the A and D not yet used, by the same
   table; if that strike fails too, standoff. (Option ``combat = "single"``: one
   strike decides, a lower A losing the battle.)
3. **Standoff**: the attacker flees back to the space it came from if its M is
   higher and its player wants to; otherwise a d6 each decides, the higher winning.
4. **Victory**: against a map ship, capture it; against a player, the winner
   assimilates the beaten ship or destroys it and takes its treasure cards.
   **Defeat** against a map ship destroys the ship; its card and treasure go
   back to their decks. A beaten mothership goes home to be rebuilt.

Dice contests are two chance nodes, the attacker's d6 then the defender's, whose
outcomes leave out the attacker's face: re-rolling ties until the dice differ
gives every unequal pair the same chance, and so does this (RULINGS.md 20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from spacetable.engine import Event

from ..content import Stats
from . import planets
from .ships import Ship, new_ship, with_treasure
from .state import ASSAULT, ATTACKER, DEFENDER, PVM, Battle

if TYPE_CHECKING:
    from .state import SpaceRaceState

STANDOFF = 0
"""An exchange with no winner (``exchange``, ``resolve``)."""

WAITS, MOVE_ENDS, ARRIVES, ASSAULTED = "waits", "move ends", "arrives", "assaulted"
"""What a battle step leaves to the turn (``turns.after_battle``): the battle waits for a
decision or a die; the attacker's move ends; its arrival goes on, the ships on its space beaten
(ASSAULTED: they were orbiting the planet there)."""


# ---- who fights with what ---------------------------------------------------------


def attacker_ship(state: SpaceRaceState) -> Ship:
    return state.fleets[state.turn][state.moving]


def defender_ship(state: SpaceRaceState, battle: Battle) -> Ship | None:
    """The defending player's ship (None against a map ship)."""
    return None if battle.kind == PVM else state.fleets[battle.foe][battle.foe_ship]


def fighting_scores(state: SpaceRaceState, battle: Battle) -> tuple[Stats, Stats]:
    """(attacker, defender) [D|M|A] as they fight: an orbiting defender has M 0 and double D."""
    attacker = attacker_ship(state).stats
    if battle.kind == PVM:
        return attacker, state.content.ships[battle.foe_ship]
    d, m, a = state.fleets[battle.foe][battle.foe_ship].stats
    return attacker, ((2 * d, 0, a) if battle.kind == ASSAULT else (d, m, a))


def initiative(attacker: Stats, defender: Stats) -> int:
    """ATTACKER or DEFENDER by the higher M; 0 when equal."""
    if attacker[1] == defender[1]:
        return 0
    return ATTACKER if attacker[1] > defender[1] else DEFENDER


def exchange(first: Stats, second: Stats, single: bool) -> int:
    """The combat tables: 1 if the first striker wins, 2 if the second does, STANDOFF (0) otherwise."""
    if first[2] > second[0]:
        return 1
    if first[2] == second[0]:
        return STANDOFF
    if single:
        return 2
    if second[2] > first[0]:
        return 2
    return STANDOFF


def resolve(attacker: Stats, defender: Stats, first: int, single: bool) -> int:
    """The exchange's result as ATTACKER, DEFENDER or STANDOFF, given who strikes first."""
    if first == ATTACKER:
        return exchange(attacker, defender, single)
    result = exchange(defender, attacker, single)
    return {1: DEFENDER, 2: ATTACKER}.get(result, STANDOFF)


def may_flee(attacker: Stats, defender: Stats) -> bool:
    return attacker[1] > defender[1]


class Chances(NamedTuple):
    """How a battle not yet begun ends by the tables, the initiative dice counted: the attacker
    wins, the defender wins, or a standoff (left to the attacker's choice or the dice)."""

    attacker: float
    defender: float
    standoff: float


def chances(attacker: Stats, defender: Stats, single: bool, first_on_equal_m: float) -> Chances:
    """The battle's :class:`Chances`; ``first_on_equal_m``: the chance that the attacker strikes
    first when the Ms are equal (1 for a player against a map ship, 0.5 for a d6 each, or what
    the attacker's die already rolled leaves)."""
    first = initiative(attacker, defender)
    split = ((first, 1.0),) if first else ((ATTACKER, first_on_equal_m), (DEFENDER, 1.0 - first_on_equal_m))
    won = {ATTACKER: 0.0, DEFENDER: 0.0, STANDOFF: 0.0}
    for striker, chance in split:
        won[resolve(attacker, defender, striker, single)] += chance
    return Chances(won[ATTACKER], won[DEFENDER], won[STANDOFF])


# ---- the steps --------------------------------------------------------------------


def start(state: SpaceRaceState, kind: str, foe: int, foe_ship: int, events: list[Event]) -> str:
    """Begin a battle of the moving ship against a defender and run it as far as it goes alone."""
    battle = Battle(kind, foe, foe_ship, 0, 0, 0)
    state.battle = battle
    attacker, defender = fighting_scores(state, battle)
    who = state.player_name(state.turn)
    ship = attacker_ship(state)
    if kind == PVM:
        events.append(
            Event("battle", f"{who}'s {ship.label()} meets a wild spaceship [{'|'.join(map(str, defender))}].")
        )
    else:
        enemy = defender_ship(state, battle)
        assert enemy is not None
        text = f"{who}'s {ship.label()} attacks {state.player_name(foe)}'s {enemy.label()}"
        if kind == ASSAULT:
            text += (
                f" in orbit of {state.galaxy.place(enemy.node)}: a planetary assault "
                f"(the defender fights with M 0 and D {enemy.d}x2 = {defender[0]})"
            )
        events.append(Event("battle", text + "."))
    first = initiative(attacker, defender)
    if first:
        striker = "the attacker" if first == ATTACKER else "the defender"
        events.append(Event("initiative", f"M {attacker[1]} against {defender[1]}: {striker} strikes first."))
    elif kind == PVM and state.game.options["map_initiative"] == "player":
        first = ATTACKER
        events.append(Event("initiative", f"Equal M ({attacker[1]}): the player strikes first."))
    else:
        events.append(Event("initiative", f"Equal M ({attacker[1]}): a d6 each for the first strike."))
        state.phase = "initiative"
        return WAITS
    return _fight(state, first, events)


def _fight(state: SpaceRaceState, first: int, events: list[Event]) -> str:
    """The exchange, from the first striker's strike, then its result."""
    battle = state.battle
    assert battle is not None
    battle = state.battle = battle._replace(first=first)
    attacker, defender = fighting_scores(state, battle)
    single = state.game.options["combat"] == "single"
    strikes = [("attacker", attacker, defender), ("defender", defender, attacker)]
    if first == DEFENDER:
        strikes.reverse()
    for name, striker, target in strikes:
        a, d = striker[2], target[0]
        verdict = "beats" if a > d else ("matches" if a == d else "fails against")
        events.append(Event("hit", f"The {name} strikes: A {a} {verdict} D {d}."))
        if a >= d or single:
            break  # a winner, or a standoff: no strike back
    result = resolve(attacker, defender, first, single)
    if result == STANDOFF:
        return _standoff(state, attacker, defender, events)
    return _victory(state, result, events)


def _standoff(state: SpaceRaceState, attacker: Stats, defender: Stats, events: list[Event]) -> str:
    if may_flee(attacker, defender):
        events.append(Event("standoff", "Standoff! The attacker, faster, may flee or contest with a d6 each."))
        state.phase = "standoff"
    else:
        events.append(Event("standoff", "Standoff! A d6 each decides, the higher wins."))
        state.phase = "contest"
    return WAITS


def contest(state: SpaceRaceState, events: list[Event]) -> None:
    """The attacker chose to settle a standoff with the dice."""
    events.append(Event("standoff", f"{state.player_name(state.turn)} contests: a d6 each."))
    state.phase = "contest"


def flee(state: SpaceRaceState, events: list[Event]) -> str:
    """The attacker goes back to the space it came from; the battle ends with no winner."""
    battle = state.battle
    assert battle is not None
    fleet = state.fleets[state.turn]
    ship = fleet[state.moving]
    fleet[state.moving] = ship._replace(node=state.origin)
    events.append(Event("flee", f"{ship.label()} flees back to {state.galaxy.place(state.origin)}."))
    if battle.kind == PVM:
        state.ship_deck[battle.foe_ship] += 1
    state.battle = None
    return MOVE_ENDS


def die(state: SpaceRaceState, value: int, events: list[Event]) -> str:
    """One die of a dice contest (initiative or standoff): the attacker's, then the defender's."""
    battle = state.battle
    assert battle is not None
    if not battle.roll:
        state.battle = battle._replace(roll=value)
        events.append(Event("roll", f"The attacker rolls {value}."))
        return WAITS
    winner = ATTACKER if battle.roll > value else DEFENDER
    state.battle = battle._replace(roll=0)
    name = "attacker" if winner == ATTACKER else "defender"
    events.append(Event("roll", f"The defender rolls {value}: the {name} wins the roll."))
    if state.phase == "initiative":
        return _fight(state, winner, events)
    return _victory(state, winner, events)


def _victory(state: SpaceRaceState, winner: int, events: list[Event]) -> str:
    battle = state.battle
    assert battle is not None
    seat = state.turn
    if battle.kind == PVM:
        state.battle = None
        if winner == ATTACKER:
            _capture(state, battle.foe_ship, events)
        else:
            state.ship_deck[battle.foe_ship] += 1
            events.append(Event("defeat", f"The wild spaceship destroys {state.player_name(seat)}'s ship."))
            lose_ship(state, seat, state.moving, events, to_decks=True)
            state.moving = -1
        return MOVE_ENDS
    state.battle = battle._replace(winner=winner)
    winner_seat = seat if winner == ATTACKER else battle.foe
    events.append(Event("victory", f"{state.player_name(winner_seat)} wins the battle."))
    if can_assimilate(state):
        state.phase = "reward"
        return WAITS
    return reward(state, False, events)


def can_assimilate(state: SpaceRaceState) -> bool:
    """The beaten ship is no mothership, and the winner's fleet has room for it."""
    battle = state.battle
    assert battle is not None
    if battle.winner == ATTACKER:
        winner_seat, loser = state.turn, state.fleets[battle.foe][battle.foe_ship]
    else:
        winner_seat, loser = battle.foe, state.fleets[state.turn][state.moving]
    return not loser.is_mothership and state.fleet_room(winner_seat) > 0


def reward(state: SpaceRaceState, assimilate: bool, events: list[Event]) -> str:
    """The winner of a battle between players assimilates the beaten ship, or destroys it for its treasure."""
    battle = state.battle
    assert battle is not None
    state.battle = None
    seat = state.turn
    if battle.winner == ATTACKER:
        winner_seat, winner_index, loser_seat, loser_index = seat, state.moving, battle.foe, battle.foe_ship
    else:
        winner_seat, winner_index, loser_seat, loser_index = battle.foe, battle.foe_ship, seat, state.moving
    winner_fleet = state.fleets[winner_seat]
    loser = state.fleets[loser_seat][loser_index]
    node = winner_fleet[winner_index].node
    if assimilate:
        del state.fleets[loser_seat][loser_index]
        place = node if state.occupant(node, winner_seat) < 0 else state.origin
        winner_fleet.append(loser._replace(node=place, wait=1, acted=False))
        where = "" if place == node else f", joining at {state.galaxy.place(place)}"
        events.append(Event("assimilate", f"{state.player_name(winner_seat)} assimilates {loser.label()}{where}."))
        planets.check_eliminated(state, loser_seat, events)
    else:
        ship = winner_fleet[winner_index]
        if loser.treasure:
            gained = ship.treasure + loser.treasure
            winner_fleet[winner_index] = with_treasure(
                ship, gained, state.base_scores(winner_seat, ship), state.content
            )
            taken = f", taking its {len(loser.treasure)} treasure card(s): now {winner_fleet[winner_index].label()}"
        else:
            taken = " (it carried no treasure)"
        events.append(Event("destroy", f"{state.player_name(winner_seat)} destroys {loser.label()}{taken}."))
        lose_ship(state, loser_seat, loser_index, events, to_decks=False)
    if loser_seat == seat:
        state.moving = -1
        return MOVE_ENDS
    if state.over:
        return WAITS
    return ASSAULTED if battle.kind == ASSAULT else ARRIVES


def _capture(state: SpaceRaceState, card: int, events: list[Event]) -> None:
    seat = state.turn
    node = attacker_ship(state).node
    if state.fleet_room(seat) <= 0:
        state.ship_deck[card] += 1
        events.append(Event("victory", f"{state.player_name(seat)} wins, but the fleet is full: the ship drifts away."))
        return
    name = state.next_ship_name()
    ship = new_ship(card, name, node, state.content.ships[card], (), state.content, wait=1)
    state.fleets[seat].append(ship)
    events.append(Event("capture", f"{state.player_name(seat)} wins and captures the ship, naming it {ship.label()}."))


def lose_ship(state: SpaceRaceState, seat: int, index: int, events: list[Event], to_decks: bool) -> None:
    """Remove a beaten ship. Its card (and, if ``to_decks``, its treasure) go back to the decks;
    a mothership instead goes home to be rebuilt. Checks whether the seat is eliminated."""
    ship = state.fleets[seat].pop(index)
    if to_decks:
        for card in ship.treasure:
            state.treasure_deck[card] += 1
    if ship.is_mothership:
        state.rebuilding[seat] = True
        events.append(
            Event("damage", f"{state.player_name(seat)}'s mothership is destroyed and goes home to be rebuilt.")
        )
    else:
        state.ship_deck[ship.card] += 1
        events.append(Event("damage", f"{ship.label()} is destroyed."))
    planets.check_eliminated(state, seat, events)
