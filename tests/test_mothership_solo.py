"""Chapter 14, the solo challenge: set-up, the NPC's panel and tech by level, each NPC
behaviour with forced dice, the end, conformance, and the command line."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import spacetable
from budget import playouts
from mothership_helpers import BOMBER_1, FIGHTER_1, FIGHTER_2, MOTHERSHIP, play, rolls
from spacetable.agents import GreedyAgent
from spacetable.cli.main import app
from spacetable.engine import CHANCE, Game, IllegalActionError
from spacetable.engine import play as play_game
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.modules import npc
from spacetable.games.mothership.rules.actions import Attack, AutoPlace, EndTurn, Pass
from spacetable.games.mothership.rules.state import NOWHERE, MothershipState
from spacetable.games.mothership.rules.targets import planet_code, target_code
from spacetable.games.mothership.rules.turns import begin_turn
from spacetable.testing.conformance import CHECKS, Check

NPC = 1
STATION_CODE = 6  # target_code(state, 0, ships): the player's colony station
SOLO_BOARD = [
    ".............",
    ".F...........",
    ".............",
    "...#.........",
    "...P.........",
    ".............",
    "......P......",
    ".............",
    ".........P...",
    ".............",
    ".............",
    "...........1.",
    ".............",
]
"""The fleet's corner B2, the station L12, planets D5, G7 and J9, an asteroid at D4."""


def at(name: str) -> int:
    """A space of the 13x13 solo test board: ``"D5"`` is column D, row 5."""
    return (int(name[1:]) - 1) * 13 + ord(name[0]) - ord("A")


def solo_game(level: int = 1) -> Mothership:
    data = {"layouts": {"test": {"players": 1, "rows": SOLO_BOARD}}}
    game = spacetable.load("mothership", 1, {"mode": "solo", "layout": "test", "level": level, "content": data})
    assert isinstance(game, Mothership)
    return game


def solo_position(ships: dict[tuple[int, int], str], level: int = 1) -> MothershipState:
    """The player's turn in round 1 with only ``ships`` ((fleet, ship) -> space) on the board;
    the NPC's posts and panel are the set-up's."""
    state = solo_game(level).new_initial_state()
    for fleet in state.pos:
        for cell in fleet:
            if cell != NOWHERE:
                state.grid[cell] = -1
        fleet[:] = [NOWHERE] * len(fleet)
    for (fleet, ship), where in ships.items():
        state.pos[fleet][ship] = at(where)
        state.grid[at(where)] = fleet * 16 + ship
    state.phase = "turn"
    state.round = 1
    begin_turn(state, 0)
    return state


def npc_turn(state: MothershipState) -> list[spacetable.engine.Event]:
    """The player ends the turn; the NPC's turn runs up to its first roll (or its end)."""
    return play(state, EndTurn())


def let_trading_pass(state: MothershipState) -> None:
    """At the end of the NPC's turn the player may buy and sell; here they pass."""
    if state.trading:
        play(state, Pass())


# ---- set-up -----------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["solo_outpost", "solo_belt"])
def test_the_solo_set_up(layout: str) -> None:
    game = spacetable.load("mothership", 1, {"mode": "solo", "layout": layout})
    state = game.new_initial_state()
    board = state.board
    assert board is not None and isinstance(state, MothershipState)
    station = state.stations[0]
    # the station and the fleet's start are in opposite corners
    assert board.distance(station, board.fleet) == board.size - 3
    assert state.owner == [0, 0, 0]
    assert board.distance(state.pos[NPC][MOTHERSHIP], station) == 1
    posts = [npc.post(state, ship) for ship in range(1, 6)]
    assert sorted(posts) == [0, 0, 1, 1, 2]  # five ships spread over the three planets
    for ship, planet in enumerate(posts, start=1):
        assert board.distance(state.pos[NPC][ship], board.planets[planet]) == 1
    assert state.current_player() == 0
    play(state, AutoPlace())
    assert all(board.distance(c, board.fleet) <= 2 for c in state.pos[0])
    while state.current_player() == CHANCE:  # the opening hand: two cards, none for the NPC
        play(state, state.chance_outcomes()[0][0])
    assert len(state.hands[0]) == 2 and state.hands[NPC] == []
    assert state.phase == "turn" and state.turn == 0  # the player starts, no roll


@pytest.mark.parametrize(
    ("level", "energy", "tier"), [(1, 5, 0), (2, 5, 1), (4, 7, 2), (5, 9, 2), (7, 11, 3), (8, 11, 4), (9, 12, 4)]
)
def test_the_npc_panel_and_tree_follow_the_level(level: int, energy: int, tier: int) -> None:
    state = solo_game(level).new_initial_state()
    assert state.energy[NPC] == [energy] * 3
    assert state.tiers[NPC] == [tier] * 3
    names = [state.game.content.branches[b].key if b >= 0 else None for b in state.branches[NPC]]
    assert names == (["logistics", "warheads", "engineering"] if tier else [None] * 3)
    dark_shields = 3 if tier >= 3 else 1 if tier >= 1 else 0  # Shield Matrix overrides Shield Capacitors
    assert state.shield[NPC] == state.game.content.shields[energy] + dark_shields


