"""Scenario tests for SpaceRace, section by section of the rulebook (and RULINGS.md).

Positions are set up through the JSON form (see ``spacerace_helpers``) on the
two-player map: 0 Nexus; 1 Vega and 2 Rigel next to it; Vega - tiles 3-6 - 7 Altair;
Rigel - tiles 8-11 - 12 Deneb; Nexus - tiles 13-16 - 17 Sirius. Red is seat 0,
Blue seat 1. Dice and draws are forced by applying the chosen chance outcome.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import spacetable
from spacerace_helpers import (
    ALTAIR,
    DENEB,
    NEXUS,
    RIGEL,
    SIRIUS,
    VEGA,
    Assimilate,
    Contest,
    Design,
    Destroy,
    DrawShip,
    DrawTreasure,
    EndTurn,
    Flee,
    Homeworld,
    LayStarway,
    Move,
    Roll,
    apply,
    new_game,
    position,
    ship,
    ship_card,
    started,
    tiles,
    treasure_card,
)
from spacetable.engine import CHANCE, IllegalActionError, OptionsError
from spacetable.games.spacerace.content import CONTENT_DIR, deckgen, load_content
from spacetable.games.spacerace.game import SpaceRace
from spacetable.games.spacerace.rules.ships import Ship
from spacetable.games.spacerace.rules.state import SpaceRaceState

RED, BLUE = 0, 1


def red_to_move(game: SpaceRace | None = None, **changes: Any) -> SpaceRaceState:
    """Red's turn, phase move, with the given fields replaced."""
    fields = {"turn": RED, "phase": "move", **changes}
    return position(game, **fields)


def red_ship(state: SpaceRaceState, index: int = 0) -> Ship:
    return state.fleets[RED][index]


# ---- set-up: the map -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_map_has_the_nexus_one_inner_planet_per_player_matching_arms_and_the_rest_on_the_nexus(players: int) -> None:
    game = new_game(players)
    galaxy = game.galaxy
    assert galaxy.marks[0] == "N" and galaxy.positions[0] == (0.0, 0.0)
    assert len(galaxy.inner_planets) == players
    assert sorted(galaxy.adjacency[NEXUS]) == sorted([*galaxy.inner_planets, galaxy.starways[-1].tiles[0]])
    assert len(galaxy.planets) == 2 * players + 1  # default: two planets per arm and one extra
    assert len(galaxy.starways) == players + 1
    for way in galaxy.starways:
        assert len(way.tiles) == 4
        chain = [way.near, *way.tiles, way.far]
        assert all(b in galaxy.adjacency[a] for a, b in itertools.pairwise(chain))
    arm_ways, extra = galaxy.starways[:players], galaxy.starways[players]
    assert [way.near for way in arm_ways] == list(galaxy.inner_planets)  # each arm: inner planet - starway - planet
    assert extra.near == NEXUS  # the remaining planet hangs off the Nexus
    for planet in galaxy.inner_planets:
        assert galaxy.distance[NEXUS][planet] == 1
    assert all(galaxy.names[p] for p in galaxy.planets) and len(set(galaxy.names[p] for p in galaxy.planets)) == len(
        galaxy.planets
    )


