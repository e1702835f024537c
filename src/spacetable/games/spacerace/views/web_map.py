"""The galactic map of SpaceRace's web board (the grid of the split): starways, the Nexus,
planets, tiles and ship tokens.

Every text is the map's one size (:attr:`.web_layout.MapLayout.font`, set on the ``<svg>``).
Names sit beside their nodes (placed once per map), tokens beside theirs (placed on every
drawing, :func:`.web_layout.place`), so nothing is drawn over a node, a name or a token. The
tiles are told apart by colour and a mark: a diamond for [T], a ship's arrow for [S], a dot for
an empty tile, a dashed edge for one not laid yet."""

from __future__ import annotations

import math

from spacetable.engine.svg import el

from ..rules.mapgen import NEXUS
from ..rules.state import PVM
from .web_context import Ctx, ShipView, deciding_seat
from .web_layout import GAP, NEXUS_R, PLANET_R, TILE, Box, candidates, node_box, place
from .web_markup import PLAYER_FILL, PLAYER_INK, PLAYER_NAMES, PLAYER_SHAPE, shape, tenth, text
from .web_words import plural

TILE_FILL = {"T": "#f2c94c", "S": "#ff7a59", ".": "#1b2440", "?": "#111827"}
TILE_TERM = {"T": "treasure tile", "S": "spaceship tile", ".": "empty tile", "?": "unlaid tile"}

GRID_STYLE = """
.sr-grid{font-family:system-ui,sans-serif;fill:#e6ebf5;background:#070b16}
.sr-grid text{stroke:none;font-size:1em}
.sr-grid .space{fill:#0b1226;stroke:#1d2944;pointer-events:none}
.sr-grid .starway{fill:none;stroke:#34466e;stroke-width:7;stroke-linejoin:round;stroke-linecap:round}
.sr-grid .direct{stroke:#34466e;stroke-width:4;stroke-dasharray:5 4}
.sr-grid .trail{stroke-width:2.5;stroke-dasharray:6 4;fill:none;opacity:.9}
.sr-grid .nexus{fill:#2b1d52;stroke:#b794ff;stroke-width:2}
.sr-grid .nexus-core{fill:#140d2b;stroke:#b794ff}
.sr-grid text.label{font-weight:700;fill:#f2f5fb;paint-order:stroke;stroke:#0b1226;stroke-width:3px}
.sr-grid text.nexus-label{fill:#e3d4ff}
.sr-grid .planet{stroke:#0b1226;stroke-width:2}
.sr-grid .planet.free{fill:#56607a;stroke:#aab4cc;stroke-dasharray:3 2}
.sr-grid .home-ring{fill:none;stroke-width:2.5;stroke-dasharray:2 3}
.sr-grid .tile-g{pointer-events:none}
.sr-grid .tile{stroke:#4a5b84;stroke-width:1.2}
.sr-grid .tile-q{stroke:#7d89a6;stroke-dasharray:3 2}
.sr-grid .tile-mark{fill:#1a1206}
.sr-grid .tile-dot{fill:#6d7a99}
.sr-grid .token-body{fill:#0e1424;stroke-width:1.5}
.sr-grid .token.waiting .token-body{stroke-dasharray:4 2}
.sr-grid text.token-stats{font-weight:800;fill:#ffffff;font-variant-numeric:tabular-nums}
.sr-grid .token.spent{opacity:.6}
.sr-grid .ms-ring{fill:none;stroke:#ffffff;stroke-width:1.2}
.sr-grid .badge{fill:#f2c94c;stroke:#3a2c00;stroke-width:1}
.sr-grid text.badge-n{font-weight:800;fill:#1a1206}
.sr-grid .leader{stroke-width:1.5;stroke-dasharray:3 2;pointer-events:none}
.sr-grid .glow{fill:none;stroke:#ffd54f;stroke-width:2.5;pointer-events:none}
.sr-grid .hit{fill:transparent}
.sr-grid .st-piece,.sr-grid .st-target{cursor:pointer}
"""


# ---- the nodes ------------------------------------------------------------------------------------


def _starways(ctx: Ctx) -> str:
    galaxy, xy = ctx.galaxy, ctx.lay.xy
    parts = []
    for way in galaxy.starways:
        chain = [way.near, *way.tiles, way.far]
        d = "M" + " L".join(f"{tenth(xy[n][0])},{tenth(xy[n][1])}" for n in chain)
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
                    x1=tenth(x1),
                    y1=tenth(y1),
                    x2=tenth(x2),
                    y2=tenth(y2),
                    class_="direct",
                    data_term="direct link",
                )
            )
    return "".join(parts)


