"""Starship Showdown scenarios from the rulebook, with forced dice.

Seats follow the rulebook's example round: Kathryn (0), Han (1), Leela (2) and Malcolm (3)
take their turns in that order. Red and green dice are d4s that succeed on 3 and 4;
teleporter and repair dice are d6s that succeed on 4 to 6 (RULINGS.md).
"""

from __future__ import annotations

import pytest

from showdown_helpers import apply, new_game, rolls, table, texts
from spacetable.engine import IllegalActionError, MalformedActionError, Roll, load_finite
from spacetable.games.showdown.rules import ships
from spacetable.games.showdown.rules.actions import (
    Attack,
    Board,
    Burn,
    Charge,
    Commit,
    Defend,
    Deploy,
    Done,
    Draw,
    EndTurn,
    Hack,
    Loot,
    Pick,
    Psionics,
    Repair,
    Reprogram,
    Teleport,
)
from spacetable.games.showdown.rules.state import ShowdownState

KATHRYN, HAN, LEELA, MALCOLM = 0, 1, 2, 3


def end_turn(state: ShowdownState) -> None:
    apply(state, EndTurn())


# ---- the example showdown round ---------------------------------------------------------
def example_table() -> ShowdownState:
    return table(
        [
            {"engine": 3, "weapon": 1, "pilot": 2},  # Kathryn
            {"engine": 1, "weapon": 3, "gunner": 1},  # Han
            {"engine": 3, "weapon": 3, "psionics": 1},  # Leela
            {"engine": 1, "weapon": 4, "hacking": 1},  # Malcolm
        ],
        cms=[["nitro_fuel"], [], [], []],
        energy=[1, 0, 5, 4],
        hull=[3, 3, 4, 3],
    )


def test_example_round_kathryn_teleports_a_pilot_kills_hans_gunner_and_charges() -> None:
    s = example_table()
    apply(s, Teleport(HAN, "pilot"), Board("combat"), Defend("gunner"))
    assert s.pending is not None and (s.pending["an"], s.pending["dn"]) == (3, 2)  # Pilot 3 dice, Gunner 2
    events = apply(s, *rolls(5, 4, 1), *rolls(4, 2))  # two successes against one
    assert "Han's Gunner is killed" in texts(events)
    assert "gunner" not in s.mats[HAN] and s.public_pile == {"gunner": 1}
    apply(s, Charge())
    assert s.energy[KATHRYN] == 1 + 3 + 1  # three engines, then one energy at the end of her turn
    assert s.active == HAN
    assert [(b.owner, b.crew, b.host) for b in s.boarders] == [(KATHRYN, "pilot", HAN)]


def _after_kathryns_turn() -> ShowdownState:
    s = example_table()
    apply(s, Teleport(HAN, "pilot"), Board("combat"), Defend("gunner"), *rolls(5, 4, 1), *rolls(4, 2), Charge())
    return s


def test_example_round_han_double_attack_against_one_defence_roll() -> None:
    s = _after_kathryns_turn()
    apply(s, Attack(KATHRYN, True))
    assert s.actions_left == 0
    apply(s, Done(), Commit(3))  # Kathryn keeps her Nitro Fuel and sets three energy aside
    assert s.pending is not None and (s.pending["an"], s.pending["dn"]) == (6, 3)  # 3 weapons twice; 3 engines once
    # Han: three successes. Kathryn: one success, and two 1s; her Pilot re-rolls twice (double attack)
    events = apply(s, *rolls(3, 4, 1, 3, 1, 2), *rolls(3, 1, 1), *rolls(1, 1))
    assert s.pending is None
    assert "Han: 3 success(es); Kathryn: 2" in texts(events)  # energy lifted one 1 to a success
    assert (s.intact[KATHRYN], s.damaged[KATHRYN]) == (2, 1)
    assert s.energy[KATHRYN] == 5 - 3
    assert s.energy[HAN] == 0 + 3 + 1  # three failed attack dice give energy; +1 at the end of the turn
    assert s.active == LEELA


