"""The conformance suite: what every game must do to be driven through the engine protocol.

Each check is a plain function taking a built :class:`~spacetable.engine.Game`
and raising ``AssertionError`` (with the game, the playout and the last actions
in the message) when the game breaks the protocol. A game gets the whole suite
by being registered: ``tests/test_conformance.py`` runs every check on every
game in ``spacetable.list_games()``. ``run_all(game)`` runs them all.

Every check is deterministic: playout ``i`` of seed ``s`` always takes the same
actions, so a failure names the seed and playout that reproduce it.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from spacetable.engine import (
    CHANCE,
    JSON,
    SIMULTANEOUS,
    TERMINAL,
    Action,
    Event,
    Game,
    IllegalActionError,
    Record,
    SpacetableError,
    State,
    play,
    random_playout,
)

Check = Callable[..., None]
"""A check: ``check(game, n=..., seed=...)`` raises AssertionError naming what is wrong."""


# ---- helpers ---------------------------------------------------------------------
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


def _seat_name(seat: int | None) -> str:
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
        tail = "; ".join(f"{_seat_name(s)}: {a!r}" for s, a in self.moves[-6:])
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


class _Walk:
    """Every state of ``n`` playouts, as ``(playout, state)``; ``where()`` names the current one.

    Use as ``walk = _Walk(...)``, then ``with located(walk.where): for playout, state in walk: ...``
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


def _visible(events: list[Event], seat: int | None) -> list[Event]:
    return [e for e in events if e.visible_to(seat)]


# ---- the checks --------------------------------------------------------------------
def check_random_playouts(game: Game, n: int = 200, seed: int = 0) -> None:
    """Random playouts end within ``game.max_length``; whose turn it is stays consistent.

    At every step: ``current_player()`` is a seat, CHANCE, SIMULTANEOUS or TERMINAL;
    ``awaiting()``, ``is_terminal()`` and ``is_chance_node()`` agree with it; whoever
    acts has a legal action and every other seat gets ``[]``; events are Events
    addressed to real seats; seats deciding at once get the same result whatever
    the order of their answers.
    """
    assert isinstance(game.max_length, int) and game.max_length > 0, f"max_length={game.max_length!r}"
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            _check_turn(game, playout, state)


def _check_turn(game: Game, playout: Playout, state: State) -> None:
    players = game.players
    player = state.current_player()
    awaiting = state.awaiting()
    assert player in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= player < players, (
        f"current_player() is {player!r}: not a seat of {players}, CHANCE, SIMULTANEOUS or TERMINAL"
    )
    assert state.is_terminal() == (player == TERMINAL), "is_terminal() disagrees with current_player()"
    assert state.is_chance_node() == (player == CHANCE), "is_chance_node() disagrees with current_player()"
    if player >= 0:
        assert awaiting == (player,), f"awaiting() is {awaiting} but current_player() is {player}"
    elif player == SIMULTANEOUS:
        assert awaiting, "SIMULTANEOUS with nobody awaited"
        assert len(set(awaiting)) == len(awaiting) and all(0 <= s < players for s in awaiting), (
            f"awaiting() is {awaiting}"
        )
    else:
        assert awaiting == (), f"awaiting() is {awaiting} at a chance or terminal state"
    for decider in deciders(state):
        assert state.legal_actions(decider), f"{_seat_name(decider)} must act but has no legal action"
    for seat in range(players):
        if seat not in awaiting:
            assert state.legal_actions(seat) == [], f"seat {seat} owes no decision but has legal actions"
    if player == TERMINAL:
        assert state.legal_actions() == [], "a finished game has legal actions"
    if player == SIMULTANEOUS and len(awaiting) > 1:
        _check_answer_order(state, awaiting, playout.side_rng)
    for event in playout.events:
        assert isinstance(event, Event), f"apply_action returned {event!r}, not an Event"
        assert event.to is None or (isinstance(event.to, tuple) and all(0 <= s < players for s in event.to)), (
            f"event {event!r} is addressed to seats that do not exist"
        )


