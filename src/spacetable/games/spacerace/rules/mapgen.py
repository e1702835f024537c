"""Set-up steps 1-4: the shape of the galactic map, as a graph with positions for drawing.

The nexus sits in the centre; one planet per player surrounds it, each one step
from the nexus; each player's arm then grows outward, a starway and a planet at a
time, the same for every arm; the remaining planets hang off the nexus, each at
the end of a starway of its own. A starway is a chain of tiles between its two
ends. The shape depends only on the options, so it is built once per game
(:func:`build_galaxy`); which starway card lies where is drawn at set-up, a
chance node per starway, and lives in the state.

Nodes are numbered in the order the set-up lays them: the nexus (0), the inner
planets (arm by arm), then the arms' starways and planets layer by layer, then
the planets on the nexus. Starway tiles are numbered from the end nearer the nexus.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from ..content import numbered

NEXUS = 0
NEXUS_MARK = "N"
PLANET_MARK = "P"
UNLAID = "?"
"""A tile whose starway card is not drawn yet."""
UNREACHABLE = 10**6
"""The turns of a flight that cannot be made."""


@dataclass(frozen=True)
class Starway:
    """A starway: its two ends (nearer the nexus first) and its tiles, from the near end."""

    near: int
    far: int
    tiles: tuple[int, ...]


@dataclass(frozen=True)
class Galaxy:
    """The map's shape. Immutable; the tiles' contents are in the state."""

    marks: str
    """Per node: N the nexus, P a planet, ? a starway tile (its card not yet drawn)."""
    adjacency: tuple[tuple[int, ...], ...]
    positions: tuple[tuple[float, float], ...]
    """(x, y) of every node for drawing: the nexus at (0, 0), y up, one unit per step along an arm."""
    planets: tuple[int, ...]
    inner_planets: tuple[int, ...]
    """The planets next to the nexus, one per player (arm)."""
    starways: tuple[Starway, ...]
    """In the order the set-up lays them."""
    names: tuple[str, ...]
    """Per node: a planet's name, else ""."""
    starway_of: tuple[int, ...]
    """Per node: the index of the starway a tile belongs to, else -1."""
    distance: tuple[tuple[int, ...], ...]
    """Steps between any two nodes."""
    direct: tuple[tuple[int, ...], ...]
    """Steps between two nodes on paths that do not pass the Nexus (it may be either end); -1: none."""

    @property
    def size(self) -> int:
        return len(self.marks)

    def place(self, node: int) -> str:
        """A node in words: "the Nexus", a planet's name, or "Vega-Rigel tile 2"."""
        if node == NEXUS:
            return "the Nexus"
        if self.names[node]:
            return self.names[node]
        way = self.starways[self.starway_of[node]]
        return f"{self.end_name(way.near)}–{self.end_name(way.far)} tile {way.tiles.index(node) + 1}"

    def end_name(self, node: int) -> str:
        return "Nexus" if node == NEXUS else self.names[node]

    def travel_turns(self, start: int, goal: int, speed: int, delay: int) -> int:
        """Turns for a ship of M ``speed`` to fly from ``start`` to ``goal``: straight, or through
        the Nexus, where it stops and then waits ``delay`` turns (:data:`UNREACHABLE` if neither)."""
        direct = self.direct[start][goal]
        best = -(-direct // speed) if direct >= 0 else UNREACHABLE
        to_nexus, from_nexus = self.direct[start][NEXUS], self.direct[NEXUS][goal]
        if start != NEXUS and goal != NEXUS:
            best = min(best, -(-to_nexus // speed) + delay + -(-from_nexus // speed))
        return best


def build_galaxy(
    players: int, arm_planets: int, extra_planets: int, tiles: int, planet_names: tuple[str, ...]
) -> Galaxy:
    """The map for ``players`` arms of ``arm_planets`` planets each plus ``extra_planets`` on the nexus."""
    marks = [NEXUS_MARK]
    positions: list[tuple[float, float]] = [(0.0, 0.0)]
    edges: list[tuple[int, int]] = []
    starways: list[Starway] = []

    def add(mark: str, angle: float, radius: float) -> int:
        marks.append(mark)
        positions.append((round(radius * math.cos(angle), 3), round(radius * math.sin(angle), 3)))
        return len(marks) - 1

    def lay_starway(near: int, angle: float, start: float) -> int:
        """Tiles from ``near`` outward along ``angle`` (radii start+1...), then a planet; returns the planet."""
        chain = [add(UNLAID, angle, start + i) for i in range(1, tiles + 1)]
        planet = add(PLANET_MARK, angle, start + tiles + 1)
        for a, b in zip([near, *chain], [*chain, planet]):
            edges.append((a, b))
        starways.append(Starway(near, planet, tuple(chain)))
        return planet

    arm_angles = [math.pi / 2 - 2 * math.pi * k / players for k in range(players)]
    inner_radius = 2.0
    outer = [add(PLANET_MARK, angle, inner_radius) for angle in arm_angles]
    inner = tuple(outer)
    edges += [(NEXUS, p) for p in inner]
    for layer in range(1, arm_planets):
        start = inner_radius + (layer - 1) * (tiles + 1)
        outer = [lay_starway(outer[k], angle, start) for k, angle in enumerate(arm_angles)]
    per_gap = -(-extra_planets // players) if extra_planets else 0
    for i in range(extra_planets):
        gap, slot = i % players, i // players
        angle = arm_angles[gap] - 2 * math.pi / players * (slot + 1) / (per_gap + 1)
        lay_starway(NEXUS, angle, 1.0)

    adjacency: list[list[int]] = [[] for _ in marks]
    for a, b in edges:
        adjacency[a].append(b)
        adjacency[b].append(a)
    planets = tuple(n for n, mark in enumerate(marks) if mark == PLANET_MARK)
    names = [""] * len(marks)
    for i, planet in enumerate(planets):
        names[planet] = numbered(planet_names, i)
    starway_of = [-1] * len(marks)
    for index, way in enumerate(starways):
        for tile in way.tiles:
            starway_of[tile] = index
    frozen_adjacency = tuple(tuple(sorted(ns)) for ns in adjacency)
    return Galaxy(
        marks="".join(marks),
        adjacency=frozen_adjacency,
        positions=tuple(positions),
        planets=planets,
        inner_planets=inner,
        starways=tuple(starways),
        names=tuple(names),
        starway_of=tuple(starway_of),
        distance=tuple(_distances_from(frozen_adjacency, n) for n in range(len(marks))),
        direct=tuple(_steps_avoiding_nexus(frozen_adjacency, n) for n in range(len(marks))),
    )


def _distances_from(adjacency: tuple[tuple[int, ...], ...], start: int) -> tuple[int, ...]:
    distance = [-1] * len(adjacency)
    distance[start] = 0
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for other in adjacency[node]:
            if distance[other] < 0:
                distance[other] = distance[node] + 1
                queue.append(other)
    return tuple(distance)


def _steps_avoiding_nexus(adjacency: tuple[tuple[int, ...], ...], start: int) -> tuple[int, ...]:
    """Steps from ``start`` to every node on paths that may end at the Nexus but not pass it (-1: none)."""
    steps = [-1] * len(adjacency)
    steps[start] = 0
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == NEXUS and node != start:
            continue
        for other in adjacency[node]:
            if steps[other] < 0:
                steps[other] = steps[node] + 1
                queue.append(other)
    return tuple(steps)
