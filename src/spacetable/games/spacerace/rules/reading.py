"""Reading a SpaceRace state from JSON (``state_from_json``): every field checked against the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spacetable.engine import JSON, check_json_keys

from ..content import Stats
from .ships import MOTHERSHIP, Ship, scores
from .state import KIND_NAMES, PHASES, PVM, Battle, SpaceRaceState

if TYPE_CHECKING:
    from ..game import SpaceRace


def state_from_json(game: SpaceRace, data: JSON) -> SpaceRaceState:
    """The state ``data`` describes, every field checked against ``game``; ValueError if it is not one."""
    state = SpaceRaceState(game)
    d: dict[str, Any] = check_json_keys(data, set(state.to_json()), "spacerace state")
    try:
        _read(state, d)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
        raise ValueError(f"spacerace state: {exc}") from None
    from spacetable.engine.schema import probe

    probe(state, "spacerace state")
    return state


def _int(value: Any, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} must be an integer from {low} to {high}, got {value!r}")
    return value


def _ints(value: Any, what: str, length: int, low: int, high: int) -> list[int]:
    if type(value) is not list or len(value) != length:
        raise ValueError(f"{what} must be a list of {length} integers")
    return [_int(v, f"{what}[{i}]", low, high) for i, v in enumerate(value)]


def _stats(value: Any, what: str, top: int) -> Stats:
    d, m, a = _ints(value, what, 3, 0, top)
    return (d, m, a)


def _bools(value: Any, what: str, length: int) -> list[bool]:
    if type(value) is not list or len(value) != length or any(type(v) is not bool for v in value):
        raise ValueError(f"{what} must be a list of {length} booleans")
    return list(value)


def _read(state: SpaceRaceState, d: dict[str, Any]) -> None:
    game, galaxy, content = state.game, state.galaxy, state.content
    players, nodes = game.players, galaxy.size
    if d["phase"] not in PHASES:
        raise ValueError(f"unknown phase {d['phase']!r}")
    state.phase = d["phase"]
    tiles = d["tiles"]
    if type(tiles) is not str or len(tiles) != nodes:
        raise ValueError(f"tiles must be a string of {nodes} marks")
    for node, (mark, shape) in enumerate(zip(tiles, galaxy.marks)):
        if (mark != shape) if shape != "?" else mark not in "?TS.":
            raise ValueError(f"tiles[{node}] is {mark!r}, which does not fit the map")
    state.tiles = tiles
    state.starway_deck = _ints(d["starway_deck"], "starway_deck", len(game.starway_counts), 0, 99)
    state.ship_deck = _ints(d["ship_deck"], "ship_deck", len(content.ships), 0, 99)
    state.treasure_deck = _ints(d["treasure_deck"], "treasure_deck", len(content.treasure), 0, 99)
    state.rolls = _ints(d["rolls"], "rolls", players, 0, 6)
    order = d["order"]
    state.order = _ints(order, "order", len(order) if type(order) is list else -1, 0, players - 1)
    if state.order and sorted(state.order) != list(range(players)):
        raise ValueError("order must list every seat once")
    state.homeworld = _ints(d["homeworld"], "homeworld", players, -1, nodes - 1)
    designs = d["designs"]
    if type(designs) is not list or len(designs) != players:
        raise ValueError(f"designs must be a list of {players} designs or nulls")
    state.designs = [
        None if x is None else _stats(x, f"designs[{i}]", content.mothership_points) for i, x in enumerate(designs)
    ]
    state.owner = _ints(d["owner"], "owner", nodes, -1, players - 1)
    fleets = d["fleets"]
    if type(fleets) is not list or len(fleets) != players:
        raise ValueError(f"fleets must be a list of {players} fleets")
    state.fleets = [[_ship(state, seat, i, s) for i, s in enumerate(fleet)] for seat, fleet in enumerate(fleets)]
    state.rebuilding = _bools(d["rebuilding"], "rebuilding", players)
    state.out = _bools(d["out"], "out", players)
    state.turn = _int(d["turn"], "turn", 0, players - 1)
    state.starter = _int(d["starter"], "starter", 0, players - 1)
    state.round = _int(d["round"], "round", 0, 10**6)
    raw = d["battle"]
    if raw is not None:
        if type(raw) is not list or len(raw) != len(Battle._fields) or raw[0] not in KIND_NAMES:
            raise ValueError(f"battle must be null or a list of {list(Battle._fields)}")
        numbers = [_int(v, f"battle.{name}", -1, 99) for name, v in zip(Battle._fields[1:], raw[1:])]
        state.battle = Battle(raw[0], *numbers)
    state.moving = _int(d["moving"], "moving", -1, content.fleet_limit - 1)
    state.origin = _int(d["origin"], "origin", -1, nodes - 1)
    state.draws = _int(d["draws"], "draws", 0, 99)
    state.named = _int(d["named"], "named", 0, 10**6)
    winners = d["winners"]
    state.winners = _ints(winners, "winners", len(winners) if type(winners) is list else -1, 0, players - 1)
    if type(d["reason"]) is not str:
        raise ValueError("reason must be a string")
    state.reason = d["reason"]
    for seat, rebuilding in enumerate(state.rebuilding):
        if rebuilding and state.designs[seat] is None:
            raise ValueError(f"seat {seat} is rebuilding a mothership it never designed")
    if state.phase == "rebuild":
        seat = state.turn
        if not state.rebuilding[seat] or not any(state.owner[p] == seat for p in state.galaxy.planets):
            raise ValueError(f"phase rebuild: seat {seat} must be rebuilding its mothership and hold a planet")
    _check_move_in_progress(state)


def _check_move_in_progress(state: SpaceRaceState) -> None:
    """The moving ship and the battle name ships and cards that exist, as the phase needs them."""
    phase, fight = state.phase, state.battle
    if state.moving >= len(state.fleets[state.turn]):
        raise ValueError(f"moving names ship {state.moving} of a fleet of {len(state.fleets[state.turn])}")
    needs_mover = phase in ("initiative", "standoff", "contest", "reward", "encounter", "conquest", "treasure")
    if needs_mover and state.moving < 0:
        raise ValueError(f"phase {phase} needs the moving ship")
    if (phase in ("initiative", "standoff", "contest", "reward")) != (fight is not None):
        raise ValueError(f"phase {phase} and battle {fight} do not agree")
    if fight is None:
        return
    if fight.kind == PVM:
        if fight.foe != -1 or not 0 <= fight.foe_ship < len(state.content.ships):
            raise ValueError(f"battle against a map ship names foe {fight.foe}, card {fight.foe_ship}")
    elif not (0 <= fight.foe < state.game.players and fight.foe != state.turn) or not (
        0 <= fight.foe_ship < len(state.fleets[fight.foe])
    ):
        raise ValueError(f"battle names seat {fight.foe}'s ship {fight.foe_ship}, which does not exist")
    if (phase == "reward") != (fight.winner != 0):
        raise ValueError(f"battle winner {fight.winner} does not fit phase {phase}")


def _ship(state: SpaceRaceState, seat: int, index: int, data: Any) -> Ship:
    what = f"fleets[{seat}][{index}]"
    if type(data) is not list or len(data) != 6:
        raise ValueError(f"{what} must be [card, name, node, treasure, wait, acted]")
    card, name, node, treasure, wait, acted = data
    content = state.content
    _int(card, f"{what} card", MOTHERSHIP, len(content.ships) - 1)
    if type(name) is not str or type(acted) is not bool:
        raise ValueError(f"{what}: the name must be a string and acted a boolean")
    _int(node, f"{what} node", 0, state.galaxy.size - 1)
    cards = tuple(_ints(treasure, f"{what} treasure", len(treasure), 0, len(content.treasure) - 1))
    _int(wait, f"{what} wait", 0, 99)
    if card == MOTHERSHIP:
        design = state.designs[seat]
        if design is None:
            raise ValueError(f"{what} is a mothership but seat {seat} has no design")
        base = design
    else:
        base = content.ships[card]
    sd, sm, sa = scores(base, cards, content)
    return Ship(card, name, node, cards, sd, sm, sa, wait, acted)
