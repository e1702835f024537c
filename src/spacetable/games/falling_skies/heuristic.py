"""A falling-skies position's value for bots: what a good player weighs at a glance.

The game is a race: research pips against the mother ship's descent and the
base's damage, while every die placed pushes the ships in its column towards
the city. Winning lines dig deep early (the research rooms that take several dice
lie in rows D and F, and the last research space needs 12 in one resolution),
research with those rooms, keep the sky clear enough to survive, and keep energy
for the final resolution. The value counts, in that spirit:

- research in pips still to go, and the pace they need over the rounds left;
- the rounds left themselves (a ship on a mother ship icon costs a whole round);
- damage, and the price of the next point of damage times the ships a die could
  bring into the city next round;
- energy;
- excavation along the whole dig path, with extra for each step that opens a
  research room, more for the rooms that can make 12 (:class:`BoardProfile`);
- robots, worth more on research rooms;
- readiness for the last research space: the chance that next round's dice with
  the robots already standing make its value in an open room that can.

Dice already standing in rooms pay off only when their rooms resolve, so during
phases 1 and 2 the value is taken after resolving them on a copy with the rules'
own room effects: a bot that looks one placement ahead sees what it is for. The
weights are a hand-tuned default; the win rates they give are in the README.
"""

from __future__ import annotations

import functools
import itertools
import weakref
from dataclasses import dataclass

from spacetable.engine import Event

from . import placement, rooms
from .content import ROBOT, Board, Room
from .state import FallingSkiesState

WIN = 1000.0
DAMAGE = 25.0
"""The price of one damage, before the rising price of the last ones."""
ROUND = 6.0
"""The worth of one more round before the mother ship reaches the skull."""
DIG_STEP = 3.0
"""The worth of one excavated space of the dig path, whatever it opens. With the room extras
below, a 6 in round 1 digs to D2 rather than buying energy on B1 (the winning line)."""
RESEARCH_ROOM = 8.0
"""Extra for opening a research room, per space it has (several spaces: bigger sums)."""
FINAL_ROOM = 25.0
"""Extra for opening a research room that can pay the last research space."""
ENERGY = (8.0, 6.0, 5.0, 3.5, 2.0, 1.0, 0.5)
"""The worth of each energy in turn: the first pays for next round's research or dig."""
RESEARCH_PIP = 3.0
"""The worth of one research pip, whatever the rounds left."""
RESEARCH_PACE = 8.0
"""The worth of the research pips still to go per round left: the pace they need."""
FINAL_READY = 40.0
"""The worth of a sure last resolution, scaled by its chance."""


@dataclass(frozen=True)
class BoardProfile:
    """What the evaluation derives once per board: the worth of each excavator position and
    the rooms that matter for research."""

    dig_value: tuple[float, ...]
    """dig_value[i]: the worth of the excavator standing on dig_path[i]."""
    research_spaces: frozenset[str]
    """Spaces of research rooms (a robot there works for the research)."""
    final_spaces: frozenset[str]
    """Spaces of the rooms that can pay the last research space (a robot there counts most)."""
    final_rooms: tuple[Room, ...]
    """Research rooms whose largest value reaches the last research space."""
    research_left: tuple[int, ...]
    """research_left[i]: the pips still to go from research space i."""
    reach: tuple[float, ...]
    """reach[r]: the chance that one die moves a ship on sky row r into the city (a ship on its
    starting spot counts on the mother ship's row)."""
    robot_worth: dict[str, float]
    """The worth of one pip of a robot on each room space."""


_profiles: weakref.WeakKeyDictionary[object, BoardProfile] = weakref.WeakKeyDictionary()


def profile(state: FallingSkiesState) -> BoardProfile:
    """The board's profile, built once per game."""
    built = _profiles.get(state.game)
    if built is None:
        built = _profiles[state.game] = _build_profile(state.board)
    return built


def _build_profile(b: Board) -> BoardProfile:
    last = b.research[-1]
    research = [room for room in b.rooms if "research" in room.effects]
    final = tuple(room for room in research if 6 * len(room.spaces) + room.mod >= last)
    opened_at: dict[int, float] = {}
    for room in research:
        if all(s in b.open_at_start for s in room.spaces):
            continue
        index = max(b.dig_index.get(s, 0) for s in room.spaces)
        extra = RESEARCH_ROOM * len(room.spaces) + (FINAL_ROOM if room in final else 0.0)
        opened_at[index] = opened_at.get(index, 0.0) + extra
    values = list(itertools.accumulate(DIG_STEP + opened_at.get(i, 0.0) for i in range(len(b.dig_path))))
    research_spaces = frozenset(s for room in research for s in room.spaces)
    final_spaces = frozenset(s for room in final for s in room.spaces)
    return BoardProfile(
        dig_value=tuple(values),
        research_spaces=research_spaces,
        final_spaces=final_spaces,
        final_rooms=final,
        research_left=tuple(sum(b.research[i:]) for i in range(len(b.research) + 1)),
        reach=tuple(_reach_chance(b, row) for row in range(b.sky_rows + 1)),
        robot_worth={s: 2.5 if s in final_spaces else 1.2 if s in research_spaces else 0.5 for s in b.room_of},
    )


def evaluate(state: FallingSkiesState) -> float:
    if state.phase == "over":
        return WIN if state.result == "won" else -WIN
    if state.phase in ("place", "resolve") and any(color != ROBOT for color, _ in state.slots.values()):
        state = resolved_copy(state)
        if state.phase == "over":
            return WIN if state.result == "won" else -WIN
    return static_value(state)


