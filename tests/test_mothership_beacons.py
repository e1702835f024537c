"""The Mothership expansion's distress beacons (option ``beacons``; module ``beacons``, cards
carried out by ``scripts``): tokens and their layout, activating one, the beacon cards (options,
requirements, dice, tests), kept cards, module cards, "your ship", warps and strikes, and a
state saved in the middle of a card.

Positions are on the 11x11 test board: stations B2 (Player 1) and J10 (Player 2), planets
D4, F6 and H8, asteroid fields B6-C6 and G9-H9. Most tests use small test-only beacon cards
(``CARDS``) so they do not depend on the authored deck; a few check the authored cards.
Dice and draws are forced.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

import spacetable
from mothership_helpers import (
    BOMBER_1,
    FIGHTER_1,
    FIGHTER_2,
    MOTHERSHIP,
    cell,
    mask,
    new_game,
    play,
    position,
    rolls,
    target,
    texts,
)
from spacetable.agents import GreedyAgent
from spacetable.engine import Action, Event, Roll, State, Statistic
from spacetable.engine import play as play_game
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.modules import beacons, cannons
from spacetable.games.mothership.modules.beacons import LOCKED
from spacetable.games.mothership.rules.actions import (
    Activate,
    Attack,
    Choose,
    DrawBeacon,
    EndTurn,
    Move,
    Pass,
    RevealToken,
)
from spacetable.games.mothership.rules.state import EMPTY, NOWHERE, MothershipState
from spacetable.games.mothership.rules.targets import target_code

M, F, B = 0, 1, 2
"""What a face-up token shows: a mothership, a fighter, a bomber."""


def option(text: str, *effects: str, **more: Any) -> dict[str, Any]:
    return {"text": text, "effects": list(effects), **more}


def card(name: str, first: dict[str, Any], second: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"name": name, "count": 1, "story": f"The story of {name}.", "options": [first, second], **more}


CARDS: dict[str, dict[str, Any]] = {
    "t_plain": card("T Plain", option("Take the crate.", "resources 3"), option("Take the manual.", "cards 1")),
    "t_shields": card(
        "T Shields",
        option("Dock under shields.", "resources 4", needs=["shields >= 4"]),
        option("Wave from afar.", "resources 1"),
    ),
    "t_decide": card(
        "T Decide",
        option("Bad luck.", "resources 1", faces=[1, 2]),
        option("Good luck.", "resources 4", faces=[3, 6]),
        decide="d6",
    ),
    "t_test": card(
        "T Test",
        option("Gamble.", "resources 5", test="d6 >= 4", otherwise=["resources -1"]),
        option("Walk away.", "cards 1"),
    ),
    "t_dogfight": card("T Dogfight", option("Hire the ace.", "keep dogfight 2"), option("Decline.", "resources 1")),
    "t_salvage": card("T Salvage", option("Sign.", "keep salvage 3"), option("Decline.", "resources 1")),
    "t_damage": card("T Damage", option("Touch it.", "damage 3"), option("Jump.", "warp anywhere")),
    "t_warp": card("T Warp", option("Go to a planet.", "warp planet"), option("Go home.", "warp station")),
    "t_strike": card("T Strike", option("Fire.", "strike 2"), option("Hold.", "resources 1")),
    "t_closed": card(
        "T Closed",
        option("Buy the station.", "resources 9", needs=["resources >= 50"]),
        option("Ram it.", "resources 9", needs=["hull >= 99"]),
    ),
    "t_near": card(
        "T Near",
        option("Board the enemy.", "resources 2", needs=["near enemy"]),
        option("Scan the planet.", "resources 1", needs=["near planet"]),
    ),
    "t_kill_after_keep": card(
        "T Keep And Fire", option("Sign and fire.", "keep salvage 2", "strike 1"), option("Decline.", "resources 1")
    ),
}
"""Test-only beacon cards, added to the authored deck (they are drawn by forcing the chance)."""

KEYS = [key for key, _ in load_content({"beacons": CARDS}).beacons]


def index(key: str) -> int:
    return KEYS.index(key)


def game(**options: Any) -> Mothership:
    return new_game(2, content={"beacons": CARDS}, beacons=True, **options)


def start(
    ships: dict[tuple[int, int], str],
    tokens: dict[str, int],
    *,
    turn: int = 0,
    energy: dict[int, tuple[int, int, int]] | None = None,
    **options: Any,
) -> MothershipState:
    """``turn``'s turn with only ``ships`` and the beacon ``tokens`` (space -> unit or LOCKED)."""
    state = position(ships, turn=turn, energy=energy, game=game(**options))
    state.tokens = sorted([cell(where), unit] for where, unit in tokens.items())
    state._legal_cache = None
    return state


