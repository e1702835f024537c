"""Where SpaceRace's galactic map puts each node, the ship tokens beside it and a planet's name."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from ..rules.mapgen import NEXUS, Galaxy
from .web_markup import tenth

TOKEN_H = 20
STACK = TOKEN_H + 5
"""From one ship token to the next in a column."""
LINK = {("N", "P"): 66.0, ("N", "T"): 52.0, ("P", "T"): 42.0, ("T", "T"): 31.0, ("P", "P"): 80.0}
"""Drawn length of a link by the kinds of its ends (N the Nexus, P a planet, T a tile)."""
MIN_GAP = 30.0
HUB_ARC = 72.0
SQUEEZES = (0.5, 0.7, 1.0)
"""How much the directions may be pulled towards the vertical (1: not at all)."""
"""The least distance between two nodes; the map is scaled up until it holds."""
PLANET_R = 17
TILE = 21


# ---- the map's layout ----------------------------------------------------------------------


@dataclass(frozen=True)
class MapLayout:
    xy: tuple[tuple[float, float], ...]
    """Every node's centre in the map group."""
    ray: tuple[tuple[float, float], ...]
    """Every node's outward direction from the Nexus (a unit vector; the Nexus: up)."""
    leaf: tuple[bool, ...]
    """The node ends a chain (a planet at the end of an arm)."""
    width: float
    height: float
    squeeze: float


def _kind(mark: str) -> str:
    return mark if mark in "NP" else "T"


@lru_cache(maxsize=32)
def map_layout(galaxy: Galaxy) -> MapLayout:
    """The most compact of the layouts squeezed by each of :data:`SQUEEZES` (by area, then the
    least squeezed): few chains stand a tall map well, many need the whole circle."""
    return min((_layout(galaxy, k) for k in SQUEEZES), key=lambda lay: (round(lay.width * lay.height), -lay.squeeze))


def _layout(galaxy: Galaxy, squeeze: float) -> MapLayout:
    """Where each node goes: on its chain's ray from the Nexus, at its path length from it.

    A breadth-first tree from the Nexus gives each node its parent; a node's distance is its
    parent's plus the drawn length of their link; its direction the generator's (the arms leave
    the Nexus at equal angles, the other planets between them), so starways never cross. If two
    nodes come closer than :data:`MIN_GAP`, every distance is stretched until none do.
    """
    n = galaxy.size
    hub = max(0.0, len(galaxy.adjacency[NEXUS]) * HUB_ARC / (2 * math.pi) - LINK[("N", "P")])
    """Room round the Nexus, so that many chains leave it with :data:`HUB_ARC` between them."""
    parent = [-1] * n
    dist = [0.0] * n
    seen = [False] * n
    seen[NEXUS] = True
    queue = deque([NEXUS])
    while queue:
        node = queue.popleft()
        for other in galaxy.adjacency[node]:
            if not seen[other]:
                seen[other] = True
                parent[other] = node
                pair = tuple(sorted((_kind(galaxy.marks[node]), _kind(galaxy.marks[other]))))
                dist[other] = dist[node] + LINK.get((pair[0], pair[1]), 48.0) + (hub if node == NEXUS else 0.0)
                queue.append(other)
    ray = _rays(galaxy, squeeze)
    raw = [(ray[i][0] * dist[i], ray[i][1] * dist[i]) for i in range(n)]
    closest = min(
        (math.dist(raw[i], raw[j]) for i in range(n) for j in range(i + 1, n)),
        default=MIN_GAP,
    )
    stretch = max(1.0, MIN_GAP / closest) if closest > 0 else 1.0
    points = [(x * stretch, y * stretch) for x, y in raw]
    children = [0] * n
    for node in range(n):
        if parent[node] >= 0:
            children[parent[node]] += 1
    leaf = tuple(children[i] == 0 and i != NEXUS for i in range(n))
    # the extent: nodes, planet labels and one ship token beside every node
    xs: list[float] = []
    ys: list[float] = []
    for i, (x, y) in enumerate(points):
        xs += [x - 30, x + 30]
        ys += [y - 30, y + 30]
        tx, ty, align = token_anchor((x, y), ray[i], 0, ship_reach(galaxy, i))
        xs += [tx - 4, tx + 66] if align == "start" else ([tx - 66, tx + 4] if align == "end" else [tx - 33, tx + 33])
        ys += [ty - 8, ty + TOKEN_H + 4]
        if galaxy.names[i]:
            lx, ly, anchor = label_anchor((x, y), ray[i], leaf[i])
            w = 7.5 * len(galaxy.names[i]) + 4
            xs += [lx - w, lx] if anchor == "end" else ([lx, lx + w] if anchor == "start" else [lx - w / 2, lx + w / 2])
            ys += [ly - 14, ly + 4]
    left, top = min(xs) - 6, min(ys) - 6
    xy = tuple((tenth(x - left), tenth(y - top)) for x, y in points)
    return MapLayout(
        xy=tuple((float(x), float(y)) for x, y in xy),
        ray=tuple(ray),
        leaf=leaf,
        width=math.ceil(max(xs) - left + 6),
        height=math.ceil(max(ys) - top + 6),
        squeeze=squeeze,
    )


