"""Set up Mothership positions directly and play them with forced dice."""

from __future__ import annotations

import random
from typing import Any

import spacetable
from spacetable.engine import Action, Event, Record, Roll
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.rules.state import NOWHERE, MothershipState
from spacetable.games.mothership.rules.turns import begin_turn

TEST_BOARD = [
    "...........",
    ".1.........",
    "...........",
    "...P.......",
    "...........",
    ".##..P.....",
    "...........",
    ".......P...",
    "......##...",
    ".........2.",
    "...........",
]
"""Two stations (B2, J10), planets D4, F6 and H8, and asteroid fields at B6-C6 and G9-H9."""

TEAM_BOARD = [
    "...........",
    ".1.......2.",
    "...........",
    "...P...P...",
    "...........",
    ".....P.....",
    "...........",
    "...P...P...",
    "...........",
    ".4.......3.",
    "...........",
]
"""Four stations in the corners (B2, J2, J10, B10) and five planets."""

MOTHERSHIP, FIGHTER_1, FIGHTER_2, FIGHTER_3, BOMBER_1, BOMBER_2 = range(6)
STATION = 6
"""The ship number of a colony station in attack targets (six ships per fleet)."""


def target(seat: int, ship: int) -> int:
    """The attack target number of ``seat``'s ``ship`` (or ``STATION``)."""
    return seat * 7 + ship


def planet(index: int, players: int = 2) -> int:
    """The attack target number of planet ``index`` with ``players`` fleets."""
    return players * 7 + index


def mask(*ships: int) -> int:
    return sum(1 << s for s in ships)


def new_game(players: int = 2, content: dict[str, Any] | None = None, **options: Any) -> Mothership:
    """A game on the test board (2 players) or the team board (4), with ``content`` laid over."""
    rows = TEST_BOARD if players == 2 else TEAM_BOARD
    data = {**(content or {}), "layouts": {"test": {"players": players, "rows": rows}}}
    game = spacetable.load("mothership", players, {"layout": "test", "content": data, **options})
    assert isinstance(game, Mothership)
    return game


def cell(name: str) -> int:
    """A space by its name on the 11x11 test boards: ``"C4"`` is column C, row 4."""
    return (int(name[1:]) - 1) * 11 + ord(name[0]) - ord("A")


def position(
    ships: dict[tuple[int, int], str],
    *,
    turn: int = 0,
    energy: dict[int, tuple[int, int, int]] | None = None,
    game: Mothership | None = None,
) -> MothershipState:
    """The start of ``turn``'s turn in round 1 with only ``ships`` ((seat, ship) -> space) on the board."""
    game = game or new_game()
    state = game.new_initial_state()
    for fleet in state.pos:
        fleet[:] = [NOWHERE] * len(fleet)
    for (seat, ship), where in ships.items():
        state.pos[seat][ship] = cell(where)
        state.grid[cell(where)] = seat * 16 + ship
    for seat, split in (energy or {}).items():
        state.energy[seat] = list(split)
        state.shield[seat] = game.content.shields[split[2]]
    state.phase = "turn"
    state.round = 1
    state.first = 0
    begin_turn(state, turn)
    return state


def play(state: MothershipState, *actions: Action) -> list[Event]:
    """Apply actions in order, each by whoever acts now; returns all their events."""
    events: list[Event] = []
    for action in actions:
        events += state.apply_action(action)
    return events


def rolls(*faces: int) -> list[Action]:
    return [Roll(f) for f in faces]


CARDS = {card.key: index for index, card in enumerate(load_content().cards)}
"""Each action card's kind by its key."""


def holding(state: MothershipState, seat: int, *keys: str) -> MothershipState:
    """``state`` with ``seat``'s hand replaced by the cards ``keys``."""
    state.hands[seat] = sorted(CARDS[key] for key in keys)
    state._legal_cache = None
    return state


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def warning_position(seed: int = 0) -> tuple[dict[str, Any], int, str, str]:
    """A recorded game with black holes, played at random (``seed``) up to the first decision
    where a legal move is warned of (RULINGS.md 106: a last ship into a hole): (the record's
    JSON, the seat to decide, the warned move's label, the label of a move not warned)."""
    game = spacetable.load("mothership", 2, {"black_holes": True, "neutron_stars": True})
    state, rng = game.new_initial_state(), random.Random(seed)
    record = Record.start(game, ["Player 1", "Player 2"])
    while not state.is_terminal():
        if state.is_chance_node():
            action, seat = state.sample_chance(rng), None
        else:
            seat = state.awaiting()[0]
            legal = state.legal_actions(seat)
            warned = [a for a in legal if state.action_warning(a)]
            safe = [a for a in legal if not state.action_warning(a) and not state.action_note(a)]
            if warned and safe:
                return record.to_json(), seat, state.action_label(warned[0]), state.action_label(safe[0])
            action = rng.choice(legal)
        state.apply_action(action, seat)
        record.add(game, seat, action)
    raise AssertionError(f"no warned move in the game of seed {seed}")
