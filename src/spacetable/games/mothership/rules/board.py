"""Chapter 1, set-up and board balance: the grid, layouts, and the seeded board generator.

The board is a square grid of ``size`` x ``size`` spaces, numbered ``row * size + column``.
Two spaces are adjacent when they touch by a side or a corner (eight neighbours), and
the distance between two spaces is the number of king steps between them (Chebyshev:
the larger of the row and column differences). See RULINGS.md.

A :class:`Board` is immutable: states share it. It comes from a layout (the example
boards of ``content/layouts.toml`` or a designer's own) or from :func:`generate`, which
keeps the rulebook's balance rules (:func:`balance_problems`).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from spacetable.engine import ContentError

from ..content import Content, LayoutModel

EMPTY, ASTEROID, PLANET = ".", "#", "P"
NEUTRON_STAR, BLACK_HOLE = "*", "@"
"""The expansion's hazards (options neutron_stars, black_holes): see :mod:`..modules.hazards`."""
EXTRA_PLANET = "+"
FLEET = "F"
"""A solo layout's mark: the corner the player's fleet starts in (opposite the colony station)."""
MAX_PLANETS = 7
MAX_EXTRA = 2


@cache
def neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For each space of a ``size`` x ``size`` board, its adjacent spaces (sides and corners)."""
    table = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        table.append(
            tuple(
                (r + dr) * size + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size
            )
        )
    return tuple(table)


def distance(size: int, a: int, b: int) -> int:
    """King steps between spaces ``a`` and ``b``."""
    return distance_table(size)[a][b]


@cache
def distance_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For each space, the king steps to every space of a ``size`` board (bots ask often)."""
    cells = [divmod(cell, size) for cell in range(size * size)]
    return tuple(tuple(max(abs(ar - br), abs(ac - bc)) for br, bc in cells) for ar, ac in cells)


@lru_cache(maxsize=4096)
def nearest_table(size: int, targets: tuple[int, ...]) -> tuple[int, ...]:
    """For each space of a ``size`` board, the king steps to the nearest of ``targets`` (spaces,
    at least one): what a bot asks of every ship for every position it weighs."""
    table = distance_table(size)
    return tuple(map(min, zip(*(table[t] for t in targets))))


@dataclass(frozen=True)
class Board:
    """The fixed part of a game's map: terrain, planets and where each seat's colony station stands."""

    name: str
    size: int
    terrain: str
    """One character per space: ``.`` empty, ``#`` asteroid, ``P`` planet, ``*`` neutron star, ``@`` black hole."""
    planets: tuple[int, ...]
    stations: tuple[int, ...]
    """The colony station space of each seat."""
    field: tuple[int, ...]
    """For each space, the id of its asteroid field (a connected group of asteroids), else -1."""
    planet_distance: tuple[tuple[int, ...], ...]
    """For each planet, the distance of every space to it (bots look it up often)."""
    fleet: int = -1
    """A solo layout's start of the player's fleet (ships are placed around it), else -1."""
    beacons: tuple[tuple[int, int], ...] = ()
    """Distress beacon tokens as set up (option beacons): (space, unit shown: 0 mothership,
    1 fighter, 2 bomber, or -1 locked)."""

    @property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        return neighbour_table(self.size)

    def distance(self, a: int, b: int) -> int:
        return distance_table(self.size)[a][b]

    @property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """``distances[a][b]``: king steps between spaces ``a`` and ``b``."""
        return distance_table(self.size)

    def within(self, centre: int, radius: int) -> list[int]:
        """Spaces at most ``radius`` king steps from ``centre`` (``centre`` itself excluded)."""
        r0, c0 = divmod(centre, self.size)
        return [
            r * self.size + c
            for r in range(max(0, r0 - radius), min(self.size, r0 + radius + 1))
            for c in range(max(0, c0 - radius), min(self.size, c0 + radius + 1))
            if (r, c) != (r0, c0)
        ]

    def formation_key(self, anchor: int, cell: int) -> tuple[float, ...]:
        """Orders spaces around ``anchor`` (a station or a fleet's corner) for placing ships:
        nearest the centre by king steps, then as the crow flies, then clockwise of the line from
        the anchor to the centre. The order is the same from every corner turned around the
        centre, so the standard formation favours nobody."""
        half = (self.size - 1) / 2
        sr, sc = divmod(anchor, self.size)
        r, c = divmod(cell, self.size)
        cross = (c - sc) * (half - sr) - (r - sr) * (half - sc)
        return (max(abs(r - half), abs(c - half)), (r - half) ** 2 + (c - half) ** 2, -cross, cell)

    def name_of(self, cell: int) -> str:
        """A space as a player reads it: column letter, row number (``C4``)."""
        r, c = divmod(cell, self.size)
        return f"{chr(ord('A') + c)}{r + 1}"


