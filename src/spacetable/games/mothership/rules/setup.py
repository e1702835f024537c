"""Chapter 1 (set-up) and the start of chapter 2 (who starts).

1. The board: a layout's, or a generated one drawn by a chance node (its seed).
2. Each player in seat order places the fleet, ship by ship (mothership, fighters,
   bombers), on empty spaces within ``placement_radius`` of the colony station; or
   all the rest at once in the standard formation (nearest the board's centre first).
   The solo challenge (chapter 14): the player's planets and the NPC's fleet are on the
   board from the start, the player's fleet goes around the layout's corner ``F``, and the
   player starts.
3. Each player rolls a d6 in seat order; a roll equal to an earlier one is rolled
   again until it differs, so the chance node offers the faces not yet rolled. The
   highest roll starts; play goes on clockwise (by seat). The option ``first_seat``
   skips the roll (designers measuring the first player's advantage).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event, Roll

from . import economy, turns
from .actions import AutoPlace, Place
from .board import EMPTY as OPEN
from .board import Board
from .state import STATION

if TYPE_CHECKING:
    from .state import MothershipState


def lay_out(state: MothershipState, board: Board) -> None:
    """The board as the game starts: the colony stations, and in the solo challenge the
    player's planets and the NPC's fleet (it has no station)."""
    state.board = board
    state.grid = [-1] * (board.size * board.size)
    for seat, cell in enumerate(board.stations):
        state.grid[cell] = seat * 16 + STATION
    state.stations = list(board.stations)
    state.owner = [-1] * len(board.planets)
    state.artifacts = [-1] * len(board.planets)
    state.explorers = [-1] * len(board.planets)
    for laid in state.game.hooks.board_laid:  # beacon tokens; the solo challenge's NPC fleet
        laid(state, board)


def draw_board(state: MothershipState, seed: int, events: list[Event]) -> None:
    board = state.game.board_for(seed)
    lay_out(state, board)
    state.board_seed = seed
    state.phase = "place"
    what = f"the solo layout {board.name!r}" if state.game.npc >= 0 else f"generated board #{seed}"
    events.append(Event("setup", f"The board is {what}: {len(board.planets)} planets."))


def placer(state: MothershipState) -> int:
    """The seat placing ships now: the first whose fleet is not all on the board."""
    for seat, fleet in enumerate(state.pos):
        if fleet[-1] < 0:
            return seat
    raise AssertionError("every fleet is placed")


def placement_spaces(state: MothershipState, seat: int) -> list[int]:
    """Free, empty spaces within reach of the seat's colony station (the solo challenge: of the
    fleet's corner), in the standard formation's order (:meth:`.Board.formation_key`)."""
    board = state.board
    assert board is not None
    anchor = board.fleet if board.fleet >= 0 else state.stations[seat]
    radius = state.game.content.placement_radius
    spaces = [c for c in board.within(anchor, radius) if board.terrain[c] == OPEN and state.grid[c] < 0]
    return sorted(spaces, key=lambda cell: board.formation_key(anchor, cell))


def placements(state: MothershipState, seat: int) -> list[Action]:
    actions: list[Action] = [Place(c) for c in placement_spaces(state, seat)]
    actions.append(AutoPlace())
    return actions


def place(state: MothershipState, seat: int, cell: int, events: list[Event]) -> None:
    fleet = state.pos[seat]
    ship = fleet.index(-1)
    fleet[ship] = cell
    state.grid[cell] = seat * 16 + ship
    assert state.board is not None
    events.append(Event("place", f"{state.ship_name(seat, ship)} is placed at {state.board.name_of(cell)}."))
    if ship == len(fleet) - 1 and seat == state.game.players - 1:
        for player in range(state.game.players):  # the opening hands, dealt before the roll
            economy.owe_cards(state, player, state.game.content.start_cards, events)
        for placed in state.game.hooks.fleets_placed:  # objectives dealt
            placed(state)
        first = state.game.options["first_seat"]
        if first is None and state.game.npc < 0:
            state.phase = "order"
        else:
            start(state, first or 0, events)  # the solo challenge's player starts


def auto_place(state: MothershipState, seat: int, events: list[Event]) -> None:
    for cell in placement_spaces(state, seat)[: state.pos[seat].count(-1)]:
        place(state, seat, cell, events)


def order_outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    faces = [v for v in range(1, 7) if v not in state.order_rolls]
    return [(Roll(v), 1 / len(faces)) for v in faces]


def order_roll(state: MothershipState, value: int, events: list[Event]) -> None:
    seat = state.order_rolls.index(0)
    state.order_rolls[seat] = value
    events.append(Event("roll", f"{state.player_name(seat)} rolls {value} to start."))
    if 0 not in state.order_rolls:
        start(state, state.order_rolls.index(max(state.order_rolls)), events)


def start(state: MothershipState, first: int, events: list[Event]) -> None:
    """Round 1 begins with ``first``'s turn."""
    state.first = first
    state.phase = "turn"
    state.round = 1
    events.append(Event("round", f"{state.player_name(first)} starts. Round 1."))
    turns.begin_turn(state, first)