def test_example_round_leela_psionics_then_nitro_fuel_saves_kathryn() -> None:
    s = _after_kathryns_turn()
    apply(s, Attack(KATHRYN, True), Done(), Commit(3), *rolls(3, 4, 1, 3, 1, 2), *rolls(3, 1, 1), *rolls(1, 1))
    apply(s, Psionics(KATHRYN, "pilot"), Done())
    assert s.tokens[0][:4] == (LEELA, "psionics", KATHRYN, "pilot")
    apply(s, Attack(KATHRYN, False), Commit(0), Deploy(0, False), Commit(0))
    assert s.pending is not None and s.pending["dn"] == 6  # Nitro Fuel: two rolls of three engines
    assert ["d", "own"] not in s.pending["rr"]  # her only Pilot at home is under psionics: no re-roll
    events = apply(s, *rolls(3, 1, 2), *rolls(3, 4, 1, 2, 3, 4))
    assert "Leela: 1 success(es); Kathryn: 4" in texts(events)
    assert s.intact[KATHRYN] == 2 and s.energy[KATHRYN] == 2 + 3  # excess successes become energy


def test_example_round_malcolm_hacks_an_engine_and_leela_flips_three() -> None:
    s = _after_kathryns_turn()
    apply(s, Attack(KATHRYN, True), Done(), Commit(3), *rolls(3, 4, 1, 3, 1, 2), *rolls(3, 1, 1), *rolls(1, 1))
    apply(s, Psionics(KATHRYN, "pilot"), Done(), Attack(KATHRYN, False), Commit(0), Deploy(0, False), Commit(0))
    apply(s, *rolls(3, 1, 2), *rolls(3, 4, 1, 2, 3, 4))
    assert s.active == MALCOLM
    apply(s, Hack(LEELA, "engine"), Attack(LEELA, False))  # Malcolm has no energy left to set aside
    assert s.pending is not None and (s.pending["an"], s.pending["dn"]) == (4, 2)  # one engine hacked
    apply(s, Commit(0), *rolls(3, 3, 4, 1), *rolls(1, 2))
    assert (s.intact[LEELA], s.damaged[LEELA]) == (1, 3)


# ---- energy on dice ----------------------------------------------------------------------
def test_energy_example_four_energy_lift_a_2_and_a_1_but_not_the_last_1() -> None:
    # The example's dice pictures are missing; read with "+1 per energy": one success rolled,
    # one energy lifts the [2], two lift a [1], the last one cannot lift the other [1].
    s = table([{"weapon": 4}, {}], energy=[4, 0], hull=[3, 5], game=new_game(2))
    s.fire_from = 99
    events = apply(s, Attack(1, False), Commit(4), *rolls(1, 2, 1, 4))
    assert "Kathryn: 3 success(es)" in texts(events)
    assert s.damaged[1] == 3
    assert s.energy[0] == 1  # all four set aside are spent or lost; one back for the failed die


def test_energy_is_spent_where_it_lifts_the_most_dice() -> None:
    s = table([{"weapon": 4}, {}], energy=[4, 0], hull=[3, 5], game=new_game(2))
    s.fire_from = 99
    apply(s, Attack(1, False), Commit(4), *rolls(1, 2, 3, 4))
    assert s.damaged[1] == 4  # one for the [2], two for the [1]: every die succeeds


def test_energy_example_defence_excess_energy_is_lost() -> None:
    s = table([{"weapon": 4}, {"engine": 4}], energy=[0, 4], game=new_game(2))
    s.fire_from = 99
    apply(s, Attack(1, False), Commit(4), *rolls(3, 3, 3, 1), *rolls(1, 2, 1, 4))
    assert s.damaged[1] == 0 and s.energy[1] == 0  # three successes each: no damage, no excess


def test_energy_set_aside_is_capped_at_what_the_dice_could_use() -> None:
    s = table([{"weapon": 1}, {"engine": 1}], energy=[9, 0], game=new_game(2))
    apply(s, Attack(1, False))
    assert max(a.energy for a in s.legal_actions()) == 2  # one d4 needs at most two to reach 3


