"""Mothership's quick values (``Game.quick_values``): what the greedy bot takes instead of playing a
move or a control panel setting out is the evaluation of the position that action reaches."""

from __future__ import annotations

import random
from typing import Any

import pytest

import spacetable
from spacetable.agents import GreedyAgent
from spacetable.agents.greedy import expected_value
from spacetable.engine import play
from spacetable.games.mothership.modules import objectives
from spacetable.games.mothership.rules.board import ASTEROID

VARIANTS = {
    "default": (4, {"round_limit": 8}),
    "teams": (4, {"round_limit": 8, "team_size": 2}),
    "victory points": (3, {"round_limit": 8, "mode": "victory_points"}),
    "extra planets": (2, {"round_limit": 8, "extra_planets": True}),
    "neutron stars": (4, {"round_limit": 8, "neutron_stars": True}),
    "every module": (
        4,
        {"round_limit": 8, "neutron_stars": True, "black_holes": True, "beacons": True, "exploration": True}
        | {"objectives": "hidden"},
    ),
    "global objectives, random events": (
        4,
        {"round_limit": 8, "objectives": "global", "exploration": True, "beacons": True, "random_event": True},
    ),
    "solo": (1, {"round_limit": 8}),
}


NONE_TOLD = {"solo"}
"""The solo challenge's guards (where its ships stand near the station) count: no value is told."""


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_quick_value_is_the_evaluation_after_the_action(variant: str) -> None:
    players, options = VARIANTS[variant]
    game = spacetable.load("mothership", players, options)
    rng = random.Random(11)
    checked = turns = asteroids = traded = 0
    for _ in range(2):
        state: Any = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            seat = state.awaiting()[0]
            actions = state.legal_actions(seat)
            turns += state.to_json()["phase"] == "turn"
            quick = game.quick_values(state, seat, actions) or []
            told = [(action, value) for action, value in zip(actions, quick) if value is not None]
            rough = [(a, v) for a, v in told if a[-1] == "move" and state.board.terrain[a[1]] == ASTEROID]
            trades = [(a, v) for a, v in told if a[-1] in ("buy", "sell")]
            for action, value in rng.sample(told, min(4, len(told))) + rough[:2] + trades:
                asteroids += (action, value) in rough
                traded += (action, value) in trades
                if value is not None:
                    child = state.clone()
                    child.apply_action(action, seat)
                    assert value == pytest.approx(expected_value(child, seat), abs=1e-9), action
                    checked += 1
            state.apply_action(rng.choice(actions), seat)
    assert turns > 50
    if variant in NONE_TOLD:
        assert checked == 0
    else:
        assert checked > 200 and asteroids > 20 and traded > 5  # moves into asteroids, cards bought and sold


def test_quick_values_hold_along_a_greedy_game_with_every_module() -> None:
    """The greedy games' own positions, every told value checked: among them positions where an
    objective's goal already holds (a turn's first decision, or another seat's objective re-dealt
    by the bot's resample), which any action completes: the told values count the completion."""
    players, options = VARIANTS["every module"]
    game = spacetable.load("mothership", players, {**options, "round_limit": 3})
    checked = due = 0

    class Checking(GreedyAgent):
        def choose(self, state: Any, seat: int, rng: random.Random) -> Any:
            nonlocal checked, due
            actions = state.legal_actions(seat)
            for action, value in zip(actions, game.quick_values(state, seat, actions) or []):
                if value is not None:
                    due += bool(objectives.completions(state))
                    child = state.clone()
                    child.apply_action(action, seat)
                    assert value == pytest.approx(expected_value(child, seat), abs=1e-9), action
                    checked += 1
            return super().choose(state, seat, rng)

    play(game, [Checking() for _ in range(players)], random.Random(0))
    assert checked > 500 and due > 20
