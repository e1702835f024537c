"""What each seat is sent, built when it is sent from ``view(seat)`` and the events that seat may see.

Nothing here reads the full state for a client: the view, the board, the events and the actions
are the receiving seat's own (a spectator, ``seat=None``, gets ``view(None)`` and the public
events). The frames are the ones docs/WEB.md lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Event, Game, Record, State

from .storage import SeatInfo

if TYPE_CHECKING:
    from .requests import Created
    from .tables import Table

Frame = dict[str, Any]
CHECKPOINT = 32
"""A finished table keeps a copy of every CHECKPOINT-th position for its replays."""


def events_json(
    game: Game, events: Iterable[tuple[int, Event]], seat: int | None, after: int, upto: int | None = None
) -> list[Frame]:
    """The events numbered after ``after`` (and at most ``upto``) that ``seat`` may see, each with
    the rule that says what it does (``Game.rule_of``, or None)."""
    return [
        {"n": n, "kind": e.kind, "text": e.text, "rule": game.rule_of(e.kind)}
        for n, e in events
        if n > after and (upto is None or n <= upto) and e.visible_to(seat)
    ]


def own_actions(state: State, seat: int | None) -> list[Action]:
    """The actions ``seat`` may take now (none unless it owes a decision)."""
    return state.legal_actions(seat) if seat is not None and seat in state.awaiting() else []


def actions_json(game: Game, state: State, actions: list[Action]) -> list[Frame]:
    """``actions`` (the seat's own, from :func:`own_actions`) labelled, with their notes and parts."""
    return [
        {
            "i": i,
            "label": state.action_label(a),
            "note": state.action_note(a),
            "warning": state.action_warning(a),
            "action": game.actions.to_json(a),
            "parts": list(game.action_parts(a)),
        }
        for i, a in enumerate(actions)
    ]


def seats_json(seats: Sequence[SeatInfo]) -> list[Frame]:
    """The public part of the seats (never the token hashes); ``handed``: a bot plays a person's
    seat, which they may take back."""
    return [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name, "handed": s.handed} for s in seats]


def position(game: Game, state: State, seat: int | None) -> tuple[Any, str | None]:
    """``state`` as ``seat`` may know it: its view and the board drawn from that view alone."""
    view = state.view(seat)
    return view, game.board_svg(view, seat)


def welcome(table: Table, seat: int | None) -> Frame:
    game = table.game
    return {
        "type": "welcome",
        "table": table.id,
        "seat": seat,
        "game": {"id": game.id, "name": game.name, "players": game.players, "options": game.options},
        "seats": seats_json(table.seats),
        "names": game.seat_names(table.state.view(seat)),
        "glossary": game.glossary(),
    }


def seat_frame(
    game: Game,
    state: State,
    seat: int | None,
    events: Iterable[tuple[int, Event]],
    since: int,
    own: list[Action] | None = None,
    guided: bool = True,
) -> Frame:
    """``state`` as ``seat`` may know it, as the update frame and the lesson frame both show it:
    its view and board, the game's guide, ``own`` (default: the seat's legal actions now), who is
    to act, the events it may see numbered after ``since``, and the outcome with its words.
    ``guided=False`` guides the seat as one who watches (a bot plays it)."""
    view, svg = position(game, state, seat)
    own = own_actions(state, seat) if own is None else own
    outcome = state.outcome()
    return {
        "view": view,
        "svg": svg,
        "names": game.seat_names(view),
        "guide": game.guide(view, seat if guided else None, own),
        "actions": actions_json(game, state, own),
        "to_act": list(state.awaiting()),
        "events": events_json(game, events, seat, since),
        "outcome": None if outcome is None else outcome.to_json(),
        "ending": None if outcome is None else game.explain_outcome(view, outcome, seat),
    }


def update(table: Table, seat: int | None, since: int) -> Frame:
    """The table now as ``seat`` sees it, with the events it may see numbered after ``since``; a
    seat a bot plays for its person is offered no actions, and guided as one who watches."""
    handed = table.handed(seat)
    return {
        "type": "update",
        "n": table.n,
        **seat_frame(table.game, table.state, seat, table.events, since, [] if handed else None, not handed),
        "presence": table.presence(),
        "spectators": table.spectators(),
        "clock": table.clock_left(seat),
    }


def presence(table: Table) -> Frame:
    return {
        "type": "presence",
        "presence": table.presence(),
        "spectators": table.spectators(),
        "seats": seats_json(table.seats),
        "votes": {str(target): sorted(voters) for target, voters in table.votes.items() if voters},
    }


def refused(message_id: str | None, reason: str) -> Frame:
    return {"type": "refused", "id": message_id, "reason": reason}


def replay(table: Table, k: int, seat: int | None) -> Frame:
    """A finished game's position after ``k`` actions as ``seat`` saw it, with its events so far."""
    state = _position_after(table, k)
    view, svg = position(table.game, state, seat)
    return {
        "k": k,
        "total": table.n,
        "view": view,
        "svg": svg,
        "guide": table.game.guide(view, seat, own_actions(state, seat)),
        "events": events_json(table.game, table.events, seat, 0, k),
    }


def rematch(created: Created, seat: int | None) -> Frame:
    """The link of the rematch ``created``, as ``seat`` may follow it (its own seat's token)."""
    return {"type": "rematch", "table": created.table, "link": created.link(seat)}


def _position_after(table: Table, k: int) -> State:
    """The table's position after its first ``k`` actions, played on from the checkpoint before
    (``table.checkpoints``, made at the first replay)."""
    if table.checkpoints is None:
        state = table.game.new_initial_state()
        checkpoints = [state.clone()]
        for number, (seat, data) in enumerate(table.rows, start=1):
            state.apply_action(table.game.actions.from_json(data), seat)
            if number % CHECKPOINT == 0:
                checkpoints.append(state.clone())
        table.checkpoints = checkpoints
    state = table.checkpoints[k // CHECKPOINT].clone()
    for seat, data in table.rows[k - k % CHECKPOINT : k]:
        state.apply_action(table.game.actions.from_json(data), seat)
    return state


def record(table: Table) -> Record:
    """The table's record (``engine.Record``), with the final position's digest and outcome."""
    seats = [s.kind if s.kind == "human" else f"bot:{s.level}" for s in table.seats]
    game = table.game
    made = Record(game.id, game.version, game.players, dict(game.options), seats)
    made.actions = [(seat, data) for seat, data in table.rows]
    made.finish(table.state)
    return made