# ---- collateral, captains and the end ---------------------------------------------------
def test_collateral_damage_cascades_through_every_ship() -> None:
    s = table([{"weapon": 2}, {}, {}, {}], hull=[4, 1, 1, 2], energy=[0] * 4)
    events = apply(s, Attack(HAN, False), *rolls(3, 1))
    # Han explodes: every other ship flips one, which wrecks Leela; Leela's explosion wrecks
    # Malcolm; Malcolm's hits Kathryn once more
    assert s.status == ["alive", "destroyed", "destroyed", "destroyed"]
    assert s.intact[KATHRYN] == 1
    assert texts(events).count("Collateral damage hits Kathryn") == 3
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == (KATHRYN,) and outcome.ranks == (1, 2, 2, 2)


def test_last_two_destroy_each_other_the_attacker_wins() -> None:
    s = table([{"weapon": 1}, {}], hull=[1, 1], energy=[0, 0], game=new_game(2))
    s.fire_from = 99
    apply(s, Attack(HAN, False), Roll(4))
    assert s.status == ["destroyed", "destroyed"]
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == (KATHRYN,)
    assert s.returns() == [1.0, 0.0]


def test_captain_killed_no_collateral_loot_comes_home_with_the_crew() -> None:
    s = table(
        [{"weapon": 1, "pilot": 1}, {"engine": 2, "weapon": 1}, {"weapon": 1}, {"weapon": 1}],
        cms=[[], ["nitro_fuel"], [], []],
        energy=[0, 0, 0, 0],
    )
    apply(s, Teleport(HAN, "pilot"), Done(), Board("combat"))  # Han has only his captain: he defends
    events = apply(s, *rolls(4, 5, 1), Roll(3))
    assert "captain is killed" in texts(events)
    assert s.status[HAN] == "lifeless" and s.intact == [3, 3, 3, 3]  # no collateral damage
    assert s.pending is not None and s.pending["stage"] == "loot"
    options = {a.item for a in s.legal_actions()}
    assert options == {"engine", "weapon", "nitro_fuel", "hull", "energy"}
    apply(s, Loot("nitro_fuel"))
    assert s.mats[HAN] == {} and s.cms[HAN] == []  # the rest of his cards are discarded
    assert s.public_pile == {"engine": 2, "weapon": 1}
    apply(s, EndTurn())
    assert s.active == LEELA  # Han is a spectator now
    for _ in range(2):
        end_turn(s)
    assert s.active == KATHRYN and not s.cms[KATHRYN]
    end_turn(s)  # the pilot returns at the end of her next turn, with the loot
    assert s.boarders == [] and [c.card for c in s.cms[KATHRYN]] == ["nitro_fuel"]


def test_a_lifeless_ship_stays_a_target_and_explodes_with_collateral() -> None:
    s = table([{"weapon": 2}, {}, {}], hull=[3, 1, 3], energy=[0] * 3, game=new_game(3))
    s.status[HAN] = "lifeless"
    s.fallen[HAN] = s.batch = 1
    assert Attack(HAN, False) in s.legal_actions()
    assert all(not (isinstance(a, Teleport) and a.target == HAN) for a in s.legal_actions())
    apply(s, Attack(HAN, False), *rolls(3, 3))
    assert s.status[HAN] == "destroyed" and s.intact == [2, 0, 2]


def test_crew_aboard_a_ship_that_is_destroyed_is_lost() -> None:
    s = table(
        [{"weapon": 1, "gunner": 1}, {"weapon": 3}, {"engine": 1}], hull=[3, 3, 1], energy=[0] * 3, game=new_game(3)
    )
    apply(s, Teleport(LEELA, "gunner"), Board("sabotage"), EndTurn())
    apply(s, Attack(LEELA, False), *rolls(3, 3, 3), Roll(1))
    assert s.status[LEELA] == "destroyed"
    assert s.boarders == [] and "gunner" not in s.mats[KATHRYN]


