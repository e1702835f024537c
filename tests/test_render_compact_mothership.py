"""Mothership's terminal boards for the terminal app: every part a move involves is tagged on the
compact board, which fits 78x15 for every grid, and owners read without colour."""

from __future__ import annotations

import collections
import random
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from mothership_helpers import BOMBER_1, CARDS, FIGHTER_1, MOTHERSHIP, cell, holding, new_game, position
from render_helpers import varied_decisions
from spacetable.engine import State, load
from spacetable.games.mothership.rules.state import NOWHERE, MothershipState
from spacetable.games.mothership.views.render import COMPACT_COLUMNS, COMPACT_ROWS, compact, render

EXPANSION = {
    "exploration": True,
    "objectives": "hidden",
    "beacons": True,
    "black_holes": True,
    "neutron_stars": True,
    "random_event": True,
}


def read(markup: str) -> tuple[list[str], dict[str, list[str]]]:
    """The plain lines of ``markup``, and each part tagged in it with the plain text of each of its places."""
    text = Text.from_markup(markup)
    parts: dict[str, list[str]] = collections.defaultdict(list)
    for span in text.spans:
        part = span.style.meta.get("@part") if isinstance(span.style, Style) else None
        if isinstance(part, str):
            parts[part].append(text.plain[span.start : span.end])
    return text.plain.split("\n"), parts


def decisions(players: int, options: dict[str, Any], seed: int, count: int) -> Iterator[tuple[MothershipState, int]]:
    """The first ``count`` decisions of a seeded random game, each seat asked with the position."""
    state = load("mothership", players=players, options=options).new_initial_state()
    assert isinstance(state, MothershipState)
    for seat in varied_decisions(state, random.Random(seed), count):
        yield state, seat


def assert_fits(lines: list[str]) -> None:
    assert len(lines) <= COMPACT_ROWS and max(map(cell_len, lines)) <= COMPACT_COLUMNS, "\n".join(lines)


def assert_tagged(state: State, seat: int, markup: str) -> list[str]:
    """Every part of every move of ``seat`` is tagged in ``markup``; its plain lines."""
    lines, tagged = read(markup)
    for action in state.legal_actions(seat):
        for part in state.game.action_parts(action):
            assert not set("'\"[]") & set(part), part  # safe inside [@part='...']
            assert part in tagged, (part, action, "\n".join(lines))
    return lines


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {}, 1), (4, {}, 2), (1, {"mode": "solo"}, 8), (3, EXPANSION, 4)],
    ids=["2p", "4p", "solo", "3p-expansion"],
)
def test_every_part_of_every_move_is_tagged_on_the_compact_board(
    players: int, options: dict[str, Any], seed: int
) -> None:
    moves = 0
    for n, (state, seat) in enumerate(decisions(players, options, seed, 50)):
        assert_fits(assert_tagged(state, seat, compact(state, seat)))
        if n % 10 == 0:  # the full board tags them too (a slower read: now and then)
            assert_tagged(state, seat, render(state, seat))
        moves += len(state.legal_actions(seat))
    assert moves > 400


@pytest.mark.parametrize(
    ("players", "options"),
    [(6, {}), (5, {"team_size": 1, "beacons": True}), (2, {"board": "large"}), (4, {"team_size": 2})],
)
def test_the_compact_board_fits_every_grid(players: int, options: dict[str, Any]) -> None:
    for state, seat in decisions(players, options, 5, 15):
        lines = read(compact(state, seat))[0]
        assert_fits(lines)
        if state.game.size == 15:  # no room for the column letters' line: the top row shows them
            letters = sum(lines[0][5 + 3 * c] == chr(ord("A") + c) for c in range(15))
            assert lines[0].startswith("  1") and letters >= 8, lines[0]


