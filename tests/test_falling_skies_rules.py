"""Scenario tests for Under Falling Skies (9-card), paragraph by paragraph of the rulebook.

Positions use the easy side (level 1) unless a test says otherwise. Sky rows are
numbered 1-15 from the mother ship down, columns 1-5; row 0 is a starting spot.
Useful easy-side cells: row 2 col 4 '<', row 3 col 2 explosion 1, row 3 col 3 '>',
row 4 col 1 explosion 2, row 4 col 5 mother ship icon, row 7 col 1 explosion 3.
"""

from __future__ import annotations

import pytest

from falling_skies_helpers import Dig, Place, PlaceRobot, Resolve, Spawn, apply, new_game, placing, ships
from spacetable.engine import CHANCE, IllegalActionError

# ---- Set-up --------------------------------------------------------------------


def test_setup_five_green_ships_on_spots_and_trackers_on_start() -> None:
    state = new_game().new_initial_state()
    assert ships(state) == {(0, c, False) for c in range(1, 6)}
    assert (state.energy, state.damage, state.research, state.mothership) == (2, 0, 0, 0)
    assert state.board.dig_path[state.excavator] == "C5"
    assert (state.red_supply, state.robot_supply) == (2, 2)
    assert state.to_roll == ["black", "black", "black", "white", "white"]


def test_each_die_is_a_chance_node_with_six_equal_outcomes() -> None:
    state = new_game().new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [a.value for a, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in outcomes)
    apply(state, 6, 5, 4, 3, 2)
    assert state.phase == "place"
    assert state.unplaced == [("black", 6), ("black", 5), ("black", 4), ("white", 3), ("white", 2)]


# ---- Phase 1: placement restrictions ----------------------------------------------


def test_only_one_die_per_column() -> None:
    state = placing([("black", 1), ("black", 2)])
    apply(state, Place("black", 1, "B1"))
    spaces = {a.space for a in state.legal_actions()}
    assert not spaces & {"A1", "B1"}
    with pytest.raises(IllegalActionError, match="column 1 already has a die"):
        state.apply_action(Place("black", 2, "A1"))


def test_only_one_die_per_spot() -> None:
    state = placing([("black", 2)], slots={"B3": ["robot", 3]})
    assert "B3" not in {a.space for a in state.legal_actions()}
    with pytest.raises(IllegalActionError, match="B3 already holds a die"):
        state.apply_action(Place("black", 2, "B3"))


def test_dice_only_on_excavated_rooms_not_tunnels() -> None:
    state = placing([("black", 2)], dug=True)
    spaces = {a.space for a in state.legal_actions()}
    assert spaces == {"A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B5"}  # B4 is a tunnel
    with pytest.raises(IllegalActionError, match="tunnel"):
        state.apply_action(Place("black", 2, "B4"))


def test_once_a_round_a_die_may_dig_into_an_unexcavated_space() -> None:
    state = placing([("black", 2), ("black", 3)])
    digs = {a.space for a in state.legal_actions()} - {"A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B5"}
    assert digs == {"C1", "C2", "C3", "C4", "D1", "D2", "D3", "D4", "D5", "E1", "E2", "E3", "E4", "E5"} | {
        "F1",
        "F2",
        "F3",
        "F4",
        "F5",
    }
    apply(state, Place("black", 2, "C4"))
    assert state.dug
    assert not {a.space for a in state.legal_actions()} & {"C1", "C2", "C3", "D1", "F5"}
    with pytest.raises(IllegalActionError, match="already placed a die to dig"):
        state.apply_action(Place("black", 3, "C2"))


def test_digging_die_blocks_its_column_and_moves_ships() -> None:
    state = placing([("black", 3), ("black", 1)])
    apply(state, Place("black", 3, "D1"))
    assert (3, 1, False) in ships(state)
    assert not {a.space for a in state.legal_actions()} & {"A1", "B1"}