def test_solo_options_are_checked() -> None:
    with pytest.raises(spacetable.engine.OptionsError, match="level"):
        spacetable.load("mothership", 1, {"mode": "solo", "level": 10})
    with pytest.raises(spacetable.engine.OptionsError, match="one player"):
        spacetable.load("mothership", 2, {"mode": "solo"})
    with pytest.raises(spacetable.engine.OptionsError, match="one player"):
        spacetable.load("mothership", 1, {"mode": "standard"})
    assert spacetable.load("mothership", options={"mode": "solo"}).players == 1


# ---- the NPC mothership -------------------------------------------------------------------


def test_the_npc_mothership_attacks_the_station_every_turn() -> None:
    state = solo_position({(0, MOTHERSHIP): "B2", (NPC, MOTHERSHIP): "K11"})
    npc_turn(state)
    assert state.pending is not None and state.pending["target"] == STATION_CODE
    assert state.current_player() == CHANCE
    play(state, *rolls(6))  # a d6 from 5 weapons energy; 6 damage takes one 4-HP counter
    assert state.station_hp[0] == 12
    let_trading_pass(state)
    assert state.turn == 0 and state.round == 2
    npc_turn(state)
    play(state, *rolls(4))
    assert state.station_hp[0] == 8


def test_the_npc_mothership_goes_for_a_guarding_ship() -> None:
    state = solo_position({(0, MOTHERSHIP): "B2", (0, FIGHTER_1): "L11", (NPC, MOTHERSHIP): "I11"})
    npc_turn(state)
    # it cannot attack the guarded station: it moves next to the guard and attacks it
    assert state.pos[NPC][MOTHERSHIP] == at("K11")
    assert state.pending is not None and state.pending["target"] == target_code(state, 0, FIGHTER_1)


def test_the_nearest_guard_is_attacked() -> None:
    ships = {(0, MOTHERSHIP): "B2", (0, FIGHTER_1): "M11", (0, FIGHTER_2): "K13", (NPC, MOTHERSHIP): "I13"}
    state = solo_position(ships)
    npc_turn(state)
    assert state.pending is not None and state.pending["target"] == target_code(state, 0, FIGHTER_2)


# ---- NPC bombers --------------------------------------------------------------------------


def test_an_npc_bomber_besieges_its_planet_then_turns_to_the_station() -> None:
    state = solo_position({(0, MOTHERSHIP): "B2", (NPC, BOMBER_1): "E6"})
    assert npc.post(state, BOMBER_1) == 0  # planet D5
    npc_turn(state)
    assert state.pending is not None and state.pending["target"] == planet_code(state, 0)
    play(state, *rolls(3))  # 3 of 6: the planet holds
    assert state.owner[0] == 0 and state.pos[NPC][BOMBER_1] == at("E6")
    let_trading_pass(state)
    npc_turn(state)
    play(state, *rolls(7))
    assert state.owner[0] == NPC
    let_trading_pass(state)
    assert state.draws == [] and state.reward == [] and state.hands[NPC] == []  # no card for the NPC
    events = npc_turn(state)
    assert any("turns towards the colony station" in e.text for e in events)
    # full engine power (3 spaces) along the diagonal to L12
    assert state.pos[NPC][BOMBER_1] == at("H9")
    assert state.used[BOMBER_1] == 3


def test_an_npc_bomber_flies_straight_through_asteroids() -> None:
    state = solo_position({(0, MOTHERSHIP): "M1", (NPC, BOMBER_1): "B2"})
    state.raiding = 1 << BOMBER_1
    npc_turn(state)
    # B2, C3, then the asteroid at D4 on the line to L12: it goes in and rolls for it
    assert state.pos[NPC][BOMBER_1] == at("D4")
    assert state.pending is not None and state.pending["what"] == "asteroid"
    play(state, *rolls(2, 5))  # the asteroids' d6 2 against its d8 5: it gets through
    assert state.pos[NPC][BOMBER_1] == at("E5")  # and flies on with its last space
    assert state.used[BOMBER_1] == 3


def test_an_npc_bomber_attacks_the_station_once_in_range() -> None:
    state = solo_position({(0, MOTHERSHIP): "B2", (NPC, BOMBER_1): "I9"})
    state.raiding = 1 << BOMBER_1
    npc_turn(state)
    assert state.pos[NPC][BOMBER_1] == at("K11")
    assert state.pending is not None and state.pending["target"] == STATION_CODE


# ---- NPC fighters -------------------------------------------------------------------------