def test_map_size_options_grow_the_arms_and_the_planets_on_the_nexus() -> None:
    game = new_game(3, arm_planets=3, extra_planets=2)
    galaxy = game.galaxy
    assert len(galaxy.planets) == 3 * 3 + 2
    assert len(galaxy.starways) == 3 * 2 + 2
    outer = max(galaxy.distance[NEXUS][p] for p in galaxy.planets)
    assert outer == 1 + 2 * 5  # inner planet, then two starways of 4 tiles and their planets
    assert sum(1 for way in galaxy.starways if way.near == NEXUS) == 2
    small = new_game(2, arm_planets=1, extra_planets=0).galaxy
    assert len(small.planets) == 2 and small.starways == ()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"arm_planets": 5}, "arm_planets=5 must be from 1 to 4"),
        ({"extra_planets": -1}, "extra_planets=-1 must be from 0 to 6"),
        ({"nexus_delay": 4}, "nexus_delay=4 must be from 0 to 3"),
        ({"turn_limit": 0}, "turn_limit=0 must be at least 1"),
        ({"density": "crowded"}, "names no starway deck; decks: sparse, standard, dense"),
        ({"fleet_moves": "some"}, "must be one of"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        new_game(2, **options)


def test_starways_are_drawn_one_chance_node_each_with_the_deck_odds() -> None:
    game = new_game()
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.phase == "starways"
    outcomes = dict(state.chance_outcomes())
    counts = game.starway_counts
    assert outcomes[LayStarway(0)] == pytest.approx(counts[0] / sum(counts))
    card = game.starway_patterns.index("TS..")
    apply(state, LayStarway(card))
    assert state.tiles[3:7] == "TS.."  # Vega-Altair, from the Vega end
    assert state.starway_deck[card] == counts[card] - 1
    assert LayStarway(card) not in dict(state.chance_outcomes())  # its only copy is on the map


def test_order_rolls_redo_a_face_already_rolled_and_the_highest_chooses_first_and_the_last_starts() -> None:
    game = new_game(3)
    state = game.new_initial_state()
    while state.phase == "starways":
        apply(state, state.legal_actions()[0])
    apply(state, 2)
    assert [a.value for a, _ in state.chance_outcomes()] == [1, 3, 4, 5, 6]  # a 2 would be rolled again
    assert all(p == pytest.approx(1 / 5) for _, p in state.chance_outcomes())
    apply(state, 6, 4)
    assert state.order == [1, 2, 0]  # Blue 6, Green 4, Red 2
    assert state.current_player() == 1
    apply(state, Homeworld(game.galaxy.planets[0]))
    with pytest.raises(IllegalActionError, match="already Blue's homeworld"):
        state.apply_action(Homeworld(game.galaxy.planets[0]), 2)
    apply(state, Homeworld(game.galaxy.planets[1]), Homeworld(game.galaxy.planets[2]))
    assert state.phase == "design" and state.current_player() == 1
    apply(state, Design(2, 4, 4), Design(3, 3, 4), Design(4, 3, 3))
    assert state.phase == "move" and state.turn == 0 and state.starter == 0  # Red chose last
    assert state.fleets[0][0].stats == (4, 3, 3) and state.fleets[0][0].node == game.galaxy.planets[2]
    assert state.owner[game.galaxy.planets[2]] == 0


def test_a_mothership_design_spreads_ten_points_with_at_least_one_on_each_score() -> None:
    game = new_game()
    splits = {(a.d, a.m, a.a) for a in game.design_actions}
    assert len(splits) == 36 and all(sum(s) == 10 and min(s) >= 1 for s in splits)
    state = started(game, designs=((1, 1, 8), (8, 1, 1)))
    assert state.fleets[RED][0].stats == (1, 1, 8)
    fresh = game.new_initial_state()
    while fresh.phase != "design":
        apply(fresh, fresh.legal_actions()[0])
    before = fresh.to_json()
    for bad in (Design(5, 5, 5), Design(0, 5, 5)):
        with pytest.raises(IllegalActionError, match="10 points, at least 1 on each score"):
            fresh.apply_action(bad)
    assert fresh.to_json() == before


def test_mothership_minimum_and_points_come_from_the_content() -> None:
    game = new_game(content={"rules": {"mothership_points": 12, "mothership_minimum": 0}})
    splits = {(a.d, a.m, a.a) for a in game.design_actions}
    assert (0, 0, 12) in splits and len(splits) == 91


# ---- movement ----------------------------------------------------------------------------------


def test_a_ship_moves_up_to_its_m_along_the_starways_and_never_past_the_nexus() -> None:
    state = red_to_move(fleets=[[ship(VEGA)], [ship(DENEB)]], designs=[[3, 3, 4], [3, 3, 4]])
    targets = {a.to for a in state.legal_actions() if isinstance(a, Move)}
    assert targets == {NEXUS, 3, 4, 5}  # M 3: three tiles toward Altair, or stop at the Nexus
    assert EndTurn() in state.legal_actions()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="not within 3 step"):
        state.apply_action(Move(0, ALTAIR))
    with pytest.raises(IllegalActionError, match="not within 3 step"):
        state.apply_action(Move(0, 13))  # beyond the Nexus
    assert state.to_json() == before


def test_entering_a_space_with_enemy_ships_ends_the_move() -> None:
    state = red_to_move(fleets=[[ship(VEGA)], [ship(4)]], designs=[[3, 3, 4], [3, 3, 4]], owner={RIGEL: BLUE})
    targets = {a.to for a in state.legal_actions() if isinstance(a, Move)}
    assert 4 in targets and 5 not in targets


def test_the_nexus_costs_a_turn_of_customs() -> None:
    state = red_to_move(fleets=[[ship(VEGA)], [ship(RIGEL)]])
    events = apply(state, Move(0, NEXUS))
    assert any("customs" in e.text for e in events)
    assert red_ship(state).wait == 2 and state.turn == BLUE
    apply(state, EndTurn())
    assert state.turn == BLUE and red_ship(state).wait == 1  # Red's only ship is in customs: Red's turn passed
    apply(state, EndTurn())
    assert state.turn == RED and red_ship(state).wait == 0
    assert Move(0, 13) in state.legal_actions()  # on the far side of the Nexus now


def test_nexus_delay_zero_only_stops_the_ship() -> None:
    state = red_to_move(new_game(nexus_delay=0), fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, Move(0, NEXUS), EndTurn())
    assert state.turn == RED and Move(0, 13) in state.legal_actions()


def test_a_ship_with_m_zero_cannot_move() -> None:
    game = new_game(content={"treasure": [{"name": "Anchor", "m": -9, "count": 1}]})
    state = position(game, turn=BLUE, phase="move", fleets=[[ship(VEGA, treasure=(0,))], [ship(RIGEL)]])
    assert red_ship(state).m == 0
    apply(state, EndTurn())
    assert state.turn == BLUE and state.round == 2  # Red had nothing to move: its turn passed


