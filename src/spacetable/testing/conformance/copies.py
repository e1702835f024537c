"""Checks that copies are faithful: JSON round trips and clones, records' replays, copies that share nothing."""

from __future__ import annotations

import json
import random
from contextlib import suppress

from spacetable.engine import JSON, Action, Game, IllegalActionError, Record, State, play

from .playouts import (
    Playout,
    RandomPlayer,
    Walk,
    _options_label,
    assert_json,
    deciders,
    located,
    random_move,
    seat_name,
)


def check_json_roundtrip_and_clone(game: Game, n: int = 20, seed: int = 0) -> None:
    """``to_json`` is JSON and round-trips; ``clone()`` is an independent copy that plays the same.

    At every step: ``state_from_json(json.loads(json.dumps(to_json())))`` has the same
    JSON, turn, legal actions and digest, and then plays the same as the original;
    an action applied to a clone leaves the original unchanged, and an action applied
    to the original leaves an earlier clone unchanged. ``state_from_json`` refuses
    data that is not a state with ``ValueError``.
    """
    initial = game.new_initial_state().to_json()
    garbage: list[JSON] = [None, "garbage", 7, [], {}]
    if isinstance(initial, dict) and initial:
        garbage.append({k: v for k, v in list(initial.items())[1:]})  # one key missing
    for data in garbage:
        try:
            game.state_from_json(data)
        except ValueError:
            pass
        else:
            raise AssertionError(f"state_from_json({data!r:.100}) did not raise ValueError")

    previous: tuple[State, JSON] | None = None
    walk = Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            data = state.to_json()
            assert_json(data, "to_json()")
            if previous is not None and playout.moves:
                earlier, earlier_data = previous
                assert earlier.to_json() == earlier_data, (
                    f"applying {playout.moves[-1][1]!r} to the original changed a clone taken before it"
                )
            restored = game.state_from_json(json.loads(json.dumps(data)))
            assert restored.to_json() == data, "state_from_json(to_json()) has a different to_json()"
            assert restored.digest() == state.digest()
            clone = state.clone()
            assert clone.to_json() == data, "clone() has a different to_json()"
            for copy, name in ((restored, "the state from JSON"), (clone, "the clone")):
                assert copy.current_player() == state.current_player(), f"{name} has another current_player()"
                assert copy.awaiting() == state.awaiting(), f"{name} has another awaiting()"
                for decider in deciders(state):
                    assert copy.legal_actions(decider) == state.legal_actions(decider), (
                        f"{name} has other legal actions for {seat_name(decider)}"
                    )
            if not state.is_terminal():
                seat, action = random_move(clone, playout.side_rng)
                clone_events = clone.apply_action(action, seat)
                assert state.to_json() == data, f"applying {action!r} to a clone changed the original"
                restored_events = restored.apply_action(action, seat)
                assert restored.to_json() == clone.to_json(), (
                    f"after {action!r}, the state from JSON and the clone differ: they do not play the same"
                )
                assert restored_events == clone_events, f"{action!r} gave other events on the state from JSON"
            previous = (state.clone(), data)


def check_replay(game: Game, n: int = 20, seed: int = 0) -> None:
    """A recorded game, saved and loaded, replays through exactly the states it was played through.

    Also plays a few games with :func:`spacetable.engine.play` and random players
    (who choose on ``state.resample(seat, rng)``) and replays their records. Records
    replay through ``spacetable.load``, so the game must be registered under its id.
    """
    seats = [f"random {s}" for s in range(game.players)]
    for number in range(n):
        playout = Playout(game, seed, number)
        with located(playout.where):
            record = Record.start(game, seats)
            played = []
            for state in playout.states():
                played.append(state.to_json())
                if playout.moves:
                    record.add(game, *playout.moves[-1])
            record.finish(playout.state)
            text = record.dumps()
            loaded = Record.loads(text)
            assert loaded.to_json() == record.to_json(), "Record.loads(record.dumps()) is a different record"
            replayed = [s.to_json() for s in loaded.replay()]
            assert len(replayed) == len(played), f"the replay has {len(replayed)} states, the game had {len(played)}"
            for step, (a, b) in enumerate(zip(played, replayed)):
                assert a == b, f"after {step} actions the replayed state differs from the played one"

    for number in range(min(n, 5)):
        record = Record.start(game, seats)
        rng = random.Random(f"play:{seed}:{number}")
        with located(f"{_options_label(game)}, play() game {number} of seed {seed}"):
            final = play(game, [RandomPlayer() for _ in seats], rng, record=record)
            again = Record.loads(record.dumps()).final_state()
            assert again.to_json() == final.to_json(), "the replay of play()'s record ends elsewhere"


def _mutate_all(value: object) -> None:
    """Change, in place, every list and dict inside ``value`` (a list that refuses is left)."""
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if type(item) is list:
            stack.extend(item)
            item.append("mutated")
        elif type(item) is dict:
            stack.extend(item.values())
            item["mutated"] = True


def _try_mutate_actions(actions: list[Action]) -> None:
    with suppress(TypeError):
        actions.append(("mutated",))
    with suppress(TypeError):
        actions.reverse()
    with suppress(TypeError):
        actions.clear()


def check_clone_independence(game: Game, n: int = 5, seed: int = 0) -> None:
    """Clones and resamples share no mutable part with the state they came from, and neither do
    the values the state hands out.

    At every step: everything a clone or a resample returns (``legal_actions`` lists, ``view``
    dicts, ``to_json``) is mutated in place and the copy plays on; the state's own views,
    JSON and legal actions are mutated too (a legal-action list may refuse with TypeError).
    The original's JSON, views and legal actions must be unchanged.
    """
    seats: list[int | None] = [None, *range(game.players)]
    walk = Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            rng = playout.side_rng
            data = state.to_json()
            views = {s: state.view(s) for s in seats}
            legal = {d: list(state.legal_actions(d)) for d in deciders(state)}
            copies = [("clone()", state.clone())]
            copies += [(f"resample({s})", state.resample(s, rng)) for s in range(game.players)]
            for _name, copy in copies:
                for decider in deciders(copy):
                    _try_mutate_actions(copy.legal_actions(decider))
                for seat in seats:
                    _mutate_all(copy.view(seat))
                _mutate_all(copy.to_json())
            for decider in legal:
                _try_mutate_actions(state.legal_actions(decider))
            for seat in seats:
                _mutate_all(state.view(seat))
            _mutate_all(state.to_json())
            assert state.to_json() == data, "mutating what a copy (or the state) returned changed the state"
            for seat in seats:
                assert state.view(seat) == views[seat], f"mutating what a copy returned changed view({seat})"
            for decider, actions in legal.items():
                assert state.legal_actions(decider) == actions, (
                    f"mutating a legal-action list of a copy changed the legal actions of {seat_name(decider)}"
                )
            for name, copy in copies:
                if not copy.is_terminal():
                    try:
                        seat, action = random_move(copy, rng)
                    except (AssertionError, IllegalActionError):
                        continue  # a copy whose views were mutated may be in no state to play
                    with suppress(Exception):  # the copy's own parts were mutated; only the original matters
                        copy.apply_action(action, seat)
                assert state.to_json() == data, f"playing on {name} changed the state"
