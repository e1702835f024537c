"""SpaceRace at the guided table: the seats' names, the guide line for every decision, the end
screen's words, and the warnings before a move that loses the mothership or puts its player out
(RULINGS.md 38)."""

from __future__ import annotations

import json
import random
import re
import time

from spacerace_helpers import (
    ALTAIR,
    DENEB,
    NEXUS,
    NEXUS_SIRIUS,
    RIGEL,
    RIGEL_DENEB,
    SIRIUS,
    VEGA,
    Contest,
    EndTurn,
    Flee,
    Move,
    apply,
    new_game,
    position,
    ship,
    ship_card,
    warning_position,
)
from spacetable.engine import Record, State
from spacetable.games.spacerace.game import SpaceRace
from spacetable.games.spacerace.rules.state import SpaceRaceState

RED, BLUE = 0, 1


def _guides(game: SpaceRace, state: State) -> tuple[str, str, str]:
    """The guide line of the seat deciding, of the other seat, and of a spectator."""
    seat = state.current_player()
    assert seat >= 0
    other = 1 - seat
    mine = game.guide(state.view(seat), seat, state.legal_actions())
    theirs = game.guide(state.view(other), other, [])
    watching = game.guide(state.view(None), None, [])
    assert mine and theirs and watching
    return mine, theirs, watching


def _at_phase(game: SpaceRace, phase: str) -> SpaceRaceState:
    """A new game played (first choices, the first chance outcome) up to ``phase``."""
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.phase != phase:
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
    assert isinstance(state, SpaceRaceState)
    return state


# ---- names ----------------------------------------------------------------------------------------


def test_the_seats_are_named_by_their_colours_on_the_board_in_the_log_and_the_players_panel() -> None:
    assert new_game(2).seat_names() == ["Red", "Blue"]
    game = new_game(6)
    assert game.seat_names() == ["Red", "Blue", "Green", "Yellow", "Purple", "Cyan"]
    game = new_game(3)
    names = game.seat_names()
    state, rng = game.new_initial_state(), random.Random(3)
    said: set[str] = set()
    for _ in range(300):
        if state.is_terminal():
            break
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        for event in state.apply_action(action):
            assert not re.search(r"\b(player|seat) \d", event.text, re.IGNORECASE), event.text
            said |= {name for name in names if name in event.text}
    assert said == set(names)  # the log names every seat as the table does
    assert game.seat_names(state.view(None)) == names
    board = game.board_svg(state.view(0), 0)
    assert board is not None and all(name in board for name in names)
    assert not re.search(r"\b(player|seat) \d", board, re.IGNORECASE)


# ---- the guide line -------------------------------------------------------------------------------


def test_the_guide_says_who_chooses_a_homeworld_and_designs_a_mothership() -> None:
    game = new_game(2)
    state = _at_phase(game, "homeworld")
    who = game.seat_names()[state.current_player()]
    mine, theirs, watching = _guides(game, state)
    assert (
        mine == "Set-up · Your choice: tap a free planet to make it your homeworld (the last to choose starts the game)"
    )
    assert theirs == watching == f"Set-up · Waiting for {who}: choose a homeworld"
    state = _at_phase(game, "design")
    who = game.seat_names()[state.current_player()]
    mine, theirs, watching = _guides(game, state)
    assert mine.startswith("Set-up · Your choice: design your mothership, 10 points over D, M and A, at least 1 each")
    assert theirs == watching == f"Set-up · Waiting for {who}: design a mothership"


def test_the_guide_says_whose_turn_it_is_and_how_to_move() -> None:
    game = new_game(2)
    state = position(game, fleets=[[ship(VEGA)], [ship(RIGEL), ship(RIGEL, card=ship_card(game, 3, 3, 3))]])
    mine, theirs, watching = _guides(game, state)  # Blue starts
    assert mine == "Round 1 · Your turn: move one ship (2 ships ready): tap it, then where it flies; or end the turn"
    assert theirs == watching == "Round 1 · Waiting for Blue: move a ship or end the turn"
    every = new_game(2, fleet_moves="all", turn_limit=10)
    mine, _, _ = _guides(every, position(every))
    assert mine.startswith("Round 1 of 10 · Your turn: move each ship once if you wish (1 ship ready)")
    assert mine.endswith("then end the turn")
    out = position(game, out=[True, False], fleets=[[], [ship(RIGEL)]], owner={VEGA: -1})
    assert (
        game.guide(out.view(RED), RED, [])
        == "You are out of the game · Round 1 · Waiting for Blue: move a ship or end the turn"
    )


