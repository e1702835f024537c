"""Showdown through the front ends: the terminal table, the CLI, content files and the bots."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import pytest
from rich.text import Text
from typer.testing import CliRunner

import spacetable
from showdown_helpers import NAMES, new_game
from spacetable.agents import GreedyAgent, RandomAgent
from spacetable.cli.main import app
from spacetable.engine import OptionsError, Record, play
from spacetable.games.showdown.rules.state import ShowdownState
from spacetable.games.showdown.views import render

runner = CliRunner()


def _positions(players: int, seed: int) -> list[ShowdownState]:
    """Every position of one random game."""
    state = cast(ShowdownState, spacetable.load("showdown", players).new_initial_state())
    rng = random.Random(seed)
    seen = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = rng.choice(state.awaiting())
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        seen.append(state.clone())
    return seen


def test_every_position_renders_as_valid_markup_for_every_seat() -> None:
    for state in _positions(4, 1)[::3]:
        for seat in (None, 0, 1, 2, 3):
            text = Text.from_markup(render.render(state, seat)).plain  # raises on broken markup
            assert max(len(line) for line in text.splitlines()) <= 120
        for action in state.legal_actions(state.awaiting()[0]) if state.awaiting() else []:
            assert state.action_label(action) != repr(action)


def test_the_table_shows_a_seat_its_own_hand_and_nobody_elses() -> None:
    state = next(s for s in _positions(4, 2) if s.phase == "draft")
    text = Text.from_markup(render.render(state, 1)).plain
    assert text.count("your hand") == 1
    assert text.count("behind the screen") == 3  # the other three mats are hidden until the reveal
    hand = ", ".join(render.card_name(c) for c in state.hands[1])
    assert f"your hand: {hand}" in text
    spectator = Text.from_markup(render.render(state, None)).plain
    assert "your hand" not in spectator


def test_face_down_countermeasures_show_only_to_their_owner() -> None:
    state = next(s for s in _positions(4, 3) if s.phase == "turn" and any(s.cms[p] for p in range(4)))
    owner = next(p for p in range(4) if any(not c.known for c in state.cms[p]))
    hidden = next(c for c in state.cms[owner] if not c.known)
    other = (owner + 1) % 4
    own_view = state.view(owner)["players"][owner]["countermeasures"]
    other_view = state.view(other)["players"][owner]["countermeasures"]
    assert hidden.card in [c["card"] for c in own_view]
    assert None in [c["card"] for c in other_view]


def test_draft_menu_groups_picks_by_card() -> None:
    state = next(s for s in _positions(3, 4) if s.phase == "draft")
    actions = state.legal_actions(0)
    groups = render.action_groups(state, actions)
    assert groups is not None
    assert sum(len(g) for _, g in groups) == len(actions)
    assert {label for label, _ in groups} == {render.card_name(c) for c in state.hands[0]}


def test_greedy_beats_random_at_a_four_player_table() -> None:
    game = spacetable.load("showdown", 4)
    rng = random.Random(11)
    wins = 0
    for _ in range(20):
        final = play(game, [GreedyAgent(), RandomAgent(), RandomAgent(), RandomAgent()], rng)
        outcome = final.outcome()
        wins += outcome is not None and 0 in outcome.winners
    assert wins >= 12  # the fair share is 5 of 20; greedy won 89.5% of 200 games in our measure


# ---- the command line -------------------------------------------------------------------------
def test_batch_prints_win_rates_by_seat_and_game_length() -> None:
    result = runner.invoke(app, ["play", "showdown", "--players", "4", "--games", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    for seat in range(4):
        assert f"seat {seat} (bot:greedy):" in result.output
    assert "3 games of showdown" in result.output and "rounds" in result.output


def test_a_human_captain_plays_a_whole_game_against_bots(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "showdown", "--players", "3", "--seat", "0=human", "--seed", "3", "--record", str(path)],
        input="1\n" * 5000,
    )
    assert result.exit_code == 0, result.output
    assert "Privacy screens come down" in result.output and "Game over" in result.output
    record = Record.loads(path.read_text())
    assert record.final_state().is_terminal()


def test_default_table_is_four_captains() -> None:
    assert spacetable.load("showdown").players == 4


def test_content_file_changes_the_deck_and_bad_content_is_refused(tmp_path: Path) -> None:
    game = new_game(4, start_hull=5)
    assert game.new_initial_state().intact == [5] * 4
    with pytest.raises(OptionsError, match="deck for 6 players has 68 cards"):
        spacetable.load("showdown", 6, {"content": {"cards": {"engine": {"6": 0}, "weapon": {"6": 0}}}})
    with pytest.raises(OptionsError, match="attack_success is above the highest face"):
        spacetable.load("showdown", 4, {"content": {"rules": {"attack_success": 9}}})
    bad = tmp_path / "bad.toml"
    bad.write_text('[[captains]]\nname = "Solo"\ncolor = "red"\n')
    result = runner.invoke(app, ["play", "showdown", "--games", "1", "--content", str(bad)])
    assert result.exit_code == 2 and "captains" in result.output


def test_captain_names_come_from_content() -> None:
    state = new_game(4).new_initial_state()
    assert [c.name for c in state.content.captains[:4]] == NAMES[:4]
