"""Set up showdown positions directly and play them with forced dice."""

from __future__ import annotations

from typing import Any

import spacetable
from spacetable.engine import SIMULTANEOUS, Action, Event, Roll
from spacetable.games.showdown.content import COUNTERMEASURES
from spacetable.games.showdown.rules.state import ShowdownState, Slot

NAMES = ["Kathryn", "Han", "Leela", "Malcolm", "Jean-Luc", "Ellen"]
"""Seat order = turn order (clockwise), as in the rulebook's example round."""


def new_game(players: int = 4, *, fire_round: int | None = None, **rules: Any) -> Any:
    """A game with the captains of ``NAMES``; ``rules`` lay content rules over, ``fire_round`` is
    the house rule's option."""
    content: dict[str, Any] = {"captains": [{"name": n, "color": "white"} for n in NAMES]}
    if rules:
        content["rules"] = rules
    return spacetable.load("showdown", players, {"content": content, "fire_round": fire_round})


def table(
    ships: list[dict[str, int]],
    *,
    cms: list[list[str]] | None = None,
    energy: list[int] | None = None,
    hull: list[int] | None = None,
    active: int = 0,
    game: Any = None,
) -> ShowdownState:
    """A showdown-phase position at the start of ``active``'s turn in round 1.

    ``ships``: each seat's upgrades (kind -> copies, countermeasures in ``cms``).
    """
    game = game or new_game(len(ships))
    state: ShowdownState = game.new_initial_state()
    n = game.players
    state.deck = {}
    state.hands = [[] for _ in range(n)]
    state.mats = [dict(m) for m in ships]
    next_id = 0
    state.cms = []
    for kinds in cms or [[] for _ in range(n)]:
        assert all(k in COUNTERMEASURES for k in kinds)
        state.cms.append([Slot(next_id + i, k) for i, k in enumerate(kinds)])
        next_id += len(kinds)
    state.next_id = next_id
    state.energy = list(energy) if energy else [1] * n
    state.intact = list(hull) if hull else [3] * n
    state.phase = "turn"
    state.round = 1
    state.first = 0
    state.active = active
    state.actions_left = 2
    return state


def apply(state: ShowdownState, *actions: Action) -> list[Event]:
    """Apply actions in order, each by whoever must act now (chance, the active seat or a reactor)."""
    events: list[Event] = []
    for action in actions:
        assert state.current_player() != SIMULTANEOUS, "name the seat: state.apply_action(action, seat)"
        events += state.apply_action(action)
    return events


def rolls(*values: int) -> list[Roll]:
    return [Roll(v) for v in values]


def texts(events: list[Event], seat: int | None = None) -> str:
    return "\n".join(e.text for e in events if e.visible_to(seat))
