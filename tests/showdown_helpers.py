"""Set up showdown positions directly and play them with forced dice."""

from __future__ import annotations

from typing import Any, cast

import spacetable
from spacetable.engine import SIMULTANEOUS, Action, Event, Record, Roll
from spacetable.games.showdown import Showdown
from spacetable.games.showdown.content import CAPTAIN, COUNTERMEASURES
from spacetable.games.showdown.rules.actions import Board, Defend, Done, Draw, First, Pick, Teleport
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


def warning_position() -> tuple[dict[str, Any], int, str, str]:
    """A recorded three-captain game (default options), chance included, up to Malcolm's choice of
    who meets Leela's boarding Pilot: sending his Captain (rating 1 against 3) puts him out 69% of
    the time and is warned of (RULINGS.md 32); his Cryo-Crew is safe. Every seat installs the last
    card of its hand it can (a hand is in card order, crew after engines and weapons), Leela's first
    hand holding a Pilot and Malcolm's a Cryo-Crew. Returns (the record's JSON, Malcolm's seat, the
    warned move's label, the safe move's label)."""
    game = cast(Showdown, spacetable.load("showdown", 3))
    state = game.new_initial_state()
    record = Record.start(game, game.seat_names())
    leela, malcolm = 0, 1

    def play(action: Action, seat: int | None) -> None:
        state.apply_action(action, seat)
        record.add(game, seat, action)

    firsts = ["pilot", "weapon", "weapon", "engine", "engine", "engine", "cryo", "engine", "engine", "weapon"]
    rest = [kind for kind, n in game.content.deck.items() for _ in range(n)]
    for kind in firsts:
        rest.remove(kind)
    deals = firsts[:6] + firsts[6:] + rest
    while state.phase != "first":
        if state.is_chance_node():
            play(Draw(deals.pop(0)), None)
            continue
        for seat in state.awaiting():
            picks = state.legal_actions(seat)
            installs = [a for a in picks if isinstance(a, Pick) and a.use == "play" and not a.replace]
            play(installs[-1] if installs else picks[0], seat)
    play(First(leela), None)
    play(Teleport(malcolm, "pilot"), leela)
    while state.current_player() != malcolm or not isinstance(state.legal_actions(malcolm)[0], Defend):
        seat = state.current_player()
        play(Done() if seat == malcolm else Board("combat"), seat)
    warned, safe = Defend(CAPTAIN), Defend("cryo")
    assert state.action_warning(warned) and not state.action_warning(safe)
    return record.to_json(), malcolm, state.action_label(warned), state.action_label(safe)
