"""The Mothership expansion's objectives (option ``objectives``, module ``objectives``, rewards
carried out by ``scripts``) and the guardian cannons its rewards deploy (module ``cannons``):
dealing, hidden information, completing and claiming, replacing, the global variant, every
reward kind, statistics; a cannon attacked, defending, guarding and blocking.

Positions are on the 11x11 test board: stations B2 (Player 1) and J10 (Player 2), planets
D4, F6 and H8 (planets 0, 1, 2), asteroid fields B6-C6 and G9-H9. Most tests use small
test-only objective cards (``CARDS``); a few check the authored ones. Dice and draws are forced.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mothership_helpers import (
    BOMBER_1,
    FIGHTER_1,
    FIGHTER_2,
    MOTHERSHIP,
    STATION,
    cell,
    mask,
    new_game,
    play,
    position,
    rolls,
    target,
    texts,
)
from spacetable.engine import Action, Event, OptionsError, Statistic
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.modules import cannons, objectives
from spacetable.games.mothership.modules.objectives import PUBLIC
from spacetable.games.mothership.modules.scripts import quantity
from spacetable.games.mothership.rules import tech
from spacetable.games.mothership.rules.actions import (
    Attack,
    AutoPlace,
    Choose,
    DrawArtifact,
    DrawCard,
    DrawObjective,
    EndTurn,
    Move,
    Pass,
    ReplaceObjective,
    SetEnergy,
)
from spacetable.games.mothership.rules.state import EMPTY, NOWHERE, MothershipState
from spacetable.games.mothership.rules.targets import cannon_code

D4, F6, H8 = 0, 1, 2


def objective(name: str, goal: list[str], first: list[str], second: list[str], **more: Any) -> dict[str, Any]:
    return {"name": name, "count": 1, "text": f"The task of {name}.", "goal": goal, "rewards": [first, second], **more}


ALWAYS = ["resources >= 0"]
CARDS: dict[str, dict[str, Any]] = {
    "t_kill": objective("T Kill", ["fighters_destroyed >= 1"], ["resources 2"], ["cards 1"]),
    "t_rich": objective("T Rich", ["resources >= 6"], ["resources 3"], ["cards 1"]),
    "t_far": objective("T Far", ["resources >= 90"], ["resources 1"], ["cards 1"]),
    "t_resources": objective("T Resources", ALWAYS, ["resources 2"], ["resources 5"]),
    "t_cards": objective("T Cards", ALWAYS, ["cards 2"], ["resources 1"]),
    "t_objectives": objective("T Objectives", ALWAYS, ["objectives 1"], ["resources 1"]),
    "t_repair": objective("T Repair", ALWAYS, ["repair 6"], ["resources 1"]),
    "t_cannon": objective("T Cannon", ALWAYS, ["cannon", "resources 1"], ["resources 1"]),
    "t_artifact": objective("T Artifact", ALWAYS, ["artifact"], ["resources 1"]),
    "t_tech": objective("T Tech", ALWAYS, ["tech combat"], ["resources 1"]),
    "t_points": objective("T Points", ALWAYS, ["points 2"], ["resources 1"]),
    # the authored deck's one card whose reward draws objectives: T Objectives takes its place,
    # since a game deals one such copy at most
    "tactician": {"count": 0},
}
"""Test-only objective cards, added to the authored deck (the draws are forced)."""

KEYS = [key for key, _ in load_content({"objectives": CARDS}).objectives]
COMBAT = [i for i, b in enumerate(load_content().branches) if b.category == "combat"]


def index(key: str) -> int:
    return KEYS.index(key)


def game(players: int = 2, variant: str = "hidden", **options: Any) -> Mothership:
    return new_game(players, content={"objectives": CARDS}, exploration=True, objectives=variant, **options)


def start(
    ships: dict[tuple[int, int], str],
    held: dict[int, list[str]] | None = None,
    *,
    turn: int = 0,
    variant: str = "hidden",
    **options: Any,
) -> MothershipState:
    """``turn``'s turn with ``ships`` and the objectives ``held`` (seat -> card keys)."""
    state = position(ships, turn=turn, game=game(variant=variant, **options))
    for seat, keys in (held or {}).items():
        state.objectives[seat] = sorted(index(k) for k in keys)
        for k in keys:
            state.objective_deck[index(k)] -= 1
    state._legal_cache = None
    return state