def test_landing_on_a_treasure_tile_draws_a_card_for_that_ship() -> None:
    game = new_game()
    state = red_to_move(game, tiles=tiles(game, {4: "T"}), fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, Move(0, 4))
    assert state.phase == "treasure" and state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    assert outcomes[DrawTreasure(treasure_card(game, a=2))] == pytest.approx(3 / 34)
    apply(state, DrawTreasure(treasure_card(game, a=2)))
    assert red_ship(state).stats == (3, 3, 6) and len(red_ship(state).treasure) == 1
    assert state.treasure_deck[treasure_card(game, a=2)] == 2
    assert state.turn == BLUE and state.tiles[4] == "T"  # the tile stays (encounters = permanent)


def test_passing_over_a_tile_does_nothing() -> None:
    game = new_game()
    state = red_to_move(game, tiles=tiles(game, {3: "T", 4: "S"}), fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, Move(0, 5))
    assert state.turn == BLUE and red_ship(state).node == 5


def test_downgrades_lower_a_score_but_never_below_zero() -> None:
    game = new_game()
    breach = treasure_card(game, d=-3)
    state = red_to_move(game, fleets=[[ship(VEGA, treasure=(breach,))], [ship(RIGEL)]])
    assert red_ship(state).stats == (0, 3, 4)


def test_cleared_encounters_empty_the_tile_once_used() -> None:
    game = new_game(encounters="cleared")
    state = red_to_move(game, tiles=tiles(game, {4: "T"}), fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, Move(0, 4), DrawTreasure(0))
    assert state.tiles[4] == "."


def test_fleet_moves_all_lets_each_ship_move_once() -> None:
    game = new_game(fleet_moves="all")
    state = red_to_move(game, fleets=[[ship(VEGA), ship(VEGA, card=0)], [ship(RIGEL)]])
    apply(state, Move(0, 3))
    assert state.turn == RED and {a.ship for a in state.legal_actions() if isinstance(a, Move)} == {1}
    with pytest.raises(IllegalActionError, match="already moved this turn"):
        state.apply_action(Move(0, 4))
    apply(state, Move(1, 4))
    assert state.turn == BLUE  # no ship left to move: the turn ended
    assert not any(s.acted for s in state.fleets[RED])


def test_one_ship_moves_per_turn_by_default() -> None:
    state = red_to_move(fleets=[[ship(VEGA), ship(VEGA, card=0)], [ship(RIGEL)]])
    apply(state, Move(1, 3))
    assert state.turn == BLUE


# ---- battles against the map -------------------------------------------------------------------


def _encounter(designs: tuple[int, int, int], card: int, game: SpaceRace | None = None) -> SpaceRaceState:
    """Red's mothership with ``designs`` lands on an [S] tile (node 4) and meets spaceship ``card``."""
    game = game or new_game()
    state = red_to_move(
        game,
        tiles=tiles(game, {4: "S"}),
        designs=[list(designs), [3, 3, 4]],
        fleets=[[ship(VEGA)], [ship(RIGEL)]],
    )
    apply(state, Move(0, 4))
    assert state.phase == "encounter"
    apply(state, DrawShip(card))
    return state


def test_pvm_higher_m_strikes_first_and_a_higher_a_captures_the_ship() -> None:
    game = new_game()
    card = ship_card(game, 3, 3, 3)
    state = _encounter((3, 4, 5), card, game)
    fleet = state.fleets[RED]
    assert len(fleet) == 2 and fleet[1].card == card and fleet[1].name == "Wanderer" and fleet[1].node == 4
    assert fleet[1].wait == 1  # it may move from Red's next turn
    assert state.ship_deck[card] == 1 and state.turn == BLUE


def test_pvm_equal_m_the_player_strikes_first() -> None:
    game = new_game()
    state = red_to_move(game, tiles=tiles(game, {4: "S"}), fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, Move(0, 4))
    events = apply(state, DrawShip(ship_card(game, 3, 3, 3)))  # [3|3|4] against [3|3|3]
    assert any("the player strikes first" in e.text for e in events)
    assert len(state.fleets[RED]) == 2


def test_pvm_equal_m_rolled_with_map_initiative_roll() -> None:
    game = new_game(map_initiative="roll")
    state = red_to_move(game, tiles=tiles(game, {4: "S"}), fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, Move(0, 4), DrawShip(ship_card(game, 3, 3, 3)))
    assert state.phase == "initiative" and state.current_player() == CHANCE
    apply(state, 2, 5)  # the map ship strikes first: A 3 matches D 3, a standoff
    assert state.phase == "contest"


def test_pvm_lower_m_the_map_ship_strikes_first_and_destroys_the_ship() -> None:
    game = new_game()
    card = ship_card(game, 3, 4, 3)
    state = _encounter((2, 3, 5), card, game)  # the map strikes first: A 3 beats D 2
    assert state.fleets[RED] == [] and state.rebuilding[RED]
    assert state.ship_deck[card] == 1  # the map ship goes back to its deck
    assert state.turn == BLUE