def _moving_trail(ctx: Ctx) -> str:
    """A dashed line from where the moving ship came from to where it is."""
    view = ctx.view
    origin, moving = view["origin"], view["moving"]
    if origin < 0 or moving < 0 or moving >= len(ctx.fleets[view["turn"]]):
        return ""
    ship = ctx.fleets[view["turn"]][moving]
    (x1, y1), (x2, y2) = ctx.lay.xy[origin], ctx.lay.xy[ship.node]
    return el(
        "line",
        title=f"{ship.name} came from {ctx.galaxy.place(origin)} (a ship that flees goes back there).",
        x1=tenth(x1),
        y1=tenth(y1),
        x2=tenth(x2),
        y2=tenth(y2),
        class_="trail",
        stroke=PLAYER_FILL[ship.seat],
    )


def _label(ctx: Ctx, node: int, words: str, cls: str = "label") -> str:
    spot = ctx.lay.labels[node]
    assert spot is not None
    x, y, anchor = spot
    return text(x, y, words, anchor=anchor, class_=cls)


def _nexus(ctx: Ctx) -> tuple[str, str]:
    """The Nexus, and its hit area."""
    x, y = ctx.lay.xy[NEXUS]
    points = " ".join(
        f"{tenth(x + NEXUS_R * math.cos(k * math.pi / 4))},{tenth(y + NEXUS_R * math.sin(k * math.pi / 4))}"
        for k in range(8)
    )
    delay = ctx.options.get("nexus_delay", 1)
    title = f"The Nexus: a ship entering it stops, then waits {plural(delay, 'turn')} for customs."
    drawn = el(
        "g",
        el("polygon", points=points, class_="nexus")
        + el("circle", cx=tenth(x), cy=tenth(y), r=15, class_="nexus-core")
        + _label(ctx, NEXUS, "Nexus", "label nexus-label"),
        title=title,
        data_term="Nexus",
    )
    hit = el(
        "circle",
        title=title,
        cx=tenth(x),
        cy=tenth(y),
        r=NEXUS_R + 2,
        data_part="nexus",
        data_term="Nexus",
        class_="hit",
    )
    return drawn, hit


def _planet(ctx: Ctx, node: int) -> tuple[str, str]:
    """A planet with its name, and its hit area (the same hover text)."""
    view, galaxy = ctx.view, ctx.galaxy
    x, y = ctx.lay.xy[node]
    owner = view["owner"][node]
    homes = list(view["homeworld"])
    name = galaxy.names[node]
    body = ""
    if node in homes:
        ring = PLANET_R + 5
        body += el(
            "circle", cx=tenth(x), cy=tenth(y), r=ring, class_="home-ring", stroke=PLAYER_FILL[homes.index(node)]
        )
    if owner >= 0:
        body += el("circle", cx=tenth(x), cy=tenth(y), r=PLANET_R, class_="planet", fill=PLAYER_FILL[owner])
        body += shape(PLAYER_SHAPE[owner], x, y, 16, fill=PLAYER_INK[owner], cls="owner-mark")
        holder = f"held by {ctx.who(owner)}"
    else:
        body += el("circle", cx=tenth(x), cy=tenth(y), r=PLANET_R, class_="planet free")
        holder = "unclaimed"
    body += _label(ctx, node, name)
    orbit = [s.label for fleet in ctx.fleets for s in fleet if s.node == node]
    title = f"{name}: a planet, {holder}"
    if node in homes:
        title += f", {PLAYER_NAMES[homes.index(node)]}'s homeworld"
    title += f"; {plural(galaxy.distance[NEXUS][node], 'step')} from the Nexus."
    if orbit:
        title += f" In orbit: {', '.join(orbit)}."
    term = "homeworld" if node in homes else "planet"
    hit = el(
        "circle",
        title=title,
        cx=tenth(x),
        cy=tenth(y),
        r=PLANET_R + 5,
        data_part=f"planet:{node}",
        data_term=term,
        class_="hit",
    )
    return el("g", body, title=title, data_term=term), hit