def nudge(state: MothershipState) -> list[Event]:
    """An action of no consequence by the player on turn (the goals are checked after every action)."""
    return play(state, SetEnergy(4, 6, 5))


def claim(key: str, ships: dict[tuple[int, int], str] | None = None, **options: Any) -> MothershipState:
    """Player 1 holds ``key`` (whose goal holds at once) and completes it by acting: the reward's choice is next."""
    state = start(ships or {(0, MOTHERSHIP): "E4", (1, FIGHTER_1): "K11"}, {0: [key]}, **options)
    if options.get("variant") == "global":
        state.public_objectives, state.objectives[0] = state.objectives[0], []
    events = nudge(state)
    assert f"Player 1 completes the objective {CARDS[key]['name']}: The task of {CARDS[key]['name']}." in texts(events)
    assert state.choice is not None and state.choice["what"] == "group" and state.choice["seat"] == 0
    return state


def first_outcome(state: MothershipState) -> Action:
    return state.chance_outcomes()[0][0]


# ---- dealing ------------------------------------------------------------------------------------


def test_two_hidden_objectives_are_dealt_to_each_player_at_the_start() -> None:
    state = game().new_initial_state()
    play(state, AutoPlace(), AutoPlace())
    while state.draws:  # the opening action cards first
        play(state, first_outcome(state))
    assert state.objective_draws == [0, 0, 1, 1] and state.is_chance_node()
    outcomes = state.chance_outcomes()
    dealt = len(KEYS) - 1  # one copy of every card but Tactician's none
    assert all(isinstance(a, DrawObjective) for a, _ in outcomes) and len(outcomes) == dealt
    assert [p for _, p in outcomes] == pytest.approx([1 / dealt] * dealt)
    events = play(state, DrawObjective(index("t_kill")))
    assert "Player 1 draws an objective." in texts(events)
    private = [e for e in events if e.text == "Your new objective: T Kill: The task of T Kill."]
    assert private and private[0].to == (0,)
    hidden = KEYS.index("hidden")  # authored: requires nebula
    events = play(state, DrawObjective(hidden))
    assert "Hidden needs nebula, not in play: discarded." in texts(events)
    assert state.objective_draws == [0, 1, 1] and state.objective_discard[hidden] == 1
    play(state, DrawObjective(index("t_rich")), DrawObjective(index("t_far")), DrawObjective(index("t_repair")))
    assert state.objectives == [sorted([index("t_kill"), index("t_rich")]), sorted([index("t_far"), index("t_repair")])]
    assert state.objective_draws == [] and state.phase == "order"
    assert sum(state.objective_deck) == dealt - 5


def test_the_global_row_has_as_many_objectives_as_players() -> None:
    state = game(4, "global").new_initial_state()
    play(state, AutoPlace(), AutoPlace(), AutoPlace(), AutoPlace())
    while state.draws:
        play(state, first_outcome(state))
    assert state.objective_draws == [PUBLIC] * 4
    events = play(state, *[DrawObjective(index(k)) for k in ("t_kill", "t_rich", "t_far", "t_repair")])
    assert "Global objective: T Kill: The task of T Kill." in texts(events)
    assert all(e.to is None for e in events)  # face up for everyone
    assert state.public_objectives == [index(k) for k in ("t_kill", "t_rich", "t_far", "t_repair")]
    assert state.objectives == [[], [], [], []] and state.objective_draws == []


def test_objectives_need_planetary_exploration() -> None:
    with pytest.raises(OptionsError, match="exploration"):
        new_game(2, objectives="hidden")
    with pytest.raises(OptionsError):
        new_game(2, objectives="global", exploration=False)
    assert new_game(2, objectives="off").new_initial_state().objective_deck == [0] * len(load_content().objectives)


# ---- hidden information -------------------------------------------------------------------------


def test_others_objectives_are_hidden_in_views() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, {0: ["t_kill", "t_far"], 1: ["t_rich", "t_repair"]})
    state.completed[1] = [index("t_cannon")]
    mine, theirs, nobody = state.view(0), state.view(1), state.view(None)
    assert mine["objectives"] == [sorted([index("t_kill"), index("t_far")]), 2] and mine["completed"] == [[], 1]
    assert theirs["objectives"] == [2, sorted([index("t_rich"), index("t_repair")])]
    assert theirs["completed"] == [0, [index("t_cannon")]]
    assert nobody["objectives"] == [2, 2] and nobody["objective_deck"] == sum(state.objective_deck)
    json.dumps(mine)


