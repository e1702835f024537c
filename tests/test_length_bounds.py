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
from mothership_helpers import CARDS, FIGHTER_1, MOTHERSHIP, cell, holding, mask, new_game, play, position, rolls
from spacetable.agents import make_agent
from spacetable.engine import CHANCE, JSON, Action, Event, State
from spacetable.games.mothership import length
from spacetable.games.mothership.content import CATEGORIES
from spacetable.games.mothership.content.language import parse_effect
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.length import ATTACK_ACTIONS, LEG_ACTIONS
from spacetable.games.mothership.modules import cannons, scripts
from spacetable.games.mothership.rules import movement
from spacetable.games.mothership.rules.actions import (
    Attack,
    Choose,
    DrawArtifact,
    DrawObjective,
    Explore,
    Play,
    ReplaceObjective,
    SetEnergy,
)
from spacetable.games.mothership.rules.actions import Move as MothershipMove
from spacetable.games.mothership.rules.cards import ROPE_SPACES
from spacetable.games.mothership.rules.state import MothershipState
from spacetable.games.mothership.rules.targets import cannon_code
from spacetable.games.spacerace.game import SpaceRace
from spacetable.games.spacerace.rules.actions import Contest, EndTurn, Move
from spacetable.games.spacerace.rules.state import SpaceRaceState

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
    played = 0
    while not state.is_terminal():
        assert played < game.bounded_length()
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            state.apply_action(bot.choose(state.clone(), seat, rng), seat)
        played += 1
    assert played > 200


Agent = Callable[[MothershipState, int, random.Random], Action]


def _mothership_game(game: Mothership, seed: int, choose: Agent) -> dict[str, int]:
    """Plays a game; returns its length, the most legs (moves) of one turn, the legs beyond
    :func:`.length.turn_spaces` summed over the game, and the card actions by kind."""
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
    spaces = sum(length.turn_spaces(game))
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
        assert seen["legs beyond"] * 5 <= length.card_length(game)
        assert seen["DrawCard"] <= copies and seen["Buy"] <= copies
        assert seen["Sell"] + seen["Play"] <= copies
        paid = seen["BuyTech"] + seen["BuyCharge"] + seen["Explore"] + seen["ReplaceObjective"]
        assert paid <= length.paid_length(game)
        assert seen["length"] <= game.bounded_length()


def _one_space_legs(state: MothershipState, ship: int, home: int) -> int:
    """Moves ``ship`` (seat 0's) one space at a time, out and back to ``home``, while it has two
    spaces left; returns the legs moved."""
    legs = 0
    while True:
        ways = movement.destinations(state, 0, ship)
        out = sorted(c for c, (cost, rough) in ways.items() if cost == 1 and not rough)
        budget = movement.engine_spaces(state, 0, ship) - state.used[ship]
        if budget < 2 or not out:
            return legs
        play(state, MothershipMove(ship, out[0]), MothershipMove(ship, home))
        legs += 2


def _mothership(game: object) -> Mothership:
    assert isinstance(game, Mothership)
    return game


