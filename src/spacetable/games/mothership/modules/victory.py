"""Chapter 13, victory points (the option ``mode="victory_points"``).

All the other rules stay; these change:

- Points, at once, on anyone's turn, to the player whose unit did it (``content.victory``):
  destroying a fighter or bomber 1, a mothership 3, a colony station 5; capturing a planet 1,
  and losing one in any way (captured, Planet Laser Pointer) costs that 1 again. Nothing
  scores a unit lost with no player behind it (asteroids). Points never go below 0.
- The player on turn who has the target (10) wins, with their team: at once when it is
  reached on their own turn, else at the start of their next turn if they still have it.
- Nobody is knocked out. A destroyed ship comes back at the end of its owner's next turn
  (a ship lost on its owner's own turn, the turn after) on the free space beside the colony
  station nearest the board's centre; a mothership with ``respawn_hp`` hull points. A player
  whose station is destroyed stays in with their ships and planets, and no ship of theirs
  comes back any more.
- At the round limit, the most points win (ties share).

Everything here is plain data on the state: ``points`` per fleet and ``respawns``, the ships
waiting to come back as ``[seat, ship, due]`` (``due`` 1 once the owner's next turn has begun).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacetable.engine import Action, Event, Statistic

from ..rules import turns
from ..rules.board import EMPTY as OPEN
from ..rules.hooks import Module
from ..rules.state import EMPTY, NOWHERE, STATION
from ..rules.targets import BOMBER, CANNON_TARGET, CANNON_UNIT, COLONY, FIGHTER, MOTHERSHIP

if TYPE_CHECKING:
    from ..rules.state import MothershipState

MODE = "victory_points"
REASON = "victory points"
"""The start of the reason of a game won by reaching the target."""
SHIP_EFFECTS = frozenset({"boost", "deflect", "frozen", "rope", "jumped"})
"""Lasting effects that belong to one ship (``effects`` rows whose ``ship`` is a ship number):
a ship that comes back has none of them."""
POINT = 3.0
"""Worth of a victory point in the greedy evaluation's units: a fighter's (heuristic.SHIP_WORTH)."""
CLAIM = 25.0
"""Extra worth of holding the target before one's own turn: the win is one turn away."""


def active(state: MothershipState) -> bool:
    return state.game.mode == MODE


# ---- points ------------------------------------------------------------------------------------


def award(state: MothershipState, seat: int, amount: int, why: str, events: list[Event]) -> None:
    """``seat`` gains (or, negative, loses) ``amount`` points for ``why``; never below 0. Nobody
    (``seat`` -1) and the solo challenge's NPC score nothing."""
    if not active(state) or seat < 0 or seat == state.game.npc or not amount:
        return
    before = state.points[seat]
    state.points[seat] = max(0, before + amount)
    change = state.points[seat] - before
    if amount > 0:
        words = f"scores {change} victory point{'s' if change != 1 else ''} for {why}"
    else:
        words = f"loses {-change} victory point{'s' if change != -1 else ''} for {why}"
    events.append(Event("points", f"{state.player_name(seat)} {words} (now {state.points[seat]})."))


def value(state: MothershipState, kind: str) -> int:
    """Points for destroying a unit of ``kind`` (a kind of module targets)."""
    v = state.game.content.victory
    return {
        FIGHTER: v.fighter,
        BOMBER: v.bomber,
        MOTHERSHIP: v.mothership,
        COLONY: v.station,
        CANNON_TARGET: v.fighter,
    }[kind]


def destroyed(state: MothershipState, by: int, seat: int, unit: int, events: list[Event]) -> None:
    """``by``'s units destroyed ``seat``'s ``unit`` (a ship number, or STATION for the colony
    station): its points (called from ``turns.destroyed``, beside the loot)."""
    if not active(state):
        return
    if unit == STATION:
        kind, name = COLONY, f"{state.player_name(seat)}'s colony station"
    elif unit == CANNON_UNIT:
        kind, name = CANNON_TARGET, f"{state.player_name(seat)}'s guardian cannon"
    else:
        kind, name = state.game.ship_kinds[unit], state.ship_name(seat, unit)
    award(state, by, value(state, kind), f"destroying {name}", events)


