"""The SpaceRace board for the web table: an SVG drawing, action parts and a glossary.

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON), the game's public
map shape (:class:`~.mapgen.Galaxy`, fixed by the options) and its content, never from a
state. Three areas, each a group:

* ``g.sr-map``: the galactic map as a graph. The Nexus in the middle, the planets (their
  owner's colour *and* the owner's shape, a name label, a ring round a homeworld), the
  starways (a line through their tiles: ``T`` treasure, ``S`` spaceship, an empty dot, ``?``
  before the card is laid) and the ships as tokens ``D|M|A`` in their owner's colour and
  shape, with a gold badge counting the treasure cards they carry.
* ``g.sr-top``: the round and whose turn, the players, and what is being decided: the
  battle in progress step by step (initiative, strikes, standoff, the winner's reward), the
  conquest roll and treasure draws, the mothership design panel, the end-turn button.
* ``g.sr-fleets``: every fleet, ship by ship, with its treasure cards by name.

The map's layout (:func:`map_layout`) is computed once per map from the graph: each node
lies on the ray of the starway chain it belongs to (the generator's direction from the
Nexus), at the length of its path from the Nexus measured with fixed lengths per kind of
link, scaled up where nodes would crowd. Nothing random: the same map always looks the same.

Two arrangements (docs/WEB.md, "Board arrangements"): tall (the ``viewBox``: the top panel,
the map, the fleets, one above the other, the panels scaled to the map's width) and wide
(the map at the left, the panels in a column at its right).

Clickable elements are transparent overlays (``.hit``) carrying ``data-part``:
``ship:<k>`` (ship number ``k`` of the fleet whose turn it is, on the map and in the fleet
list), ``nexus``, ``planet:<node>``, ``tile:<node>``, ``design:<d|m|a>:<value>``,
``battle:<contest|flee|assimilate|destroy>`` and ``end-turn``. Elements with a meaning carry
``data-term`` (a key of :func:`glossary`) and a ``<title>`` built from the content data.
"""

from __future__ import annotations

import math
import textwrap
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from spacetable.engine import JSON, Action
from spacetable.engine.svg import attrs as attrs_markup
from spacetable.engine.svg import board as svg_board
from spacetable.engine.svg import el, escape

from ..content import Content, Stats
from ..rules.actions import Assimilate, Contest, Design, Destroy, EndTurn, Flee, Homeworld, Move
from ..rules.battle import STANDOFF, initiative, may_flee, resolve
from ..rules.mapgen import NEXUS, Galaxy
from ..rules.ships import MOTHERSHIP, scores
from ..rules.state import ASSAULT, ATTACKER, DEFENDER, KIND_NAMES, PVM
from .render import PHASE_TEXT

PLAYER_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Cyan")
"""As the state names the seats (state.PLAYER_NAMES)."""
PLAYER_FILL = ("#e5484d", "#3e8ef7", "#30a46c", "#f5d90a", "#a66bf0", "#1fc7d4")
PLAYER_INK = ("#ffffff", "#ffffff", "#ffffff", "#1a1a1a", "#ffffff", "#10222a")
PLAYER_SHAPE = ("triangle", "square", "circle", "diamond", "star", "hexagon")
"""Each seat's shape, drawn beside its colour wherever it owns something (colour-blind players)."""

PW = 340
"""Width of the panel column (the top panel and the fleets)."""
GAP = 16
"""Between the map and the panel column in the wide arrangement."""
ROW = 24
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
TILE_FILL = {"T": "#f2c94c", "S": "#ff7a59", ".": "#1b2440", "?": "#111827"}
TILE_TERM = {"T": "treasure tile", "S": "spaceship tile", ".": "empty tile", "?": "unlaid tile"}
STAT_NAMES = {"D": "defence", "M": "movement", "A": "attack"}


# ---- small SVG helpers -------------------------------------------------------------------


def text(x: float, y: float, words: str, anchor: str = "middle", **attrs: object) -> str:
    return f"<text{attrs_markup({'x': _r(x), 'y': _r(y), 'text_anchor': anchor, **attrs})}>{escape(words)}</text>"


def _r(v: float) -> float | int:
    """Coordinates rounded to a tenth (a short, stable SVG)."""
    v = round(v, 1)
    return int(v) if v == int(v) else v


def hit_rect(x: float, y: float, w: float, h: float, part: str, title: str, term: str | None = None) -> str:
    return el(
        "rect",
        title=title,
        x=_r(x),
        y=_r(y),
        width=_r(w),
        height=_r(h),
        rx=5,
        data_part=part,
        data_term=term,
        class_="hit",
    )


def hit_circle(cx: float, cy: float, r: float, part: str, title: str, term: str | None = None) -> str:
    return el("circle", title=title, cx=_r(cx), cy=_r(cy), r=r, data_part=part, data_term=term, class_="hit")


def shape(kind: str, cx: float, cy: float, size: float, fill: str, cls: str | None = None) -> str:
    """A player's shape centred on (cx, cy), ``size`` across."""
    h = size / 2
    if kind == "circle":
        return el("circle", cx=_r(cx), cy=_r(cy), r=_r(h * 0.9), fill=fill, class_=cls)
    if kind == "square":
        s = h * 0.8
        return el("rect", x=_r(cx - s), y=_r(cy - s), width=_r(2 * s), height=_r(2 * s), fill=fill, class_=cls)
    if kind == "triangle":
        points = [(0, -1.0), (0.95, 0.75), (-0.95, 0.75)]
    elif kind == "diamond":
        points = [(0, -1.0), (0.8, 0), (0, 1.0), (-0.8, 0)]
    elif kind == "star":
        points = [
            (math.cos(-math.pi / 2 + k * math.pi / 5) * (1.0 if k % 2 == 0 else 0.45),
             math.sin(-math.pi / 2 + k * math.pi / 5) * (1.0 if k % 2 == 0 else 0.45))
            for k in range(10)
        ]  # fmt: skip
    else:  # hexagon
        points = [(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)]
    d = " ".join(f"{_r(cx + px * h)},{_r(cy + py * h)}" for px, py in points)
    return el("polygon", points=d, fill=fill, class_=cls)