def _check_answer_order(state: State, awaiting: tuple[int, ...], rng: random.Random) -> None:
    """Seats deciding at once: the result must not depend on the order of their answers."""
    chosen = [(seat, rng.choice(state.legal_actions(seat))) for seat in awaiting]
    results = []
    for order in (chosen, chosen[::-1]):
        copy = state.clone()
        for seat, action in order:
            assert seat in copy.awaiting(), f"seat {seat} is no longer awaited after another seat answered"
            copy.apply_action(action, seat)
        results.append(copy.to_json())
    assert results[0] == results[1], f"answers {chosen} give another state when given in the reverse order"


def check_returns_and_outcome(game: Game, n: int = 20, seed: int = 0) -> None:
    """``returns()`` has one finite number per seat; ``outcome()`` is None until the end, then JSON."""
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for _, state in walk:
            returns = state.returns()
            assert len(returns) == game.players, f"returns() has {len(returns)} numbers for {game.players} seats"
            assert all(type(r) in (int, float) and math.isfinite(r) for r in returns), f"returns() is {returns!r}"
            outcome = state.outcome()
            if not state.is_terminal():
                assert outcome is None, f"outcome() is {outcome!r} before the end"
                continue
            assert outcome is not None, "outcome() is None at a terminal state"
            assert_json(outcome.to_json(), "outcome().to_json()")
            assert all(0 <= w < game.players for w in outcome.winners), f"winners {outcome.winners} are not seats"
            assert outcome.reason, "the outcome gives no reason"


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
    walk = _Walk(game, n, seed)
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
                        f"{name} has other legal actions for {_seat_name(decider)}"
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


def _malformed(game: Game, action: Action) -> list[object]:
    """Values that are not actions of ``game``, most of them built from the legal ``action``."""
    alien = ("garbage",)
    bad: list[object] = [
        None,
        "garbage",
        7,
        3.5,
        alien,
        [],
        tuple(action),  # equal values, but a plain tuple
        list(action),
        game.actions.to_json(action),  # the JSON form, not the action
        game.actions.encode(action),  # the code, not the action
    ]
    family: Any = type(action)
    values = list(action)
    for i, value in enumerate(values[:-1]):  # the last field is `kind`
        wrong: list[object] = [object(), [value]]  # an alien value; an unhashable one
        if type(value) is int:
            wrong.append(float(value))  # 4.0 is not 4
            if value in (0, 1):
                wrong.append(bool(value))
        elif type(value) is bool:
            wrong.append(int(value))  # 1 is not True
        elif type(value) is str:
            wrong.append(value + "\x00")
        for w in wrong:
            bad.append(family(*values[:i], w, *values[i + 1 :]))
    bad.append(family(*values[:-1], str(values[-1]) + "?"))  # an altered kind
    return bad


def _assert_refused(state: State, action: object, seat: int | None, what: str) -> None:
    before = state.to_json()
    try:
        state.apply_action(action, seat)  # type: ignore[arg-type]
    except IllegalActionError as exc:
        assert str(exc), f"{what} {action!r} was refused with an empty message"
    except Exception as exc:
        raise AssertionError(
            f"{what} {action!r} ({_seat_name(seat)}) raised {type(exc).__name__}: {exc}, not IllegalActionError"
        ) from exc
    else:
        raise AssertionError(f"{what} {action!r} ({_seat_name(seat)}) was accepted")
    assert state.to_json() == before, f"refusing {what} {action!r} changed the state"


