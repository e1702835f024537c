"""Mothership part 2, chapters 6 and 6.1: the action card deck, hands, buying, selling, capture
rewards, blind steals, and the windows where other players may act. Forced draws and dice."""

from __future__ import annotations

import random

from mothership_helpers import BOMBER_1, FIGHTER_1, FIGHTER_2, MOTHERSHIP, cell, new_game, play, position, rolls
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.rules.actions import (
    Attack,
    Buy,
    DrawCard,
    EndTurn,
    EventChoice,
    Move,
    Pass,
    Play,
    Reward,
    Sell,
    StealCard,
)
from spacetable.games.mothership.rules.state import MothershipState

CARDS = {card.key: index for index, card in enumerate(load_content().cards)}
AFTERBURNER, HULL_REPAIR, WORMHOLE, NOOOO = (
    CARDS["afterburner"],
    CARDS["hull_repair"],
    CARDS["wormhole"],
    CARDS["noooo"],
)


def test_the_deck_holds_the_card_lists_quantities_module_cards_only_with_their_module() -> None:
    state = new_game().new_initial_state()
    content = load_content()
    assert sum(state.deck) == 87 and state.deck[CARDS["random_event"]] == 0 and state.deck[CARDS["recon_droid"]] == 0
    assert state.deck[CARDS["afterburner"]] == 4 and state.deck[NOOOO] == 1
    with_events = new_game(random_event=True).new_initial_state()
    assert sum(with_events.deck) == 92
    assert sum(new_game(random_event=True, exploration=True).new_initial_state().deck) == 97
    assert len(content.cards) == 39


def test_a_card_costs_two_resources_and_is_drawn_blind() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"})
    state.resources = [3, 0]
    assert Buy() in state.legal_actions()
    events = play(state, Buy())
    assert state.resources[0] == 1 and state.is_chance_node()
    events += play(state, DrawCard(WORMHOLE))
    assert state.hands[0] == [WORMHOLE] and state.deck[WORMHOLE] == 0
    public = [e.text for e in events if e.to is None]
    assert "Player 1 draws an action card." in public and not any("Wormhole" in text for text in public)
    assert Buy() not in state.legal_actions()  # 1 resource left


def test_a_card_sells_for_its_value_into_the_discard_pile() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"})
    state.hands[0] = [HULL_REPAIR, WORMHOLE]
    play(state, Sell(WORMHOLE))
    assert state.resources[0] == 3 and state.hands[0] == [HULL_REPAIR] and state.discard[WORMHOLE] == 1


def test_a_capture_earns_a_card_from_the_deck() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    play(state, Attack(1 << FIGHTER_1, 2 * 7 + 0), *rolls(6))
    assert state.owner[0] == 0 and state.is_chance_node()
    play(state, DrawCard(AFTERBURNER))
    assert state.hands[0] == [AFTERBURNER]


def test_capturing_another_players_planet_may_steal_blindly_instead() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    state.owner[0] = 1
    state.hands[1] = [AFTERBURNER, WORMHOLE, WORMHOLE]
    play(state, Attack(1 << FIGHTER_1, 2 * 7 + 0), Pass(), *rolls(6))  # the owner holds cards: asked first
    assert state.current_player() == 0 and state.legal_actions() == [Reward(0), Reward(1)]
    play(state, Reward(1))
    assert state.chance_outcomes() == [(StealCard(AFTERBURNER), 1 / 3), (StealCard(WORMHOLE), 2 / 3)]
    events = play(state, StealCard(WORMHOLE))
    assert state.hands == [[WORMHOLE], [AFTERBURNER, WORMHOLE]]
    assert state.known[1][0] == [WORMHOLE]  # the victim knows what the thief holds now
    assert all(e.to in (None, (0, 1)) for e in events)


def test_resample_re_deals_hidden_hands_but_keeps_what_the_seat_knows() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    state.hands = [[HULL_REPAIR], [AFTERBURNER, WORMHOLE]]
    state.known[1][0] = [HULL_REPAIR]
    rng = random.Random(3)
    for _ in range(20):
        seen_by_1 = state.resample(1, rng)
        assert seen_by_1.hands[1] == [AFTERBURNER, WORMHOLE] and seen_by_1.hands[0] == [HULL_REPAIR]
        seen_by_0 = state.resample(0, rng)
        assert seen_by_0.hands[0] == [HULL_REPAIR] and len(seen_by_0.hands[1]) == 2
        assert sum(seen_by_0.deck) + 2 == sum(state.deck) + 2
    assert any(state.resample(0, rng).hands[1] != [AFTERBURNER, WORMHOLE] for _ in range(20))