def button(x: float, y: float, w: float, label: str, part: str, title: str, term: str | None = None) -> str:
    """A board button: the drawing, then a transparent overlay with the part on top."""
    return (
        el("rect", x=_r(x), y=_r(y), width=_r(w), height=28, rx=6, class_="btn")
        + text(x + w / 2, y + 19, label, class_="btn-label")
        + hit_rect(x, y, w, 28, part, title, term)
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


# ---- the words (glossary and titles) -------------------------------------------------------


def treasure_kinds(content: Content) -> dict[str, list[tuple[str, int]]]:
    """Treasure card name -> [(change, copies)], from the deck of the content."""
    kinds: dict[str, list[tuple[str, int]]] = {}
    for card, count in zip(content.treasure, content.treasure_counts):
        change = " ".join(f"{s}{_signed(v)}" for s, v in (("D", card.d), ("M", card.m), ("A", card.a)) if v)
        kinds.setdefault(card.name, []).append((change, count))
    return kinds


def treasure_term(name: str) -> str:
    return f"treasure: {name}"


def conquest_text(content: Content) -> str:
    table = ", ".join(f"{roll} → {cards}" for roll, cards in enumerate(content.conquest_treasure, start=1))
    return table


def glossary(content: Content, options: Mapping[str, Any]) -> dict[str, str]:
    """Every term the board names, one sentence each, with the numbers of the content and options."""
    delay = options.get("nexus_delay", 1)
    single = options.get("combat") == "single"
    words = {
        "Nexus": (
            "The hub in the middle of the galaxy: a ship entering it stops there and then sits out "
            f"{_plural(delay, 'turn')} of customs before flying on."
        ),
        "planet": "A world to take: a ship ending its move on a planet nobody else guards makes it yours.",
        "homeworld": "The planet a player picked at set-up and starts with; a destroyed mothership is rebuilt there.",
        "starway": (
            f"A lane of {content.starway_tiles} tiles joining two places; every tile, planet and the Nexus is one step."
        ),
        "direct link": "A planet beside the Nexus is one step from it, with no starway between.",
        "treasure tile": "A [T] tile: a ship that ends its move here draws a treasure card.",
        "spaceship tile": "An [S] tile: a ship that ends its move here meets a wild spaceship drawn from the deck.",
        "empty tile": "An empty tile: nothing happens to a ship that stops here.",
        "unlaid tile": "A tile whose starway card has not been drawn yet.",
        "D": "D, defence: a strike only beats this ship when its A is higher than this D.",
        "M": "M, movement: how many steps the ship may fly per move; the higher M strikes first in battle.",
        "A": "A, attack: this ship beats an enemy when its A is higher than the enemy's D.",
        "spaceship": (
            "A ship of a fleet, shown as D|M|A in its owner's colour and shape; a gold badge counts its treasure cards."
        ),
        "mothership": (
            f"The ship each player designs with {content.mothership_points} points over D, M and A "
            f"(at least {content.mothership_minimum} each); it cannot be assimilated."
        ),
        "wild spaceship": "A spaceship card drawn for an [S] tile: beat it to capture it into your fleet.",
        "design": (
            f"Spread {content.mothership_points} points over the mothership's D, M and A, "
            f"each at least {content.mothership_minimum}: choose D, then M, and A takes the rest."
        ),
        "fleet": f"A player's ships, at most {content.fleet_limit}, the mothership included.",
        "treasure": "A card fixed to the ship that found it, raising or lowering its scores (never below 0).",
        "initiative": (
            "The ship with the higher M strikes first; with equal M the player strikes first against a wild ship, "
            "and two players roll a die each."
            if options.get("map_initiative", "player") == "player"
            else "The ship with the higher M strikes first; with equal M each side rolls a die, the higher first."
        ),
        "strike": (
            "One strike decides: A above the target's D wins, an equal A is a standoff, a lower A loses."
            if single
            else "The striker's A against the target's D: higher wins, equal is a standoff, lower lets the "
            "target strike back."
        ),
        "standoff": "No winner after the strikes: the faster attacker may flee, otherwise a die each decides.",
        "contest": "Settle a standoff with a die each; the higher roll wins the battle (ties are rolled again).",
        "flee": "An attacker with the higher M may leave a standoff and return to the space it came from.",
        "assimilate": "The winner of a battle between players takes the beaten ship, treasure and all, into its fleet.",
        "destroy": "The winner of a battle between players scraps the beaten ship and moves its treasure cards aboard.",
        "planetary assault": (
            "Attacking ships that orbit their owner's planet: the defenders fight with M 0 and their D doubled."
        ),
        "conquest roll": (
            f"Taking a planet earns a die roll, paid in treasure cards ({conquest_text(content)})."
            if options.get("conquest_roll", "always") == "always"
            else f"A planet won by planetary assault earns a die roll, paid in treasure cards "
            f"({conquest_text(content)})."
        ),
        "rebuild": (
            f"A destroyed mothership comes back when a die plus the planets its player holds reaches "
            f"{content.rebuild_target}."
        ),
        "customs": "A ship that stopped at the Nexus, or just joined a fleet, waits before it may move again.",
        "round": (
            "Every player takes a turn, moving a ship or passing"
            + (f"; after {options['turn_limit']} rounds the most planets wins." if options.get("turn_limit") else ".")
        ),
        "eliminated": "A player with no planet and no ship left is out of the game.",
        "battle": "Ships of two sides on one space fight: initiative, strikes, maybe a standoff, then the reward.",
    }
    for name, cards in treasure_kinds(content).items():
        changes = ", ".join(f"{change} ({count}×)" for change, count in cards)
        words[treasure_term(name)] = f"Treasure card {name}: {changes} on the ship that carries it."
    return words


# ---- parts ---------------------------------------------------------------------------------


def node_part(galaxy: Galaxy, node: int) -> str:
    if node == NEXUS:
        return "nexus"
    return f"planet:{node}" if galaxy.names[node] else f"tile:{node}"


def action_parts(galaxy: Galaxy, action: Action) -> tuple[str, ...]:
    """The board parts of an action (see the module docstring); () for chance and the like."""
    if isinstance(action, Move):
        return (f"ship:{action.ship}", node_part(galaxy, action.to))
    if isinstance(action, Homeworld):
        return (node_part(galaxy, action.planet),)
    if isinstance(action, Design):
        return (f"design:d:{action.d}", f"design:m:{action.m}", f"design:a:{action.a}")
    if isinstance(action, EndTurn):
        return ("end-turn",)
    if isinstance(action, Contest):
        return ("battle:contest",)
    if isinstance(action, Flee):
        return ("battle:flee",)
    if isinstance(action, Assimilate):
        return ("battle:assimilate",)
    if isinstance(action, Destroy):
        return ("battle:destroy",)
    return ()


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
        tx, ty, align = _token_anchor((x, y), ray[i], 0, _reach(galaxy, i))
        xs += [tx - 4, tx + 66] if align == "start" else ([tx - 66, tx + 4] if align == "end" else [tx - 33, tx + 33])
        ys += [ty - 8, ty + TOKEN_H + 4]
        if galaxy.names[i]:
            lx, ly, anchor = _label_anchor((x, y), ray[i], leaf[i])
            w = 7.5 * len(galaxy.names[i]) + 4
            xs += [lx - w, lx] if anchor == "end" else ([lx, lx + w] if anchor == "start" else [lx - w / 2, lx + w / 2])
            ys += [ly - 14, ly + 4]
    left, top = min(xs) - 6, min(ys) - 6
    xy = tuple((_r(x - left), _r(y - top)) for x, y in points)
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


def _token_anchor(at: tuple[float, float], ray: tuple[float, float], k: int, reach: float) -> tuple[float, float, str]:
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


def _reach(galaxy: Galaxy, node: int) -> float:
    return 34.0 if node == NEXUS else (PLANET_R + 9 if galaxy.names[node] else TILE / 2 + 7)


def _label_anchor(at: tuple[float, float], ray: tuple[float, float], leaf: bool) -> tuple[float, float, str]:
    """Where a planet's name goes: on the side opposite its ships."""
    dx, dy = -_side(ray)[0], -_side(ray)[1]
    x, y = at[0] + dx * (PLANET_R + 8), at[1] + dy * (PLANET_R + 8) + 4
    if dx > 0.4:
        return x, y + dy * 6, "start"
    if dx < -0.4:
        return x, y + dy * 6, "end"
    return at[0], at[1] + (PLANET_R + 18 if dy > 0 else -PLANET_R - 8), "middle"


# ---- reading the view ------------------------------------------------------------------------


@dataclass(frozen=True)
class ShipView:
    seat: int
    index: int
    card: int
    name: str
    node: int
    treasure: tuple[int, ...]
    stats: Stats
    wait: int
    acted: bool

    @property
    def label(self) -> str:
        return f"{self.name} [{'|'.join(map(str, self.stats))}]"

    @property
    def mothership(self) -> bool:
        return self.card == MOTHERSHIP


def _ships(view: Mapping[str, Any], content: Content) -> list[list[ShipView]]:
    fleets = []
    for seat, fleet in enumerate(view["fleets"]):
        ships = []
        for index, (card, name, node, treasure, wait, acted) in enumerate(fleet):
            base: Stats
            if card == MOTHERSHIP:
                design = view["designs"][seat]
                base = (design[0], design[1], design[2]) if design else (0, 0, 0)
            else:
                base = content.ships[card]
            cards = tuple(treasure)
            ships.append(ShipView(seat, index, card, name, node, cards, scores(base, cards, content), wait, acted))
        fleets.append(ships)
    return fleets


def _actor(view: Mapping[str, Any]) -> int:
    """The seat deciding now, or -1 (chance, or the end)."""
    phase = view["phase"]
    if phase in ("homeworld", "design"):
        key = "homeworld" if phase == "homeworld" else "designs"
        done = sum(1 for h in view[key] if (h >= 0 if phase == "homeworld" else h is not None))
        order = view["order"]
        return int(order[done]) if done < len(order) else -1
    if phase == "reward":
        b = view["battle"]
        return int(view["turn"]) if b[5] == ATTACKER else int(b[1])
    if phase in ("move", "standoff"):
        return int(view["turn"])
    return -1


@dataclass
class Ctx:
    """What every part of the drawing reads."""

    galaxy: Galaxy
    content: Content
    options: Mapping[str, Any]
    view: Mapping[str, Any]
    seat: int | None
    fleets: list[list[ShipView]]
    lay: MapLayout

    def who(self, seat: int) -> str:
        return PLAYER_NAMES[seat] + (" (you)" if seat == self.seat else "")

    def treasure_words(self, cards: Sequence[int]) -> str:
        return ", ".join(self.content.treasure[c].describe() for c in cards)

    def ship_title(self, ship: ShipView) -> str:
        d, m, a = ship.stats
        kind = "mothership" if ship.mothership else "spaceship"
        words = f"{PLAYER_NAMES[ship.seat]}'s {kind} {ship.name}: D {d} defence, M {m} movement, A {a} attack."
        if ship.treasure:
            words += f" Treasure: {self.treasure_words(ship.treasure)}."
        else:
            words += " No treasure."
        words += f" At {self.galaxy.place(ship.node)}."
        if ship.wait:
            words += " Waiting (customs, or just joined the fleet)."
        if ship.acted:
            words += " Moved this turn."
        if ship.seat == self.view["turn"] and self.view["phase"] == "move":
            words += f" Ship number {ship.index + 1} of the fleet."
        return words


# ---- the map ---------------------------------------------------------------------------------


def _starways(ctx: Ctx) -> str:
    galaxy, xy = ctx.galaxy, ctx.lay.xy
    parts = []
    for way in galaxy.starways:
        chain = [way.near, *way.tiles, way.far]
        d = "M" + " L".join(f"{_r(xy[n][0])},{_r(xy[n][1])}" for n in chain)
        title = (
            f"Starway {galaxy.end_name(way.near)}–{galaxy.end_name(way.far)}: "
            f"[{' '.join(ctx.view['tiles'][t] for t in way.tiles)}]"
        )
        parts.append(el("path", title=title, d=d, class_="starway", data_term="starway"))
    for planet in galaxy.adjacency[NEXUS]:
        if galaxy.names[planet]:
            (x1, y1), (x2, y2) = xy[NEXUS], xy[planet]
            parts.append(
                el(
                    "line",
                    title=f"{galaxy.names[planet]} lies one step from the Nexus.",
                    x1=_r(x1),
                    y1=_r(y1),
                    x2=_r(x2),
                    y2=_r(y2),
                    class_="direct",
                    data_term="direct link",
                )
            )
    return "".join(parts)


def _moving_trail(ctx: Ctx) -> str:
    """A dashed arrow from where the moving ship came from to where it is."""
    view = ctx.view
    origin, moving = view["origin"], view["moving"]
    if origin < 0 or moving < 0 or moving >= len(ctx.fleets[view["turn"]]):
        return ""
    ship = ctx.fleets[view["turn"]][moving]
    (x1, y1), (x2, y2) = ctx.lay.xy[origin], ctx.lay.xy[ship.node]
    return el(
        "line",
        title=f"{ship.name} came from {ctx.galaxy.place(origin)} (a ship that flees goes back there).",
        x1=_r(x1),
        y1=_r(y1),
        x2=_r(x2),
        y2=_r(y2),
        class_="trail",
        stroke=PLAYER_FILL[ship.seat],
    )


def _nexus(ctx: Ctx) -> str:
    x, y = ctx.lay.xy[NEXUS]
    points = " ".join(
        f"{_r(x + 26 * math.cos(k * math.pi / 4))},{_r(y + 26 * math.sin(k * math.pi / 4))}" for k in range(8)
    )
    delay = ctx.options.get("nexus_delay", 1)
    title = f"The Nexus: a ship entering it stops, then waits {_plural(delay, 'turn')} for customs."
    return el(
        "g",
        el("polygon", points=points, class_="nexus")
        + el("circle", cx=_r(x), cy=_r(y), r=15, class_="nexus-core")
        + text(x, y + 4, "NEXUS", class_="nexus-label"),
        title=title,
        data_term="Nexus",
    )


def _planet(ctx: Ctx, node: int) -> str:
    view, galaxy = ctx.view, ctx.galaxy
    x, y = ctx.lay.xy[node]
    owner = view["owner"][node]
    home = node in view["homeworld"]
    name = galaxy.names[node]
    body = ""
    if home:
        founder = list(view["homeworld"]).index(node)
        body += el("circle", cx=_r(x), cy=_r(y), r=PLANET_R + 5, class_="home-ring", stroke=PLAYER_FILL[founder])
    if owner >= 0:
        body += el("circle", cx=_r(x), cy=_r(y), r=PLANET_R, class_="planet", fill=PLAYER_FILL[owner])
        body += shape(PLAYER_SHAPE[owner], x, y, 16, fill=PLAYER_INK[owner], cls="owner-mark")
        holder = f"held by {ctx.who(owner)}"
    else:
        body += el("circle", cx=_r(x), cy=_r(y), r=PLANET_R, class_="planet free")
        holder = "unclaimed"
    lx, ly, anchor = _label_anchor((x, y), ctx.lay.ray[node], ctx.lay.leaf[node])
    body += text(lx, ly, name, anchor=anchor, class_="planet-name")
    orbit = [s.label for fleet in ctx.fleets for s in fleet if s.node == node]
    title = f"{name}: a planet, {holder}"
    if home:
        title += f", {PLAYER_NAMES[list(view['homeworld']).index(node)]}'s homeworld"
    title += f"; {_plural(galaxy.distance[NEXUS][node], 'step')} from the Nexus."
    if orbit:
        title += f" In orbit: {', '.join(orbit)}."
    term = "homeworld" if home else "planet"
    return el("g", body, title=title, data_term=term, class_="planet-g")


def _tile(ctx: Ctx, node: int) -> str:
    x, y = ctx.lay.xy[node]
    mark = ctx.view["tiles"][node]
    h = TILE / 2
    body = el(
        "rect",
        x=_r(x - h),
        y=_r(y - h),
        width=TILE,
        height=TILE,
        rx=5,
        class_=f"tile tile-{'dot' if mark == '.' else 'q' if mark == '?' else mark}",
        fill=TILE_FILL.get(mark, "#1b2440"),
    )
    glyph = {"T": "T", "S": "S", ".": "", "?": "?"}.get(mark, mark)
    if glyph:
        body += text(x, y + 4.5, glyph, class_="tile-glyph")
    else:
        body += el("circle", cx=_r(x), cy=_r(y), r=2.5, class_="tile-dot")
    return el("g", body, class_="tile-g")


def _tile_title(ctx: Ctx, node: int) -> str:
    mark = ctx.view["tiles"][node]
    meaning = {
        "T": "[T] treasure: a ship ending its move here draws a treasure card",
        "S": "[S] spaceship: a ship ending its move here fights a wild spaceship",
        ".": "empty",
        "?": "not laid yet",
    }.get(mark, mark)
    return f"{ctx.galaxy.place(node)}: {meaning}."


def _token(
    ctx: Ctx, ship: ShipView, x: float, y: float, align: str = "start", pips: bool = True
) -> tuple[str, float, float, float]:
    """A ship token whose left edge (right edge, middle: ``align``) is at ``x``; returns the
    drawing and its box's left, top and width."""
    words = "|".join(map(str, ship.stats))
    w = 20 + 7.6 * len(words)
    left = x if align == "start" else (x - w if align == "end" else x - w / 2)
    fill, ink = PLAYER_FILL[ship.seat], PLAYER_INK[ship.seat]
    moving = ship.seat == ctx.view["turn"] and ship.index == ctx.view["moving"]
    spent = (ship.acted or ship.wait) and not moving and ctx.view["phase"] != "over"
    classes = "token" + (" mothership" if ship.mothership else "") + (" spent" if spent else "")
    body = el("rect", x=_r(left), y=_r(y), width=_r(w), height=TOKEN_H, rx=4, class_="token-body", stroke=fill)
    body += el("rect", x=_r(left), y=_r(y), width=16, height=TOKEN_H, rx=4, fill=fill)
    body += shape(PLAYER_SHAPE[ship.seat], left + 8, y + TOKEN_H / 2, 10, fill=ink)
    body += text(left + 16 + (w - 16) / 2, y + 14.5, words, class_="token-stats")
    if ship.mothership:
        body += el("rect", x=_r(left - 2), y=_r(y - 2), width=_r(w + 4), height=TOKEN_H + 4, rx=6, class_="ms-ring")
    if ship.treasure and pips:  # a gold badge counting the treasure cards aboard
        body += el("circle", cx=_r(left + w), cy=_r(y + 1), r=7, class_="badge")
        body += text(left + w, y + 4.5, str(len(ship.treasure)), class_="badge-n")
    if ship.wait:
        body += text(left + w + 2, y + 8, "z", anchor="start", class_="wait-mark")
    term = "mothership" if ship.mothership else "spaceship"
    return el("g", body, title=ctx.ship_title(ship), data_term=term, class_=classes), left, y, w


def _map_ships(ctx: Ctx) -> tuple[str, str]:
    """The ship tokens, and the overlays of the ships that can be chosen (drawn above everything)."""
    view = ctx.view
    at: dict[int, list[ShipView]] = {}
    for fleet in ctx.fleets:
        for ship in fleet:
            at.setdefault(ship.node, []).append(ship)
    b = view["battle"]
    fighting: set[tuple[int, int]] = set()
    if view["moving"] >= 0:
        fighting.add((view["turn"], view["moving"]))
    if b is not None and b[0] != PVM:
        fighting.add((b[1], b[2]))
    drawn, hits = [], []
    pickable = view["phase"] == "move"
    for node, ships in sorted(at.items()):
        for k, ship in enumerate(ships):
            ax, ay, align = _token_anchor(ctx.lay.xy[node], ctx.lay.ray[node], k, _reach(ctx.galaxy, node))
            token, left, top, w = _token(ctx, ship, ax, ay, align)
            if (ship.seat, ship.index) in fighting:
                drawn.append(
                    el("rect", x=_r(left - 4), y=_r(top - 4), width=_r(w + 8), height=TOKEN_H + 8, rx=7, class_="glow")
                )
            drawn.append(token)
            if pickable and ship.seat == view["turn"]:
                term = "mothership" if ship.mothership else "spaceship"
                hits.append(
                    hit_rect(left - 2, top - 2, w + 4, TOKEN_H + 4, f"ship:{ship.index}", ctx.ship_title(ship), term)
                )
    return "".join(drawn), "".join(hits)


def _map(ctx: Ctx) -> str:
    galaxy, lay = ctx.galaxy, ctx.lay
    nodes, hits = [], []
    for node in range(galaxy.size):
        x, y = lay.xy[node]
        if node == NEXUS:
            nodes.append(_nexus(ctx))
            hits.append(
                hit_circle(x, y, 28, "nexus", "The Nexus: a ship entering it stops and waits for customs.", "Nexus")
            )
        elif galaxy.names[node]:
            nodes.append(_planet(ctx, node))
            owner = ctx.view["owner"][node]
            holder = f"held by {ctx.who(owner)}" if owner >= 0 else "unclaimed"
            term = "homeworld" if node in ctx.view["homeworld"] else "planet"
            hits.append(hit_circle(x, y, PLANET_R + 5, f"planet:{node}", f"{galaxy.names[node]} ({holder})", term))
        else:
            nodes.append(_tile(ctx, node))
            mark = ctx.view["tiles"][node]
            hits.append(
                hit_rect(
                    x - 14, y - 14, 28, 28, f"tile:{node}", _tile_title(ctx, node), TILE_TERM.get(mark, "empty tile")
                )
            )
    ships, ship_hits = _map_ships(ctx)
    backdrop = el("rect", x=0, y=0, width=lay.width, height=lay.height, rx=12, class_="space")
    return backdrop + _starways(ctx) + _moving_trail(ctx) + "".join(nodes) + "".join(hits) + ships + ship_hits


# ---- the top panel -----------------------------------------------------------------------------


def _status(ctx: Ctx) -> tuple[str, str]:
    """The headline and the line under it."""
    view = ctx.view
    phase = view["phase"]
    limit = ctx.options.get("turn_limit")
    if phase == "over":
        winners = " and ".join(ctx.who(s) for s in view["winners"])
        verb = "wins" if len(view["winners"]) == 1 else "win"
        return f"Game over after round {view['round']}", f"{winners} {verb}: {view['reason']}."
    actor = _actor(view)
    rounds = f"Round {view['round']}" + (f"/{limit}" if limit else "")
    head = f"{rounds} · {PLAYER_NAMES[view['turn']]}'s turn" if view["round"] else "Set-up"
    doing = PHASE_TEXT.get(phase, phase)
    if actor >= 0:
        hint = {
            "homeworld": "tap a free planet to make it the homeworld",
            "design": "tap a D, then an M, then the A left",
            "move": "tap a ship, then where it flies; or end the turn",
            "standoff": "contest with the dice, or flee",
            "reward": "assimilate the beaten ship, or destroy it for its treasure",
        }.get(phase, doing)
        mine = actor == ctx.seat
        who = "You" if mine else PLAYER_NAMES[actor]
        return head, f"{who}: {hint}" if mine else f"{who} is {doing}"
    return head, doing[0].upper() + doing[1:] + " (chance)"


def _players(ctx: Ctx, y: float) -> tuple[str, float]:
    view = ctx.view
    parts = []
    for seat in range(len(view["fleets"])):
        planets = sum(1 for p in ctx.galaxy.planets if view["owner"][p] == seat)
        ships = len(ctx.fleets[seat])
        row_y = y + seat * ROW
        current = view["phase"] not in ("over",) and view["round"] > 0 and view["turn"] == seat
        body = ""
        if current:
            body += el("rect", x=0, y=_r(row_y), width=PW, height=ROW - 2, rx=5, class_="current-row")
            body += text(8, row_y + 16, "▶", anchor="start", class_="turn-mark")
        body += shape(PLAYER_SHAPE[seat], 30, row_y + ROW / 2 - 1, 14, fill=PLAYER_FILL[seat], cls="seat-shape")
        body += text(42, row_y + 16, ctx.who(seat), anchor="start", class_="seat-name")
        notes = [_plural(planets, "planet"), _plural(ships, "ship")]
        if view["rebuilding"][seat]:
            notes.append("rebuilding")
        if view["out"][seat]:
            notes.append("out")
        body += text(PW - 8, row_y + 16, " · ".join(notes), anchor="end", class_="seat-notes")
        home = view["homeworld"][seat]
        title = f"{ctx.who(seat)}: {', '.join(notes)}"
        if home >= 0:
            title += f"; homeworld {ctx.galaxy.names[home]}"
        if view["rolls"][seat] and view["round"] == 0:
            title += f"; rolled {view['rolls'][seat]} for the order of choice"
        term = "eliminated" if view["out"][seat] else ("rebuild" if view["rebuilding"][seat] else "fleet")
        parts.append(el("g", body, title=title + ".", data_term=term))
    return "".join(parts), y + len(view["fleets"]) * ROW


def _stat_boxes(x: float, y: float, stats: Stats, note: Sequence[str] = ("", "", "")) -> str:
    """D, M and A side by side, labelled, each with its glossary term."""
    parts = []
    for k, (letter, value) in enumerate(zip("DMA", stats)):
        bx = x + k * 34
        title = f"{letter} {value}: {STAT_NAMES[letter]}" + (f" ({note[k]})" if note[k] else "")
        parts.append(
            el(
                "g",
                el("rect", x=_r(bx), y=_r(y), width=30, height=34, rx=4, class_=f"stat stat-{letter}")
                + text(bx + 15, y + 11, letter, class_="stat-letter")
                + text(bx + 15, y + 29, str(value), class_="stat-value"),
                title=title,
                data_term=letter,
            )
        )
    return "".join(parts)


def _fighter(x: float, y: float, w: float, who: str, name: str, seat: int, stats: Stats, note: Sequence[str]) -> str:
    fill = PLAYER_FILL[seat] if seat >= 0 else "#8a93a8"
    body = el("rect", x=_r(x), y=_r(y), width=_r(w), height=74, rx=8, class_="fighter", stroke=fill)
    if seat >= 0:
        body += shape(PLAYER_SHAPE[seat], x + 12, y + 13, 12, fill=fill)
    body += text(x + 22, y + 17, who, anchor="start", class_="fighter-who")
    body += text(x + 8, y + 33, name[:22], anchor="start", class_="fighter-name")
    body += _stat_boxes(x + 8, y + 38, stats, note)
    d, m, a = stats
    title = f"{who}: {name}, D {d} defence, M {m} movement, A {a} attack"
    return el("g", body, title=title, data_term="battle")


def _step(y: float, state: str, words: str, term: str, title: str | None = None) -> str:
    """One line of the battle's sequence: done (✓), now (▶) or to come (·)."""
    mark = {"done": "✓", "now": "▶", "later": "·"}[state]
    return el(
        "g",
        text(10, y + 15, mark, anchor="start", class_=f"step-mark {state}")
        + text(26, y + 15, words, anchor="start", class_=f"step-text {state}"),
        title=title or words,
        data_term=term,
    )


def _wrap(words: str, width: int = 44) -> list[str]:
    """``words`` in lines of at most ``width`` characters, breaking only between words."""
    return textwrap.wrap(words, width, break_long_words=False, break_on_hyphens=False)


def _steps(ctx: Ctx, y: float, lines: list[tuple[str, str, str]]) -> tuple[str, float]:
    parts = []
    for state, words, term in lines:
        for k, line in enumerate(_wrap(words)):
            parts.append(_step(y, state, line, term, words) if k == 0 else _cont(y, state, line, term, words))
            y += 19
    return "".join(parts), y


def _cont(y: float, state: str, line: str, term: str, words: str) -> str:
    return el("g", text(26, y + 15, line, anchor="start", class_=f"step-text {state}"), title=words, data_term=term)


def _battle(ctx: Ctx, y: float) -> tuple[str, float]:
    """The battle in progress, or the moving ship's pending conquest roll and treasure draws."""
    view, content = ctx.view, ctx.content
    phase = view["phase"]
    turn, moving = view["turn"], view["moving"]
    if moving < 0 or moving >= len(ctx.fleets[turn]) or phase not in (
        "initiative", "standoff", "contest", "reward", "encounter", "conquest", "treasure",
    ):  # fmt: skip
        return "", y
    ship = ctx.fleets[turn][moving]
    top = y
    y += 8
    parts: list[str] = []
    place = ctx.galaxy.place(ship.node)
    b = view["battle"]
    if b is not None:
        kind, foe, foe_ship, first, roll, winner = b
        attacker = ship.stats
        if kind == PVM:
            defender: Stats = content.ships[foe_ship]
            foe_name, foe_seat, foe_who = "Wild spaceship", -1, "map"
        else:
            enemy = ctx.fleets[foe][foe_ship]
            d, m, a = enemy.stats
            defender = (2 * d, 0, a) if kind == ASSAULT else (d, m, a)
            foe_name, foe_seat, foe_who = enemy.name, foe, PLAYER_NAMES[foe]
        heading = f"Battle at {place}: {KIND_NAMES[kind]}"
        term = "planetary assault" if kind == ASSAULT else ("wild spaceship" if kind == PVM else "battle")
        parts.append(_heading(heading, y, heading, term))
        y += 6 + 18 * len(_wrap(heading, 40))
        half = (PW - 44) / 2
        parts.append(_fighter(10, y, half, f"{PLAYER_NAMES[turn]} attacks", ship.name, turn, attacker, ("", "", "")))
        note = ("doubled in orbit", "0 in orbit", "") if kind == ASSAULT else ("", "", "")
        parts.append(
            el(
                "g",
                text(PW / 2, y + 42, "vs", class_="versus"),
                title=f"Battle: {ship.name} against {foe_name}",
                data_term="battle",
            )
        )
        parts.append(_fighter(34 + half, y, half, f"{foe_who} defends", foe_name, foe_seat, defender, note))
        y += 84
        lines = _battle_lines(ctx, phase, kind, attacker, defender, first, roll, winner, foe)
        body, y = _steps(ctx, y, lines)
        parts.append(body)
        if phase == "standoff":
            origin = ctx.galaxy.place(view["origin"]) if view["origin"] >= 0 else "where it came from"
            flee = f"Flee to {origin}" if len(origin) <= 10 else "Flee back"
            parts.append(
                _choice(y + 4, ("Contest: a die each", "battle:contest", "Settle the standoff with a die each."))
            )
            parts.append(_choice(y + 4, (flee, "battle:flee", f"Flee back to {origin}."), right=True))
            y += 38
        if phase == "reward":
            parts.append(_choice(y + 4, ("Assimilate", "battle:assimilate", "Take the beaten ship into your fleet.")))
            destroy = (
                "Destroy for treasure",
                "battle:destroy",
                "Destroy the beaten ship and move its treasure aboard.",
            )
            parts.append(_choice(y + 4, destroy, right=True))
            y += 38
    else:
        heading = f"{PLAYER_NAMES[turn]}'s {ship.label} at {place}"
        parts.append(_heading(heading, y, ctx.ship_title(ship), "spaceship"))
        y += 6 + 18 * len(_wrap(heading, 40))
        if phase == "encounter":
            lines = [("now", "An [S] tile: a wild spaceship card is being drawn.", "spaceship tile")]
        elif phase == "conquest":
            lines = [("now", f"Conquest roll: a die gives treasure cards ({conquest_text(content)}).", "conquest roll")]
        else:
            lines = [("now", f"{_plural(view['draws'], 'treasure card')} to draw for {ship.name}.", "treasure")]
        body, y = _steps(ctx, y, lines)
        parts.append(body)
        if phase == "conquest":
            parts.append(_conquest_table(content, 10, y + 2))
            y += 46
    y += 6
    frame = el("rect", x=0, y=_r(top), width=PW, height=_r(y - top), rx=8, class_="battle-panel")
    return frame + "".join(parts), y


def _choice(y: float, choice: tuple[str, str, str], right: bool = False) -> str:
    """One of two buttons side by side in a panel; its part's last word is its glossary term."""
    label, part, title = choice
    w = (PW - 30) / 2
    return button(20 + w if right else 10, y, w, label, part, title, part.split(":")[1])


def _heading(words: str, y: float, title: str, term: str) -> str:
    lines = _wrap(words, 40)
    drawn = "".join(
        text(10, y + 14 + 18 * k, line, anchor="start", class_="panel-title") for k, line in enumerate(lines)
    )
    return el("g", drawn, title=title, data_term=term)


def _conquest_table(content: Content, x: float, y: float) -> str:
    parts = []
    for k, cards in enumerate(content.conquest_treasure):
        cx = x + k * 36
        parts.append(
            el(
                "g",
                el("rect", x=_r(cx), y=_r(y), width=32, height=38, rx=4, class_="conquest-cell")
                + text(cx + 16, y + 15, str(k + 1), class_="conquest-roll")
                + text(cx + 16, y + 32, f"{cards}T", class_="conquest-cards"),
                title=f"A roll of {k + 1}: {_plural(cards, 'treasure card')}.",
                data_term="conquest roll",
            )
        )
    return "".join(parts)


def _battle_lines(
    ctx: Ctx, phase: str, kind: str, att: Stats, dfn: Stats, first: int, roll: int, winner: int, foe: int
) -> list[tuple[str, str, str]]:
    """The battle's sequence as far as the view knows it: done, now, to come."""
    single = ctx.options.get("combat") == "single"
    lines: list[tuple[str, str, str]] = []
    ini = initiative(att, dfn)
    side = {ATTACKER: "the attacker", DEFENDER: "the defender"}
    if ini:
        lines.append(("done", f"Initiative: M {att[1]} against M {dfn[1]}, {side[ini]} strikes first.", "initiative"))
    elif first == 0:
        rolled = f" The attacker rolled {roll}; the defender rolls." if roll else " Rolling…"
        lines.append(("now", f"Initiative: equal M {att[1]}, a die each.{rolled}", "initiative"))
        lines.append(("later", "Strikes: A against D.", "strike"))
        return lines
    elif kind == PVM and ctx.options.get("map_initiative", "player") == "player":
        lines.append(("done", f"Initiative: equal M {att[1]}, the player strikes first.", "initiative"))
    else:
        lines.append(("done", f"Initiative: equal M {att[1]}, the dice gave it to {side[first]}.", "initiative"))
    strikers = [("Attacker", att, dfn), ("Defender", dfn, att)]
    if first == DEFENDER:
        strikers.reverse()
    for name, striker, target in strikers:
        a, d = striker[2], target[0]
        verdict = "wins" if a > d else ("standoff" if a == d else ("loses" if single else "no kill"))
        lines.append(("done", f"{name} strikes: A {a} against D {d}, {verdict}.", "strike"))
        if a >= d or single:
            break
    result = resolve(att, dfn, first, single)
    if result == STANDOFF:
        if phase == "standoff":
            lines.append(("now", "Standoff: the attacker is faster and may flee, or contest.", "standoff"))
        elif phase == "contest":
            rolled = f" The attacker rolled {roll}; the defender rolls." if roll else " Rolling…"
            faster = "contested" if may_flee(att, dfn) else "a die each"
            lines.append(("now", f"Standoff, {faster}.{rolled}", "contest"))
        else:
            lines.append(("done", f"Standoff: the dice gave the battle to {side.get(winner, '?')}.", "contest"))
    if phase == "reward":
        seat = ctx.view["turn"] if winner == ATTACKER else foe
        lines.append(("now", f"{ctx.who(seat)} wins: assimilate or destroy.", "assimilate"))
    return lines


def _design(ctx: Ctx, y: float) -> tuple[str, float]:
    """The mothership design panel: a row of values for each of D, M and A."""
    view, content = ctx.view, ctx.content
    if view["phase"] != "design":
        return "", y
    low, high = content.mothership_minimum, content.mothership_points - 2 * content.mothership_minimum
    actor = _actor(view)
    top = y
    heading = f"{ctx.who(actor)}: design the mothership ({content.mothership_points} points)"
    parts = [_heading(heading, y + 8, glossary(content, ctx.options)["design"], "design")]
    y += 14 + 18 * len(_wrap(heading, 40))
    values = range(low, high + 1)
    size = min(30.0, (PW - 50) / max(len(values), 1) - 3)
    for letter in "dma":
        up = letter.upper()
        parts.append(
            el(
                "g",
                text(20, y + size / 2 + 5, up, class_="stat-letter big"),
                title=f"{up}: {STAT_NAMES[up]}",
                data_term=up,
            )
        )
        for k, v in enumerate(values):
            bx = 38 + k * (size + 3)
            parts.append(el("rect", x=_r(bx), y=_r(y), width=_r(size), height=_r(size), rx=4, class_="design-cell"))
            parts.append(text(bx + size / 2, y + size / 2 + 5, str(v), class_="design-value"))
            parts.append(hit_rect(bx, y, size, size, f"design:{letter}:{v}", f"{up} {v} ({STAT_NAMES[up]})", up))
        y += size + 6
    y += 4
    frame = el("rect", x=0, y=_r(top), width=PW, height=_r(y - top), rx=8, class_="battle-panel")
    return frame + "".join(parts), y


def _top(ctx: Ctx) -> tuple[str, float]:
    view = ctx.view
    head, line = _status(ctx)
    term = "round" if view["round"] else "homeworld" if view["phase"] == "homeworld" else "design"
    end_turn = view["phase"] == "move" and view["turn"] == _actor(view)
    lines = _wrap(line, 34 if end_turn else 46)
    parts = [
        el(
            "g",
            text(4, 20, head, anchor="start", class_="status")
            + "".join(
                text(4, 40 + 17 * k, words, anchor="start", class_="status-line") for k, words in enumerate(lines)
            ),
            title=f"{head}. {line}",
            data_term=term,
        )
    ]
    y = 30.0 + 17 * len(lines)
    if end_turn:
        parts.append(
            button(PW - 96, 22, 92, "End turn", "end-turn", "End the turn (ships not moved stay put).", "round")
        )
    players, y = _players(ctx, y + 2)
    parts.append(players)
    for panel in (_battle, _design):
        drawn, end = panel(ctx, y + 6)
        if drawn:
            parts.append(drawn)
            y = end
    return "".join(parts), y + 4


# ---- the fleets -------------------------------------------------------------------------------


def _fleets(ctx: Ctx) -> tuple[str, float]:
    view = ctx.view
    parts = [text(4, 16, "FLEETS", anchor="start", class_="section-label")]
    y = 24.0
    pickable = view["phase"] == "move"
    for seat, fleet in enumerate(ctx.fleets):
        if not fleet and not view["rebuilding"][seat]:
            continue
        room = ctx.content.fleet_limit - len(fleet) - (1 if view["rebuilding"][seat] else 0)
        head = shape(PLAYER_SHAPE[seat], 12, y + 10, 12, fill=PLAYER_FILL[seat]) + text(
            24, y + 15, f"{ctx.who(seat)} · room for {room}", anchor="start", class_="fleet-head"
        )
        if view["rebuilding"][seat]:
            head += text(PW - 4, y + 15, "mothership rebuilding", anchor="end", class_="fleet-note")
        parts.append(el("g", head, title=f"{ctx.who(seat)}'s fleet: {_plural(len(fleet), 'ship')}.", data_term="fleet"))
        y += 22
        for ship in fleet:
            token, left, top, w = _token(ctx, ship, 12, y, pips=False)
            words = f"{ship.name} · {ctx.galaxy.place(ship.node)}"
            state = " · moved" if ship.acted else (" · waiting" if ship.wait else "")
            row = token + text(left + w + 10, y + 14, (words + state)[:40], anchor="start", class_="fleet-ship")
            parts.append(row)
            y += TOKEN_H + 6
            if ship.treasure:
                for card in ship.treasure:
                    t = ctx.content.treasure[card]
                    parts.append(
                        el(
                            "g",
                            el("circle", cx=22, cy=_r(y + 6), r=3, class_="pip")
                            + text(32, y + 10, t.describe(), anchor="start", class_="treasure-line"),
                            title=glossary_treasure(ctx, t.name),
                            data_term=treasure_term(t.name),
                        )
                    )
                    y += 15
                y += 4
            if pickable and seat == view["turn"]:
                term = "mothership" if ship.mothership else "spaceship"
                parts.append(
                    hit_rect(4, top - 3, PW - 8, TOKEN_H + 6, f"ship:{ship.index}", ctx.ship_title(ship), term)
                )
        y += 4
    deck = (
        f"Decks: {sum(view['ship_deck'])} spaceships · {sum(view['treasure_deck'])} treasure · "
        f"{sum(view['starway_deck'])} starways"
    )
    parts.append(el("g", text(4, y + 14, deck, anchor="start", class_="deck-line"), title=deck + " left."))
    return "".join(parts), y + 22


def glossary_treasure(ctx: Ctx, name: str) -> str:
    cards = treasure_kinds(ctx.content).get(name, [])
    return f"Treasure card {name}: {', '.join(c for c, _ in cards)} on the ship that carries it."


# ---- the whole board ----------------------------------------------------------------------------

STYLE = """
.sr-board{font-family:system-ui,sans-serif;fill:#e6ebf5}
.sr-board .bg{fill:#070b16}
.sr-board .space{fill:#0b1226;stroke:#1d2944}
.sr-board .starway{fill:none;stroke:#34466e;stroke-width:7;stroke-linejoin:round;stroke-linecap:round}
.sr-board .direct{stroke:#34466e;stroke-width:4;stroke-dasharray:5 4}
.sr-board .trail{stroke-width:2.5;stroke-dasharray:6 4;fill:none;opacity:.9}
.sr-board .nexus{fill:#2b1d52;stroke:#b794ff;stroke-width:2}
.sr-board .nexus-core{fill:#140d2b;stroke:#b794ff}
.sr-board .nexus-label{font-size:8.5px;font-weight:800;fill:#e3d4ff;letter-spacing:.5px}
.sr-board .planet{stroke:#0b1226;stroke-width:2}
.sr-board .planet.free{fill:#56607a;stroke:#aab4cc;stroke-dasharray:3 2}
.sr-board .home-ring{fill:none;stroke-width:2.5;stroke-dasharray:2 3}
.sr-board .planet-name{font-size:13px;font-weight:700;fill:#f2f5fb;paint-order:stroke;stroke:#0b1226;stroke-width:3px}
.sr-board .tile{stroke:#4a5b84;stroke-width:1.2}
.sr-board .tile-q{stroke-dasharray:3 2}
.sr-board .tile-glyph{font-size:13px;font-weight:800;fill:#1a1206}
.sr-board .tile-q+.tile-glyph{fill:#7d89a6}
.sr-board .tile-dot{fill:#6d7a99}
.sr-board .token-body{fill:#0e1424;stroke-width:1.5}
.sr-board .token-stats{font-size:13px;font-weight:800;fill:#ffffff;font-variant-numeric:tabular-nums}
.sr-board .token.spent{opacity:.6}
.sr-board .ms-ring{fill:none;stroke:#ffffff;stroke-width:1.2}
.sr-board .badge{fill:#f2c94c;stroke:#3a2c00;stroke-width:1}
.sr-board .badge-n{font-size:10px;font-weight:800;fill:#1a1206}
.sr-board .pip{fill:#f2c94c;stroke:#5a4500;stroke-width:.6}
.sr-board .wait-mark{font-size:10px;font-weight:700;fill:#9fb3ff}
.sr-board .glow{fill:none;stroke:#ffd54f;stroke-width:2.5}
.sr-board .hit{fill:transparent;cursor:pointer}
.sr-board .status{font-size:17px;font-weight:800}
.sr-board .status-line{font-size:13px;fill:#c6d0e4}
.sr-board .current-row{fill:#1b2744}
.sr-board .turn-mark{font-size:12px;fill:#ffd54f}
.sr-board .seat-name{font-size:13.5px;font-weight:700}
.sr-board .seat-notes{font-size:12.5px;fill:#c6d0e4}
.sr-board .seat-shape{stroke:#0b1226;stroke-width:1}
.sr-board .battle-panel{fill:#111a30;stroke:#ffd54f;stroke-width:1.2}
.sr-board .panel-title{font-size:13.5px;font-weight:800;fill:#ffe08a}
.sr-board .fighter{fill:#0b1226;stroke-width:2}
.sr-board .fighter-who{font-size:11px;font-weight:700;fill:#c6d0e4}
.sr-board .fighter-name{font-size:12px;font-weight:700}
.sr-board .versus{font-size:12px;font-weight:800;fill:#ffd54f}
.sr-board .stat{fill:#18223a;stroke:#3a4a70}
.sr-board .stat-letter{font-size:9.5px;font-weight:700;fill:#a3afc6}
.sr-board .stat-letter.big{font-size:15px;fill:#e6ebf5}
.sr-board .stat-value{font-size:15px;font-weight:800}
.sr-board .step-mark{font-size:12px;font-weight:800}
.sr-board .step-mark.done{fill:#69f0ae}
.sr-board .step-mark.now{fill:#ffd54f}
.sr-board .step-mark.later,.sr-board .step-text.later{fill:#7d89a6}
.sr-board .step-text{font-size:12.5px}
.sr-board .step-text.now{font-weight:700}
.sr-board .btn{fill:#1e4f8a;stroke:#7cc4ff}
.sr-board .btn-label{font-size:12.5px;font-weight:700}
.sr-board .design-cell{fill:#18223a;stroke:#3a4a70}
.sr-board .design-value{font-size:14px;font-weight:800}
.sr-board .conquest-cell{fill:#18223a;stroke:#f2c94c}
.sr-board .conquest-roll{font-size:12px;font-weight:800}
.sr-board .conquest-cards{font-size:11px;fill:#f2c94c}
.sr-board .section-label{font-size:11px;font-weight:700;fill:#a3afc6;letter-spacing:2px}
.sr-board .fleet-head{font-size:13px;font-weight:700}
.sr-board .fleet-note{font-size:11.5px;fill:#ffd54f}
.sr-board .fleet-ship{font-size:12.5px}
.sr-board .treasure-line{font-size:11.5px;fill:#f2dfa0}
.sr-board .deck-line{font-size:11.5px;fill:#a3afc6}
"""


def board_svg(galaxy: Galaxy, content: Content, options: Mapping[str, Any], view: JSON, seat: int | None) -> str:
    """The whole board of ``view`` as one ``<svg>``: tall arrangement in its ``viewBox``, wide in
    ``data-viewbox-wide`` (the client switches with the class ``st-wide``)."""
    assert isinstance(view, Mapping)
    lay = map_layout(galaxy)
    ctx = Ctx(galaxy, content, options, view, seat, _ships(view, content), lay)
    top, top_h = _top(ctx)
    fleets, fleets_h = _fleets(ctx)
    drawing = _map(ctx)
    # tall: the panels scaled to the map's width, above and below it
    width = max(lay.width, PW)
    scale = width / PW
    map_x = (width - lay.width) / 2
    map_y = top_h * scale + 6
    fleets_y = map_y + lay.height + 10
    tall_h = fleets_y + fleets_h * scale
    # wide: the map at the left, the panels in a column at its right
    wide_x = lay.width + GAP
    wide_w = wide_x + PW
    wide_h = max(lay.height, top_h + 8 + fleets_h)
    tall = f"0 0 {_r(width)} {_r(tall_h)}"
    wide = f"0 0 {_r(wide_w)} {_r(wide_h)}"
    style = STYLE + (
        f".sr-board.st-wide .sr-map{{transform:translate(0px,0px)}}"
        f".sr-board.st-wide .sr-top{{transform:translate({_r(wide_x)}px,0px)}}"
        f".sr-board.st-wide .sr-fleets{{transform:translate({_r(wide_x)}px,{_r(top_h + 8)}px)}}"
    )
    s = _r(scale)
    body = (
        f"<style>{style}</style>"
        + el("rect", x=0, y=0, width=_r(max(width, wide_w)), height=_r(max(tall_h, wide_h)), class_="bg")
        + el("g", top, class_="sr-top", transform=f"scale({s})")
        + el("g", drawing, class_="sr-map", transform=f"translate({_r(map_x)},{_r(map_y)})")
        + el("g", fleets, class_="sr-fleets", transform=f"translate(0,{_r(fleets_y)}) scale({s})")
    )
    return svg_board(body, tall=tall, wide=wide, name="sr-board", label="SpaceRace galactic map")
