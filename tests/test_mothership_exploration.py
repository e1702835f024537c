"""Mothership chapter 12, planetary exploration (the option ``exploration``): exploring held
planets for artifacts, what the artifacts give and who holds them, and the two exploration
cards. Forced dice and forced tokens (``DrawArtifact``)."""

from __future__ import annotations

import random

import pytest

import spacetable
from budget import playouts, rounds
from mothership_helpers import FIGHTER_1, MOTHERSHIP, cell, new_game, play, position, rolls
from spacetable.engine import Action, Game, IllegalActionError
from spacetable.games.mothership.bots import heuristic
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.modules import exploration
from spacetable.games.mothership.rules import tech
from spacetable.games.mothership.rules.actions import (
    Attack,
    DrawArtifact,
    DrawCard,
    EndTurn,
    Explore,
    Move,
    Pass,
    Play,
    Sell,
)
from spacetable.games.mothership.rules.movement import engine_spaces
from spacetable.games.mothership.rules.state import MothershipState
from spacetable.games.mothership.rules.turns import knock_out
from spacetable.testing.conformance import CHECKS, Check

CONTENT = load_content()
CARDS = {card.key: index for index, card in enumerate(CONTENT.cards)}
ARTIFACTS = {artifact.name: index for index, artifact in enumerate(CONTENT.artifacts)}
REACTOR = ARTIFACTS["Precursor Reactor"]  # +1 income
CODEX = ARTIFACTS["Salvage Codex"]  # +1 loot
STAR_CHART = ARTIFACTS["Star Chart"]  # fighters and bombers move 1 further
HELM = ARTIFACTS["Ghost Pilot Helm"]  # fighters +1 attack
HULL_PLATE = ARTIFACTS["Living Hull Plate"]  # every ship +1 defence
LATTICE = ARTIFACTS["Crystal Lattice"]  # shields regenerate 2 higher
IDOL = ARTIFACTS["Sentinel Idol"]  # capturing needs 1 more
D4, F6, H8 = 0, 1, 2
"""The test board's planets."""
PLANET = 2 * 7
"""The attack target number of planet 0 (two fleets of six ships and a station)."""


def game(**options: object) -> Mothership:
    return new_game(exploration=True, **options)


def start(
    ships: dict[tuple[int, int], str] | None = None, *, owners: dict[int, int] | None = None, **options: object
) -> MothershipState:
    """Seat 0's turn on the test board with exploration on: ``owners`` planet -> seat."""
    state = position(ships or {(0, FIGHTER_1): "B4", (1, FIGHTER_1): "K11"}, game=game(**options))
    for planet, seat in (owners or {}).items():
        state.owner[planet] = seat
    return state


def found(state: MothershipState, **artifacts: int) -> MothershipState:
    """Planets already explored: ``D4=REACTOR`` etc."""
    for name, artifact in artifacts.items():
        state.artifacts[{"D4": D4, "F6": F6, "H8": H8}[name]] = artifact
    return state


def holding(state: MothershipState, seat: int, *keys: str) -> MothershipState:
    state.hands[seat] = sorted(state.hands[seat] + [CARDS[k] for k in keys])
    return state


def explores(state: MothershipState) -> list[Explore]:
    return [a for a in state.legal_actions() if isinstance(a, Explore)]


def refused(state: MothershipState, action: Action) -> None:
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.to_json() == before


# ---- exploring ------------------------------------------------------------------------------


def test_exploring_a_held_planet_costs_three_resources_and_turns_its_token_over() -> None:
    state = start(owners={D4: 0})
    state.resources = [4, 0]
    assert explores(state) == [Explore(D4)]
    events = play(state, Explore(D4))
    assert state.resources == [1, 0] and state.exploring == D4 and state.is_chance_node()
    assert "Player 1 pays 3 to explore the planet at D4." in [e.text for e in events]
    outcomes = state.chance_outcomes()
    assert sorted(a.artifact for a, _ in outcomes if isinstance(a, DrawArtifact)) == list(range(12))
    assert all(p == pytest.approx(1 / 12) for _, p in outcomes)
    events = play(state, DrawArtifact(STAR_CHART))
    assert state.artifacts == [STAR_CHART, -1, -1] and state.exploring == -1 and state.current_player() == 0
    assert any("Star Chart" in e.text and e.to is None for e in events)  # turned face up for everyone
    assert explores(state) == []  # explored once, for good