def test_illegal_placement_leaves_the_state_unchanged() -> None:
    state = placing([("black", 2)])
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="no unplaced black 5"):
        state.apply_action(Place("black", 5, "B1"))
    assert state.to_json() == before


# ---- Phase 1: white dice --------------------------------------------------------


def test_placing_a_white_die_rerolls_every_unplaced_die() -> None:
    state = placing([("white", 4), ("black", 6), ("white", 2)])
    apply(state, Place("white", 4, "B1"))
    assert state.current_player() == CHANCE
    assert state.to_roll == ["black", "white"] and state.unplaced == []
    apply(state, 1, 5)
    assert state.unplaced == [("black", 1), ("white", 5)]


def test_placing_a_black_die_rerolls_nothing() -> None:
    state = placing([("black", 4), ("white", 6)])
    apply(state, Place("black", 4, "B1"))
    assert state.phase == "place" and state.unplaced == [("white", 6)]


def test_last_white_die_has_nothing_to_reroll() -> None:
    state = placing([("white", 4)])
    apply(state, Place("white", 4, "B3"))
    assert state.phase == "resolve"


# ---- Phase 1: moving ships and the sky symbols ------------------------------------


def test_placing_a_die_moves_every_ship_in_its_column_by_its_value() -> None:
    state = placing([("black", 6)], ships=[[0, 0, False], [1, 0, False], [5, 1, False]])
    apply(state, Place("black", 6, "B1"))
    assert ships(state) == {(6, 1, False), (7, 1, False), (5, 2, False)}


def test_empty_cell_and_explosion_have_no_immediate_effect() -> None:
    state = placing([("black", 3)])
    apply(state, Place("black", 3, "B2"))  # column 2, row 3 is an explosion 1+
    assert (3, 2, False) in ships(state)
    assert state.board.explosion[3][1] == 1


def test_arrow_moves_the_ship_sideways_when_that_space_is_empty() -> None:
    state = placing([("black", 3)])
    apply(state, Place("black", 3, "B3"))  # row 3 col 3 is '>'
    assert (3, 4, False) in ships(state)
    assert (3, 3, False) not in ships(state)


def test_arrow_does_nothing_when_the_space_it_points_to_is_taken() -> None:
    state = placing([("black", 3)], ships=[[0, 3, False], [2, 2, False]])
    apply(state, Place("black", 3, "A4"))  # the gun: 3 - 1 = 2 rows, onto row 2 column 4, a '<'
    assert ships(state) == {(2, 4, False), (2, 3, False)}


def test_a_ship_moved_by_an_arrow_can_move_again_in_its_new_column() -> None:
    state = placing([("black", 3), ("black", 2)], ships=[[0, 2, False]])
    apply(state, Place("black", 3, "B3"))  # row 3 column 3 is '>': the ship ends in column 4
    assert ships(state) == {(3, 4, False)}
    apply(state, Place("black", 2, "C4"))  # a die in column 4 moves it again, onto row 5's '>'
    assert ships(state) == {(5, 5, False)}


def test_mother_ship_icon_moves_the_mother_ship_without_its_symbol() -> None:
    # the mother ship is on row 1; row 2's symbol is exc-1. A ship landing on the icon at
    # row 4 column 5 moves the card to row 2 but the excavator stays.
    state = placing([("black", 3)], mothership=1, excavator=2, ships=[[0, 4, False]])
    apply(state, Place("black", 3, "B5"))
    assert state.mothership == 2
    assert state.excavator == 2


def test_mother_ship_icon_takes_back_ships_on_the_row_it_covers() -> None:
    state = placing([("black", 4)], ships=[[0, 4, False], [1, 0, False]])
    apply(state, Place("black", 4, "B5"))
    assert state.mothership == 1
    assert ships(state) == {(4, 5, False)}
    assert state.waiting == [1, 0]


def test_ships_on_starting_spots_descend_with_the_mother_ship() -> None:
    state = placing([("black", 2)], mothership=3, ships=[[0, 0, False]])
    apply(state, Place("black", 2, "B1"))
    assert ships(state) == {(5, 1, False)}