# ---- xenotech -------------------------------------------------------------------------------
def test_hacking_both_engines_in_one_round() -> None:
    s = table(
        [{"engine": 2, "weapon": 1}, {"hacking": 1}, {"hacking": 1, "weapon": 2}, {}],
        energy=[0, 4, 4, 0],
        active=HAN,
    )
    apply(s, Hack(KATHRYN, "engine"), EndTurn())
    assert Hack(KATHRYN, "engine") in s.legal_actions()  # the other engine is still free
    apply(s, Hack(KATHRYN, "engine"))
    apply(s, Attack(KATHRYN, False), *rolls(1, 3))
    assert s.pending is None and s.damaged[KATHRYN] == 1  # Kathryn rolled no defence dice at all
    assert Hack(KATHRYN, "engine") not in s.legal_actions()


def test_hacking_token_lasts_until_the_end_of_the_hackers_next_turn() -> None:
    s = table([{"engine": 2}, {"hacking": 1}, {}], energy=[0, 8, 0], active=HAN, game=new_game(3))
    apply(s, Hack(KATHRYN, "engine"), EndTurn())
    assert len(s.tokens) == 1
    end_turn(s)  # Leela
    assert len(s.tokens) == 1  # Kathryn's whole turn with one engine hacked
    apply(s, Charge())
    assert s.energy[KATHRYN] == 1
    end_turn(s)
    end_turn(s)  # Han's next turn ends: the token comes back
    assert s.tokens == []


def test_player_destroyed_while_his_xenotech_token_is_out() -> None:
    s = table([{"weapon": 3}, {"engine": 1}, {"engine": 2}, {"hacking": 1}], energy=[0, 0, 0, 4], hull=[3, 3, 3, 1])
    s.active = MALCOLM
    apply(s, Hack(LEELA, "engine"), EndTurn())
    assert len(s.tokens) == 1
    apply(s, Attack(MALCOLM, False), *rolls(3, 3, 3))
    assert s.status[MALCOLM] == "destroyed"
    assert s.tokens == []  # removed as soon as Malcolm is eliminated: Leela's engine works again


def test_frequency_scrambler_blocks_hacking_and_a_boosted_one_reflects_it() -> None:
    s = table(
        [{"engine": 1}, {"hacking": 1, "engine": 2}, {}],
        cms=[["frequency_scrambler"], [], []],
        energy=[2, 4, 0],
        active=HAN,
        game=new_game(3),
    )
    apply(s, Hack(KATHRYN, "engine"), Deploy(0, True))
    assert s.energy[KATHRYN] == 0
    assert [(t.target, t.card) for t in s.tokens] == [(HAN, "engine")]  # reflected onto Han's own engine
    assert not any(isinstance(a, Hack) and a.target == KATHRYN for a in s.legal_actions())


def test_psionics_disables_one_crew_card_others_of_the_type_still_work() -> None:
    s = table([{"pilot": 2}, {"psionics": 1}, {}], energy=[0, 4, 0], active=HAN, game=new_game(3))
    apply(s, Psionics(KATHRYN, "pilot"))
    assert ships.able_crew(s, KATHRYN, "pilot") == 1


def test_ai_token_lets_a_countermeasure_be_used_twice() -> None:
    s = table(
        [{"ai": 1, "engine": 1}, {"weapon": 1}, {}], cms=[["armor_plating"], [], []], energy=[4, 0, 0], game=new_game(3)
    )
    apply(s, Reprogram(0), EndTurn())
    apply(s, Attack(KATHRYN, False), Deploy(0, False), Commit(0), Roll(3), Roll(1))
    apply(s, EndTurn(), EndTurn(), EndTurn())  # Han, Leela, Kathryn: the AI token saves the plating once
    assert [(c.card, c.deployed, c.ai) for c in s.cms[KATHRYN]] == [("armor_plating", False, 2)]
    apply(s, Attack(KATHRYN, False), Commit(0), Deploy(0, False), Commit(0), Roll(3), Roll(1))
    assert s.cms[KATHRYN][0].ai == 3  # the second deployment takes the token off, for good
    apply(s, EndTurn(), EndTurn(), EndTurn())
    assert s.cms[KATHRYN] == [] and s.public_pile.get("armor_plating") == 1