def token_cells(state: MothershipState) -> list[tuple[int, int]]:
    return [(c, u) for c, u in state.tokens]


def round_trip(state: MothershipState) -> None:
    """Every player ends their turn (passing the end-of-turn windows) until the same seat is on turn again."""
    seat = state.turn
    play(state, EndTurn())
    while state.turn != seat or state.trading:
        play(state, Pass() if state.trading else EndTurn())
    assert state.current_player() == seat


def rows(figures: dict[str, Statistic], name: str) -> dict[str, Statistic]:
    """A card's rows of the statistics, by what follows its name."""
    prefix = f"beacon {name}: "
    return {k.removeprefix(prefix): v for k, v in figures.items() if k.startswith(prefix)}


def answer(state: MothershipState, key: str, *actions: Action) -> list[Event]:
    """The beacon card ``key`` is drawn, then ``actions`` follow."""
    return play(state, DrawBeacon(index(key)), *actions)


# ---- activating -----------------------------------------------------------------------------


def test_moving_the_right_unit_onto_a_face_up_token_activates_it_and_ends_its_movement() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}, {"E4": F})
    events = play(state, Move(FIGHTER_1, cell("E4")))
    assert "Player 1's Fighter 1 answers the distress beacon at E4." in texts(events)
    assert state.beacon_draw == [0, FIGHTER_1, cell("E4")] and state.is_chance_node()
    assert state.activated == 1 and state.tallies[0][6] == 1  # beacons_activated
    events = answer(state, "t_plain", Choose(0))
    assert "T Plain: The story of T Plain." in texts(events)
    assert state.resources[0] == 3 and state.tokens == [] and state.script is None
    assert state.beacon_discard[index("t_plain")] == 1 and state.beacon_log[index("t_plain")] == [1, 0, 1, 0]
    legal = state.legal_actions()
    assert not [a for a in legal if isinstance(a, Move) and a.ship == FIGHTER_1]  # its movement is over
    assert Attack(mask(FIGHTER_1), target(1, FIGHTER_1)) in legal  # but it may still attack
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1))
    assert state.pos[1][FIGHTER_1] == NOWHERE and state.resources[0] == 4


def test_a_bomber_activates_a_bomber_token_and_a_mothership_a_mothership_token() -> None:
    state = start({(0, BOMBER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": B})
    play(state, Move(BOMBER_1, cell("E4")))
    assert state.beacon_draw == [0, BOMBER_1, cell("E4")]
    state = start({(0, MOTHERSHIP): "E2", (1, FIGHTER_1): "K11"}, {"E3": M}, energy={0: (3, 6, 6)})
    play(state, Move(MOTHERSHIP, cell("E3")))
    assert state.beacon_draw == [0, MOTHERSHIP, cell("E3")]


def test_a_unit_of_another_type_may_stand_on_a_token_without_activating_it() -> None:
    state = start({(0, MOTHERSHIP): "E2", (0, FIGHTER_1): "H2", (1, FIGHTER_1): "K11"}, {"E4": F, "H4": B})
    state.energy[0] = [3, 6, 6]
    events = play(state, Move(MOTHERSHIP, cell("E4")), Move(FIGHTER_1, cell("H4")))
    assert not [e for e in events if e.kind == "beacon"]
    assert not state.beacon_draw and state.activated == 0
    assert token_cells(state) == [(cell("E4"), F), (cell("H4"), B)]  # both stay
    assert Move(FIGHTER_1, cell("H5")) in state.legal_actions()  # the fighter may move on
    assert EndTurn() in state.legal_actions()


def test_a_player_activates_one_beacon_a_turn() -> None:
    state = start({(0, FIGHTER_1): "E2", (0, FIGHTER_2): "H2", (1, FIGHTER_1): "K11"}, {"E4": F, "H4": F})
    play(state, Move(FIGHTER_1, cell("E4")), *[DrawBeacon(index("t_plain")), Choose(0)])
    events = play(state, Move(FIGHTER_2, cell("H4")))
    assert not [e for e in events if e.kind == "beacon"] and not state.beacon_draw
    assert token_cells(state) == [(cell("H4"), F)]
    assert EndTurn() in state.legal_actions()  # moved onto it this turn: nothing owed
    # its next turn, the fighter still stands on it: it must move off or stay and activate it
    round_trip(state)
    assert Activate(FIGHTER_2) in state.legal_actions() and EndTurn() not in state.legal_actions()


def test_a_locked_token_cannot_be_activated() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": LOCKED, "J2": F})
    events = play(state, Move(FIGHTER_1, cell("E4")))
    assert not [e for e in events if e.kind == "beacon"] and not state.beacon_draw
    assert token_cells(state) == [(cell("J2"), F), (cell("E4"), LOCKED)]  # (J2 is space 20, E4 space 37)
    assert Activate(FIGHTER_1) not in state.legal_actions() and EndTurn() in state.legal_actions()


def test_the_locked_tokens_turn_over_as_soon_as_the_last_face_up_one_is_removed() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F, "H2": LOCKED, "J4": LOCKED})
    play(state, Move(FIGHTER_1, cell("E4")))
    events = answer(state, "t_plain", Choose(0))
    assert "The last active beacon is answered: the locked beacons switch on." in texts(events)
    assert state.flipping == 2 and state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [RevealToken(M), RevealToken(F), RevealToken(B)]
    assert [p for _, p in outcomes] == pytest.approx([5 / 16, 6 / 16, 5 / 16])  # the token pool
    events = play(state, RevealToken(B))
    assert "The beacon at H2 calls for a bomber." in texts(events) and state.flipping == 1
    play(state, RevealToken(M))
    assert token_cells(state) == [(cell("H2"), B), (cell("J4"), M)]
    assert state.flipping == 0 and state.current_player() == 0


def test_face_up_tokens_left_keep_the_locked_ones_locked() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F, "H2": LOCKED, "J4": B})
    play(state, Move(FIGHTER_1, cell("E4")))
    answer(state, "t_plain", Choose(0))
    assert state.flipping == 0 and token_cells(state) == [(cell("H2"), LOCKED), (cell("J4"), B)]