def test_resampling_redeals_the_others_objectives_and_keeps_ones_own() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, {0: ["t_kill", "t_far"], 1: ["t_rich", "t_repair"]})
    state.completed[1] = [index("t_cannon")]
    state.objective_deck[index("t_cannon")] -= 1
    total = sum(state.objective_deck) + 5
    seen = set()
    for seed in range(40):
        other = state.resample(0, random.Random(seed))
        assert other.objectives[0] == state.objectives[0] and other.completed[0] == []
        assert len(other.objectives[1]) == 2 and len(other.completed[1]) == 1
        assert sum(other.objective_deck) + 5 == total
        dealt = other.objectives[1] + other.completed[1]
        assert not set(dealt) & set(state.objectives[0])  # one's own cards are not in the others' hands
        assert not [c for c in dealt if objectives.missing(other, c)]  # never a card that is never dealt
        seen.add(tuple(other.objectives[1]))
    assert len(seen) > 5  # re-dealt at random
    assert state.objectives[1] == sorted([index("t_rich"), index("t_repair")])  # the original is untouched


def test_resampling_keeps_the_global_rows_public_cards() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, variant="global")
    state.public_objectives = [index("t_far")]
    state.completed[1] = [index("t_rich")]  # taken from the face-up row: everyone saw it
    for seed in range(10):
        other = state.resample(0, random.Random(seed))
        assert other.public_objectives == [index("t_far")] and other.completed[1] == [index("t_rich")]
    assert state.view(0)["completed"] == [[], [index("t_rich")]]


# ---- completing and claiming --------------------------------------------------------------------


def test_an_objective_completed_on_another_players_turn_is_claimed_on_ones_own() -> None:
    ships = {(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}
    state = start(ships, {0: ["t_kill", "t_far"]}, turn=1)
    events = play(state, Attack(mask(FIGHTER_1), target(0, FIGHTER_1)), *rolls(1, 6))  # the defender wins
    assert state.pos[1][FIGHTER_1] == NOWHERE and state.tallies[0][0] == 1
    assert "Player 1 completes an objective." in texts(events)
    assert state.completed[0] == [index("t_kill")] and state.objectives[0] == [index("t_far")]
    assert state.objective_log[index("t_kill")][1] == 1
    assert state.choice is None and state.script is None and state.current_player() == 1  # not claimed yet
    play(state, EndTurn())
    while state.trading:
        play(state, Pass())
    assert state.turn == 0 and state.choice is not None and state.choice["what"] == "group"
    assert state.choice["labels"] == ["resources 2", "cards 1"] and state.completed[0] == []
    before = state.resources[0]
    play(state, Choose(0))
    assert state.resources[0] == before + 2 and state.choice is None and state.script is None
    assert state.objective_discard[index("t_kill")] == 1 and state.objective_log[index("t_kill")][2:4] == [1, 0]


def test_an_objective_completed_on_ones_own_turn_is_claimed_at_once() -> None:
    ships = {(0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}
    state = start(ships, {0: ["t_kill", "t_far"]})
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1))
    assert "Player 1 completes the objective T Kill: The task of T Kill." in texts(events)
    assert state.choice is not None and state.current_player() == 0
    play(state, Choose(1))
    assert state.draws == [0] and state.script is None  # the card is drawn next
    play(state, first_outcome(state))
    assert len(state.hands[0]) == 1 and state.objectives[0] == [index("t_far")]


def test_two_objectives_completed_at_once_are_both_claimed_that_turn() -> None:
    ships = {(0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}
    state = start(ships, {0: ["t_kill", "t_rich"]})
    state.resources[0] = 5
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1))  # loot 1: 6 resources
    assert texts(events).count("Player 1 completes an objective.") == 2
    assert state.choice is not None and state.script is not None and state.script["card"] == index("t_kill")
    events = play(state, Choose(0))
    assert "Player 1 completes the objective T Rich: The task of T Rich." in texts(events)  # the next, at once
    play(state, Choose(0))
    assert state.resources[0] == 6 + 2 + 3 and state.objectives[0] == [] and state.completed[0] == []
    assert state.choice is None and state.current_player() == 0 and EndTurn() in state.legal_actions()