def test_a_countermeasure_takes_the_ai_token_only_once() -> None:
    """The AI reuses each countermeasure once: after its second deployment has taken the token
    off, the card cannot take it again (deployed or not), and it is discarded as usual."""
    s = table(
        [{"ai": 1, "engine": 1}, {"weapon": 1}, {}], cms=[["armor_plating"], [], []], energy=[4, 0, 0], game=new_game(3)
    )
    apply(s, Reprogram(0), EndTurn())
    apply(s, Attack(KATHRYN, False), Deploy(0, False), Commit(0), Roll(3), Roll(1))
    apply(s, EndTurn(), EndTurn(), EndTurn())
    apply(s, Attack(KATHRYN, False), Commit(0), Deploy(0, False), Commit(0), Roll(3), Roll(1))
    apply(s, EndTurn(), EndTurn())  # Han, Leela: Kathryn's turn, the plating still deployed
    s.energy[KATHRYN] = 4  # enough for the AI
    assert s.cms[KATHRYN][0].deployed and ships.free_tokens(s, "ai") == s.content.tokens["ai"]
    assert not any(isinstance(a, Reprogram) for a in s.legal_actions())
    apply(s, EndTurn())
    assert s.cms[KATHRYN] == [] and s.public_pile.get("armor_plating") == 1


# ---- countermeasures and crew -------------------------------------------------------------
def test_armor_plating_absorbs_first_and_a_boosted_one_keeps_its_tokens() -> None:
    s = table([{}, {"weapon": 4}, {}], cms=[["armor_plating"], [], []], energy=[2, 0, 0], active=HAN, game=new_game(3))
    apply(s, Attack(KATHRYN, False), Deploy(0, True), *rolls(3, 3, 1, 1))
    assert (s.intact[KATHRYN], s.cms[KATHRYN][0].armor) == (3, 1)
    end_turn(s)
    end_turn(s)  # Leela
    end_turn(s)  # Kathryn's turn ends: the plating is spent, its last token kept as hull
    assert s.intact[KATHRYN] == 4 and s.cms[KATHRYN] == []


def test_energy_shields_stop_a_boarding_and_a_boosted_one_traps_the_crew() -> None:
    s = table([{"engineer": 1}, {}, {}], cms=[[], ["energy_shields"], []], energy=[0, 2, 0], game=new_game(3))
    events = apply(s, Teleport(HAN, "engineer"), Deploy(0, True))
    assert "Energy Shields stop the boarder" in texts(events)
    assert s.intact[HAN] == 3 and s.boarders[0].wait == 2
    for _ in range(6):
        end_turn(s)
    assert s.boarders  # still trapped after Kathryn's next turn
    for _ in range(3):
        end_turn(s)
    assert s.boarders == []


def test_engineer_sabotage_flips_a_hull_token() -> None:
    s = table([{"engineer": 1}, {}, {}], game=new_game(3))
    apply(s, Teleport(HAN, "engineer"), Board("sabotage"))
    assert (s.intact[HAN], s.damaged[HAN]) == (2, 1)


def test_gunner_saboteur_forces_a_successful_attack_die_to_be_rerolled() -> None:
    s = table([{"gunner": 1}, {"weapon": 2}, {}], energy=[0, 0, 0], game=new_game(3))
    apply(s, Teleport(HAN, "gunner"), Board("sabotage"), EndTurn())
    apply(s, Attack(LEELA, False), *rolls(4, 1))
    assert s.pending is not None and s.pending["at"] == ["a", 0]  # the success must be re-rolled
    apply(s, Roll(2))
    assert s.damaged[LEELA] == 0


def test_security_drone_adds_a_die_and_boosted_it_is_a_success() -> None:
    s = table([{"pilot": 1}, {"gunner": 1}, {}], cms=[[], ["security_drone"], []], energy=[0, 2, 0], game=new_game(3))
    apply(s, Teleport(HAN, "pilot"), Deploy(0, True), Board("combat"), Defend("gunner"))
    assert s.pending is not None and (s.pending["dn"], s.pending["dauto"]) == (2, 1)
    apply(s, *rolls(4, 4, 1), *rolls(5, 1))  # 2 against 1 rolled + 1 guaranteed: a draw
    assert "gunner" in s.mats[HAN] and "pilot" in s.mats[KATHRYN]