def test_pvm_defeat_returns_the_ship_and_its_treasure_to_the_decks() -> None:
    game = new_game()
    plating = treasure_card(game, d=1)
    captured = ship_card(game, 2, 2, 2)
    state = red_to_move(
        game,
        tiles=tiles(game, {4: "S"}),
        fleets=[[ship(VEGA), ship(3, card=captured, treasure=(plating,))], [ship(RIGEL)]],
        ship_deck=[0 if i == captured else n for i, n in enumerate(game.content.ship_counts)],
        treasure_deck=[n - (i == plating) for i, n in enumerate(game.content.treasure_counts)],
    )
    apply(state, Move(1, 4), DrawShip(ship_card(game, 4, 3, 1)))  # [3|2|2] meets [4|3|1]: A 1 < D 3, A 2 < D 4
    assert state.phase == "contest"
    apply(state, 1, 6)
    assert len(state.fleets[RED]) == 1
    assert state.ship_deck[captured] == 1 and state.treasure_deck[plating] == game.content.treasure_counts[plating]


def test_pvm_a_equal_to_d_is_a_standoff_the_faster_player_may_flee() -> None:
    game = new_game()
    card = ship_card(game, 4, 2, 4)
    state = _encounter((3, 3, 4), card, game)  # M 3 > 2: Red strikes, A 4 = D 4
    assert state.phase == "standoff" and state.current_player() == RED
    assert state.legal_actions() == [Contest(), Flee()]
    events = apply(state, Flee())
    assert red_ship(state).node == VEGA and any("flees back to Vega" in e.text for e in events)
    assert state.ship_deck[card] == 1 and state.battle is None and state.turn == BLUE


def test_pvm_a_below_d_the_defender_survives_and_strikes_back() -> None:
    game = new_game()
    state = _encounter((2, 4, 3), ship_card(game, 4, 2, 4), game)  # A 3 < D 4; back: A 4 beats D 2
    assert state.fleets[RED] == [] and state.rebuilding[RED]
    game = new_game()
    state = _encounter((5, 4, 3), ship_card(game, 4, 2, 4), game)  # A 3 < D 4; back: A 4 < D 5
    assert state.phase == "standoff"  # nobody beaten: a standoff


def test_a_standoff_without_the_higher_m_goes_to_the_dice_and_the_second_die_differs() -> None:
    game = new_game()
    state = _encounter((3, 2, 4), ship_card(game, 4, 2, 4), game)  # equal M: Red first, A 4 = D 4
    assert state.phase == "contest"
    apply(state, 4)
    outcomes = state.chance_outcomes()
    assert [a.value for a, _ in outcomes] == [1, 2, 3, 5, 6] and all(p == pytest.approx(0.2) for _, p in outcomes)
    apply(state, 3)
    assert len(state.fleets[RED]) == 2  # 4 beats 3: captured


def test_contesting_a_standoff_can_be_lost() -> None:
    game = new_game()
    state = _encounter((3, 3, 4), ship_card(game, 4, 2, 4), game)
    apply(state, Contest(), 2, 5)
    assert state.rebuilding[RED] and state.fleets[RED] == []


def test_flee_needs_the_higher_m() -> None:
    game = new_game()
    state = _encounter((3, 2, 4), ship_card(game, 4, 2, 4), game)  # equal M: a standoff for the dice only
    assert state.phase == "contest"
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="only an attacker with the higher M may flee"):
        state.apply_action(Flee())
    assert state.to_json() == before


def test_a_full_fleet_cannot_capture() -> None:
    game = new_game(content={"rules": {"fleet_limit": 1}})
    card = ship_card(game, 3, 3, 3)
    state = _encounter((3, 4, 5), card, game)
    assert len(state.fleets[RED]) == 1 and state.ship_deck[card] == 2


def test_an_empty_spaceship_deck_means_no_encounter() -> None:
    game = new_game()
    state = red_to_move(
        game, tiles=tiles(game, {4: "S"}), fleets=[[ship(VEGA)], [ship(RIGEL)]], ship_deck=[0] * len(game.content.ships)
    )
    events = apply(state, Move(0, 4))
    assert state.turn == BLUE and any("deck is empty" in e.text for e in events)


# ---- battles between players -------------------------------------------------------------------


def _pvp(red: tuple[int, int, int], blue: tuple[int, int, int]) -> SpaceRaceState:
    """Red's mothership (at Vega) about to attack Blue's mothership on tile 4."""
    return red_to_move(designs=[list(red), list(blue)], fleets=[[ship(VEGA)], [ship(4)]])


def test_pvp_higher_m_strikes_first_and_the_winner_chooses_to_destroy_a_mothership() -> None:
    state = _pvp((3, 4, 5), (3, 3, 4))
    events = apply(state, Move(0, 4))
    assert any("the attacker strikes first" in e.text for e in events)
    assert state.battle is None and state.rebuilding[BLUE] and state.fleets[BLUE] == []
    assert any("destroys Mothership" in e.text for e in events)  # a mothership cannot be assimilated
    assert red_ship(state).node == 4 and state.turn == BLUE