def test_ninja_rope_moves_a_ship_beyond_its_turn_spaces_within_the_cards_part() -> None:
    """A fighter spends its engine spaces one leg each, attacks, and Ninja Rope gives it two
    more legs: more legs than the turn's engine spaces part, which the rope's copies cover."""
    state = holding(position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"}), 0, "ninja_rope")
    game = _mothership(state.game)
    spaces = movement.engine_spaces(state, 0, FIGHTER_1)  # its printed move: no tier, no card
    legs = _one_space_legs(state, FIGHTER_1, cell("C3"))
    play(state, Attack(1 << FIGHTER_1, 14), *rolls(1))  # the planet beside C3; it holds
    play(state, Play(CARDS["ninja_rope"], FIGHTER_1, 0))
    for _ in range(ROPE_SPACES):
        ways = movement.destinations(state, 0, FIGHTER_1)
        play(state, MothershipMove(FIGHTER_1, min(c for c, (cost, _) in ways.items() if cost == 1)))
        legs += 1
    assert not [a for a in state.legal_actions() if a.kind == "move" and a.ship == FIGHTER_1]
    assert spaces < legs <= spaces + ROPE_SPACES  # beyond its engine spaces: the old bound counted no rope
    # Each copy in the deck adds its legs to the bound, with its handling (drawn, bought, played
    # and answered by the other player, and its effect's part): a designer's count changes it.
    copies = 1 + sum(card.count for card in game.content.cards if card.key == "ninja_rope")
    more = new_game(2, content={"cards": {"ninja_rope": {"count": copies}}})
    handling = 2 + more.fleets + ATTACK_ACTIONS  # Railguns' ranged attack: the longest effect
    assert length.card_length(more) - length.card_length(game) == LEG_ACTIONS * ROPE_SPACES + handling


def test_jump_gates_jump_every_friendly_ship_within_the_turn_part() -> None:
    """With Jump Gates a player jumps its own ships and its teammates' (once each a turn): the
    turn's part counts a jump for every ship of the team, which the old bound did not."""
    ships = {(0, MOTHERSHIP): "F1", (0, FIGHTER_1): "C1", (2, FIGHTER_1): "I10", (1, FIGHTER_1): "F6"}
    ships[(3, FIGHTER_1)] = "D6"
    state = position(ships, game=new_game(4, team_size=2))
    branches = state.game.content.branches
    gates = next(i for i, b in enumerate(branches) if b.tiers[4].ability == "jump_gates")
    category = CATEGORIES.index(branches[gates].category)
    state.branches[0][category], state.tiers[0][category] = gates, 5  # its fifth tier reached
    state._legal_cache = None
    taken = 0
    start = state.turn
    while state.turn == start and not state.is_terminal():
        jumps = [a for a in state.legal_actions() if a.kind == "ability"]
        if not jumps:
            break
        play(state, jumps[0])
        taken += 1
    assert taken == 2  # seat 0's fighter and seat 2's (a teammate's), each once
    game = _mothership(state.game)
    without = _mothership(spacetable.load_finite("mothership", 4, {"team_size": 1}))
    assert length.turn_length(game, 0) - length.turn_length(without, 0) == game.content.ships  # the teammate's ships


ONE_ARTIFACT = {"artifacts": [{"name": "Lone Relic", "effect": "income", "amount": 1, "text": "+1 resource."}]}


def test_each_artifact_token_is_turned_over_once_a_game_within_the_artifacts_part() -> None:
    """An exploration is what starts it and its draw, once per token: with the token found, a
    held unexplored planet cannot be explored and an ``artifact`` reward asks nothing (it is
    discarded). The part is once a game (it was 2 per artifact every turn, even without
    exploration), and a designer's artifact count changes it."""
    game = new_game(content=ONE_ARTIFACT, exploration=True)
    state = position({(0, FIGHTER_1): "B4", (1, FIGHTER_1): "K11"}, game=game)
    state.owner[0] = state.owner[1] = 0  # D4 and F6
    state.resources = [9, 0]
    state._legal_cache = None
    play(state, Explore(0), DrawArtifact(0))
    assert length.artifact_length(game) == 2  # the two actions just played
    assert not [a for a in state.legal_actions() if isinstance(a, Explore)]
    events: list[Event] = []
    scripts.EFFECTS["artifact"](state, 0, FIGHTER_1, parse_effect("artifact"), events)
    assert state.choice is None and "it is discarded" in events[-1].text
    assert length.artifact_length(new_game(content=ONE_ARTIFACT)) == 0
    printed = spacetable.load_finite("mothership", 2, {"exploration": True})
    assert length.artifact_length(_mothership(printed)) == 2 * len(printed.content.artifacts)
    plain = _mothership(spacetable.load_finite("mothership", 2))
    moved = sum(length.turn_spaces(printed)) - sum(length.turn_spaces(plain))  # Gravity Sail, Star Chart
    assert length.turn_length(_mothership(printed), 0) - length.turn_length(plain, 0) == LEG_ACTIONS * moved


def test_a_rewarded_cannon_asks_one_choice_and_its_loot_is_counted() -> None:
    """A cannon reward asks its space (one choice); the cannon never moves or attacks, defends
    with one die inside an attack's part, and its loot, paid when it is destroyed, is a
    resource no fleet's unit gives: the rewards' part counts it for every cannon a group can
    deploy."""
    cannons_card = {
        "name": "T Cannons",
        "count": 1,
        "text": "Hold any resources (none counts).",
        "goal": ["resources >= 0"],
        "rewards": [["cannon", "cannon", "cannon", "cannon"], ["resources 1"]],
    }
    game = new_game(content={"objectives": {"t_cannons": cannons_card}}, exploration=True, objectives="hidden")
    keys = [key for key, _ in game.content.objectives]
    state = position({(0, MOTHERSHIP): "A1", (0, FIGHTER_1): "E4", (1, FIGHTER_1): "K11"}, game=game)
    state.objectives[0] = [keys.index("t_cannons")]
    state.objective_deck[keys.index("t_cannons")] -= 1
    state._legal_cache = None
    play(state, SetEnergy(4, 6, 5), Choose(0))  # completed at once, claimed: the first group
    asked = 0
    while state.choice is not None and state.choice["what"] == "cannon":
        play(state, Choose(state.choice["options"][0]))
        asked += 1
    assert asked == 4 and len(state.cannons[0]) == 4
    cannons.deploy(state, 1, cell("E5"), [])  # Player 2's, from a reward of its own
    state._legal_cache = None
    before = state.resources[0]
    attack = play(state, Attack(mask(FIGHTER_1), cannon_code(state, cell("E5"))))
    assert state.pending is not None and len(state.pending["dice"]) == 2  # the fighter's die, the cannon's
    attack += play(state, *rolls(6, 1))
    assert any("guardian cannon is destroyed" in e.text for e in attack)
    loot = game.content.loot_small
    assert state.resources[0] == before + loot
    cannon = loot + length.most_bonus(game, "loot")
    plain = new_game(exploration=True, objectives="hidden")
    copies = sum(m.count for _, m in game.content.objectives)
    assert length.expansion_resources(game) >= copies * 4 * cannon > length.expansion_resources(plain)


def test_tactician_is_claimed_twice_in_one_turn_within_the_objectives_part() -> None:
    """A copy can be claimed again in the turn it was claimed (the old part counted each copy
    once): Tactician's draw turns the deck over with Tactician back in it, the replacement
    draws it, and its goal (four action cards) still holds. The turn's draws and claims stay
    within :func:`.length.objective_turn`, whose claims the resources part counts too."""
    game = new_game(exploration=True, objectives="hidden")
    keys = [key for key, _ in game.content.objectives]
    tactician, chest = keys.index("tactician"), keys.index("war_chest")
    state = position({(0, MOTHERSHIP): "E4", (1, FIGHTER_1): "K11"}, game=game)
    state.hands[0] = sorted(CARDS[k] for k in ("afterburner", "afterburner", "ninja_rope", "punch_it"))
    state.objectives[0] = [tactician]
    state.objective_deck = [0] * len(keys)
    state.objective_deck[chest] = 1  # the rest dealt or held
    state.resources = [2, 0]
    state._legal_cache = None
    draws = claims = 0
    play(state, SetEnergy(4, 6, 5))  # Tactician completes
    for step in range(2):
        assert state.choice is not None and state.choice["what"] == "group"
        play(state, Choose(1))  # draw an objective, 1 resource
        claims += 1
        play(state, DrawObjective(chest))
        draws += 1
        if step == 0:
            assert state.objective_deck[tactician] == 1  # the deck turned over with Tactician in it
            play(state, ReplaceObjective(chest), DrawObjective(tactician))
            draws += 1
    assert state.objectives[0] == [chest] and state.turn == 0
    most_draws, most_claims = length.objective_turn(game)
    assert (draws, claims) == (3, 2) and draws <= most_draws and claims <= most_claims
    assert most_claims > sum(m.count for _, m in game.content.objectives)  # more claims than copies