def test_the_guide_follows_a_battle_its_standoff_and_its_reward() -> None:
    game = new_game(2)
    fast, plain = ship_card(game, 3, 5, 3), ship_card(game, 3, 3, 3)
    state = position(
        game,
        fleets=[[ship(VEGA), ship(14, card=plain, name="Kestrel")], [ship(RIGEL), ship(13, card=fast, name="Ember")]],
    )
    apply(state, Move(1, 14))  # A 3 against D 3: a standoff; Ember is faster
    where = "Nexus–Sirius tile 2"
    mine, theirs, watching = _guides(game, state)
    assert (
        mine
        == f"Round 1 · Standoff at {where} · Your choice: contest with a die each, or flee back to Nexus–Sirius tile 1"
    )
    assert theirs == watching == f"Round 1 · Standoff at {where} · Waiting for Blue: contest with a die each, or flee"
    apply(state, Contest())
    assert game.guide(state.view(None), None, []) == f"Round 1 · Standoff at {where}: a die each, the higher wins"
    apply(state, 6, 1)  # Blue wins the dice
    mine, theirs, watching = _guides(game, state)
    assert mine == (
        "Round 1 · You won the battle · Your choice: assimilate Kestrel [3|3|3] into your fleet, "
        "or destroy it (it carries no treasure)"
    )
    waiting = "Waiting for Blue: assimilate Kestrel [3|3|3], or destroy it for its treasure"
    assert theirs == watching == f"Round 1 · Blue won the battle · {waiting}"


def test_the_guide_names_what_chance_draws_and_the_end() -> None:
    game = new_game(2)
    state = position(game, fleets=[[ship(VEGA)], [ship(RIGEL_DENEB[3])]])
    apply(state, Move(0, DENEB))  # Blue discovers Deneb: the conquest roll
    assert state.phase == "conquest"
    assert game.guide(state.view(RED), RED, []) == "Round 1 · Blue takes Deneb: the conquest roll for treasure"
    apply(state, 6)
    assert state.phase == "treasure"
    assert game.guide(state.view(None), None, []) == "Round 1 · Blue's ship at Deneb draws 3 treasure cards"
    won = _every_planet_taken()
    assert game.guide(won.view(RED), RED, []) == "Game over after round 1: you won (every planet taken)"
    assert game.guide(won.view(None), None, []) == "Game over after round 1: Red wins (every planet taken)"


def test_the_guide_is_drawn_from_the_view_alone() -> None:
    game = new_game(3)
    state, rng = game.new_initial_state(), random.Random(2)
    for _ in range(120):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.current_player()
        view = state.view(seat)
        rebuilt = game.state_from_json(json.loads(json.dumps(view)))
        assert game.guide(view, seat, state.legal_actions()) == game.guide(
            rebuilt.view(seat), seat, state.legal_actions()
        )
        state.apply_action(rng.choice(state.legal_actions()))


# ---- the end screen --------------------------------------------------------------------------------


def _every_planet_taken() -> SpaceRaceState:
    """Red, holding every planet but Rigel, takes it from Blue, who has no ship: Red wins."""
    game = new_game(2)
    state = position(
        game,
        turn=RED,
        fleets=[[ship(RIGEL_DENEB[0])], []],
        owner={VEGA: RED, ALTAIR: RED, DENEB: RED, SIRIUS: RED},
    )
    apply(state, Move(0, RIGEL))
    assert state.is_terminal() and state.winners == [RED]
    return state


def test_the_end_screen_says_who_won_how_and_what_the_scores_count() -> None:
    state = _every_planet_taken()
    game = state.game
    outcome = state.outcome()
    assert outcome is not None
    counts = "Each score counts the planets a player holds at the end, out of 5."
    assert (
        game.explain_outcome(state.view(RED), outcome, RED)
        == f"You win by taking all 5 planets of the galaxy. {counts}"
    )
    assert game.explain_outcome(state.view(BLUE), outcome, BLUE) == (
        f"You lose: Red wins by taking all 5 planets of the galaxy. You were knocked out, left with no planet and "
        f"no ship. {counts}"
    )
    assert (
        game.explain_outcome(state.view(None), outcome, None)
        == f"Red wins by taking all 5 planets of the galaxy. {counts}"
    )


def test_the_end_screen_at_the_round_limit_says_the_tie_break() -> None:
    game = new_game(2, turn_limit=1)
    state = position(game)
    apply(state, EndTurn(), EndTurn())  # round 1 ends: one planet each, fleets alike: a shared win
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (RED, BLUE)
    words = game.explain_outcome(state.view(BLUE), outcome, BLUE)
    assert words.startswith(
        "You and Red share the win at the round limit, holding the most planets after round 1: 1 of 5."
    )
    assert words.endswith("equal planets are ranked by fleet strength, the D + M + A of all the player's ships.")
    assert game.explain_outcome(state.view(None), outcome, None).startswith(
        "Red and Blue share the win at the round limit"
    )