def check_illegal_actions(game: Game, n: int = 10, seed: int = 0, probes: int = 4) -> None:
    """Illegal and malformed actions raise IllegalActionError and change nothing.

    At every step of ``n`` playouts: up to ``probes`` actions legal elsewhere in the
    game and up to ``probes`` decoded codes that are not legal here; values that are
    not actions (None, strings, numbers, plain tuples, JSON forms, codes, actions with
    a field outside its domain or of the wrong type); a legal action offered by a seat
    that owes no decision. At the end, every kind of action is refused.
    """
    seen: set[Action] = set()
    walk = _Walk(game, 5, seed + 1)
    with located(walk.where):
        for _, state in walk:
            for decider in deciders(state):
                seen.update(state.legal_actions(decider))
    pool = sorted(seen, key=game.actions.encode)
    assert pool, "no legal action in five playouts"
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            rng = playout.side_rng
            codes = [rng.randrange(game.actions.size) for _ in range(probes)]
            others = rng.sample(pool, min(probes, len(pool)))
            decoded = [game.actions.decode(c) for c in codes]
            player = state.current_player()
            if player == TERMINAL:
                for action in others + decoded + _malformed(game, rng.choice(pool)):
                    _assert_refused(state, action, None, "at the end, the action")
                continue
            decider = rng.choice(deciders(state))
            actions = state.legal_actions(decider)
            for action in others:
                if action not in actions:
                    _assert_refused(state, action, decider, "the action legal elsewhere")
            for action in decoded:
                if action not in actions:
                    _assert_refused(state, action, decider, "the decoded action")
            for action in _malformed(game, rng.choice(actions)):
                _assert_refused(state, action, decider, "the malformed action")
            for seat in range(game.players + 1):  # game.players: a seat that does not exist
                if seat not in state.awaiting():
                    what = f"for seat {seat}, who owes no decision, the action"
                    _assert_refused(state, rng.choice(actions), seat, what)
            if player == SIMULTANEOUS:
                _assert_refused(state, rng.choice(actions), None, "naming no seat at a simultaneous decision,")
            assert state.legal_actions(decider) == actions, "refused actions changed the legal actions"


def check_codec(game: Game, n: int = 20, seed: int = 0, sweep: int = 20_000) -> None:
    """The action codec and JSON form round-trip every action.

    Every legal action seen in ``n`` playouts encodes to a distinct integer in
    ``range(game.actions.size)`` that decodes back to it, and its JSON form, through
    ``json.dumps``/``loads``, parses back to it. Then every code (or ``sweep`` random
    codes of a larger space) decodes to an action that encodes back to the code.
    """
    space = game.actions
    assert isinstance(space.size, int) and space.size > 0, f"actions.size is {space.size!r}"
    seen: dict[Action, int] = {}
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for _, state in walk:
            for decider in deciders(state):
                for action in state.legal_actions(decider):
                    if action in seen:
                        continue
                    try:
                        code = space.encode(action)
                    except SpacetableError as exc:
                        raise AssertionError(f"the legal action {action!r} cannot be encoded: {exc}") from exc
                    assert type(code) is int and 0 <= code < space.size, f"{action!r} encodes to {code!r}"
                    back = space.decode(code)
                    assert same_action(back, action), f"{action!r} encodes to {code}, which decodes to {back!r}"
                    data = space.to_json(action)
                    assert_json(data, f"actions.to_json({action!r})")
                    parsed = space.from_json(json.loads(json.dumps(data)))
                    assert same_action(parsed, action), f"{action!r} goes to JSON as {data} and comes back {parsed!r}"
                    seen[action] = code
    assert len(set(seen.values())) == len(seen), "two legal actions share a code"
    rng = random.Random(f"codec:{seed}")
    codes = range(space.size) if space.size <= sweep else rng.sample(range(space.size), sweep)
    for code in codes:
        action = space.decode(code)
        assert space.encode(action) == code, f"code {code} decodes to {action!r}, which encodes to another code"
        assert same_action(space.from_json(json.loads(json.dumps(space.to_json(action)))), action), (
            f"code {code}: {action!r} does not survive its JSON form"
        )