def test_a_ship_starting_its_turn_on_a_token_must_move_off_or_stay_and_activate_it() -> None:
    ships = {(0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}
    state = start(ships, {"E4": F})
    legal = state.legal_actions()
    assert Activate(FIGHTER_1) in legal and EndTurn() not in legal
    play(state, Move(FIGHTER_1, cell("E3")))  # moving off it
    assert EndTurn() in state.legal_actions() and Activate(FIGHTER_1) not in state.legal_actions()
    assert token_cells(state) == [(cell("E4"), F)] and not state.beacon_draw
    state = start(ships, {"E4": F})
    events = play(state, Activate(FIGHTER_1))  # staying
    assert "Player 1's Fighter 1 answers the distress beacon at E4." in texts(events)
    answer(state, "t_plain", Choose(0))
    legal = state.legal_actions()
    assert not [a for a in legal if isinstance(a, Move) and a.ship == FIGHTER_1]
    assert Attack(mask(FIGHTER_1), target(1, FIGHTER_1)) in legal and EndTurn() in legal


def test_a_ship_on_a_token_it_cannot_activate_owes_nothing() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, {"E4": B})
    assert Activate(FIGHTER_1) not in state.legal_actions() and EndTurn() in state.legal_actions()
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, {"E4": F}, turn=1)
    assert EndTurn() in state.legal_actions(1)  # another player's turn: nothing to activate


# ---- the card ---------------------------------------------------------------------------------


def test_the_options_are_offered_with_their_requirements() -> None:
    state = start(
        {(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F}, energy={0: (5, 6, 4)}
    )
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_shields")))
    assert state.choice is not None and state.choice["seat"] == 0 and state.current_player() == 0
    assert state.legal_actions() == [Choose(0), Choose(1)]
    assert state.choice["labels"] == [
        "Dock under shields. | needs shields >= 4 | resources 4",
        "Wave from afar. | resources 1",
    ]
    assert state.action_label(Choose(0)) == "Dock under shields. | needs shields >= 4 | resources 4"
    play(state, Choose(0))
    assert state.resources[0] == 4 and state.beacon_log[index("t_shields")] == [1, 0, 1, 0]


def test_an_option_whose_requirement_is_unmet_is_not_offered() -> None:
    state = start(
        {(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F}, energy={0: (6, 6, 3)}
    )
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_shields")))
    assert state.legal_actions() == [Choose(1)]
    play(state, Choose(1))
    assert state.resources[0] == 1 and state.beacon_log[index("t_shields")] == [1, 0, 0, 1]


def test_without_a_mothership_the_shields_count_zero() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F}, energy={0: (0, 6, 9)})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_shields")))
    assert state.legal_actions() == [Choose(1)]


@pytest.mark.parametrize(("face", "option_taken", "gain"), [(1, 0, 1), (2, 0, 1), (3, 1, 4), (6, 1, 4)])
def test_a_card_die_picks_the_option_by_its_faces(face: int, option_taken: int, gain: int) -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_decide")))
    assert state.choice is None and state.pending is not None and state.pending["what"] == "test"
    assert [a for a, _ in state.chance_outcomes()] == [Roll(v) for v in range(1, 7)]
    events = play(state, Roll(face))
    assert f"Player 1 takes option {option_taken + 1}: {('Bad luck.', 'Good luck.')[option_taken]}" in texts(events)
    assert state.resources[0] == gain and state.tokens == []
    log = [1, 0, 0, 0]
    log[2 + option_taken] = 1
    assert state.beacon_log[index("t_decide")] == log


