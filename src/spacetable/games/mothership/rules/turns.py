"""Chapters 6 (resources) and 11 (the end of the game), and the turn's frame.

- A turn starts with every ship of the player free to move and attack, and the
  control panel unlocked.
- Collecting resources ends the turn: one for the colony station, one for each
  planet held. Then every mothership's shields regenerate (at the end of any turn),
  the other players may buy and sell in turn order (a window that asks only those who
  can), and the next player still in, clockwise, begins.
- Loot comes at once, on anyone's turn: 1 for a fighter or bomber, 3 for a
  mothership or colony station, to the player whose ship destroyed it.
- A player is out when the colony station is destroyed (every ship of theirs
  explodes) or when no ship is left (the station is taken off the board). Their
  planets turn neutral. The last player (or team) in wins; at the round limit (a house
  rule, option ``round_limit``; none by default) the players still in share a draw.
- Mode victory_points (chapter 13, module ``victory``) changes the end: nobody is out,
  destroyed ships come back at the end of their owner's next turn, the player on turn
  holding the target wins, and at the round limit the most points win.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Event

from ..content.language import TALLIES
from . import economy, tech
from .movement import powerless
from .state import EMPTY, NOWHERE, STATION
from .targets import BOMBER, CANNON_TARGET, CANNON_UNIT, COLONY, FIGHTER, MOTHERSHIP

if TYPE_CHECKING:
    from .state import MothershipState


ROUND_LIMIT = 60
"""The round limit of bots' batches and research (``Mothership.finite_options``); the rulebook
has none, and people play without one."""


def begin_turn(state: MothershipState, seat: int) -> None:
    state.turn = seat
    state.used = [0] * len(state.used)
    state.attacked = 0
    state.locked = False
    state.activated = 0
    state.expire("begin", seat)
    state.escort = escorts(state, seat)
    state.stuck = 0
    for begin in state.game.hooks.turn_start:  # black holes hold ships; victory points bring some back
        begin(state, seat)


def escorts(state: MothershipState, seat: int) -> int:
    """Bit mask of the fighters and bombers next to the seat's mothership (for Convoy)."""
    board = state.board
    mothership = state.pos[seat][0]
    if board is None or mothership == NOWHERE:
        return 0
    near = set(board.neighbours[mothership])
    return sum(1 << s for s, cell in enumerate(state.pos[seat]) if s and cell in near)


def regenerate_shields(state: MothershipState) -> None:
    table = state.game.content.shields
    state.shield = [
        0 if powerless(state, s) else table[e[2]] + tech.bonus(state, s, "shields") for s, e in enumerate(state.energy)
    ]


def income(state: MothershipState, seat: int) -> int:
    """Resources at the end of the turn: nothing while a Trade Blockade lasts, never any for the NPC."""
    if seat == state.game.npc or any(e[0] == "blockade" for e in state.effects):
        return 0
    c = state.game.content
    bonus, planets = 0, sum(1 for o in state.owner if o == seat)
    for change in state.game.hooks.income:
        extra, planets = change(state, seat, planets)
        bonus += extra
    station = c.station_income if state.station_hp[seat] > 0 else 0
    return station + c.planet_income * planets + bonus + tech.bonus(state, seat, "income")


def end_turn(state: MothershipState, events: list[Event]) -> None:
    """Collect resources (which ends the turn), regenerate shields, pass to the next player.
    A ship still stuck in a black hole is rolled against first; the turn ends after that."""
    if any(hold(state, events) for hold in state.game.hooks.turn_ending):
        return
    seat = state.turn
    gained = income(state, seat)
    state.resources[seat] += gained
    events.append(Event("income", f"{state.player_name(seat)} collects {gained} resources.", (seat,)))
    events.append(Event("income", f"{state.player_name(seat)} collects resources and ends the turn."))
    pass_turn(state, events)