def check_labels(game: Game, n: int = 10, seed: int = 0) -> None:
    """Whoever acts can tell the choices apart: the labels (``state.action_label``) of the legal
    actions, and of the chance outcomes, are non-empty and distinct (a menu of two equal lines,
    or a research adapter's action strings, would be ambiguous)."""
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for _, state in walk:
            for decider in deciders(state):
                labels: dict[str, Action] = {}
                for action in state.legal_actions(decider):
                    label = state.action_label(action)
                    assert isinstance(label, str) and label, f"{action!r} has the label {label!r}"
                    other = labels.setdefault(label, action)
                    assert other == action, f"{other!r} and {action!r} share the label {label!r}"


def check_chance(game: Game, n: int = 20, seed: int = 0) -> None:
    """At chance nodes the outcomes are the legal actions, with positive probabilities summing to 1.

    Elsewhere ``chance_outcomes()`` raises IllegalActionError.
    """
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            if not state.is_chance_node():
                try:
                    state.chance_outcomes()
                except IllegalActionError:
                    continue
                raise AssertionError("chance_outcomes() answered at a state that is not a chance node")
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node without outcomes"
            actions = [a for a, _ in outcomes]
            probabilities = [p for _, p in outcomes]
            assert all(type(p) in (int, float) and p > 0 and math.isfinite(p) for p in probabilities), (
                f"chance probabilities must be positive numbers: {outcomes}"
            )
            assert abs(math.fsum(probabilities) - 1) <= 1e-9, f"chance probabilities sum to {math.fsum(probabilities)}"
            assert len(set(actions)) == len(actions), f"an outcome is listed twice: {actions}"
            legal_now = state.legal_actions()
            assert len(legal_now) == len(actions) and set(legal_now) == set(actions), (
                f"chance outcomes {actions} are not the legal actions {legal_now}"
            )
            assert state.sample_chance(playout.side_rng) in actions


def check_views_and_resample(game: Game, n: int = 20, seed: int = 0, playout_every: int = 5) -> None:
    """Views are JSON; ``resample(seat, rng)`` is a valid, independent state in the same turn.

    At every step: ``view(seat)`` for every seat and ``view(None)`` are JSON; each
    seat's resample leaves the state unchanged, round-trips through JSON, has the
    same ``current_player()`` and, for a seat that must act, the same legal actions
    (so a bot choosing on the resample chooses a legal action), is independent of
    the state, and (every ``playout_every`` steps) plays on to an end.
    """
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            rng = playout.side_rng
            for seat in [None, *range(game.players)]:
                assert_json(state.view(seat), f"view({seat})")
            data = state.to_json()
            for seat in range(game.players):
                resampled = state.resample(seat, rng)
                assert state.to_json() == data, f"resample({seat}) changed the state"
                assert isinstance(resampled, State) and resampled is not state, f"resample({seat}) is not a new state"
                copy = resampled.to_json()
                assert game.state_from_json(json.loads(json.dumps(copy))).to_json() == copy, (
                    f"resample({seat}) does not round-trip through JSON"
                )
                assert resampled.current_player() == state.current_player(), f"resample({seat}) is another turn"
                if seat in state.awaiting():
                    assert resampled.legal_actions(seat) == state.legal_actions(seat), (
                        f"seat {seat} has other legal actions in its resample: a bot would choose illegal actions"
                    )
                if not resampled.is_terminal():
                    mover, action = random_move(resampled, rng)
                    resampled.apply_action(action, mover)
                    assert state.to_json() == data, f"playing on resample({seat}) changed the state"
                    if len(playout.moves) % playout_every == 0:
                        random_playout(resampled, rng, playout.bound)