def test_a_completed_objective_waits_for_the_card_in_progress() -> None:
    state = claim("t_cards")
    state.objectives[0] = [index("t_resources")]
    state.objective_deck[index("t_resources")] -= 1
    state._legal_cache = None
    events = play(state, Choose(0))  # cards 2: two draws owed; the other objective completes meanwhile
    assert "Player 1 completes an objective." in texts(events)
    assert state.draws == [0, 0] and state.script is None and state.choice is None
    play(state, first_outcome(state))
    assert state.choice is None  # still drawing
    play(state, first_outcome(state))
    assert state.choice is not None and state.script is not None and state.script["card"] == index("t_resources")


# ---- replacing ----------------------------------------------------------------------------------


def test_an_objective_is_replaced_for_two_resources() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, {0: ["t_far", "t_rich"]})
    state.resources[0] = 3
    legal = state.legal_actions()
    assert ReplaceObjective(index("t_far")) in legal and ReplaceObjective(index("t_rich")) in legal
    events = play(state, ReplaceObjective(index("t_far")))
    assert [t for t in texts(events) if t.startswith("Player 1 pays 2 to replace an objective")]
    assert state.resources[0] == 1 and state.objectives[0] == [index("t_rich")]
    assert state.objective_discard[index("t_far")] == 1 and state.objective_log[index("t_far")][4] == 1
    assert state.objective_draws == [0] and state.is_chance_node()
    play(state, DrawObjective(index("t_kill")))
    assert state.objectives[0] == sorted([index("t_rich"), index("t_kill")]) and state.current_player() == 0
    assert not [a for a in state.legal_actions() if isinstance(a, ReplaceObjective)]  # 1 resource left


def test_replacing_is_only_for_hidden_objectives_on_ones_own_turn() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, {0: ["t_far"], 1: ["t_rich"]})
    state.resources = [5, 5]
    play(state, EndTurn())
    assert state.trading == [1]
    assert not [a for a in state.legal_actions(1) if isinstance(a, ReplaceObjective)]
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, variant="global")
    state.public_objectives = [index("t_far")]
    state.resources[0] = 5
    assert not [a for a in state.legal_actions() if isinstance(a, ReplaceObjective)]


# ---- the global variant -------------------------------------------------------------------------


def test_a_global_objective_goes_to_the_first_player_to_complete_it() -> None:
    ships = {(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}
    state = start(ships, variant="global")
    state.public_objectives = [index("t_kill"), index("t_far")]
    for c in state.public_objectives:
        state.objective_deck[c] -= 1
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1))
    assert "Player 1 completes T Kill." in texts(events)  # named: the row is face up
    assert state.public_objectives == [index("t_far")]  # it leaves the row, not replaced
    assert state.objective_draws == [] and state.choice is not None
    play(state, Choose(0))
    assert state.resources[0] == 1 + 2
    state.tallies[1][0] = 5  # Player 2's kills come later: the card is gone
    nudge(state)
    assert state.completed == [[], []] and state.public_objectives == [index("t_far")]


def test_a_global_objective_completed_by_another_player_is_theirs() -> None:
    ships = {(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}
    state = start(ships, variant="global")
    state.public_objectives = [index("t_kill")]
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(1, 6))  # Player 2's fighter wins
    assert state.completed == [[], [index("t_kill")]] and state.public_objectives == []
    assert state.choice is None
    play(state, EndTurn())
    while state.trading:
        play(state, Pass())
    assert state.turn == 1 and state.choice is not None and state.choice["seat"] == 1


def test_objective_rewards_are_discarded_in_the_global_variant() -> None:
    state = claim("t_objectives", variant="global")
    events = play(state, Choose(0))
    assert "Player 1 cannot take objective cards (no hidden objectives in this game): it is discarded." in texts(events)
    assert state.objective_draws == [] and state.script is None


# ---- the rewards --------------------------------------------------------------------------------


def test_a_resources_reward() -> None:
    state = claim("t_resources")
    assert state.choice is not None and state.choice["labels"] == ["resources 2", "resources 5"]
    events = play(state, Choose(1))
    assert "Player 1 gains 5 resources." in texts(events) and state.resources[0] == 5


def test_a_cards_reward_owes_action_card_draws() -> None:
    state = claim("t_cards")
    play(state, Choose(0))
    assert state.draws == [0, 0] and state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert all(isinstance(a, DrawCard) for a, _ in outcomes)
    play(state, first_outcome(state), first_outcome(state))
    assert len(state.hands[0]) == 2 and state.current_player() == 0


