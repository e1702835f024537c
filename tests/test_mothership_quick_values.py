"""Mothership's quick values (``Game.quick_values``): what the greedy bot takes instead of playing a
move (one a black hole rolls against too), a control panel setting, a trade or a card play out is
the evaluation of the position that action reaches (a roll's faces averaged)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import spacetable
from render_helpers import decisions
from spacetable.agents import GreedyAgent
from spacetable.agents.greedy import expected_value
from spacetable.engine import play
from spacetable.games.mothership.modules import hazards, objectives
from spacetable.games.mothership.rules.board import ASTEROID
from spacetable.games.mothership.rules.targets import decode_target

VARIANTS = {
    "default": (4, {"round_limit": 8}),
    "teams": (4, {"round_limit": 8, "team_size": 2}),
    "victory points": (3, {"round_limit": 8, "mode": "victory_points"}),
    "extra planets": (2, {"round_limit": 8, "extra_planets": True}),
    "neutron stars": (4, {"round_limit": 8, "neutron_stars": True}),
    "every module": (
        4,
        {"round_limit": 8, "neutron_stars": True, "black_holes": True, "beacons": True, "exploration": True}
        | {"objectives": "hidden"},
    ),
    "global objectives, random events": (
        4,
        {"round_limit": 8, "objectives": "global", "exploration": True, "beacons": True, "random_event": True},
    ),
    "solo": (1, {"round_limit": 8}),
}


NONE_TOLD = {"solo"}
"""The solo challenge's guards (where its ships stand near the station) count: no value is told."""


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_quick_value_is_the_evaluation_after_the_action(variant: str) -> None:
    players, options = VARIANTS[variant]
    game = spacetable.load("mothership", players, options)
    rng = random.Random(11)
    checked = turns = asteroids = traded = 0
    kinds: Counter[str] = Counter()  # black hole moves, card plays
    for _ in range(2):
        state: Any = game.new_initial_state()
        for seat in decisions(state, rng):
            actions = state.legal_actions(seat)
            turns += state.to_json()["phase"] == "turn"
            quick = game.quick_values(state, seat, actions) or []
            told = [(action, value) for action, value in zip(actions, quick) if value is not None]
            rough = [(a, v) for a, v in told if a[-1] == "move" and state.board.terrain[a[1]] == ASTEROID]
            trades = [(a, v) for a, v in told if a[-1] in ("buy", "sell")]
            more = _black_hole_moves(state, seat, told)[:2] + [(a, v) for a, v in told if a[-1] == "play"][:2]
            for action, value in rng.sample(told, min(4, len(told))) + rough[:2] + trades + more:
                asteroids += (action, value) in rough
                traded += (action, value) in trades
                kinds[_kind(state, seat, action)] += (action, value) in more
                if value is not None:
                    child = state.clone()
                    child.apply_action(action, seat)
                    assert value == pytest.approx(expected_value(child, seat), abs=1e-9), action
                    checked += 1
    assert turns > 50
    if variant in NONE_TOLD:
        assert checked == 0
    else:
        assert checked > 200 and asteroids > 20 and traded > 5  # moves into asteroids, cards bought and sold
    if variant == "every module":
        assert kinds["black hole"] > 100 and kinds["black hole, mothership"] > 40 and kinds["play, window"] > 20, kinds


AT_ONCE = (
    *("wormhole", "panic_button", "gravity_manipulator"),  # relocating
    *("afterburner", "punch_it", "convoy", "deflector_shields", "ninja_rope"),  # lasting
    "prod",
)
"""The cards whose plays the quick values tell when they take effect at once."""


@pytest.mark.parametrize("variant", ["every module", "teams"])
def test_cards_taking_effect_at_once_are_told_as_played(variant: str) -> None:
    """With nobody else holding a card, no window to cancel it opens: the card takes effect at once.
    Along random games, the player on turn is dealt each card of ``AT_ONCE`` and the others' hands
    are emptied; its told plays (ships relocated: its own, teammates', rivals' pulled; lasting
    effects; Prod on engines and weapons) are checked against the played-out ones."""
    players, options = VARIANTS[variant]
    game = spacetable.load("mothership", players, options)
    cards = {card.key: index for index, card in enumerate(game.content.cards)}
    rng, pick = random.Random(5), random.Random(6)
    seen: Counter[str] = Counter()
    state: Any = game.new_initial_state()
    for seat in decisions(state, rng):
        if state.phase == "turn" and state.current_player() == state.turn == seat:
            probe = state.clone()
            probe.hands = [[] for _ in probe.hands]
            probe.hands[seat] = sorted(cards[key] for key in AT_ONCE)
            plays = [a for a in probe.legal_actions(seat) if a[-1] == "play"]
            told = [(a, v) for a, v in zip(plays, game.quick_values(probe, seat, plays) or []) if v is not None]
            for key in AT_ONCE:
                of_card = [(a, v) for a, v in told if a[0] == cards[key]]
                for action, value in pick.sample(of_card, min(2, len(of_card))):
                    child = probe.clone()
                    child.apply_action(action, seat)
                    assert value == pytest.approx(expected_value(child, seat), abs=1e-9), action
                    seen[_whose(probe, seat, key, action)] += 1
    assert seen["own"] > 50 and seen["rival"] > 5 and (variant != "teams" or seen["teammate"] > 20), seen
    assert min(seen[key] for key in AT_ONCE[3:-1]) > 5 and seen["prod 0"] > 5 and seen["prod 1"] > 5, seen
    assert not seen["prod 2"]  # on the shields, Prod takes shield points: played out


