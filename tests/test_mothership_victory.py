"""Mothership chapter 13, victory points (mode victory_points): the point table row by row,
points won on another player's turn, claiming the win on one's own turn, respawning ships,
a destroyed colony station, the round limit; conformance; greedy bots finish such games.

Positions are on the 11x11 test board: stations B2 (Player 1) and J10 (Player 2), planets
D4, F6 and H8 (planets 0, 1, 2), asteroid fields B6-C6 and G9-H9. Dice are forced.
"""

from __future__ import annotations

import itertools
import random

import pytest

import spacetable
from budget import playouts, rounds
from mothership_helpers import (
    BOMBER_1,
    CARDS,
    FIGHTER_1,
    FIGHTER_2,
    FIGHTER_3,
    MOTHERSHIP,
    STATION,
    cell,
    holding,
    mask,
    new_game,
    planet,
    play,
    position,
    rolls,
    target,
    texts,
)
from spacetable.agents import GreedyAgent
from spacetable.engine import Game, Statistic
from spacetable.engine import play as play_game
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.modules import victory
from spacetable.games.mothership.rules.actions import Attack, DrawCard, EndTurn, Move, Pass, Play
from spacetable.games.mothership.rules.state import EMPTY, NOWHERE, MothershipState
from spacetable.testing.conformance import CHECKS, Check


def vp(players: int = 2, **options: object) -> Mothership:
    return new_game(players, mode="victory_points", **options)


# ---- the point table ----------------------------------------------------------------------


def test_destroying_a_fighter_scores_one_point_beside_its_loot() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}, game=vp())
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert state.points == [1, 0] and state.resources[0] == 1
    assert "Player 1 scores 1 victory point for destroying Player 2's Fighter 1 (now 1)." in texts(events)


def test_destroying_a_bomber_scores_one_point() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, BOMBER_1): "E6", (1, FIGHTER_1): "K11"}, game=vp())
    play(state, Attack(mask(MOTHERSHIP), target(1, BOMBER_1)), *rolls(6, 1))
    assert state.pos[1][BOMBER_1] == NOWHERE and state.points == [1, 0]


def test_destroying_a_mothership_scores_three_points() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, MOTHERSHIP): "E6", (1, FIGHTER_1): "K11"}, game=vp())
    state.hp[1], state.shield[1] = 2, 0
    play(state, Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP)), *rolls(6, 1))
    assert state.pos[1][MOTHERSHIP] == NOWHERE and state.points == [3, 0] and state.resources[0] == 3


def test_destroying_a_colony_station_scores_five_points_and_its_player_stays_in() -> None:
    ships = {(0, BOMBER_1): "I9", (1, FIGHTER_1): "E6", (1, MOTHERSHIP): "A11"}
    state = position(ships, game=vp())
    state.owner[2] = 1
    state.points = [0, 1]
    state.station_hp[1] = 4
    events = play(state, Attack(mask(BOMBER_1), target(1, STATION)), *rolls(4))
    assert state.station_hp[1] == 0 and state.points == [5, 1] and state.resources[0] == 3
    assert not state.out[1] and not state.is_terminal()
    assert state.grid[cell("J10")] == EMPTY  # the station leaves the board ...
    assert state.pos[1][FIGHTER_1] == cell("E6") and state.pos[1][MOTHERSHIP] == cell("A11")  # ... the ships stay
    assert state.owner[2] == 1  # ... and so do the planets
    assert any("no longer return" in t for t in texts(events))
    play(state, EndTurn())
    assert state.turn == 1 and state.current_player() == 1  # still taking turns
    play(state, EndTurn())
    assert state.resources[1] == 1  # the planet pays, the destroyed station nothing


def test_a_planet_captured_scores_one_point_and_its_previous_owner_loses_one() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}, game=vp())
    play(state, Attack(mask(FIGHTER_1), planet(0)), *rolls(6), DrawCard(CARDS["afterburner"]))
    assert state.owner[0] == 0 and state.points == [1, 0]
    play(state, EndTurn())
    assert state.turn == 1
    # Player 2 takes it back on their turn: +1 for them, -1 for Player 1
    again = position({(1, FIGHTER_1): "C3", (0, FIGHTER_1): "K11"}, turn=1, game=vp())
    again.owner[0], again.points = 0, [3, 0]
    events = play(again, Attack(mask(FIGHTER_1), planet(0)), *rolls(6))
    assert again.owner[0] == 1 and again.points == [2, 1]
    assert "Player 1 loses 1 victory point for losing the planet at D4 (now 2)." in texts(events)