def test_an_option_test_is_rolled_after_the_player_commits() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    state.resources[0] = 2
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_test")))
    assert state.choice is not None and state.choice["labels"][0] == (
        "Gamble. | roll d6 >= 4: resources 5 | else resources -1"
    )
    play(state, Choose(0))
    assert state.pending is not None and state.pending["what"] == "test" and state.is_chance_node()
    events = play(state, Roll(4))
    assert "4: it works (d6 >= 4)." in texts(events) and state.resources[0] == 7 and state.tokens == []


def test_a_failed_option_test_does_what_otherwise_says() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    state.resources[0] = 2
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_test")), Choose(0))
    events = play(state, Roll(3))
    assert "3: it fails (d6 >= 4)." in texts(events) and "Player 1 pays 1 resources." in texts(events)
    assert state.resources[0] == 1 and state.tokens == [] and state.script is None


def test_near_requirements_look_around_the_activating_ship() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "F5", (1, BOMBER_1): "K11"}, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_near")))
    assert state.legal_actions() == [Choose(0), Choose(1)]  # beside an enemy fighter and planet D4
    state = start({(0, FIGHTER_1): "G2", (0, FIGHTER_2): "J3", (1, FIGHTER_1): "K11"}, {"J2": F})
    play(state, Move(FIGHTER_1, cell("J2")), DrawBeacon(index("t_near")))
    assert state.choice is None and state.beacon_draw  # neither: discarded, another is drawn
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    cannons.deploy(state, 1, cell("E5"), [])
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_near")))
    assert state.legal_actions() == [Choose(1)]  # an enemy guardian cannon is not an enemy ship


def test_a_card_with_no_option_open_is_discarded_and_another_drawn() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")))
    events = answer(state, "t_closed")
    assert "T Closed has no option open to Player 1: discarded, another is drawn." in texts(events)
    assert state.beacon_draw == [0, FIGHTER_1, cell("E4")] and state.is_chance_node()
    assert state.beacon_discard[index("t_closed")] == 1 and state.beacon_log[index("t_closed")] == [1, 1, 0, 0]
    answer(state, "t_plain", Choose(0))
    assert state.resources[0] == 3 and state.tokens == []


def test_the_signal_fades_when_no_card_left_could_be_done() -> None:
    state = start({(0, FIGHTER_1): "G2", (1, FIGHTER_1): "K11"}, {"J2": F})
    state.beacon_deck = [0] * len(state.beacon_deck)
    state.beacon_deck[index("t_closed")] = 1
    state.beacon_discard[index("t_near")] = 1  # not open either: no planet or enemy near J2
    play(state, Move(FIGHTER_1, cell("J2")))
    events = answer(state, "t_closed")
    assert "No beacon card is left to draw: the signal fades." in texts(events)
    assert state.choice is None and state.script is None and state.tokens == [] and not state.beacon_draw
    assert state.current_player() == 0 and EndTurn() in state.legal_actions()


# ---- kept cards -------------------------------------------------------------------------------


def test_a_kept_dogfight_card_blocks_further_beacons_until_used_in_the_next_dogfight() -> None:
    ships = {(0, FIGHTER_1): "E2", (0, FIGHTER_2): "H2", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}
    state = start(ships, {"E4": F, "H4": F})
    play(state, Move(FIGHTER_1, cell("E4")))
    events = answer(state, "t_dogfight", Choose(0))
    assert "Player 1 keeps T Dogfight (dogfight +2)." in texts(events)
    assert state.kept[0] == [[index("t_dogfight"), 0, 2]]
    assert state.beacon_discard[index("t_dogfight")] == 0  # kept, not discarded
    assert token_cells(state) == [(cell("H4"), F)]
    # next turn: the kept card blocks the player's beacons
    round_trip(state)
    assert state.activated == 0
    events = play(state, Move(FIGHTER_2, cell("H4")))
    assert not state.beacon_draw and not [e for e in events if e.kind == "beacon"]
    assert Activate(FIGHTER_2) not in state.legal_actions()
    # the next dogfight uses it: 3 + 2 beats 4
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(3, 4))
    assert "Player 1 uses the kept T Dogfight: +2." in texts(events)
    assert "Attack 5 against defence 4 = 4." in texts(events)
    assert state.pos[1][FIGHTER_1] == NOWHERE
    assert state.kept[0] == [] and state.beacon_discard[index("t_dogfight")] == 1