def _rays(galaxy: Galaxy, squeeze: float) -> list[tuple[float, float]]:
    """Every node's direction from the Nexus: the generator's, turned so that no chain lies
    near the horizontal, then squeezed towards the vertical (a map taller than wide suits a
    phone, and a landscape screen that puts the panels beside it)."""
    angles = [math.atan2(-py, px) for px, py in galaxy.positions]  # the generator's y points up
    chains = [angles[n] % math.pi for n in galaxy.adjacency[NEXUS]]

    def clearance(axis: float) -> float:
        return min((min(abs(a - axis) % math.pi, math.pi - abs(a - axis) % math.pi) for a in chains), default=0.0)

    steps = 360
    axis = max((k * math.pi / steps for k in range(steps)), key=lambda a: (round(clearance(a), 6), -a))
    rays = []
    for node, (px, py) in enumerate(galaxy.positions):
        if node == NEXUS or not (px or py):
            rays.append((0.0, -1.0))  # "up": the Nexus's ships go to its right
            continue
        turned = angles[node] - axis
        x, y = squeeze * math.cos(turned), math.sin(turned)
        length = math.hypot(x, y)
        rays.append((x / length, y / length))
    return rays


def _side(ray: tuple[float, float]) -> tuple[float, float]:
    """The clockwise perpendicular of a ray (on screen): where a node's ships go."""
    return (-ray[1], ray[0])


def token_anchor(at: tuple[float, float], ray: tuple[float, float], k: int, reach: float) -> tuple[float, float, str]:
    """Where ship token ``k`` of a node goes: a point ``reach`` from the node on the side of its
    chain (the token's left edge, right edge or middle there: ``start``, ``end``, ``middle``) and
    its top; the tokens of one node stack away from the node."""
    sx, sy = _side(ray)
    x, y = at[0] + reach * sx, at[1] + reach * sy
    align = "start" if sx > 0.25 else ("end" if sx < -0.25 else "middle")
    if sy < -0.25:
        top = y - TOKEN_H - k * STACK if align == "middle" else y - TOKEN_H / 2 - k * STACK
    else:
        top = y + k * STACK if align == "middle" else y - TOKEN_H / 2 + k * STACK
    return x, top, align


def ship_reach(galaxy: Galaxy, node: int) -> float:
    return 34.0 if node == NEXUS else (PLANET_R + 9 if galaxy.names[node] else TILE / 2 + 7)


def label_anchor(at: tuple[float, float], ray: tuple[float, float], leaf: bool) -> tuple[float, float, str]:
    """Where a planet's name goes: on the side opposite its ships."""
    dx, dy = -_side(ray)[0], -_side(ray)[1]
    x, y = at[0] + dx * (PLANET_R + 8), at[1] + dy * (PLANET_R + 8) + 4
    if dx > 0.4:
        return x, y + dy * 6, "start"
    if dx < -0.4:
        return x, y + dy * 6, "end"
    return at[0], at[1] + (PLANET_R + 18 if dy > 0 else -PLANET_R - 8), "middle"