def test_owners_read_without_colour() -> None:
    """Each unit and planet shows its owner's digit; the viewer's own ships tag their letter with
    ``unit:<ship>`` and their digit with ``unit:<seat>:<ship>`` (cards that pick any fleet's ship)."""
    state = position({(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "F5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "H2"})
    state.owner[0] = 1
    shown = read(compact(state, 0))[1]
    spaces = [shown[f"cell:{name}"] for name in ("E5", "F5", "E6", "H2", "B2", "J10")]
    assert spaces == [[" M1"], [" f1"], [" f2"], [" b2"], [" S1"], [" S2"]]
    assert (shown["unit:0"], shown["unit:0:0"], shown["unit:1:1"]) == (["M"], ["1"], ["f2"])
    assert sorted(shown["station:1"]) == ["P2", "S2"]  # the station, and the player's name (cards target a player)
    assert (shown["planet:0"], shown["planet:1"]) == (["P2"], ["P."])


def test_cards_in_hand_and_their_targets_are_tagged() -> None:
    state = position({(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "F5", (1, FIGHTER_1): "E6"})
    holding(state, 0, "prod", "wormhole", "life_support", "afterburner")
    state.resources[0] = 20
    assert any(action[-1] == "play" for action in state.legal_actions(0))
    small = compact(state, 0)
    assert_fits(assert_tagged(state, 0, small))
    assert len(state.legal_actions(0)) > 50
    shown = read(small)[1]
    assert shown["subsystem:1:engines"] == ["E5"] and shown["end_turn"] == ["[End the turn]"]


@pytest.mark.parametrize("branches", [(0, 2, 4), (1, 3, 5)], ids=["mining-torpedoes-tractor", "gates-missile-hangar"])
def test_abilities_of_a_complete_tree_are_tagged(branches: tuple[int, ...]) -> None:
    """Random play seldom climbs a branch to its ability: every branch of a category, completed."""
    state = position({(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "F5", (0, BOMBER_1): "D4", (1, MOTHERSHIP): "G7"})
    for branch in branches:
        category = state.game.branch_categories[branch]
        state.branches[0][category], state.tiers[0][category] = branch, 5
    state._legal_cache = None
    assert sum(action[-1] == "ability" for action in state.legal_actions(0)) >= 2
    assert_fits(assert_tagged(state, 0, compact(state, 0)))


def test_answering_a_distress_beacon_is_tagged() -> None:
    state = position({(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "F5"}, game=new_game(2, beacons=True))
    state.tokens = [[cell("F5"), 1]]  # a beacon calling for a fighter, under Fighter 1
    state._legal_cache = None
    assert_fits(assert_tagged(state, 0, compact(state, 0)))
    assert read(compact(state, 0))[1]["activate:1"] == ["[Beacon F5]"]


def test_a_crowded_panel_beside_the_largest_grid_still_holds_every_part() -> None:
    """Six fleets (a 15x15 grid, 28 columns left for the panel), ten cards in hand, three
    abilities, secret objectives, ships lost: the names narrow until the panel fits."""
    options = {"exploration": True, "objectives": "hidden", "beacons": True, "mode": "victory_points"}
    state, seat = next(
        (s, seat)
        for s, seat in decisions(6, options, 3, 400)
        if s.phase == "turn" and s.turn == seat and s.round > 1 and not (s.pending or s.choice)
    )
    keys = ("prod", "wormhole", "life_support", "afterburner", "git_off_mah_propertay", "antiques_roadshow")
    state.hands[seat] = sorted(
        CARDS[key] for key in (*keys, "gravity_manipulator", "panic_button", "railguns", "noooo")
    )
    state.resources[seat] = 40
    for branch in (1, 3, 5):
        category = state.game.branch_categories[branch]
        state.branches[seat][category], state.tiers[seat][category] = branch, 5
    for ship in (2, 4):
        state.grid[state.pos[seat][ship]], state.pos[seat][ship] = -1, NOWHERE
    state._legal_cache = None
    assert {"play", "ability", "replace_objective", "energy"} <= {action[-1] for action in state.legal_actions(seat)}
    assert_fits(assert_tagged(state, seat, compact(state, seat)))
