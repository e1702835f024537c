"""Set-up, steps 1-6: laying the starway cards, rolling for the order, homeworlds and motherships.

1. Every starway of the map (its shape is :mod:`.mapgen`'s) gets a card drawn from
   the starway deck of the chosen density, a chance node each, in laying order.
2. Each player rolls a d6, in seat order; a roll equal to an earlier one is rolled
   again until it differs, so the chance node offers the faces not yet rolled.
   The highest roll chooses first.
3. In that order each player chooses a free planet as homeworld; the last to
   choose starts the game.
4. In the same order each player spreads the mothership's points over its
   [D|M|A] (each at least ``rules.mothership_minimum``); the mothership starts
   in orbit of the homeworld.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Event

from . import turns
from .mapgen import UNLAID
from .ships import MOTHERSHIP, new_ship

if TYPE_CHECKING:
    from .state import SpaceRaceState


def next_starway(state: SpaceRaceState) -> int:
    """The index of the first starway without a card."""
    for index, way in enumerate(state.galaxy.starways):
        if state.tiles[way.tiles[0]] == UNLAID:
            return index
    raise AssertionError("every starway is laid")


def lay_starway(state: SpaceRaceState, card: int, events: list[Event]) -> None:
    galaxy = state.galaxy
    index = next_starway(state)
    way = galaxy.starways[index]
    pattern = state.game.starway_patterns[card]
    state.starway_deck[card] -= 1
    tiles = list(state.tiles)
    for node, mark in zip(way.tiles, pattern):
        tiles[node] = mark
    state.tiles = "".join(tiles)
    events.append(
        Event("setup", f"Starway {galaxy.end_name(way.near)}–{galaxy.end_name(way.far)}: [{' '.join(pattern)}].")
    )
    if index == len(galaxy.starways) - 1:
        state.phase = "order"


def order_faces(state: SpaceRaceState) -> list[int]:
    """The faces the next player's order roll can end on (those not rolled yet)."""
    return [v for v in range(1, 7) if v not in state.rolls]


def order_roll(state: SpaceRaceState, value: int, events: list[Event]) -> None:
    seat = state.rolls.index(0)
    state.rolls[seat] = value
    events.append(Event("roll", f"{state.player_name(seat)} rolls {value} for the order of choice."))
    if 0 not in state.rolls:
        state.order = sorted(range(state.game.players), key=lambda s: -state.rolls[s])
        names = ", ".join(state.player_name(s) for s in state.order)
        events.append(Event("setup", f"Homeworlds are chosen in the order {names}; the last to choose starts."))
        state.phase = "homeworld"


def chooser(state: SpaceRaceState) -> int:
    """The seat choosing a homeworld or designing a mothership now."""
    if state.phase == "homeworld":
        return state.order[sum(1 for h in state.homeworld if h >= 0)]
    return state.order[sum(1 for d in state.designs if d is not None)]


def free_planets(state: SpaceRaceState) -> list[int]:
    return [p for p in state.galaxy.planets if p not in state.homeworld]


def choose_homeworld(state: SpaceRaceState, planet: int, events: list[Event]) -> None:
    seat = chooser(state)
    state.homeworld[seat] = planet
    state.owner[planet] = seat
    events.append(Event("homeworld", f"{state.player_name(seat)} chooses {state.galaxy.names[planet]} as homeworld."))
    if -1 not in state.homeworld:
        state.phase = "design"


def design_splits(points: int, minimum: int) -> tuple[tuple[int, int, int], ...]:
    """Every (D, M, A) summing to ``points`` with each at least ``minimum``, in lexicographic order."""
    top = points - 2 * minimum
    return tuple(
        (d, m, points - d - m) for d in range(minimum, top + 1) for m in range(minimum, points - d - minimum + 1)
    )


def design(state: SpaceRaceState, stats: tuple[int, int, int], events: list[Event]) -> None:
    seat = chooser(state)
    state.designs[seat] = stats
    home = state.homeworld[seat]
    ship = new_ship(MOTHERSHIP, state.mothership_name(seat), home, stats, (), state.content, wait=0)
    state.fleets[seat].append(ship)
    events.append(Event("design", f"{state.player_name(seat)} builds {ship.label()} at {state.galaxy.names[home]}."))
    if None not in state.designs:
        state.starter = state.order[-1]
        state.turn = state.starter
        state.round = 1
        events.append(Event("round", f"{state.player_name(state.starter)} starts. Round 1."))
        if not turns.begin_turn(state):
            turns.end_turn(state, events)