def test_anti_aircraft_gun_moves_ships_one_space_less_and_takes_effect_at_once() -> None:
    state = placing([("black", 4), ("black", 1)])
    apply(state, Place("black", 4, "A1"), Place("black", 1, "A2"))
    assert (3, 1, False) in ships(state)  # 4 - 1
    assert (0, 2, False) in ships(state)  # a 1 does not move the ship
    assert state.phase == "roll" and state.round == 2  # a gun's die has nothing to resolve
    assert "A1" not in state.slots


def test_a_ship_reaching_the_city_damages_the_base_and_returns_to_the_mother_ship() -> None:
    state = placing([("black", 2), ("black", 5)], ships=[[14, 0, False], [12, 1, True], [10, 2, False]])
    apply(state, Place("black", 2, "B1"))
    assert state.damage == 1 and state.waiting == [1, 0]
    apply(state, Place("black", 5, "B2"))  # row 12 + 5 = 17: past the city
    assert state.damage == 2 and state.waiting == [1, 1]
    assert ships(state) == {(10, 3, False)}


# ---- Phase 2: using rooms ------------------------------------------------------------


def test_rooms_resolve_in_any_order_the_player_chooses() -> None:
    state = placing([("black", 5), ("black", 3)])
    apply(state, Place("black", 5, "B5"), Place("black", 3, "B1"))
    rooms = {a.room for a in state.legal_actions()}
    assert rooms == {"B1", "B5"}
    apply(state, Resolve("B5", True, ""))
    assert {a.room for a in state.legal_actions()} == {"B1"}


def test_using_a_room_costs_its_energy_and_skipping_is_free() -> None:
    state = placing([("black", 5)], energy=2, ships=[[4, 0, False]])
    apply(state, Place("black", 5, "B3"))
    apply(state, Resolve("B3", True, ""))  # shoot -1, cost 1
    assert state.energy == 1
    state = placing([("black", 5)], energy=2)
    apply(state, Place("black", 5, "B3"), Resolve("B3", False, ""))
    assert state.energy == 2 and "B3" not in state.slots


def test_a_room_cannot_be_used_without_enough_energy() -> None:
    state = placing([("black", 5)], energy=0)
    apply(state, Place("black", 5, "B3"))
    assert state.legal_actions() == [Resolve("B3", False, "")]
    with pytest.raises(IllegalActionError):
        state.apply_action(Resolve("B3", True, ""))


def test_modifier_changes_the_room_value_but_not_the_ship_movement() -> None:
    # B3 is shoot -1. A 3 moves the column-3 ship 3 rows but shoots with 2:
    # the ship on an explosion 2+ (row 4 col 1) falls, the one on 3+ (row 7 col 1) stays.
    state = placing([("black", 3)], ships=[[0, 2, False], [4, 0, False], [7, 0, False]])
    apply(state, Place("black", 3, "B3"))
    assert (3, 4, False) in ships(state)  # moved 3 (then the arrow)
    apply(state, Resolve("B3", True, ""))
    assert (4, 1, False) not in ships(state)
    assert (7, 1, False) in ships(state)


def test_energy_room_adds_its_value_up_to_seven() -> None:
    state = placing([("black", 4)], energy=2)
    apply(state, Place("black", 4, "B1"), Resolve("B1", True, ""))  # energy -1: value 3
    assert state.energy == 5
    state = placing([("black", 6)], energy=5)
    apply(state, Place("black", 6, "B1"), Resolve("B1", True, ""))
    assert state.energy == 7


def test_energy_room_restore_option_raises_energy_to_the_value() -> None:
    game = new_game(energy_room="restore")
    state = placing([("black", 6)], game, energy=2)
    apply(state, Place("black", 6, "B1"), Resolve("B1", True, ""))
    assert state.energy == 5
    state = placing([("black", 3)], game, energy=4)
    apply(state, Place("black", 3, "B1"), Resolve("B1", True, ""))
    assert state.energy == 4