def test_a_kept_dogfight_card_also_helps_in_defence() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}, {}, turn=1)
    state.kept[0] = [[index("t_dogfight"), 0, 2]]
    events = play(state, Attack(mask(FIGHTER_1), target(0, FIGHTER_1)), *rolls(5, 4))
    assert "Player 1 uses the kept T Dogfight: +2." in texts(events) and "Attack 5 against defence 6 = 6." in texts(
        events
    )
    assert state.pos[1][FIGHTER_1] == NOWHERE and state.kept[0] == []


def test_a_kept_salvage_card_pays_on_the_next_kill() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")))
    answer(state, "t_salvage", Choose(0))
    assert state.kept[0] == [[index("t_salvage"), 1, 3]] and state.resources[0] == 0
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1))
    assert "Player 1 uses the kept T Salvage: +3." in texts(events)
    assert state.resources[0] == 1 + 3  # the fighter's loot and the salvage
    assert state.kept[0] == [] and state.beacon_discard[index("t_salvage")] == 1


def test_a_kept_salvage_card_is_not_used_by_a_lost_dogfight() -> None:
    state = start({(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}, {})
    state.kept[0] = [[index("t_salvage"), 1, 3]]
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(1, 6))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.kept[0] == [[index("t_salvage"), 1, 3]]


def test_a_card_kept_and_used_by_its_own_effects_is_discarded_once() -> None:
    ships = {(0, FIGHTER_1): "E2", (1, FIGHTER_1): "E6", (1, BOMBER_1): "K11"}
    state = start(ships, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")))
    answer(state, "t_kill_after_keep", Choose(0), Choose(target_code(state, 1, FIGHTER_1)))
    assert state.pos[1][FIGHTER_1] == NOWHERE and state.resources[0] == 1 + 2
    assert state.kept[0] == [] and state.beacon_discard[index("t_kill_after_keep")] == 1
    total = [d + p for d, p in zip(state.beacon_deck, state.beacon_discard)]
    assert total == [model.count for _, model in state.game.content.beacons]  # no card made or lost


# ---- module cards, the deck -------------------------------------------------------------------


def test_a_card_needing_a_module_not_in_play_is_discarded_and_another_drawn() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    gas = index("gas_money")  # authored: requires nebula, which spacetable lacks
    play(state, Move(FIGHTER_1, cell("E4")))
    events = play(state, DrawBeacon(gas))
    assert "Gas Money needs nebula, not in play: discarded, another is drawn." in texts(events)
    assert state.beacon_draw == [0, FIGHTER_1, cell("E4")] and state.is_chance_node() and state.script is None
    assert DrawBeacon(gas) not in [a for a, _ in state.chance_outcomes()]
    assert state.beacon_discard[gas] == 1 and state.beacon_log[gas] == [1, 1, 0, 0]
    answer(state, "t_plain", Choose(0))
    assert state.resources[0] == 3 and state.beacon_log[index("t_plain")] == [1, 0, 1, 0]
    figures = beacons.statistics(state)
    assert state.game.statistics(state).items() >= figures.items()  # in the batch report
    gas_rows, plain = rows(figures, "Gas Money"), rows(figures, "T Plain")
    assert gas_rows["drawn"] == Statistic(1, 1) and plain["drawn"] == Statistic(1, 1)
    assert [v for k, v in gas_rows.items() if "discarded" in k] == [Statistic(1, 1, percent=True)]  # of 1 draw
    assert [v for k, v in plain.items() if "option" in k] == [
        Statistic(1, 1, percent=True),
        Statistic(0, 1, percent=True),
    ]


def test_a_card_needing_the_victory_points_mode_is_played_only_in_that_mode() -> None:
    senator = index("senator_in_distress")
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(senator))
    assert state.beacon_log[senator] == [1, 1, 0, 0] and state.script is None
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F}, mode="victory_points")
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(senator))
    assert state.beacon_log[senator] == [1, 0, 0, 0] and state.script is not None and state.choice is not None


def test_an_empty_deck_takes_the_discard_pile_back() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    state.beacon_deck = [0] * len(KEYS)
    state.beacon_discard = [0] * len(KEYS)
    state.beacon_discard[index("t_plain")] = 1
    play(state, Move(FIGHTER_1, cell("E4")))
    assert state.chance_outcomes() == [(DrawBeacon(index("t_plain")), 1.0)]
    assert sum(state.beacon_discard) == 0


def test_with_every_card_kept_the_signal_fades() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    state.beacon_deck = [0] * len(KEYS)
    state.beacon_discard = [0] * len(KEYS)
    state.kept[1] = [[index("t_dogfight"), 0, 2]]
    events = play(state, Move(FIGHTER_1, cell("E4")))
    assert "No beacon card is left to draw: the signal fades." in texts(events)
    assert not state.beacon_draw and state.tokens == [] and state.current_player() == 0