def test_a_planet_lost_to_the_planet_laser_pointer_costs_its_point() -> None:
    state = holding(position({(0, FIGHTER_1): "F4", (1, FIGHTER_1): "K11"}, game=vp()), 0, "planet_laser_pointer")
    state.owner[1], state.points = 1, [0, 4]
    play(state, Play(CARDS["planet_laser_pointer"], planet(1), 0))
    assert state.owner[1] == -2 and state.points == [0, 3]
    own = holding(position({(0, FIGHTER_1): "F4", (1, FIGHTER_1): "K11"}, game=vp()), 0, "planet_laser_pointer")
    own.owner[1], own.points = 0, [2, 0]
    play(own, Play(CARDS["planet_laser_pointer"], planet(1), 0))
    assert own.points == [1, 0]  # "in any way": one's own laser too


def test_points_never_go_below_zero() -> None:
    state = holding(position({(0, FIGHTER_1): "F4", (1, FIGHTER_1): "K11"}, game=vp()), 0, "planet_laser_pointer")
    state.owner[1] = 1  # a planet held with no point for it (a designer's content could do this)
    play(state, Play(CARDS["planet_laser_pointer"], planet(1), 0))
    assert state.points == [0, 0]


def test_a_ship_lost_to_asteroids_scores_nothing_but_comes_back() -> None:
    state = position({(0, FIGHTER_1): "B4", (1, FIGHTER_1): "K11"}, game=vp())
    play(state, Move(FIGHTER_1, cell("B6")), *rolls(6, 1))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.points == [0, 0] and state.resources == [0, 0]
    assert state.respawns == [[0, FIGHTER_1, 0]]


def test_a_ship_kept_by_life_support_pays_its_loot_but_no_point() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}
    state = holding(position(ships, game=vp()), 1, "life_support")
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), Pass(), *rolls(6, 1), Pass())
    play(state, Play(CARDS["life_support"], 0, FIGHTER_1), Pass())
    assert state.pos[1][FIGHTER_1] == cell("E6") and state.resources[0] == 1 and state.points == [0, 0]
    assert state.respawns == []


def test_last_stand_scores_for_the_player_of_the_card() -> None:
    ships = {(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}
    state = holding(position(ships, game=vp()), 1, "last_stand")
    play(state, Attack(mask(FIGHTER_1, FIGHTER_2), target(1, FIGHTER_1)), Pass(), *rolls(3, 3, 1), Pass())
    play(state, Play(CARDS["last_stand"], target(0, FIGHTER_2), 0), Pass())
    assert state.points == [1, 1]  # the attacker's fighter for the defender, the defender's for the attacker


# ---- winning ---------------------------------------------------------------------------------


def test_a_defender_scores_on_another_players_turn() -> None:
    ships = {(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, MOTHERSHIP): "E6"}
    state = position(ships, energy={1: (3, 7, 5)}, game=vp())
    play(state, Attack(mask(FIGHTER_1, FIGHTER_2), target(1, MOTHERSHIP)), *rolls(2, 3, 8))
    assert state.points == [0, 2] and state.turn == 0


def test_the_target_reached_on_another_players_turn_wins_at_the_start_of_ones_own() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, MOTHERSHIP): "E6"}
    state = position(ships, game=vp())
    state.points = [0, 9]
    play(state, Attack(mask(FIGHTER_1), target(1, MOTHERSHIP)), *rolls(1, 6))
    assert state.points == [0, 10] and not state.is_terminal()  # not on their own turn: it waits
    events = play(state, EndTurn())
    assert state.is_terminal() and state.winners == [1] and state.reason.startswith("victory points")
    assert "Player 2 has 10 victory points: Player 2 wins." in texts(events)
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (0.0, 10.0) and outcome.ranks == (2, 1)


def test_the_target_reached_before_ones_turn_and_lost_again_does_not_win() -> None:
    ships = {(0, FIGHTER_1): "E5", (0, FIGHTER_2): "G6", (1, MOTHERSHIP): "E6"}
    state = position(ships, game=vp())
    state.owner[1], state.points = 1, [0, 9]  # Player 2 holds F6
    play(state, Attack(mask(FIGHTER_1), target(1, MOTHERSHIP)), *rolls(1, 6))
    assert state.points == [0, 10]
    play(state, Attack(mask(FIGHTER_2), planet(1)), *rolls(6), DrawCard(CARDS["afterburner"]))
    assert state.owner[1] == 0 and state.points == [1, 9]
    play(state, EndTurn())
    assert state.turn == 1 and not state.is_terminal()


def test_the_target_reached_on_ones_own_turn_wins_at_once() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}, game=vp())
    state.points = [9, 0]
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert state.is_terminal() and state.winners == [0] and state.phase == "over"