def test_shoot_room_shoots_every_ship_on_an_explosion_of_the_value_or_less() -> None:
    # C4 is shoot +0 cost 2 (excavated). Explosions: row 3 col 2 = 1, row 4 col 1 = 2,
    # row 7 col 1 = 3, row 7 col 5 = 4, row 9 col 2 = 6; row 5 col 1 is no explosion.
    sky = [[3, 1, False], [4, 0, True], [7, 0, False], [7, 4, False], [9, 1, False], [5, 0, False]]
    state = placing([("black", 4)], excavator=1, energy=3, ships=sky)
    apply(state, Place("black", 4, "C4"))  # column 4 holds no ship
    apply(state, Resolve("C4", True, ""))
    assert ships(state) == {(9, 2, False), (5, 1, False)}
    assert state.waiting == [3, 0]  # shot green ships go back to the mother ship
    assert state.red_supply == 3  # a shot red ship is set aside


def test_research_advances_one_space_when_the_value_reaches_it() -> None:
    # track starts 3, 1, 4, 2. B5 is research -1.
    state = placing([("black", 4)], energy=2)
    apply(state, Place("black", 4, "B5"), Resolve("B5", True, ""))  # value 3
    assert state.research == 1


def test_research_advances_several_spaces_when_the_value_covers_their_sum() -> None:
    state = placing([("black", 5)], energy=2)
    apply(state, Place("black", 5, "B5"), Resolve("B5", True, ""))  # value 4 = 3 + 1
    assert state.research == 2


def test_research_does_not_move_when_the_value_is_below_the_next_space() -> None:
    state = placing([("black", 3)], energy=2)
    apply(state, Place("black", 3, "B5"), Resolve("B5", True, ""))  # value 2 < 3
    assert state.research == 0


def test_multi_space_room_needs_every_space_filled_and_uses_the_sum() -> None:
    # C2-C3 is a two-space energy room; excavator at C2 (index 3) opens both.
    state = placing([("black", 3), ("black", 4)], excavator=3, energy=0)
    apply(state, Place("black", 3, "C2"), Place("black", 4, "C3"))
    assert state.legal_actions() == [Resolve("C2", False, ""), Resolve("C2", True, "")]
    apply(state, Resolve("C2", True, ""))
    assert state.energy == 7  # 0 + 3 + 4


def test_multi_space_room_with_a_missing_die_does_nothing() -> None:
    state = placing([("black", 6), ("black", 2)], excavator=3, energy=0)
    apply(state, Place("black", 6, "C3"), Place("black", 2, "B1"))
    assert {a.room for a in state.legal_actions()} == {"B1"}
    assert "C3" not in state.slots
    apply(state, Resolve("B1", True, ""))
    assert state.energy == 1


def test_two_effect_room_applies_both_with_the_modified_sum() -> None:
    # E1-E2 is energy+shoot -3; dice 4 + 3 -> value 4: energy +4 and shoot 4.
    state = placing([("black", 4), ("black", 3)], excavator=14, energy=1, ships=[[7, 4, False]])
    apply(state, Place("black", 4, "E1"), Place("black", 3, "E2"))
    apply(state, Resolve("E1", True, ""))
    assert state.energy == 5
    assert state.ships == [] and state.waiting == [1, 0]  # the row 7 column 5 ship (4+) was shot


# ---- Phase 2: excavation ------------------------------------------------------------


def test_digging_costs_one_energy_and_moves_the_excavator_when_the_value_covers_the_route() -> None:
    state = placing([("black", 3)], energy=2)
    apply(state, Place("black", 3, "C2"))  # route from C5: C4, C3, C2 = 3
    assert state.legal_actions() == [Dig("C2", False), Dig("C2", True)]
    apply(state, Dig("C2", True))
    assert state.energy == 1
    assert state.board.dig_path[state.excavator] == "C2"
    assert state.excavated("C3") and state.excavated("C2") and not state.excavated("C1")


