"""Turns and movement: rebuilding the mothership, moving ships along the starways, arriving.

A turn: the player's ships waiting at the nexus count down; a destroyed
mothership gets its rebuild roll (d6 + planets controlled, rebuilt at 6 or more);
then the player moves one ship (option ``fleet_moves = "all"``: each ship once) or
ends the turn. A ship moves up to its M steps along the map; it must stop on
entering the nexus (where it then waits ``nexus_delay`` turns) or a space held by
another player's ships (a battle). On arrival: a battle against the ships there,
then the space's effect: [T] draws a treasure card, [S] a spaceship to fight, an
unheld planet is taken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Event

from . import battle, planets
from .mapgen import NEXUS
from .ships import MOTHERSHIP, new_ship
from .state import ASSAULT, PVM, PVP

if TYPE_CHECKING:
    from .state import SpaceRaceState


BATCH_ROUNDS = 40
"""The turn limit of bots' batches and research (``SpaceRace.finite_options``); the rulebook's
race has none."""


# ---- where a ship can go ------------------------------------------------------------


def movable(state: SpaceRaceState, seat: int) -> list[int]:
    """The fleet places of ``seat``'s ships that may move now."""
    return [i for i, ship in enumerate(state.fleets[seat]) if not ship.wait and not ship.acted and ship.m]


def reachable(state: SpaceRaceState, start: int, steps: int, stops: set[int]) -> list[int]:
    """Nodes within ``steps`` of ``start``, sorted, passing neither the nexus nor a node in ``stops``."""
    adjacency = state.galaxy.adjacency
    seen = {start}
    frontier = [start]
    for _ in range(steps):
        onward = []
        for node in frontier:
            for other in adjacency[node]:
                if other not in seen:
                    seen.add(other)
                    if other != NEXUS and other not in stops:
                        onward.append(other)
        if not onward:
            break
        frontier = onward
    seen.discard(start)
    return sorted(seen)


def enemy_nodes(state: SpaceRaceState, seat: int) -> set[int]:
    """Spaces where other players' ships are."""
    return {ship.node for other, fleet in enumerate(state.fleets) if other != seat for ship in fleet}


# ---- the turn ------------------------------------------------------------------------


def begin_turn(state: SpaceRaceState) -> bool:
    """Start ``state.turn``'s turn; False if that player has nothing to do."""
    seat = state.turn
    fleet = state.fleets[seat]
    for i, ship in enumerate(fleet):
        if ship.wait:
            fleet[i] = ship._replace(wait=ship.wait - 1)
    if state.rebuilding[seat] and planets.planet_count(state, seat):
        state.phase = "rebuild"
        return True
    if movable(state, seat):
        state.phase = "move"
        return True
    return False


def end_turn(state: SpaceRaceState, events: list[Event]) -> None:
    """Pass the turn on (skipping eliminated players and players with nothing to do)."""
    players = state.game.players
    limit = state.game.options["turn_limit"]
    while True:
        fleet = state.fleets[state.turn]
        for i, ship in enumerate(fleet):
            if ship.acted:
                fleet[i] = ship._replace(acted=False)
        seat = state.turn
        while True:
            seat = (seat + 1) % players
            if seat == state.starter:
                state.round += 1
                if limit is not None and state.round > limit:  # the house rule's end
                    planets.finish_on_score(state, events)
                    return
                events.append(Event("round", f"Round {state.round}" + (f" of {limit}." if limit else ".")))
            if not state.out[seat]:
                break
        state.turn = seat
        if begin_turn(state):
            return


def rebuild_roll(state: SpaceRaceState, value: int, events: list[Event]) -> None:
    """A destroyed mothership's rebuild roll: d6 + planets controlled, rebuilt at ``rebuild_target``."""
    seat = state.turn
    held = planets.planet_count(state, seat)
    total = value + held
    target = state.content.rebuild_target
    who = state.player_name(seat)
    if total < target:
        events.append(
            Event("rebuild", f"{who} rolls {value} + {held} planet(s) = {total}: the mothership is not rebuilt.")
        )
    else:
        home = rebuild_site(state, seat)
        design = state.designs[seat]
        assert design is not None
        ship = new_ship(MOTHERSHIP, state.mothership_name(seat), home, design, (), state.content, wait=1)
        state.fleets[seat].insert(0, ship)
        state.rebuilding[seat] = False
        events.append(
            Event(
                "rebuild",
                f"{who} rolls {value} + {held} planet(s) = {total}: {ship.label()} is rebuilt at "
                f"{state.galaxy.place(home)} and may move next turn.",
            )
        )
    if movable(state, seat):
        state.phase = "move"
    else:
        end_turn(state, events)


