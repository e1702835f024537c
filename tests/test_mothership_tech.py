"""Mothership part 2, chapter 6.2: the technology tree (the default design of content/tech.toml)."""

from __future__ import annotations

import pytest

from mothership_helpers import BOMBER_1, FIGHTER_1, MOTHERSHIP, cell, new_game, play, position, rolls, target
from spacetable.engine import OptionsError
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.rules.abilities import ABILITIES
from spacetable.games.mothership.rules.actions import Attack, BuyCharge, BuyTech, EndTurn, Move, Pass, UseAbility
from spacetable.games.mothership.rules.state import MothershipState
from spacetable.games.mothership.rules.tech import bonus

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


def test_a_purchase_between_turns_is_labelled_from_the_buyers_own_tree() -> None:
    """The trading window after seat 1's turn asks seat 2 here: its labels name seat 2's next
    tier, not the tier of the player whose turn just ended (seat 1 owns Industry tier 1)."""
    state = rich(rich(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"})), seat=1)
    climb(state, "industry", 1)
    play(state, EndTurn())
    assert state.current_player() == 1 and state.turn == 0
    industry = load_content().branches[BRANCHES["industry"]]
    assert state.action_label(BuyTech(BRANCHES["industry"])) == f"buy {industry.tiers[0].name} (Industry, tier 1)"
    assert state.action_label(BuyTech(BRANCHES["industry"])) != f"buy {industry.tiers[1].name} (Industry, tier 2)"


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


# ---- the fifth tiers: mothership abilities ------------------------------------------------


def reach(state: MothershipState, branch: str, seat: int = 0) -> MothershipState:
    """``seat`` has climbed ``branch`` to its fifth tier."""
    category = ("economy", "combat", "support").index(load_content().branches[BRANCHES[branch]].category)
    state.branches[seat][category], state.tiers[seat][category] = BRANCHES[branch], 5
    state._legal_cache = None
    return state


def ability(name: str) -> int:
    return ABILITIES.index(name)


def test_asteroid_mining_beside_a_field_uses_the_attack_phase() -> None:
    state = reach(position({(0, MOTHERSHIP): "B7", (1, FIGHTER_1): "K11"}), "industry")
    play(state, UseAbility(ability("asteroid_mining"), 0, 0))
    assert state.resources[0] == 3
    assert not [a for a in state.legal_actions() if a.kind in ("ability", "attack")]


def test_an_ability_and_an_attack_in_one_turn_are_refused() -> None:
    state = reach(position({(0, MOTHERSHIP): "B7", (1, FIGHTER_1): "B8"}), "industry")
    play(state, Attack(1, 7 + FIGHTER_1), *rolls(1, 6))
    assert not [a for a in state.legal_actions() if a.kind == "ability"]


def test_abilities_need_a_living_mothership() -> None:
    state = reach(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}), "industry")
    assert not [a for a in state.legal_actions() if a.kind == "ability"]


def test_sunslayer_torpedoes_hit_at_range_and_the_defender_only_avoids() -> None:
    state = reach(position({(0, MOTHERSHIP): "E2", (1, MOTHERSHIP): "E5"}), "artillery")
    play(state, UseAbility(ability("sunslayer_torpedoes"), 7, 0), *rolls(4, 6))
    assert state.hp == [12, 12]  # 4 + 2 (Heavy Cannons) against 6: a tie, nothing
    again = reach(position({(0, MOTHERSHIP): "E2", (1, MOTHERSHIP): "E5"}), "artillery")
    play(again, UseAbility(ability("sunslayer_torpedoes"), 7, 0), *rolls(1, 6))
    assert again.hp == [12, 12] and again.shield[0] == 5  # the defender won: the attacker is not hurt
    planet = reach(position({(0, MOTHERSHIP): "D7", (1, FIGHTER_1): "K11"}), "artillery")
    play(planet, UseAbility(ability("sunslayer_torpedoes"), 14, 0), *rolls(6))
    assert planet.owner[0] == 0  # D4, three spaces away: torpedoes take planets from afar


def test_the_nuclear_missile_reaches_anywhere_and_adds_to_its_roll() -> None:
    state = reach(position({(0, MOTHERSHIP): "A1", (1, MOTHERSHIP): "K11"}), "warheads")
    events = play(state, UseAbility(ability("nuclear_missile"), 7, 0), *rolls(5, 2))
    assert "Attack 9 against defence 2 = 2." in [e.text for e in events]
    assert state.hp[1] == 8  # 9 against 5 shields


def test_the_tractor_beam_holds_a_ship_through_its_owners_next_turn() -> None:
    state = reach(position({(0, MOTHERSHIP): "E2", (1, FIGHTER_1): "E5"}), "engineering")
    play(state, UseAbility(ability("tractor_beam"), 7 + FIGHTER_1, 0), EndTurn())
    assert not [a for a in state.legal_actions() if a.kind == "move"]