def test_digging_die_too_low_for_the_route_is_only_removed() -> None:
    state = placing([("black", 2)], energy=2)
    apply(state, Place("black", 2, "C2"))
    assert state.legal_actions() == [Dig("C2", False)]
    apply(state, Dig("C2", False))
    assert state.excavator == 0 and state.energy == 2


def test_digging_needs_one_energy() -> None:
    state = placing([("black", 6)], energy=0)
    apply(state, Place("black", 6, "C4"))
    assert state.legal_actions() == [Dig("C4", False)]


def test_excavated_room_takes_dice_from_the_next_round() -> None:
    state = placing([("black", 1)], energy=2)
    apply(state, Place("black", 1, "C4"), Dig("C4", True))
    assert state.excavated("C4")
    state2 = placing([("black", 5)], excavator=state.excavator)
    assert Place("black", 5, "C4") in state2.legal_actions()
    assert not state2.dug


# ---- Phase 2: robots ------------------------------------------------------------------


def test_robot_is_built_with_the_room_value_and_placed_after_all_rooms() -> None:
    state = placing([("black", 5), ("black", 4)], energy=3)
    apply(state, Place("black", 5, "B2"), Place("black", 4, "B5"))
    apply(state, Resolve("B2", True, ""))  # robot -1, cost 1: a robot of 4
    assert state.phase == "resolve" and state.new_robots == [4]
    apply(state, Resolve("B5", True, ""))
    assert state.phase == "robot"
    assert {a.space for a in state.legal_actions()} == {"B1", "B2", "B3", "B5"}  # rooms, no guns/tunnels
    apply(state, PlaceRobot("B3"))
    assert state.slots["B3"] == ("robot", 4)
    assert state.robot_supply == 1


def robot_round(robot_value: int, dice: list[tuple[str, int]], **changes: object) -> object:
    return placing(dice, slots={"B3": ["robot", robot_value]}, robot_supply=1, **changes)


def test_robot_occupies_its_spot_but_not_its_column_and_moves_no_ship() -> None:
    state = robot_round(4, [("black", 2)])
    spaces = {a.space for a in state.legal_actions()}
    assert "B3" not in spaces
    assert "A3" in spaces  # the robot does not count for one die per column
    assert (0, 3, False) in ships(state)  # it never moved the column-3 ship


def test_robot_works_like_a_die_and_loses_a_pip_each_use() -> None:
    state = robot_round(4, [("black", 1)], ships=[[4, 0, False]], energy=2)
    apply(state, Place("black", 1, "B5"))
    apply(state, Resolve("B3", True, ""))  # shoot -1 with the robot's 4: value 3
    assert (4, 1, False) not in ships(state)
    assert state.slots["B3"] == ("robot", 3) and state.energy == 1


def test_robot_loses_a_pip_even_when_its_room_is_skipped() -> None:
    state = robot_round(4, [("black", 1)])
    apply(state, Place("black", 1, "B5"), Resolve("B3", False, ""))
    assert state.slots["B3"] == ("robot", 3)


def test_robot_at_one_is_used_then_removed() -> None:
    state = robot_round(1, [("black", 1)])
    apply(state, Place("black", 1, "B5"), Resolve("B3", False, ""))
    assert "B3" not in state.slots and state.robot_supply == 2


def test_robot_room_rebuilds_a_placed_robot_when_none_is_left() -> None:
    state = placing([("black", 6)], slots={"B3": ["robot", 2], "B5": ["robot", 3]}, robot_supply=0, energy=2)
    apply(state, Place("black", 6, "B2"))
    uses = [a for a in state.legal_actions() if a.room == "B2" and a.use]
    assert set(uses) == {Resolve("B2", True, "B3"), Resolve("B2", True, "B5")}
    apply(state, Resolve("B2", True, "B3"))
    assert "B3" not in state.slots and state.new_robots == [5]