def test_the_deck_starts_with_every_card_only_with_the_option() -> None:
    assert sum(game().new_initial_state().beacon_deck) == sum(
        m.count for _, m in load_content({"beacons": CARDS}).beacons
    )
    assert sum(new_game(2).new_initial_state().beacon_deck) == 0
    assert new_game(2).new_initial_state().tokens == []


# ---- "your ship", warps and strikes -------------------------------------------------------------


def test_damage_hits_the_activating_fighter() -> None:
    ships = {(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}
    state = start(ships, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")))
    events = answer(state, "t_damage", Choose(0))
    assert "Player 1's Fighter 1 takes 3 and explodes." in texts(events)
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.grid[cell("E4")] == EMPTY
    assert state.pos[0][MOTHERSHIP] == cell("A1") and state.hp[0] == 12
    assert state.tokens == [] and not state.out[0]


def test_damage_on_the_activating_mothership_hits_its_shields_first() -> None:
    ships = {(0, MOTHERSHIP): "E2", (0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"}
    state = start(ships, {"E3": M}, energy={0: (3, 6, 6)})
    state.shield[0] = 2
    play(state, Move(MOTHERSHIP, cell("E3")))
    answer(state, "t_damage", Choose(0))
    assert state.shield[0] == 0 and state.hp[0] == 11 and state.pos[0][FIGHTER_1] == cell("A1")


def test_a_warp_moves_the_activating_ship() -> None:
    ships = {(0, FIGHTER_1): "E2", (0, FIGHTER_2): "A1", (1, FIGHTER_1): "K11"}
    state = start(ships, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_damage")), Choose(1))
    assert state.choice is not None and state.choice["what"] == "warp"
    options = state.choice["options"]
    assert cell("K1") in options and cell("E4") not in options and cell("D4") not in options  # a planet
    assert cell("B6") not in options and cell("B2") not in options  # an asteroid, a station
    events = play(state, Choose(cell("K1")))
    assert "Player 1's Fighter 1 warps to K1." in texts(events)
    assert state.pos[0][FIGHTER_1] == cell("K1") and state.grid[cell("K1")] == FIGHTER_1
    assert state.grid[cell("E4")] == EMPTY and state.pos[0][FIGHTER_2] == cell("A1")


def test_a_warp_to_the_closest_planet_offers_both_planets_on_a_tie() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E5": F})
    play(state, Move(FIGHTER_1, cell("E5")), DrawBeacon(index("t_warp")), Choose(0))
    assert state.choice is not None and state.choice["seat"] == 0
    beside_d4 = ["C3", "D3", "E3", "C4", "E4", "C5", "D5"]
    beside_f6 = ["F5", "G5", "E6", "G6", "E7", "F7", "G7"]  # E5, beside both, is the ship's own
    assert state.choice["options"] == sorted(cell(c) for c in beside_d4 + beside_f6)
    play(state, Choose(cell("G7")))
    assert state.pos[0][FIGHTER_1] == cell("G7") and state.choice is None and state.script is None


def test_a_warp_to_the_closest_planet_skips_a_planet_without_room() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"D2": F})
    play(state, Move(FIGHTER_1, cell("D2")), DrawBeacon(index("t_warp")), Choose(0))
    assert state.choice is not None and state.choice["options"] == sorted(
        cell(c) for c in ["C3", "D3", "E3", "C4", "E4", "C5", "D5", "E5"]
    )
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"D2": F})
    for c in ["C3", "D3", "E3", "C4", "E4", "C5", "D5", "E5"]:  # every space beside D4 is taken
        state.cannons[1].append(cell(c))
        state.grid[cell(c)] = 1 * 16 + cannons.CANNON
    play(state, Move(FIGHTER_1, cell("D2")), DrawBeacon(index("t_warp")), Choose(0))
    assert state.choice is not None and cell("F5") in state.choice["options"]  # beside F6, the next closest
    assert cell("C3") not in state.choice["options"]


def test_a_warp_to_the_station_lands_beside_ones_own_station() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_warp")), Choose(1))
    assert state.choice is not None
    assert state.choice["options"] == sorted(cell(c) for c in ["A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"])


def test_a_strike_hits_the_closest_enemy_ship() -> None:
    ships = {(0, FIGHTER_1): "E2", (1, FIGHTER_1): "E6", (1, MOTHERSHIP): "J4", (1, BOMBER_1): "K11"}
    state = start(ships, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_strike")), Choose(0))
    assert state.choice is not None and state.choice["what"] == "strike"
    assert state.choice["options"] == [target_code(state, 1, FIGHTER_1)]
    assert state.choice["labels"] == ["strike Player 2's Fighter 1 for 2"]
    events = play(state, Choose(target_code(state, 1, FIGHTER_1)))
    assert "Player 2's Fighter 1 takes 2 and explodes." in texts(events)
    assert state.pos[1][FIGHTER_1] == NOWHERE and state.resources[0] == 1  # the loot is the striker's
    assert state.tallies[0][0] == 1  # fighters_destroyed
    assert state.pos[1][MOTHERSHIP] == cell("J4")


def test_a_strike_tie_lets_the_player_choose() -> None:
    ships = {(0, FIGHTER_1): "E2", (1, FIGHTER_1): "E7", (1, MOTHERSHIP): "H4", (1, BOMBER_1): "K11"}
    state = start(ships, {"E4": F})
    state.shield[1] = 1
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_strike")), Choose(0))
    assert state.choice is not None
    assert sorted(state.choice["options"]) == sorted(
        [target_code(state, 1, FIGHTER_1), target_code(state, 1, MOTHERSHIP)]
    )
    play(state, Choose(target_code(state, 1, MOTHERSHIP)))
    assert state.shield[1] == 0 and state.hp[1] == 11 and state.pos[1][FIGHTER_1] == cell("E7")


# ---- set-up -------------------------------------------------------------------------------------


def test_the_tokens_are_laid_out_two_per_player_half_locked() -> None:
    board = game().board_for(0)
    state = game().new_initial_state()
    assert [tuple(t) for t in state.tokens] == list(board.beacons)
    assert len(board.beacons) == 4
    assert sum(1 for _, unit in board.beacons if unit == LOCKED) == 2
    shown = [unit for _, unit in board.beacons if unit != LOCKED]
    assert len(set(shown)) == 1  # every player's face-up token calls for the same unit
    stations = board.stations
    mine = [
        [c for c, _ in board.beacons if board.distance(c, s) < board.distance(c, o)]
        for s, o in [stations, stations[::-1]]
    ]
    assert [len(m) for m in mine] == [2, 2]  # each player's share is nearer their own station
    for seat, cells in enumerate(mine):
        units = sorted(u for c, u in board.beacons if c in cells)
        assert units == sorted([LOCKED, shown[0]]), seat  # one face up and one locked each
        assert all(3 <= board.distance(c, stations[seat]) <= 5 for c in cells)
    # the same distances from each player's own station, for the face-up and the locked token
    by_unit = [{u: board.distance(c, stations[s]) for c, u in board.beacons if c in mine[s]} for s in range(2)]
    assert by_unit[0] == by_unit[1]
    assert all(board.terrain[c] == "." for c, _ in board.beacons)  # on empty space


def test_the_same_board_gets_the_same_tokens() -> None:
    first = spacetable.load("mothership", 3, {"beacons": True})
    second = spacetable.load("mothership", 3, {"beacons": True})
    assert isinstance(first, Mothership) and isinstance(second, Mothership)
    for seed in (0, 7):
        board = first.board_for(seed)
        assert board.beacons == second.board_for(seed).beacons
        assert len(board.beacons) == 6 and sum(1 for _, u in board.beacons if u == LOCKED) == 3
        distances = sorted(
            tuple(
                sorted(
                    (u, board.distance(c, s))
                    for c, u in board.beacons
                    if min(board.stations, key=lambda t: board.distance(c, t)) == s
                )
            )
            for s in board.stations
        )
        assert distances[0] == distances[1] == distances[2]  # every player's share alike


def test_without_the_option_no_tokens_are_laid() -> None:
    plain = spacetable.load("mothership", 3, {})
    assert isinstance(plain, Mothership)
    assert plain.board_for(0).beacons == ()


# ---- saving a state in the middle of a card ---------------------------------------------------


def test_a_state_in_the_middle_of_a_card_survives_json_clone_and_views() -> None:
    ships = {(0, FIGHTER_1): "E2", (1, FIGHTER_1): "E7", (1, MOTHERSHIP): "H4", (1, BOMBER_1): "K11"}
    state = start(ships, {"E4": F, "H2": LOCKED})
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_strike")), Choose(0))
    assert state.choice is not None and state.script is not None
    data = state.to_json()
    json.dumps(data)
    restored = state.game.state_from_json(json.loads(json.dumps(data)))
    assert isinstance(restored, MothershipState)
    assert restored.to_json() == data and restored.legal_actions() == state.legal_actions()
    copy = state.clone()
    assert copy.to_json() == data
    play(copy, Choose(target_code(state, 1, FIGHTER_1)))
    assert copy.choice is None and copy.pos[1][FIGHTER_1] == NOWHERE and copy.flipping == 1
    assert state.to_json() == data  # the original is untouched
    play(restored, Choose(target_code(state, 1, MOTHERSHIP)))
    assert restored.script is None and restored.pos[1][FIGHTER_1] == cell("E7")
    for seat in (0, 1, None):
        view = state.view(seat)
        json.dumps(view)
        assert view["choice"] == data["choice"] and view["script"] == data["script"]


def test_a_state_waiting_for_a_cards_die_survives_json() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    state.resources[0] = 3
    play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(index("t_test")), Choose(0))
    restored = state.game.state_from_json(state.to_json())
    assert isinstance(restored, MothershipState)
    assert restored.chance_outcomes() == state.chance_outcomes()
    play(restored, Roll(6))
    assert restored.resources[0] == 8 and state.resources[0] == 3


def test_a_state_waiting_for_a_beacon_draw_survives_json() -> None:
    state = start({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, {"E4": F})
    play(state, Move(FIGHTER_1, cell("E4")))
    restored = state.game.state_from_json(state.to_json())
    assert isinstance(restored, MothershipState)
    assert restored.chance_outcomes() == state.chance_outcomes() and restored.beacon_draw == state.beacon_draw


# ---- the authored cards -------------------------------------------------------------------------


AUTHORED = [key for key, _ in load_content().beacons]


def test_every_authored_card_loads() -> None:
    content = load_content()
    assert len(content.beacons) >= 20
    names = [model.name for _, model in content.beacons]
    assert len(set(names)) == len(names)
    for _, model in content.beacons:
        assert len(model.options) == 2


@pytest.mark.parametrize("key", AUTHORED)
def test_every_authored_card_can_be_carried_out(key: str) -> None:
    """Each card, drawn in a plain position, runs to its end whatever is chosen or rolled."""
    authored = new_game(2, beacons=True, exploration=True, objectives="hidden")
    keys = [k for k, _ in authored.content.beacons]
    for choice in (0, -1):
        ships = {
            (0, MOTHERSHIP): "E3",
            (0, FIGHTER_1): "E2",
            (0, BOMBER_1): "A1",
            (1, FIGHTER_1): "F5",
            (1, MOTHERSHIP): "K11",
        }
        state = position(ships, game=authored, energy={0: (5, 5, 5)})
        state.resources[0] = 4
        state.tokens = [[cell("E4"), F], [cell("H2"), LOCKED]]
        state._legal_cache = None
        play(state, Move(FIGHTER_1, cell("E4")), DrawBeacon(keys.index(key)))
        for _ in range(40):
            if state.current_player() == 0 and state.choice is None and state.pending is None:
                break
            legal = state.legal_actions()
            play(state, legal[choice] if state.current_player() >= 0 else legal[0])
        else:
            pytest.fail(f"{key}: the card never ended")
        assert state.script is None and state.choice is None
        assert all(t[0] != cell("E4") for t in state.tokens) or state.beacon_log[keys.index(key)][1] == 1
        assert state.beacon_discard[keys.index(key)] + sum(k[0] == keys.index(key) for k in state.kept[0]) == 1


# ---- one short game -----------------------------------------------------------------------------


def test_a_short_game_with_every_expansion_card_module_keeps_its_cards_counted() -> None:
    """Greedy bots, beacons, exploration and global objectives, victory points, three rounds: no
    beacon or objective card is made or lost on the way, and the final state saves and loads."""
    full = spacetable.load(
        "mothership",
        2,
        {"beacons": True, "exploration": True, "objectives": "global", "mode": "victory_points", "round_limit": 3},
    )
    assert isinstance(full, Mothership)
    beacon_total = [model.count for _, model in full.content.beacons]
    objective_total = [model.count for _, model in full.content.objectives]

    def counted(state: State, events: Sequence[Event]) -> None:
        assert isinstance(state, MothershipState)
        cards = [d + p for d, p in zip(state.beacon_deck, state.beacon_discard)]
        for row in state.kept:
            for kept in row:
                cards[kept[0]] += 1
        script = state.script
        if (
            script is not None
            and script["source"] == "beacon"
            and [script["card"]] not in [k[:1] for k in state.kept[script["seat"]]]
        ):
            cards[script["card"]] += 1  # being carried out (a kept one is counted as kept)
        assert cards == beacon_total
        held = [d + p for d, p in zip(state.objective_deck, state.objective_discard)]
        for card in state.public_objectives + [c for row in state.objectives + state.completed for c in row]:
            held[card] += 1
        if script is not None and script["source"] == "objective":
            held[script["card"]] += 1
        assert held == objective_total

    final = play_game(full, [GreedyAgent(), GreedyAgent()], random.Random(0), on_events=counted)
    assert isinstance(final, MothershipState) and final.phase == "over"
    assert sum(log[0] for log in final.beacon_log) > 0 and sum(log[6] for log in final.tallies) > 0
    assert full.state_from_json(final.to_json()).to_json() == final.to_json()