def build_board(
    name: str,
    size: int,
    terrain: Sequence[str],
    planets: Iterable[int],
    stations: Sequence[int],
    fleet: int = -1,
    beacons: tuple[tuple[int, int], ...] = (),
) -> Board:
    """A board from its terrain (planets marked), its planets in order, the stations by seat, and
    (solo) the fleet's corner and (option beacons) the beacon tokens."""
    text = "".join(terrain)
    planets = tuple(planets)
    table = distance_table(size)
    distances = tuple(table[p] for p in planets)  # a planet's row of the board's table
    return Board(name, size, text, planets, tuple(stations), _fields(size, text), distances, fleet, beacons)


def _fields(size: int, terrain: str) -> tuple[int, ...]:
    field = [-1] * (size * size)
    neighbours = neighbour_table(size)
    next_id = 0
    for start, mark in enumerate(terrain):
        if mark != ASTEROID or field[start] >= 0:
            continue
        field[start] = next_id
        todo = [start]
        while todo:
            cell = todo.pop()
            for n in neighbours[cell]:
                if terrain[n] == ASTEROID and field[n] < 0:
                    field[n] = next_id
                    todo.append(n)
        next_id += 1
    return tuple(field)


# ---- layouts ---------------------------------------------------------------


def parse_layout(name: str, layout: LayoutModel, extra_planets: bool, hazards: str = "") -> Board:
    """The board a layout draws; ContentError naming the layout for anything wrong with it.
    ``hazards``: the hazard marks kept (their modules are on); the others are empty space."""
    rows = layout.rows
    size = len(rows)
    where = f"layout {name!r}"
    if any(len(row) != size for row in rows):
        raise ContentError(f"{where}: a board is square; its {size} rows must each have {size} spaces")
    text = "".join(rows)
    solo = layout.players == 1
    marks = EMPTY + ASTEROID + PLANET + EXTRA_PLANET + NEUTRON_STAR + BLACK_HOLE + "123456" + (FLEET if solo else "")
    unknown = sorted(set(text) - set(marks))
    if unknown:
        fleet = ", F (solo: the fleet's corner)" if solo else ""
        raise ContentError(f"{where}: unknown marks {unknown}; use . # P + * @ and station numbers 1-6{fleet}")
    if solo and text.count(FLEET) != 1:
        raise ContentError(f"{where}: a solo layout marks its fleet's corner F exactly once")
    seats = [str(s + 1) for s in range(layout.players)]
    stations = []
    for mark in seats:
        if text.count(mark) != 1:
            raise ContentError(f"{where}: station {mark} must appear exactly once, not {text.count(mark)} times")
        stations.append(text.index(mark))
    strays = sorted({m for m in text if m.isdigit()} - set(seats))
    if strays:
        raise ContentError(f"{where}: stations {strays} are beyond its {layout.players} players")
    planets = [i for i, m in enumerate(text) if m == PLANET]
    extras = [i for i, m in enumerate(text) if m == EXTRA_PLANET]
    if not solo and (len(planets) != layout.players + 1 or len(planets) > MAX_PLANETS):
        raise ContentError(
            f"{where}: {len(planets)} planets (P); the rules want one more than players ({layout.players + 1}), "
            f"at most {MAX_PLANETS}"
        )
    if len(extras) > MAX_EXTRA:
        raise ContentError(f"{where}: {len(extras)} extra planets (+); at most {MAX_EXTRA}")
    if extra_planets:
        planets += extras
    kept = ASTEROID + hazards
    terrain = "".join(PLANET if i in planets else (m if m in kept else EMPTY) for i, m in enumerate(text))
    board = build_board(name, size, terrain, planets, stations, text.find(FLEET))
    crowded = crowded_stations(board)
    if crowded:
        raise ContentError(
            f"{where}: station(s) {crowded} need one free space all around (no edge, asteroid, planet or hazard)"
        )
    rough = [
        board.name_of(c)
        for c, m in enumerate(terrain)
        if m == BLACK_HOLE and any(terrain[n] == ASTEROID for n in board.neighbours[c])
    ]
    if rough:
        raise ContentError(
            f"{where}: black hole spaces {rough} touch asteroids; a black hole needs open space around it"
        )
    return board