def _tile(ctx: Ctx, node: int) -> tuple[str, str]:
    """A starway tile (its kind by colour and mark), and its hit area, laid over it, which
    carries its hover text."""
    x, y = ctx.lay.xy[node]
    mark = ctx.view["tiles"][node]
    h = TILE / 2
    kind = {"T": "tile-T", "S": "tile-S", ".": "tile-dot", "?": "tile-q"}.get(mark, "tile-dot")
    body = el(
        "rect",
        x=tenth(x - h),
        y=tenth(y - h),
        width=TILE,
        height=TILE,
        rx=5,
        class_=f"tile {kind}",
        fill=TILE_FILL.get(mark, "#1b2440"),
    )
    if mark == "T":  # a diamond: something to pick up
        body += el("polygon", points=_points(x, y, [(0, -6), (5, 0), (0, 6), (-5, 0)]), class_="tile-mark")
    elif mark == "S":  # a ship's arrow
        body += el("polygon", points=_points(x, y, [(0, -6), (5, 5), (0, 2), (-5, 5)]), class_="tile-mark")
    elif mark == ".":
        body += el("circle", cx=tenth(x), cy=tenth(y), r=2.5, class_="tile-dot")
    meaning = {
        "T": "[T] treasure: a ship ending its move here draws a treasure card",
        "S": "[S] spaceship: a ship ending its move here fights a wild spaceship",
        ".": "empty",
        "?": "not laid yet",
    }.get(mark, mark)
    title = f"{ctx.galaxy.place(node)}: {meaning}."
    term = TILE_TERM.get(mark, "empty tile")
    hit = el(
        "rect",
        title=title,
        x=tenth(x - h - 3),
        y=tenth(y - h - 3),
        width=TILE + 6,
        height=TILE + 6,
        rx=5,
        data_part=f"tile:{node}",
        data_term=term,
        class_="hit",
    )
    return el("g", body, class_="tile-g"), hit


def _points(x: float, y: float, offsets: list[tuple[float, float]]) -> str:
    return " ".join(f"{tenth(x + dx)},{tenth(y + dy)}" for dx, dy in offsets)


# ---- the ships ------------------------------------------------------------------------------------


def _words(ship: ShipView) -> str:
    return "|".join(map(str, ship.stats))


def ship_token(ctx: Ctx, ship: ShipView, box: Box) -> str:
    """A ship token filling ``box``: its owner's colour and shape, its D|M|A, and a gold badge
    counting its treasure cards; a mothership has a white ring, a waiting ship a dashed edge."""
    f, lay = ctx.lay.font, ctx.lay
    left, top = box.left, box.top
    w, h = box.right - box.left, lay.token_h
    fill, ink = PLAYER_FILL[ship.seat], PLAYER_INK[ship.seat]
    moving = ship.seat == ctx.view["turn"] and ship.index == ctx.view["moving"]
    spent = (ship.acted or ship.wait) and not moving and ctx.view["phase"] != "over"
    classes = "token" + (" spent" if spent else "") + (" waiting" if ship.wait else "")
    block = 1.1 * f
    badge = lay.badge_w(len(ship.treasure))
    body = el(
        "rect", x=tenth(left), y=tenth(top), width=tenth(w), height=tenth(h), rx=4, class_="token-body", stroke=fill
    )
    body += el("rect", x=tenth(left), y=tenth(top), width=tenth(block), height=tenth(h), rx=4, fill=fill)
    body += shape(PLAYER_SHAPE[ship.seat], left + block / 2, top + h / 2, 0.7 * f, fill=ink)
    body += text(left + block + (w - block - badge) / 2, top + h / 2 + 0.36 * f, _words(ship), class_="token-stats")
    if ship.treasure:
        pill = 1.24 * f
        bx, by = left + w - badge, top + (h - pill) / 2
        body += el(
            "rect",
            x=tenth(bx),
            y=tenth(by),
            width=tenth(badge - 0.15 * f),
            height=tenth(pill),
            rx=tenth(pill / 2),
            class_="badge",
        )
        body += text(bx + (badge - 0.15 * f) / 2, top + h / 2 + 0.36 * f, str(len(ship.treasure)), class_="badge-n")
    if ship.mothership:
        body += el(
            "rect", x=tenth(left - 2), y=tenth(top - 2), width=tenth(w + 4), height=tenth(h + 4), rx=6, class_="ms-ring"
        )
    term = "mothership" if ship.mothership else "spaceship"
    return el("g", body, title=ctx.ship_title(ship), data_term=term, class_=classes)


