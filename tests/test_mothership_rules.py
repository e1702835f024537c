"""Mothership's rulebook, chapters 1 to 11, one scenario per rule and clarification box, with forced dice.

Default numbers (content/rules.toml): fighters move 4 and roll a d6, bombers move 3 and
roll a d8; the control panel starts at engines 5 (3 spaces), weapons 5 (a d6), shields 5.
"""

from __future__ import annotations

import pytest

import spacetable
from mothership_helpers import (
    BOMBER_1,
    BOMBER_2,
    FIGHTER_1,
    FIGHTER_2,
    FIGHTER_3,
    MOTHERSHIP,
    STATION,
    cell,
    mask,
    new_game,
    planet,
    play,
    position,
    rolls,
    target,
)
from spacetable.engine import IllegalActionError, OptionsError, Roll
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.rules.actions import Attack, AutoPlace, DrawCard, EndTurn, Move, SetEnergy
from spacetable.games.mothership.rules.board import balance_problems, generate, parse_layout
from spacetable.games.mothership.rules.setup import placement_spaces
from spacetable.games.mothership.rules.state import NOWHERE

# ---- chapter 1: set-up and the board ---------------------------------------------------


def test_example_layouts_are_fair_by_the_balance_rules() -> None:
    content = load_content()
    for name, layout in content.layouts.items():
        if layout.players == 1:
            continue  # the solo challenge's layouts are fair by other rules (test_mothership_solo)
        for extra in (False, True):
            board = parse_layout(name, layout, extra)
            assert balance_problems(board, content) == [], name
            assert len(board.planets) == layout.players + 1 + (2 if extra else 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_generated_boards_keep_the_balance_rules_and_repeat_by_seed(players: int) -> None:
    content = load_content()
    size = content.large_board if players > 4 else content.small_board
    for seed in range(15):
        board = generate(seed, players, size, content, extra_planets=seed % 2 == 1)
        assert balance_problems(board, content) == []
        assert len(board.planets) == players + 1 + (2 if seed % 2 else 0)
        assert board == generate(seed, players, size, content, extra_planets=seed % 2 == 1)


def test_a_layout_without_a_free_space_around_a_station_is_refused() -> None:
    rows = ["1#...", ".....", "..P.P", ".....", "P...2"]
    with pytest.raises(OptionsError, match="free space all around"):
        spacetable.load(
            "mothership", 2, {"layout": "bad", "content": {"layouts": {"bad": {"players": 2, "rows": rows}}}}
        )


def test_a_layout_needs_one_more_planet_than_players() -> None:
    rows = ["......", ".1....", "......", "...P..", "....2.", "......"]
    with pytest.raises(OptionsError, match="one more than players"):
        spacetable.load(
            "mothership", 2, {"layout": "few", "content": {"layouts": {"few": {"players": 2, "rows": rows}}}}
        )


def test_ships_are_placed_within_two_spaces_of_the_station_then_a_d6_decides_who_starts() -> None:
    game = new_game()
    state = game.new_initial_state()
    spaces = {a.cell for a in state.legal_actions() if a.kind == "place"}
    station = cell("B2")
    assert spaces and all(game.layout_board.distance(c, station) <= 2 for c in spaces)  # type: ignore[union-attr]
    for _ in range(2):
        play(state, state.legal_actions()[-1])  # the standard formation
    assert state.phase == "order"
    play(state, DrawCard(1), DrawCard(2), DrawCard(1), DrawCard(3))  # two cards each, before the roll
    assert state.hands == [[1, 2], [1, 3]]
    play(state, Roll(2), Roll(5))
    assert state.phase == "turn" and state.turn == 1 and state.first == 1


def test_the_standard_formation_is_the_same_from_every_corner() -> None:
    game = spacetable.load("mothership", 4, {"layout": "crossroads"})  # the same board turned a quarter
    state = game.new_initial_state()
    board = game.layout_board
    assert board is not None
    size = board.size

    def turn(cell: int) -> int:  # a quarter turn clockwise: top left to top right
        r, c = divmod(cell, size)
        return c * size + size - 1 - r

    formations = [placement_spaces(state, seat)[:6] for seat in range(4)]
    for seat in range(3):
        assert [turn(c) for c in formations[seat]] == formations[seat + 1]


# ---- chapter 2: your turn and movement -------------------------------------------------


def test_ships_move_through_own_ships_but_never_end_on_them() -> None:
    state = position({(0, FIGHTER_1): "A1", (0, FIGHTER_2): "B1", (1, FIGHTER_1): "K11"})
    moves = {a.cell for a in state.legal_actions() if a.kind == "move" and a.ship == FIGHTER_1}
    assert cell("B1") not in moves and cell("C1") in moves


def test_enemy_ships_planets_and_stations_block_the_way() -> None:
    # a corridor: the fighter at A4 is boxed in by an enemy fighter wall
    walls = {(1, FIGHTER_1): "A5", (1, FIGHTER_2): "B5", (1, FIGHTER_3): "B4", (1, BOMBER_1): "B3"}
    state = position({(0, FIGHTER_1): "A4", **walls})
    moves = {a.cell for a in state.legal_actions() if a.kind == "move" and a.ship == FIGHTER_1}
    # its own colony station (B2) blocks too: C3 would take five spaces round it
    assert moves == {cell("A3"), cell("A2"), cell("A1"), cell("B1"), cell("C1"), cell("C2")}
    near_planet = position({(0, FIGHTER_1): "D2", (1, FIGHTER_1): "K11"})
    assert Move(FIGHTER_1, cell("D4")) not in near_planet.legal_actions()  # the planet's own space


def test_a_ship_moves_in_legs_up_to_its_engine_spaces_and_not_after_attacking() -> None:
    state = position({(0, FIGHTER_1): "E1", (1, FIGHTER_1): "K11"})
    play(state, Move(FIGHTER_1, cell("E3")))
    farther = {a.cell for a in state.legal_actions() if a.kind == "move" and a.ship == FIGHTER_1}
    assert cell("E5") in farther and cell("E6") not in farther  # 2 of its 4 spaces left
    play(state, Attack(mask(FIGHTER_1), planet(0)), *rolls(1))
    assert not [a for a in state.legal_actions() if a.kind == "move" and a.ship == FIGHTER_1]
    with pytest.raises(IllegalActionError, match="cannot move after it attacks"):
        state.apply_action(Move(FIGHTER_1, cell("E4")))


def test_a_ship_may_attack_without_moving() -> None:
    state = position({(0, BOMBER_1): "D3", (1, FIGHTER_1): "K11"})
    assert Attack(mask(BOMBER_1), planet(0)) in state.legal_actions()


def test_energy_is_set_before_the_mothership_moves_and_locked_until_the_next_turn() -> None:
    state = position({(0, MOTHERSHIP): "E1", (1, MOTHERSHIP): "K11"})
    assert SetEnergy(9, 6, 0) in state.legal_actions() and SetEnergy(12, 3, 0) in state.legal_actions()
    assert SetEnergy(13, 2, 0) not in [a for a in state.legal_actions()]
    play(state, SetEnergy(9, 6, 0))  # engines 9: 5 spaces; a subsystem may be empty
    assert state.shield[0] == 0
    assert Move(MOTHERSHIP, cell("E6")) in state.legal_actions()
    with pytest.raises(IllegalActionError, match="locked"):
        state.apply_action(SetEnergy(5, 5, 5))
    play(state, EndTurn(), EndTurn())
    assert SetEnergy(5, 5, 5) in state.legal_actions()  # unlocked on the next turn


def test_energy_cannot_change_after_the_mothership_moved() -> None:
    state = position({(0, MOTHERSHIP): "E1", (1, MOTHERSHIP): "K11"})
    play(state, Move(MOTHERSHIP, cell("E2")))
    assert not [a for a in state.legal_actions() if a.kind == "energy"]


# ---- chapter 3: combat -----------------------------------------------------------------


def test_the_higher_total_wins_and_the_loser_takes_it_as_damage() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"})
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 2))
    assert state.pos[1][FIGHTER_1] == NOWHERE and state.pos[0][FIGHTER_1] == cell("E5")
    assert state.resources[0] == 1  # loot for a fighter, at once
    assert any("explodes" in e.text for e in events)