def test_views_show_only_the_seats_own_hand() -> None:
    state = position({(0, BOMBER_1): "C3", (1, FIGHTER_1): "K11"})
    state.hands = [[HULL_REPAIR], [AFTERBURNER, WORMHOLE]]
    assert state.view(0)["hands"] == [[HULL_REPAIR], 2]
    assert state.view(None)["hands"] == [1, 2] and state.view(None)["deck"] == sum(state.deck)


def test_a_player_out_discards_the_hand() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"})
    state.hands[1] = [WORMHOLE]
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Pass(), *rolls(6, 1), Pass(), Pass())  # asked 3 times
    assert state.out[1] and state.hands[1] == [] and state.discard[WORMHOLE] == 1


def test_other_players_may_buy_and_sell_at_the_end_of_a_turn_only_those_who_can_are_asked() -> None:
    game = new_game(4)
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "A6", (2, FIGHTER_1): "K6", (3, FIGHTER_1): "F1"}
    state = position(ships, game=game)
    state.resources = [0, 0, 2, 0]  # seat 2 can buy
    state.hands[3] = [HULL_REPAIR]  # seat 3 can sell; seat 1 can do nothing
    play(state, EndTurn())
    assert state.current_player() == 2 and state.turn == 0
    assert state.legal_actions()[0] == Buy() and state.legal_actions()[-1] == Pass()  # a card, or a tier
    play(state, Buy(), DrawCard(WORMHOLE))
    assert state.current_player() == 2  # still trading: sell what was just bought, or pass
    assert state.legal_actions() == [Sell(WORMHOLE), Pass()]
    play(state, Pass())
    assert state.current_player() == 3 and state.legal_actions() == [Sell(HULL_REPAIR), Pass()]
    play(state, Pass())
    assert state.current_player() == 1 and state.turn == 1  # the next turn: seat 1 was never asked


# ---- the own-turn cards -----------------------------------------------------------------


def card(key: str) -> int:
    return CARDS[key]


def holding(state: MothershipState, seat: int, *keys: str) -> MothershipState:
    state.hands[seat] = sorted(card(k) for k in keys)
    state._legal_cache = None
    return state


def test_afterburner_adds_four_engine_spaces_for_the_turn_only() -> None:
    state = holding(position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"}), 0, "afterburner")
    play(state, Play(card("afterburner"), FIGHTER_1, 0))
    assert Move(FIGHTER_1, cell("A9")) in state.legal_actions()  # 8 spaces: 4 + 4
    assert state.discard[card("afterburner")] == 1 and state.hands[0] == []
    play(state, EndTurn(), EndTurn())
    assert Move(FIGHTER_1, cell("A9")) not in state.legal_actions()


def test_punch_it_doubles_one_ships_engine_spaces() -> None:
    state = holding(position({(0, BOMBER_1): "A1", (1, FIGHTER_1): "K11"}), 0, "punch_it")
    play(state, Play(card("punch_it"), BOMBER_1, 0))
    moves = {a.cell for a in state.legal_actions() if a.kind == "move"}
    assert cell("A7") in moves and cell("A8") not in moves  # 3 doubled


def test_convoy_boosts_the_ships_that_began_the_turn_beside_the_mothership() -> None:
    ships = {(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "E4", (0, FIGHTER_2): "A1", (1, FIGHTER_1): "K11"}
    state = holding(position(ships), 0, "convoy")
    play(state, Play(card("convoy"), 0, 0))
    assert [e[2] for e in state.effects if e[0] == "boost"] == [FIGHTER_1]


def test_deflector_shields_let_a_ship_enter_asteroids_without_a_dogfight() -> None:
    state = holding(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}), 0, "deflector_shields")
    play(state, Play(card("deflector_shields"), FIGHTER_1, 0), Move(FIGHTER_1, cell("B6")))
    assert not state.is_chance_node() and state.cleared[0][FIGHTER_1] >= 0


def test_hull_repair_gives_one_hull_point_back_never_above_twelve() -> None:
    state = holding(position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "K11"}), 0, "hull_repair")
    assert not [a for a in state.legal_actions() if a.kind == "play"]  # nothing to repair
    state.hp[0] = 10
    state._legal_cache = None
    play(state, Play(card("hull_repair"), 0, 0))
    assert state.hp[0] == 11


def test_wallet_inspector_takes_one_resource() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "wallet_inspector")
    state.resources = [0, 3]
    play(state, Play(card("wallet_inspector"), 7 + 6, 0))
    assert state.resources == [1, 2]


