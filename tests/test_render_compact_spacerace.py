"""SpaceRace's terminal boards for the terminal app: every part a move involves is tagged on the
compact board, which fits 78x15 at every map size, and owners read without colour."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from render_helpers import varied_decisions
from spacerace_helpers import DENEB, NEXUS, RIGEL, SIRIUS, VEGA, VEGA_ALTAIR, new_game, position, ship
from spacetable.engine import load
from spacetable.games.spacerace.rules.state import SpaceRaceState
from spacetable.games.spacerace.views.render import COMPACT_COLUMNS, COMPACT_ROWS, compact, render

RED, BLUE = 0, 1


def shown_parts(markup: str) -> dict[str, str]:
    """Each part tagged in ``markup`` and the plain text it covers (its first place)."""
    text = Text.from_markup(markup)
    parts: dict[str, str] = {}
    for span in text.spans:
        part = span.style.meta.get("@part") if isinstance(span.style, Style) else None
        if isinstance(part, str):
            parts.setdefault(part, text.plain[span.start : span.end])
    return parts


def decisions(players: int, options: dict[str, Any], seed: int, count: int) -> Iterator[tuple[SpaceRaceState, int]]:
    """The first ``count`` decisions of a seeded random game, each seat asked with the position."""
    state = load("spacerace", players=players, options=options).new_initial_state()
    assert isinstance(state, SpaceRaceState)
    for seat in varied_decisions(state, random.Random(seed), count):
        yield state, seat


def assert_fits(markup: str) -> None:
    lines = Text.from_markup(markup).plain.split("\n")
    assert len(lines) <= COMPACT_ROWS and max(map(cell_len, lines)) <= COMPACT_COLUMNS, "\n".join(lines)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_every_part_of_every_move_is_tagged_on_both_boards(players: int, seed: int) -> None:
    checked = 0
    for state, seat in decisions(players, {}, seed, 60):
        small, full = compact(state, seat), render(state, seat)
        assert_fits(small)
        on_small, on_full = set(shown_parts(small)), set(shown_parts(full))
        for action in state.legal_actions(seat):
            parts = state.game.action_parts(action)
            assert parts, action  # every move of SpaceRace has a place on the board
            for part in parts:
                assert not set("'\"[]") & set(part), part  # safe inside [@part='...']
                assert part in on_small and part in on_full, (part, action, Text.from_markup(small).plain)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (6, {"arm_planets": 4, "extra_planets": 6}),  # the most lines and the longest arms
        (5, {"arm_planets": 3, "extra_planets": 3, "turn_limit": 50}),
        (2, {"arm_planets": 1, "extra_planets": 0}),
    ],
)
def test_the_compact_board_fits_every_map_size(players: int, options: dict[str, Any]) -> None:
    for state, seat in decisions(players, options, 7, 60):
        assert_fits(compact(state, seat))


def test_owners_read_without_colour() -> None:
    """Regression: Blue's homeworld was drawn as an unclaimed planet's letter, told apart by its
    colour only. Map keys: A Vega, B Rigel, C Altair, D Deneb, E Sirius."""
    game = new_game()
    state = position(
        game,
        owner={DENEB: BLUE},
        fleets=[[ship(VEGA_ALTAIR[1]), ship(VEGA_ALTAIR[2], card=0)], [ship(NEXUS), ship(VEGA_ALTAIR[2], card=1)]],
    )
    for markup in (compact(state, RED), render(state, RED)):
        shown = shown_parts(markup)
        assert shown[f"planet:{RIGEL}"] == "BB"  # Blue's homeworld: upper case Blue's initial
        assert shown[f"planet:{VEGA}"] == "AR"
        assert shown[f"planet:{DENEB}"] == "Db"  # held by Blue
        assert shown[f"planet:{SIRIUS}"] == "E."  # unclaimed
        assert shown[f"tile:{VEGA_ALTAIR[1]}"] == "1r"  # a Red ship on the tile
        assert shown[f"tile:{VEGA_ALTAIR[2]}"] == "2+"  # ships of two players
        assert shown[f"tile:{VEGA_ALTAIR[0]}"] == " ·"
        plain = Text.from_markup(markup).plain
        assert "@ Nexus 1b" in plain  # ships at the Nexus by owner
    legend = Text.from_markup(render(state)).plain
    assert "AR: Red's homeworld" in legend and "A. unclaimed" in legend and "r Red, b Blue" in legend