def test_an_objectives_reward_draws_an_objective() -> None:
    state = claim("t_objectives")
    play(state, Choose(0))
    assert state.objective_draws == [0] and state.is_chance_node()
    play(state, DrawObjective(index("t_far")))
    assert state.objectives[0] == [index("t_far")]


def test_an_objectives_reward_with_the_deck_empty_draws_from_the_discard_pile() -> None:
    """Every card dealt and one claimed since: the deck is empty, its discard pile not. The
    reward's draw takes the pile back (before, the draw was owed from an empty deck: a chance
    node with no outcome, and the game stopped there); with no card anywhere, nothing is owed."""
    state = claim("t_objectives")
    state.objective_deck = [0] * len(KEYS)
    state.objective_discard = [0] * len(KEYS)
    state.objective_discard[index("t_far")] = 1
    play(state, Choose(0))
    assert state.chance_outcomes() == [(DrawObjective(index("t_far")), 1.0)]
    play(state, DrawObjective(index("t_far")))
    assert state.objectives[0] == [index("t_far")] and state.objective_deck[index("t_objectives")] == 1  # claimed, back
    state = claim("t_objectives")
    state.objective_deck = [0] * len(KEYS)
    play(state, Choose(0))
    assert state.objective_draws == [] and not state.is_chance_node() and state.current_player() == 0


def test_a_repair_reward_on_the_mothership_or_the_station_in_whole_counters() -> None:
    state = claim("t_repair")
    state.hp[0], state.station_hp[0] = 10, 8
    play(state, Choose(0))
    assert state.choice is not None and state.choice["what"] == "repair"
    assert state.choice["options"] == [0, 1]
    assert state.choice["labels"] == ["the mothership +2 HP", "the colony station +4 HP"]  # repair 6: one counter
    events = play(state, Choose(1))
    assert state.station_hp[0] == 12 and state.hp[0] == 10
    assert "Player 1's colony station is repaired to 12 HP." in texts(events)
    state = claim("t_repair")
    state.hp[0], state.station_hp[0] = 5, 16
    play(state, Choose(0))
    assert state.choice is not None and state.choice["options"] == [0]  # the station is whole
    play(state, Choose(0))
    assert state.hp[0] == 11


def test_a_repair_reward_with_nothing_to_repair_is_discarded() -> None:
    state = claim("t_repair")
    events = play(state, Choose(0))  # mothership and station whole
    assert "Player 1 cannot take a repair of 6 (nothing to repair): it is discarded." in texts(events)
    assert state.choice is None and state.script is None


def test_a_cannon_reward_is_deployed_beside_one_of_ones_ships() -> None:
    state = claim("t_cannon")
    play(state, Choose(0))
    assert state.choice is not None and state.choice["what"] == "cannon"
    beside = ["D3", "E3", "F3", "F4", "D5", "E5", "F5"]  # D4 is a planet
    assert state.choice["options"] == sorted(cell(c) for c in beside)
    events = play(state, Choose(cell("F5")))
    assert "Player 1 deploys a guardian cannon at F5." in texts(events)
    assert state.cannons[0] == [cell("F5")] and state.grid[cell("F5")] == 14 and cannons.owner(state, cell("F5")) == 0
    assert state.resources[0] == 1  # the rest of the group follows


def test_a_cannon_reward_has_no_limit_but_needs_room_beside_a_ship() -> None:
    state = claim("t_cannon", {(0, MOTHERSHIP): "A1", (1, FIGHTER_1): "K11"})
    for where in ("B1", "B2"):  # four cannons already: no limit keeps a fifth out
        cannons.deploy(state, 0, cell(where), [])
    for where in ("E9", "E10"):
        cannons.deploy(state, 0, cell(where), [])
    play(state, Choose(0))
    assert state.choice is not None and state.choice["options"] == [cell("A2")]  # B1 and B2 taken
    play(state, Choose(cell("A2")))
    assert len(state.cannons[0]) == 5
    state = claim("t_cannon", {(0, MOTHERSHIP): "A1", (0, FIGHTER_2): "E9", (1, FIGHTER_1): "K11"})
    for where in ("A2", "B1", "B2"):
        cannons.deploy(state, 1, cell(where), [])
    state.pos[0][FIGHTER_2] = -1
    state.grid[cell("E9")] = -1
    events = play(state, Choose(0))
    assert "Player 1 cannot take a guardian cannon (no room beside a ship): it is discarded." in texts(events)
    assert state.cannons[0] == [] and state.resources[0] == 1 and state.choice is None


