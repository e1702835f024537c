"""The expansion's neutron stars and black holes (options neutron_stars, black_holes): halved
dogfights and lost shields beside a neutron star, no way through one; a black hole's d12 on
entering (a warp or damage), being pulled in, being stuck for a turn; the tiles of generated
boards; saving a state mid-roll; conformance; greedy bots finish such games.

Positions are on an 11x11 layout (``BOARD``): stations B2 (Player 1) and J10 (Player 2),
planets F4, J5 and F10 (planets 0, 1, 2), a neutron star H6-I7, a black hole C8-D9 and an
asteroid at J8. Dice are forced.
"""

from __future__ import annotations

import json
import random

import pytest

import spacetable
from budget import playouts
from mothership_helpers import (
    CARDS,
    FIGHTER_1,
    FIGHTER_2,
    MOTHERSHIP,
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
from spacetable.engine import CHANCE, OptionsError, Roll
from spacetable.engine import play as play_game
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.modules import hazards
from spacetable.games.mothership.rules.actions import Attack, Choose, DrawCard, EndTurn, Move, Play
from spacetable.games.mothership.rules.board import BLACK_HOLE, NEUTRON_STAR, PLANET, balance_problems, generate
from spacetable.games.mothership.rules.movement import destinations
from spacetable.games.mothership.rules.state import NOWHERE, MothershipState
from spacetable.games.mothership.views.render import render
from spacetable.testing.conformance import CHECKS, Check

BOARD = [
    "...........",
    ".1.........",
    "...........",
    ".....P.....",
    ".........P.",
    ".......**..",
    ".......**..",
    "..@@.....#.",
    "..@@.......",
    ".....P...2.",
    "...........",
]
"""Stations B2 and J10; planets F4, J5, F10; a neutron star H6-I7; a black hole C8-D9; an asteroid J8."""

HELD = 10**3
"""Engine spaces "used" by a ship whose movement is over."""


def hazard_game(**options: object) -> Mothership:
    """A two-player game on ``BOARD`` with both hazard modules on (unless ``options`` say otherwise)."""
    data = {"layouts": {"hazards": {"players": 2, "rows": BOARD}}}
    opts = {"layout": "hazards", "content": data, "neutron_stars": True, "black_holes": True, **options}
    game = spacetable.load("mothership", 2, opts)
    assert isinstance(game, Mothership)
    return game


def at(ships: dict[tuple[int, int], str], *, turn: int = 0, game: Mothership | None = None) -> MothershipState:
    """``ships`` on ``BOARD`` at the start of ``turn``'s turn, every panel at 5/5/5 (5 shield points)."""
    return position(ships, turn=turn, game=game or hazard_game(), energy={0: (5, 5, 5), 1: (5, 5, 5)})


# ---- the board ---------------------------------------------------------------------------------


def test_a_layout_keeps_its_own_hazards_only_with_their_modules() -> None:
    both = hazard_game().layout_board
    assert both is not None
    assert [both.name_of(c) for c, m in enumerate(both.terrain) if m == NEUTRON_STAR] == ["H6", "I6", "H7", "I7"]
    assert [both.name_of(c) for c, m in enumerate(both.terrain) if m == BLACK_HOLE] == ["C8", "D8", "C9", "D9"]
    stars = hazard_game(black_holes=False).layout_board
    assert stars is not None and BLACK_HOLE not in stars.terrain and stars.terrain.count(NEUTRON_STAR) == 4
    plain = hazard_game(neutron_stars=False, black_holes=False).layout_board
    assert plain is not None and set(plain.terrain) == {".", "#", PLANET}


def test_a_layout_with_a_black_hole_touching_an_asteroid_is_refused() -> None:
    rows = list(BOARD)
    rows[6] = ".#.....**.."  # B7 touches the black hole's C8
    with pytest.raises(OptionsError, match="black hole spaces"):
        spacetable.load(
            "mothership",
            2,
            {"layout": "x", "black_holes": True, "content": {"layouts": {"x": {"players": 2, "rows": rows}}}},
        )


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_generated_boards_get_fair_hazard_tiles_the_same_every_time(players: int) -> None:
    options = {"neutron_stars": True, "black_holes": True}
    game = spacetable.load("mothership", players, options)
    again = spacetable.load("mothership", players, options)
    assert isinstance(game, Mothership) and isinstance(again, Mothership)
    rules = game.content.hazards
    for seed in range(3):
        board = game.board_for(seed)
        assert board == again.board_for(seed)
        plain = generate(seed, players, game.size, game.content, extra_planets=False)
        assert board.planets == plain.planets and board.stations == plain.stations
        for mark, count in ((NEUTRON_STAR, rules.neutron_stars), (BLACK_HOLE, rules.black_holes)):
            spaces = [c for c, m in enumerate(board.terrain) if m == mark]
            assert len(spaces) == count * rules.tile**2
            for space in spaces:
                assert min(board.distance(space, s) for s in board.stations) >= rules.station_gap
                assert all(board.terrain[n] != PLANET for n in board.neighbours[space])
                if mark == BLACK_HOLE:
                    assert all(board.terrain[n] != "#" for n in board.neighbours[space])
        assert balance_problems(board, game.content) == []


def test_a_board_without_room_for_any_hazard_is_played_without_them() -> None:
    content = load_content({"hazards": {"station_gap": 8}})
    board = generate(0, 4, 13, content, extra_planets=False)  # nothing is 8 spaces from every corner
    assert hazards.furnish(board, content, neutron=True, black=True) == board
    assert hazards.furnish(board, content, neutron=False, black=False) == board


def test_the_terminal_and_the_tensor_show_the_hazards() -> None:
    state = at({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"})
    drawn = render(state)
    assert "[dim]**[/]" in drawn and "[dim]@@[/]" in drawn
    tensor = state.game.observation_tensor(state, 0)
    cells, terrain = 121, 5 + 1 + 2 * 2
    stars = tensor[terrain + 2 * cells : terrain + 3 * cells]
    holes = tensor[terrain + 3 * cells : terrain + 4 * cells]
    assert [c for c in range(cells) if stars[c]] == [cell(n) for n in ("H6", "I6", "H7", "I7")]
    assert [c for c in range(cells) if holes[c]] == [cell(n) for n in ("C8", "D8", "C9", "D9")]


# ---- neutron stars -----------------------------------------------------------------------------


def test_no_ship_moves_into_or_through_a_neutron_star() -> None:
    state = at({(0, FIGHTER_1): "G5", (1, FIGHTER_1): "K11"})
    spots = {a.cell for a in state.legal_actions(0) if isinstance(a, Move) and a.ship == FIGHTER_1}
    assert not spots & {cell(n) for n in ("H6", "I6", "H7", "I7")}
    costs = destinations(state, 0, FIGHTER_1)
    assert costs[cell("I8")] == (4, False)  # 3 straight through the star, 4 around it
    assert costs[cell("J7")] == (4, False)


def test_a_neutron_star_halves_the_attack_rounding_up() -> None:
    state = at({(0, FIGHTER_1): "G8", (1, FIGHTER_1): "F8"})  # the attacker is beside H7
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(5, 3))
    assert "A neutron star halves the attack: 5 becomes 3." in texts(events)
    assert "A tie: nobody takes damage." in texts(events)  # 3 against 3, not 2 against 3
    assert state.pos[0][FIGHTER_1] == cell("G8") and state.pos[1][FIGHTER_1] == cell("F8")


def test_a_neutron_star_halves_the_whole_defence_wingmen_included() -> None:
    state = at({(0, FIGHTER_1): "F8", (1, FIGHTER_1): "G8", (1, FIGHTER_2): "G9"})  # the defender beside H7
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(3, 4))
    assert "Attack 3 against defence 4 + 1 wingman = 5." in texts(events)
    assert "A neutron star halves the defence: 5 becomes 3." in texts(events)
    assert "A tie: nobody takes damage." in texts(events)
    assert not any("halves the attack" in t for t in texts(events))


@pytest.mark.parametrize(("faces", "captured"), [((6, 5), True), ((6, 4), False)])
def test_a_planet_attack_beside_a_neutron_star_is_halved(faces: tuple[int, int], captured: bool) -> None:
    # Fighter 1 at I5 is beside the star (I6); Fighter 2 at K5 is not: the side's whole total halves
    state = at({(0, FIGHTER_1): "I5", (0, FIGHTER_2): "K5", (1, FIGHTER_1): "A11"})
    events = play(state, Attack(mask(FIGHTER_1, FIGHTER_2), planet(1)), *rolls(*faces))
    total = sum(faces)
    assert f"A neutron star halves the planet attack: {total} becomes {(total + 1) // 2}." in texts(events)
    assert (state.owner[1] == 0) is captured
    if captured:
        play(state, DrawCard(CARDS["afterburner"]))


def test_a_mothership_beside_a_neutron_star_has_no_shields_but_keeps_them() -> None:
    state = at({(0, MOTHERSHIP): "G9", (0, FIGHTER_1): "I9", (1, MOTHERSHIP): "H8"})
    assert hazards.shield_points(state, 1) == 0 and state.shield[1] == 5
    assert hazards.shield_energy(state, 1) == 0 and hazards.shield_energy(state, 0) == 5
    attacks = [a for a in state.legal_actions(0) if isinstance(a, Attack)]
    assert Attack(mask(FIGHTER_1), target(1, MOTHERSHIP)) not in attacks  # a fighter only hits shields
    assert Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP)) in attacks
    events = play(state, Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP)), *rolls(6, 1))
    assert "Player 2's Mothership takes 6: shields absorb 0, hull -6 (6 left)." in texts(events)
    assert state.hp[1] == 6 and state.shield[1] == 5