def test_no_ship_needs_to_be_near_the_planet() -> None:
    state = start({(0, MOTHERSHIP): "K1", (1, FIGHTER_1): "K11"}, owners={H8: 0})
    state.resources = [3, 0]
    assert explores(state) == [Explore(H8)]


def test_exploring_needs_the_planet_and_the_resources() -> None:
    state = start(owners={D4: 0, F6: 1})
    state.resources = [2, 5]
    assert explores(state) == []
    refused(state, Explore(D4))  # 2 resources
    state = start(owners={D4: 0, F6: 1})
    state.resources = [5, 5]
    refused(state, Explore(F6))  # another player's planet
    refused(state, Explore(H8))  # a neutral planet
    refused(state, DrawArtifact(0))  # nothing is being explored
    assert explores(state) == [Explore(D4)]


def test_exploring_is_only_on_the_players_own_turn() -> None:
    state = start({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}, owners={F6: 1})
    state.resources = [0, 5]
    play(state, EndTurn())
    assert state.trading == [1]  # seat 1 may buy a card at the end of seat 0's turn, not explore
    assert Explore(F6) not in state.legal_actions(1)
    refused(state, Explore(F6))
    play(state, Pass())
    assert state.turn == 1 and Explore(F6) in state.legal_actions(1)


def test_nothing_to_explore_during_a_dogfight() -> None:
    state = holding(start({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}, owners={D4: 0}), 0, "defence_buff")
    state.resources = [5, 0]
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1))
    assert state.current_player() == 0 and state.legal_actions() == [Pass()]  # the window asks; no exploring
    refused(state, Explore(D4))


def test_the_tokens_drawn_are_those_not_found_yet() -> None:
    state = found(start(owners={F6: 0}), D4=STAR_CHART)
    state.resources = [3, 0]
    play(state, Explore(F6))
    drawn = [a.artifact for a, _ in state.chance_outcomes() if isinstance(a, DrawArtifact)]
    assert STAR_CHART not in drawn and len(drawn) == 11
    assert all(p == pytest.approx(1 / 11) for _, p in state.chance_outcomes())
    refused(state, DrawArtifact(STAR_CHART))


def test_a_planet_with_no_token_left_cannot_be_explored() -> None:
    one = {"artifacts": [{"name": "Lone Relic", "effect": "income", "amount": 1, "text": "+1 resource."}]}
    state = start(owners={D4: 0, F6: 0}, content=one)
    state.resources = [9, 0]
    assert explores(state) == [Explore(D4), Explore(F6)]
    play(state, Explore(D4))
    assert state.chance_outcomes() == [(DrawArtifact(0), 1.0)]
    play(state, DrawArtifact(0))
    assert explores(state) == [] and state.resources == [6, 0]


def test_without_the_module_there_is_nothing_to_explore() -> None:
    state = position({(0, FIGHTER_1): "B4", (1, FIGHTER_1): "K11"})
    state.owner[D4] = 0
    state.resources = [9, 0]
    assert explores(state) == []
    refused(state, Explore(D4))


# ---- what an artifact gives, and to whom ------------------------------------------------------


def test_an_income_artifact_adds_a_resource_at_the_end_of_each_turn() -> None:
    state = start(owners={D4: 0})
    state.resources = [3, 0]
    play(state, Explore(D4), DrawArtifact(REACTOR), EndTurn())
    c = state.game.content
    assert state.resources[0] == c.station_income + c.planet_income + 1