def _ship_spots(ctx: Ctx) -> list[tuple[ShipView, Box]]:
    """Each ship and where its token goes: beside its node, stacked with the others there, on
    the first place free of nodes, names and the tokens placed before it."""
    lay = ctx.lay
    taken = list(lay.taken)
    bounds = Box(0, 0, lay.width, lay.height)
    spots: list[tuple[ShipView, Box]] = []
    at: dict[int, list[ShipView]] = {}
    for fleet in ctx.fleets:
        for ship in fleet:
            at.setdefault(ship.node, []).append(ship)
    for node, ships in sorted(at.items()):
        x, y = lay.xy[node]
        near = node_box(ctx.galaxy, node, x, y)
        previous: Box | None = None
        for ship in ships:
            size = Box(0, 0, lay.token_w(_words(ship), len(ship.treasure)), lay.token_h)
            around = candidates(near, size, lay.ray[node], rings=8)
            if previous is not None:  # under or over the token before it, in a column
                step = lay.token_h + GAP
                column = [
                    Box(previous.left, previous.top + d, previous.left + size.right, previous.bottom + d)
                    for d in (step, -step)
                ]
                around = column + around
            spot = place(around, taken, bounds)
            taken.append(Box(spot.left - GAP, spot.top - GAP, spot.right + GAP, spot.bottom + GAP))
            spots.append((ship, spot))
            previous = spot
    return spots


def _leader(ctx: Ctx, ship: ShipView, box: Box) -> str:
    """A thin line from a ship's node to its token where the token could not be laid beside it
    (drawn under the nodes)."""
    x, y = ctx.lay.xy[ship.node]
    near = node_box(ctx.galaxy, ship.node, x, y)
    reach = 2 * GAP
    if max(box.left - near.right, near.left - box.right, box.top - near.bottom, near.top - box.bottom) <= reach:
        return ""
    tx, ty = min(max(x, box.left), box.right), min(max(y, box.top), box.bottom)
    return el(
        "line", x1=tenth(x), y1=tenth(y), x2=tenth(tx), y2=tenth(ty), class_="leader", stroke=PLAYER_FILL[ship.seat]
    )


def _map_ships(ctx: Ctx) -> tuple[str, str, str]:
    """The ship tokens, the hit areas of the ships the viewer may move now (drawn last), and the
    lines to tokens laid away from their nodes."""
    view = ctx.view
    b = view["battle"]
    fighting: set[tuple[int, int]] = set()
    if view["moving"] >= 0:
        fighting.add((view["turn"], view["moving"]))
    if b is not None and b[0] != PVM:
        fighting.add((b[1], b[2]))
    movers = view["phase"] == "move" and ctx.seat == deciding_seat(view)
    drawn, hits, leaders = [], [], []
    for ship, box in _ship_spots(ctx):
        leaders.append(_leader(ctx, ship, box))
        if (ship.seat, ship.index) in fighting:
            drawn.append(
                el(
                    "rect",
                    x=tenth(box.left - 4),
                    y=tenth(box.top - 4),
                    width=tenth(box.right - box.left + 8),
                    height=tenth(box.bottom - box.top + 8),
                    rx=7,
                    class_="glow",
                )
            )
        drawn.append(ship_token(ctx, ship, box))
        if movers and ship.seat == view["turn"]:
            term = "mothership" if ship.mothership else "spaceship"
            hits.append(
                el(
                    "rect",
                    title=ctx.ship_title(ship),
                    x=tenth(box.left - 2),
                    y=tenth(box.top - 2),
                    width=tenth(box.right - box.left + 4),
                    height=tenth(box.bottom - box.top + 4),
                    rx=5,
                    data_part=f"ship:{ship.index}",
                    data_term=term,
                    class_="hit",
                )
            )
    return "".join(drawn), "".join(hits), "".join(leaders)


def draw_map(ctx: Ctx) -> str:
    """The map's markup: the backdrop, the starways, the nodes and their hit areas, the ships."""
    galaxy, lay = ctx.galaxy, ctx.lay
    nodes, hits = [], []
    for node in range(galaxy.size):
        if node == NEXUS:
            drawn, hit = _nexus(ctx)
        elif galaxy.names[node]:
            drawn, hit = _planet(ctx, node)
        else:
            drawn, hit = _tile(ctx, node)
        nodes.append(drawn)
        hits.append(hit)
    ships, ship_hits, leaders = _map_ships(ctx)
    backdrop = el("rect", x=0, y=0, width=lay.width, height=lay.height, rx=12, class_="space")
    under = backdrop + _starways(ctx) + _moving_trail(ctx) + leaders
    return under + "".join(nodes) + "".join(hits) + ships + ship_hits
