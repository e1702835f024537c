"""Mothership's expansion modules together: the option checks, the card language's content
validation, conformance with all four modules on in free-for-all, team and victory-point games,
and greedy bots finishing such games with the designers' card figures reported."""

from __future__ import annotations

import random
from typing import Any

import pytest

import spacetable
from budget import playouts, rounds
from spacetable.agents import GreedyAgent
from spacetable.engine import ContentError, Game, OptionsError
from spacetable.engine import play as play_game
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.game import Mothership
from spacetable.testing.conformance import CHECKS, Check

ALL = {"neutron_stars": True, "black_holes": True, "beacons": True, "exploration": True}


def expansion(players: int, **options: Any) -> Mothership:
    game = spacetable.load("mothership", players, {**ALL, "objectives": "hidden", **options})
    assert isinstance(game, Mothership)
    return game


# ---- options and content ------------------------------------------------------------------------


def test_objectives_need_exploration_and_the_modules_need_two_players() -> None:
    with pytest.raises(OptionsError, match="objectives need planetary exploration"):
        spacetable.load("mothership", 2, {"objectives": "hidden"})
    with pytest.raises(OptionsError, match="for 2 to 6 players"):
        spacetable.load("mothership", 1, {"beacons": True})


def test_the_description_names_the_modules() -> None:
    assert expansion(2).describe() == (
        "Mothership, 2 players on a generated 13x13 board, with planetary exploration, neutron stars, "
        "black holes, beacons, hidden objectives"
    )


BEACON = {
    "name": "Test Card",
    "story": "A test.",
    "options": [{"text": "Take it.", "effects": ["resources 2"]}, {"text": "Leave it."}],
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"options": [{"text": "a", "effects": ["resources two"]}, {"text": "b"}]}, "'two' is not a whole number"),
        ({"options": [{"text": "a", "effects": ["teleport 2"]}, {"text": "b"}]}, "begin with one of"),
        ({"options": [{"text": "a", "needs": ["luck >= 2"]}, {"text": "b"}]}, "write QUANTITY OP N"),
        ({"options": [{"text": "a", "needs": ["near sun"]}, {"text": "b"}]}, "near one of"),
        ({"options": [{"text": "a", "effects": ["warp home"]}, {"text": "b"}]}, "warp takes where to"),
        ({"options": [{"text": "a", "otherwise": ["damage 2"]}, {"text": "b"}]}, "it needs a test"),
        ({"decide": "d6", "options": [{"text": "a", "faces": [1, 3]}, {"text": "b", "faces": [3, 6]}]}, "each face"),
        ({"decide": "d7", "options": [{"text": "a", "faces": [1, 3]}, {"text": "b", "faces": [4, 7]}]}, "die 'd7'"),
        ({"options": [{"text": "a", "faces": [1, 3]}, {"text": "b"}]}, "decide = 'dN'"),
        ({"requires": ["hyperspace"]}, "unknown modules"),
        ({"options": [{"text": "a", "effects": ["development"]}, {"text": "b"}]}, "planetary_development"),
    ],
)
def test_a_beacon_card_with_a_mistake_is_a_clear_content_error(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ContentError, match=message):
        load_content({"beacons": {"broken": {**BEACON, **change}}})


def test_an_objective_rewards_only_with_the_rulebook_s_reward_kinds() -> None:
    card = {"name": "Broken", "text": "Hold a planet.", "goal": ["planets >= 1"]}
    with pytest.raises(ContentError, match="an objective rewards with"):
        load_content({"objectives": {"broken": {**card, "rewards": [["warp anywhere"], ["resources 1"]]}}})
    with pytest.raises(ContentError, match="no 'near'"):
        load_content(
            {"objectives": {"broken": {**card, "goal": ["near planet"], "rewards": [["points 1"], ["cards 1"]]}}}
        )


def test_the_authored_cards_load() -> None:
    content = load_content()
    assert len(content.beacons) >= 24 and len(content.objectives) >= 18


# ---- whole games --------------------------------------------------------------------------------

VARIANTS = {
    "free for all, 3 players": expansion(3, round_limit=rounds(5, 8)),
    "teams of 2": expansion(4, team_size=2, round_limit=4),  # in make soak only, at make test's budget
    "victory points, global objectives": expansion(
        3, mode="victory_points", objectives="global", round_limit=rounds(5, 6)
    ),
}


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize(
    "game",
    # teams of two in `make soak` only (CI's ten minutes: about 16 s of checks)
    [pytest.param(g, marks=pytest.mark.soak) if name == "teams of 2" else g for name, g in VARIANTS.items()],
    ids=VARIANTS.keys(),
)
def test_games_with_every_module_conform(game: Game, check: Check) -> None:
    check(game, n=playouts(1, 2))


def test_greedy_bots_finish_a_game_with_every_module_and_report_the_cards() -> None:
    game = expansion(2, round_limit=10)
    final = play_game(game, [GreedyAgent(), GreedyAgent()], random.Random(3))
    assert final.is_terminal()
    figures = game.statistics(final)
    drawn = sum(f.value for name, f in figures.items() if name.startswith("beacon ") and name.endswith(": drawn"))
    dealt = sum(f.value for name, f in figures.items() if name.startswith("objective ") and name.endswith(": drawn"))
    assert dealt >= 4  # two objectives dealt to each player, at least
    assert drawn == sum(row[0] for row in final.beacon_log)
