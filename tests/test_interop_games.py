"""What the adapters need from every registered game: an observation tensor that holds only the
view, with its documented layout, and simultaneous choices that stay hidden until all are made."""

from __future__ import annotations

import itertools
import math
import pickle
import random
from collections import Counter

import numpy as np
import pytest

import spacetable
from budget import playouts
from interop_helpers import GAME_IDS, load, random_states, random_step
from spacetable.engine import SIMULTANEOUS, Game, State
from spacetable.games.mothership.rules.state import MothershipState
from spacetable.games.showdown.content import CARD_KINDS
from spacetable.games.showdown.rules.state import PHASES as SHOWDOWN_PHASES
from spacetable.games.spacerace.rules.state import PHASES as SPACERACE_PHASES
from spacetable.interop.sequential import canonical
from spacetable.testing.toygame import ToyPoker


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_tensor_is_the_view_in_numbers(game_id: str) -> None:
    """Every seat at every step: the declared size, values in [0, 1], one tensor per view, the
    same tensor on any resample of the seat (so it holds nothing hidden), and not a constant."""
    game = load(game_id)
    size = math.prod(game.observation_shape())
    by_view: dict[str, list[float]] = {}
    rng = random.Random(7)
    for state in itertools.chain(*(random_states(game, seed) for seed in range(playouts(1, 2)))):
        for seat in range(game.players):
            tensor = list(game.observation_tensor(state, seat))  # a list or a numpy array
            assert len(tensor) == size
            assert all(0.0 <= x <= 1.0 for x in tensor), f"{game_id}: values outside [0, 1]"
            key = f"{seat}:{canonical(state.view(seat))}"
            assert by_view.setdefault(key, tensor) == tensor, f"{game_id}: one view gave two tensors"
            if game.hidden_information:
                assert list(game.observation_tensor(state.resample(seat, rng), seat)) == tensor
    assert len({tuple(t) for t in by_view.values()}) > 10


SHARING_IDS = [
    cls.id for cls in spacetable.list_games() if cls.observation_tensor_shared is not Game.observation_tensor_shared
]
"""The games whose tensors share work between seats (showdown's)."""


@pytest.mark.parametrize("game_id", SHARING_IDS)
def test_tensors_sharing_their_public_part_are_each_seats_own(game_id: str) -> None:
    """``observation_tensor_shared``, the seats asked in a random order with one shared dict per
    state, gives each seat exactly its own tensor: whichever seat is asked first, nothing of
    its view reaches another seat's tensor."""
    game = load(game_id)
    rng = random.Random(5)
    for state in random_states(game, seed=1):
        shared: dict[str, object] = {}
        seats = rng.sample(range(game.players), game.players)
        for seat in seats:
            mine = list(game.observation_tensor_shared(state, seat, shared))
            assert mine == list(game.observation_tensor(state, seat)), f"{game_id}: seat {seat}'s shared tensor"


def test_showdown_shares_the_same_public_part_whoever_asks_first() -> None:
    """The part showdown's tensors share is worked out from the spectator's view: asked first
    by any seat, behind the screens or not, it is the same."""
    game = spacetable.load("showdown", 4)
    for state in random_states(game, seed=2)[::5]:
        parts = []
        for first in range(game.players):
            shared: dict[str, object] = {}
            game.observation_tensor_shared(state, first, shared)
            parts.append(shared)
        assert parts[0] and all(pickle.dumps(part) == pickle.dumps(parts[0]) for part in parts)


def test_a_game_without_tensor_says_so() -> None:
    game = ToyPoker()
    with pytest.raises(NotImplementedError, match=f"{game.id} has no observation tensor yet"):
        game.observation_shape()
    with pytest.raises(NotImplementedError, match=f"{game.id} has no observation tensor yet"):
        game.observation_tensor(game.new_initial_state(), 0)


def _hidden_answers_checked(game: Game, seed: int) -> int:
    """At each node where seats decide at once, the lowest seat (whom the adapters ask first)
    gives every answer it may: the other awaited seats' views must not tell them apart."""
    checked = 0
    for state in random_states(game, seed):
        if state.current_player() != SIMULTANEOUS or len(state.awaiting()) < 2:
            continue
        first, *others = state.awaiting()
        seen = set()
        for action in state.legal_actions(first):
            after = state.clone()
            after.apply_action(action, first)
            seen.add(canonical([after.view(seat) for seat in others]))
        assert len(seen) == 1, f"{game.id}: seats {others} can see what seat {first} chose"
        checked += 1
    return checked


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seats_deciding_at_once_can_be_asked_in_turn(game_id: str) -> None:
    _hidden_answers_checked(load(game_id), seed=3)


def test_showdown_draft_and_fire_are_asked_in_turn_soundly() -> None:
    game = spacetable.load("showdown", 4)
    phases: Counter[str] = Counter()
    for seed in range(4):
        for state in random_states(game, seed):
            if state.current_player() == SIMULTANEOUS:
                phases[state.view(0)["phase"]] += 1
    assert phases["draft"] and phases["fire"], phases
    assert sum(_hidden_answers_checked(game, seed) for seed in range(4)) > 100


