"""Mothership part 2, chapter 6.2: the technology tree (the default design of content/tech.toml)."""

from __future__ import annotations

import pytest

from mothership_helpers import BOMBER_1, FIGHTER_1, MOTHERSHIP, cell, new_game, play, position, rolls
from spacetable.engine import OptionsError
from spacetable.games.mothership.actions import Attack, BuyCharge, BuyTech, EndTurn, Move
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.state import MothershipState
from spacetable.games.mothership.tech import bonus

BRANCHES = {branch.key: index for index, branch in enumerate(load_content().branches)}


def rich(state: MothershipState, seat: int = 0, resources: int = 40) -> MothershipState:
    state.resources[seat] = resources
    state._legal_cache = None
    return state


def climb(state: MothershipState, branch: str, tiers: int) -> None:
    for _ in range(tiers):
        play(state, BuyTech(BRANCHES[branch]))


def test_tiers_are_bought_in_order_at_their_costs_one_branch_per_category() -> None:
    state = rich(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}))
    climb(state, "industry", 2)
    assert state.resources[0] == 40 - 2 - 3 and state.tiers[0] == [2, 0, 0]
    assert BuyTech(BRANCHES["logistics"]) not in state.legal_actions()  # the other economy branch
    assert BuyTech(BRANCHES["artillery"]) in state.legal_actions()  # another category


def test_dark_tiles_do_not_stack_the_highest_counts() -> None:
    state = rich(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}))
    climb(state, "industry", 1)
    assert bonus(state, 0, "income") == 1
    climb(state, "industry", 2)
    assert bonus(state, 0, "income") == 2  # Refinery's 2 replaces Mining Drones' 1
    play(state, EndTurn())
    assert state.resources[0] == 40 - 2 - 3 - 5 + 1 + 2  # the station and the Refinery


def test_move_and_attack_buffs_never_apply_to_planets() -> None:
    state = rich(position({(0, BOMBER_1): "C3", (1, FIGHTER_1): "K11"}))
    climb(state, "warheads", 1)  # +1 to bomber attacks
    play(state, Attack(1 << BOMBER_1, 14), *rolls(5))
    assert state.owner[0] == -1  # 5: the buff does not count on a planet
    other = rich(position({(0, BOMBER_1): "E5", (1, MOTHERSHIP): "E6"}))
    climb(other, "warheads", 1)
    events = play(other, Attack(1 << BOMBER_1, 7), *rolls(5, 5))
    assert "Attack 6 against defence 5 = 5." in [e.text for e in events]


def test_fuel_cells_add_engine_spaces_to_fighters_and_bombers() -> None:
    state = rich(position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"}))
    climb(state, "logistics", 1)
    assert Move(FIGHTER_1, cell("A6")) in state.legal_actions()


def test_the_orange_tile_is_bought_again_each_time_and_good_for_one_roll() -> None:
    state = rich(position({(0, MOTHERSHIP): "E5", (1, MOTHERSHIP): "E6"}))
    climb(state, "artillery", 2)
    assert state.charges[0] == 1 and BuyCharge() in state.legal_actions()
    play(state, BuyCharge())
    assert state.charges[0] == 2 and state.resources[0] == 40 - 2 - 3 - 3
    events = play(state, Attack(1, 7), *rolls(2, 2))
    assert "Attack 6 against defence 2 = 2." in [e.text for e in events]  # 2 + 1 (tier 1) + 3
    assert state.charges[0] == 1


def test_planetary_defence_raises_the_capture_total() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    state.owner[0] = 1
    state.branches[1][2], state.tiers[1][2] = BRANCHES["engineering"], 4
    play(state, Attack(1 << FIGHTER_1, 14), *rolls(6))
    assert state.owner[0] == 1  # 6 + 2 needed


def test_station_guns_let_a_colony_station_roll() -> None:
    state = position({(0, BOMBER_1): "I11", (1, BOMBER_1): "K11"})  # only bombers: guards ignored
    state.branches[1][2], state.tiers[1][2] = BRANCHES["defence"], 2
    play(state, Attack(1 << BOMBER_1, 7 + 6))
    assert [a.value for a, _ in state.chance_outcomes()] == [1, 2, 3, 4, 5, 6, 7, 8]
    play(state, *rolls(3, 4))  # 3 against the station's 4: the bomber explodes
    assert state.pos[0][BOMBER_1] == -1


def test_a_tree_without_two_branches_per_category_is_refused() -> None:
    with pytest.raises(OptionsError, match="splits into 2"):
        new_game(content={"tech": {"branches": []}})
