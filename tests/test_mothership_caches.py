"""What the speed work remembers gives what working it out afresh gives: each ship's reach,
the greedy evaluation's fleet worths, and a clone's fields shared until first use."""

from __future__ import annotations

import itertools
import random

import pytest

import spacetable
from spacetable.games.mothership.bots import heuristic
from spacetable.games.mothership.rules import movement
from spacetable.games.mothership.rules.state import EMPTY, MothershipState

EVERY_MODULE = {
    "round_limit": 30,
    "random_event": True,
    "exploration": True,
    "neutron_stars": True,
    "black_holes": True,
    "beacons": True,
    "objectives": "hidden",
}
GAMES = [
    (4, EVERY_MODULE),
    (4, {**EVERY_MODULE, "team_size": 2, "mode": "victory_points"}),
    (1, {"round_limit": 30, "mode": "solo"}),
]


def positions(players: int, options: dict[str, object], count: int) -> list[MothershipState]:
    """``count`` positions of random playouts where a player is on turn, in order."""
    game = spacetable.load("mothership", players, options)
    rng = random.Random(7)
    state, found = game.new_initial_state(), []
    while len(found) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            if state.phase == "turn" and state.pending is None:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return found


def fresh_reach(state: MothershipState, seat: int, ship: int) -> dict[int, tuple[int, bool]]:
    """The reach searched again with nothing remembered."""
    other = state.clone()
    other.routes = {}
    return movement.reach(other, seat, ship)


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_a_remembered_reach_is_the_reach_searched_again(players: int, options: dict[str, object]) -> None:
    states = positions(players, options, 120)
    remembered = 0
    for before, after in itertools.pairwise(states):
        after.routes = dict(before.routes)  # what the earlier position searched, offered to the later one
        seat = after.turn
        for ship in range(len(after.pos[seat])):
            remembered += ship in after.routes
            assert movement.reach(after, seat, ship) == fresh_reach(after, seat, ship)
    assert remembered > 100  # the positions did offer searches to reuse


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_a_ships_move_actions_are_its_reach_without_the_spaces_taken(players: int, options: dict[str, object]) -> None:
    states = positions(players, options, 120)
    cut = 0
    for before, after in itertools.pairwise(states):
        after.routes = dict(before.routes)  # moves built with an earlier search, cut for this position
        seat = after.turn
        seen, mine = movement.seen_grid(after, seat), movement.team_cells(after, seat)
        for ship in range(len(after.pos[seat])):
            reach = movement.reach(after, seat, ship, seen)
            offered = movement.move_actions(after, seat, ship, seen, mine)
            assert [(m.ship, m.cell) for m in offered] == [(ship, c) for c in reach if after.grid[c] == EMPTY]
            cut += len(offered) < len(reach)
    assert cut > 10  # positions where the team's own units stood within reach


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_remembered_fleet_worths_give_the_worth_worked_out_afresh(players: int, options: dict[str, object]) -> None:
    states = positions(players, options, 60)
    rng = random.Random(3)
    for state in states:
        seat = state.turn
        for action in rng.sample(list(state.legal_actions(seat)), min(4, len(state.legal_actions(seat)))):
            child = state.clone()
            child.apply_legal(action, seat)
            if child.phase == "over":
                continue
            remembered = heuristic.evaluate(child, seat)
            state.game.worths = (None, {})
            assert heuristic.evaluate(child, seat) == remembered


def test_a_clone_and_its_original_never_see_each_others_changes() -> None:
    state = positions(4, EVERY_MODULE, 40)[-1]
    before = state.to_json()
    other = state.clone()
    other.known[1][0].append(3)
    other.objective_log[0][1] += 1
    other.tallies[0][0] += 5
    other.points[2] = 9
    other.objectives[0].append(1)
    assert state.to_json() == before
    again = other.clone()
    state.beacon_log[0][0] += 1
    assert other.beacon_log[0][0] == again.beacon_log[0][0] == before["beacon_log"][0][0]
    assert again.known[1][0][-1] == 3 and again.points[2] == 9