def rebuild_site(state: SpaceRaceState, seat: int) -> int:
    """The homeworld if still held, else the held planet nearest to it (lowest node on ties)."""
    home = state.homeworld[seat]
    held = [p for p in state.galaxy.planets if state.owner[p] == seat]
    return min(held, key=lambda p: (state.galaxy.distance[home][p], p))


# ---- a move ---------------------------------------------------------------------------


def move(state: SpaceRaceState, index: int, to: int, events: list[Event]) -> None:
    seat = state.turn
    fleet = state.fleets[seat]
    ship = fleet[index]
    fleet[index] = ship._replace(node=to, acted=True)
    state.moving = index
    state.origin = ship.node
    place = state.galaxy.place
    events.append(
        Event("move", f"{state.player_name(seat)}'s {ship.label()} moves from {place(ship.node)} to {place(to)}.")
    )
    arrive(state, events, assaulted=False)


def arrive(state: SpaceRaceState, events: list[Event], assaulted: bool) -> None:
    """The moving ship is on its new space: fight the ships there one by one, then the space's effect.

    ``assaulted``: the ships just beaten were orbiting this planet (for ``conquest_roll``).
    """
    seat = state.turn
    fleet = state.fleets[seat]
    ship = fleet[state.moving]
    node = ship.node
    foe = state.occupant(node, seat)
    if foe >= 0:
        kind = ASSAULT if state.owner[node] == foe else PVP
        doubled = 2 if kind == ASSAULT else 1
        foes = state.fleets[foe]
        strongest = max(
            (i for i, s in enumerate(foes) if s.node == node), key=lambda i: (doubled * foes[i].d, foes[i].a, -i)
        )
        after_battle(state, battle.start(state, kind, foe, strongest, events), events)
        return
    mark = state.tiles[node]
    cleared = state.game.options["encounters"] == "cleared"
    if node == NEXUS:
        fleet[state.moving] = ship._replace(wait=state.game.options["nexus_delay"] + 1)
        delay = state.game.options["nexus_delay"]
        events.append(Event("nexus", f"{ship.name} stops at the Nexus for customs: it waits {delay} turn(s)."))
        end_move(state, events)
    elif mark == "T":
        if cleared:
            state.clear_tile(node)
        if planets.start_draws(state, 1, events):
            end_move(state, events)
    elif mark == "S":
        if cleared:
            state.clear_tile(node)
        if any(state.ship_deck):
            state.phase = "encounter"
        else:
            events.append(Event("encounter", "An [S] tile, but the spaceship deck is empty: nothing happens."))
            end_move(state, events)
    elif state.galaxy.names[node] and state.owner[node] != seat:
        if planets.take(state, node, assaulted, events):
            end_move(state, events)
    else:
        end_move(state, events)


def encounter(state: SpaceRaceState, card: int, events: list[Event]) -> None:
    """The spaceship card drawn for an [S] tile: a battle against it."""
    state.ship_deck[card] -= 1
    after_battle(state, battle.start(state, PVM, -1, card, events), events)


def after_battle(state: SpaceRaceState, after: str, events: list[Event]) -> None:
    """Carry on from what a battle step left (``battle.WAITS`` and the rest): the move ends or the
    arrival goes on; a battle never calls back into the turn."""
    if after == battle.MOVE_ENDS:
        end_move(state, events)
    elif after != battle.WAITS:
        arrive(state, events, assaulted=after == battle.ASSAULTED)


def end_move(state: SpaceRaceState, events: list[Event]) -> None:
    """The move is over: the turn goes on (``fleet_moves = "all"``) or passes."""
    state.moving = -1
    state.origin = -1
    if state.over:
        return
    seat = state.turn
    if not state.out[seat] and state.game.options["fleet_moves"] == "all" and movable(state, seat):
        state.phase = "move"
    else:
        end_turn(state, events)