def test_a_resample_keeps_what_other_players_know_of_each_others_hands_true() -> None:
    """Seat 1 knows seat 0 holds the Wormhole it stole from seat 1. Seat 2 sees neither hand, so its
    resample re-deals both; what seat 1 knows must then be in seat 0's new hand, as in any true state
    (found by the conformance suite's long run: resamples the game's own loader refused)."""
    game = new_game(4)
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11", (2, FIGHTER_1): "J10"}, game=game)
    state.hands = [[HULL_REPAIR, WORMHOLE], [AFTERBURNER], [], []]
    state.known[1][0] = [WORMHOLE]
    rng = random.Random(7)
    resamples = [state.resample(2, rng) for _ in range(30)]
    for seen_by_2 in resamples:
        for observer in range(4):
            for holder in range(4):
                known, hand = seen_by_2.known[observer][holder], list(seen_by_2.hands[holder])
                for card in known:
                    hand.remove(card)  # ValueError: known to be held, yet not in the hand
        assert len(seen_by_2.known[1][0]) == 1  # seat 1 still knows one card of seat 0's hand
    assert {tuple(r.hands[0]) for r in resamples} != {(HULL_REPAIR, WORMHOLE)}  # seat 0's hand re-dealt


def test_pick_up_two_cards_draws_two() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "pick_up_two")
    play(state, Play(card("pick_up_two"), 0, 0), DrawCard(WORMHOLE), DrawCard(HULL_REPAIR))
    assert state.hands[0] == sorted([WORMHOLE, HULL_REPAIR])


def test_surprise_attack_steals_blindly_from_an_enemy_hand() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "surprise_attack")
    state.hands[1] = [WORMHOLE]
    play(state, Play(card("surprise_attack"), 7 + 6, 0), Pass())  # seat 1 holds a card: may it cancel?
    assert state.chance_outcomes() == [(StealCard(WORMHOLE), 1.0)]
    play(state, StealCard(WORMHOLE))
    assert state.hands == [[WORMHOLE], []]


def test_trade_blockade_stops_all_income_until_the_players_next_turn() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "trade_blockade")
    state.owner = [0, 1, 1]
    play(state, Play(card("trade_blockade"), 0, 0), EndTurn(), EndTurn())
    assert state.resources == [0, 0]
    play(state, EndTurn())  # seat 0's next turn began: the blockade is over
    assert state.resources == [2, 0]


def test_forced_update_keeps_an_enemy_ship_still_for_its_owners_next_turn() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "forced_update")
    play(state, Play(card("forced_update"), 7 + FIGHTER_1, 0), EndTurn())
    assert not [a for a in state.legal_actions() if a.kind == "move"]
    play(state, EndTurn(), EndTurn())
    assert [a for a in state.legal_actions() if a.kind == "move"]


