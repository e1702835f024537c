"""Planets: taking them, the planetary conquest roll, treasure, and the end of the game.

A ship that ends its move on a planet with no enemy ship in orbit takes it; a
planet with enemy ships in orbit must be won by planetary assault first. Taking
a planet (discovered or conquered) earns a conquest roll: a d6, and half of it
rounded down in treasure cards (the table in ``rules.conquest_treasure``), all
attached to the ship that took it. Option ``conquest_roll = "assault"`` keeps the
roll for planets won by assault.

The game ends when one player holds every planet (the rulebook's only goal). Two
house rules, off by default: option ``last_standing`` ends it when every other
player is eliminated (no planet and no ship left), option ``turn_limit`` after
that many rounds (the most planets wins, then the strongest fleet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Event

from .ships import strength, with_treasure

if TYPE_CHECKING:
    from .state import SpaceRaceState

EVERY_PLANET = "every planet taken"
LAST_STANDING = "every rival eliminated"
TURN_LIMIT = "turn limit reached"
REASONS = (EVERY_PLANET, LAST_STANDING, TURN_LIMIT)


def take(state: SpaceRaceState, node: int, assaulted: bool, events: list[Event]) -> bool:
    """The moving ship takes the planet it stands on; then the conquest roll, if one is due.
    True: the move is over (the caller, module turns, ends it)."""
    seat = state.turn
    previous = state.owner[node]
    state.owner[node] = seat
    name = state.galaxy.names[node]
    if previous < 0:
        events.append(Event("planet", f"{state.player_name(seat)} discovers {name} and takes it."))
    else:
        events.append(Event("planet", f"{state.player_name(seat)} conquers {name} from {state.player_name(previous)}."))
        check_eliminated(state, previous, events)
    if state.over or _check_every_planet(state, events):
        return False
    if assaulted or state.game.options["conquest_roll"] == "always":
        state.phase = "conquest"
        return False
    return True


def conquest_roll(state: SpaceRaceState, value: int, events: list[Event]) -> bool:
    """The conquest roll's treasure draws begin; True: none to draw, the move is over."""
    cards = state.content.conquest_treasure[value - 1]
    events.append(Event("roll", f"Planetary conquest roll: {value}, {cards} treasure card(s)."))
    return start_draws(state, cards, events)


def start_draws(state: SpaceRaceState, cards: int, events: list[Event]) -> bool:
    """The moving ship draws ``cards`` treasure cards (fewer if the deck runs out); True: none
    left to draw, the move is over."""
    state.draws = cards
    if cards and not any(state.treasure_deck):
        events.append(Event("treasure", "The treasure deck is empty: nothing to draw."))
        state.draws = 0
    if state.draws:
        state.phase = "treasure"
        return False
    return True


def draw_treasure(state: SpaceRaceState, card: int, events: list[Event]) -> bool:
    """A treasure card drawn for the moving ship; True: the last draw, the move is over."""
    seat = state.turn
    fleet = state.fleets[seat]
    ship = fleet[state.moving]
    state.treasure_deck[card] -= 1
    fleet[state.moving] = updated = with_treasure(
        ship, (*ship.treasure, card), state.base_scores(seat, ship), state.content
    )
    found = state.content.treasure[card].describe()
    events.append(Event("treasure", f"{ship.name} finds treasure: {found}, now {updated.label()}."))
    return start_draws(state, state.draws - 1, events)


def check_eliminated(state: SpaceRaceState, seat: int, events: list[Event]) -> None:
    """A player with no planet and no ship on the map is out; the last one left wins (``last_standing``)."""
    if state.out[seat] or state.fleets[seat] or seat in state.owner:
        return
    state.out[seat] = True
    state.rebuilding[seat] = False
    events.append(Event("eliminated", f"{state.player_name(seat)} has no planet and no ship left, and is out."))
    left = [s for s in range(state.game.players) if not state.out[s]]
    if len(left) == 1 and state.game.options["last_standing"]:
        finish(state, left, LAST_STANDING, events)


def _check_every_planet(state: SpaceRaceState, events: list[Event]) -> bool:
    seat = state.turn
    if all(state.owner[p] == seat for p in state.galaxy.planets):
        finish(state, [seat], EVERY_PLANET, events)
        return True
    return False


def planet_count(state: SpaceRaceState, seat: int) -> int:
    return sum(1 for p in state.galaxy.planets if state.owner[p] == seat)


def standing(state: SpaceRaceState, seat: int) -> tuple[int, int]:
    """What the final score compares: (planets held, total scores of the fleet)."""
    return planet_count(state, seat), sum(strength(ship) for ship in state.fleets[seat])


def finish_on_score(state: SpaceRaceState, events: list[Event]) -> None:
    """The turn limit: the most planets wins, ties broken by fleet strength; equal players share."""
    best = max(standing(state, s) for s in range(state.game.players))
    finish(state, [s for s in range(state.game.players) if standing(state, s) == best], TURN_LIMIT, events)


def finish(state: SpaceRaceState, winners: list[int], reason: str, events: list[Event]) -> None:
    state.phase = "over"
    state.winners = winners
    state.reason = reason
    state.battle = None
    state.moving = -1
    names = " and ".join(state.player_name(s) for s in winners)
    events.append(Event("game_over", f"{names} win{'s' if len(winners) == 1 else ''}: {reason}."))
