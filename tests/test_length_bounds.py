"""Games' length bounds (``Game.max_length``, OpenSpiel's ``max_game_length``) against their
derivations: each part a bound multiplies (a battle, a move, a turn) is checked on random games
and on games of a player who seeks every fight (spacerace) or of the greedy bot (Mothership),
which run longer."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

import spacetable
from spacetable.agents import make_agent
from spacetable.engine import CHANCE, JSON, Action, State
from spacetable.games.mothership.actions import Move as MothershipMove
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.state import MothershipState
from spacetable.games.spacerace.actions import Contest, EndTurn, Move
from spacetable.games.spacerace.game import SpaceRace
from spacetable.games.spacerace.state import SpaceRaceState

Chooser = Callable[[SpaceRaceState, int, random.Random], Action]

SETUP_PHASES = ("starways", "order", "homeworld", "design")


def _random(state: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions(seat))


def _fighter(state: SpaceRaceState, seat: int, rng: random.Random) -> Action:
    """Moves onto other players' ships (else onto tiles and planets, else anywhere) and never
    flees or ends a turn while it may move: the longest turns the rules allow come from fights."""
    actions = state.legal_actions(seat)
    moves = [a for a in actions if isinstance(a, Move)]
    if not moves:
        fights = [a for a in actions if isinstance(a, Contest)]
        return fights[0] if fights else rng.choice(actions)
    enemies = {ship.node for other, fleet in enumerate(state.fleets) if other != seat for ship in fleet}
    marked = {node for node, mark in enumerate(state.tiles) if mark in ("S", "T")}
    for wanted in (enemies, marked | set(state.galaxy.planets) - {n for n, o in enumerate(state.owner) if o == seat}):
        chosen = [m for m in moves if m.to in wanted]
        if chosen:
            return rng.choice(chosen)
    return rng.choice([a for a in actions if not isinstance(a, EndTurn)] or actions)


def _spacerace_game(game: SpaceRace, seed: int, choose: Chooser) -> dict[str, int]:
    """Plays a game; returns the most actions seen in each part of :meth:`SpaceRace.length_parts`
    (``move battles`` is a move's battles, ``move rest`` its actions beyond 5 a battle and the move)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, SpaceRaceState)
    turns: Counter[tuple[int, int]] = Counter()
    seen = Counter[str]()
    move: list[int] = []  # [actions, battles] of the move in progress
    while not state.is_terminal():
        before_phase, key, moving = state.phase, (state.round, state.turn), state.moving
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
            events = state.apply_action(action)
        else:
            seat = state.awaiting()[0]
            action = choose(state, seat, rng)
            events = state.apply_action(action, seat)
        if before_phase in SETUP_PHASES:
            seen["setup"] += 1
            continue
        turns[key] += 1
        if isinstance(action, Move):
            move = [0, 0]
        if isinstance(action, Move) or moving >= 0:
            move[0] += 1
            move[1] += sum(1 for e in events if e.kind == "battle")
            seen["move"] = max(seen["move"], move[0])
            seen["move battles"] = max(seen["move battles"], move[1])
            seen["move rest"] = max(seen["move rest"], move[0] - 1 - game.length_parts().battle * move[1])
    seen["turn"] = max(turns.values())
    seen["turns"] = len(turns)
    seen["length"] = seen["setup"] + sum(turns.values())
    return seen


SPACERACE_TABLES: list[tuple[int, dict[str, JSON]]] = [
    (2, {}),
    (4, {"fleet_moves": "all", "map_initiative": "roll"}),
    (3, {"combat": "single", "conquest_roll": "always", "turn_limit": 20}),
]


@pytest.mark.parametrize(("players", "options"), SPACERACE_TABLES)
def test_spacerace_games_keep_within_each_part_of_the_bound(players: int, options: dict[str, JSON]) -> None:
    game = spacetable.load_finite("spacerace", players, options)
    assert isinstance(game, SpaceRace)
    parts = game.length_parts()
    c = game.content
    for seed, choose in enumerate([_random, _random, _fighter, _fighter, _fighter]):
        seen = _spacerace_game(game, seed, choose)
        assert seen["setup"] == parts.setup
        assert seen["turn"] <= parts.turn and seen["move"] <= parts.move
        assert seen["move battles"] <= c.fleet_limit + 1  # the ships there, then an [S] card's
        assert seen["move rest"] <= max(1, 1 + max(c.conquest_treasure)), "more than 5 actions a battle"
        assert seen["turns"] <= game.options["turn_limit"] * players
        assert seen["length"] <= game.bounded_length()


def test_the_fighter_plays_longer_turns_and_games_than_random_play() -> None:
    """The games that check the bound's parts reach further into it than random ones."""
    game = spacetable.load_finite("spacerace", 4, {"fleet_moves": "all"})
    assert isinstance(game, SpaceRace)
    fights = [_spacerace_game(game, seed, _fighter) for seed in range(3)]
    calm = [_spacerace_game(game, seed, _random) for seed in range(3)]
    assert sum(g["length"] for g in fights) > sum(g["length"] for g in calm)
    assert max(g["turn"] for g in fights) > max(g["turn"] for g in calm)
    assert max(g["move battles"] for g in fights) >= 2


def test_mothership_bound_holds_for_a_greedy_solo_challenge() -> None:
    """The greedy bot holds the solo challenge about twice as long as random play (whose games
    the OpenSpiel test checks); its game keeps within the bound too."""
    game = spacetable.load_finite("mothership", 1, {"mode": "solo"})
    bot, rng = make_agent("greedy"), random.Random(0)
    state = game.new_initial_state()
    length = 0
    while not state.is_terminal():
        assert length < game.bounded_length()
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            state.apply_action(bot.choose(state.clone(), seat, rng), seat)
        length += 1
    assert length > 200


Agent = Callable[[MothershipState, int, random.Random], Action]


def _mothership_game(game: Mothership, seed: int, choose: Agent) -> dict[str, int]:
    """Plays a game; returns its length, the most legs (moves) of one turn, the legs beyond
    :meth:`Mothership._turn_spaces` summed over the game, and the card actions by kind."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, MothershipState)
    legs: Counter[tuple[int, int]] = Counter()
    seen = Counter[str]()
    while not state.is_terminal():
        key = (state.round, state.turn)
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
            state.apply_action(action)
        else:
            seat = state.awaiting()[0]
            action = choose(state, seat, rng)
            state.apply_action(action, seat)
        seen["length"] += 1
        seen[type(action).__name__] += 1
        if isinstance(action, MothershipMove):
            legs[key] += 1
    spaces = sum(game._turn_spaces())
    seen["turn legs"] = max(legs.values(), default=0)
    seen["legs beyond"] = sum(max(0, n - spaces) for n in legs.values())
    return seen


def _greedy(state: MothershipState, seat: int, rng: random.Random) -> Action:
    return _GREEDY.choose(state.clone(), seat, rng)


_GREEDY = make_agent("greedy")

MOTHERSHIP_TABLES: list[tuple[int, dict[str, JSON]]] = [
    (2, {"round_limit": 15}),
    (1, {"mode": "solo", "round_limit": 15}),
    (3, {"round_limit": 10, "exploration": True, "random_event": True}),
]


@pytest.mark.parametrize(("players", "options"), MOTHERSHIP_TABLES)
def test_mothership_games_keep_within_each_part_of_the_bound(players: int, options: dict[str, JSON]) -> None:
    """No turn moves more legs than its engine spaces part allows (plus, over the whole game,
    the cards' boosts), no copy of an action card is drawn, bought or leaves a hand more than
    once, no more tiers, Overcharges and explorations are bought than a game's resources pay for,
    and no game passes the bound."""
    game = spacetable.load_finite("mothership", players, options)
    assert isinstance(game, Mothership)
    copies = sum(card.count for card in game.content.cards if card.module is None or card.module in game.modules)
    for seed, choose in enumerate([_random, _greedy]):
        seen = _mothership_game(game, seed, choose)
        assert seen["legs beyond"] * 5 <= game._card_length()
        assert seen["DrawCard"] <= copies and seen["Buy"] <= copies
        assert seen["Sell"] + seen["Play"] <= copies
        paid = seen["BuyTech"] + seen["BuyCharge"] + seen["Explore"] + seen["ReplaceObjective"]
        assert paid <= game._paid_length()
        assert seen["length"] <= game.bounded_length()