def test_the_end_screen_of_the_last_player_standing() -> None:
    game = new_game(2, last_standing=True)
    state = position(game, turn=RED, fleets=[[ship(RIGEL_DENEB[0])], []], owner={VEGA: RED})
    apply(state, Move(0, RIGEL))  # Blue's last planet: Blue is out
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "every rival eliminated"
    assert game.explain_outcome(state.view(RED), outcome, RED).startswith(
        "You win as the last player left: every rival is out, with no planet and no ship."
    )


# ---- warnings -------------------------------------------------------------------------------------------


def test_a_mothership_sent_into_customs_within_a_stronger_rivals_reach_is_warned() -> None:
    record, seat, warned, safe = warning_position()
    state = Record.loads(json.dumps(record)).final_state()
    assert state.current_player() == seat == BLUE
    labels = {state.action_label(a): a for a in state.legal_actions()}
    warning = state.action_warning(labels[warned])
    assert warning == (
        "Mothership Rigel [3|3|4] would sit out 1 turn of customs at the Nexus, where Red's Mothership Vega "
        "[2|4|4] can reach it first: if attacked, it is lost 100% of the time. It is your mothership, which would "
        "go home to be rebuilt."
    )
    assert state.action_warning(labels[safe]) is None
    # with no customs the Nexus is a space like any other; a weaker rival is no threat
    for options, stats in (({"nexus_delay": 0}, (2, 4, 4)), ({}, (1, 1, 8))):
        game = new_game(2, **options)
        calm = position(game, designs=[list(stats), [3, 3, 4]])
        assert calm.action_warning(Move(0, NEXUS)) is None


def test_the_warning_says_when_the_unguarded_homeworld_may_fall_too() -> None:
    game = new_game(2)
    state = position(game, fleets=[[ship(RIGEL_DENEB[0])], [ship(RIGEL)]], designs=[[2, 4, 4], [3, 3, 4]])
    warning = state.action_warning(Move(0, NEXUS))  # Red's [2|4|4] reaches both the Nexus and Rigel
    assert warning is not None and "lost 100% of the time" in warning
    assert warning.endswith("; and with Rigel left unguarded you could be out of the game.")


def test_a_battle_the_mothership_or_the_last_ship_loses_is_warned() -> None:
    game = new_game(2)
    talon = ship(NEXUS, card=ship_card(game, 4, 5, 5), name="Talon")
    state = position(game, fleets=[[talon], [ship(RIGEL)]])
    assert state.action_warning(Move(0, NEXUS)) == (
        "Mothership [3|3|4] loses the battle against Red's ships at the Nexus 100% of the time: it is your "
        "mothership, which would go home to be rebuilt."
    )
    assert state.action_warning(Move(0, RIGEL_DENEB[0])) is None
    assert state.action_warning(EndTurn()) is None
    # Blue's last ship, with no planet held: the same battle would put Blue out
    wisp = ship(RIGEL, card=ship_card(game, 3, 3, 3), name="Wisp")
    last = position(game, fleets=[[talon], [wisp]], owner={RIGEL: -1}, rebuilding=[False, True])
    assert last.action_warning(Move(0, NEXUS)) == (
        "Wisp [3|3|3] loses the battle against Red's ships at the Nexus 100% of the time: it is your last ship, "
        "and with no planet held you would be out of the game."
    )
    # a spaceship that is neither the mothership nor the last ship takes its chances unwarned
    spare = position(game, fleets=[[talon], [ship(RIGEL), wisp]])
    assert spare.action_warning(Move(1, NEXUS)) is None


def test_contesting_a_standoff_with_the_mothership_is_warned_and_fleeing_is_not() -> None:
    game = new_game(2)
    state = position(
        game,
        fleets=[
            [ship(VEGA), ship(NEXUS_SIRIUS[1], card=ship_card(game, 3, 3, 3), name="Kestrel")],
            [ship(NEXUS_SIRIUS[0])],
        ],
        designs=[[3, 3, 4], [3, 4, 3]],
    )
    apply(state, Move(0, NEXUS_SIRIUS[1]))  # Blue's [3|4|3] strikes first: A 3 against D 3, a standoff
    assert state.phase == "standoff"
    warning = state.action_warning(Contest())
    assert warning == (
        "A die each against the defender loses Mothership [3|4|3] half the time: it is your mothership, which would "
        "go home to be rebuilt. Fleeing keeps it (its M 4 beats 3)."
    )
    assert state.action_warning(Flee()) is None


def test_warnings_are_cheap() -> None:
    game = new_game(3)
    state, rng = game.new_initial_state(), random.Random(4)
    spent, asked = 0.0, 0
    while not state.is_terminal() and asked < 150:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        start = time.perf_counter()
        for action in legal:
            state.action_warning(action)
        spent += time.perf_counter() - start
        asked += 1
        state.apply_action(rng.choice(legal))
    assert spent / asked < 0.005  # seconds per update, every legal move asked
