"""The grid of Mothership's web board: coordinates, terrain, planets, beacon tokens and units."""

from __future__ import annotations

import math
from collections.abc import Sequence

from spacetable.engine.svg import el

from ..content import UNITS
from ..rules.board import ASTEROID, BLACK_HOLE, NEUTRON_STAR, PLANET, Board
from .web_markup import CANNON, CELL, CELL_CHOICES, LETTERS, STATION, Ctx, text

# ---- the grid -----------------------------------------------------------------------------------


def _terrain(ctx: Ctx, cell: int) -> tuple[str, str, bool]:
    """(words, glossary term, risky) of a space's terrain."""
    return terrain(ctx.board, ctx.view["owner"], cell)


def terrain(board: Board, owners: Sequence[int], cell: int) -> tuple[str, str, bool]:
    """(words, glossary term, risky) of a space's terrain; ``owners``: each planet's holder as the
    view gives it (-1 neutral, -2 taken off the board). The terminal's menus use it too."""
    mark = board.terrain[cell]
    if mark == PLANET:
        p = board.planets.index(cell)
        owner = owners[p] if p < len(owners) else -1
        if owner == -2:
            return "a planet taken off the board: empty space", "removed planet", False
        return ("a planet", "planet", False) if owner >= 0 else ("a neutral planet", "neutral planet", False)
    if mark == ASTEROID:
        return "asteroid field (risky: a dogfight with the asteroids on entering)", "asteroid field", True
    if mark == NEUTRON_STAR:
        return "neutron star (impassable)", "neutron star", False
    if mark == BLACK_HOLE:
        return "black hole (risky: entering it is rolled against)", "black hole", True
    if any(board.terrain[n] == BLACK_HOLE for n in board.neighbours[cell]):
        return "empty space beside a black hole (risky: a move ending here is pulled in)", "black hole", True
    return "empty space", "empty space", False


def _token_words(unit: int) -> str:
    return "a locked distress beacon" if unit < 0 else f"a distress beacon for a {UNITS[unit]}"


def _cells(ctx: Ctx) -> str:
    view = ctx.view
    tokens = {t[0]: t[1] for t in view["tokens"]}
    parts = []
    for cell in range(ctx.size * ctx.size):
        x, y = ctx.cell_xy(cell)
        words, term, risky = _terrain(ctx, cell)
        if cell in tokens:
            words += f"; {_token_words(tokens[cell])}"
        occupant = view["grid"][cell] if cell < len(view["grid"]) else -1
        if occupant >= 0:
            words += f"; {_occupant_words(ctx, occupant >> 4, occupant & 15)}"
        cls = "ms-cell" + (" ms-risky" if risky else "") + (" ms-rock" if ctx.board.terrain[cell] == ASTEROID else "")
        if ctx.board.terrain[cell] == NEUTRON_STAR:
            cls += " ms-star"
        if ctx.board.terrain[cell] == BLACK_HOLE:
            cls += " ms-hole"
        parts.append(
            el(
                "rect",
                title=f"{ctx.name(cell)}: {words}",
                x=x + 1,
                y=y + 1,
                width=CELL - 2,
                height=CELL - 2,
                rx=4,
                class_=cls,
                data_part=f"cell:{ctx.name(cell)}",
                data_term=term,
            )
        )
    return "".join(parts)


def _occupant_words(ctx: Ctx, fleet: int, unit: int) -> str:
    if unit == STATION:
        return f"{ctx.who(fleet)}'s colony station"
    if unit == CANNON:
        return f"{ctx.who(fleet)}'s guardian cannon"
    return f"{ctx.who(fleet)}'s {ctx.game.ship_names[unit]}"


def _decor(ctx: Ctx) -> str:
    """Terrain art (asteroids, stars, black holes, beacon tokens): under the pieces, never clicked."""
    board, view = ctx.board, ctx.view
    parts = []
    for cell, mark in enumerate(board.terrain):
        x, y = ctx.cell_xy(cell)
        cx, cy = x + CELL / 2, y + CELL / 2
        if mark == ASTEROID:
            parts.append(
                el("polygon", points=_poly(cx - 6, cy - 5, 9, 7), class_="ms-asteroid")
                + el("polygon", points=_poly(cx + 8, cy + 7, 6, 5), class_="ms-asteroid")
                + el("circle", cx=cx + 9, cy=cy - 9, r=3, class_="ms-asteroid")
            )
        elif mark == NEUTRON_STAR:
            star = " ".join(
                f"{cx + (15 if k % 2 == 0 else 5) * _cos(k * 45)},{cy + (15 if k % 2 == 0 else 5) * _sin(k * 45)}"
                for k in range(8)
            )
            parts.append(
                el("circle", cx=cx, cy=cy, r=12, class_="ms-star-glow")
                + el("polygon", points=star, class_="ms-star-shape")
            )
        elif mark == BLACK_HOLE:
            parts.append(
                el("circle", cx=cx, cy=cy, r=16, class_="ms-hole-ring")
                + el("circle", cx=cx, cy=cy, r=9, class_="ms-hole-core")
            )
        elif mark == PLANET:
            p = board.planets.index(cell)
            if view["owner"][p] == -2:
                parts.append(el("circle", cx=cx, cy=cy, r=13, class_="ms-planet-gone"))
    if view["phase"] == "place" and board.fleet >= 0:
        x, y = ctx.cell_xy(board.fleet)
        parts.append(text(x + CELL / 2, y + CELL / 2 + ctx.font * 0.4, "F", anchor="middle", class_="ms-fleet-corner"))
    for cell, unit in view["tokens"]:
        x, y = ctx.cell_xy(cell)
        label = "?" if unit < 0 else LETTERS[UNITS[unit]]
        cls = "ms-token" + (" locked" if unit < 0 else "")
        w, h = ctx.font * 1.25, ctx.font * 1.05
        parts.append(
            el("rect", x=x + 1, y=y + 1, width=w, height=h, rx=3, class_=cls)
            + text(x + 1 + w / 2, y + 1 + h * 0.8, f"!{label}", anchor="middle", class_="ms-token-text")
        )
    return el("g", "".join(parts), class_="ms-decor", pointer_events="none")