def test_nitro_fuel_boosted_turns_the_defenders_successes_on_the_attacker() -> None:
    s = table(
        [{"engine": 1}, {"weapon": 1}, {}], cms=[["nitro_fuel"], [], []], energy=[2, 0, 0], active=HAN, game=new_game(3)
    )
    apply(s, Attack(KATHRYN, False), Deploy(0, True), *rolls(1), *rolls(3, 4))
    assert s.damaged[HAN] == 2 and s.damaged[KATHRYN] == 0


def test_adrenal_stim_gives_an_extra_reroll_and_boosted_plus_one_per_die() -> None:
    s = table(
        [{"engine": 1}, {"weapon": 2}, {}],
        cms=[["adrenal_stim"], [], []],
        energy=[2, 0, 0],
        active=HAN,
        game=new_game(3),
    )
    apply(s, Attack(KATHRYN, False), Deploy(0, True), *rolls(3, 3), Roll(1))
    assert s.pending is not None and s.pending["at"] == ["d", 0]  # her extra re-roll
    apply(s, Roll(2))  # 2 + 1 = 3: a success
    assert s.damaged[KATHRYN] == 1


def test_repair_needs_four_and_an_engineer_rerolls_once() -> None:
    s = table([{"engineer": 1}, {}, {}], hull=[2, 3, 3], game=new_game(3))
    s.damaged[0] = 1
    apply(s, Repair(), Roll(3), Roll(4))
    assert (s.intact[0], s.damaged[0]) == (3, 0)
    assert Repair() not in s.legal_actions()


# ---- the turn ---------------------------------------------------------------------------------
def test_two_actions_attack_twice_at_two_targets_but_not_twice_singly_at_one() -> None:
    s = table([{"weapon": 1}, {}, {}], energy=[0] * 3, game=new_game(3))
    apply(s, Attack(HAN, False), Roll(1))
    legal = s.legal_actions()
    assert Attack(LEELA, False) in legal and Attack(HAN, False) not in legal and Attack(LEELA, True) not in legal


def test_end_of_turn_order_reclaim_retrieve_discard_then_energy() -> None:
    s = table([{"hacking": 1, "engineer": 1}, {}, {}], cms=[["nitro_fuel"], [], []], energy=[4, 0, 0], game=new_game(3))
    s.cms[0][0] = s.cms[0][0]._replace(deployed=True, known=True)
    apply(s, Teleport(HAN, "engineer"), Board("sabotage"), EndTurn())
    assert s.boarders and s.cms[0] == [] and s.energy[0] == 5


def test_actions_out_of_turn_and_reactions_from_the_wrong_seat_are_refused() -> None:
    s = table([{"weapon": 1}, {"engine": 1}, {}], cms=[[], ["nitro_fuel"], []], energy=[0, 0, 0], game=new_game(3))
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="seat 2 owes no decision"):
        s.apply_action(Attack(0, False), 1)
    with pytest.raises(IllegalActionError, match="not legal now"):
        s.apply_action(Deploy(0, False))
    assert s.to_json() == before
    apply(s, Attack(HAN, False))
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="seat 3 owes no decision"):
        s.apply_action(Done(), 2)
    with pytest.raises(IllegalActionError, match="seat 1 owes no decision"):
        s.apply_action(Deploy(0, False), 0)
    with pytest.raises(MalformedActionError):
        s.apply_action(Deploy(7, False), 1)
    assert s.to_json() == before


# ---- the upgrade phase ---------------------------------------------------------------------------
HANDS = [
    ["engine", "weapon", "ai", "nitro_fuel", "pilot", "gunner"],
    ["engine", "weapon", "hacking", "adrenal_stim", "pilot", "engineer"],
    ["engine", "weapon", "psionics", "armor_plating", "cryo", "engineer"],
]


def drafting() -> ShowdownState:
    """Three captains at the start of the upgrade phase, dealt ``HANDS``."""
    state: ShowdownState = new_game(3).new_initial_state()
    for hand in HANDS:
        for card in hand:
            state.apply_action(Draw(card))
    return state