def test_pvp_lower_m_the_defender_strikes_first() -> None:
    state = _pvp((2, 3, 5), (3, 4, 3))
    events = apply(state, Move(0, 4))
    assert any("the defender strikes first" in e.text for e in events)
    assert state.rebuilding[RED] and state.fleets[RED] == []  # A 3 beats D 2


def test_pvp_equal_m_is_settled_by_a_d6_each_for_the_first_strike() -> None:
    state = _pvp((3, 3, 4), (3, 3, 4))
    apply(state, Move(0, 4))
    assert state.phase == "initiative" and state.current_player() == CHANCE
    apply(state, 6, 1)  # Red strikes first: A 4 beats D 3
    assert state.rebuilding[BLUE]
    state = _pvp((3, 3, 4), (3, 3, 4))
    apply(state, Move(0, 4), 1, 6)  # Blue strikes first
    assert state.rebuilding[RED] and state.fleets[RED] == []


def test_pvp_equal_a_and_d_is_a_standoff() -> None:
    state = _pvp((3, 4, 3), (3, 3, 4))
    apply(state, Move(0, 4))
    assert state.phase == "standoff"  # A 3 = D 3; Red is faster, so Red may flee
    apply(state, Flee())
    assert red_ship(state).node == VEGA and state.fleets[BLUE][0].node == 4


def test_pvp_assimilate_takes_the_beaten_ship_with_its_treasure() -> None:
    game = new_game()
    card = ship_card(game, 3, 3, 3)
    cannons = treasure_card(game, a=1)
    state = red_to_move(
        game,
        designs=[[3, 4, 5], [3, 3, 4]],
        fleets=[[ship(VEGA)], [ship(RIGEL), ship(4, card=card, name="Kestrel", treasure=(cannons,))]],
    )
    apply(state, Move(0, 4))
    assert state.phase == "reward" and state.current_player() == RED
    assert state.legal_actions() == [Assimilate(), Destroy()]
    apply(state, Assimilate())
    taken = state.fleets[RED][1]
    assert taken.name == "Kestrel" and taken.treasure == (cannons,) and taken.stats == (3, 3, 4) and taken.node == 4
    assert len(state.fleets[BLUE]) == 1


def test_pvp_destroy_takes_the_beaten_ships_upgrades_and_downgrades() -> None:
    game = new_game()
    card = ship_card(game, 3, 3, 3)
    cannons, leak = treasure_card(game, a=2), treasure_card(game, m=-1)
    state = red_to_move(
        game,
        designs=[[3, 4, 5], [3, 3, 4]],
        fleets=[[ship(VEGA)], [ship(RIGEL), ship(4, card=card, treasure=(cannons, leak))]],
    )
    left = state.ship_deck[card]
    apply(state, Move(0, 4), Destroy())
    assert red_ship(state).treasure == (cannons, leak) and red_ship(state).stats == (3, 3, 7)
    assert len(state.fleets[BLUE]) == 1 and state.ship_deck[card] == left + 1  # the card goes back to its deck


def test_a_defender_who_wins_gets_the_reward_choice() -> None:
    game = new_game()
    guard = ship_card(game, 3, 4, 3)
    state = red_to_move(
        game, designs=[[2, 3, 5], [3, 3, 4]], fleets=[[ship(VEGA), ship(3, card=0)], [ship(RIGEL), ship(4, card=guard)]]
    )
    apply(state, Move(1, 4))  # Red's [2|2|2] meets Blue's [3|4|3]: Blue first, A 3 beats D 2
    assert state.phase == "reward" and state.current_player() == BLUE
    apply(state, Assimilate())
    assert len(state.fleets[RED]) == 1 and state.fleets[BLUE][-1].card == 0 and state.fleets[BLUE][-1].node == 4
    assert state.turn == BLUE  # Red's move is over


# ---- planetary assault and conquest ------------------------------------------------------------


def test_an_orbiting_defender_has_m_zero_and_double_d() -> None:
    """[3|3|6] against [3|3|3]: on a tile A 6 beats D 3; in orbit A 6 only matches D 3x2."""
    game = new_game()
    card = ship_card(game, 3, 3, 3)
    on_tile = red_to_move(game, designs=[[3, 3, 6], [3, 3, 4]], fleets=[[ship(3)], [ship(RIGEL), ship(4, card=card)]])
    apply(on_tile, Move(0, 4))  # equal M: the initiative dice; Red strikes first, A 6 beats D 3
    apply(on_tile, 6, 1)
    assert on_tile.phase == "reward"
    game = new_game()
    state = red_to_move(
        game,
        designs=[[3, 3, 6], [3, 3, 4]],
        fleets=[[ship(5)], [ship(DENEB), ship(ALTAIR, card=card)]],
        owner={ALTAIR: BLUE},
    )
    events = apply(state, Move(0, ALTAIR))
    assert any("planetary assault" in e.text and "D 3x2 = 6" in e.text for e in events)
    assert any("M 3 against 0: the attacker strikes first" in e.text for e in events)
    assert any("A 6 matches D 6" in e.text for e in events)
    assert state.phase == "standoff"  # Red's M 3 > 0: Red may flee


