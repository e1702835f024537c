"""Checks of hidden information: views, resamples, and what the events tell each seat."""

from __future__ import annotations

import json
import random

from spacetable.engine import JSON, Game, State, random_playout

from .playouts import Walk, assert_json, deciders, located, random_move, seat_name, visible_to


def check_views_and_resample(game: Game, n: int = 20, seed: int = 0, playout_every: int = 5) -> None:
    """Views are JSON; ``resample(seat, rng)`` is a valid, independent state in the same turn.

    At every step: ``view(seat)`` for every seat and ``view(None)`` are JSON; each
    seat's resample leaves the state unchanged, round-trips through JSON, has the
    same ``current_player()`` and, for a seat that must act, the same legal actions
    (so a bot choosing on the resample chooses a legal action), is independent of
    the state, and (every ``playout_every`` steps) plays on to an end.
    """
    walk = Walk(game, n, seed)
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
    walk = Walk(game, n, seed)
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
            seen_real = visible_to(real.apply_action(action, decider), seat)
            seen_other = visible_to(other.apply_action(action, decider), seat)
            view_real, view_other = real.view(seat), other.view(seat)
            if seen_real != seen_other and view_real == view_other:
                raise AssertionError(
                    f"after {action!r} by {seat_name(decider)}, the events shown to seat {seat} depend on what "
                    f"its view hides (its views agree):\n  {seen_real}\n  {seen_other}"
                )
            if seen_real == seen_other and view_real != view_other:
                raise AssertionError(
                    f"after {action!r} by {seat_name(decider)}, view({seat}) reveals something hidden "
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
            seen_one, seen_two = visible_to(events_one, seat), visible_to(events_two, seat)
            who = "the spectator" if seat is None else f"seat {seat}"
            if seen_one != seen_two and seat not in differs and differs:
                raise AssertionError(
                    f"chance outcomes {first!r} and {second!r} show {who} different events although its view is "
                    f"the same and only {', '.join(seat_name(s) for s in differs)} may tell them apart:\n"
                    f"  {seen_one}\n  {seen_two}"
                )
            if seat is not None and seen_one == seen_two and seat in differs and None not in differs:
                raise AssertionError(
                    f"chance outcomes {first!r} and {second!r} give {who} different views, but neither an event "
                    f"shown to it nor the public view tells them apart:\n  {views_one[seat]}\n  {views_two[seat]}"
                )


def _without_seat(view: JSON) -> JSON:
    return {k: v for k, v in view.items() if k != "seat"} if isinstance(view, dict) else view


def check_resample_redeals(game: Game, n: int = 5, seed: int = 0) -> None:
    """In a game with hidden information, ``resample`` re-deals: where the seats' views differ (one
    seat knows what another does not) in ``n`` playouts, some seat's resample differs from the
    true state (a resample that returns the true state hands every bot the hidden information)."""
    if not game.hidden_information or game.players == 1:
        return  # one seat: nothing is hidden from it but the future, which no state holds
    differs = asymmetric = 0
    walk = Walk(game, n, seed)
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