def _whose(state: Any, seat: int, key: str, play: Any) -> str:
    """Whose ship a relocating card moves, or the card (Prod: and the subsystem)."""
    if key == "prod":
        return f"prod {play[2]}"
    if key not in AT_ONCE[:3]:
        return key
    owner = decode_target(state, play[1])[1]
    return "own" if owner == seat else "teammate" if state.friendly(owner, seat) else "rival"


def _black_hole_moves(state: Any, seat: int, told: list[tuple[Any, float]]) -> list[tuple[Any, float]]:
    """The told moves after which a black hole rolls against the ship at once."""
    return [(a, v) for a, v in told if a[-1] == "move" and hazards.hole_at(state, seat, a[0], a[1]) >= 0]


def _kind(state: Any, seat: int, action: Any) -> str:
    """What a told action is, for the counts: a move a black hole rolls against (a fighter or bomber,
    or the mothership), a card played into the window to cancel it or taking effect at once."""
    if action[-1] == "move":
        if hazards.hole_at(state, seat, action[0], action[1]) < 0:
            return "move"
        return "black hole, mothership" if action[0] == 0 else "black hole"
    if action[-1] == "play":
        others = [s for s in range(state.game.fleets) if s != seat and not state.out[s]]
        return "play, window" if any(state.hands[s] for s in others) else "play"
    return str(action[-1])


@pytest.mark.parametrize("seed", [0, 3])
def test_quick_values_hold_along_a_greedy_game_with_every_module(seed: int) -> None:
    """The greedy games' own positions, every told value checked: among them positions where an
    objective's goal already holds (a turn's first decision, or another seat's objective re-dealt
    by the bot's resample), which any action completes: the told values count the completion.
    The second game's board has black holes beside neutron stars (a mothership's shields blocked
    there while the black hole rolls against it)."""
    players, options = VARIANTS["every module"]
    game = spacetable.load("mothership", players, {**options, "round_limit": 3})
    checked = due = blocked = 0

    class Checking(GreedyAgent):
        def choose(self, state: Any, seat: int, rng: random.Random) -> Any:
            nonlocal checked, due, blocked
            actions = state.legal_actions(seat)
            for action, value in zip(actions, game.quick_values(state, seat, actions) or []):
                if value is not None:
                    due += bool(objectives.completions(state))
                    if action[-1] == "move" and action[0] == 0:
                        hole = hazards.hole_at(state, seat, 0, action[1])
                        blocked += hole >= 0 and hazards.star_beside(state, hole)
                    child = state.clone()
                    child.apply_action(action, seat)
                    assert value == pytest.approx(expected_value(child, seat), abs=1e-9), action
                    checked += 1
            return super().choose(state, seat, rng)

    play(game, [Checking() for _ in range(players)], random.Random(seed))
    assert checked > 500 and due > 20 and (seed == 0 or blocked > 10), (checked, due, blocked)


def test_a_goal_read_by_direction_unless_it_holds_now() -> None:
    """``objectives.reads`` with comparisons: a fall of resources cannot make ``resources >= 12`` hold,
    so FALLING leaves it out; while it holds, any change could undo it before the check: all counted."""
    players, options = VARIANTS["every module"]
    game = spacetable.load("mothership", players, options)
    rng = random.Random(2)
    state: Any = game.new_initial_state()
    while state.is_chance_node() or state.to_json()["phase"] != "turn":
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else state.legal_actions(state.awaiting()[0])[0]
        )
    rich = next(i for i, (_, model) in enumerate(game.content.objectives) if list(model.goal) == ["resources >= 12"])
    seat = state.turn
    state.objectives[seat] = [rich]
    for resources, falls in ((0, frozenset()), (20, frozenset({"resources"}))):
        state.resources[seat] = resources
        assert objectives.reads(state, seat, objectives.FALLING) == falls
        assert objectives.reads(state, seat, objectives.RISING) == objectives.reads(state, seat) == {"resources"}