def test_winning_the_assault_conquers_the_planet_with_a_conquest_roll() -> None:
    game = new_game()
    card = ship_card(game, 3, 3, 3)
    state = red_to_move(
        game,
        designs=[[3, 3, 7], [3, 3, 4]],
        fleets=[[ship(5)], [ship(DENEB), ship(ALTAIR, card=card)]],
        owner={ALTAIR: BLUE},
    )
    apply(state, Move(0, ALTAIR), Destroy())
    assert state.owner[ALTAIR] == RED and state.phase == "conquest"
    apply(state, 6)
    assert state.draws == 3 and state.phase == "treasure"


def test_every_defender_in_orbit_must_be_beaten_the_strongest_first() -> None:
    game = new_game()
    weak, strong = ship_card(game, 2, 2, 2), ship_card(game, 3, 3, 3)
    state = red_to_move(
        game,
        designs=[[3, 3, 7], [3, 3, 4]],
        fleets=[[ship(5)], [ship(DENEB), ship(ALTAIR, card=weak), ship(ALTAIR, card=strong)]],
        owner={ALTAIR: BLUE},
    )
    apply(state, Move(0, ALTAIR))
    assert state.battle is not None and state.battle.foe_ship == 2  # [3|3|3] defends first (D 6 in orbit)
    apply(state, Assimilate())
    assert state.fleets[RED][1].node == 5  # the planet is still Blue's: it joins where Red came from
    assert state.phase == "reward" and state.owner[ALTAIR] == BLUE  # then the [2|2|2]: A 7 beats D 4
    apply(state, Destroy())
    assert state.owner[ALTAIR] == RED and state.phase == "conquest"


def test_losing_an_assault_leaves_the_planet_to_its_owner() -> None:
    game = new_game()
    state = red_to_move(
        game,
        designs=[[1, 3, 4], [3, 3, 4]],
        fleets=[[ship(5)], [ship(DENEB), ship(ALTAIR, card=ship_card(game, 3, 3, 3))]],
        owner={ALTAIR: BLUE},
    )
    apply(state, Move(0, ALTAIR))  # A 4 < D 6; back: A 3 beats D 1
    assert state.rebuilding[RED] and state.owner[ALTAIR] == BLUE


