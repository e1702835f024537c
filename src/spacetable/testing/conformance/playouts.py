"""The suite's tools: seeded playouts that say where they fail, JSON and action comparisons, a random player."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from spacetable.engine import CHANCE, Action, Event, Game, State


def assert_json(value: object, what: str) -> None:
    """Assert that ``value`` is plain JSON: dicts with str keys, lists, str, int, finite float, bool, None.

    Stricter than ``json.dumps`` on purpose: a tuple or an int key would come back
    from a JSON round trip as something that no longer compares equal.
    """
    stack: list[tuple[Any, str]] = [(value, what)]
    while stack:
        item, path = stack.pop()
        kind = type(item)
        if item is None or kind in (str, int, bool):
            continue
        if kind is float:
            assert math.isfinite(item), f"{path} is {item}, which JSON cannot hold"
        elif kind is list:
            stack.extend((x, f"{path}[{i}]") for i, x in enumerate(item))
        elif kind is dict:
            for key, x in item.items():
                assert type(key) is str, f"{path} has the key {key!r}: JSON object keys must be strings"
                stack.append((x, f"{path}[{key!r}]"))
        else:
            raise AssertionError(
                f"{path} holds a {kind.__name__} ({item!r:.80}); JSON is dict, list, str, int, float, bool or None"
            )


def same_action(a: object, b: object) -> bool:
    """Equal as actions: same family and same field values of the same types.

    Plain ``==`` is not enough: actions are tuples, and ``Roll(1) == (1, "roll") == Roll(True)``.
    """
    return (
        type(a) is type(b)
        and isinstance(a, tuple)
        and isinstance(b, tuple)
        and len(a) == len(b)
        and all(type(x) is type(y) and x == y for x, y in zip(a, b))
    )


def deciders(state: State) -> list[int | None]:
    """Who acts now: ``[None]`` at a chance node, else the awaited seats (``[]`` at the end)."""
    player = state.current_player()
    if player == CHANCE:
        return [None]
    return list(state.awaiting())


def random_move(state: State, rng: random.Random) -> tuple[int | None, Action]:
    """A sampled chance outcome (seat ``None``), or a random legal action of a random awaited seat."""
    if state.is_chance_node():
        return None, state.sample_chance(rng)
    seat = rng.choice(state.awaiting())
    actions = state.legal_actions(seat)
    assert actions, f"seat {seat} owes a decision but has no legal action"
    return seat, rng.choice(actions)


def seat_name(seat: int | None) -> str:
    return "chance" if seat is None else f"seat {seat}"


def _options_label(game: Game) -> str:
    changed = {k: v for k, v in game.options.items() if v != game.option_specs[k].default}
    return f"{game.id} {json.dumps(changed, default=repr)}" if changed else game.id


class Playout:
    """One seeded random playout of a game, that knows where it is for failure messages.

    ``for state in Playout(game, seed, number).states(): ...`` sees the state before
    every action and, last, the terminal state; it fails if the game runs past
    ``game.max_length`` actions.
    """

    def __init__(self, game: Game, seed: int, number: int) -> None:
        self.game = game
        self.seed = seed
        self.number = number
        self.rng = random.Random(f"playout:{seed}:{number}")
        self.side_rng = random.Random(f"side:{seed}:{number}")
        """For checks' own draws (resamples, probes), so they do not change the playout."""
        self.bound = game.bounded_length()
        self.state = game.new_initial_state()
        self.moves: list[tuple[int | None, Action]] = []
        self.events: list[Event] = []
        """The events of the last action."""

    def where(self) -> str:
        tail = "; ".join(f"{seat_name(s)}: {a!r}" for s, a in self.moves[-6:])
        return (
            f"{_options_label(self.game)}, playout {self.number} of seed {self.seed}, "
            f"after {len(self.moves)} actions" + (f" (last: {tail})" if tail else "")
        )

    def states(self) -> Iterator[State]:
        while True:
            yield self.state
            if self.state.is_terminal():
                return
            assert len(self.moves) < self.bound, f"the game is not over after game.max_length={self.bound} actions"
            seat, action = random_move(self.state, self.rng)
            self.events = self.state.apply_action(action, seat)
            self.moves.append((seat, action))


@contextmanager
def located(where: str | Callable[[], str]) -> Iterator[None]:
    """Add "at <where>" to any exception raised inside (a callable is evaluated only on failure)."""
    try:
        yield
    except Exception as exc:
        exc.add_note(f"at {where if isinstance(where, str) else where()}")
        raise


class Walk:
    """Every state of ``n`` playouts, as ``(playout, state)``; ``where()`` names the current one.

    Use as ``walk = Walk(...)``, then ``with located(walk.where): for playout, state in walk: ...``
    so that any failure in the loop body names the playout and the step.
    """

    def __init__(self, game: Game, n: int, seed: int) -> None:
        self.game, self.n, self.seed = game, n, seed
        self.current: Playout | None = None

    def where(self) -> str:
        return self.current.where() if self.current is not None else _options_label(self.game)

    def __iter__(self) -> Iterator[tuple[Playout, State]]:
        for number in range(self.n):
            self.current = Playout(self.game, self.seed, number)
            for state in self.current.states():
                yield self.current, state


def visible_to(events: list[Event], seat: int | None) -> list[Event]:
    return [e for e in events if e.visible_to(seat)]


class RandomPlayer:
    """A player that picks uniformly among its legal actions (for :func:`spacetable.engine.play`)."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions(seat))
