"""Mothership's words at the table: the guide line for the seat to act, the others and a
spectator, and the end screen's explanation in each mode (who won, how, what the scores count)."""

from __future__ import annotations

import random

import pytest

import spacetable
from spacetable.engine import State


def finished(options: dict[str, object], players: int, seed: int = 1) -> State:
    """A game played at random to its end."""
    game = spacetable.load("mothership", players, options)
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return state


@pytest.mark.parametrize(
    ("options", "players", "counts"),
    [
        ({}, 2, "2 a ship, 3 a planet"),
        ({"mode": "victory_points", "round_limit": 6}, 2, "victory points"),
        ({"mode": "solo", "round_limit": 4}, 1, "NPC fleet has no ship left"),
    ],
    ids=["standard", "victory points", "solo"],
)
def test_the_end_screen_says_who_won_how_and_what_the_scores_count(
    options: dict[str, object], players: int, counts: str
) -> None:
    state = finished(options, players)
    game, outcome = state.game, state.outcome()
    assert outcome is not None
    for seat in (*range(players), None):
        words = game.explain_outcome(state.view(seat), outcome, seat)
        assert outcome.reason in words and counts in words
        if seat is not None and seat in outcome.winners:
            assert words.startswith("You win")
        elif outcome.winners:
            assert words.startswith(f"Player {outcome.winners[0] + 1}")
        else:
            assert words.startswith("The NPC fleet wins" if players == 1 else "Nobody wins")


def test_the_guide_names_the_seat_to_act_for_the_others_and_asks_it_what_to_do() -> None:
    game = spacetable.load("mothership", 2)
    state, rng = game.new_initial_state(), random.Random(4)
    seen = 0
    while not state.is_terminal() and seen < 60:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.awaiting()[0]
        legal = state.legal_actions(seat)
        lines = {s: game.guide(state.view(s), s, legal if s == seat else ()) for s in (0, 1, None)}
        assert all(lines.values()), lines
        if state.view(None)["phase"] == "turn":
            assert f"Player {seat + 1}" in lines[None] and f"Player {seat + 1}" in lines[1 - seat], lines
            assert lines[seat] != lines[None]
            seen += 1
        state.apply_action(rng.choice(legal), seat)
    assert seen == 60