# ---- the documented layouts (docs/INTEROP.md) ------------------------------------------------


def _offsets(*sizes: int) -> list[int]:
    """Where each piece of a tensor starts, given the sizes of the pieces in order."""
    return [sum(sizes[:i]) for i in range(len(sizes))]


def _on(piece: np.ndarray) -> list[int]:
    """Where a piece of a tensor is non-zero."""
    return [int(i) for i in np.flatnonzero(piece)]


def _first_decision(game: Game, seed: int = 1) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        random_step(state, rng)
    return state


def test_falling_skies_layout() -> None:
    game = spacetable.load("falling-skies", options={"level": 2})
    b = game.board
    state = _first_decision(game)
    tensor = game.observation_tensor(state, 0)
    cells, spaces = (b.sky_rows + 1) * b.columns, len(b.spaces)
    phase, tracks, green, red, _supplies, _base, excavated, _pending, unplaced = _offsets(
        6, 6, cells, cells, 4, 4 * spaces, spaces, spaces, 12
    )
    assert tensor[phase : phase + 6] == [0, 1, 0, 0, 0, 0]  # place
    assert tensor[tracks + 2] == state.energy / b.energy_max
    assert tensor[green : green + b.columns] == [1.0] * b.green_ships + [0.0] * (b.columns - b.green_ships)
    assert sum(tensor[red : red + cells]) == 0
    assert sum(tensor[excavated : excavated + spaces]) == len(b.open_at_start | {b.dig_path[0]})
    counts = [round(x * len(b.dice)) for x in tensor[unplaced : unplaced + 12]]
    for color, value in state.unplaced:
        counts[(color == "white") * 6 + value - 1] -= 1
    assert counts == [0] * 12


def test_showdown_layout_is_relative_and_screened() -> None:
    game = spacetable.load("showdown", 4)
    n, slots = 4, game.content.rules.countermeasure_limit
    state = _first_decision(game)
    assert state.phase == "draft"
    seat = 2
    tensor = game.observation_tensor(state, seat)
    block = 19 + 12 * slots
    phase, _clock, _turn, _used, seats, hand = _offsets(6, 6, 3 * n, 4, n * block, 15)
    assert tensor[phase + SHOWDOWN_PHASES.index("draft")] == 1
    visible = [tensor[seats + r * block + 7] for r in range(n)]
    assert visible == [1, 0, 0, 0]  # the observer's own mat first; the others are behind their screens
    held = state.hands[seat]
    assert list(tensor[hand : hand + 15]) == [held.count(k) / game.content.rules.hand_size for k in CARD_KINDS]


def test_spacerace_layout_is_relative() -> None:
    game = spacetable.load("spacerace", 3, {"turn_limit": 15})
    n, nodes, fleet = 3, game.galaxy.size, game.content.fleet_limit
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.phase != "move":
        random_step(state, rng)
    seat = (state.turn + 1) % n
    tensor = game.observation_tensor(state, seat)
    phase, _clock, turn, tiles, _owners, _move, fleets = _offsets(
        14, 2, 2 * n, 6 * nodes, n * nodes, fleet + nodes, n * fleet * (8 + nodes)
    )
    assert tensor[phase + SPACERACE_PHASES.index("move")] == 1
    assert tensor[turn : turn + n] == [0, 0, 1]  # the seat to move is the one before the observer
    assert tensor[tiles] == 1  # node 0 is the Nexus
    assert sum(tensor[tiles + 6 * node + 5] for node in range(nodes)) == 0  # every starway is laid
    own_mothership = tensor[fleets : fleets + 8 + nodes]
    assert own_mothership[:2] == [1, 1]  # present, a mothership
    assert own_mothership[8 + state.homeworld[seat]] == 1  # at its homeworld


