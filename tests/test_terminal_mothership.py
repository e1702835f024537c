"""Mothership in the terminal: menus a step at a time, coordinates typed, risky spaces marked."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from rich.console import Console

from random_play import advance
from spacetable.cli.terminal import TerminalPlayer, find_grouper, find_titler
from spacetable.engine import Action, State, load
from spacetable.games.mothership.rules.actions import Move, SetEnergy
from spacetable.games.mothership.rules.board import ASTEROID, BLACK_HOLE


def position(ready: Callable[[State], bool], seed: int = 4) -> State:
    """A random 2-player game's first position where seat 0 decides and ``ready`` holds."""
    game = load("mothership", 2, {})
    state = game.new_initial_state()
    rng = random.Random(seed)
    return advance(state, rng, lambda s: s.awaiting() == (0,) and ready(s))


def in_turn(state: State) -> bool:
    return state.phase == "turn" and any(isinstance(a, SetEnergy) for a in state.legal_actions(0))


class Stop(Exception):
    """No answers left: the test has seen the screen it wanted."""


def entry_number(screen: str, label_start: str) -> str:
    """The number of the entry of the last menu on ``screen`` whose label starts with ``label_start``."""
    menu = screen[screen.rindex(":\n") :]
    for line in menu.splitlines():
        for cell in line.split("   "):
            number, _, label = cell.strip().partition(" ")
            if number.isdigit() and label.startswith(label_start):
                return number
    raise AssertionError(f"no {label_start!r} in:\n{menu}")


def choose(state: State, answers: list[str]) -> tuple[Action | None, str]:
    """Seat 0 at the terminal: each answer is typed as it is, or, written ``#label``, as the number
    the screen shows for that label. Returns the action chosen (None: the answers ran out) and
    the screen."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    pending = list(answers)

    def read(prompt: str) -> str:
        if not pending:
            raise Stop
        answer = pending.pop(0)
        typed = entry_number(out.getvalue(), answer[1:]) if answer.startswith("#") else answer
        console.print(f"{prompt}{typed}")
        return typed

    game = state.game
    player = TerminalPlayer(console, lambda s, seat: "", find_grouper(game), read=read, titler=find_titler(game))
    try:
        action: Action | None = player.choose(state, 0, random.Random(0))
    except Stop:
        action = None
    assert not pending, pending
    return action, out.getvalue()


def test_a_ship_moves_to_the_coordinates_typed() -> None:
    state = position(in_turn)
    moves = [a for a in state.legal_actions(0) if isinstance(a, Move) and a.ship == 0]
    target = moves[len(moves) // 2]
    name = state.board.name_of(target.cell)
    action, screen = choose(state, ["#Mothership at", "zz", name.lower()])
    assert action == target
    assert "'zz' is neither a number nor a place on this menu" in screen
    assert f"to {name}" in screen  # the ship's menu lists its destinations by coordinates


def test_the_control_panel_is_set_in_three_steps() -> None:
    state = position(in_turn)
    wanted = next(a for a in state.legal_actions(0) if isinstance(a, SetEnergy) and (a.engines, a.weapons) == (4, 3))
    action, screen = choose(state, ["#control panel", "#engines 4 (", "#weapons 3 ("])
    assert action == wanted
    assert "control panel (energy) › engines 4" in screen  # each step says where it is
    assert f"weapons 3 (d4), leaving shields {wanted.shields}" in screen  # the rest goes to the shields


def test_risky_destinations_are_marked_and_safe_ones_are_not() -> None:
    state = position(in_turn)
    board = state.board
    _, screen = choose(state, ["#Mothership at"])
    moves = [a for a in state.legal_actions(0) if isinstance(a, Move) and a.ship == 0]
    assert any(board.terrain[m.cell] == ASTEROID for m in moves)  # the case this test is about
    for move in moves:
        risky = board.terrain[move.cell] in (ASTEROID, BLACK_HOLE) or any(
            board.terrain[n] == BLACK_HOLE for n in board.neighbours[move.cell]
        )
        assert (f"to {board.name_of(move.cell)} (risky:" in screen) == risky, board.name_of(move.cell)


def test_set_up_names_the_ship_being_placed_and_takes_its_coordinates() -> None:
    state = position(lambda s: s.phase == "place")
    place = state.legal_actions(0)[2]
    action, screen = choose(state, [state.board.name_of(place.cell).lower()])
    assert "Place your Mothership (ship 1 of 6" in screen
    assert action == place