def test_panic_button_and_wormhole_warp_a_ship_which_then_moves_no_more() -> None:
    state = holding(position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"}), 0, "panic_button", "wormhole")
    state.owner[2] = 0  # the planet at H8
    plays = [a for a in state.legal_actions() if a.kind == "play" and a.card == card("panic_button")]
    assert {a.spot for a in plays} == {cell(n) for n in ("G7", "H7", "I7", "G8", "I8", "I9")}  # G9, H9: asteroids
    play(state, Play(card("panic_button"), FIGHTER_1, cell("G7")))  # unit: its target number (seat 0)
    assert state.pos[0][FIGHTER_1] == cell("G7") and not [a for a in state.legal_actions() if a.kind == "move"]
    other = holding(position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"}), 0, "wormhole")
    play(other, Play(card("wormhole"), FIGHTER_1, cell("K1")))
    assert other.pos[0][FIGHTER_1] == cell("K1")


def test_migration_moves_the_colony_station_beside_a_friendly_planet() -> None:
    state = holding(position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"}), 0, "migration")
    state.owner[1] = 0  # F6
    play(state, Play(card("migration"), 6, cell("E5")))
    assert state.stations[0] == cell("E5") and state.grid[cell("B2")] == -1


def test_friendly_negotiations_capture_a_planet_within_two_spaces_and_earn_a_card() -> None:
    state = holding(position({(0, FIGHTER_1): "F4", (1, FIGHTER_1): "K11"}), 0, "friendly_negotiations")
    play(state, Play(card("friendly_negotiations"), 14 + 1, 0))
    assert state.owner[1] == 0 and state.is_chance_node()


def test_planet_laser_pointer_takes_a_planet_off_the_board() -> None:
    state = holding(position({(0, FIGHTER_1): "F4", (1, FIGHTER_1): "K11"}), 0, "planet_laser_pointer")
    state.owner[1] = 1
    play(state, Play(card("planet_laser_pointer"), 14 + 1, 0))
    assert state.owner[1] == -2
    assert Move(FIGHTER_1, cell("F6")) in state.legal_actions()  # empty space now
    play(state, EndTurn(), EndTurn())
    assert state.resources[1] == 1  # its owner gets nothing for it any more: the station only


def test_noooo_cancels_a_card_as_it_is_played() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "pick_up_two")
    holding(state, 1, "noooo")
    play(state, Play(card("pick_up_two"), 0, 0))
    assert state.current_player() == 1 and state.legal_actions() == [Play(card("noooo"), 0, 0), Pass()]
    play(state, Play(card("noooo"), 0, 0))
    assert state.current_player() == 0 and not state.draws and state.hands == [[], []]
    assert state.discard[card("pick_up_two")] == 1 and state.discard[card("noooo")] == 1


def test_a_card_nobody_cancels_takes_effect_after_the_window() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "pick_up_two")
    holding(state, 1, "noooo")
    play(state, Play(card("pick_up_two"), 0, 0), Pass())
    assert state.draws == [0, 0]


# ---- cards in a dogfight, declared before rolling ----------------------------------------


def duel(attacker_cards: tuple[str, ...], defender_cards: tuple[str, ...]) -> MothershipState:
    """Seat 0's mothership (E5, a d6) beside seat 1's (E6, a d6, 5 shields), each with cards."""
    state = position({(0, MOTHERSHIP): "E5", (1, MOTHERSHIP): "E6"})
    holding(state, 0, *attacker_cards)
    return holding(state, 1, *defender_cards)


def test_shield_breaker_then_auxiliary_shield_leaves_four_shields() -> None:
    state = duel(("shield_breaker",), ("auxiliary_shield",))
    play(state, Attack(1, 7))
    assert state.current_player() == 0
    play(state, Play(card("shield_breaker"), 0, 0), Pass())  # the defender does not cancel it
    assert state.current_player() == 1
    play(state, Play(card("auxiliary_shield"), 0, 0))
    assert state.is_chance_node()  # neither side has a card left: no more questions
    play(state, *rolls(6, 1))  # the defender loses to 6: 4 shield points take 4 of it
    assert state.hp[1] == 10 and state.shield[1] == 0


def test_auxiliary_shield_then_shield_breaker_leaves_none() -> None:
    state = duel(("shield_breaker",), ("auxiliary_shield",))
    play(state, Attack(1, 7), Pass(), Play(card("auxiliary_shield"), 0, 0), Pass(), Play(card("shield_breaker"), 0, 0))
    play(state, *rolls(6, 1))
    assert state.hp[1] == 6


def test_unused_auxiliary_shield_points_go_after_the_dogfight() -> None:
    state = duel((), ("auxiliary_shield",))
    play(state, Attack(1, 7), Play(card("auxiliary_shield"), 0, 0), *rolls(6, 1))
    assert state.hp[1] == 12 and state.shield[1] == 3  # 9 points took 6; the 4 extra went first


def test_defence_buff_and_volt_switch_add_to_their_sides() -> None:
    state = duel(("volt_switch",), ("defence_buff",))
    play(state, Attack(1, 7), Play(card("volt_switch"), 0, 0), Pass(), Play(card("defence_buff"), 0, 0))
    events = play(state, *rolls(2, 4))
    assert "Attack 5 against defence 5 = 5." in [e.text for e in events]  # 2 + 3 against 4 + 1: a tie


def test_expansion_pak_doubles_one_die_face_not_the_buffs() -> None:
    ships = {(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, MOTHERSHIP): "E6"}
    state = holding(position(ships), 0, "expansion_pak", "volt_switch")
    play(state, Attack(0b110, 7), Play(card("expansion_pak"), 0, 0))
    events = play(state, Pass(), *rolls(2, 5, 1), Pass())  # it still holds Volt Switch: asked after the roll
    assert "Attack 12 against defence 1 = 1." in [e.text for e in events]  # 2 + 5 + 5 (the 5 again)


def test_git_off_mah_propertay_raises_the_capture_total_by_three() -> None:
    state = holding(position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}), 1, "git_off_mah_propertay")
    state.owner[0] = 1
    play(state, Attack(1 << FIGHTER_1, 14))
    assert state.current_player() == 1
    play(state, Play(card("git_off_mah_propertay"), 0, 0), *rolls(6))
    assert state.owner[0] == 1


def test_action_card_buffs_never_apply_to_a_planet_attack() -> None:
    state = holding(position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}), 0, "volt_switch", "defence_buff")
    play(state, Attack(1 << FIGHTER_1, 14))
    assert state.is_chance_node()  # nothing to play: no window


