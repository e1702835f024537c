"""The Showdown table for the terminal app: the compact one fits its board panel (78x15) at every
table size and phase and, like the full one, tags every part an action can involve; owners read
by their shapes and names, not by colour."""

from __future__ import annotations

import random

import pytest

from render_helpers import decisions, read
from showdown_helpers import NAMES, new_game, table
from spacetable.engine import load
from spacetable.games.showdown.content import COUNTERMEASURES
from spacetable.games.showdown.rules.actions import Hack
from spacetable.games.showdown.rules.state import Boarder, ShowdownState, Token
from spacetable.games.showdown.views.render import (
    COMPACT_COLUMNS,
    COMPACT_ROWS,
    MARKS,
    compact,
    part,
    render,
)
from spacetable.games.showdown.views.web_words import shape_name

CROWDED = {"engine": 3, "weapon": 3, "engineer": 2, "gunner": 2, "pilot": 2, "cryo": 2, "hacking": 1}
"""A mat of every kind of card (a xenotech among them)."""


def _fits(markup: str) -> None:
    columns, rows = read(markup).size
    assert columns <= COMPACT_COLUMNS and rows <= COMPACT_ROWS, "\n".join(read(markup).lines)


def _parts_of_legal_actions(state: ShowdownState, seat: int) -> set[str]:
    return {p for action in state.legal_actions(seat) for p in state.game.action_parts(action)}


def _always_drawn(state: ShowdownState, seat: int) -> set[str]:
    """Parts on the table whatever is legal: one's captain and hull, every other ship afloat."""
    ships = {f"captain:{p}" for p, status in enumerate(state.status) if p != seat and status != "destroyed"}
    return ships | {"mine:captain", "use:hull" if state.phase == "draft" else "mine:hull"}


TABLES = [(2, None, 3), (3, None, 4), (4, 3, 4), (5, None, 5), (6, None, 8)]
"""Seats, the house rule's round of fire, and the seed of a random game: together they go through
the draft, turns, combat, boarding (each stage) and ships on fire."""


def test_the_compact_table_fits_the_panel_and_both_tables_tag_every_part_of_every_legal_action() -> None:
    seen: set[str] = set()
    for players, fire_round, seed in TABLES:
        state = load("showdown", players, {"fire_round": fire_round}).new_initial_state()
        for k, seat in enumerate(decisions(state, random.Random(seed))):
            board = read(compact(state, seat))
            columns, rows = board.size
            assert columns <= COMPACT_COLUMNS and rows <= COMPACT_ROWS, "\n".join(board.lines)
            wanted = _parts_of_legal_actions(state, seat)
            missing = (wanted | _always_drawn(state, seat)) - board.parts.keys()
            assert not missing, (state.phase, state.pending, missing)
            if k % 5 == 0:  # the full table, less often
                assert wanted <= read(render(state, seat)).parts.keys(), (state.phase, state.pending)
            seen.add(f"{state.pending['kind']}:{state.pending['stage']}" if state.pending else state.phase)
    stages = {"attack:commit", "attack:react", "board:mode", "board:react", "board:defend", "board:loot"}
    assert {"draft", "turn", "fire"} | stages <= seen


def test_a_xenotech_in_progress_asks_its_target_to_react() -> None:
    state = table([{"hacking": 1}, {"weapon": 1}], cms=[[], ["energy_shields"]], energy=[5, 2])
    assert "ship:1:weapon" in read(compact(state, 0)).parts  # the hacker aims at the weapon itself
    state.apply_action(Hack(1, "weapon"), 0)
    for draw in (compact, render):
        board = read(draw(state, 1))
        assert any("Hacking: ▲ Kathryn → ● Han's Weapon" in line for line in board.lines), board.lines
        assert _parts_of_legal_actions(state, 1) == {"mycm:0", "deploy:plain", "deploy:boost", "react:done"}
        assert {"mycm:0", "deploy:plain", "deploy:boost", "react:done"} <= board.parts.keys()