def test_a_tie_hurts_nobody() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, MOTHERSHIP): "E6"})
    play(state, Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP)), *rolls(4, 4))
    assert state.hp == [12, 12] and state.shield == [5, 5]


def test_a_mothership_losing_to_nine_with_four_shields_loses_five_hull_points() -> None:
    # the attacker's weapons 9 give a d10; the defender has shields 4 and a d6
    state = position({(0, MOTHERSHIP): "E5", (1, MOTHERSHIP): "E6"}, energy={0: (2, 9, 4), 1: (5, 6, 4)})
    play(state, Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP)), *rolls(9, 3))
    assert state.shield[1] == 0 and state.hp[1] == 7


def test_two_attackers_losing_a_combined_roll_both_explode() -> None:
    ships = {(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, MOTHERSHIP): "E6"}
    state = position(ships, energy={1: (3, 7, 5)})  # the defender rolls a d8
    play(state, Attack(mask(FIGHTER_1, FIGHTER_2), target(1, MOTHERSHIP)), *rolls(2, 3, 8))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.pos[0][FIGHTER_2] == NOWHERE
    assert state.resources[1] == 2  # the defender loots both, on another player's turn


def test_wingmen_add_one_each_and_only_the_defender_is_hurt() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, FIGHTER_2): "D7", (1, FIGHTER_3): "F7"}
    state = position(ships)
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 3))  # 6 against 3 + 2
    assert state.pos[1][FIGHTER_1] == NOWHERE
    assert state.pos[1][FIGHTER_2] == cell("D7") and state.pos[1][FIGHTER_3] == cell("F7")
    tied = position(ships)
    play(tied, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 3))  # 5 against 3 + 2: a tie
    assert tied.pos[0][FIGHTER_1] == cell("E5") and tied.pos[1][FIGHTER_1] == cell("E6")