def test_a_capture_that_reaches_the_target_ends_the_game_before_its_card() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}, game=vp())
    state.points = [9, 0]
    play(state, Attack(mask(FIGHTER_1), planet(0)), *rolls(6))
    assert state.is_terminal() and state.winners == [0] and state.draws == []
    assert state.returns() == [1.0, 0.0]


def test_a_custom_target_is_claimed_the_same_way() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}, game=vp(victory_target=1))
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert state.is_terminal() and state.winners == [0]


def test_in_teams_each_player_scores_alone_and_the_whole_team_wins() -> None:
    game = vp(4, team_size=2)
    ships = {
        (0, FIGHTER_1): "E5",
        (1, FIGHTER_1): "E6",
        (1, BOMBER_1): "K11",
        (2, FIGHTER_1): "K1",
        (3, FIGHTER_1): "A6",
    }
    state = position(ships, game=game)
    state.points = [9, 0, 5, 0]
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert state.points == [10, 0, 5, 0]  # the teammate's points stay their own
    assert state.is_terminal() and state.winners == [0, 2] and state.returns() == [0.5, 0.0, 0.5, 0.0]


# ---- respawning -------------------------------------------------------------------------------


def test_a_ship_lost_on_an_enemy_turn_returns_at_the_end_of_its_owners_next_turn() -> None:
    state = position({(1, FIGHTER_1): "E5", (0, FIGHTER_1): "E6", (0, FIGHTER_2): "K11"}, turn=1, game=vp())
    state.effects.append(["frozen", 0, FIGHTER_1, 1, "end", 0])  # a lasting effect on the lost ship
    play(state, Attack(mask(FIGHTER_1), target(0, FIGHTER_1)), *rolls(5, 2))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.respawns == [[0, FIGHTER_1, 0]]
    play(state, EndTurn())  # Player 1's next turn begins: the fighter is due, but not back yet
    assert state.turn == 0 and state.respawns == [[0, FIGHTER_1, 1]] and state.pos[0][FIGHTER_1] == NOWHERE
    events = play(state, EndTurn())  # ... and returns at its end, beside B2 nearest the centre
    assert state.pos[0][FIGHTER_1] == cell("C3") and state.grid[cell("C3")] == FIGHTER_1
    assert state.respawns == [] and "Player 1's Fighter 1 returns at C3." in texts(events)
    assert not state.has_effect("frozen", 0, FIGHTER_1) and state.cleared[0][FIGHTER_1] == -1


def test_a_ship_lost_on_its_owners_own_turn_waits_for_the_following_turn() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (0, FIGHTER_2): "K11"}, game=vp())
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(1, 6))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.points == [0, 1]
    play(state, EndTurn())
    assert state.pos[0][FIGHTER_1] == NOWHERE  # not at the end of the turn it was lost in
    play(state, EndTurn())
    assert state.turn == 0 and state.pos[0][FIGHTER_1] == NOWHERE
    play(state, EndTurn())
    assert state.pos[0][FIGHTER_1] == cell("C3")


def test_a_mothership_returns_with_six_hull_points_and_fresh_shields() -> None:
    ships = {(1, MOTHERSHIP): "E5", (0, MOTHERSHIP): "E6", (0, FIGHTER_1): "F7", (1, FIGHTER_1): "K11"}
    state = position(ships, turn=1, game=vp())
    state.hp[0], state.shield[0] = 2, 0
    play(state, Attack(mask(MOTHERSHIP), target(0, MOTHERSHIP)), *rolls(6, 1))
    assert state.pos[0][MOTHERSHIP] == NOWHERE and state.points == [0, 3]
    play(state, EndTurn(), EndTurn())
    assert state.pos[0][MOTHERSHIP] == cell("C3") and state.hp[0] == 6 and state.shield[0] == 5


def test_several_ships_return_in_ship_order_nearest_the_centre_first() -> None:
    state = position({(0, FIGHTER_3): "K1", (1, FIGHTER_1): "K11"}, game=vp())
    state.respawns = [[0, MOTHERSHIP, 1], [0, FIGHTER_2, 1]]
    play(state, EndTurn())
    assert state.pos[0][MOTHERSHIP] == cell("C3") and state.pos[0][FIGHTER_2] == cell("C2")


def test_a_ship_with_no_free_space_beside_its_station_waits_another_turn() -> None:
    around = ["A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"]
    ships = {(1, ship): space for ship, space in enumerate(around[:6])}
    ships |= {(0, FIGHTER_2): around[6], (0, FIGHTER_3): around[7]}
    state = position(ships, game=vp())
    state.respawns = [[0, FIGHTER_1, 1]]
    events = play(state, EndTurn())
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.respawns == [[0, FIGHTER_1, 1]]
    assert "Player 1's Fighter 1 finds no free space to return to." in texts(events)
    play(state, EndTurn(), Move(FIGHTER_3, cell("E4")), EndTurn())  # C3 is free again
    assert state.pos[0][FIGHTER_1] == cell("C3") and state.respawns == []