def test_the_wingman_card_adds_two_to_a_defender_with_a_friend_beside_it() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, FIGHTER_2): "F7"}
    state = holding(position(ships), 1, "wingman")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Play(card("wingman"), 0, 0))
    events = play(state, *rolls(5, 2))
    assert "Attack 5 against defence 4 + 1 wingman = 5." in [e.text for e in events]


def test_seismic_charge_needs_the_enemy_in_or_beside_an_asteroid_field() -> None:
    ships = {(0, FIGHTER_1): "C7", (1, FIGHTER_1): "D7"}  # D7 is beside the field at B6-C6
    state = holding(position(ships), 0, "seismic_charge")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Play(card("seismic_charge"), 0, 0))
    events = play(state, *rolls(1, 3))
    assert "Attack 4 against defence 3 = 3." in [e.text for e in events]


def test_enhanced_sensors_need_a_friendly_mothership_beside_the_ship() -> None:
    ships = {(0, FIGHTER_1): "E5", (0, MOTHERSHIP): "D4", (1, FIGHTER_1): "E6"}
    state = holding(position(ships), 0, "enhanced_sensors")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Play(card("enhanced_sensors"), 0, 0))
    events = play(state, *rolls(1, 2))
    assert "Attack 3 against defence 2 = 2." in [e.text for e in events]


def test_ninja_rope_moves_a_ship_two_spaces_after_its_attack() -> None:
    state = holding(position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}), 0, "ninja_rope")
    play(state, Attack(1 << FIGHTER_1, 14), *rolls(1))
    assert not [a for a in state.legal_actions() if a.kind == "move"]
    play(state, Play(card("ninja_rope"), FIGHTER_1, 0))
    moves = {a.cell for a in state.legal_actions() if a.kind == "move"}
    assert cell("C5") in moves and cell("C6") not in moves


def test_gravity_manipulator_pulls_an_enemy_ship_near_a_friendly_planet() -> None:
    state = holding(position({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "E6"}), 0, "gravity_manipulator")
    state.owner[0] = 0  # D4: the enemy at E6 is 2 spaces from it
    play(state, Play(card("gravity_manipulator"), 7 + FIGHTER_1, cell("E8")))
    assert state.pos[1][FIGHTER_1] == cell("E8")


def test_prod_takes_one_energy_from_an_enemy_subsystem_for_the_turn() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, MOTHERSHIP): "E6"}), 0, "prod")
    play(state, Play(card("prod"), 7, 2))  # the shields: 5 energy -> 4
    assert state.shield[1] == 4
    play(state, EndTurn())
    assert state.shield[1] == 5 and state.energy[1] == [5, 5, 5]


def test_dedotated_wam_deals_three_hull_damage_and_uses_the_attack() -> None:
    state = holding(position({(0, BOMBER_1): "E5", (1, MOTHERSHIP): "E6"}), 0, "dedotated_wam")
    play(state, Play(card("dedotated_wam"), 7, BOMBER_1))
    assert state.hp[1] == 9 and state.shield[1] == 5
    assert not [a for a in state.legal_actions() if a.kind == "attack"]


def test_railguns_attack_four_spaces_away_and_lose_nothing_if_the_defence_holds() -> None:
    state = holding(position({(0, BOMBER_1): "E1", (1, MOTHERSHIP): "E5"}), 0, "railguns")
    play(state, Play(card("railguns"), 7, BOMBER_1), *rolls(2, 6))
    assert state.pos[0][BOMBER_1] == cell("E1")  # the mothership's 6 beat it, but at range
    again = holding(position({(0, BOMBER_1): "E1", (1, MOTHERSHIP): "E5"}), 0, "railguns")
    play(again, Play(card("railguns"), 7, BOMBER_1), *rolls(8, 1))
    assert again.hp[1] == 9  # 8 against 5 shields


def test_cowardly_retreat_warps_the_ships_around_one_beside_a_friendly_place() -> None:
    ships = {(0, FIGHTER_1): "F5", (0, FIGHTER_2): "G5", (0, BOMBER_1): "K1", (1, FIGHTER_1): "K11"}
    state = holding(position(ships), 0, "cowardly_retreat")
    play(state, Play(card("cowardly_retreat"), FIGHTER_1, cell("B2")))  # to beside the station
    board = state.board
    assert board is not None
    assert {state.pos[0][FIGHTER_1], state.pos[0][FIGHTER_2]} <= set(board.neighbours[cell("B2")])
    assert state.pos[0][BOMBER_1] == cell("K1")