def test_a_fighter_cannot_damage_hull_points() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, MOTHERSHIP): "E6"}, energy={1: (5, 7, 3)})
    play(state, Attack(mask(FIGHTER_1), target(1, MOTHERSHIP)), *rolls(6, 1))
    assert state.shield[1] == 0 and state.hp[1] == 12
    # with the shields down, a fighter has nothing left to damage: it may not attack it
    assert Attack(mask(FIGHTER_2), target(1, MOTHERSHIP)) not in state.legal_actions()
    other = position({(0, FIGHTER_1): "G2", (0, FIGHTER_2): "H2", (1, MOTHERSHIP): "H3"}, energy={1: (5, 10, 0)})
    assert not [a for a in other.legal_actions() if a.kind == "attack"]


def test_bombers_cannot_attack_fighters_or_bombers() -> None:
    state = position({(0, BOMBER_1): "H2", (1, FIGHTER_1): "H3", (1, BOMBER_1): "I3"})
    assert not [a for a in state.legal_actions() if a.kind == "attack"]


def test_a_bomber_winning_against_a_fighter_only_survives() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, BOMBER_1): "E6"})
    events = play(state, Attack(mask(FIGHTER_1), target(1, BOMBER_1)), *rolls(2, 7))
    assert state.pos[0][FIGHTER_1] == cell("E5") and state.pos[1][BOMBER_1] == cell("E6")
    assert any("cannot be hurt" in e.text for e in events)


def test_a_fighter_defending_against_a_mothership_hurts_only_its_shields() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "E6"})
    play(state, Attack(mask(MOTHERSHIP), target(1, FIGHTER_1)), *rolls(1, 6))
    assert state.shield[0] == 0 and state.hp[0] == 12


def test_shields_regenerate_at_the_end_of_every_turn() -> None:
    state = position({(0, BOMBER_1): "E5", (1, MOTHERSHIP): "E6"})
    play(state, Attack(mask(BOMBER_1), target(1, MOTHERSHIP)), *rolls(4, 1))
    assert state.shield[1] == 1
    play(state, EndTurn())  # the attacker's turn ends: the defender's shields are back
    assert state.shield[1] == 5


def test_a_lost_single_attack_cannot_be_joined_afterwards() -> None:
    state = position({(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, BOMBER_1): "E6"})
    play(state, Attack(mask(FIGHTER_1), target(1, BOMBER_1)), *rolls(1, 8))
    assert Attack(mask(FIGHTER_1, FIGHTER_2), target(1, BOMBER_1)) not in state.legal_actions()
    assert Attack(mask(FIGHTER_2), target(1, BOMBER_1)) in state.legal_actions()  # a new dogfight


# ---- chapter 4: the control panel ------------------------------------------------------


def test_a_d2_is_rolled_as_a_d4_odd_one_even_two() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "E6"}, energy={0: (7, 1, 7)})
    play(state, Attack(mask(MOTHERSHIP), target(1, FIGHTER_1)))
    assert [a.value for a, _ in state.chance_outcomes()] == [1, 2, 3, 4]
    play(state, Roll(3), Roll(1))  # d4 face 3 counts 1: a tie with the fighter's 1
    assert state.pos[1][FIGHTER_1] == cell("E6")
    again = position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "E6"}, energy={0: (7, 1, 7)})
    play(again, Attack(mask(MOTHERSHIP), target(1, FIGHTER_1)), Roll(4), Roll(1))  # face 4 counts 2
    assert again.pos[1][FIGHTER_1] == NOWHERE