def changed_hands(state: MothershipState, planet: int, previous: int, owner: int, events: list[Event]) -> None:
    """Planet ``planet`` passed from ``previous`` to ``owner`` (:func:`..rules.turns.change_owner`): the
    new owner gains the planet's point, the old loses it."""
    if previous == owner:
        return
    board = state.board
    assert board is not None
    where = f"the planet at {board.name_of(board.planets[planet])}"
    points = state.game.content.victory.planet
    award(state, previous, -points, f"losing {where}", events)
    award(state, owner, points, f"capturing {where}", events)


# ---- winning -------------------------------------------------------------------------------------


def winners(state: MothershipState) -> list[int]:
    """The seats that win now: the player on turn, if they hold the target, and their team; else []."""
    if not active(state) or state.phase != "turn":
        return []
    seat = state.turn
    if state.points[seat] < state.game.victory_target:
        return []
    return [s for s in range(state.game.players) if state.friendly(s, seat)]


def leaders(state: MothershipState) -> list[int]:
    """At the round limit: the players with the most points, and their teams (ties share)."""
    seats = range(state.game.players)
    best = max(state.points[s] for s in seats)
    top = [s for s in seats if state.points[s] == best]
    return [s for s in seats if any(state.friendly(s, t) for t in top)]


# ---- respawning ---------------------------------------------------------------------------------


def wait(state: MothershipState, seat: int, ship: int) -> None:
    """``seat``'s ``ship`` was destroyed: it waits to come back, unless the station is gone."""
    if not active(state) or state.station_hp[seat] <= 0 or state.stations[seat] == NOWHERE:
        return
    kept = [r for r in state.respawns if r[0] != seat or r[1] != ship]
    state.respawns = sorted([*kept, [seat, ship, 0]])


def begin(state: MothershipState, seat: int) -> None:
    """``seat``'s turn begins: its waiting ships come back at the end of it."""
    for entry in state.respawns:
        if entry[0] == seat:
            entry[2] = 1


def respawn(state: MothershipState, seat: int, events: list[Event]) -> None:
    """The end of ``seat``'s turn: its ships due come back beside the colony station, nearest the
    board's centre first, in ship order; one with no free space left waits another turn."""
    if not state.respawns:
        return
    waiting = []
    for entry in state.respawns:
        owner, ship, due = entry
        if state.pos[owner][ship] != NOWHERE:
            continue  # back already (the Hangar Bay launched it)
        spaces = free_spaces(state, owner) if owner == seat and due else []
        if not spaces:
            waiting.append(entry)
            if owner == seat and due:
                events.append(Event("respawn", f"{state.ship_name(owner, ship)} finds no free space to return to."))
            continue
        place(state, owner, ship, spaces[0], events)
    state.respawns = waiting


def place(state: MothershipState, seat: int, ship: int, cell: int, events: list[Event]) -> None:
    """``ship`` comes back on ``cell``, clean: no asteroid field won, no lasting effect; a
    mothership with ``respawn_hp`` hull points (its shields regenerate with everyone's)."""
    board = state.board
    assert board is not None
    state.pos[seat][ship] = cell
    state.grid[cell] = seat * 16 + ship
    state.cleared[seat][ship] = -1
    state.effects = [e for e in state.effects if not (e[0] in SHIP_EFFECTS and e[1] == seat and e[2] == ship)]
    hull = ""
    if ship == 0:
        state.hp[seat] = state.game.content.victory.respawn_hp
        hull = f" with {state.hp[seat]} hull points"
    events.append(Event("respawn", f"{state.ship_name(seat, ship)} returns at {board.name_of(cell)}{hull}."))


def free_spaces(state: MothershipState, seat: int) -> list[int]:
    """The free empty spaces (no asteroid, no planet) beside ``seat``'s colony station, in the
    standard formation's order (nearest the board's centre first)."""
    board = state.board
    assert board is not None
    station = state.stations[seat]
    if station == NOWHERE or state.station_hp[seat] <= 0:
        return []
    free = [n for n in board.neighbours[station] if board.terrain[n] == OPEN and state.grid[n] == EMPTY]
    return sorted(free, key=lambda cell: board.formation_key(station, cell))


