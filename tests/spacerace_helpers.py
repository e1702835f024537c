"""Setting up SpaceRace positions for scenario tests, through the public JSON form.

The two-player map with default options (node numbers as laid out by the set-up):

    0 Nexus; 1 Vega and 2 Rigel next to it;
    Vega - tiles 3 4 5 6 - 7 Altair;  Rigel - tiles 8 9 10 11 - 12 Deneb;
    Nexus - tiles 13 14 15 16 - 17 Sirius.

:func:`started` plays the set-up with forced outcomes: every starway empty, Red
(seat 0) choosing first, Vega for Red and Rigel for Blue, motherships [3|3|4];
Blue chose last, so Blue starts.
"""

from __future__ import annotations

from typing import Any

import spacetable
from spacetable.engine import Event, Record, Roll
from spacetable.games.spacerace.game import SpaceRace
from spacetable.games.spacerace.rules.actions import (
    Assimilate,
    Contest,
    Design,
    Destroy,
    DrawShip,
    DrawTreasure,
    EndTurn,
    Flee,
    Homeworld,
    LayStarway,
    Move,
)
from spacetable.games.spacerace.rules.ships import MOTHERSHIP
from spacetable.games.spacerace.rules.state import SpaceRaceState

__all__ = [
    "Assimilate",
    "Contest",
    "Design",
    "Destroy",
    "DrawShip",
    "DrawTreasure",
    "EndTurn",
    "Flee",
    "Homeworld",
    "LayStarway",
    "Move",
    "Roll",
    "apply",
    "new_game",
    "position",
    "ship",
    "ship_card",
    "started",
    "tiles",
    "treasure_card",
    "warning_position",
]

NEXUS, VEGA, RIGEL, ALTAIR, DENEB, SIRIUS = 0, 1, 2, 7, 12, 17
VEGA_ALTAIR = (3, 4, 5, 6)
RIGEL_DENEB = (8, 9, 10, 11)
NEXUS_SIRIUS = (13, 14, 15, 16)


def new_game(players: int = 2, **options: Any) -> SpaceRace:
    game = spacetable.load("spacerace", players, options)
    assert isinstance(game, SpaceRace)
    return game


def apply(state: SpaceRaceState, *actions: Any) -> list[Event]:
    """Apply actions in order (ints are forced die rolls); return all events."""
    events: list[Event] = []
    for action in actions:
        events += state.apply_action(Roll(action) if isinstance(action, int) else action)
    return events


def started(
    game: SpaceRace | None = None,
    homeworlds: tuple[int, ...] = (VEGA, RIGEL),
    designs: tuple[tuple[int, int, int], ...] | None = None,
) -> SpaceRaceState:
    """A game just after set-up: empty starways (the deck's first card if it has no empty one),
    seats choosing in seat order, the last seat starting."""
    game = game or new_game()
    state = game.new_initial_state()
    blank = "." * game.content.starway_tiles
    card = game.starway_patterns.index(blank) if blank in game.starway_patterns else 0
    while state.phase == "starways":
        apply(state, LayStarway(card))
    apply(state, *range(6, 6 - game.players, -1))
    for planet in homeworlds:
        apply(state, Homeworld(planet))
    for stats in designs or [(3, 3, 4)] * game.players:
        apply(state, Design(*stats))
    return state


def ship(
    node: int,
    card: int = MOTHERSHIP,
    name: str = "",
    treasure: tuple[int, ...] = (),
    wait: int = 0,
    acted: bool = False,
) -> list[Any]:
    """A ship in the JSON form of ``fleets`` (a mothership unless a card is given)."""
    return [card, name or ("Mothership" if card == MOTHERSHIP else f"Ship {card}"), node, list(treasure), wait, acted]


def tiles(game: SpaceRace, marks: dict[int, str] | None = None) -> str:
    """The map's tiles string with every starway tile empty except ``marks`` (node -> T / S / .)."""
    text = list(game.galaxy.marks.replace("?", "."))
    for node, mark in (marks or {}).items():
        text[node] = mark
    return "".join(text)


def position(game: SpaceRace | None = None, **changes: Any) -> SpaceRaceState:
    """The state after :func:`started` with some fields replaced (names as in ``to_json``).

    ``owner`` may be given as {node: seat}: the homeworlds' ownership is kept unless overridden.
    """
    game = game or new_game()
    data = started(game).to_json()
    if isinstance(changes.get("owner"), dict):
        owner = data["owner"]
        for node, seat in changes.pop("owner").items():
            owner[node] = seat
    unknown = set(changes) - set(data)
    assert not unknown, f"not state fields: {unknown}"
    data.update(changes)
    state = game.state_from_json(data)
    assert isinstance(state, SpaceRaceState)
    return state


def ship_card(game: SpaceRace, d: int, m: int, a: int) -> int:
    """The id of the spaceship card [d|m|a]."""
    return game.content.ships.index((d, m, a))


def treasure_card(game: SpaceRace, d: int = 0, m: int = 0, a: int = 0) -> int:
    """The id of the treasure card with exactly these changes."""
    return next(i for i, t in enumerate(game.content.treasure) if (t.d, t.m, t.a) == (d, m, a))


def warning_position() -> tuple[dict[str, Any], int, str, str]:
    """A recorded two-player game (default options), chance included, up to Blue's first move:
    Red's mothership [2|4|4] at Vega, next to the Nexus, is faster than Blue's [3|3|4] and
    strikes through its D, so Blue flying its mothership to the Nexus, where customs hold it
    while Red's can reach it, is warned of (RULINGS.md 38); a step along Rigel's starway is not.
    Returns (the record's JSON, Blue's seat, the warned move's label, the safe move's label)."""
    game = new_game(2)
    state = game.new_initial_state()
    record = Record.start(game, game.seat_names())
    blank = game.starway_patterns.index("." * game.content.starway_tiles)
    chance = [LayStarway(blank)] * len(game.galaxy.starways) + [Roll(6), Roll(5)]
    for action in chance:
        state.apply_action(action)
        record.add(game, None, action)
    for action in (Homeworld(VEGA), Homeworld(RIGEL), Design(2, 4, 4), Design(3, 3, 4)):
        seat = state.current_player()
        state.apply_action(action, seat)
        record.add(game, seat, action)
    blue = state.current_player()
    warned, safe = Move(0, NEXUS), Move(0, RIGEL_DENEB[0])
    assert state.action_warning(warned) and not state.action_warning(safe)
    return record.to_json(), blue, state.action_label(warned), state.action_label(safe)
