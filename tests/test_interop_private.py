"""Each seat's own private information is in its observation tensor, and in nobody else's.

Along seeded random games, at every kind of private outcome (a card dealt or drawn into a hand,
a blind steal, an objective dealt, a secret roll, a secret choice, a face-down card), the
outcome is changed (another chance outcome or choice applied to a copy of the state, or the
private item swapped in a copy as the rules allow it to be): its owners' tensors tell every
version apart, every other seat's tensor stays the same. Games with nothing hidden show it:
every seat sees the spectator's view, and no resample changes any tensor.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import pytest

import spacetable
from interop_helpers import GAME_IDS, load, random_states, random_step
from spacetable.engine import CHANCE, SIMULTANEOUS, Action, Game, State, game_class
from spacetable.games.mothership.modules.objectives import missing
from spacetable.games.mothership.rules.actions import DrawObjective
from spacetable.games.mothership.rules.state import MothershipState
from spacetable.games.showdown.content import COUNTERMEASURES
from spacetable.games.showdown.rules.state import ShowdownState

MOTHERSHIP_HIDDEN = {"round_limit": 10, "exploration": True, "beacons": True, "objectives": "hidden"}
"""A short Mothership with hidden objectives (and the modules most objective cards need)."""
CHECKS = 15
"""The most nodes of one kind a test checks (the first ones met), to keep it quick."""


def _tensors(state: State) -> list[bytes]:
    """Every seat's tensor, as bytes to compare."""
    game = state.game
    return [np.asarray(game.observation_tensor(state, seat), np.float64).tobytes() for seat in range(game.players)]


def _assert_private(versions: Sequence[State], owners: set[int], what: str) -> None:
    """``versions`` of one state differ only in what ``owners`` may see: each owner's tensor
    tells them all apart, every other seat's is the same in each."""
    tensors = [_tensors(state) for state in versions]
    for seat in range(versions[0].game.players):
        seen = len({mine[seat] for mine in tensors})
        if seat in owners:
            assert seen == len(versions), f"{what}: seat {seat}'s tensor misses its own outcome"
        else:
            assert seen == 1, f"{what}: seat {seat}'s tensor shows another seat's outcome"


def _applied(state: State, actions: Sequence[Action], seat: int | None = None) -> list[State]:
    """A copy of ``state`` after each of ``actions`` (chance's when ``seat`` is None)."""
    versions = []
    for action in actions:
        after = state.clone()
        if seat is None:
            after.apply_action(action)
        else:
            after.apply_action(action, seat)
        versions.append(after)
    return versions


def _walk(game: Game, seeds: range) -> Iterator[State]:
    """Every state of a random game per seed, in play (a caller copies before it changes one)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            yield state
            random_step(state, rng)


Rule = Callable[[State, list[Action]], "tuple[set[int], list[Action]] | None"]
"""Of a chance node and its outcomes: the seats that see which outcome comes and the outcomes to
compare (those that differ in what they show), or None to pass the node by."""


def _check_chance(game: Game, seeds: range, rules: dict[str, Rule]) -> Counter[str]:
    """At chance nodes whose outcomes are of a kind in ``rules``, every outcome the rule keeps
    (two or more): see :func:`_assert_private`. The number of nodes checked per kind."""
    checked: Counter[str] = Counter()
    for state in _walk(game, seeds):
        if state.current_player() != CHANCE:
            continue
        actions = [action for action, _ in state.chance_outcomes()]
        kind = actions[0].kind
        seen = rules[kind](state, actions) if kind in rules and checked[kind] < CHECKS else None
        if seen is not None and len(seen[1]) > 1:
            _assert_private(_applied(state, seen[1]), seen[0], f"{game.id} {kind}")
            checked[kind] += 1
    return checked


# ---- Mothership ---------------------------------------------------------------------------------


def _drawer(state: State, actions: list[Action]) -> tuple[set[int], list[Action]]:
    assert isinstance(state, MothershipState)
    return {state.draws[0]}, actions


def _thief_and_victim(state: State, actions: list[Action]) -> tuple[set[int], list[Action]]:
    assert isinstance(state, MothershipState)
    return set(state.steal), actions  # both see the card taken


def _replicator(state: State, actions: list[Action]) -> tuple[set[int], list[Action]] | None:
    """Replicator's secret d4 (other rolls are public)."""
    assert isinstance(state, MothershipState)
    pending = state.pending
    return ({pending["seat"]}, actions) if pending is not None and pending["what"] == "replicator" else None


