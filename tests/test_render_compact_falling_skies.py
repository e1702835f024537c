"""The falling-skies boards for the terminal app: the compact one fits its board panel (78x15) and,
like the full one, tags every part an action can involve; nothing is told by colour alone."""

from __future__ import annotations

import random

import pytest

from render_helpers import read
from spacetable.engine import load
from spacetable.games.falling_skies.content import CARDS, SPOT
from spacetable.games.falling_skies.rules.state import FallingSkiesState
from spacetable.games.falling_skies.views.render import COMPACT_COLUMNS, COMPACT_ROWS, compact, part, render

SKY = slice(9, 29)
"""The compact sky's cells (after the track symbols and row numbers)."""


def _always_drawn(state: FallingSkiesState) -> set[str]:
    """Parts on the board whatever the phase: every space, spot and kind of waiting ship."""
    b = state.board
    spots = {f"spot:{c}" for c in range(1, b.columns + 1)}
    return {f"space:{s}" for s in b.spaces} | spots | {"ship:waiting:green", "ship:waiting:red"}


@pytest.mark.parametrize(("level", "energy_room"), [(1, "gain"), (3, "restore"), (5, "gain"), (8, "restore")])
def test_the_compact_board_fits_the_panel_and_both_boards_tag_every_part_of_every_legal_action(
    level: int, energy_room: str
) -> None:
    game = load("falling-skies", 1, {"level": level, "energy_room": energy_room})
    seen: set[str] = set()
    for seed in (level, level + 10):
        state = game.new_initial_state()
        rng = random.Random(seed)
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            board = read(compact(state, 0))
            columns, rows = board.size
            assert columns <= COMPACT_COLUMNS and rows <= COMPACT_ROWS, "\n".join(board.lines)
            actions = state.legal_actions(0)
            wanted = {p for action in actions for p in game.action_parts(action)}
            assert wanted | _always_drawn(state) <= board.parts.keys(), (state.phase, wanted - board.parts.keys())
            if decisions % 6 == 0:  # the full board, less often: it holds half as much markup again
                assert wanted <= read(render(state, 0)).parts.keys(), state.phase
            seen |= {p.split(":")[0] for p in wanted}
            decisions += 1
            state.apply_action(rng.choice(actions), 0)
    assert {"die", "space", "skip"} <= seen  # the playouts went through placing and resolving


def test_every_choice_of_hard_cards_fits_the_panel() -> None:
    for hard in [[card] for card in CARDS] + [list(CARDS)]:
        state = load("falling-skies", 1, {"hard": hard}).new_initial_state()
        columns, rows = read(compact(state, 0)).size
        assert columns <= COMPACT_COLUMNS and rows <= COMPACT_ROWS, hard


def _placing(seed: int, mothership: int) -> FallingSkiesState:
    """A position of dice to place, with the mother ship card at ``mothership``, some ships and dice on the board."""
    state = load("falling-skies", 1, {}).new_initial_state()
    rng = random.Random(seed)
    while state.phase != "place" or state.mothership != mothership or len(state.slots) < 2:
        assert not state.is_terminal()
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions(0))
        state.apply_action(action)
    assert isinstance(state, FallingSkiesState)
    return state


@pytest.mark.parametrize("mothership", [0, 2])
def test_ships_dice_and_robots_read_by_their_letters(mothership: int) -> None:
    state = _placing(4, mothership)
    state.slots["B2"] = ("robot", 3)  # one of each kind of die
    board = read(compact(state, 0))
    in_sky = [ship for ship in state.ships if ship[0] != SPOT or mothership]  # above the sky: the card's line
    letters = "".join(line[SKY] for line in board.lines)
    assert letters.count("G") == sum(not red for *_, red in in_sky)
    assert letters.count("R") == sum(red for *_, red in in_sky)
    for space, (color, value) in state.slots.items():
        drawn = board.parts[f"space:{space}"]
        assert any(text.removeprefix("AA ").startswith(f"{color[0]}{value}") for text in drawn), (space, drawn)
    for color, value in state.unplaced:
        assert board.parts[f"die:{color}:{value}"][0] == f"{color[0]}{value}"
    for column in range(1, state.board.columns + 1):
        on_spot = [red for row, col, red in state.ships if row == SPOT and col == column - 1]
        shown = board.parts[f"spot:{column}"][0].strip(" ·")
        assert shown == f"{column}{''.join('R' if red else 'G' for red in on_spot)}", (column, shown)
    assert board.lines[0].startswith("MOTHER  2" if mothership else " " * 8 + "1")  # the card, or the sky's row 1


def test_the_compact_board_keeps_what_the_line_mode_terminal_looks_for() -> None:
    board = read(compact(_placing(4, 0), 0))
    assert " FALLING SKIES " in board.lines[0]  # the title, then the base's columns and tracks
    assert any("Σ sum" in line for line in board.lines)


def test_a_part_id_that_could_break_the_markup_is_refused() -> None:
    assert part("space:B3", "x") == "[@part='space:B3']x[/]"
    for bad in ("it's", "a]b", "a[b"):
        with pytest.raises(ValueError, match="part id"):
            part(bad, "x")