def test_a_mothership_with_empty_weapons_cannot_attack() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "E6"}, energy={0: (7, 0, 8)})
    assert not [a for a in state.legal_actions() if a.kind == "attack"]


# ---- chapter 5: the colony station -----------------------------------------------------


def test_a_station_hit_for_seven_loses_one_counter() -> None:
    state = position({(0, BOMBER_1): "I11", (1, FIGHTER_1): "A1"})
    play(state, Attack(mask(BOMBER_1), target(1, STATION)), *rolls(7))
    assert state.station_hp[1] == 12


def test_a_guarded_station_cannot_be_targeted() -> None:
    state = position({(0, BOMBER_1): "I11", (1, FIGHTER_1): "K11", (1, MOTHERSHIP): "A1"})
    assert Attack(mask(BOMBER_1), target(1, STATION)) not in state.legal_actions()
    # the guard must go first
    assert Attack(mask(BOMBER_1), target(1, STATION)) not in state.legal_actions()


def test_guarding_is_ignored_when_only_bombers_are_left() -> None:
    state = position({(0, BOMBER_1): "I11", (1, BOMBER_1): "K11"})
    assert Attack(mask(BOMBER_1), target(1, STATION)) in state.legal_actions()
    events = play(state, Attack(mask(BOMBER_1), target(1, STATION)), *rolls(4))
    assert "Attack 4 against defence 0 = 0." in [e.text for e in events]  # a station has no wingmen
    assert state.station_hp[1] == 12


def test_a_destroyed_station_takes_its_fleet_and_its_player_out() -> None:
    state = position({(0, BOMBER_1): "I11", (0, BOMBER_2): "I9", (1, FIGHTER_1): "A1"})
    state.station_hp[1] = 4
    state.owner[2] = 1
    events = play(state, Attack(mask(BOMBER_1, BOMBER_2), target(1, STATION)), *rolls(2, 2))
    assert state.out[1] and state.pos[1] == [NOWHERE] * 6 and state.owner[2] == -1
    assert state.is_terminal() and state.outcome().winners == (0,)  # type: ignore[union-attr]
    assert state.resources[0] == 3
    assert any("out" in e.text for e in events)


# ---- chapter 6: resources --------------------------------------------------------------


def test_income_is_one_for_the_station_and_one_per_planet_and_hidden_from_others() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"})
    state.owner = [0, 0, 1]
    events = play(state, EndTurn())
    assert state.resources == [3, 0] and state.turn == 1
    assert state.view(1)["resources"] == [None, 0] and state.view(0)["resources"] == [3, None]
    assert all(e.to == (0,) for e in events if "collects 3" in e.text)


# ---- chapter 7: planets ----------------------------------------------------------------


def test_two_ships_capture_a_planet_at_exactly_six() -> None:
    state = position({(0, FIGHTER_1): "C3", (0, BOMBER_1): "E5", (1, FIGHTER_1): "K11"})
    play(state, Attack(mask(FIGHTER_1, BOMBER_1), planet(0)), *rolls(2, 4))
    assert state.owner[0] == 0
    failed = position({(0, FIGHTER_1): "C3", (0, BOMBER_1): "E5", (1, FIGHTER_1): "K11"})
    play(failed, Attack(mask(FIGHTER_1, BOMBER_1), planet(0)), *rolls(2, 3))
    assert failed.owner[0] == -1
    assert not [a for a in failed.legal_actions() if a.kind == "attack"]  # the attack phase is used


def test_a_planet_can_be_taken_from_another_player_but_not_attacked_by_its_owner() -> None:
    own = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    own.owner[0] = 0
    assert Attack(mask(FIGHTER_1), planet(0)) not in own.legal_actions()
    theirs = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    theirs.owner[0] = 1
    play(theirs, Attack(mask(FIGHTER_1), planet(0)), *rolls(6))
    assert theirs.owner[0] == 0


# ---- chapter 8: asteroids --------------------------------------------------------------