def test_replicator_rolls_a_d4_of_resources() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "replicator")
    play(state, Play(card("replicator"), 0, 0))
    assert [a.value for a, _ in state.chance_outcomes()] == [1, 2, 3, 4]
    play(state, *rolls(3))
    assert state.resources[0] == 3


# ---- after the roll ----------------------------------------------------------------------


def test_backup_generator_rolls_a_one_again_and_adds() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}), 0, "backup_generator")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Pass(), *rolls(1, 4))
    assert state.current_player() == 0
    assert Play(card("backup_generator"), 0, 0) in state.legal_actions()
    play(state, Play(card("backup_generator"), 0, 0), *rolls(5))  # 1 + 5 against 4
    assert state.pos[1][FIGHTER_1] == -1


def test_backup_generator_needs_a_one() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}), 0, "backup_generator")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Pass(), *rolls(2, 4))
    assert state.legal_actions() == [Pass()]


def test_the_forks_roll_one_of_the_players_own_dice_again() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}), 1, "the_forks")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Pass(), *rolls(5, 2))
    assert state.current_player() == 1 and state.legal_actions() == [Play(card("the_forks"), 0, 1), Pass()]
    play(state, Play(card("the_forks"), 0, 1), *rolls(6))  # the defender's 2 becomes 6
    assert state.pos[0][FIGHTER_1] == -1 and state.pos[1][FIGHTER_1] == cell("E6")


# ---- against asteroids (chapter 8: "any buffs from Action cards ... can aid you") -----------


def test_defence_buff_is_offered_before_the_asteroid_roll_and_turns_a_loss_into_a_tie() -> None:
    state = holding(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}), 0, "defence_buff", "seismic_charge")
    play(state, Move(FIGHTER_1, cell("B6")))
    assert state.current_player() == 0 and state.legal_actions() == [Play(card("defence_buff"), 0, 0), Pass()]
    play(state, Play(card("defence_buff"), 0, 0), Pass(), *rolls(4, 3))  # asteroids 4, the fighter 3 + 1
    play(state, Pass())  # still holding a card: asked after the roll too (ruling 30)
    assert state.pos[0][FIGHTER_1] == cell("B6") and state.cleared[0][FIGHTER_1] >= 0


def test_backup_generator_and_the_forks_roll_the_ships_die_again_after_the_asteroid_roll() -> None:
    state = holding(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}), 0, "backup_generator")
    play(state, Move(FIGHTER_1, cell("B6")), Pass(), *rolls(4, 1))
    assert state.legal_actions() == [Play(card("backup_generator"), 0, 1), Pass()]  # the ship's die only
    play(state, Play(card("backup_generator"), 0, 1), *rolls(3))  # 1 + 3 ties the asteroids' 4
    assert state.pos[0][FIGHTER_1] == cell("B6")
    other = holding(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}), 0, "the_forks")
    play(other, Move(FIGHTER_1, cell("B6")), Pass(), *rolls(5, 2), Play(card("the_forks"), 0, 1), *rolls(6))
    assert other.pos[0][FIGHTER_1] == cell("B6")


def test_volt_switch_and_expansion_pak_aid_a_mothership_through_the_asteroids() -> None:
    state = holding(position({(0, MOTHERSHIP): "B7", (1, FIGHTER_1): "K11"}), 0, "volt_switch", "expansion_pak")
    play(state, Move(MOTHERSHIP, cell("B6")), Play(card("volt_switch"), 0, 0), Play(card("expansion_pak"), 0, 0))
    play(state, *rolls(6, 1))  # the d6 weapons' 1, doubled, + 3 = 5 against 6: still a loss
    assert (state.hp[0], state.shield[0]) == (11, 0)  # 6 damage: 5 shield points, 1 hull
    again = holding(position({(0, MOTHERSHIP): "B7", (1, FIGHTER_1): "K11"}), 0, "volt_switch", "expansion_pak")
    play(again, Move(MOTHERSHIP, cell("B6")), Play(card("volt_switch"), 0, 0), Play(card("expansion_pak"), 0, 0))
    events = play(again, *rolls(6, 2))  # 2 doubled + 3 = 7 beats 6: no damage
    assert (again.hp[0], again.shield[0]) == (12, 5) and any("beats the asteroids" in e.text for e in events)
    assert "How: 7 = Player 1's Mothership's d6 2 + Volt Switch 3 + Expansion Pak 2 against the asteroids' 6." in [
        e.text for e in events
    ]