def _cos(deg: float) -> float:
    return round(math.cos(math.radians(deg)), 4)


def _sin(deg: float) -> float:
    return round(math.sin(math.radians(deg)), 4)


def _poly(cx: float, cy: float, rx: float, ry: float) -> str:
    shape = ((-1, -0.3), (-0.4, -1), (0.6, -0.8), (1, 0.1), (0.5, 1), (-0.6, 0.8))
    return " ".join(f"{cx + dx * rx:.1f},{cy + dy * ry:.1f}" for dx, dy in shape)


def _planets(ctx: Ctx) -> str:
    board, view = ctx.board, ctx.view
    parts = []
    artifacts = view["artifacts"]
    for p, cell in enumerate(board.planets):
        owner = view["owner"][p] if p < len(view["owner"]) else -1
        if owner == -2:
            continue
        x, y = ctx.cell_xy(cell)
        cx, cy = x + CELL / 2, y + CELL / 2
        whose = f"held by {ctx.who(owner)}" if owner >= 0 else "neutral"
        words = f"Planet at {ctx.name(cell)}, {whose}"
        term = "planet" if owner >= 0 else "neutral planet"
        art = artifacts[p] if p < len(artifacts) else -1
        if art >= 0:
            artifact = ctx.game.content.artifacts[art]
            words += f"; explored: {artifact.name} ({artifact.text})"
            term = ctx.terms.artifacts[art]
        elif "exploration" in ctx.game.modules:
            words += "; not explored yet"
        fill = ctx.colour(owner) if owner >= 0 else "#8a96b3"
        body = el("circle", cx=cx, cy=cy, r=15, class_="ms-planet", fill=fill)
        body += el("path", d=f"M{cx - 19},{cy + 3} Q{cx},{cy + 10} {cx + 19},{cy - 3}", class_="ms-planet-ring")
        label = ctx.mark(owner) if owner >= 0 else "P"
        body += text(cx, cy + ctx.font * 0.36, label, anchor="middle", class_="ms-planet-label")
        if art >= 0:
            body += el(
                "polygon",
                points=f"{cx + 9},{cy - 16} {cx + 14},{cy - 11} {cx + 9},{cy - 6} {cx + 4},{cy - 11}",
                class_="ms-artifact",
            )
        parts.append(el("g", body, title=words + ".", data_part=f"planet:{p}", data_term=term, class_="ms-planet-g"))
    return "".join(parts)


def _shape(kind: str, cx: float, cy: float, fill: str) -> str:
    if kind == "mothership":
        pts = " ".join(f"{cx + 17 * _cos(a)},{cy + 17 * _sin(a)}" for a in range(30, 390, 60))
        return el("polygon", points=pts, fill=fill, class_="ms-body")
    if kind == "fighter":
        return el(
            "polygon", points=f"{cx},{cy - 15} {cx + 13},{cy + 10} {cx - 13},{cy + 10}", fill=fill, class_="ms-body"
        )
    if kind == "bomber":
        return el(
            "polygon",
            points=f"{cx},{cy - 15} {cx + 14},{cy} {cx},{cy + 15} {cx - 14},{cy}",
            fill=fill,
            class_="ms-body",
        )
    if kind == "station":
        return el("rect", x=cx - 15, y=cy - 15, width=30, height=30, rx=3, fill=fill, class_="ms-body ms-station-body")
    return el("circle", cx=cx, cy=cy, r=10, fill=fill, class_="ms-body") + el(
        "rect", x=cx - 2, y=cy - 17, width=4, height=9, fill=fill, class_="ms-body"
    )


