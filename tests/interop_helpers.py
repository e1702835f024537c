"""What the interop tests share: every registered game, at a table that keeps random games short."""

from __future__ import annotations

import random

import spacetable
from spacetable.engine import CHANCE, JSON, Game, State, game_class
from spacetable.interop.sequential import decider

SHORTER: dict[str, dict[str, JSON]] = {"spacerace": {"turn_limit": 15}, "mothership": {"round_limit": 10}}
"""Options that keep random games of long games short (the same idea as test_conformance's)."""

GAME_IDS = [cls.id for cls in spacetable.list_games()]
MULTIPLAYER_IDS = [cls.id for cls in spacetable.list_games() if cls.max_players > 1]
SOLO_IDS = [cls.id for cls in spacetable.list_games() if cls.min_players == 1]


def table(game_id: str) -> tuple[int, dict[str, JSON]]:
    """The seats and options the interop tests play ``game_id`` with: its usual table, shortened."""
    return game_class(game_id).usual_players(), SHORTER.get(game_id, {})


def load(game_id: str) -> Game:
    """The game as the adapters load it: bounded by its ``finite_options`` where not shortened."""
    players, options = table(game_id)
    return spacetable.load_finite(game_id, players, options)


def random_step(state: State, rng: random.Random) -> None:
    """One random step as the adapters present it: chance, or the lowest awaited seat."""
    if state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    else:
        seat = decider(state)
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)


def random_states(game: Game, seed: int) -> list[State]:
    """Every state of one random game, the first and the last included."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        random_step(state, rng)
        states.append(state.clone())
    return states
