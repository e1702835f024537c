"""Fuzzing the decoders: what comes from outside must be refused cleanly or played safely.

Each ``fuzz_*`` function takes one input (built by hypothesis in ``tests/test_fuzz.py``,
or by :func:`mutations` here) and returns normally when the decoder either refused it
with the project's own error (ValueError / SpacetableError, one readable sentence) or
accepted it and the result then plays on without any other exception. Anything else
(IndexError, TypeError, RecursionError, MemoryError, a hang bounded by ``steps``) is an
AssertionError naming the input. ``make fuzz`` runs the same targets with a long budget.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from spacetable.engine import (
    ContentError,
    Game,
    IllegalActionError,
    OptionsError,
    Record,
    RecordError,
    SpacetableError,
    State,
    load,
)
from spacetable.engine.protocol import JSON

MUTANT_INTS = (-(10**9), -5, -2, -1, 0, 1, 2, 3, 5, 9, 12, 99, 1000, 10**9)
"""Integers a mutation puts in a field: the edges of every range, and the absurd."""
MUTANT_VALUES: tuple[JSON, ...] = (None, True, False, 1.5, "x", "", [], {}, [0], [-1], {"x": 1})


def sample_states(game: Game, playouts: int, seed: int = 0, every: int = 7) -> list[State]:
    """States met in ``playouts`` random playouts (one in ``every``), for mutating."""
    rng = random.Random(f"fuzz-states:{seed}")
    found: list[State] = []
    bound = game.bounded_length()
    for _ in range(playouts):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < bound:
            if steps % every == 0:
                found.append(state.clone())
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                seat = state.awaiting()[0]
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
            steps += 1
        found.append(state)
    return found


def _paths(value: JSON, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def mutate(data: JSON, rng: random.Random) -> JSON:
    """``data`` with one value somewhere replaced, or one list item added or removed."""
    data = copy.deepcopy(data)
    paths = [p for p in _paths(data) if p]
    if not paths:
        return data
    path = rng.choice(paths)
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    target = parent[key]
    roll = rng.random()
    if isinstance(target, list) and roll < 0.3:
        if target and rng.random() < 0.5:
            target.pop(rng.randrange(len(target)))
        else:
            target.append(rng.choice(target) if target else rng.choice(MUTANT_INTS))
    elif isinstance(target, int) and not isinstance(target, bool) and roll < 0.8:
        parent[key] = rng.choice([*MUTANT_INTS, target + 1, target - 1])
    else:
        parent[key] = rng.choice(MUTANT_VALUES)
    return data


def play_on(state: State, rng: random.Random, steps: int) -> None:
    """Play ``steps`` random actions (views and labels asked on the way); only the project's
    own errors may come out of an action that the state listed as legal."""
    for _ in range(steps):
        if state.is_terminal():
            return
        for seat in [None, *range(state.game.players)]:
            state.view(seat)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = rng.choice(state.awaiting())
            action = rng.choice(state.legal_actions(seat))
            state.action_label(action)
            state.apply_action(action, seat)


def fuzz_state(game: Game, data: JSON, rng: random.Random, steps: int = 30) -> bool:
    """Load ``data`` as a state of ``game``; True if accepted. Accepted states must play on."""
    try:
        state = game.state_from_json(data)
    except ValueError as exc:
        assert str(exc).strip() and "\n" not in str(exc), f"an unreadable refusal: {exc!r}"
        return False
    try:
        play_on(state, rng, steps)
    except IllegalActionError as exc:
        raise AssertionError(f"a legal action was refused in an accepted state: {exc}") from exc
    except Exception as exc:
        raise AssertionError(
            f"state_from_json accepted {json.dumps(data)[:300]}… which then raised {type(exc).__name__}: {exc}"
        ) from exc
    return True


def fuzz_record_text(text: str | bytes) -> None:
    """``Record.loads`` and ``replay`` raise RecordError or work; nothing else."""
    try:
        record = Record.loads(text)
        for _ in record.replay():
            pass
    except (RecordError, OptionsError, ContentError):
        return


def fuzz_action(game: Game, state: State, data: JSON, seat: Any) -> bool:
    """An action's JSON form and a seat from outside: True if applied; a refusal
    (IllegalActionError, with words) leaves the state exactly as it was."""
    before = state.to_json()
    try:
        action = game.actions.from_json(data)
        state.apply_action(action, seat)
    except IllegalActionError as exc:
        assert str(exc), "an empty refusal"
        assert state.to_json() == before, f"refusing {json.dumps(data)[:200]} from seat {seat!r} changed the state"
        return False
    return True


def view_survives_resample(state: State, seat: int, rng: random.Random) -> bool:
    """True when ``seat``'s view is the same in a resample for it: a view that changed when
    only what the seat cannot know was re-dealt would be showing it (a leak)."""
    return bool(state.resample(seat, rng).view(seat) == state.view(seat))


def fuzz_content(game_id: str, players: int, content: JSON) -> None:
    """A content override: refused at load (OptionsError / ContentError) or playable."""
    try:
        game = load(game_id, players, {"content": content})
    except (OptionsError, ContentError, SpacetableError):
        return
    state = game.new_initial_state()
    play_on(state, random.Random(0), 200)


__all__ = [
    "fuzz_action",
    "fuzz_content",
    "fuzz_record_text",
    "fuzz_state",
    "mutate",
    "play_on",
    "sample_states",
    "view_survives_resample",
]