def static_value(state: FallingSkiesState) -> float:
    """The value of a position whose dice are resolved (the end of a round, say)."""
    b = state.board
    shape = profile(state)
    rounds_left = max(b.skull_row - state.mothership - 1, 1)
    research_left = shape.research_left[state.research]
    value = -RESEARCH_PIP * research_left - RESEARCH_PACE * research_left / rounds_left + ROUND * rounds_left
    life = _life_cost(b, state.damage)
    value -= life
    reach, mothership = shape.reach, state.mothership
    value -= (_life_cost(b, state.damage + 1) - life) * sum(reach[row or mothership] for row, _, _ in state.ships)
    value += _energy_value(state.energy)
    value += shape.dig_value[state.excavator]
    robot_worth = shape.robot_worth
    for space, (color, pips) in state.slots.items():
        if color == ROBOT:
            value += pips * robot_worth[space]
    value += 1.2 * sum(state.new_robots)
    if state.research == len(b.research) - 1:
        value += FINAL_READY * _final_chance(state, shape)
    return value


def _life_cost(b: Board, damage: int) -> float:
    """What ``damage`` costs: a rising price as the base nears destruction, a loss at the end."""
    if damage >= b.lose_at_damage:
        return WIN
    return DAMAGE * damage + 150.0 / (b.lose_at_damage - damage)


def _reach_chance(b: Board, row: int) -> float:
    """The chance that one die moves a ship from sky row ``row`` into the city."""
    distance = b.sky_rows + 1 - row
    return max(0, 7 - distance) / 6


@functools.cache
def _energy_value(energy: int) -> float:
    """The worth of ``energy`` points (the first ones worth most)."""
    return sum(ENERGY[:energy]) + ENERGY[-1] * max(energy - len(ENERGY), 0)


def _final_chance(state: FallingSkiesState, shape: BoardProfile) -> float:
    """The best chance, over open rooms that can pay the last research space, that next round's
    dice on its free spaces with its robots make the value (energy to pay assumed kept)."""
    last = state.board.research[-1]
    best = 0.0
    for room in shape.final_rooms:
        if not all(state.excavated(s) for s in room.spaces) or state.energy < room.cost:
            continue
        robots = [state.slots[s][1] for s in room.spaces if s in state.slots and state.slots[s][0] == ROBOT]
        free = len(room.spaces) - len(robots)
        need = last - room.mod - sum(max(v - 1, 0) for v in robots)  # a pip less: a robot wears each round
        best = max(best, _sum_at_least(free, need))
    return best


@functools.cache
def _sum_at_least(dice: int, need: int) -> float:
    """The chance that ``dice`` six-sided dice sum to at least ``need``."""
    if need <= dice:
        return 1.0
    if need > 6 * dice:
        return 0.0
    hits = sum(1 for faces in itertools.product(range(1, 7), repeat=dice) if sum(faces) >= need)
    return hits * 6.0**-dice


def resolved_copy(state: FallingSkiesState) -> FallingSkiesState:
    """A copy with every digging die and every full room holding a die resolved, as a player would.

    Energy rooms first (they pay for the rest), then the dig, then research rooms from the
    largest value, then robots, then shoot rooms that hit a ship; each used when it can be
    paid for. The rules' own ``rooms.dig`` and ``rooms.work_room`` do the work. Robot-only rooms
    are valued where they stand, not worked here.
    """
    sim = state.clone()
    b = sim.board
    events: list[Event] = []  # the copy's log is shown to nobody
    with_dice = {b.room_of[s] for s, (color, _) in sim.slots.items() if color != ROBOT and s in b.room_of}
    if sim.phase == "place":
        _complete_rooms(sim, with_dice)
    full = [room for room in with_dice if rooms.is_full(sim, room)]
    for room in sorted((r for r in full if "energy" in r.effects), key=lambda r: r.id):
        rooms.work_room(sim, room, rooms.can_use(sim, room), "", events)
    for space in rooms.digging_dice(sim):
        rooms.dig(sim, space, rooms.can_dig(sim, space), events)
    rest = sorted(
        (r for r in full if "energy" not in r.effects),
        key=lambda r: (_resolution_rank(r), -rooms.room_value(sim, r), r.id),
    )
    for room in rest:
        use = rooms.can_use(sim, room) and ("shoot" not in room.effects or _hits(sim, room))
        rooms.work_room(sim, room, use, "", events)
        if sim.phase == "over":
            break
    return sim


def _complete_rooms(sim: FallingSkiesState, started: set[Room]) -> None:
    """While placing: fill the free spaces of rooms already started with the highest dice still
    unplaced, where their columns are free, so the first die of a room of several spaces shows
    what it is for. (The ships those dice would move are not moved.)"""
    pool = sorted((value for _, value in sim.unplaced), reverse=True)
    for room in sorted(started, key=lambda r: (_resolution_rank(r), r.id)):
        free = [s for s in room.spaces if s not in sim.slots]
        if not free or len(free) > len(pool) or not all(sim.excavated(s) and placement.placeable(sim, s) for s in free):
            continue
        for space in free:
            sim.slots[space] = ("black", pool.pop(0))
            sim.columns_used |= 1 << sim.board.column_of[space]


def _resolution_rank(room: Room) -> int:
    return 0 if "research" in room.effects else 1 if "robot" in room.effects else 2


def _hits(state: FallingSkiesState, room: Room) -> bool:
    value = rooms.room_value(state, room)
    explosion = state.board.explosion
    return any(row > 0 and 0 < explosion[row][col] <= value for row, col, _ in state.ships)