def test_a_destroyed_station_ends_respawning_waiting_ships_included() -> None:
    ships = {(0, BOMBER_1): "I9", (0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, FIGHTER_2): "A11"}
    state = position(ships, game=vp())
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert state.respawns == [[1, FIGHTER_1, 0]]
    state.station_hp[1] = 4
    play(state, Attack(mask(BOMBER_1), target(1, STATION)), *rolls(4))
    assert state.respawns == [] and state.points == [6, 0] and not state.out[1]
    play(state, EndTurn(), EndTurn())
    assert state.pos[1][FIGHTER_1] == NOWHERE  # never returns
    assert victory.free_spaces(state, 1) == []


def test_a_player_with_no_ship_left_stays_in_and_keeps_taking_turns() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}, game=vp())
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert not state.out[1] and not state.is_terminal() and state.points == [1, 0]
    play(state, EndTurn())
    assert state.turn == 1 and state.current_player() == 1
    play(state, EndTurn())
    assert state.pos[1][FIGHTER_1] == cell("I9")  # back beside J10, nearest the centre
    standard = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"})
    play(standard, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert standard.out[1] and standard.is_terminal()  # the standard rules knock them out


# ---- the round limit --------------------------------------------------------------------------


def test_at_the_round_limit_the_most_points_win() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}, game=vp(round_limit=1))
    state.points = [3, 5]
    events = play(state, EndTurn(), EndTurn())
    assert state.is_terminal() and state.winners == [1]
    assert "The round limit is reached: the round limit: the most victory points win." in texts(events)
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (3.0, 5.0) and outcome.ranks == (2, 1)


def test_at_the_round_limit_equal_points_share_the_win() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}, game=vp(round_limit=1))
    state.points = [4, 4]
    play(state, EndTurn(), EndTurn())
    assert state.winners == [0, 1] and state.returns() == [0.5, 0.5]


# ---- for terminals, bots and reports ----------------------------------------------------------


def test_describe_lists_the_points_and_the_ships_waiting() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}, game=vp())
    state.points = [4, 7]
    state.respawns = [[0, FIGHTER_2, 1]]
    assert victory.describe(state) == [
        "Points: Player 1 4, Player 2 7 (target 10)",
        "Waiting to return: Player 1's Fighter 2 (this turn)",
    ]
    assert victory.describe(position({(0, FIGHTER_1): "E5"})) == []


def test_worth_grows_faster_near_the_target() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}, game=vp())
    values = []
    for points in range(11):
        state.points[0] = points
        values.append(victory.worth(state, 0))
    steps = [b - a for a, b in itertools.pairwise(values)]
    assert values[0] == 0.0 and steps[0] == pytest.approx(victory.POINT, rel=0.2)
    assert all(later > earlier for earlier, later in itertools.pairwise(steps))


def test_statistics_report_the_points() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}, game=vp(round_limit=1))
    state.points = [3, 5]
    play(state, EndTurn(), EndTurn())
    figures = state.game.statistics(state)
    assert figures["victory points of a winner"] == Statistic(5, 1, headline=True)
    assert figures["victory points per player"] == Statistic(8, 2, headline=True)
    assert figures["games won on victory points"].value == 0.0


# ---- the whole game -----------------------------------------------------------------------------

VARIANTS = {
    "3 players": spacetable.load("mothership", 3, {"mode": "victory_points", "round_limit": rounds(5, 6)}),
    "teams of 2": spacetable.load(
        "mothership",
        4,
        {"mode": "victory_points", "team_size": 2, "round_limit": 3},  # make soak's, at make test's budget
    ),
}


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize(
    "game",
    # teams of two in `make soak` only (CI's ten minutes: about 14 s of checks)
    [pytest.param(g, marks=pytest.mark.soak) if name == "teams of 2" else g for name, g in VARIANTS.items()],
    ids=VARIANTS.keys(),
)
def test_victory_points_games_conform(game: Game, check: Check) -> None:
    check(game, n=playouts(1, 2))


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_greedy_bots_finish_victory_point_games_mostly_on_points() -> None:
    game = spacetable.load("mothership", 4, {"mode": "victory_points"})
    assert isinstance(game, Mothership)
    on_points = 0
    for seed in range(4):
        final = play_game(game, [GreedyAgent() for _ in range(4)], random.Random(seed))
        assert isinstance(final, MothershipState)
        outcome = final.outcome()
        assert outcome is not None and outcome.winners
        if final.reason.startswith("victory points"):
            on_points += 1
            assert max(final.points[s] for s in outcome.winners) >= game.victory_target
    assert on_points >= 3