def check_hidden_information(game: Game, n: int = 20, seed: int = 0, probes: int = 4) -> None:
    """What a seat may not know reaches it neither through its view nor through events.

    A game with ``hidden_information = False`` hides nothing: ``resample`` must give
    back the same state. Otherwise, at every step of ``n`` playouts and for every
    seat ``s``, with ``R = state.resample(s, rng)``:

    1. ``R.view(s) == state.view(s)``: the view is all the seat knows.
    2. ``R.view(None) == state.view(None)`` for ``resample`` by any seat: the
       spectator's view is public, and every seat knows what is public.
    3. For up to ``probes`` actions legal in both ``state`` and ``R``, applied to
       clones of each: the events visible to ``s`` are equal exactly when ``s``'s
       views after are equal. Events that differ while the views agree tell ``s``
       about what was re-dealt (a leak); views that differ while the events agree
       reveal something (a showdown) without telling the seat (announce reveals
       with an event).
    4. At chance nodes, for pairs of outcomes: if the events visible to ``s`` differ
       while ``s``'s view after is the same and another seat's view differs, the
       events tell ``s`` what only that other seat may see (a leak); if ``s``'s view
       differs while its events and the public view ``view(None)`` agree, ``s``
       learns something private in silence (a leaky view, or a missing private event).
    """
    seats: list[int | None] = [None, *range(game.players)]
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            rng = playout.side_rng
            if not game.hidden_information:
                data = state.to_json()
                for seat in range(game.players):
                    assert state.resample(seat, rng).to_json() == data, (
                        f"hidden_information is False, yet resample({seat}) re-dealt something"
                    )
                continue
            public = state.view(None)
            for seat in range(game.players):
                resampled = state.resample(seat, rng)
                assert resampled.view(seat) == state.view(seat), (
                    f"view({seat}) changes when resample({seat}) re-deals what it hides: it shows hidden information\n"
                    f"  view:            {state.view(seat)}\n  resample's view: {resampled.view(seat)}"
                )
                assert resampled.view(None) == public, (
                    f"view(None) changes when resample({seat}) re-deals what seat {seat} cannot see: the spectator "
                    f"sees what a seat may not\n  view: {public}\n  resample's view: {resampled.view(None)}"
                )
                _check_same_action(state, resampled, seat, rng, probes)
            if state.is_chance_node():
                _check_chance_pairs(state, seats, rng, probes)


def _check_same_action(state: State, resampled: State, seat: int, rng: random.Random, probes: int) -> None:
    for decider in deciders(state):
        theirs = set(resampled.legal_actions(decider))
        common = [a for a in state.legal_actions(decider) if a in theirs]
        for action in rng.sample(common, min(probes, len(common))):
            real, other = state.clone(), resampled.clone()
            seen_real = _visible(real.apply_action(action, decider), seat)
            seen_other = _visible(other.apply_action(action, decider), seat)
            view_real, view_other = real.view(seat), other.view(seat)
            if seen_real != seen_other and view_real == view_other:
                raise AssertionError(
                    f"after {action!r} by {_seat_name(decider)}, the events shown to seat {seat} depend on what "
                    f"its view hides (its views agree):\n  {seen_real}\n  {seen_other}"
                )
            if seen_real == seen_other and view_real != view_other:
                raise AssertionError(
                    f"after {action!r} by {_seat_name(decider)}, view({seat}) reveals something hidden "
                    f"before, but no event shown to seat {seat} does:\n  {view_real}\n  {view_other}"
                )


def _check_chance_pairs(state: State, seats: list[int | None], rng: random.Random, probes: int) -> None:
    outcomes = [a for a, _ in state.chance_outcomes()]
    pairs = [(a, b) for i, a in enumerate(outcomes) for b in outcomes[i + 1 :]]
    for first, second in rng.sample(pairs, min(probes, len(pairs))):
        one, two = state.clone(), state.clone()
        events_one, events_two = one.apply_action(first), two.apply_action(second)
        views_one = {s: one.view(s) for s in seats}
        views_two = {s: two.view(s) for s in seats}
        differs = [s for s in seats if views_one[s] != views_two[s]]
        for seat in seats:
            seen_one, seen_two = _visible(events_one, seat), _visible(events_two, seat)
            who = "the spectator" if seat is None else f"seat {seat}"
            if seen_one != seen_two and seat not in differs and differs:
                raise AssertionError(
                    f"chance outcomes {first!r} and {second!r} show {who} different events although its view is "
                    f"the same and only {', '.join(_seat_name(s) for s in differs)} may tell them apart:\n"
                    f"  {seen_one}\n  {seen_two}"
                )
            if seat is not None and seen_one == seen_two and seat in differs and None not in differs:
                raise AssertionError(
                    f"chance outcomes {first!r} and {second!r} give {who} different views, but neither an event "
                    f"shown to it nor the public view tells them apart:\n  {views_one[seat]}\n  {views_two[seat]}"
                )


