"""The galactic map of SpaceRace's web board: the starways, the Nexus, planets, tiles and ship tokens."""

from __future__ import annotations

import math

from spacetable.engine.svg import el

from ..rules.mapgen import NEXUS
from ..rules.state import PVM
from .web_context import Ctx, ShipView
from .web_layout import PLANET_R, TILE, TOKEN_H, label_anchor, ship_reach, token_anchor
from .web_markup import PLAYER_FILL, PLAYER_INK, PLAYER_NAMES, PLAYER_SHAPE, hit_circle, hit_rect, shape, tenth, text
from .web_words import plural

TILE_FILL = {"T": "#f2c94c", "S": "#ff7a59", ".": "#1b2440", "?": "#111827"}
TILE_TERM = {"T": "treasure tile", "S": "spaceship tile", ".": "empty tile", "?": "unlaid tile"}


# ---- the map ---------------------------------------------------------------------------------


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
        x1=tenth(x1),
        y1=tenth(y1),
        x2=tenth(x2),
        y2=tenth(y2),
        class_="trail",
        stroke=PLAYER_FILL[ship.seat],
    )


def _nexus(ctx: Ctx) -> str:
    x, y = ctx.lay.xy[NEXUS]
    points = " ".join(
        f"{tenth(x + 26 * math.cos(k * math.pi / 4))},{tenth(y + 26 * math.sin(k * math.pi / 4))}" for k in range(8)
    )
    delay = ctx.options.get("nexus_delay", 1)
    title = f"The Nexus: a ship entering it stops, then waits {plural(delay, 'turn')} for customs."
    return el(
        "g",
        el("polygon", points=points, class_="nexus")
        + el("circle", cx=tenth(x), cy=tenth(y), r=15, class_="nexus-core")
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
        body += el("circle", cx=tenth(x), cy=tenth(y), r=PLANET_R + 5, class_="home-ring", stroke=PLAYER_FILL[founder])
    if owner >= 0:
        body += el("circle", cx=tenth(x), cy=tenth(y), r=PLANET_R, class_="planet", fill=PLAYER_FILL[owner])
        body += shape(PLAYER_SHAPE[owner], x, y, 16, fill=PLAYER_INK[owner], cls="owner-mark")
        holder = f"held by {ctx.who(owner)}"
    else:
        body += el("circle", cx=tenth(x), cy=tenth(y), r=PLANET_R, class_="planet free")
        holder = "unclaimed"
    lx, ly, anchor = label_anchor((x, y), ctx.lay.ray[node], ctx.lay.leaf[node])
    body += text(lx, ly, name, anchor=anchor, class_="planet-name")
    orbit = [s.label for fleet in ctx.fleets for s in fleet if s.node == node]
    title = f"{name}: a planet, {holder}"
    if home:
        title += f", {PLAYER_NAMES[list(view['homeworld']).index(node)]}'s homeworld"
    title += f"; {plural(galaxy.distance[NEXUS][node], 'step')} from the Nexus."
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
        x=tenth(x - h),
        y=tenth(y - h),
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
        body += el("circle", cx=tenth(x), cy=tenth(y), r=2.5, class_="tile-dot")
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


def ship_token(
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
    body = el("rect", x=tenth(left), y=tenth(y), width=tenth(w), height=TOKEN_H, rx=4, class_="token-body", stroke=fill)
    body += el("rect", x=tenth(left), y=tenth(y), width=16, height=TOKEN_H, rx=4, fill=fill)
    body += shape(PLAYER_SHAPE[ship.seat], left + 8, y + TOKEN_H / 2, 10, fill=ink)
    body += text(left + 16 + (w - 16) / 2, y + 14.5, words, class_="token-stats")
    if ship.mothership:
        body += el(
            "rect", x=tenth(left - 2), y=tenth(y - 2), width=tenth(w + 4), height=TOKEN_H + 4, rx=6, class_="ms-ring"
        )
    if ship.treasure and pips:  # a gold badge counting the treasure cards aboard
        body += el("circle", cx=tenth(left + w), cy=tenth(y + 1), r=7, class_="badge")
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
            ax, ay, align = token_anchor(ctx.lay.xy[node], ctx.lay.ray[node], k, ship_reach(ctx.galaxy, node))
            token, left, top, w = ship_token(ctx, ship, ax, ay, align)
            if (ship.seat, ship.index) in fighting:
                drawn.append(
                    el(
                        "rect",
                        x=tenth(left - 4),
                        y=tenth(top - 4),
                        width=tenth(w + 8),
                        height=TOKEN_H + 8,
                        rx=7,
                        class_="glow",
                    )
                )
            drawn.append(token)
            if pickable and ship.seat == view["turn"]:
                term = "mothership" if ship.mothership else "spaceship"
                hits.append(
                    hit_rect(left - 2, top - 2, w + 4, TOKEN_H + 4, f"ship:{ship.index}", ctx.ship_title(ship), term)
                )
    return "".join(drawn), "".join(hits)


def draw_map(ctx: Ctx) -> str:
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
