"""Playing a game to the end: the one loop every front end, bot and simulator shares.

Players never see the true state. Each decision they are handed
``state.resample(seat, rng)``, a state that agrees with what their seat may know
and has everything else re-dealt, so no player (bot or human front end) can
cheat by reading hidden information.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from .actions import Action
from .protocol import CHANCE, Event, Game, State
from .record import Record


class Player(Protocol):
    """Anything that sits in a seat: a bot, a terminal prompt, a web socket."""

    name: str

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """Pick one of ``state.legal_actions(seat)``; ``state`` is a resample for ``seat``."""
        ...


EventSink = Callable[[State, Sequence[Event]], None]


def decide(player: Player, state: State, seat: int, rng: random.Random) -> Action:
    """``player``'s action for ``seat``, chosen on a resample. The player gets a generator of its
    own, seeded from the driver's ``rng``: it never holds the generator that rolls the game's
    dice, so it cannot copy that one to foresee them."""
    own = random.Random(rng.getrandbits(64))
    return player.choose(state.resample(seat, own), seat, own)


def step(
    state: State,
    players: Sequence[Player],
    rng: random.Random,
    record: Record | None = None,
) -> list[Event]:
    """Take one decision (or one chance outcome) and apply it; return the events."""
    if state.current_player() == CHANCE:
        action = state.sample_chance(rng)
        if record is not None:
            record.add(state.game, None, action)
        return state.apply_action(action)
    chosen = [(seat, decide(players[seat], state, seat, rng)) for seat in state.awaiting()]
    events: list[Event] = []
    for seat, action in chosen:
        if record is not None:
            record.add(state.game, seat, action)
        events += state.apply_action(action, seat)
    return events


def play(
    game: Game,
    players: Sequence[Player],
    rng: random.Random,
    *,
    record: Record | None = None,
    on_events: EventSink | None = None,
    state: State | None = None,
) -> State:
    """Play from ``state`` (default: a new game) to the end; return the final state."""
    if len(players) != game.players:
        raise ValueError(f"{game.id} has {game.players} seats but {len(players)} players were given")
    state = game.new_initial_state() if state is None else state
    while not state.is_terminal():
        events = step(state, players, rng, record)
        if on_events is not None:
            on_events(state, events)
    if record is not None:
        record.finish(state)
    return state


def random_playout(
    state: State, rng: random.Random, max_actions: int, observe: Callable[[State], None] | None = None
) -> tuple[int, int]:
    """Play uniformly random legal actions (and sampled chance) until the end.

    Returns (actions applied, of which player decisions). ``observe`` is called with
    the state after each action. Raises RuntimeError if the game is not over after
    ``max_actions``.
    """
    actions = decisions = 0
    while not state.is_terminal():
        if actions >= max_actions:
            raise RuntimeError(f"{state.game.id}: no end after {max_actions} actions")
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
            decisions += 1
        actions += 1
        if observe is not None:
            observe(state)
    return actions, decisions
