"""The sky of the falling-skies web board: the mother ship card, the sky rows and their symbols, ships, the city."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el, text

from ..content import SPOT, Board
from .web_markup import CARD_H, CELL_W, GUTTER, SKY_H, Layout, hit
from .web_words import symbol_text

SYMBOL_TEXT = {"+red": "+red", "dmg": "dmg", "SKULL": "☠"}


def _ship(cx: float, cy: float, red: bool) -> str:
    """A ship pointing down at the city: a green triangle or a red diamond-winged one, lettered."""
    if red:
        points = f"{cx - 10},{cy - 7} {cx},{cy - 2} {cx + 10},{cy - 7} {cx},{cy + 9}"
        fill, letter = "#ff5252", "R"
    else:
        points = f"{cx - 9},{cy - 8} {cx + 9},{cy - 8} {cx},{cy + 9}"
        fill, letter = "#4cd964", "G"
    name = "red ship" if red else "green ship"
    body = el("polygon", points=points, fill=fill, stroke="#0b0e14", stroke_width=1.2) + text(
        cx, cy + 1, letter, class_="ship-letter", font_size=8, fill="#0b0e14"
    )
    return el("g", body, title=f"A {name}", class_=f"ship {name.replace(' ', '-')}", data_term=name)


def _sky_symbol(board: Board, row: int, col: int, x: float, y: float) -> tuple[str, str, str]:
    """The drawing, glossary term and words of one sky cell's symbol ('' for an empty cell)."""
    cx, cy = x + 24, y + SKY_H / 2
    step = board.arrow[row][col]
    if step:
        tip, back = cx + 9 * step, cx - 9 * step
        points = f"{back},{cy - 7} {tip},{cy} {back},{cy + 7} {back + 4 * step},{cy}"
        drawing = el("polygon", points=points, fill="#4dd0e1")
        way = "left" if step < 0 else "right"
        return (
            drawing,
            "arrow",
            f"Arrow {way}: a ship ending its move here shifts one column {way} if that space is free.",
        )
    if board.mother_icon[row][col]:
        drawing = el("ellipse", cx=cx, cy=cy + 2, rx=11, ry=4.5, fill="#e040fb") + el(
            "path", d=f"M{cx - 5},{cy} a5,5 0 0 1 10,0 z", fill="#f3a6ff"
        )
        return drawing, "mother ship icon", "Mother ship icon: a ship ending its move here brings the mother ship down."
    n = board.explosion[row][col]
    if n:
        radius = [12 if k % 2 == 0 else 8.5 for k in range(16)]
        points = " ".join(
            f"{cx + r * math.cos(k * math.pi / 8):.1f},{cy + r * math.sin(k * math.pi / 8):.1f}"
            for k, r in enumerate(radius)
        )
        drawing = el("polygon", points=points, fill="#ff9f43", opacity=0.9) + text(
            cx, cy + 4, f"{n}+", class_="explosion-n", font_size=10, font_weight=800, fill="#1b1b1b"
        )
        return drawing, "explosion", f"Explosion {n}+: a shoot room with value {n} or more shoots down a ship here."
    return "", "", ""