def test_an_asteroid_win_lets_the_ship_stay_into_the_next_turn_and_roam_its_field() -> None:
    state = position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "D7"})
    play(state, Move(FIGHTER_1, cell("B6")))
    assert state.is_chance_node()
    play(state, *rolls(4, 4))  # asteroids 4, the fighter 4: a tie is a win
    assert state.pos[0][FIGHTER_1] == cell("B6")
    play(state, EndTurn(), EndTurn())
    assert Move(FIGHTER_1, cell("C6")) in state.legal_actions()
    play(state, Move(FIGHTER_1, cell("C6")))
    assert not state.is_chance_node()  # inside the won field: no dogfight
    # the dogfight did not use the attack phase: it may still attack
    assert Attack(mask(FIGHTER_1), target(1, FIGHTER_1)) in state.legal_actions()


def test_leaving_the_field_and_entering_again_means_another_dogfight() -> None:
    state = position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"})
    play(state, Move(FIGHTER_1, cell("B6")), *rolls(1, 5), Move(FIGHTER_1, cell("B7")), Move(FIGHTER_1, cell("C6")))
    assert state.is_chance_node()


def test_losing_to_asteroids_destroys_a_fighter() -> None:
    state = position({(0, FIGHTER_1): "B7", (0, FIGHTER_2): "E1", (1, FIGHTER_1): "K11"})
    play(state, Move(FIGHTER_1, cell("B6")), *rolls(5, 4))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.resources == [0, 0]


def test_a_mothership_losing_to_asteroids_is_damaged_but_passes() -> None:
    state = position({(0, MOTHERSHIP): "B7", (1, FIGHTER_1): "K11"}, energy={0: (7, 4, 4)})
    play(state, Move(MOTHERSHIP, cell("B6")), *rolls(6, 1))  # asteroids 6 against its d4's 1
    assert state.shield[0] == 0 and state.hp[0] == 10
    assert Move(MOTHERSHIP, cell("C6")) in state.legal_actions()
    play(state, Move(MOTHERSHIP, cell("C6")))
    assert not state.is_chance_node()


def test_no_wingman_bonus_against_asteroids() -> None:
    state = position({(0, FIGHTER_1): "B7", (0, FIGHTER_2): "A7", (0, FIGHTER_3): "C7", (1, FIGHTER_1): "K11"})
    play(state, Move(FIGHTER_1, cell("B6")), *rolls(4, 3))  # 3 against 4, friends beside it or not
    assert state.pos[0][FIGHTER_1] == NOWHERE


# ---- chapter 10: team games ------------------------------------------------------------


def team_game() -> spacetable.engine.Game:
    return new_game(4, team_size=2)


def test_teammates_sit_alternately_and_pass_through_each_others_ships() -> None:
    game = team_game()
    state = position(
        {(0, FIGHTER_1): "E4", (2, FIGHTER_1): "E5", (1, FIGHTER_1): "A6", (3, FIGHTER_1): "K6"}, game=game
    )
    assert state.friendly(0, 2) and state.friendly(1, 3) and not state.friendly(0, 1)
    moves = {a.cell for a in state.legal_actions() if a.kind == "move"}
    assert cell("E6") in moves and cell("E5") not in moves


def test_teammates_are_wingmen_guards_and_their_planets_are_safe() -> None:
    game = team_game()
    ships = {(0, FIGHTER_1): "F5", (1, FIGHTER_1): "F6", (3, FIGHTER_1): "E7", (2, FIGHTER_1): "A6"}
    state = position(ships, game=game)
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(3, 2))
    assert state.pos[1][FIGHTER_1] == cell("F6")  # 3 against 2 + 1 (a teammate beside it): a tie
    state = position({(0, BOMBER_1): "J3", (1, FIGHTER_1): "A6", (3, FIGHTER_1): "I1", (2, FIGHTER_1): "A1"}, game=game)
    assert Attack(mask(BOMBER_1), target(1, STATION)) not in state.legal_actions()  # guarded by seat 3
    state = position(
        {(0, FIGHTER_1): "C3", (2, FIGHTER_1): "A1", (1, FIGHTER_1): "K6", (3, FIGHTER_1): "K7"}, game=game
    )
    state.owner[0] = 2
    assert Attack(mask(FIGHTER_1), planet(0, 4)) not in state.legal_actions()