def test_everyone_drafts_at_once_and_picks_stay_hidden() -> None:
    s = drafting()
    assert s.awaiting() == (0, 1, 2)
    events = s.apply_action(Pick("ai", "play", ""), 0)
    assert texts(events, 1) == "Kathryn has chosen."  # the others only learn that a choice was made
    assert "mat" not in s.view(1)["players"][0] and "hand" not in s.view(1)["players"][0]
    assert s.view(0)["players"][0]["mat"] == {"ai": 1}
    assert s.awaiting() == (1, 2)


def test_hands_pass_clockwise_then_counter_clockwise() -> None:
    s = drafting()
    for seat in range(3):
        s.apply_action(Pick("engine", "hull", ""), seat)
    assert sorted(s.hands[1]) == sorted(c for c in HANDS[0] if c != "engine")  # Kathryn's hand went to Han
    assert s.intact == [4, 4, 4]


def test_replacing_an_earlier_upgrade_gives_no_hull() -> None:
    s = drafting()
    for seat, card in enumerate(("ai", "hacking", "armor_plating")):
        s.apply_action(Pick(card, "play", ""), seat)
    assert "psionics" in s.hands[0]  # Leela's hand came round to Kathryn
    assert Pick("psionics", "play", "") not in s.legal_actions(0)  # one xenotech only
    s.apply_action(Pick("psionics", "play", "ai"), 0)
    assert s.mats[0] == {"psionics": 1} and s.intact[0] == 3


def test_a_third_countermeasure_needs_a_replacement() -> None:
    s = drafting()
    for seat, pick in enumerate(
        (Pick("nitro_fuel", "play", ""), Pick("engine", "hull", ""), Pick("engine", "hull", ""))
    ):
        s.apply_action(pick, seat)
    for seat, pick in enumerate(
        (Pick("armor_plating", "play", ""), Pick("weapon", "hull", ""), Pick("weapon", "hull", ""))
    ):
        s.apply_action(pick, seat)
    assert [c.card for c in s.cms[0]] == ["nitro_fuel", "armor_plating"]
    third = [a for a in s.legal_actions(0) if a.card == "adrenal_stim" and a.use == "play"]
    assert {a.replace for a in third} == {"nitro_fuel", "armor_plating"}


def test_the_deck_deals_twelve_cards_per_player_at_every_count() -> None:
    for players in (3, 4, 5, 6):
        assert sum(new_game(players).content.deck.values()) == 12 * players
    assert sum(new_game(2).content.deck.values()) == 36  # two captains use the cards marked 3


# ---- ships on fire -------------------------------------------------------------------------------
def test_final_duel_both_burn_in_secret_each_round() -> None:
    s = table([{"weapon": 1}, {"engine": 1}, {}], hull=[3, 2, 1], energy=[0] * 3, game=new_game(3))
    apply(s, Attack(LEELA, False), Roll(3))
    assert s.status[LEELA] == "destroyed" and s.intact[:2] == [2, 1]
    assert s.fire_from == 2  # two captains left: their ships burn from the next round on
    apply(s, EndTurn(), EndTurn())
    assert s.phase == "fire" and s.awaiting() == (KATHRYN, HAN)
    assert Burn("hull") in s.legal_actions(HAN) and Burn("engine") in s.legal_actions(HAN)
    s.apply_action(Burn("weapon"), KATHRYN)
    assert "burn" not in s.view(HAN)["players"][KATHRYN] and s.view(HAN)["players"][KATHRYN]["chosen"]
    assert s.mats[KATHRYN] == {"weapon": 1}  # nothing burns until both have chosen
    events = s.apply_action(Burn("hull"), HAN)
    assert "Kathryn discards Weapon" in texts(events, HAN)
    assert s.mats[KATHRYN] == {} and s.intact[HAN] == 0 and s.status[HAN] == "destroyed"
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == (KATHRYN,)
    assert s.intact[KATHRYN] == 2  # burning out is no explosion: no collateral damage