def test_shields_count_again_once_the_mothership_leaves_the_neutron_star() -> None:
    state = at({(1, MOTHERSHIP): "H8", (0, FIGHTER_1): "A1"}, turn=1)
    assert hazards.shield_points(state, 1) == 0
    play(state, Move(MOTHERSHIP, cell("H10")))
    assert hazards.shield_points(state, 1) == 5
    away = at({(0, FIGHTER_1): "I10", (1, MOTHERSHIP): "H9"})  # H9 is two spaces from the star
    assert Attack(mask(FIGHTER_1), target(1, MOTHERSHIP)) in away.legal_actions(0)


def test_an_auxiliary_shield_gives_nothing_beside_a_neutron_star() -> None:
    state = holding(at({(0, MOTHERSHIP): "G9", (1, MOTHERSHIP): "H8"}), 1, "auxiliary_shield")
    play(state, Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP)))
    assert state.current_player() == 1
    play(state, Play(CARDS["auxiliary_shield"], 0, 0), *rolls(6, 1))
    assert state.hp[1] == 6  # the whole 6 on the hull
    assert state.shield[1] == 5  # the card's 4 points are gone again, the 5 kept


# ---- black holes -------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 2])
def test_a_low_roll_warps_the_unit_anywhere_and_it_may_still_attack(face: int) -> None:
    state = at({(0, FIGHTER_1): "F7", (0, MOTHERSHIP): "A1", (1, FIGHTER_1): "B5"})
    events = play(state, Move(FIGHTER_1, cell("D8")))
    assert "The black hole at D8 rolls a d12 against Player 1's Fighter 1." in texts(events)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(Roll(v), 1 / 12) for v in range(1, 13)]
    play(state, Roll(face))
    assert state.current_player() == 0 and state.choice is not None and state.choice["what"] == "warp_out"
    spots = {a.value for a in state.legal_actions(0) if isinstance(a, Choose)}
    assert cell("A5") in spots and cell("K2") in spots
    assert not spots & {cell(n) for n in ("C8", "H6", "F4", "J8", "A1", "B5", "B2")}
    play(state, Choose(cell("A5")))
    assert state.pos[0][FIGHTER_1] == cell("A5") and state.used[FIGHTER_1] == HELD
    actions = state.legal_actions(0)
    assert not any(isinstance(a, Move) and a.ship == FIGHTER_1 for a in actions)
    assert Attack(mask(FIGHTER_1), target(1, FIGHTER_1)) in actions  # not an attack: its phase is kept