def test_auxiliary_shield_takes_the_asteroids_damage_first() -> None:
    state = holding(position({(0, MOTHERSHIP): "B7", (1, FIGHTER_1): "K11"}), 0, "auxiliary_shield")
    play(state, Move(MOTHERSHIP, cell("B6")), Play(card("auxiliary_shield"), 0, 0), *rolls(6, 1))
    assert (state.hp[0], state.shield[0]) == (12, 3)  # 6 damage: the 4 extra points, then 2 of its 5


def test_a_card_against_the_asteroids_may_be_cancelled_by_noooo() -> None:
    state = holding(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}), 0, "defence_buff")
    holding(state, 1, "noooo")
    play(state, Move(FIGHTER_1, cell("B6")), Play(card("defence_buff"), 0, 0))
    assert state.current_player() == 1
    play(state, Play(card("noooo"), 0, 0), *rolls(4, 3))  # the buff is cancelled: 3 against 4
    assert state.pos[0][FIGHTER_1] == -1


# ---- on losing ---------------------------------------------------------------------------


def test_life_support_saves_a_losing_fighter_but_the_winner_still_loots() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}), 1, "life_support")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Pass(), *rolls(6, 1), Pass())
    assert state.current_player() == 1 and Play(card("life_support"), 0, FIGHTER_1) in state.legal_actions()
    play(state, Play(card("life_support"), 0, FIGHTER_1), Pass())  # played: nothing more to answer
    assert state.pos[1][FIGHTER_1] == cell("E6") and state.resources[0] == 1


def test_last_stand_takes_an_attacker_down_with_the_loser() -> None:
    ships = {(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}
    state = holding(position(ships), 1, "last_stand")
    play(state, Attack(0b110, 7 + FIGHTER_1), Pass(), *rolls(3, 3, 1), Pass())
    play(state, Play(card("last_stand"), FIGHTER_2, 0), Pass())
    assert state.pos[1][FIGHTER_1] == -1 and state.pos[0][FIGHTER_2] == -1 and state.pos[0][FIGHTER_1] == cell("E5")
    assert state.resources == [1, 1]


def test_last_stand_against_a_mothership_takes_four_hull() -> None:
    state = holding(position({(0, MOTHERSHIP): "E5", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}), 1, "last_stand")
    play(state, Attack(1, 7 + FIGHTER_1), Pass(), *rolls(6, 1), Pass(), Play(card("last_stand"), 0, 0), Pass())
    assert state.hp[0] == 8 and state.pos[1][FIGHTER_1] == -1


def test_last_stand_and_life_support_are_not_offered_to_an_attacker_who_loses() -> None:
    # The card list: Last Stand destroys "one of your attackers", Life Support lets the "Attacker"
    # still loot: both are answers of a defender who lost, never of an attacker.
    ships = {(0, FIGHTER_1): "E5", (0, BOMBER_1): "A1", (1, FIGHTER_1): "E6"}
    state = holding(position(ships), 0, "last_stand", "life_support")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Pass(), *rolls(1, 6), Pass())
    assert state.pending is None and state.current_player() == 0  # settled: the attacker was not asked
    assert state.pos[0][FIGHTER_1] == -1 and state.pos[1][FIGHTER_1] == cell("E6")
    assert state.hands[0] == sorted([card("last_stand"), card("life_support")])


# ---- the Random Event die (option random_event) ------------------------------------------


def event_game() -> MothershipState:
    state = position(
        {(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "C3", (1, MOTHERSHIP): "E6"}, game=new_game(random_event=True)
    )
    return holding(state, 0, "random_event")


def test_random_events_need_their_module() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}), 0, "random_event")
    assert not [a for a in state.legal_actions() if a.kind == "play"]  # only sold
    assert Sell(card("random_event")) in state.legal_actions()


def test_solar_storm_doubled_gives_the_players_mothership_four() -> None:
    state = event_game()
    play(state, Play(card("random_event"), 0, 0), *rolls(2))
    assert state.current_player() == 0 and state.legal_actions() == [EventChoice(1), EventChoice(2)]
    play(state, EventChoice(1), Attack(1, 7))
    events = play(state, *rolls(3, 3))
    assert "Attack 7 against defence 5 = 5." in [e.text for e in events]  # 3 + 4 against 3 + 2


def test_only_one_event_at_a_time_and_it_lasts_one_round() -> None:
    state = event_game()
    state.hands[0].append(card("random_event"))
    play(state, Play(card("random_event"), 0, 0), *rolls(6), EventChoice(2))
    assert not [a for a in state.legal_actions() if a.kind == "play"]
    play(state, EndTurn())
    assert not [a for a in state.legal_actions() if a.kind == "move"]  # Space Virus: E6 is beside the planet F6
    play(state, EndTurn(), Pass())  # seat 0 could sell at the end of seat 1's turn
    assert [a for a in state.legal_actions() if a.kind == "play"]  # its turn began: the round is over