def test_robot_room_may_rebuild_a_placed_robot_while_a_blue_die_is_left() -> None:
    # "Take one of the blue dice (set aside or an already placed)": a worn robot may be moved
    # and renewed even though a blue die still waits in the supply.
    state = placing([("black", 6)], slots={"B3": ["robot", 1]}, robot_supply=1, energy=2)
    apply(state, Place("black", 6, "B2"))
    uses = [a for a in state.legal_actions() if a.room == "B2" and a.use]
    assert set(uses) == {Resolve("B2", True, ""), Resolve("B2", True, "B3")}
    apply(state, Resolve("B2", True, "B3"))
    assert "B3" not in state.slots and state.new_robots == [5] and state.robot_supply == 1


# ---- Phase 3: the mother ship ------------------------------------------------------------


def end_of_round(**changes: object) -> object:
    """A position whose only die resolves with nothing left to do, then phase 3 runs."""
    return placing([("black", 1)], **changes)


def finish_round(state: object) -> None:
    """Place the die on a gun (no resolution), skip any robot rooms: phase 3 follows."""
    apply(state, Place("black", 1, "A1"))
    while state.phase == "resolve":
        apply(state, next(a for a in state.legal_actions() if not a.use))


def test_mother_ship_phase_resolves_the_symbol_then_descends() -> None:
    state = end_of_round(mothership=1, excavator=3)  # row 2's symbol: exc-1
    finish_round(state)
    assert state.mothership == 2 and state.excavator == 2


def test_excavator_pushed_back_removes_robots_from_closed_rooms() -> None:
    state = end_of_round(mothership=5, excavator=5, slots={"C1": ["robot", 3], "B1": ["robot", 2]}, robot_supply=0)
    finish_round(state)  # both robots worked (3 -> 2, 2 -> 1); row 6: exc-2 -> excavator C2; C1 closes
    assert state.board.dig_path[state.excavator] == "C2"
    assert "C1" not in state.slots and state.slots["B1"] == ("robot", 1) and state.robot_supply == 1


def test_research_symbol_sets_the_research_back() -> None:
    state = end_of_round(mothership=6, research=5)  # row 7: res-2
    finish_round(state)
    assert state.research == 3


def test_damage_symbol_damages_the_base() -> None:
    state = end_of_round(mothership=9)  # row 10: dmg
    finish_round(state)
    assert state.damage == 1


def test_red_symbol_puts_a_red_ship_on_the_mother_ship_to_respawn() -> None:
    state = end_of_round(mothership=2, ships=[])  # row 3: +red
    finish_round(state)
    assert state.red_supply == 1 and state.waiting == [0, 1]
    assert state.phase == "respawn"
    assert {a.red for a in state.legal_actions()} == {True}
    apply(state, Spawn(3, True))
    assert (0, 3, True) in ships(state)


def test_red_symbol_with_no_red_ship_left_does_nothing() -> None:
    state = end_of_round(mothership=2, red_supply=0)
    finish_round(state)
    assert state.waiting == [0, 0]


def test_obstructing_ships_on_the_covered_row_go_back_onto_the_mother_ship() -> None:
    state = end_of_round(mothership=0, ships=[[1, 2, False], [2, 3, False]])
    finish_round(state)
    assert state.mothership == 1
    assert ships(state) == {(2, 4, False)}
    assert state.phase == "respawn"


def test_respawn_prefers_columns_without_a_ship() -> None:
    sky = [[3, 0, False], [0, 1, False], [6, 2, False], [5, 3, False]]  # column 5 has no ship
    state = end_of_round(ships=sky, waiting=[2, 0])
    finish_round(state)
    assert state.legal_actions() == [Spawn(5, False)]
    apply(state, Spawn(5, False))
    # every column now holds a ship: any free starting spot will do
    assert set(state.legal_actions()) == {Spawn(1, False), Spawn(3, False), Spawn(4, False)}
    apply(state, Spawn(1, False))
    assert state.phase == "roll" and state.round == 2


def test_ships_wait_when_every_starting_spot_is_taken() -> None:
    state = end_of_round(ships=[[0, c, False] for c in range(5)], waiting=[0, 1])
    finish_round(state)  # the AA die in column 1 moved nothing
    assert state.phase == "roll" and state.waiting == [0, 1]