# ---- trust at the edges ------------------------------------------------------------------
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
    walk = _Walk(game, n, seed)
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
                    f"mutating a legal-action list of a copy changed the legal actions of {_seat_name(decider)}"
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


def check_seat_strictness(game: Game, n: int = 3, seed: int = 0) -> None:
    """Seats are exact ints in ``range(players)``: ``True``, ``0.0``, ``"0"``, -1 and ``players``
    are refused by ``apply_action`` with IllegalActionError (state unchanged), and a seat that is
    not an int by ``legal_actions`` too."""
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            if state.is_terminal():
                continue
            decider, action = random_move(state, playout.side_rng)
            seat = 0 if decider is None else decider
            for bad in (float(seat), bool(seat), str(seat), -1, game.players):
                _assert_refused(state, action, bad, "with a seat that is not one,")  # type: ignore[arg-type]
            for bad in (float(seat), bool(seat), str(seat)):
                try:
                    state.legal_actions(bad)  # type: ignore[arg-type]
                except IllegalActionError:
                    continue
                raise AssertionError(f"legal_actions({bad!r}) answered: a seat is an exact int")


def _without_seat(view: JSON) -> JSON:
    return {k: v for k, v in view.items() if k != "seat"} if isinstance(view, dict) else view


def check_resample_redeals(game: Game, n: int = 5, seed: int = 0) -> None:
    """In a game with hidden information, ``resample`` re-deals: where the seats' views differ (one
    seat knows what another does not) in ``n`` playouts, some seat's resample differs from the
    true state (a resample that returns the true state hands every bot the hidden information)."""
    if not game.hidden_information or game.players == 1:
        return  # one seat: nothing is hidden from it but the future, which no state holds
    differs = asymmetric = 0
    walk = _Walk(game, n, seed)
    with located(walk.where):
        for playout, state in walk:
            data = state.to_json()
            views = [state.view(seat) for seat in range(game.players)]
            asymmetric += any(_without_seat(v) != _without_seat(views[0]) for v in views[1:])
            for seat in range(game.players):
                if state.resample(seat, playout.side_rng).to_json() != data:
                    differs += 1
    assert differs or not asymmetric, (
        f"hidden_information is True, yet in {n} playouts no resample differs from the true state: "
        "resample must re-deal what the seat cannot see"
    )


class RandomPlayer:
    """A player that picks uniformly among its legal actions (for :func:`spacetable.engine.play`)."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions(seat))


CHECKS: dict[str, Check] = {
    check.__name__: check
    for check in (
        check_random_playouts,
        check_returns_and_outcome,
        check_json_roundtrip_and_clone,
        check_replay,
        check_illegal_actions,
        check_codec,
        check_labels,
        check_chance,
        check_views_and_resample,
        check_hidden_information,
        check_clone_independence,
        check_seat_strictness,
        check_resample_redeals,
    )
}
"""Every check, by name, each run with its default sizes."""


def run_all(game: Game, **overrides: Any) -> None:
    """Run every check on ``game`` (keyword arguments such as ``seed`` go to every check)."""
    for check in CHECKS.values():
        check(game, **overrides)


__all__ = [
    "CHECKS",
    "Check",
    "Playout",
    "RandomPlayer",
    "assert_json",
    "check_chance",
    "check_clone_independence",
    "check_codec",
    "check_hidden_information",
    "check_illegal_actions",
    "check_json_roundtrip_and_clone",
    "check_labels",
    "check_random_playouts",
    "check_replay",
    "check_resample_redeals",
    "check_returns_and_outcome",
    "check_seat_strictness",
    "check_views_and_resample",
    "deciders",
    "located",
    "random_move",
    "same_action",
]