def pass_turn(state: MothershipState, events: list[Event]) -> None:
    """The end of any turn (also one cut short by the player's own elimination): shields
    regenerate, then every other player who can buy or sell may, in turn order, before the
    next turn begins. Effects that last until the end of this player's turn go."""
    state.expire("end", state.turn)
    for end in state.game.hooks.turn_end:
        end(state, state.turn, events)
    regenerate_shields(state)
    n = state.game.fleets
    others = [(state.turn + step) % n for step in range(1, n)]
    state.trading = [s for s in others if not state.out[s] and economy.trade_options(state, s)]
    if not state.trading:
        next_turn(state, events)


def done_trading(state: MothershipState, events: list[Event]) -> None:
    """The first seat of the end-of-turn window passes; the next turn begins after the last."""
    state.trading.pop(0)
    if not state.trading:
        next_turn(state, events)


def next_turn(state: MothershipState, events: list[Event]) -> None:
    n = state.game.fleets
    seat = state.turn
    step = 1
    while state.out[(seat + step) % n]:
        step += 1
    following = (seat + step) % n
    if (following - state.first) % n <= (seat - state.first) % n:
        state.round += 1
        limit = state.game.round_limit  # the house rule's (option round_limit); None: no limit
        if limit is not None and state.round > limit:
            named = (found for found in (f(state) for f in state.game.hooks.limit_winners) if found is not None)
            if state.game.npc >= 0:
                finish(state, [], "the round limit: the NPC fleet outlasted the player")
            else:
                still_in = [s for s in range(n) if not state.out[s]]
                finish(state, *next(named, (still_in, "the round limit: a draw among those still in")))
            events.append(Event("game_over", f"The round limit is reached: {state.reason}."))
            return
        events.append(Event("round", f"Round {state.round}."))
    begin_turn(state, following)


def loot(state: MothershipState, seat: int, amount: int, what: str, events: list[Event]) -> None:
    """``seat`` destroyed ``what``: its loot, at once (a player already out, or the NPC, gets none)."""
    if state.out[seat] or not amount or seat == state.game.npc:
        return
    amount += tech.bonus(state, seat, "loot")
    state.resources[seat] += amount
    events.append(Event("loot", f"{state.player_name(seat)} loots {amount} for {what}.", (seat,)))


def destroyed(
    state: MothershipState, by: int, seat: int, unit: int, events: list[Event], *, survived: bool = False
) -> None:
    """``by``'s units destroyed ``seat``'s ``unit`` (a ship number, STATION for the colony
    station, CANNON_UNIT for a guardian cannon): the loot, in mode victory_points the points,
    the destroyer's tally (objectives) and kept Salvage card (beacons), at once. ``survived``: Life
    Support kept the ship: the loot is still paid, but nothing was destroyed, so no points."""
    c = state.game.content
    kind = unit_kind(state, unit)
    what = {COLONY: "a colony station", CANNON_TARGET: "a guardian cannon"}.get(kind, f"a {kind}")
    loot(state, by, c.loot_large if kind in (MOTHERSHIP, COLONY) else c.loot_small, what, events)
    if not survived:
        if kind in KILLS:
            tally(state, by, KILLS[kind])
        for hook in state.game.hooks.unit_destroyed:  # victory points, a kept Salvage card
            hook(state, by, seat, unit, events)


KILLS = {FIGHTER: "fighters_destroyed", BOMBER: "bombers_destroyed", MOTHERSHIP: "motherships_destroyed"}
KILLS[COLONY] = "stations_destroyed"
"""The tally each kind of unit destroyed counts in (a guardian cannon counts in none)."""


def tally(state: MothershipState, seat: int, deed: str) -> None:
    """``seat`` did ``deed`` once more (``language.TALLIES``; nobody: seat -1). The tallies are
    kept in every game (objectives and reports read them)."""
    if seat >= 0:
        state.tallies[seat][TALLIES.index(deed)] += 1


def change_owner(state: MothershipState, planet: int, owner: int, events: list[Event]) -> None:
    """Planet ``planet`` passes to ``owner`` (a seat, -1 neutral, -2 taken off the board): every
    change of hands goes through here (victory points count them)."""
    previous = state.owner[planet]
    state.owner[planet] = owner
    if previous != owner and owner >= 0:
        tally(state, owner, "planets_captured")
    for changed in state.game.hooks.planet_changed_hands:
        changed(state, planet, previous, owner, events)


