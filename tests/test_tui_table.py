"""The full-screen terminal table, driven by Textual's pilot as a person would, by keys and by
mouse, at 80x24 and 120x50: the prompt is the engine's decision, every move made is the one
chosen, and nothing pokes out of the screen."""

from __future__ import annotations

import random

import pytest

from spacetable.agents import make_agent
from spacetable.engine import load
from tui_helpers import Chooser, check_screen, choose_by_keys, choose_by_mouse, run, settle, table

OPENINGS = {
    # game, players, options: the first decisions of a person in seat 0, the others random bots
    "showdown": (4, {}),
    "spacerace": (3, {}),
    "mothership": (4, {}),
    "mothership-solo": (1, {"mode": "solo"}),
}


async def play_through(
    game_id: str, players: int, options: dict, size: tuple[int, int], choose: Chooser, decisions: int
) -> int:
    """Play ``decisions`` of seat 0's decisions (or until the game ends, or seat 0 is out of it);
    return how many were made, or ``decisions`` where the game ended first."""
    game = load(game_id.removesuffix("-solo"), players=players, options=options)
    app = table(game, [None] + [make_agent("random") for _ in range(players - 1)], seed=3)
    rng = random.Random(5)
    made = 0
    async with app.run_test(size=size) as pilot:
        while made < decisions:
            decision = await settle(pilot, app)
            if decision is None:
                return decisions if app.final is not None and decisions < 10_000 else made
            check_screen(app, decision)
            before = len(app.record.actions)
            chosen = await choose(pilot, app, rng)
            await settle(pilot, app)
            assert len(app.record.actions) > before, "the move was not made"
            seat, data = app.record.actions[before]
            assert seat == decision.seat
            if chosen is not None:  # clicked on the board: exactly the move whose parts were clicked
                assert data == game.actions.to_json(chosen)
            made += 1
    return made


SOAK = pytest.mark.soak
"""Every run here is in `make soak` (CI runs both make test and make soak): about 5 s for an
opening and 25 s for a whole game would take a minute of `make test`'s ten; the table's manners
(tests/test_tui_behaviour.py) and its screens (tests/test_tui_snapshots.py) stay in make test."""


@pytest.mark.parametrize(
    ("how", "size"),
    [
        # each way of playing and each size once (the openings below cross them all)
        pytest.param("mouse", (80, 24), id="mouse-80x24", marks=SOAK),
        pytest.param("keys", (120, 50), id="keys-120x50", marks=SOAK),
    ],
)
def test_a_whole_falling_skies_game(how: str, size: tuple[int, int]) -> None:
    choose = choose_by_keys if how == "keys" else choose_by_mouse
    made = run(play_through("falling-skies", 1, {}, size, choose, decisions=10_000))
    assert made > 20


@pytest.mark.parametrize(
    ("how", "size", "decisions"),
    [
        pytest.param("keys", (80, 24), 5, id="keys-80x24", marks=SOAK),
        pytest.param("mouse", (80, 24), 5, id="mouse-80x24", marks=SOAK),
        pytest.param("keys", (120, 50), 12, id="keys-120x50", marks=SOAK),
        pytest.param("mouse", (120, 50), 12, id="mouse-120x50", marks=SOAK),
    ],
)
@pytest.mark.parametrize("game_id", list(OPENINGS))
def test_the_first_rounds(game_id: str, how: str, size: tuple[int, int], decisions: int) -> None:
    players, options = OPENINGS[game_id]
    choose = choose_by_keys if how == "keys" else choose_by_mouse
    assert run(play_through(game_id, players, options, size, choose, decisions)) == decisions