@pytest.mark.parametrize(("roll", "cards"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_the_conquest_table_gives_half_the_roll_in_treasure(roll: int, cards: int) -> None:
    state = red_to_move(fleets=[[ship(6)], [ship(RIGEL)]])
    events = apply(state, Move(0, ALTAIR))
    assert state.owner[ALTAIR] == RED and any("discovers Altair" in e.text for e in events)
    assert state.phase == "conquest"
    apply(state, roll)
    if cards:
        assert state.phase == "treasure" and state.draws == cards
        for _ in range(cards):
            apply(state, state.legal_actions()[0])
        assert len(red_ship(state).treasure) == cards
    assert state.turn == BLUE and state.draws == 0


def test_conquest_roll_only_after_an_assault_with_the_option() -> None:
    state = red_to_move(new_game(conquest_roll="assault"), fleets=[[ship(6)], [ship(RIGEL)]])
    apply(state, Move(0, ALTAIR))
    assert state.owner[ALTAIR] == RED and state.turn == BLUE


def test_an_unguarded_enemy_planet_is_taken_by_landing_on_it() -> None:
    state = red_to_move(fleets=[[ship(NEXUS)], [ship(DENEB)]])  # Blue's homeworld Rigel has no ship in orbit
    events = apply(state, Move(0, RIGEL))
    assert state.owner[RIGEL] == RED and any("conquers Rigel from Blue" in e.text for e in events)


# ---- motherships -------------------------------------------------------------------------------


def test_a_destroyed_mothership_is_rebuilt_by_d6_plus_planets_reaching_six() -> None:
    state = position(turn=BLUE, phase="move", fleets=[[], [ship(RIGEL)]], rebuilding=[True, False])
    apply(state, EndTurn())
    assert state.turn == RED and state.phase == "rebuild" and state.current_player() == CHANCE
    events = apply(state, 4)  # 4 + 1 planet = 5
    assert any("not rebuilt" in e.text for e in events) and state.rebuilding[RED]
    assert state.turn == BLUE  # nothing else to do
    apply(state, EndTurn(), 5)  # 5 + 1 = 6
    assert not state.rebuilding[RED] and red_ship(state).node == VEGA and red_ship(state).is_mothership
    assert red_ship(state).stats == (3, 3, 4) and red_ship(state).wait == 1
    assert state.turn == BLUE  # it may move on Red's next turn, not this one
    apply(state, EndTurn())
    assert state.turn == RED and any(isinstance(a, Move) for a in state.legal_actions())


def test_planets_controlled_add_to_the_rebuild_roll() -> None:
    state = position(
        turn=BLUE, phase="move", fleets=[[], [ship(RIGEL)]], rebuilding=[True, False], owner={ALTAIR: RED, SIRIUS: RED}
    )
    apply(state, EndTurn(), 3)  # 3 + 3 planets = 6
    assert not state.rebuilding[RED]


def test_a_mothership_whose_homeworld_is_lost_is_rebuilt_at_the_nearest_held_planet() -> None:
    state = position(
        turn=BLUE,
        phase="move",
        fleets=[[], [ship(VEGA)]],
        rebuilding=[True, False],
        owner={VEGA: BLUE, ALTAIR: RED, SIRIUS: RED},
    )
    apply(state, EndTurn(), 6)
    assert red_ship(state).node == ALTAIR  # 5 steps from Vega; Sirius is 6


def test_with_the_house_rule_last_standing_the_last_one_left_wins() -> None:
    game = new_game(last_standing=True)
    state = red_to_move(game, fleets=[[ship(NEXUS)], []], owner={RIGEL: BLUE}, rebuilding=[False, True])
    apply(state, Move(0, RIGEL))
    assert state.is_terminal() and state.winners == [RED]
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "every rival eliminated"
    assert state.returns() == [1.0, -1.0]


def test_by_the_rulebook_a_player_is_out_but_the_survivor_must_still_take_every_planet() -> None:
    # The rulebook's only goal is to take over every planet: eliminating the rivals is not a win.
    state = red_to_move(fleets=[[ship(NEXUS)], []], owner={RIGEL: BLUE}, rebuilding=[False, True])
    apply(state, Move(0, RIGEL))
    assert state.out[BLUE] and not state.is_terminal() and state.phase == "conquest"
    apply(state, 1)
    assert state.turn == RED and state.round == 2  # Blue's turns are skipped


def test_taking_every_planet_wins() -> None:
    game = new_game()
    owners = {p: RED for p in game.galaxy.planets}
    owners[ALTAIR] = -1
    state = red_to_move(game, fleets=[[ship(6)], [ship(8, card=0)]], owner=owners)
    apply(state, Move(0, ALTAIR))
    assert state.is_terminal() and state.reason == "every planet taken" and state.winners == [RED]


def test_by_the_rulebook_no_round_limit_ends_the_race() -> None:
    state = red_to_move(round=40, starter=BLUE, fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, EndTurn())
    assert not state.is_terminal() and state.round == 41 and state.game.max_length is None
    assert spacetable.load_finite("spacerace", 2).options["turn_limit"] == 40  # batches and research


def test_the_turn_limit_ends_the_game_on_planets_then_fleet_strength() -> None:
    game = new_game(turn_limit=2)
    state = red_to_move(game, round=2, starter=BLUE, fleets=[[ship(VEGA)], [ship(RIGEL)]])
    apply(state, EndTurn())
    assert state.is_terminal() and state.reason == "turn limit reached"
    assert state.winners == [RED, BLUE] and state.returns() == [0.5, 0.5]  # equal planets and fleets
    game = new_game(turn_limit=2)
    state = red_to_move(game, round=2, starter=BLUE, fleets=[[ship(VEGA), ship(3, card=0)], [ship(RIGEL)]])
    apply(state, EndTurn())
    outcome = state.outcome()
    assert (
        outcome is not None and outcome.winners == (RED,) and outcome.scores == (1.0, 1.0) and outcome.ranks == (1, 2)
    )


# ---- content -------------------------------------------------------------------------------------


def test_the_standard_decks_are_the_generators_output() -> None:
    assert (CONTENT_DIR / "decks.toml").read_text(encoding="utf-8") == deckgen.render_toml()


def test_the_standard_decks_follow_the_rulebooks_distributions() -> None:
    content = load_content()
    ships = [s for s, n in zip(content.ships, content.ship_counts) for _ in range(n)]
    totals = [sum(s) for s in ships]
    assert sum(totals) / len(totals) == pytest.approx(10, abs=0.01)
    assert totals.count(10) > totals.count(8) > totals.count(6)  # bell-shaped
    assert [sum(s[i] for s in ships) for i in range(3)] == [113, 114, 113]  # no score favoured
    cards = [t for t, n in zip(content.treasure, content.treasure_counts) for _ in range(n)]
    downs = [t for t in cards if t.d + t.m + t.a < 0]
    assert 1 / 4 <= len(downs) / len(cards) <= 1 / 3
    assert {t.d + t.m + t.a for t in cards} == {1, 2, 3, -1, -2, -3}
    assert sum(1 for t in cards if t.d + t.m + t.a == -3) == 1
    for name, p in deckgen.DENSITIES.items():
        patterns, counts = content.starway_decks[name]
        marks = "".join(t * n for t, n in zip(patterns, counts))
        assert len(marks) == 4 * 24
        assert (marks.count("T") + marks.count("S")) / len(marks) == pytest.approx(p, abs=0.05)
        assert abs(marks.count("T") - marks.count("S")) <= 2


def test_a_designer_deck_replaces_the_standard_one() -> None:
    designer = {
        "spaceships": [{"d": 5, "m": 5, "a": 5, "count": 2}, {"d": 1, "m": 1, "a": 1, "count": 1}],
        "starways": {"wild": [{"tiles": "SSSS", "count": 10}]},
        "names": {"ships": ["Pequod"]},
    }
    game = new_game(density="wild", content=designer)
    assert game.content.ships == ((5, 5, 5), (1, 1, 1))
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(LayStarway(0), 1.0)]
    state = red_to_move(game, fleets=[[ship(VEGA)], [ship(RIGEL)]], designs=[[3, 4, 5], [3, 3, 4]])
    assert state.tiles[3:7] == "SSSS"
    apply(state, Move(0, 3))
    assert dict(state.chance_outcomes()) == {DrawShip(0): pytest.approx(2 / 3), DrawShip(1): pytest.approx(1 / 3)}
    apply(state, DrawShip(1))
    assert state.fleets[RED][1].name == "Pequod"
    assert game.content.treasure == load_content().treasure  # the decks not given stay standard


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({"spaceships": [{"d": 1, "m": 1, "a": 1, "count": 0}]}, r"spaceships\.0\.count"),
        ({"spaceships": []}, "spaceships: List should have at least 1 item"),
        ({"treasure": [{"name": "Nothing", "count": 1}]}, "must change at least one of d, m, a"),
        ({"starways": {"standard": [{"tiles": "TXS.", "count": 3}]}}, "not 'X'"),
        ({"starways": {"standard": [{"tiles": "TS", "count": 30}]}}, "has 2 tiles; rules.starway_tiles is 4"),
        ({"rules": {"mothership_minimum": 4}}, "exceeds mothership_points 10"),
        ({"rules": {"conquest_treasure": [0, 1, 2]}}, "conquest_treasure"),
        ({"spaceship": []}, "spaceship: Extra inputs are not permitted"),
        ({"starways": {"standard": [{"tiles": "T...", "count": 1}]}}, "the map needs 3 starway cards"),
    ],
)
def test_bad_content_is_refused_with_a_clear_message(content: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        new_game(content=content)


# ---- actions, labels and the JSON form -------------------------------------------------------------


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    state = red_to_move(fleets=[[ship(VEGA)], [ship(RIGEL)]])
    before = state.to_json()
    for action, message in [
        (Move(3, 4), "has 1 ship.*no ship #3"),
        (Move(0, 11), "not within 3 step"),
        (Assimilate(), "waiting for a move"),
        (Roll(3), "waiting for a move"),
        (Homeworld(ALTAIR), "waiting for a move"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            state.apply_action(action)
        assert state.to_json() == before
    with pytest.raises(IllegalActionError, match="seat 2 owes no decision"):  # seats counted from 1 for people
        state.apply_action(EndTurn(), BLUE)
    assert state.to_json() == before


def test_the_state_round_trips_through_json_and_refuses_bad_data() -> None:
    game = new_game(3)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(100):  # mid-game, a ship to move (without a turn limit the game goes on)
        if state.is_terminal():
            break
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data).to_json() == state.to_json()
    for key, bad in [
        ("tiles", "N"),
        ("phase", "lunch"),
        ("owner", [9] * game.galaxy.size),
        ("fleets", [[["x"]], [], []]),
        ("moving", 5),
        ("battle", ["pvm", -1, 0, 0, 0, 0]),
    ]:
        broken = {**data, key: bad}
        with pytest.raises(ValueError, match="spacerace state"):
            game.state_from_json(broken)


def test_action_labels_say_what_happens() -> None:
    game = new_game()
    state = red_to_move(
        game,
        tiles=tiles(game, {4: "S", 3: "T"}),
        fleets=[[ship(VEGA, name="Mothership Vega")], [ship(5)]],
        owner={RIGEL: BLUE},
    )
    labels = {state.action_label(a) for a in state.legal_actions()}
    assert "Mothership Vega [3|3|4] to Vega–Altair tile 1 (treasure)" in labels
    assert "Mothership Vega [3|3|4] to Vega–Altair tile 2 (spaceship encounter)" in labels
    assert "Mothership Vega [3|3|4] to Vega–Altair tile 3 (attack Blue)" in labels
    assert "Mothership Vega [3|3|4] to the Nexus (customs: wait there)" in labels
    assert state.action_label(DrawShip(ship_card(game, 3, 3, 3))) == "draw spaceship [3|3|3]"
    assert state.action_label(DrawTreasure(treasure_card(game, m=2))) == "draw treasure: Ion thrusters M+2"
    assert state.action_label(Design(2, 3, 5)) == "mothership [D2|M3|A5]"
    assert state.action_label(Homeworld(ALTAIR)) == "homeworld Altair (6 steps from the Nexus)"