def test_an_artifact_reward_explores_a_held_planet() -> None:
    state = claim("t_artifact")
    state.owner[D4], state.owner[H8] = 0, 0
    state.artifacts[H8] = 3  # explored already
    play(state, Choose(0))
    assert state.choice is not None and state.choice["what"] == "artifact" and state.choice["options"] == [D4]
    play(state, Choose(D4))
    assert state.exploring == D4 and state.is_chance_node() and state.resources[0] == 0  # free
    play(state, DrawArtifact(5))
    assert state.artifacts[D4] == 5 and state.tallies[0][7] == 1  # planets_explored
    assert state.current_player() == 0 and state.script is None


def test_an_artifact_reward_without_a_planet_to_explore_is_discarded() -> None:
    state = claim("t_artifact")
    events = play(state, Choose(0))
    assert "Player 1 cannot take an artifact (no unexplored planet held, or no token left): it is discarded." in texts(
        events
    )
    assert state.exploring == -1 and state.script is None


def test_a_tech_reward_asks_for_a_branch_when_none_is_climbed() -> None:
    state = claim("t_tech")
    play(state, Choose(0))
    assert state.choice is not None and state.choice["what"] == "tech" and state.choice["options"] == COMBAT
    play(state, Choose(COMBAT[1]))
    assert state.tiers[0][1] == 1 and state.branches[0][1] == COMBAT[1] and state.resources[0] == 0


def test_a_tech_reward_climbs_the_branch_already_chosen() -> None:
    state = claim("t_tech")
    state.branches[0][1], state.tiers[0][1] = COMBAT[0], 2
    play(state, Choose(0))
    assert state.choice is None and state.tiers[0][1] == 3 and state.branches[0][1] == COMBAT[0]
    state = claim("t_tech")
    state.branches[0][1], state.tiers[0][1] = COMBAT[0], tech.TOP_TIER
    events = play(state, Choose(0))
    assert "Player 1 cannot take a combat tier (the branch is complete): it is discarded." in texts(events)
    assert state.tiers[0][1] == tech.TOP_TIER


def test_a_points_reward_counts_only_in_the_victory_points_mode() -> None:
    state = claim("t_points", mode="victory_points")
    events = play(state, Choose(0))
    assert state.points[0] == 2 and "Player 1 scores 2 victory points for a card (now 2)." in texts(events)
    state = claim("t_points")
    play(state, Choose(0))
    assert state.points[0] == 0 and state.script is None


def test_a_state_in_the_middle_of_a_reward_survives_json_and_clone() -> None:
    state = claim("t_cannon")
    play(state, Choose(0))
    data = state.to_json()
    restored = state.game.state_from_json(json.loads(json.dumps(data)))
    assert isinstance(restored, MothershipState)
    assert restored.to_json() == data and restored.legal_actions() == state.legal_actions()
    copy = state.clone()
    play(copy, Choose(cell("E5")))
    assert copy.cannons[0] == [cell("E5")] and state.cannons[0] == [] and state.to_json() == data


# ---- module cards and statistics ----------------------------------------------------------------


def test_an_objective_needing_beacons_is_dealt_only_with_beacons() -> None:
    voyager = KEYS.index("voyager")
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"})
    state.objective_draws = [0]
    events = play(state, DrawObjective(voyager))
    assert state.objectives[0] == [] and state.objective_draws == [0]
    assert "Voyager needs beacons, not in play: discarded." in texts(events)
    assert state.objective_log[voyager] == [1, 0, 0, 0, 0, 1] and state.objective_discard[voyager] == 1
    figures = state.game.statistics(state)
    assert figures["objective Voyager: discarded (cannot be done)"] == Statistic(1, 1, percent=True)
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, beacons=True)
    state.objective_draws = [0]
    play(state, DrawObjective(voyager))
    assert state.objectives[0] == [voyager] and state.objective_draws == []