def sky(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
    """The sky: its grid (the same for every view of a board, drawn once) and the ships on it."""
    parts = [_sky_grid(board, lay)]
    ships: dict[tuple[int, int], list[bool]] = {}
    for row, col, red in view["ships"]:
        ships.setdefault((row, col), []).append(red)
    for (row, col), reds in sorted(ships.items()):
        if 1 <= row <= board.sky_rows:
            x, y = lay.col_x(col), lay.row_y(row)
            parts.extend(_ship(x + 52 - 8 * k, y + SKY_H / 2, red) for k, red in enumerate(reds))
    return "".join(parts)


_SKY_GRIDS: dict[int, tuple[Board, str]] = {}
"""The drawn sky grid of each board, by the board's id (kept with the board, so the id stays its own)."""


def _sky_grid(board: Board, lay: Layout) -> str:
    cached = _SKY_GRIDS.get(id(board))
    if cached is None or cached[0] is not board:
        if len(_SKY_GRIDS) >= 64:
            _SKY_GRIDS.clear()
        cached = _SKY_GRIDS[id(board)] = (board, _draw_sky_grid(board, lay))
    return cached[1]


def _draw_sky_grid(board: Board, lay: Layout) -> str:
    """Column and row numbers, every cell with its symbol and words, the track symbols, the city."""
    parts: list[str] = []
    for c in range(board.columns):
        parts.append(
            el(
                "g",
                text(lay.col_x(c) + CELL_W / 2, 42, str(c + 1), class_="col-number"),
                title=f"Column {c + 1}: a die placed in this column of the base moves the ships of this column.",
            )
        )
    for row in range(1, board.sky_rows + 1):
        y = lay.row_y(row)
        in_city = row > len(board.track)
        for c in range(board.columns):
            x = lay.col_x(c)
            drawing, term, words = _sky_symbol(board, row, c, x, y)
            where = f"Row {row}, column {c + 1}"
            cell = el(
                "rect", x=x, y=y, width=CELL_W, height=SKY_H, class_="sky-cell city-card" if in_city else "sky-cell"
            )
            parts.append(el("g", cell + drawing, title=f"{where}: {words}" if words else where, data_term=term or None))
        symbol = board.track[row - 1] if not in_city else ""
        if symbol:
            label = SYMBOL_TEXT.get(symbol, symbol.replace("-", "−"))
            kind = "skull" if symbol == "SKULL" else ("harm" if symbol in ("dmg", "+red") else "back")
            parts.append(
                el(
                    "g",
                    text(42, y + SKY_H / 2 + 4, label, anchor="end", class_=f"track-symbol symbol-{kind}"),
                    title=f"{symbol}: {symbol_text(symbol)}",
                    data_term=symbol,
                )
            )
        parts.append(
            el(
                "g",
                text(GUTTER - 6, y + SKY_H / 2 + 4, str(row), anchor="end", class_="row-number"),
                title=f"Sky row {row} of {board.sky_rows}: ships move down the rows towards the city.",
            )
        )
    city = el(
        "g",
        el("rect", x=GUTTER, y=lay.city_y, width=board.columns * CELL_W, height=22, class_="city")
        + text(GUTTER + board.columns * CELL_W / 2, lay.city_y + 15, "CITY", class_="city-label"),
        title=f"City: a ship moving past row {board.sky_rows} reaches it and the base takes 1 damage.",
        data_term="city",
    )
    parts.append(city)
    return "".join(parts)


def mothership_card(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
    """The card over the rows (and track symbols) it covers, its starting spots, and the ships on it."""
    m = view["mothership"]
    top = lay.sky_y - CARD_H
    width = board.columns * CELL_W
    band = lay.card_bottom - CARD_H
    parts = [
        el(
            "rect",
            title=f"The mother ship covers {m} of {board.skull_row} rows: at row {board.skull_row} the base is lost.",
            x=2,
            y=top,
            width=GUTTER - 2 + width,
            height=lay.card_bottom - top,
            rx=6,
            class_="mothership-card",
            data_term="mother ship",
        ),
        text(GUTTER + width / 2, top + 12 if m else top + 10, "MOTHER SHIP", class_="card-label"),
    ]
    on_spot = {c: red for row, c, red in view["ships"] if row == SPOT}
    for c in range(board.columns):
        cx, cy = lay.col_x(c) + CELL_W / 2, band + CARD_H / 2 + 3
        parts.append(el("circle", cx=cx, cy=cy, r=11, class_="spot"))
        if c in on_spot:
            parts.append(_ship(cx, cy, on_spot[c]))
        parts.append(
            hit(cx - 16, cy - 15, 32, 30, f"spot:{c + 1}", f"Starting spot above column {c + 1}", "starting spot")
        )
    green, red = view["waiting"]
    y = band + 4
    for k, (count, is_red) in enumerate(((green, False), (red, True))):
        if not count:
            continue
        name = "red" if is_red else "green"
        x = 6 + 30 * k
        parts.append(_ship(x + 10, y + 12, is_red) + text(x + 10, y + 32, f"×{count}", class_="waiting-count"))
        parts.append(
            hit(x - 2, y, 26, 34, f"ship:waiting:{name}", f"{count} {name} ship(s) waiting to respawn", f"{name} ship")
        )
    if view["phase"] != "over" and m < len(board.track):
        mid = lay.row_y(m + 1) + SKY_H / 2
        parts.append(
            el(
                "polygon",
                title=f"Next row the mother ship comes down onto: {symbol_text(board.track[m])}",
                points=f"2,{mid - 6} 12,{mid} 2,{mid + 6}",
                class_="next-marker",
            )
        )
    return "".join(parts)