@pytest.mark.parametrize("mode", ["standard", "victory_points"])
def test_a_high_roll_destroys_a_fighter_and_nobody_is_paid_for_it(mode: str) -> None:
    state = at({(0, FIGHTER_1): "F7", (0, MOTHERSHIP): "A1", (1, FIGHTER_1): "K11"}, game=hazard_game(mode=mode))
    events = play(state, Move(FIGHTER_1, cell("D8")), Roll(3))
    assert "The black hole rolls 3: Player 1's Fighter 1 is torn apart." in texts(events)
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.grid[cell("D8")] == -1
    assert state.resources == [0, 0] and state.points == [0, 0]
    assert not any(e.kind == "loot" for e in events)


def test_a_high_roll_damages_a_mothership_through_its_shields_and_it_stays_inside() -> None:
    state = at({(0, MOTHERSHIP): "F7", (1, FIGHTER_1): "K11"})
    events = play(state, Move(MOTHERSHIP, cell("D8")), Roll(7))
    assert "The black hole rolls 7: Player 1's Mothership takes 7: shields absorb 5, hull -2 (10 left)." in texts(
        events
    )
    assert state.pos[0][MOTHERSHIP] == cell("D8") and state.hp[0] == 10 and state.shield[0] == 0
    assert not any(isinstance(a, Move) for a in state.legal_actions(0))
    play(state, EndTurn())  # entered this turn: it is not rolled against again at its end
    assert state.turn == 1 and state.pending is None