def _objective(state: State, actions: list[Action]) -> tuple[set[int], list[Action]]:
    """A hidden objective is its player's; the face-up row's are everybody's. Only the cards that
    reach them count (a card needing a module not in play is discarded face up)."""
    assert isinstance(state, MothershipState)
    seat = state.objective_draws[0]
    dealt = [action for action in actions if isinstance(action, DrawObjective) and not missing(state, action.card)]
    return ({seat} if seat >= 0 else set(range(state.game.players))), dealt


def test_mothership_hands_steals_objectives_and_secret_rolls_are_their_owners_own() -> None:
    """An action card drawn (its drawer's), a blind steal (thief and victim), a hidden objective
    dealt (its player's) and Replicator's secret d4 (its roller's)."""
    game = spacetable.load("mothership", 3, MOTHERSHIP_HIDDEN)
    rules = {"draw_card": _drawer, "steal_card": _thief_and_victim, "roll": _replicator, "draw_objective": _objective}
    checked = _check_chance(game, range(12), rules)
    assert checked["draw_card"] == checked["draw_objective"] == CHECKS, checked
    assert checked["steal_card"] and checked["roll"], checked


def test_mothership_global_objectives_reach_every_seat() -> None:
    """The face-up row is no seat's own: a different card laid in it reaches every tensor."""
    game = spacetable.load("mothership", 3, {**MOTHERSHIP_HIDDEN, "objectives": "global"})
    assert _check_chance(game, range(1), {"draw_objective": _objective})["draw_objective"] == game.players


def _known_cards(state: MothershipState, observer: int, holder: int) -> list[MothershipState]:
    """Copies of ``state`` where ``observer`` knows ``holder`` holds one of its cards (as a blind
    steal by ``holder`` from ``observer`` leaves it), one copy per kind ``holder`` holds."""
    versions = []
    for card in sorted(set(state.hands[holder])):
        other = state.clone()
        other.known[observer][holder] = [card]
        versions.append(other)
    return versions


def test_mothership_cards_known_in_another_hand_are_the_knowers_own() -> None:
    """What a seat knows of another's hand (a card stolen from it) is in its tensor alone: the
    holder's hand, and so its tensor, stays the same whichever of its cards is known."""
    game = spacetable.load("mothership", 3, MOTHERSHIP_HIDDEN)
    checked = 0
    for state in _walk(game, range(1)):
        assert isinstance(state, MothershipState)
        if checked >= CHECKS:
            break
        for holder in range(game.players):
            if len(set(state.hands[holder])) > 1 and not state.is_chance_node():
                observer = (holder + 1) % game.players
                _assert_private(_known_cards(state, observer, holder), {observer}, "mothership known cards")
                checked += 1
    assert checked >= CHECKS


def _swapped_objective(state: MothershipState, seat: int, row: str) -> list[MothershipState]:
    """Copies of ``state`` with ``seat``'s first objective of ``row`` (``objectives`` held,
    ``completed``) swapped for each other card left in the deck that can be dealt."""
    first = getattr(state, row)[seat][0]
    versions = [state]
    for card, copies in enumerate(state.objective_deck):
        if copies and card != first and not missing(state, card):
            other = state.clone()
            held = getattr(other, row)[seat]
            held[held.index(first)] = card
            held.sort()
            other.objective_deck[card] -= 1
            other.objective_deck[first] += 1
            versions.append(other)
    return versions


