"""A falling-skies position's value for bots: the chance of winning from it, judged at a glance.

The game is a race: research pips against the mother ship's descent and the
base's damage, while every die placed pushes the ships in its column towards
the city. Winning lines dig deep early (the research rooms that take several dice
lie in rows D and F, and the last research space needs 12 in one resolution),
research with those rooms, keep the sky clear enough to survive, and keep energy
for the final resolution. The value weighs, in that spirit (:data:`FEATURES`):

- research in pips still to go, and the pace they need over the rounds left;
- the rounds left, and what the mother ship's track still holds for the rounds
  ahead (bombardments, research and excavator set back);
- damage, counted with the bombardments still ahead, and the ships a die could
  bring into the city, more so when one more damage loses;
- energy (the first points worth most);
- excavation along the whole dig path, with extra for each step that opens a
  research room, more for the rooms that can make 12 (:class:`BoardProfile`);
- robots, worth more on research rooms;
- readiness for the last research space: whether a room that can pay it is open,
  and the chance that next round's dice with the robots already standing make its
  value there without the ships they move destroying the base first.

A logistic model turns them into a chance of winning: :data:`WEIGHTS` are fitted to
the planner's own games by ``tools/fit_falling_skies_value.py`` (the shapes inside
the features, such as the worth of each energy point or dig step, are hand-set).
The value is that chance scaled to (-WIN, WIN): a live position is always worth
more than a lost game and less than a won one, whatever the sky holds.

Dice already standing in rooms pay off only when their rooms resolve, so during
phases 1 and 2 the value is taken after resolving them on a copy with the rules'
own room effects: a bot that looks one placement ahead sees what it is for.
"""

from __future__ import annotations

import functools
import itertools
import math
import weakref
from dataclasses import dataclass

from spacetable.engine import Event

from ..content import ROBOT, Board, Room, step_back
from ..rules import placement, rooms
from ..rules.state import FallingSkiesState

WIN = 1000.0
DIG_STEP = 3.0
"""The worth of one excavated space of the dig path, whatever it opens (the room extras below
come on top)."""
RESEARCH_ROOM = 8.0
"""Extra for opening a research room, per space it has (several spaces: bigger sums)."""
FINAL_ROOM = 25.0
"""Extra for opening a research room that can pay the last research space."""
ENERGY = (8.0, 6.0, 5.0, 3.5, 2.0, 1.0, 0.5)
"""The worth of each energy in turn: the first pays for next round's research or dig."""


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
    track_ahead: tuple[tuple[int, int, int], ...]
    """track_ahead[m]: with the mother ship card covering m sky rows, what its track still holds
    before the skull: (bombardments, research spaces set back, excavator spaces set back)."""


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
        track_ahead=tuple(_track_ahead(b.track[row : b.skull_row - 1]) for row in range(b.skull_row + 1)),
    )


def _track_ahead(symbols: tuple[str, ...]) -> tuple[int, int, int]:
    return (
        symbols.count("dmg"),
        sum(step_back(symbol, "res") for symbol in symbols),
        sum(step_back(symbol, "exc") for symbol in symbols),
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
    """The value of a position whose dice are resolved (the end of a round, say): the fitted
    chance of winning from it, scaled to (-WIN, WIN), so a live position is always worth more
    than a loss and less than a win."""
    z = sum(w * f for w, f in zip(WEIGHTS.values(), features(state), strict=True))
    return WIN * math.tanh(z / 2)  # = WIN * (2 * chance - 1) for chance = 1 / (1 + e^-z)


NEW_ROBOT = 1.2
"""The worth of one pip of a robot not yet placed (about that of one on a research room)."""
WEIGHTS = {
    "bias": -0.590,
    "research pips to go / 10": -1.646,
    "research pips to go per round left / 10": -0.125,
    "rounds left / 10": 11.773,
    "damage": -0.469,
    "damage with the bombardments still ahead (at most one short of destruction)": -0.380,
    "with them, one more damage loses": -0.533,
    "with them, two more damage lose": -0.627,
    "ships a die could bring into the city (sum of chances)": -1.014,
    "the same, when one more damage loses": -0.534,
    "the same, when two more damage lose": 0.285,
    "energy's worth / 10": 0.282,
    "excavation's worth / 100": 2.468,
    "robots' worth, standing and still to place / 10": -0.456,
    "a room that can pay the last research space is open": -0.392,
    "on the last research space": 0.721,
    "on the last research space, no room open that can pay it": -1.055,
    "chance of making the last research space next round": 4.779,
    "research spaces the track still sets back / 2": -1.283,
    "excavator spaces the track still sets back / 2": -0.816,
    "red ships in play": -0.256,
}
"""What :func:`features` measures, in order, and its weight in the logistic model of the chance
of winning (fitted by ``tools/fit_falling_skies_value.py``)."""
FEATURES = tuple(WEIGHTS)


def features(state: FallingSkiesState) -> tuple[float, ...]:
    """The measures of a position its value weighs, in the order of :data:`WEIGHTS`."""
    b = state.board
    shape = profile(state)
    rounds_left = max(b.skull_row - state.mothership - 1, 1)
    research_left = shape.research_left[state.research]
    bombardments, research_back, dig_back = shape.track_ahead[state.mothership]
    facing = min(state.damage + bombardments, b.lose_at_damage - 1)
    last_but_one, last_but_two = facing == b.lose_at_damage - 1, facing == b.lose_at_damage - 2
    reach, mothership = shape.reach, state.mothership
    close = sum(reach[row or mothership] for row, _, _ in state.ships)
    robot_worth = shape.robot_worth
    robots = sum(pips * robot_worth[space] for space, (color, pips) in state.slots.items() if color == ROBOT)
    robots += NEW_ROBOT * sum(state.new_robots)
    last = state.research == len(b.research) - 1
    final_open = any(all(state.excavated(s) for s in room.spaces) for room in shape.final_rooms)
    reds = state.waiting[1] + sum(1 for ship in state.ships if ship[2])
    return (
        1.0,
        research_left / 10,
        research_left / rounds_left / 10,
        rounds_left / 10,
        float(state.damage),
        float(facing),
        float(last_but_one),
        float(last_but_two),
        close,
        close * last_but_one,
        close * last_but_two,
        _energy_value(state.energy) / 10,
        shape.dig_value[state.excavator] / 100,
        robots / 10,
        float(final_open),
        float(last),
        float(last and not final_open),
        _final_chance(state, shape) if last else 0.0,
        research_back / 2,
        dig_back / 2,
        float(reds),
    )


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
    dice on its free spaces with its robots make the value (energy to pay assumed kept) without
    the base falling first: a room is out while the ships its dice (each about an equal share of
    the value) would bring into the city are enough to destroy the base."""
    b = state.board
    last = b.research[-1]
    best = 0.0
    for room in shape.final_rooms:
        if not all(state.excavated(s) for s in room.spaces) or state.energy < room.cost:
            continue
        robots = {s: state.slots[s][1] for s in room.spaces if s in state.slots and state.slots[s][0] == ROBOT}
        free = [s for s in room.spaces if s not in robots]
        need = last - room.mod - sum(max(v - 1, 0) for v in robots.values())  # a robot wears a pip each round
        die = min(6, -(-need // len(free))) if free else 0
        columns = {b.column_of[s] for s in free}
        hits = sum(
            1 for row, col, _ in state.ships if col in columns and b.sky_rows + 1 - (row or state.mothership) <= die
        )
        if state.damage + hits < b.lose_at_damage:
            best = max(best, _sum_at_least(len(free), need))
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
