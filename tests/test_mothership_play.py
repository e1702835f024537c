"""Mothership as a whole: conformance with the options that change the flow of play, the bots,
the evaluation, the terminal picture and menu, and the command line."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import spacetable
from budget import playouts, rounds
from mothership_helpers import FIGHTER_1, FIGHTER_2, MOTHERSHIP, cell, play, position
from spacetable.agents import GreedyAgent, RandomAgent
from spacetable.cli.main import app
from spacetable.engine import Game, Roll
from spacetable.engine import play as play_game
from spacetable.games.mothership.rules.actions import Attack, EndTurn
from spacetable.games.mothership.views.render import action_groups, render
from spacetable.testing.conformance import CHECKS, Check

VARIANTS = {
    "teams of 2": spacetable.load("mothership", 4, {"team_size": 2, "round_limit": rounds(3, 5)}),
    "6 players, example layout, extra planets": pytest.param(
        spacetable.load("mothership", 6, {"layout": "example", "extra_planets": True, "round_limit": rounds(2, 3)}),
        marks=pytest.mark.soak,  # the largest table: make soak checks it, CI's ten minutes being short
    ),
    "3 players, large generated board": spacetable.load(
        "mothership", 3, {"board": "large", "round_limit": rounds(4, 6)}
    ),
    "random events": spacetable.load("mothership", 3, {"random_event": True, "round_limit": rounds(5, 8)}),
}


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize("game", VARIANTS.values(), ids=VARIANTS.keys())
def test_mothership_conforms(game: Game, check: Check) -> None:
    check(game, n=1 if game.players == 6 else playouts(1, 2))  # six fleets: one long game walked


def test_greedy_beats_random() -> None:
    game = spacetable.load("mothership", 2, {"layout": "duel", "round_limit": 30})
    rng = random.Random(5)
    wins = 0
    for number in range(4):
        greedy = number % 2
        seats = [RandomAgent(), GreedyAgent()] if greedy else [GreedyAgent(), RandomAgent()]
        final = play_game(game, seats, rng)
        wins += greedy in final.outcome().winners  # type: ignore[union-attr]
    assert wins == 4


def test_the_evaluation_counts_a_dogfight_in_progress_by_its_odds() -> None:
    state = position({(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, FIGHTER_1): "E6"})
    before = state.game.evaluate(state, 0)
    play(state, Attack(0b110, 1 * 7 + FIGHTER_1))  # two d6 against one
    assert state.game.evaluate(state, 0) > before
    play(state, Roll(1), Roll(1))  # 2: it will most likely lose both fighters
    assert state.game.evaluate(state, 0) < before


def test_render_shows_the_grid_the_panels_and_only_the_seats_own_resources() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "H2"})
    state.resources = [4, 7]
    state.owner[0] = 1
    text = render(state, 0)
    assert "Round 1" in text and "M1" in text and "f2" in text and "S1" in text and "P2" in text and "##" in text
    assert "resources 4" in text and "resources 7" not in text and "resources ?" in text


def test_the_menu_asks_for_a_unit_first() -> None:
    state = position({(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "F5", (1, FIGHTER_1): "E6"})
    groups = dict(action_groups(state, state.legal_actions()) or [])
    assert set(groups) == {
        "control panel (energy)",
        "Mothership at E5",
        "Fighter 1 at F5",
        "attack with several ships",
        "collect resources and end the turn",
    }
    assert groups["collect resources and end the turn"] == [EndTurn()]
    assert all(a.kind in ("move", "attack") for a in groups["Fighter 1 at F5"])
    assert cell("F5") not in [a.cell for a in groups["Mothership at E5"] if a.kind == "move"]


runner = CliRunner()


def test_a_human_places_the_fleet_in_the_terminal() -> None:
    game = spacetable.load("mothership", 2, {"layout": "duel"})
    auto_place = len(game.new_initial_state().legal_actions())  # the last entry of the menu
    result = runner.invoke(
        app, ["play", "mothership", "--players", "2", "-o", "layout=duel", "--seed", "2"], input=f"{auto_place}\nq\ny\n"
    )
    assert result.exit_code == 0, result.output
    assert "place the rest in the standard formation" in result.output
    assert "Player 1's Bomber 2 is placed" in result.output
    assert "Player 1: mothership 12 HP" in result.output


def test_a_batch_prints_win_rates_by_seat_and_how_games_ended() -> None:
    result = runner.invoke(
        app, ["play", "mothership", "--players", "2", "--games", "2", "-o", "layout=duel", "-o", "round_limit=8"]
    )
    assert result.exit_code == 0, result.output
    assert "seat 0 (bot:greedy)" in result.output and "How the games ended" in result.output