def test_a_move_artifact_takes_fighters_one_space_further() -> None:
    state = start({(0, MOTHERSHIP): "E4", (0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"}, owners={D4: 0})
    state.resources = [3, 0]
    assert Move(FIGHTER_1, cell("J5")) not in state.legal_actions()  # 5 spaces: a fighter moves 4
    mothership = engine_spaces(state, 0, MOTHERSHIP)
    play(state, Explore(D4), DrawArtifact(STAR_CHART))
    assert Move(FIGHTER_1, cell("J5")) in state.legal_actions()
    assert engine_spaces(state, 0, MOTHERSHIP) == mothership  # Star Chart is for fighters and bombers


def test_a_defence_artifact_turns_a_tie_into_a_win() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}
    tie = start(ships)
    events = play(tie, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), *rolls(4, 4))
    assert "Attack 4 against defence 4 = 4." in [e.text for e in events]
    state = found(start(ships, owners={H8: 1}), H8=HULL_PLATE)
    events = play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), *rolls(4, 4))
    assert "Attack 4 against defence 5 = 5." in [e.text for e in events]
    assert state.pos[0][FIGHTER_1] == -1  # the attacker loses its fighter


def test_a_shield_artifact_raises_the_shields_as_they_regenerate() -> None:
    state = found(start(owners={D4: 0}), D4=LATTICE)
    play(state, EndTurn())
    table = state.game.content.shields
    assert state.shield == [table[state.energy[0][2]] + 2, table[state.energy[1][2]]]


def test_artifacts_add_up_with_the_technology_tree() -> None:
    state = found(start(owners={D4: 0, F6: 0}), D4=REACTOR, F6=REACTOR)
    assert tech.bonus(state, 0, "income") == 2
    state.artifacts[F6] = STAR_CHART
    assert tech.bonus(state, 0, "income") == 1 and tech.bonus(state, 0, "move", "fighter") == 1
    assert tech.bonus(state, 0, "move", "mothership") == 0 and tech.bonus(state, 1, "income") == 0


def test_a_planet_defence_artifact_raises_the_capture_total_and_no_buff_helps_the_attack() -> None:
    state = found(start({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}, owners={D4: 1, F6: 0}), D4=IDOL, F6=HELM)
    events = play(state, Attack(1 << FIGHTER_1, PLANET + D4), *rolls(6))
    assert state.owner[D4] == 1  # 6, and 7 needed; the fighters' +1 attack is no planet buff
    assert any("7 needed" in e.text for e in events)


def test_capturing_an_explored_planet_takes_its_artifact() -> None:
    state = found(start({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}, owners={D4: 1}), D4=STAR_CHART)
    assert engine_spaces(state, 1, FIGHTER_1) == 5 and engine_spaces(state, 0, FIGHTER_1) == 4
    play(state, Attack(1 << FIGHTER_1, PLANET + D4), *rolls(6), DrawCard(CARDS["afterburner"]))
    assert state.owner[D4] == 0 and state.artifacts[D4] == STAR_CHART
    assert engine_spaces(state, 0, FIGHTER_1) == 5 and engine_spaces(state, 1, FIGHTER_1) == 4
    line = "artifact at D4: Star Chart (+1 move for fighters and bombers), held by Player 1"
    assert exploration.describe(state) == [line]


def test_a_player_knocked_out_drops_the_artifacts() -> None:
    state = found(start(owners={D4: 1}), D4=REACTOR)
    assert exploration.count(state, 1) == 1
    knock_out(state, 1, [])
    assert exploration.count(state, 1) == 0 and tech.bonus(state, 1, "income") == 0
    assert exploration.describe(state) == ["artifact at D4: Precursor Reactor (+1 income), held by nobody"]


def test_in_a_team_game_only_the_planets_owner_has_the_buff() -> None:
    state = position({(0, FIGHTER_1): "E5", (2, FIGHTER_1): "E7"}, game=new_game(4, exploration=True, team_size=2))
    state.owner[0] = 0
    state.artifacts[0] = REACTOR
    assert state.friendly(0, 2)
    assert tech.bonus(state, 0, "income") == 1 and tech.bonus(state, 2, "income") == 0