def crowded_stations(board: Board) -> list[int]:
    """Seats (numbered from 1) whose colony station lacks one free space all around."""
    bad = []
    for seat, station in enumerate(board.stations):
        ring = board.neighbours[station]
        if len(ring) < 8 or any(board.terrain[n] != EMPTY or n in board.stations for n in ring):
            bad.append(seat + 1)
    return bad


# ---- balance ---------------------------------------------------------------


def first_turn_reach(board: Board, seat: int, radius: int, move: int) -> set[int]:
    """Spaces a ship of ``seat`` can stand on after its first move: placed within ``radius``
    of its station, then ``move`` steps over empty space (asteroids avoided)."""
    station = board.stations[seat]
    start = [c for c in board.within(station, radius) if _open(board, c)]
    seen = dict.fromkeys(start, 0)
    todo = deque(start)
    while todo:
        cell = todo.popleft()
        if seen[cell] == move:
            continue
        for n in board.neighbours[cell]:
            if n not in seen and _open(board, n):
                seen[n] = seen[cell] + 1
                todo.append(n)
    return set(seen)


def _open(board: Board, cell: int) -> bool:
    return board.terrain[cell] == EMPTY and cell not in board.stations


def balance_problems(board: Board, content: Content) -> list[str]:
    """The rulebook's balance rules a board breaks (empty: a fair board).

    1. Every player can bring a fighter next to a planet on the first turn.
    2. One planet is contested: its distances to the stations differ by at most one,
       and it is nobody's home planet (strictly farther than home planets from every station).
    3. Nobody is walled in: the open space around every station is connected to every other's.
    """
    problems = []
    radius, move = content.placement_radius, content.fighter_move
    homes: set[int] = set()
    for seat in range(len(board.stations)):
        reach = first_turn_reach(board, seat, radius, move)
        near = [p for p in board.planets if any(n in reach for n in board.neighbours[p])]
        if not near:
            problems.append(f"player {seat + 1} reaches no planet on the first turn")
        homes.update(near)
    if not any(_contested(board, p) for p in board.planets):
        problems.append("no planet is at a fair distance from every station")
    reach0 = _open_region(board, board.stations[0])
    walled = [s + 1 for s, st in enumerate(board.stations) if not any(n in reach0 for n in board.neighbours[st])]
    if walled:
        problems.append(f"player(s) {walled} are walled in")
    return problems


def _contested(board: Board, planet: int) -> bool:
    gaps = [board.distance(planet, s) for s in board.stations]
    return max(gaps) - min(gaps) <= 1 and min(gaps) > 2


def _open_region(board: Board, station: int) -> set[int]:
    start = [n for n in board.neighbours[station] if _open(board, n)]
    seen = set(start)
    todo = list(start)
    while todo:
        cell = todo.pop()
        for n in board.neighbours[cell]:
            if n not in seen and _open(board, n):
                seen.add(n)
                todo.append(n)
    return seen


# ---- the generator ---------------------------------------------------------


def station_spaces(size: int, players: int) -> list[int]:
    """Where the colony stations stand on a generated board, clockwise from the top left:
    the corners first, then the middles of the top and bottom edges."""
    low, mid, high = 1, size // 2, size - 2
    spots = {
        2: [(low, low), (high, high)],
        3: [(low, low), (low, high), (high, mid)],
        4: [(low, low), (low, high), (high, high), (high, low)],
        5: [(low, low), (low, mid), (low, high), (high, high), (high, low)],
        6: [(low, low), (low, mid), (low, high), (high, high), (high, mid), (high, low)],
    }[players]
    return [r * size + c for r, c in spots]


