"""Where SpaceRace's galactic map puts each node, the names beside them, and the ship tokens.

The text of the map is sized for the smallest screen it is drawn on: every word and number at
least :data:`SMALLEST_PX` pixels when the whole map is :data:`PHONE_PX` wide (a phone), so a
bigger map has bigger text. Names and tokens are laid beside the nodes, never on a node or on
another name or token: each takes the first free place of a short list of candidates round its
node (:func:`place`), the names once per map, the tokens on every drawing."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..rules.mapgen import NEXUS, Galaxy

PHONE_PX = 370
"""The map's drawn width on a 390 px phone (the table's padding taken off)."""
SMALLEST_PX = 11.5
"""The smallest text the map may show there, in pixels (the table's floor is 11 on a phone)."""
LEAST_FONT = 13.0
"""The map's text size in its own units on a small map (a desktop draws it at least at this scale)."""
LINK = {("N", "P"): 66.0, ("N", "T"): 52.0, ("P", "T"): 42.0, ("T", "T"): 31.0, ("P", "P"): 80.0}
"""Drawn length of a link by the kinds of its ends (N the Nexus, P a planet, T a tile)."""
MIN_GAP = 30.0
"""The least distance between two nodes; the map is scaled up until it holds."""
HUB_ARC = 72.0
"""Room round the Nexus: the chains leave it at least this far apart."""
SQUEEZES = (0.5, 0.7, 1.0)
"""How much the directions may be pulled towards the vertical (1: not at all)."""
PLANET_R = 17
TILE = 21
NEXUS_R = 26
MARGIN = 6.0
"""Round the whole map."""
GAP = 3.0
"""Between a node and what is laid beside it, and between two tokens."""


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def overlap(self, other: Box) -> float:
        """The area the two boxes share (0 when they only touch)."""
        w = min(self.right, other.right) - max(self.left, other.left)
        h = min(self.bottom, other.bottom) - max(self.top, other.top)
        return w * h if w > 0 and h > 0 else 0.0

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.left + dx, self.top + dy, self.right + dx, self.bottom + dy)


@dataclass(frozen=True)
class MapLayout:
    xy: tuple[tuple[float, float], ...]
    """Every node's centre."""
    ray: tuple[tuple[float, float], ...]
    """Every node's outward direction from the Nexus (a unit vector; the Nexus: up)."""
    font: float
    """The size of every text of the map, in its units."""
    labels: tuple[tuple[float, float, str] | None, ...]
    """Per node: where its name is written (x, y of the baseline, anchor), None for a tile."""
    taken: tuple[Box, ...]
    """What tokens must leave free: every node and every name."""
    width: float
    height: float

    @property
    def token_h(self) -> float:
        return round(self.font * 1.45, 1)

    def token_w(self, words: str, treasure: int) -> float:
        """A token's width: its owner's mark, its scores, and a badge counting its treasure cards."""
        return round(self.font * (1.3 + 0.62 * len(words)) + self.badge_w(treasure), 1)

    def badge_w(self, treasure: int) -> float:
        """The treasure badge's width (none without treasure)."""
        return round(self.font * (0.7 + 0.62 * len(str(treasure))), 1) if treasure else 0.0

    def text_w(self, words: str) -> float:
        """A bold text's width, reckoned a little wide."""
        return self.font * 0.66 * len(words)


def node_box(galaxy: Galaxy, node: int, x: float, y: float) -> Box:
    r = NEXUS_R if node == NEXUS else (PLANET_R + 5 if galaxy.names[node] else TILE / 2 + 1)
    return Box(x - r, y - r, x + r, y + r)


def _kind(mark: str) -> str:
    return mark if mark in "NP" else "T"


@lru_cache(maxsize=32)
def map_layout(galaxy: Galaxy) -> MapLayout:
    """The most compact of the layouts squeezed by each of :data:`SQUEEZES` (by area, then the
    least squeezed), its text grown until it reads on a phone."""
    best = min(
        (_points(galaxy, k) for k in SQUEEZES),
        key=lambda found: (round(_span(found[0])[0] * _span(found[0])[1]), -found[2]),
    )
    points, rays, _ = best
    font = LEAST_FONT
    for _ in range(4):  # the text widens the map, which grows the text: a few rounds settle it
        lay = _finish(galaxy, points, rays, font)
        font = max(LEAST_FONT, math.ceil(2 * SMALLEST_PX / PHONE_PX * lay.width) / 2)
        if font <= lay.font:
            return lay
    return _finish(galaxy, points, rays, font)


def _span(points: list[tuple[float, float]]) -> tuple[float, float]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return max(xs) - min(xs) + 60, max(ys) - min(ys) + 60


def _points(galaxy: Galaxy, squeeze: float) -> tuple[list[tuple[float, float]], list[tuple[float, float]], float]:
    """Each node on its chain's ray from the Nexus, at its path length from it (and the rays).

    A breadth-first tree from the Nexus gives each node its parent; a node's distance is its
    parent's plus the drawn length of their link; its direction the generator's (the arms leave
    the Nexus at equal angles, the other planets between them), so starways never cross. If two
    nodes come closer than :data:`MIN_GAP`, every distance is stretched until none do.
    """
    n = galaxy.size
    hub = max(0.0, len(galaxy.adjacency[NEXUS]) * HUB_ARC / (2 * math.pi) - LINK[("N", "P")])
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
    closest = min((math.dist(raw[i], raw[j]) for i in range(n) for j in range(i + 1, n)), default=MIN_GAP)
    stretch = max(1.0, MIN_GAP / closest) if closest > 0 else 1.0
    return [(x * stretch, y * stretch) for x, y in raw], ray, squeeze