def unit_kind(state: MothershipState, unit: int) -> str:
    """The kind of a unit number: a ship's, the colony station's (STATION) or a cannon's."""
    if unit == STATION:
        return COLONY
    return CANNON_TARGET if unit == CANNON_UNIT else state.game.ship_kinds[unit]


def ships_left(state: MothershipState, seat: int) -> int:
    return sum(1 for p in state.pos[seat] if p != NOWHERE)


def check_out(state: MothershipState, seats: list[int], events: list[Event]) -> None:
    """Knock out every seat of ``seats`` with no colony station or no ship left (the NPC, which
    has no station, with no ship left); end the game when one team is left. A player knocked
    out on their own turn ends it at once. Mode victory_points knocks nobody out: a destroyed
    station only leaves the board (module victory)."""
    if any(handled(state, seats, events) for handled in state.game.hooks.check_out):  # victory points
        return
    knocked = False
    for seat in seats:
        has_station = state.station_hp[seat] > 0 or state.stations[seat] == NOWHERE
        if state.out[seat] or (has_station and ships_left(state, seat)):
            continue
        knock_out(state, seat, events)
        knocked = True
    if not knocked:
        return
    standing = [s for s in range(state.game.fleets) if not state.out[s]]
    if len({state.team(s) for s in standing}) <= 1:
        finish(state, [s for s in standing if s != state.game.npc], "last standing")
        names = ", ".join(state.player_name(s) for s in standing) or "nobody"
        events.append(Event("game_over", f"Last standing: {names}."))
    elif state.out[state.turn]:
        state.pending = None
        pass_turn(state, events)


def knock_out(state: MothershipState, seat: int, events: list[Event]) -> None:
    state.out[seat] = 1 + _turns_played(state)
    why = "colony station destroyed" if state.station_hp[seat] <= 0 else "no ship left"
    for ship, cell in enumerate(state.pos[seat]):
        if cell != NOWHERE:
            state.grid[cell] = EMPTY
            state.pos[seat][ship] = NOWHERE
    assert state.board is not None
    station = state.stations[seat]
    if station != NOWHERE and state.grid[station] == seat * 16 + STATION:
        state.grid[station] = EMPTY
    state.station_hp[seat] = 0
    for out in state.game.hooks.knocked_out:  # cannons, kept beacon cards, objectives
        out(state, seat, events)
    state.owner = [-1 if o == seat else o for o in state.owner]
    if state.hands[seat]:  # a player out discards the hand, face up
        names = ", ".join(economy.card_name(state, card) for card in state.hands[seat])
        events.append(Event("cards", f"{state.player_name(seat)} discards {names}."))
    for card in state.hands[seat]:
        state.discard[card] += 1
    state.hands[seat] = []
    for facts in state.known:
        facts[seat] = []
    state.draws = [s for s in state.draws if s != seat]
    state.trading = [s for s in state.trading if s != seat]
    if state.reward and seat in state.reward:
        state.reward = []
    events.append(Event("out", f"{state.player_name(seat)} is out ({why}); their planets turn neutral."))


def _turns_played(state: MothershipState) -> int:
    return state.round * state.game.fleets + (state.turn - state.first) % state.game.fleets


def finish(state: MothershipState, winners: list[int], reason: str) -> None:
    """The game is over: whatever was still to be drawn, answered or traded is dropped."""
    state.phase = "over"
    state.pending = None
    state.draws, state.buying, state.steal, state.reward, state.exploring = [], 0, [], [], -1
    state.trading, state.playing, state.cancel, state.event_roll = [], [], [], []
    state.choice, state.script, state.beacon_draw, state.flipping, state.objective_draws = None, None, [], 0, []
    state.winners = winners
    state.reason = reason


def standing(state: MothershipState, seat: int) -> int:
    """A player's strength on the board, for reports: hull of mothership and station, ships, planets."""
    if state.out[seat]:
        return 0
    ships = ships_left(state, seat)
    hull = (state.hp[seat] if state.pos[seat][0] != NOWHERE else 0) + state.station_hp[seat]
    return hull + 2 * ships + 3 * sum(1 for o in state.owner if o == seat)