def test_magnetic_storm_takes_every_motherships_power_except_the_avoiders() -> None:
    state = event_game()
    play(state, Play(card("random_event"), 0, 0), *rolls(5), EventChoice(2))
    assert state.shield == [5, 0]
    assert [a for a in state.legal_actions() if a.kind == "move" and a.ship == MOTHERSHIP]


def test_free_samples_deal_a_card_to_everyone_two_when_doubled() -> None:
    state = event_game()
    play(state, Play(card("random_event"), 0, 0), *rolls(3), EventChoice(1))
    assert state.draws == [0, 0, 1]


def test_pirate_raid_halves_planet_resources_rounded_up() -> None:
    state = event_game()
    state.owner = [1, 1, 1]
    play(state, Play(card("random_event"), 0, 0), *rolls(4), EventChoice(2), EndTurn(), EndTurn())
    assert state.resources[1] == 1 + 2  # the station, and 3 planets halved up to 2


def test_greedy_bots_play_whole_games_with_cards_tech_and_events() -> None:
    from spacetable.agents import GreedyAgent
    from spacetable.engine import play as play_game

    game = new_game(4, random_event=True)
    kinds: set[str] = set()
    for seed in range(3):
        final = play_game(game, [GreedyAgent() for _ in range(4)], random.Random(seed))
        assert final.is_terminal()
        kinds |= {c.key for c, n in zip(game.content.cards, final.played) if n}
        assert sum(final.bought) > 0 and any(any(t) for t in final.tiers)
    assert kinds  # some cards were played


def test_a_teammates_ship_may_be_warped_without_using_its_movement_phase() -> None:
    game = new_game(4, team_size=2)
    ships = {(0, FIGHTER_1): "E4", (2, FIGHTER_1): "E5", (1, FIGHTER_1): "A6", (3, FIGHTER_1): "K6"}
    state = holding(position(ships, game=game), 0, "wormhole")
    play(state, Play(card("wormhole"), 2 * 7 + FIGHTER_1, cell("K1")))
    assert state.pos[2][FIGHTER_1] == cell("K1") and state.used[FIGHTER_1] == 0  # seat 0's own fighter may move


def test_offworld_trading_gives_one_resource_for_every_two_planets() -> None:
    state = event_game()
    state.owner = [0, 0, 1]
    play(state, Play(card("random_event"), 0, 0), *rolls(1), EventChoice(1), EndTurn())
    assert state.resources[0] == 1 + 2 + 2  # the station, two planets, and doubled +1 for the pair


def test_the_log_shows_how_each_total_is_made_die_by_die_and_bonus_by_bonus() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6", (1, FIGHTER_2): "F7"}
    state = holding(position(ships), 1, "wingman")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Play(card("wingman"), 0, 0))
    events = play(state, *rolls(5, 2))
    how = [e.text for e in events if e.text.startswith("How: ")]
    assert how == [
        "How: attack 5 = Player 1's Fighter 1's d6 5; "
        "defence 5 = Player 2's Fighter 1's d6 2 + Wingman 2 + 1 wingman 1."
    ], how


def test_batch_figures_give_each_cards_win_rate_among_those_who_played_or_held_it() -> None:
    """The balance lab's per-card figures: for each card, the win share of the players whose
    record shows them playing it, and of those holding it when the game ended."""
    import spacetable
    from spacetable.engine import Record
    from spacetable.engine import play as play_game
    from spacetable.testing.conformance import RandomPlayer

    game = spacetable.load("mothership", 3, {"round_limit": 8})
    record = Record.start(game, ["random"] * 3)
    final = play_game(game, [RandomPlayer() for _ in range(3)], random.Random(4), record=record)
    figures = game.statistics(final, record.actions)
    share = 1 / len(final.winners) if final.winners else 0.0
    plays = [(seat, data["card"]) for seat, data in record.actions if data.get("kind") == "play"]
    seen_played = False
    for card, rule in enumerate(game.content.cards):
        players = {seat for seat, played_card in plays if played_card == card}
        played = figures[f"win rate, played {rule.name}"]
        assert (played.weight, played.value) == (len(players), sum(share for s in players if s in final.winners))
        assert played.percent
        seen_played |= bool(players)
        holders = [s for s in range(3) if card in final.hands[s]]
        assert figures[f"win rate, held {rule.name} at the end"].weight == len(holders)
    assert seen_played, "no card was played in this game: pick another seed"
    assert not any(name.startswith("win rate, played") for name in game.statistics(final))  # no record: no figure