def _crowded(players: int, cms: int) -> ShowdownState:
    """A table of ``players`` full mats, each with ``cms`` countermeasures, at the start of seat 0's turn."""
    kinds = list(COUNTERMEASURES)
    return table(
        [dict(CROWDED)] * players, cms=[[kinds[(p + i) % len(kinds)] for i in range(cms)] for p in range(players)]
    )


@pytest.mark.parametrize(("cms", "short", "cut"), [(0, False, False), (8, True, False), (24, True, True)])
def test_a_crowded_table_takes_short_names_then_a_line_a_mat(cms: int, short: bool, cut: bool) -> None:
    state = _crowded(6, cms)
    board = read(compact(state, 0))
    assert ("Wpn×3" in board.lines[1]) == short  # the viewer's mat, with the short names where needed
    assert any(line.endswith("…") for line in board.lines) == cut  # the others cut to a line each
    for seat in (0, 3, None):
        markup = compact(state, seat)
        _fits(markup)
        board = read(markup)
        for p in range(6):  # every captain is still there, by shape and name, to click on
            assert any(f"{MARKS[shape_name(p)]} {NAMES[p]}" in line for line in board.lines), (p, seat)
            if p != seat:
                assert f"captain:{p}" in board.parts
        if seat is not None:
            assert _parts_of_legal_actions(state, seat) <= board.parts.keys()


def test_owners_read_by_shape_and_name_without_colour() -> None:
    state = table(
        [{"weapon": 2}, {"hacking": 1, "gunner": 1}, {"psionics": 1, "pilot": 1}], cms=[["nitro_fuel"], [], []]
    )
    state.tokens = [Token(1, "hacking", 0, "weapon", 0), Token(2, "psionics", 1, "gunner", 0)]
    state.boarders = [Boarder(1, "gunner", 0, 0, "sabotage")]
    marks = [MARKS[shape_name(p)] for p in range(3)]
    assert len(set(MARKS.values())) == len(MARKS) and "▮" not in MARKS.values()  # no mark is a hull token
    for draw in (render, compact):
        lines = read(draw(state, 0)).lines
        assert lines[1].startswith(f"{marks[0]} {NAMES[0]} (you)")
        if draw is compact:  # the disabled weapon and the boarder carry their owners' shapes
            own = " ".join(lines[1:3])
            assert f"Weapon×2⊘{marks[1]}" in own and f"aboard: {marks[1]}Gunner sabotaging" in own
        else:
            assert any(f"Hacking on Weapon (until {marks[1]} {NAMES[1]}'s turn ends)" in line for line in lines)
        assert any(line.startswith(f"{marks[2]} {NAMES[2]}") for line in lines)
    turn = read(compact(state, 0)).lines[0]
    assert f"{marks[0]} {NAMES[0]}'s turn" in turn


def test_a_long_hand_wraps_between_cards() -> None:
    game = new_game(6)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.phase != "draft":
        state.apply_action(state.sample_chance(rng))
    state.hands[0] = ["frequency_scrambler", "ai", "security_drone", "energy_shields", "armor_plating", "adrenal_stim"]
    board = read(compact(state, 0))
    _fits(compact(state, 0))
    shown = "\n".join(board.lines)
    for name in ("Frequency Scrambler", "Artificial Intelligence", "Security Drone", "Energy Shields"):
        assert name in shown  # never cut in two across lines
    assert {f"hand:{card}" for card in state.hands[0]} | {"use:play", "use:hull"} <= board.parts.keys()


def test_a_part_id_that_could_break_the_markup_is_refused() -> None:
    assert part("do:end", "x") == "[@part='do:end']x[/]" and part(None, "x") == "x"
    for bad in ("it's", "a]b", "a[b"):
        with pytest.raises(ValueError, match="part id"):
            part(bad, "x")
