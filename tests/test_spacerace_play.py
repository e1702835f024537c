"""SpaceRace as a whole: the conformance suite at every table size and with the options that change
the flow of play, the bots, the heuristic and the terminal picture."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import spacetable
from budget import playouts
from spacerace_helpers import (
    ALTAIR,
    NEXUS,
    RIGEL,
    VEGA,
    Contest,
    DrawShip,
    EndTurn,
    Move,
    apply,
    new_game,
    position,
    ship,
    ship_card,
    tiles,
)
from spacetable.agents import GreedyAgent, RandomAgent
from spacetable.engine import Game, play
from spacetable.games.spacerace.views.render import action_groups, render
from spacetable.testing.conformance import CHECKS, Check

RED, BLUE = 0, 1


def bounded(players: int, **options: Any) -> Game:
    """A variant the conformance suite can check: random games must end within ``max_length``,
    which the rulebook's race lacks, so the batches' turn limit applies (RULINGS.md, ruling 34)."""
    return spacetable.load_finite("spacerace", players, options)


VARIANTS = {
    "3 players": bounded(3),
    "6 players": bounded(6),  # checked on fewer playouts below: its games are the longest
    "all ships move, cleared tiles": bounded(3, fleet_moves="all", encounters="cleared", turn_limit=15),
    "single strike, rolled map initiative, assault-only conquest": bounded(
        2, combat="single", map_initiative="roll", conquest_roll="assault", nexus_delay=0
    ),
    "no starways": bounded(2, arm_planets=1, extra_planets=0),
    "large dense map": bounded(4, arm_planets=4, extra_planets=6, density="dense", turn_limit=20),
    "the house rule last standing": bounded(3, last_standing=True),
}


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize("game", VARIANTS.values(), ids=VARIANTS.keys())
def test_spacerace_conforms(game: Game, check: Check) -> None:
    check(game, n=playouts(2, 3) if game.players == 6 else playouts(6, 9))


# ---- bots --------------------------------------------------------------------------------------


def test_greedy_beats_random() -> None:
    game = new_game(2)
    rng = random.Random(11)
    wins = 0
    for number in range(20):
        seats = [GreedyAgent(), RandomAgent()] if number % 2 == 0 else [RandomAgent(), GreedyAgent()]
        greedy = 0 if number % 2 == 0 else 1
        final = play(game, seats, rng)
        outcome = final.outcome()
        assert outcome is not None
        wins += outcome.winners == (greedy,)
    assert wins >= 16


def test_the_evaluation_prefers_a_planet_taken_and_a_battle_won() -> None:
    game = new_game()
    before = position(game, turn=RED, phase="move", fleets=[[ship(6)], [ship(RIGEL)]])
    after = before.clone()
    apply(after, Move(0, ALTAIR), 1)  # discovered, a conquest roll of 1: no treasure
    assert game.evaluate(after, RED) > game.evaluate(before, RED) + 5
    assert game.evaluate(after, BLUE) < game.evaluate(before, BLUE)


def test_the_evaluation_counts_a_pending_battle_by_its_odds() -> None:
    game = new_game()
    state = position(game, turn=RED, phase="move", tiles=tiles(game, {4: "S"}), fleets=[[ship(3)], [ship(RIGEL)]])
    apply(state, Move(0, 4), DrawShip(ship_card(game, 4, 2, 4)))  # [3|3|4] against [4|2|4]: A 4 = D 4
    assert state.phase == "standoff"
    rolled_high, rolled_low = state.clone(), state.clone()
    apply(rolled_high, Contest(), 6)  # the defender can only roll lower
    apply(rolled_low, Contest(), 1)  # the defender can only roll higher
    values = [game.evaluate(s, RED) for s in (rolled_high, state, rolled_low)]
    assert values == sorted(values, reverse=True) and values[0] > values[2] + 5


def test_heuristic_power_is_the_chance_to_beat_the_deck() -> None:
    game = new_game()
    heuristic = game.heuristic
    assert 0 < heuristic.power((3, 3, 4)) < heuristic.power((4, 4, 6)) <= 1
    assert heuristic.power((0, 0, 0)) < 0.2


# ---- the terminal picture ----------------------------------------------------------------------


def _plain(markup: str) -> str:
    return re.sub(r"\[/?[a-z_ ]*\]", "", markup).replace("\\[", "[")


def test_render_shows_the_map_routes_planets_and_every_fleet() -> None:
    game = new_game()
    state = position(
        game,
        turn=RED,
        phase="move",
        tiles=tiles(game, {3: "T", 4: "S"}),
        fleets=[
            [ship(VEGA, name="Mothership Vega"), ship(5, card=0, name="Kestrel")],
            [ship(NEXUS, name="Mothership Rigel", wait=1)],
        ],
    )
    text = _plain(render(state, RED))
    assert "round 1 · Red's turn" in text  # no turn limit to show: the rulebook's race
    assert "A Vega ─ T S 1 · ─ C Altair" not in text  # routes show tiles, ships by colour only
    assert "A Vega ─ T S · · ─ C Altair" in text
    assert "#0 Mothership Vega [3|3|4] at Vega (mothership)" in text
    assert "#1 Kestrel [2|2|2] at Vega–Altair tile 3" in text
    assert "Mothership Rigel [3|3|4] at the Nexus (mothership, at customs)" in text
    assert "A Vega: Red (homeworld), orbited by Mothership Vega" in text
    assert "Decks spaceships 34 · treasure 34" in text
    assert render(state, None) == render(state, BLUE)  # nothing is hidden


def test_action_groups_ask_for_the_ship_first() -> None:
    state = position(
        turn=RED,
        phase="move",
        fleets=[[ship(VEGA, name="Mothership Vega"), ship(VEGA, card=0, name="Kestrel")], [ship(RIGEL)]],
    )
    groups = action_groups(state, state.legal_actions())
    assert groups is not None
    labels = [label for label, _ in groups]
    assert labels[0].startswith("move Mothership Vega [3|3|4] from Vega") and labels[-1] == "end the turn"
    assert groups[-1][1] == [EndTurn()]
    assert sum(len(group) for _, group in groups) == len(state.legal_actions())
    assert action_groups(state, [EndTurn()]) is None
