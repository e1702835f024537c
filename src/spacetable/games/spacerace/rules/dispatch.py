"""The dispatch from the state's protocol to the rules chapters.

``setup`` (starways, the order of choice, homeworlds, designs), ``turns`` (rebuilding, moving, arriving), ``battle`` and
``planets`` (taking planets, treasure, the end of the race).

The rules import the state (module ``state``: plain data and the protocol), never the reverse:
the package's ``__init__`` hands this module to the state once both are loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event, Roll

from . import battle, planets, setup, turns
from .actions import (
    Assimilate,
    Contest,
    Design,
    Destroy,
    DrawShip,
    DrawTreasure,
    EndTurn,
    Flee,
    Homeworld,
    LayStarway,
    Move,
)
from .danger import warning
from .planets import standing
from .setup import chooser, free_planets, order_faces

if TYPE_CHECKING:
    from .state import SpaceRaceState

__all__ = ["apply", "chooser", "free_planets", "moves", "order_faces", "standing", "warning"]
"""What the state asks: these and, from set-up and the planets, who chooses now, the dice faces
of the order roll, the homeworlds still free and a seat's final standing; from the dangers, the
warning before a losing move."""

_END_TURN = EndTurn()


def moves(state: SpaceRaceState) -> list[Action]:
    """The player on turn's moves, and ending the turn."""
    seat = state.turn
    fleet = state.fleets[seat]
    stops = turns.enemy_nodes(state, seat)
    actions: list[Action] = []
    for i in turns.movable(state, seat):
        ship = fleet[i]
        actions += [Move(i, node) for node in turns.reachable(state, ship.node, ship.m, stops)]
    actions.append(_END_TURN)
    return actions


def apply(state: SpaceRaceState, action: Action, seat: int, events: list[Event]) -> None:
    """Carry out a legal action of ``seat`` (or chance's)."""
    kind = type(action)
    if kind is Move:
        turns.move(state, action[0], action[1], events)
    elif kind is Roll:
        _roll(state, action[0], events)
    elif kind is DrawTreasure:
        if planets.draw_treasure(state, action[0], events):
            turns.end_move(state, events)
    elif kind is DrawShip:
        turns.encounter(state, action[0], events)
    elif kind is EndTurn:
        events.append(Event("move", f"{state.player_name(seat)} ends the turn."))
        turns.end_turn(state, events)
    elif kind is Contest:
        battle.contest(state, events)
    elif kind is Flee:
        turns.after_battle(state, battle.flee(state, events), events)
    elif kind is Assimilate or kind is Destroy:
        turns.after_battle(state, battle.reward(state, kind is Assimilate, events), events)
    elif kind is LayStarway:
        setup.lay_starway(state, action[0], events)
    elif kind is Homeworld:
        setup.choose_homeworld(state, action[0], events)
    elif kind is Design:
        setup.design(state, (action[0], action[1], action[2]), events)


def _roll(state: SpaceRaceState, value: int, events: list[Event]) -> None:
    phase = state.phase
    if phase == "order":
        setup.order_roll(state, value, events)
    elif phase == "rebuild":
        turns.rebuild_roll(state, value, events)
    elif phase == "conquest":
        if planets.conquest_roll(state, value, events):
            turns.end_move(state, events)
    else:
        turns.after_battle(state, battle.die(state, value, events), events)