def test_an_npc_fighter_guards_until_a_small_ship_is_in_engine_range() -> None:
    # fighter 1 is posted at planet D5; the player's fighter is 5 king steps away: out of range
    state = solo_position({(0, MOTHERSHIP): "A13", (0, FIGHTER_1): "J6", (NPC, FIGHTER_1): "E5"})
    npc_turn(state)
    assert state.pos[NPC][FIGHTER_1] == at("E5") and state.pending is None
    # 4 steps away (its engine range): it flies at it and attacks
    state = solo_position({(0, MOTHERSHIP): "A13", (0, FIGHTER_1): "I6", (NPC, FIGHTER_1): "E5"})
    npc_turn(state)
    assert state.board is not None and state.board.distance(state.pos[NPC][FIGHTER_1], at("I6")) == 1
    assert state.pending is not None and state.pending["target"] == target_code(state, 0, FIGHTER_1)


def test_an_npc_fighter_never_attacks_a_mothership() -> None:
    state = solo_position({(0, MOTHERSHIP): "F5", (NPC, FIGHTER_1): "E5"})
    npc_turn(state)
    assert state.pending is None and state.pos[NPC][FIGHTER_1] == at("E5")
    assert state.acted == 0 and state.trading == [0]  # the NPC's turn ended without a dogfight


def test_an_npc_fighter_with_nothing_in_range_returns_to_its_planet() -> None:
    state = solo_position({(0, MOTHERSHIP): "A13", (NPC, FIGHTER_1): "H5"})
    npc_turn(state)
    assert state.board is not None and state.board.distance(state.pos[NPC][FIGHTER_1], at("D5")) == 1


def test_the_npc_takes_no_loot() -> None:
    state = solo_position({(0, MOTHERSHIP): "A13", (0, FIGHTER_1): "G5", (NPC, FIGHTER_1): "E5"})
    npc_turn(state)
    play(state, *rolls(6, 1))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.resources[NPC] == 0


# ---- the end -------------------------------------------------------------------------------


def test_destroying_every_npc_ship_wins() -> None:
    state = solo_position({(0, MOTHERSHIP): "B2", (0, FIGHTER_1): "E6", (NPC, FIGHTER_1): "F6"})
    play(state, Attack(1 << FIGHTER_1, target_code(state, NPC, FIGHTER_1)), *rolls(6, 1))
    assert state.is_terminal() and state.returns() == [1.0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


def test_losing_the_station_loses() -> None:
    state = solo_position({(0, MOTHERSHIP): "B2", (NPC, MOTHERSHIP): "K11"})
    state.station_hp[0] = 4
    npc_turn(state)
    play(state, *rolls(5))
    assert state.is_terminal() and state.returns() == [0.0]


def test_the_npc_is_never_asked() -> None:
    """Whole games: on the NPC's turn only chance acts, or the player in a window of their own."""
    game = spacetable.load("mothership", 1, {"mode": "solo", "level": 3, "round_limit": 12})
    rng = random.Random(3)
    bot = GreedyAgent()
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            assert seat in (CHANCE, 0)
            if isinstance(state, MothershipState) and state.turn == NPC and seat == 0:
                assert state.pending is not None or state.trading or state.cancel
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(bot.choose(state, seat, rng))
        with pytest.raises(IllegalActionError):
            state.apply_action(EndTurn())


# ---- conformance and the command line -------------------------------------------------------

SOLO_VARIANTS = {
    "level 1": spacetable.load("mothership", 1, {"mode": "solo", "round_limit": 10}),
    "level 9, exploration": spacetable.load(
        "mothership", 1, {"mode": "solo", "level": 9, "exploration": True, "round_limit": 10}
    ),
}


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize("game", SOLO_VARIANTS.values(), ids=SOLO_VARIANTS.keys())
def test_the_solo_challenge_conforms(game: Game, check: Check) -> None:
    check(game, n=playouts(1, 2))


runner = CliRunner()


def test_a_solo_batch_from_the_command_line() -> None:
    result = runner.invoke(
        app, ["play", "mothership", "--mode", "solo", "--level", "1", "--seat", "0=bot:greedy", "--games", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "seat 0 (bot:greedy)" in result.output and "solo challenge at level 1" in result.output


def test_a_human_plays_the_solo_challenge_in_the_terminal() -> None:
    result = runner.invoke(
        app, ["play", "mothership", "--mode", "solo", "--seat", "0=human", "--seed", "1"], input="q\ny\n"
    )
    assert result.exit_code == 0, result.output
    assert "NPC" in result.output and "place the rest in the standard formation" in result.output


def test_a_solo_greedy_game_ends() -> None:
    final = play_game(spacetable.load("mothership", 1, {"mode": "solo"}), [GreedyAgent()], random.Random(4))
    assert final.is_terminal()