def test_three_captains_never_burn_by_default_and_from_fire_round_with_the_house_rule() -> None:
    # The Edge Cases: ships burn "as soon as there are only two players facing off".
    for fire_round, phase in ((None, "turn"), (20, "fire")):
        s = table([{"weapon": 1}, {"engine": 1}, {"engine": 1}], game=new_game(3, fire_round=fire_round))
        s.round = 20
        apply(s, EndTurn(), EndTurn(), EndTurn())
        assert s.round == 21 and s.phase == phase and len(s.winners) == 0


def test_the_rulebooks_showdown_has_no_length_bound_unless_loaded_for_machines() -> None:
    assert new_game(3).max_length is None and new_game(2).max_length is not None
    bounded = load_finite("showdown", 4)
    assert bounded.options["fire_round"] == 20 and isinstance(bounded.max_length, int)


def test_two_captains_play_the_final_duel_from_the_first_round() -> None:
    s: ShowdownState = new_game(2).new_initial_state()
    assert s.fire_from == 1


# ---- more edge cases ---------------------------------------------------------------------------
def test_energy_shields_also_stop_saboteurs_already_aboard() -> None:
    s = table(
        [{"pilot": 1, "weapon": 2}, {"engine": 1}, {}],
        cms=[[], ["energy_shields"], []],
        energy=[0, 0, 0],
        game=new_game(3),
    )
    apply(s, Teleport(HAN, "pilot"), Done(), Board("sabotage"))
    s.cms[HAN][0] = s.cms[HAN][0]._replace(deployed=True, known=True)  # deployed against someone else
    apply(s, Attack(HAN, False), *rolls(1, 1), Roll(4))
    assert s.pending is None  # no forced re-roll of Han's success: the Pilot saboteur is stopped
    assert s.damaged[HAN] == 0 and s.energy[HAN] == 1
    other = table([{"pilot": 1}, {}, {}], cms=[[], ["energy_shields"], []], game=new_game(3))
    other.cms[HAN][0] = other.cms[HAN][0]._replace(deployed=True, known=True)
    assert Teleport(LEELA, "pilot") in other.legal_actions()
    assert Teleport(HAN, "pilot") not in other.legal_actions()  # a shielded ship cannot be boarded


def test_cryo_crew_can_only_fight_and_a_lost_fight_kills_the_boarder() -> None:
    s = table([{"cryo": 1}, {"pilot": 1}, {}], game=new_game(3))
    apply(s, Teleport(HAN, "cryo"))
    assert s.legal_actions() == [Defend("captain"), Defend("pilot")]  # straight to combat: Han picks
    apply(s, Defend("pilot"), *rolls(5, 1, 1))  # Cryo-Crew roll no dice; the Pilot rolls three
    assert "cryo" not in s.mats[KATHRYN] and s.boarders == [] and s.public_pile == {"cryo": 1}


def test_only_the_target_may_react() -> None:
    s = table([{"weapon": 1}, {"engine": 1}, {}], cms=[[], ["nitro_fuel"], ["nitro_fuel"]], game=new_game(3))
    apply(s, Attack(HAN, False), Commit(0))
    assert s.awaiting() == (HAN,) and s.legal_actions(LEELA) == []
    with pytest.raises(IllegalActionError, match="seat 3 owes no decision"):
        s.apply_action(Deploy(0, False), LEELA)


def test_a_seat_that_has_picked_owes_nothing_until_the_hands_pass() -> None:
    s = drafting()
    s.apply_action(Pick("engine", "play", ""), 0)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="seat 1 owes no decision"):
        s.apply_action(Pick("weapon", "play", ""), 0)
    assert s.to_json() == before


def test_loot_that_breaks_a_limit_is_discarded_when_the_crew_returns() -> None:
    s = table([{"pilot": 1, "hacking": 1}, {"psionics": 1}, {}, {}], energy=[0] * 4)
    apply(s, Teleport(HAN, "pilot"), Board("combat"), *rolls(4, 4, 4), Roll(1), Loot("psionics"))
    apply(s, EndTurn(), EndTurn(), EndTurn(), EndTurn())  # Han is skipped; Kathryn's next turn ends
    assert s.mats[KATHRYN] == {"pilot": 1, "hacking": 1} and s.public_pile.get("psionics") == 1