def test_a_leg_ending_beside_two_black_hole_spaces_lets_its_owner_pick_one() -> None:
    state = at({(0, FIGHTER_1): "G8", (0, MOTHERSHIP): "A1", (1, FIGHTER_1): "K11"})
    play(state, Move(FIGHTER_1, cell("E8")))
    assert state.choice is not None and state.choice["what"] == "pull" and state.current_player() == 0
    assert [a for a in state.legal_actions(0)] == [Choose(cell("D8")), Choose(cell("D9"))]
    events = play(state, Choose(cell("D9")))
    assert "A black hole pulls Player 1's Fighter 1 in to D9." in texts(events)
    assert state.pos[0][FIGHTER_1] == cell("D9") and state.current_player() == CHANCE
    play(state, Roll(5))
    assert state.pos[0][FIGHTER_1] == NOWHERE


def test_a_leg_ending_beside_one_free_black_hole_space_is_pulled_straight_in() -> None:
    state = at({(0, FIGHTER_1): "G6", (0, MOTHERSHIP): "A1", (1, FIGHTER_1): "K11"})
    play(state, Move(FIGHTER_1, cell("E7")))
    assert state.choice is None and state.pos[0][FIGHTER_1] == cell("D8")
    assert state.pending is not None and state.pending["what"] == "black_hole"
    held = at({(0, FIGHTER_1): "G6", (0, MOTHERSHIP): "A1", (1, FIGHTER_1): "D8"})  # D8 is taken
    play(held, Move(FIGHTER_1, cell("E7")))
    assert held.pos[0][FIGHTER_1] == cell("E7") and held.pending is None and held.used[FIGHTER_1] == HELD


def test_passing_beside_a_black_hole_in_the_middle_of_a_leg_is_safe() -> None:
    state = at({(0, FIGHTER_1): "B6", (0, MOTHERSHIP): "A1", (1, FIGHTER_1): "K11"})
    play(state, Move(FIGHTER_1, cell("F9")))  # 4 steps: the third is E8, E9 or E10, beside the black hole
    assert state.pos[0][FIGHTER_1] == cell("F9") and state.pending is None and state.choice is None
    assert state.used[FIGHTER_1] == 4


def stuck_state() -> MothershipState:
    """Player 1's mothership began the turn in the black hole at D8; an enemy fighter is beside it."""
    return at({(0, MOTHERSHIP): "D8", (0, FIGHTER_1): "A1", (1, FIGHTER_1): "E9", (1, MOTHERSHIP): "K11"})