def test_mothership_layout_after_the_board_the_observers_own_then_what_every_seat_sees() -> None:
    """After the pieces every seat sees: the observer's hand, the cards it knows others hold, its
    secret d4s' sum, its objectives held and completed, the global row; then the public pieces
    beyond the board (tech tree, holdings, decks and discards, kept beacon cards, artifacts,
    tallies, lasting effects, the event, the question asked, the roll, the card carried out),
    each taking the value the view says."""
    options = {"round_limit": 10, "exploration": True, "objectives": "hidden", "random_event": True, "beacons": True}
    game = spacetable.load("mothership", 3, options)
    c = game.content
    n, ships, cards, objectives = 3, c.ships, len(c.cards), len(c.objectives)
    branches, beacons, artifacts = len(c.branches), len(c.beacons), len(c.artifacts)
    rng = random.Random(4)
    state = game.new_initial_state()
    assert isinstance(state, MothershipState)
    while state.phase != "turn" or state.is_chance_node():
        random_step(state, rng)
    seat, thief = 1, 2  # the thief sits one place after the observer: the first "known" block
    assert state.hands[seat] and state.hands[thief] and state.objectives[seat]
    stolen = state.hands[thief][0]
    state.known[seat][thief] = [stolen]  # as a blind steal by the thief leaves it
    state.secret[seat] = [1, 3]  # a Replicator d4 rolled in secret: 3
    # What every seat sees, set where the random start left it empty:
    state.branches[thief], state.tiers[thief] = [1, -1, -1], [2, 0, 0]  # two tiers up branch 1
    state.charges[thief] = 1
    state.discard[5] = 1
    state.kept[thief] = [[7, 1, 2]]  # a beacon card kept: salvage +2
    state.owner[0], state.artifacts[0] = seat, 4  # the observer holds artifact 4
    state.tallies[thief][0] = 1  # a fighter destroyed
    state.cleared[seat][1] = 0
    state.respawns = [[thief, 2, 1]]
    state.escort, state.stuck, state.activated = 0b10, 0b100, 1
    state.effects = [["boost", thief, 3, 2, "end", thief], ["event", seat, 2, 1, "begin", seat]]
    state.choice = {"seat": seat, "what": "pull", "options": [3, 4], "labels": ["C1", "D1"], "ship": 2}
    state.playing = [thief, 9, 0, 0]
    state.pending = {"what": "event", "seat": thief, "ships": [1], "target": -1, "dice": [6], "rolls": []}
    state.script = {"seat": seat, "ship": 1, "source": "beacon", "card": 6, "option": -1, "effects": []}
    view = state.view(seat)
    tensor = np.asarray(game.observation_tensor(state, seat))
    public_sizes = [
        *(n * branches, 4 * n, 2, cards, objectives, beacons, n * 2, n * artifacts, n * 8, 2 * n * ships),
        *(3 * ships + 2, n * 9 * ships, 6 + n + 2, n + 15 + ships + cards + n, 6 + n + ships + 7 + 2 * cards),
        2 + n + beacons + objectives,
    ]
    own = tensor.size - (n * cards + 1 + 3 * objectives) - sum(public_sizes)
    hand, known, secret, held, completed, row, public = (
        own + at for at in _offsets(cards, (n - 1) * cards, 1, *[objectives] * 3, 0)
    )
    copies = np.array([card.count for card in c.cards])
    assert np.allclose(tensor[hand:known], np.bincount(state.hands[seat], minlength=cards) / copies)
    assert np.flatnonzero(tensor[known:secret]).tolist() == [stolen]
    assert np.isclose(tensor[known + stolen], 1 / copies[stolen])
    assert np.isclose(tensor[secret], 3 / 30)
    assert np.flatnonzero(tensor[held:completed]).tolist() == state.objectives[seat]
    assert not tensor[row:public].any()  # no global row in the hidden mode
    pieces = [tensor[public + at : public + at + size] for at, size in zip(_offsets(*public_sizes), public_sizes)]
    tech, holdings, decks, discard, _objective_discard, beacon_deck, kept, held_artifacts = pieces[:8]
    tallies, fleet_ships, marks, effects, event, asking, roll, script = pieces[8:]
    assert _on(tech) == [branches + 1] and np.isclose(tech[branches + 1], 2 / 5)  # the thief is seat 1
    hand_sizes = [len(view["hands"][seat]), view["hands"][thief], view["hands"][0]]
    assert np.allclose(holdings[0::4], np.array(hand_sizes) / 10)
    assert np.isclose(holdings[4 + 1], 1 / 10)  # the thief's Overcharge
    assert np.allclose(holdings[2::4], [len(view["objectives"][seat]) / 2, view["objectives"][thief] / 2, 1])
    assert np.allclose(decks, [view["deck"] / sum(copies), view["objective_deck"] / objectives])
    assert _on(discard) == [5] and np.isclose(discard[5], 1 / copies[5])
    assert np.allclose(beacon_deck, np.array(view["beacon_deck"]) / [model.count for _, model in c.beacons])
    assert _on(kept) == [2 + 1] and np.isclose(kept[3], 2 / 3)  # salvage: the most a card keeps is 3
    assert _on(held_artifacts) == [4]
    assert _on(tallies) == [8] and np.isclose(tallies[8], 1 / 3)  # an objective asks for 3 fighters at most
    assert _on(fleet_ships) == [2 * 1, 2 * (ships + 2) + 1] and fleet_ships[2 * (ships + 2) + 1] == 1  # due back
    assert _on(marks) == [1, ships + 2, 3 * ships] and marks.sum() == 3
    assert _on(effects) == [(9 + 1) * ships + 3] and effects.sum() == 1  # boost is the 2nd lasting effect
    assert _on(event) == [2 - 1, 6 + 0, 6 + n + 0] and event.sum() == 3  # Solar Storm, doubled
    assert view["to_act"] == [seat]
    assert _on(asking) == [0, n + 4, n + 15 + 2, n + 15 + ships + 9, n + 15 + ships + cards + 1]
    assert _on(roll) == [3, 6 + 1, 6 + n + 1] and roll.sum() == 3  # the event die, the thief's, ship 1
    assert _on(script) == [0, 2 + 0, 2 + n + 6] and script.sum() == 3