def test_a_team_loses_when_all_its_players_are_out() -> None:
    game = team_game()
    ships = {(0, BOMBER_1): "I3", (0, BOMBER_2): "C9", (1, FIGHTER_1): "A6", (3, FIGHTER_1): "K6", (2, FIGHTER_1): "E1"}
    state = position(ships, game=game)
    state.station_hp[1] = state.station_hp[3] = 4
    play(state, Attack(mask(BOMBER_1), target(1, STATION)), *rolls(4))
    assert state.out[1] and not state.is_terminal()  # a teammate plays on
    play(state, Attack(mask(BOMBER_2), target(3, STATION)), *rolls(5))
    outcome = state.outcome()
    assert state.is_terminal() and outcome is not None and outcome.winners == (0, 2)
    assert state.returns() == [0.5, 0.0, 0.5, 0.0]


def test_team_sizes_must_divide_the_table() -> None:
    with pytest.raises(OptionsError, match="team_size"):
        spacetable.load("mothership", 5, {"team_size": 2})


# ---- chapter 11: the end of the game ---------------------------------------------------


def test_a_player_with_no_ship_left_is_out_and_the_last_standing_wins() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"})
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1))
    assert state.out[1] and state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "last standing"
    assert state.returns() == [1.0, 0.0]


def test_the_rulebooks_game_has_no_round_limit_the_house_rule_is_an_option() -> None:
    # Chapter 11: the last standing wins; the rulebook stops no game after a number of rounds.
    state = position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"})
    state.round = 60
    play(state, EndTurn(), EndTurn())
    assert state.round == 61 and not state.is_terminal() and state.game.max_length is None
    limited = position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"}, game=new_game(round_limit=60))
    limited.round = 60
    play(limited, EndTurn(), EndTurn())
    assert limited.is_terminal() and limited.winners == [0, 1]  # the house rule's draw
    assert spacetable.load_finite("mothership", 2).options["round_limit"] == 60  # batches and research


def test_a_player_knocked_out_on_their_own_turn_passes_it_on() -> None:
    game = new_game(4)
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (2, FIGHTER_1): "A6", (3, FIGHTER_1): "K6"}
    state = position(ships, game=game)
    state.owner[0] = 0
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(1, 4))
    assert state.out[0] and state.turn == 1 and not state.is_terminal()
    assert state.owner[0] == -1 and state.resources[0] == 0  # no income for a player out


def test_shields_lost_to_asteroids_stay_low_until_the_end_of_the_turn() -> None:
    state = position({(0, MOTHERSHIP): "B7", (1, BOMBER_1): "B4"}, energy={0: (7, 4, 4)})
    play(state, Move(MOTHERSHIP, cell("B6")), *rolls(3, 1))  # the asteroids' 3 takes 3 of 4 shield points
    assert state.shield[0] == 1 and state.hp[0] == 12
    play(state, Move(MOTHERSHIP, cell("B5")))
    play(state, Attack(mask(MOTHERSHIP), target(1, BOMBER_1)), *rolls(1, 6))  # the bomber's 6 hits back
    assert state.shield[0] == 0 and state.hp[0] == 7


# ---- content ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"control_panel": {"weapons": [0, 3, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12]}}, "not dice"),
        ({"control_panel": {"start": [5, 5, 4]}}, "must split all 15 energy"),
        ({"control_panel": {"engines": [0, 1]}}, r"row_length \+ 1 = 13"),
        ({"fleet": {"station_hp": 15}}, "whole number of 4-HP counters"),
        ({"fighter": {"die": 5}}, "not dice"),
    ],
)
def test_bad_content_is_refused_with_the_key_named(override: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        spacetable.load("mothership", 2, {"content": override})


def test_a_designer_changes_a_number_in_content() -> None:
    game = new_game(content={"fighter": {"move": 2, "die": 8}})
    state = position({(0, FIGHTER_1): "E1", (1, FIGHTER_1): "K11"}, game=game)
    moves = {a.cell for a in state.legal_actions() if a.kind == "move"}
    assert cell("E3") in moves and cell("E4") not in moves
    play(state, Move(FIGHTER_1, cell("D3")), Attack(mask(FIGHTER_1), planet(0)))
    assert [a.value for a, _ in state.chance_outcomes()] == list(range(1, 9))


def test_a_designer_may_fix_the_first_seat_instead_of_rolling() -> None:
    state = new_game(first_seat=1).new_initial_state()
    play(state, AutoPlace(), AutoPlace(), DrawCard(1), DrawCard(1), DrawCard(1), DrawCard(1))
    assert state.phase == "turn" and state.turn == 1 and state.first == 1 and not state.is_chance_node()
    with pytest.raises(OptionsError, match="must be a seat"):
        new_game(first_seat=2)