def _units(ctx: Ctx) -> str:
    view = ctx.view
    c = ctx.game.content
    parts = []
    for cell, occupant in enumerate(view["grid"]):
        if occupant < 0:
            continue
        fleet, unit = occupant >> 4, occupant & 15
        x, y = ctx.cell_xy(cell)
        cx, cy = x + CELL / 2, y + CELL / 2
        colour = ctx.colour(fleet)
        mark = ctx.mark(fleet)
        if unit == STATION:
            hp = view["station_hp"][fleet]
            body = _shape("station", cx, cy, colour) + text(
                cx, cy + ctx.font * 0.36, "S" + mark, anchor="middle", class_="ms-label"
            )
            body += _bars(cx, y + CELL - 5, [(hp / c.station_hp, "ms-hp")])
            title = f"{ctx.who(fleet)}'s colony station at {ctx.name(cell)}: {hp}/{c.station_hp} hull points"
            parts.append(
                el("g", body, title=title, data_part=f"station:{fleet}", data_term="colony station", class_="ms-unit")
            )
            continue
        if unit == CANNON:
            body = _shape("cannon", cx, cy, colour) + text(
                cx, cy + ctx.font * 0.36, mark, anchor="middle", class_="ms-label"
            )
            title = f"{ctx.who(fleet)}'s guardian cannon at {ctx.name(cell)}: defends with a d{c.cannons.die}"
            parts.append(
                el(
                    "g",
                    body,
                    title=title,
                    data_part=f"cannon:{ctx.name(cell)}",
                    data_term="guardian cannon",
                    class_="ms-unit",
                )
            )
            continue
        kind = ctx.ship_kind(unit)
        body = _shape(kind, cx, cy, colour)
        body += text(cx, cy + ctx.font * (0.5 if kind == "fighter" else 0.36), mark, anchor="middle", class_="ms-label")
        if kind == "mothership":
            most_shield = max(1, *c.shields)
            body += _bars(
                cx,
                y + CELL - 6,
                [(view["hp"][fleet] / c.mothership_hp, "ms-hp"), (view["shield"][fleet] / most_shield, "ms-sh")],
            )
        spent = view["phase"] == "turn" and fleet == view["turn"] and (view["attacked"] >> unit & 1)
        own = fleet == ctx.seat
        part = f"unit:{unit}" if own else f"unit:{fleet}:{unit}"
        if own:  # the ring: the same ship as any fleet's, for the cards that move friendly ships
            parts.append(
                el(
                    "circle",
                    title=f"{ctx.ship_title(fleet, unit)} (ring: choose it as a friendly ship)",
                    cx=cx,
                    cy=cy,
                    r=20,
                    class_="ms-ring",
                    data_part=f"unit:{fleet}:{unit}",
                    data_term=kind,
                )
            )
        cls = "ms-unit" + (" spent" if spent else "") + (" own" if own else "")
        parts.append(el("g", body, title=ctx.ship_title(fleet, unit), data_part=part, data_term=kind, class_=cls))
    return "".join(parts)


def _bars(cx: float, y: float, bars: list[tuple[float, str]]) -> str:
    """Thin gauges under a unit (hull, shields), each its share filled: no text, the numbers are in
    the unit's title and the fleet panels."""
    out = []
    for k, (share, cls) in enumerate(bars):
        top = y + k * 4
        out.append(el("rect", x=cx - 16, y=top, width=32, height=3, class_="ms-gauge"))
        out.append(el("rect", x=cx - 16, y=top, width=round(32 * max(0.0, min(1.0, share)), 1), height=3, class_=cls))
    return "".join(out)


def _choice_marks(ctx: Ctx) -> str:
    choice = ctx.view["choice"]
    if not choice or choice["what"] not in CELL_CHOICES:
        return ""
    parts = []
    for value, label in zip(choice["options"], choice["labels"]):
        if not 0 <= value < ctx.size * ctx.size:
            continue
        x, y = ctx.cell_xy(value)
        parts.append(
            el(
                "rect",
                title=f"Choose {label}",
                x=x + 5,
                y=y + 5,
                width=CELL - 10,
                height=CELL - 10,
                rx=8,
                class_="ms-choice-mark",
                data_part=f"choice:{value}",
                data_term="choice",
            )
        )
    return "".join(parts)


def grid(ctx: Ctx) -> str:
    """The grid's drawing (its SVG body), ``ctx.left + size * CELL + 4`` wide and ``ctx.top + size *
    CELL + 4`` tall."""
    size, left, top, font = ctx.size, ctx.left, ctx.top, ctx.font
    coords = "".join(
        text(left + c * CELL + CELL / 2, top - font * 0.3, chr(ord("A") + c), anchor="middle", class_="ms-coord")
        for c in range(size)
    ) + "".join(
        text(left - 4, top + r * CELL + CELL / 2 + font * 0.36, str(r + 1), anchor="end", class_="ms-coord")
        for r in range(size)
    )
    frame = el("rect", x=left - 2, y=top - 2, width=size * CELL + 4, height=size * CELL + 4, rx=6, class_="ms-frame")
    return (
        el("g", coords, data_term="coordinates", title="Columns A.., rows 1..: a space is named like C4")
        + frame
        + _cells(ctx)
        + _decor(ctx)
        + _planets(ctx)
        + _units(ctx)
        + _choice_marks(ctx)
    )