def test_planet_laser_pointer_takes_the_artifact_away_for_good() -> None:
    ships = {(0, FIGHTER_1): "F4", (1, FIGHTER_1): "K11"}
    state = holding(found(start(ships, owners={F6: 1, D4: 0}), F6=REACTOR), 0, "planet_laser_pointer")
    assert tech.bonus(state, 1, "income") == 1
    play(state, Play(CARDS["planet_laser_pointer"], PLANET + F6, 0))
    assert state.owner[F6] == -2 and tech.bonus(state, 1, "income") == 0
    assert exploration.describe(state) == ["artifact at F6: Precursor Reactor (+1 income), lost with its planet"]
    state.resources = [3, 0]
    play(state, Explore(D4))
    assert DrawArtifact(REACTOR) not in [a for a, _ in state.chance_outcomes()]  # never found again


def test_an_unexplored_planet_off_the_board_can_never_be_explored() -> None:
    ships = {(0, FIGHTER_1): "F4", (1, FIGHTER_1): "K11"}
    state = holding(start(ships, owners={F6: 0}), 0, "planet_laser_pointer")
    state.resources = [9, 0]
    assert explores(state) == [Explore(F6)]
    play(state, Play(CARDS["planet_laser_pointer"], PLANET + F6, 0))
    assert explores(state) == [] and exploration.explorable(state, 0) == []


# ---- the cards ----------------------------------------------------------------------------------


def test_recon_droid_explores_a_held_planet_for_free() -> None:
    state = holding(start(owners={D4: 0}), 0, "recon_droid")
    recon = CARDS["recon_droid"]
    assert [a for a in state.legal_actions() if isinstance(a, Play)] == [Play(recon, PLANET + D4, 0)]
    refused(state, Play(recon, PLANET + F6, 0))  # a neutral planet
    events = play(state, Play(recon, PLANET + D4, 0))
    assert state.resources == [0, 0] and state.exploring == D4 and state.is_chance_node()
    assert "A recon droid explores the planet at D4." in [e.text for e in events]
    play(state, DrawArtifact(CODEX))
    assert state.artifacts[D4] == CODEX and state.hands[0] == [] and state.discard[recon] == 1


def test_recon_droid_needs_an_unexplored_planet_held() -> None:
    state = holding(found(start(owners={D4: 0, F6: 1}), D4=CODEX), 0, "recon_droid")
    assert not [a for a in state.legal_actions() if isinstance(a, Play)]


def test_intergalactic_antiques_roadshow_adds_one_per_artifact_held() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}
    state = holding(found(start(ships, owners={D4: 1, F6: 1}), D4=REACTOR, F6=CODEX), 1, "antiques_roadshow")
    roadshow = CARDS["antiques_roadshow"]
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1))
    assert state.current_player() == 1 and state.legal_actions() == [Play(roadshow, 0, 0), Pass()]
    events = play(state, Play(roadshow, 0, 0), *rolls(5, 3))
    assert "Attack 5 against defence 5 = 5." in [e.text for e in events]  # 3 + 2 artifacts: a tie


def test_the_roadshow_helps_an_attack_too() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}
    state = holding(found(start(ships, owners={D4: 0}), D4=REACTOR), 0, "antiques_roadshow")
    events = play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), Play(CARDS["antiques_roadshow"], 0, 0), *rolls(3, 3))
    assert "Attack 4 against defence 3 = 3." in [e.text for e in events]


def test_the_roadshow_needs_an_artifact_and_never_helps_a_planet_attack() -> None:
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}
    state = holding(start(ships, owners={F6: 0}), 1, "antiques_roadshow")
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1))
    assert state.legal_actions() == [Pass()]  # asked (it holds a card), nothing to play
    state = found(start({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}, owners={F6: 0}), F6=REACTOR)
    holding(state, 0, "antiques_roadshow")
    play(state, Attack(1 << FIGHTER_1, PLANET + D4))
    assert state.is_chance_node()  # the attacker on a planet is never asked