def test_every_authored_objective_loads_and_pays_either_group() -> None:
    authored = new_game(2, exploration=True, objectives="hidden")
    content = authored.content
    assert len(content.objectives) >= 20
    for number, (key, model) in enumerate(content.objectives):
        assert len(model.rewards) == 2 and model.goal, key
        for group in (0, 1):
            state = position({(0, MOTHERSHIP): "E4", (0, FIGHTER_1): "H2", (1, FIGHTER_1): "K11"}, game=authored)
            state.owner[D4] = 0
            state.hp[0], state.station_hp[0] = 6, 8
            state.completed[0] = [number]
            nudge(state)
            assert state.choice is not None and state.choice["what"] == "group", key
            play(state, Choose(group))
            for _ in range(12):
                if state.current_player() == 0 and state.choice is None:
                    break
                play(state, state.legal_actions()[0])
            assert state.script is None and state.choice is None and state.current_player() == 0, key
            assert state.objective_discard[number] == 1 and state.objective_log[number][2 + group] == 1, key


def test_statistics_give_the_per_card_figures() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"}, {0: ["t_kill", "t_far"]})
    state.objective_log[index("t_kill")][0] = state.objective_log[index("t_far")][0] = 1
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1), Choose(1))
    figures = objectives.statistics(state)
    kill = {k.removeprefix("objective T Kill: "): v for k, v in figures.items() if k.startswith("objective T Kill: ")}
    far = {k.removeprefix("objective T Far: "): v for k, v in figures.items() if k.startswith("objective T Far: ")}
    assert Statistic(1, 1) in kill.values() and Statistic(1, 1) in far.values()  # drawn once each this game
    assert [v for k, v in kill.items() if "complet" in k] == [Statistic(1, 1, percent=True)]  # of those drawn
    assert [v for k, v in far.items() if "complet" in k] == [Statistic(0, 1, percent=True)]  # held, not done
    assert [v for k, v in kill.items() if "reward" in k] == [
        Statistic(0, 1, percent=True),
        Statistic(1, 1, percent=True),
    ]
    assert sum(1 for k in figures if k.startswith("objective ")) >= 3 * len(KEYS)
    assert state.game.statistics(state).items() >= figures.items()  # in the batch report
    assert objectives.statistics(new_game(2).new_initial_state()) == {}


# ---- guardian cannons ---------------------------------------------------------------------------


def cannon_at(state: MothershipState, seat: int, where: str) -> int:
    """A cannon of ``seat`` deployed on ``where``: its attack target number."""
    cannons.deploy(state, seat, cell(where), [])
    state._legal_cache = None
    return cannon_code(state, cell(where))


def test_a_fighter_attacks_a_cannon_which_defends_with_its_die_and_is_destroyed() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"})
    code = cannon_at(state, 1, "E5")
    assert Attack(mask(FIGHTER_1), code) in state.legal_actions()
    events = play(state, Attack(mask(FIGHTER_1), code))
    assert state.pending is not None and state.pending["dice"] == [6, 6]  # the fighter's d6, the cannon's d6
    events += play(state, *rolls(5, 2))
    assert "Player 2's guardian cannon is destroyed." in texts(events)
    assert state.cannons[1] == [] and state.grid[cell("E5")] == EMPTY
    assert state.resources[0] == 1  # a fighter's loot
    assert state.tallies[0][0] == 0  # not a fighter destroyed


def test_a_cannon_that_wins_damages_its_attackers() -> None:
    state = start({(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"})
    code = cannon_at(state, 1, "E5")
    play(state, Attack(mask(FIGHTER_1), code), *rolls(2, 5))
    assert state.pos[0][FIGHTER_1] == NOWHERE and state.cannons[1] == [cell("E5")]
    assert state.resources[1] == 1  # the cannon's player loots the fighter
    state = start({(0, MOTHERSHIP): "E4", (1, FIGHTER_1): "K11"})
    state.shield[0] = 2
    code = cannon_at(state, 1, "E5")
    play(state, Attack(mask(MOTHERSHIP), code), *rolls(1, 6))
    assert state.shield[0] == 0 and state.hp[0] == 12 - 4 and state.cannons[1] == [cell("E5")]


def test_a_cannon_counts_as_a_wingman() -> None:
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "E5", (1, BOMBER_1): "K11"})
    cannon_at(state, 1, "E6")
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(4, 3))
    assert "Attack 4 against defence 3 + 1 wingman = 4." in texts(events)
    assert state.pos[1][FIGHTER_1] == cell("E5") and state.pos[0][FIGHTER_1] == cell("E4")  # a tie