@pytest.mark.parametrize("row", ["objectives", "completed"])
def test_mothership_objectives_held_and_completed_are_their_players_own(row: str) -> None:
    """A seat's hidden objective, held or completed and not yet claimed, swapped for another
    from the deck (as a resample of another seat may deal it): only that seat's tensor changes."""
    game = spacetable.load("mothership", 3, MOTHERSHIP_HIDDEN)
    checked = 0
    for state in _walk(game, range(10)):
        assert isinstance(state, MothershipState)
        if checked >= CHECKS:
            break
        if state.current_player() == CHANCE:
            continue
        for seat in range(game.players):
            versions = _swapped_objective(state, seat, row) if getattr(state, row)[seat] else []
            if len(versions) > 1:
                _assert_private(versions, {seat}, f"mothership {row}")
                checked += 1
    assert checked >= CHECKS


# ---- showdown -----------------------------------------------------------------------------------


def _first_to_deal(state: State, actions: list[Action]) -> tuple[set[int], list[Action]]:
    """The seat a card is dealt to: the first whose hand is not full."""
    assert isinstance(state, ShowdownState)
    size = state.content.rules.hand_size
    return {next(seat for seat, hand in enumerate(state.hands) if len(hand) < size)}, actions


def test_showdown_dealt_cards_are_their_players_own() -> None:
    checked = _check_chance(spacetable.load("showdown", 4), range(1), {"draw": _first_to_deal})
    assert checked["draw"] == CHECKS


def test_showdown_secret_picks_and_burns_are_their_players_own() -> None:
    """Where seats choose at once (the draft behind the screens, the burns of ships on fire),
    each choice of the first seat asked shows in its own tensor only."""
    game = spacetable.load("showdown", 4)
    checked: Counter[str] = Counter()
    for state in _walk(game, range(4)):
        if state.current_player() != SIMULTANEOUS or len(state.awaiting()) < 2:
            continue  # (the last seat's pick passes the hands on: then every seat sees a new one)
        phase = state.view(None)["phase"]
        first = state.awaiting()[0]
        actions = state.legal_actions(first)
        if len(actions) > 1 and checked[phase] < CHECKS:
            _assert_private(_applied(state, actions, first), {first}, f"showdown {phase}")
            checked[phase] += 1
    assert checked["draft"] == CHECKS and checked["fire"], checked


def _other_faces(state: ShowdownState, seat: int, slot: int) -> list[ShowdownState]:
    """Copies of ``state`` with ``seat``'s face-down countermeasure in ``slot`` turned into each
    countermeasure (the one it is included)."""
    versions = []
    for card in COUNTERMEASURES:
        other = state.clone()
        other.cms[seat][slot] = other.cms[seat][slot]._replace(card=card)
        versions.append(other)
    return versions


def test_showdown_face_down_countermeasures_are_their_owners_own() -> None:
    """Once the screens are down, a face-down countermeasure is any countermeasure to the other
    seats: only its owner's tensor shows which."""
    checked = 0
    for state in _walk(spacetable.load("showdown", 4), range(2)):
        assert isinstance(state, ShowdownState)
        if checked >= CHECKS:
            break
        if state.screened():
            continue
        for seat, slots in enumerate(state.cms):
            for index, slot in enumerate(slots):
                if not slot.known:
                    _assert_private(_other_faces(state, seat, index), {seat}, "showdown face-down countermeasure")
                    checked += 1
    assert checked >= CHECKS


# ---- games with nothing hidden ------------------------------------------------------------------

OPEN_IDS = [game_id for game_id in GAME_IDS if not game_class(game_id).hidden_information]


@pytest.mark.parametrize("game_id", OPEN_IDS)
def test_nothing_is_hidden_where_a_game_says_so(game_id: str) -> None:
    """Every seat's view is the spectator's, and a resample for any seat changes no seat's
    tensor, at every step of random games."""
    game = load(game_id)
    rng = random.Random(3)
    states = 0
    for seed in range(2):
        for state in random_states(game, seed):
            spectator = state.view(None)
            assert all(state.view(seat) == spectator for seat in range(game.players))
            tensors = _tensors(state)
            for seat in range(game.players):
                assert _tensors(state.resample(seat, rng)) == tensors, f"{game_id}: seat {seat}'s resample"
            states += 1
    assert states > 100