def test_jump_gates_after_moving_and_no_move_after_the_jump() -> None:
    state = reach(position({(0, MOTHERSHIP): "K1", (0, FIGHTER_1): "D1", (1, FIGHTER_1): "K11"}), "logistics")
    state.owner[2] = 0  # the planet H8
    play(state, Move(FIGHTER_1, cell("C1")))  # beside the station at B2
    jumps = [a for a in state.legal_actions() if a.kind == "ability" and a.unit == FIGHTER_1]
    assert UseAbility(ability("jump_gates"), FIGHTER_1, cell("G7")) in jumps
    play(state, UseAbility(ability("jump_gates"), FIGHTER_1, cell("G7")))
    assert state.pos[0][FIGHTER_1] == cell("G7") and state.attacked & 1  # the gates used its attack phase
    assert not [a for a in state.legal_actions() if a.kind == "move" and a.ship == FIGHTER_1]


def test_jump_gates_warp_a_teammates_ship_too() -> None:
    # Chapter 6.2: "any friendly ships" may warp between friendly stations and planets.
    ships = {(0, MOTHERSHIP): "F1", (2, FIGHTER_1): "I10", (1, FIGHTER_1): "F6", (3, FIGHTER_1): "D6"}
    state = reach(position(ships, game=new_game(4, team_size=2)), "logistics")
    teammate = UseAbility(ability("jump_gates"), target(2, FIGHTER_1), cell("C3"))  # J10's station -> B2's
    assert teammate in state.legal_actions()
    assert not [a for a in state.legal_actions() if a.kind == "ability" and a.unit == target(1, FIGHTER_1)]
    play(state, teammate)
    assert state.pos[2][FIGHTER_1] == cell("C3") and state.attacked & 1  # the gates used the attack phase
    again = [a for a in state.legal_actions() if a.kind == "ability" and a.unit == target(2, FIGHTER_1)]
    assert not again  # one jump a turn


def test_the_trees_defence_buffs_and_an_overcharge_aid_a_ship_against_asteroids() -> None:
    # Chapter 8: the tree's buffs aid a ship through an asteroid field, where it defends.
    state = rich(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}))
    climb(state, "warheads", 4)  # Evasive Pilots: fighters and bombers +1 defence
    play(state, Move(FIGHTER_1, cell("B6")), *rolls(4, 3))  # 3 + 1 ties the asteroids' 4
    assert state.pos[0][FIGHTER_1] == cell("B6")
    charged = rich(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}))
    climb(charged, "artillery", 2)  # Overcharge reached: one held
    assert charged.charges[0] == 1
    play(charged, Move(FIGHTER_1, cell("B6")), *rolls(6, 3))  # 3 + 3 ties the asteroids' 6
    assert charged.pos[0][FIGHTER_1] == cell("B6") and charged.charges[0] == 0


def test_the_hangar_bay_launches_a_lost_fighter_beside_the_mothership() -> None:
    state = reach(position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "K11"}), "defence")
    play(state, UseAbility(ability("hangar_bay"), FIGHTER_1, cell("F5")))
    assert state.pos[0][FIGHTER_1] == cell("F5")


def test_ranged_abilities_need_a_weapon_die() -> None:
    state = reach(position({(0, MOTHERSHIP): "E2", (1, MOTHERSHIP): "E5"}, energy={0: (7, 0, 8)}), "artillery")
    assert not [a for a in state.legal_actions() if a.kind == "ability"]


def test_salvage_crews_add_loot_and_trade_network_cheapens_cards() -> None:
    state = rich(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}), resources=5)
    climb(state, "industry", 2)  # 2 + 3: Mining Drones, Salvage Crews
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), *rolls(6, 1))
    assert state.resources[0] == 0 + 1 + 1  # a fighter's loot, and one more
    state.tiers[0][0] = 4
    assert bonus(state, 0, "card_discount") == 1


def test_shield_capacitors_and_matrix_raise_the_shields_without_stacking() -> None:
    state = rich(position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "K11"}))
    climb(state, "engineering", 1)
    play(state, EndTurn(), EndTurn(), Pass())  # seat 0, rich, is asked at the end of seat 1's turn
    assert state.shield[0] == 6  # 5 from the panel, 1 from the capacitors
    climb(state, "engineering", 2)
    play(state, EndTurn(), EndTurn(), Pass())
    assert state.shield[0] == 8  # the matrix's 3 replaces the capacitors' 1


def test_asteroid_navigation_helps_against_asteroids() -> None:
    state = rich(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}))
    climb(state, "engineering", 2)
    play(state, Move(FIGHTER_1, cell("B6")), *rolls(5, 3))  # 3 + 2 against the asteroids' 5
    assert state.pos[0][FIGHTER_1] == cell("B6")


def test_escort_doctrine_makes_wingmen_worth_more_and_defence_tiles_add() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "F7"}
    state = position(ships)
    state.branches[1][2], state.tiers[1][2] = BRANCHES["defence"], 4  # wingmen +2 (dark), +1 defence
    events = play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), *rolls(6, 1))
    assert "Attack 6 against defence 2 + 3 (1 wingman) = 5." in [e.text for e in events]  # 1 + 1, wingman 1 + 2


def test_warp_coils_move_the_mothership_farther() -> None:
    state = rich(position({(0, MOTHERSHIP): "A1", (1, FIGHTER_1): "K11"}))
    climb(state, "logistics", 4)
    assert Move(MOTHERSHIP, cell("A6")) in state.legal_actions()  # 3 + 2 spaces