def test_shot_down_ships_respawn_at_the_end_of_the_round() -> None:
    state = placing([("black", 4)], ships=[[4, 0, False]], energy=2)
    apply(state, Place("black", 4, "B3"), Resolve("B3", True, ""))  # value 3 shoots the 2+ ship
    assert state.phase == "respawn"
    assert state.legal_actions() == [Spawn(c, False) for c in range(1, 6)]  # no column holds a ship


# ---- End of the game --------------------------------------------------------------------


def test_losing_when_the_mother_ship_descends_to_the_skull() -> None:
    state = end_of_round(mothership=11)
    finish_round(state)
    assert state.is_terminal() and state.returns() == [0.0]
    assert "skull" in state.outcome().reason


def test_losing_when_a_mother_ship_icon_brings_it_to_the_skull() -> None:
    # the card covers row 11; a ship on its spot in column 3 moves 1 onto row 12's icon
    state = placing([("black", 1)], mothership=11, ships=[[0, 2, False]])
    apply(state, Place("black", 1, "B3"))
    assert state.mothership == 12
    assert state.is_terminal() and "skull" in state.outcome().reason


def test_losing_when_the_base_takes_its_fifth_damage() -> None:
    state = placing([("black", 2)], damage=4, ships=[[14, 0, False]])
    apply(state, Place("black", 2, "B1"))
    assert state.is_terminal() and state.outcome().reason == "the base was destroyed"
    assert state.returns() == [0.0]


def test_winning_on_the_last_research_space() -> None:
    # D3-D4 is a two-space research room: 6 + 6 = 12 reaches the last space (12).
    state = placing([("black", 6), ("white", 6)], research=13, excavator=8, energy=1, ships=[])
    apply(state, Place("black", 6, "D3"), Place("white", 6, "D4"), Resolve("D3", True, ""))
    assert state.is_terminal() and state.returns() == [1.0]
    assert state.outcome().winners == (0,)


# ---- Levels ------------------------------------------------------------------------------


def test_level_flips_cards_in_the_flip_order() -> None:
    assert new_game(level=1).board.hard == ()
    assert new_game(level=4).board.hard == ("sky1", "sky2", "sky3")
    assert len(new_game(level=8).board.hard) == 7
    assert new_game(hard=["base_lower"]).level == 2


def test_hard_faces_are_marked_provisional() -> None:
    assert new_game(level=1).board.provisional == ()
    assert set(new_game(level=8).board.provisional) == set(new_game(level=8).board.hard)


# ---- Rulings without a rulebook example (see RULINGS.md) ------------------------------------


def test_a_die_with_no_free_space_is_set_aside() -> None:
    # columns 3-5 have dice; robots fill column 1's rooms and the gun is taken by a robot too
    slots = {"A1": ["robot", 2], "B1": ["robot", 2]}
    state = placing([("black", 1), ("black", 4)], columns_used=0b11100, dug=True, slots=slots)
    events = apply(state, Place("black", 1, "B2"))
    assert any(e.kind == "discard" for e in events)
    assert state.phase == "resolve" and state.unplaced == []
    assert (0, 1, False) in ships(state)  # the set-aside 4 moved nothing


def test_rebuilding_a_robot_out_of_an_unresolved_two_space_room_empties_that_room() -> None:
    # C2-C3 (energy, two spaces) holds a die and a robot; the robot is rebuilt elsewhere first.
    slots = {"C2": ["robot", 3], "B5": ["robot", 4]}
    state = placing([("black", 5), ("black", 6)], excavator=3, slots=slots, robot_supply=0, energy=3)
    apply(state, Place("black", 5, "C3"), Place("black", 6, "B2"))
    apply(state, Resolve("B2", True, "C2"))
    assert "C2" not in state.slots and "C3" not in state.slots  # the die left behind did nothing
    assert "C2" not in state.pending
    assert state.energy == 2 and state.new_robots == [5]