def test_a_cannon_guards_its_colony_station() -> None:
    ships = {(0, BOMBER_1): "I9", (0, FIGHTER_1): "A1", (1, FIGHTER_1): "A11"}
    state = start(ships)
    assert Attack(mask(BOMBER_1), target(1, STATION)) in state.legal_actions()
    state = start(ships)
    cannon_at(state, 1, "K11")
    assert Attack(mask(BOMBER_1), target(1, STATION)) not in state.legal_actions()


def test_a_cannon_blocks_enemy_ships_and_lets_friendly_ones_pass() -> None:
    state = start({(0, FIGHTER_1): "K11", (1, FIGHTER_1): "A1"}, turn=1)
    cannon_at(state, 0, "A2")
    cannon_at(state, 0, "B1")
    assert not [a for a in state.legal_actions(1) if isinstance(a, Move)]  # walled in by the cannons and B2
    state = start({(0, FIGHTER_1): "A1", (1, FIGHTER_1): "K11"})
    cannon_at(state, 0, "A2")
    cannon_at(state, 0, "B1")
    moves = {a.cell for a in state.legal_actions() if isinstance(a, Move)}
    assert cell("A3") in moves and cell("C1") in moves
    assert cell("A2") not in moves and cell("B1") not in moves


def test_a_player_with_cannons_but_no_ship_is_out() -> None:
    state = start({(0, FIGHTER_1): "E4", (0, FIGHTER_2): "A1", (1, FIGHTER_1): "E5"})
    cannon_at(state, 1, "J4")
    events = play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)), *rolls(6, 1))
    assert "Player 2 is out (no ship left); their planets turn neutral." in texts(events)
    assert state.phase == "over" and state.cannons[1] == [] and state.grid[cell("J4")] == EMPTY


def test_a_cannon_counts_for_goals() -> None:
    state = start({(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"})
    cannon_at(state, 0, "E5")
    assert quantity(state, 0, "cannons") == 1 and quantity(state, 1, "cannons") == 0
    state.objectives[0] = [KEYS.index("bastion")]  # authored: a cannon while the station has 12 or more
    state.station_hp[0] = 12
    nudge(state)
    assert state.choice is not None and state.script is not None and state.script["card"] == KEYS.index("bastion")


def test_the_terminal_shows_ones_own_objectives_the_others_counts_or_the_global_row() -> None:
    placing = game().new_initial_state()
    assert objectives.describe(placing, 0) == ["Objectives: dealt once every fleet is placed"]
    state = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, {0: ["t_kill"], 1: ["t_rich", "t_kill"]})
    assert objectives.describe(state, 0) == [
        "Your objectives: T Kill: The task of T Kill.",
        "Player 2 holds 2 objective(s)",
    ]
    row = start({(0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, variant="global")
    row.public_objectives = [index("t_rich")]
    assert objectives.describe(row, None) == ["Global objectives: T Rich: The task of T Rich."]


def test_a_content_whose_objectives_could_claim_without_end_is_refused_on_load() -> None:
    """Two copies of an objective whose group draws objectives (its goals met from the start)
    would claim, discard, turn the deck over and draw each other back forever in one turn."""
    alone = {"tactician": {"count": 0}}  # the printed deck's one such card, out of the way

    def hidden(objectives: dict[str, Any]) -> Mothership:
        return new_game(2, content={"objectives": objectives}, exploration=True, objectives="hidden")

    refused = "at most one copy of one objective may reward with 'objectives 1'"
    with pytest.raises(OptionsError, match=f"objectives t_objectives: {refused}"):
        hidden(alone | {"t_objectives": CARDS["t_objectives"] | {"count": 2}})
    with pytest.raises(OptionsError, match=f"objectives t_objectives: {refused}"):
        hidden(alone | {"t_objectives": objective("T Objectives", ALWAYS, ["objectives 2"], ["resources 1"])})
    with pytest.raises(OptionsError, match=f"objectives tactician, t_objectives: {refused}"):
        hidden({"t_objectives": CARDS["t_objectives"]})  # beside the printed Tactician
    assert "objectives" in hidden(alone | {"t_objectives": CARDS["t_objectives"]}).modules
    global_row = new_game(
        2, content={"objectives": {"t_objectives": CARDS["t_objectives"]}}, exploration=True, objectives="global"
    )
    assert "objectives" in global_row.modules  # a global objective's draws are discarded: no chain
