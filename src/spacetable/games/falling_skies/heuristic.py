"""A falling-skies position's value for bots: what a player weighs at a glance.

The game is a race: research pips against the mother ship's descent and the
base's damage, while every die placed pushes the ships in its column towards
the city. The value counts research in pips (the sum of the spaces passed) and
the pace still needed, damage and the ships likely to reach the city next
round, energy, excavation, and working robots. Dice already standing in rooms
pay off only when their rooms resolve, so during phases 1 and 2 the value is
taken after resolving them on a copy with the rules' own room effects: a
one-ply bot then sees what a placement is for. The weights are a hand-tuned
default; the win rates they give are in the README.
"""

from __future__ import annotations

from spacetable.engine import Event

from . import rooms
from .content import ROBOT, Board
from .state import FallingSkiesState

WIN = 1000.0
DAMAGE = 15.0
"""The price of one damage; a ship likely to reach the city next round costs its share."""


def evaluate(state: FallingSkiesState) -> float:
    if state.phase == "over":
        return WIN if state.result == "won" else -WIN
    if state.phase in ("place", "resolve") and any(color != ROBOT for color, _ in state.slots.values()):
        state = _resolved_copy(state)
        if state.phase == "over":
            return WIN if state.result == "won" else -WIN
    return _static(state)


def _static(state: FallingSkiesState) -> float:
    b = state.board
    rounds_left = max(b.skull_row - state.mothership - 1, 1)
    research_left = sum(b.research[state.research :])
    value = -1.5 * research_left - 4.0 * research_left / rounds_left
    value -= DAMAGE * state.damage + 60.0 / (b.lose_at_damage - state.damage)
    value -= sum(_threat(b, row, state.mothership) for row, _, _ in state.ships)
    value += 1.5 * min(state.energy, 4) + 0.4 * state.energy
    value += 2.5 * state.excavator
    value += sum(1.0 * v for color, v in state.slots.values() if color == ROBOT) + sum(state.new_robots)
    return value


def _threat(b: Board, row: int, mothership: int) -> float:
    """Expected damage from a ship next round: the chance a die moves it into the city."""
    distance = b.sky_rows + 1 - (row or mothership)
    return DAMAGE * max(0, 7 - distance) / 6


def _resolved_copy(state: FallingSkiesState) -> FallingSkiesState:
    """A copy with every digging die and every full room holding a die resolved, when affordable.

    Dig first, then rooms from the cheapest, each used if it can be paid for; the rules'
    own ``rooms.dig`` and ``rooms.work_room`` do the work. Robot-only rooms are valued where
    they stand, not worked here.
    """
    sim = state.clone()
    b = sim.board
    events: list[Event] = []  # the copy's log is shown to nobody
    for space in rooms.digging_dice(sim):
        rooms.dig(sim, space, rooms.can_dig(sim, space), events)
    with_dice = {b.room_of[s] for s, (color, _) in sim.slots.items() if color != ROBOT and s in b.room_of}
    for room in sorted(with_dice, key=lambda r: (r.cost, r.id)):
        if rooms.is_full(sim, room):
            rooms.work_room(sim, room, rooms.can_use(sim, room), "", events)
            if sim.phase == "over":
                break
    return sim
