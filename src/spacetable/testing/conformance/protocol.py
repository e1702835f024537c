"""Checks of the protocol: turns, outcomes, chance, action labels and codes, and refused actions and seats."""

from __future__ import annotations

import json
import math
import random
from typing import Any

from spacetable.engine import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Action,
    Event,
    Game,
    IllegalActionError,
    SpacetableError,
    State,
)

from .playouts import Playout, Walk, assert_json, deciders, located, random_move, same_action, seat_name


def check_random_playouts(game: Game, n: int = 200, seed: int = 0) -> None:
    """Random playouts end within ``game.max_length``; whose turn it is stays consistent.

    At every step: ``current_player()`` is a seat, CHANCE, SIMULTANEOUS or TERMINAL;
    ``awaiting()``, ``is_terminal()`` and ``is_chance_node()`` agree with it; whoever
    acts has a legal action and every other seat gets ``[]``; events are Events
    addressed to real seats; seats deciding at once get the same result whatever
    the order of their answers.
    """
    assert isinstance(game.max_length, int) and game.max_length > 0, f"max_length={game.max_length!r}"
    walk = Walk(game, n, seed)
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
        assert state.legal_actions(decider), f"{seat_name(decider)} must act but has no legal action"
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
    walk = Walk(game, n, seed)
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
            f"{what} {action!r} ({seat_name(seat)}) raised {type(exc).__name__}: {exc}, not IllegalActionError"
        ) from exc
    else:
        raise AssertionError(f"{what} {action!r} ({seat_name(seat)}) was accepted")
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
    walk = Walk(game, 5, seed + 1)
    with located(walk.where):
        for _, state in walk:
            for decider in deciders(state):
                seen.update(state.legal_actions(decider))
    pool = sorted(seen, key=game.actions.encode)
    assert pool, "no legal action in five playouts"
    walk = Walk(game, n, seed)
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
    walk = Walk(game, n, seed)
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
    walk = Walk(game, n, seed)
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
    walk = Walk(game, n, seed)
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


def check_seat_strictness(game: Game, n: int = 3, seed: int = 0) -> None:
    """Seats are exact ints in ``range(players)``: ``True``, ``0.0``, ``"0"``, -1 and ``players``
    are refused by ``apply_action`` with IllegalActionError (state unchanged), and a seat that is
    not an int by ``legal_actions`` too."""
    walk = Walk(game, n, seed)
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