def test_a_unit_stuck_in_a_black_hole_neither_moves_nor_attacks_and_is_rolled_at_the_turns_end() -> None:
    state = stuck_state()
    assert state.stuck == 1
    actions = state.legal_actions(0)
    assert not any(isinstance(a, Move) and a.ship == MOTHERSHIP for a in actions)
    assert not any(isinstance(a, Attack) for a in actions)
    events = play(state, EndTurn())
    assert state.current_player() == CHANCE and state.turn == 0
    assert state.pending is not None and state.pending["ending"] is True
    assert not any("collects" in t for t in texts(events))
    events = play(state, Roll(6))
    assert state.hp[0] == 11 and state.pos[0][MOTHERSHIP] == cell("D8")
    assert "Player 1 collects resources and ends the turn." in texts(events)
    assert state.turn == 1 and state.resources[0] == 1


def test_a_warp_out_at_the_turns_end_ends_the_turn_after_the_choice() -> None:
    state = stuck_state()
    play(state, EndTurn(), Roll(2))
    assert state.turn == 0 and state.choice is not None and state.choice["ending"] is True
    play(state, Choose(cell("K2")))
    assert state.pos[0][MOTHERSHIP] == cell("K2") and state.turn == 1


def test_a_stuck_unit_cannot_use_dedotated_wam_but_a_wormhole_warps_it_out() -> None:
    state = stuck_state()
    state.pos[1][MOTHERSHIP], state.grid[cell("K11")], state.grid[cell("C7")] = cell("C7"), -1, 16
    holding(state, 0, "dedotated_wam")
    assert not any(isinstance(a, Play) for a in state.legal_actions(0))
    holding(state, 0, "wormhole")
    plays = [a for a in state.legal_actions(0) if isinstance(a, Play) and a.unit == target(0, MOTHERSHIP)]
    spots = {a.spot for a in plays}
    assert cell("K2") in spots
    assert not spots & {cell(n) for n in ("C9", "E7", "E8", "B10", "H6")}  # in or beside a black hole, a star
    assert cell("G5") in spots  # beside a neutron star is fine
    play(state, Play(CARDS["wormhole"], target(0, MOTHERSHIP), cell("K2")))
    assert state.pos[0][MOTHERSHIP] == cell("K2")
    play(state, EndTurn())
    assert state.turn == 1 and state.hp[0] == 12  # it escaped: no roll at the turn's end


def test_a_state_waiting_on_a_black_hole_saves_and_clones() -> None:
    state = at({(0, FIGHTER_1): "G8", (0, MOTHERSHIP): "A1", (1, FIGHTER_1): "K11"})
    game = state.game
    for step in (Move(FIGHTER_1, cell("E8")), Choose(cell("D8")), Roll(1)):
        play(state, step)
        data = state.to_json()
        restored = game.state_from_json(json.loads(json.dumps(data)))
        copy = state.clone()
        assert restored.to_json() == data and copy.to_json() == data
        assert restored.legal_actions(restored.current_player()) == state.legal_actions(state.current_player())
    assert state.choice is not None and state.choice["what"] == "warp_out"
    copy = state.clone()
    play(copy, Choose(cell("A5")))
    assert state.choice is not None and state.pos[0][FIGHTER_1] == cell("D8")  # the clone shares nothing
    assert copy.pos[0][FIGHTER_1] == cell("A5")


# ---- the whole game ----------------------------------------------------------------------------

HAZARDS = spacetable.load("mothership", 2, {"neutron_stars": True, "black_holes": True, "round_limit": 6})


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
def test_hazard_games_conform(check: Check) -> None:
    check(HAZARDS, n=playouts(1, 2))


def test_greedy_bots_finish_a_game_with_both_hazards() -> None:
    game = spacetable.load("mothership", 2, {"neutron_stars": True, "black_holes": True, "round_limit": 4})
    final = play_game(game, [GreedyAgent(), GreedyAgent()], random.Random(1))
    assert isinstance(final, MothershipState)
    assert final.is_terminal() and final.outcome() is not None


def test_a_layout_without_hazards_gets_the_contents_tiles() -> None:
    board = new_game(neutron_stars=True, black_holes=True).layout_board
    assert board is not None
    assert board.terrain.count(NEUTRON_STAR) == 8 and board.terrain.count(BLACK_HOLE) == 8