def _finish(
    galaxy: Galaxy, points: list[tuple[float, float]], rays: list[tuple[float, float]], font: float
) -> MapLayout:
    """The layout with ``font``: names placed, the extent taken round nodes, names and one token
    beside every node, everything moved to start at the margin."""
    nodes = [node_box(galaxy, i, x, y) for i, (x, y) in enumerate(points)]
    probe = MapLayout(tuple(points), tuple(rays), font, (), (), 0.0, 0.0)
    token = Box(0, 0, probe.token_w("3|3|4", 0), probe.token_h)
    homes = [candidates(nodes[i], token, rays[i])[0] for i in range(galaxy.size)]
    labels: list[tuple[float, float, str] | None] = []
    taken = list(nodes)
    for i in range(galaxy.size):
        name = "Nexus" if i == NEXUS else galaxy.names[i]
        if not name:
            labels.append(None)
            continue
        size = Box(0, 0, probe.text_w(name), font)
        spot = place(candidates(nodes[i], size, (-rays[i][0], -rays[i][1]), rings=3), taken)
        taken.append(spot)
        labels.append(_anchored(spot, nodes[i], font))
    every = [*taken, *homes]
    left = min(b.left for b in every) - MARGIN
    top = min(b.top for b in every) - MARGIN
    right = max(b.right for b in every) + MARGIN
    bottom = max(b.bottom for b in every) + MARGIN
    return MapLayout(
        xy=tuple((round(x - left, 1), round(y - top, 1)) for x, y in points),
        ray=tuple(rays),
        font=font,
        labels=tuple(
            None if spot is None else (round(spot[0] - left, 1), round(spot[1] - top, 1), spot[2]) for spot in labels
        ),
        taken=tuple(b.moved(-left, -top) for b in taken),
        width=math.ceil(right - left),
        height=math.ceil(bottom - top),
    )


def _anchored(spot: Box, node: Box, font: float) -> tuple[float, float, str]:
    """Where a name laid in ``spot`` is written: from the side nearer its node, so that a name
    wider than reckoned grows away from the node."""
    baseline = spot.bottom - 0.22 * font
    if spot.right <= node.left:
        return spot.right, baseline, "end"
    if spot.left >= node.right:
        return spot.left, baseline, "start"
    return (spot.left + spot.right) / 2, baseline, "middle"


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


# ---- laying things beside a node ------------------------------------------------------------------


def candidates(node: Box, size: Box, ray: tuple[float, float], rings: int = 1) -> list[Box]:
    """Places for a box of ``size`` beside ``node``: first on the clockwise side of ``ray`` (a
    chain's ships on one side, its names on the other), then round the node, ring after ring."""
    w, h = size.right - size.left, size.bottom - size.top
    cx, cy = (node.left + node.right) / 2, (node.top + node.bottom) / 2
    side = (-ray[1], ray[0])
    spots: list[tuple[float, float]] = []
    for ring in range(rings):
        out = GAP + ring * (h + GAP)
        right = (node.right + out, cy - h / 2)
        left = (node.left - out - w, cy - h / 2)
        below = (cx - w / 2, node.bottom + out)
        above = (cx - w / 2, node.top - out - h)
        corners = [
            (node.right + out, node.bottom + out - h / 2),
            (node.left - out - w, node.bottom + out - h / 2),
            (node.right + out, node.top - out - h / 2),
            (node.left - out - w, node.top - out - h / 2),
        ]
        if abs(side[0]) >= abs(side[1]):
            first = [right, left] if side[0] > 0 else [left, right]
            spots += [*first, below, above, *corners]
        else:
            first = [below, above] if side[1] > 0 else [above, below]
            spots += [*first, right, left, *corners]
    return [Box(x, y, x + w, y + h) for x, y in spots]


def place(spots: Iterable[Box], taken: list[Box], bounds: Box | None = None) -> Box:
    """The first of ``spots`` (inside ``bounds``) that overlaps nothing ``taken``, else the one
    that overlaps it least."""
    inside = [s for s in spots if bounds is None or _within(s, bounds)] or list(spots)
    region = Box(
        min(s.left for s in inside),
        min(s.top for s in inside),
        max(s.right for s in inside),
        max(s.bottom for s in inside),
    )
    near = [
        t
        for t in taken
        if t.left < region.right and region.left < t.right and t.top < region.bottom and region.top < t.bottom
    ]
    for spot in inside:
        left, top, right, bottom = spot.left, spot.top, spot.right, spot.bottom
        if not any(left < t.right and t.left < right and top < t.bottom and t.top < bottom for t in near):
            return spot
    return min(inside, key=lambda spot: sum(spot.overlap(t) for t in near))


def _within(box: Box, bounds: Box) -> bool:
    return (
        box.left >= bounds.left and box.top >= bounds.top and box.right <= bounds.right and box.bottom <= bounds.bottom
    )