def wreck(state: MothershipState, seats: list[int], events: list[Event]) -> None:
    """In place of knocking players out: a colony station destroyed leaves the board, and its
    player stays in, with their ships and planets, but no ship of theirs comes back any more."""
    for seat in seats:
        station = state.stations[seat]
        if state.station_hp[seat] > 0 or station == NOWHERE or state.grid[station] != seat * 16 + STATION:
            continue
        state.grid[station] = EMPTY
        lost = [r for r in state.respawns if r[0] == seat]
        state.respawns = [r for r in state.respawns if r[0] != seat]
        never = f"; {', '.join(state.game.ship_names[r[1]] for r in lost)} will never return" if lost else ""
        events.append(
            Event(
                "out",
                f"{state.player_name(seat)}'s colony station is destroyed: they play on, but their ships "
                f"no longer return{never}.",
            )
        )


# ---- for bots, terminals and reports -----------------------------------------------------------


def worth(state: MothershipState, seat: int) -> float:
    """The worth of ``seat``'s points in the greedy evaluation's units (module heuristic): a point
    is worth a fighter (``POINT``) at first and more as the target nears (the last one three
    fighters), and holding the target before one's own turn adds ``CLAIM``. 0 outside the mode."""
    if not active(state):
        return 0.0
    target = state.game.victory_target
    points = min(state.points[seat], target)
    total = POINT * points * (1 + points / target)
    if state.points[seat] >= target:
        total += CLAIM
    return total


def describe(state: MothershipState) -> list[str]:
    """Lines for the terminal: the points, and the ships waiting to come back ([] outside the mode)."""
    if not active(state):
        return []
    players = range(state.game.players)
    scores = ", ".join(f"{state.player_name(s)} {state.points[s]}" for s in players)
    lines = [f"Points: {scores} (target {state.game.victory_target})"]
    if state.respawns:
        ships = ", ".join(
            state.ship_name(seat, ship) + (" (this turn)" if due and seat == state.turn else "")
            for seat, ship, due in state.respawns
        )
        lines.append(f"Waiting to return: {ships}")
    wrecked = [state.player_name(s) for s in players if state.station_hp[s] <= 0 and state.stations[s] != NOWHERE]
    if wrecked:
        lines.append(f"No more returns (colony station destroyed): {', '.join(wrecked)}")
    return lines


def statistics(state: MothershipState) -> dict[str, Statistic]:
    """For designers' reports (mode victory_points), headline figures: the winners' points,
    everyone's points, and how many games ended on points rather than at the round limit."""
    if not active(state):
        return {}
    players = state.game.players
    winners = state.winners
    return {
        "victory points of a winner": Statistic(sum(state.points[s] for s in winners), len(winners), headline=True),
        "victory points per player": Statistic(sum(state.points[:players]), players, headline=True),
        "games won on victory points": Statistic(
            float(state.reason.startswith(REASON)), 1, percent=True, headline=True
        ),
    }


# ---- the rule hooks ---------------------------------------------------------------------------


def claim(state: MothershipState, events: list[Event]) -> None:
    """After every action: the player on turn holding the target wins, with their team, so at
    once on their own turn and at the start of it for points won before."""
    found = winners(state)
    if not found:
        return
    seat = state.turn
    turns.finish(state, found, f"{REASON}: {state.player_name(seat)} reaches {state.points[seat]}")
    names = ", ".join(state.player_name(s) for s in found)
    has = f"{state.player_name(seat)} has {state.points[seat]} victory points"
    events.append(Event("game_over", f"{has}: {names} {'wins' if len(found) == 1 else 'win'}."))


def _at_the_limit(state: MothershipState) -> tuple[list[int], str]:
    return leaders(state), "the round limit: the most victory points win"


def _check_out(state: MothershipState, seats: list[int], events: list[Event]) -> bool:
    """Nobody is knocked out: a destroyed station leaves the board (:func:`wreck`)."""
    wreck(state, seats, events)
    return True


def quiet(state: MothershipState, seat: int) -> Callable[[Action], bool] | None:
    """The quick values' question (hook ``quiet``): a claim reads the points alone, which no
    quick-valued action changes, so none sets one off unless one is due now."""
    return None if winners(state) else lambda action: True


PLUGIN = Module(
    "victory",
    lambda game: game.mode == MODE,
    {
        "turn_start": begin,
        "turn_end": respawn,
        "ship_destroyed": wait,
        "unit_destroyed": destroyed,
        "planet_changed_hands": changed_hands,
        "check_out": _check_out,
        "limit_winners": _at_the_limit,
        "after_action": claim,
        "quiet": quiet,
    },
    fields=("respawns",),
)
"""Chapter 13 (option ``mode="victory_points"``)."""