def test_exploration_cards_are_in_the_deck_and_playable_only_with_the_module() -> None:
    off = position({(0, FIGHTER_1): "B4", (1, FIGHTER_1): "K11"})
    on = start()
    for key in ("recon_droid", "antiques_roadshow"):
        assert off.deck[CARDS[key]] == 0 and on.deck[CARDS[key]] == CONTENT.cards[CARDS[key]].count
    assert sum(on.deck) - sum(off.deck) == 5
    holding(off, 0, "recon_droid")
    off.owner[D4] = 0
    assert not [a for a in off.legal_actions() if isinstance(a, Play)]  # a card dealt by hand: only sold
    assert Sell(CARDS["recon_droid"]) in off.legal_actions()


# ---- labels, the terminal's lines, the evaluation ----------------------------------------------


def test_labels_and_lines() -> None:
    state = found(start(owners={D4: 0, F6: 1}), F6=STAR_CHART)
    assert state.action_label(Explore(D4)) == "explore the planet at D4 for 3 resources"
    assert state.action_label(DrawArtifact(STAR_CHART)) == "artifact: Star Chart"
    line = "artifact at F6: Star Chart (+1 move for fighters and bombers), held by Player 2"
    assert exploration.describe(state) == [line]
    assert exploration.effect_words(CONTENT.artifacts[HULL_PLATE]) == "+1 defence for every ship"


def test_an_artifact_is_worth_more_than_exploring_costs() -> None:
    state = start(owners={D4: 0})
    state.resources = [3, 0]
    assert exploration.worth(state, 0) == 0.0
    assert state.game.content.exploration_cost * heuristic.RESOURCE < exploration.ARTIFACT_WORTH
    play(state, Explore(D4))
    expected = exploration.worth(state, 0)  # the token being turned over counts already
    assert expected == exploration.ARTIFACT_WORTH and exploration.worth(state, 1) == 0.0
    play(state, DrawArtifact(CODEX))
    assert exploration.worth(state, 0) == expected


# ---- conformance ------------------------------------------------------------------------------------

VARIANTS = {
    "exploration, 3 players": spacetable.load("mothership", 3, {"exploration": True, "round_limit": rounds(5, 8)}),
    "exploration, victory points": spacetable.load(
        "mothership", 2, {"exploration": True, "mode": "victory_points", "round_limit": rounds(5, 8)}
    ),
}


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
def test_exploration_conforms(variant: Game, check: Check) -> None:
    check(variant, n=playouts(1, 2))


def test_the_batch_report_counts_explored_planets_and_the_finders_win_rate() -> None:
    state = start(owners={D4: 0, F6: 0})
    state.resources = [6, 0]
    play(state, Explore(D4), DrawArtifact(REACTOR), Explore(F6), DrawArtifact(CODEX))
    state.owner[F6] = 1  # captured later: the finder still counts
    state.phase, state.winners = "over", [0]
    figures = state.game.statistics(state)
    assert figures["planets explored"].value == 2
    reactor = figures["win rate, finder of Precursor Reactor"]
    codex = figures["win rate, finder of Salvage Codex"]
    assert (reactor.value, reactor.weight) == (1.0, 1) and (codex.value, codex.weight) == (1.0, 1)
    assert figures["win rate, finder of Star Chart"].weight == 0
    assert "planets explored" not in new_game().statistics(new_game().new_initial_state())


def test_tokens_are_hidden_from_everyone_until_the_planet_is_explored() -> None:
    state = start(owners={D4: 0, F6: 1})
    state.resources = [3, 0]
    views = [state.view(seat) for seat in (0, 1, None)]
    assert all(view["artifacts"] == [-1, -1, -1] for view in views)  # nothing under any planet is known
    play(state, Explore(D4))
    assert state.view(1)["artifacts"] == [-1, -1, -1] and state.view(0)["artifacts"] == [-1, -1, -1]
    play(state, DrawArtifact(STAR_CHART))
    assert all(state.view(seat)["artifacts"] == [STAR_CHART, -1, -1] for seat in (0, 1, None))
    assert state.resample(1, random.Random(0)).artifacts == state.artifacts