def generate(seed: int, players: int, size: int, content: Content, extra_planets: bool) -> Board:
    """A fair random board for ``players``, the same for the same seed and content.

    Stations stand as :func:`station_spaces` says; each gets a home planet at the
    generator's home distance, nearer to it than to anyone else; the contested planet
    takes the centre; extra planets come as a pair mirrored through the centre, far from
    every station; asteroid fields are scattered, never touching a station's free ring.
    Boards that break :func:`balance_problems` are drawn again.
    """
    rng = random.Random(f"mothership-board:{seed}:{players}:{size}")
    gen = content.generator
    stations = station_spaces(size, players)
    centre = (size // 2) * size + size // 2
    for _ in range(gen.attempts):
        board = _draw(rng, players, size, content, stations, centre, extra_planets)
        if board is not None and not balance_problems(board, content):
            return board
    raise ContentError(
        f"the board generator found no fair {size}x{size} board for {players} players in {gen.attempts} tries; "
        "loosen [generator] in the content"
    )


def _draw(
    rng: random.Random, players: int, size: int, content: Content, stations: list[int], centre: int, extra: bool
) -> Board | None:
    gen = content.generator
    neighbours = neighbour_table(size)
    blocked = set(stations)
    for s in stations:
        blocked.update(neighbours[s])
    planets: list[int] = []
    low, high = gen.home_planet_distance
    for station in stations:
        choices = [
            c
            for c in range(size * size)
            if low <= distance(size, c, station) <= high
            and c not in blocked
            and all(distance(size, c, o) >= distance(size, c, station) + 2 for o in stations if o != station)
            and all(distance(size, c, p) >= 3 for p in planets)
            and distance(size, c, centre) >= 3
        ]
        if not choices:
            return None
        planets.append(rng.choice(choices))
    planets.append(centre)
    if extra:
        far = [c for c in range(size * size) if _fair_extra(size, c, stations, planets, blocked, high, centre)]
        pairs = [c for c in far if size * size - 1 - c in far and c < size * size - 1 - c]
        if not pairs:
            return None
        pick = rng.choice(pairs)
        planets += [pick, size * size - 1 - pick]
    taken = blocked | set(planets)
    for p in planets:
        taken.update(neighbours[p])  # keep planets reachable from every side
    area = (size * size) / (content.small_board**2)
    target = round(rng.randint(*gen.asteroid_tiles) * area)
    asteroids: set[int] = set()
    while len(asteroids) < target:
        free = [c for c in range(size * size) if c not in taken and c not in asteroids]
        if not free:
            break
        cell = rng.choice(free)
        field = [cell]
        for _ in range(rng.randint(*gen.field_size) - 1):
            grow = [n for f in field for n in neighbours[f] if n not in taken and n not in asteroids and n not in field]
            if not grow:
                break
            field.append(rng.choice(grow))
        asteroids.update(field)
    terrain = [PLANET if c in planets else ASTEROID if c in asteroids else EMPTY for c in range(size * size)]
    return build_board("generated", size, terrain, planets, stations)


def _fair_extra(
    size: int, c: int, stations: list[int], planets: list[int], blocked: set[int], home: int, centre: int
) -> bool:
    """An extra planet's space: free, farther than any home planet from every station, apart from planets."""
    return (
        c not in blocked
        and min(distance(size, c, s) for s in stations) > home
        and all(distance(size, c, p) >= 3 for p in planets)
        and distance(size, c, centre) >= 3
    )


def render_rows(board: Board) -> list[str]:
    """The board as layout rows (``.`` ``#`` ``P`` and station numbers), e.g. to save a generated board."""
    marks = list(board.terrain)
    for seat, station in enumerate(board.stations):
        marks[station] = str(seat + 1)
    return ["".join(marks[r * board.size : (r + 1) * board.size]) for r in range(board.size)]
