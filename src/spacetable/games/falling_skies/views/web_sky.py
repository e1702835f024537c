"""The sky of the falling-skies web board: the mother ship card, the sky rows and their symbols, ships, the city."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el, text

from ..content import SPOT, Board, step_back
from .web_markup import CARD_H, CELL_W, CITY_H, GUTTER, SKY_H, Layout, deco, hit
from .web_words import symbol_text

SYMBOL_X = 40
"""Where the mother ship track's symbols end, left of the row numbers."""
SHIP_DX = 52
"""A ship's centre from its cell's left edge: right of the cell's symbol (centred at ``SYMBOL_DX``)."""
SYMBOL_DX = 22


def _ship(cx: float, cy: float, red: bool) -> str:
    """A ship pointing down at the city: a green triangle, or a red dart with swept wings."""
    if red:
        points = f"{cx - 11},{cy - 8} {cx},{cy - 3} {cx + 11},{cy - 8} {cx},{cy + 10}"
        fill = "#ff5252"
    else:
        points = f"{cx - 9},{cy - 8} {cx + 9},{cy - 8} {cx},{cy + 9}"
        fill = "#4cd964"
    kind = _ship_name(red).replace(" ", "-")
    return el("polygon", points=points, fill=fill, stroke="#0b0e14", stroke_width=1.2, class_=f"ship {kind}")


def _ship_name(red: bool) -> str:
    return "red ship" if red else "green ship"


def _sky_symbol(board: Board, row: int, col: int, x: float, y: float) -> tuple[str, str, str]:
    """The drawing, glossary term and words of one sky cell's symbol ('' for an empty cell)."""
    cx, cy = x + SYMBOL_DX, y + SKY_H / 2
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
        drawing = el("ellipse", cx=cx, cy=cy - 2, rx=5, ry=5, fill="#f3a6ff") + el(
            "ellipse", cx=cx, cy=cy + 2, rx=11, ry=4.5, fill="#e040fb"
        )
        return drawing, "mother ship icon", "Mother ship icon: a ship ending its move here brings the mother ship down."
    n = board.explosion[row][col]
    if n:
        radius = [13 if k % 2 == 0 else 10.5 for k in range(24)]  # a burst round enough to hold its number
        points = " ".join(
            f"{cx + r * math.cos(k * math.pi / 12):.1f},{cy + r * math.sin(k * math.pi / 12):.1f}"
            for k, r in enumerate(radius)
        )
        drawing = el("polygon", points=points, fill="#ff9f43") + text(cx, cy + 5, f"{n}+", class_="explosion-n")
        return drawing, "explosion", f"Explosion {n}+: a shoot room with value {n} or more shoots down a ship here."
    return "", "", ""


def sky(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
    """The sky: the next row's mark, the grid of the open rows, and the ships on it."""
    m = view["mothership"]
    parts = []
    if view["phase"] != "over" and m < len(board.track):
        y = lay.row_y(m + 1)
        parts.append(deco(el("rect", x=1, y=y + 1, width=GUTTER - 3, height=SKY_H - 2, rx=4, class_="next-row")))
    parts.append(_sky_grid(board, lay, m))
    for row, col, red in view["ships"]:
        if 1 <= row <= board.sky_rows:
            x, y = lay.col_x(col), lay.row_y(row)
            _, _, words = _sky_symbol(board, row, col, x, y)
            where = f"row {row}, column {col + 1}" + (f" ({words})" if words else "")
            name = _ship_name(red)
            parts.append(
                el(
                    "g",
                    _ship(x + SHIP_DX, y + SKY_H / 2, red),
                    title=f"A {name} on {where}",
                    data_term=name,
                )
            )
    return "".join(parts)


_SKY_GRIDS: dict[tuple[int, int], tuple[Board, str]] = {}
"""The drawn sky grid of each board and covered rows, by the board's id (kept with the board, so
the id stays its own)."""


def _sky_grid(board: Board, lay: Layout, covered: int) -> str:
    key = (id(board), covered)
    cached = _SKY_GRIDS.get(key)
    if cached is None or cached[0] is not board:
        if len(_SKY_GRIDS) >= 256:
            _SKY_GRIDS.clear()
        cached = _SKY_GRIDS[key] = (board, _draw_sky_grid(board, lay, covered))
    return cached[1]


def _track_symbol(symbol: str, y: float) -> str:
    """A mother ship track symbol at the left of its row: a word, or a marker with how far back."""
    base = y + SKY_H / 2 + 5
    exc, res = step_back(symbol, "exc"), step_back(symbol, "res")
    if exc or res:
        cy = y + SKY_H / 2
        marker = (
            el("polygon", points=f"{10},{cy - 7} {17},{cy} {10},{cy + 7} {3},{cy}", class_="excavator")
            if exc
            else el("rect", x=3, y=cy - 6, width=12, height=12, rx=2, class_="research-marker")
        )
        return marker + text(SYMBOL_X, base, f"−{exc or res}", anchor="end", class_="track-symbol symbol-back")
    if symbol == "SKULL":
        return text(SYMBOL_X, base + 1, "☠", anchor="end", class_="track-symbol symbol-skull")
    return text(SYMBOL_X, base, symbol, anchor="end", class_="track-symbol symbol-harm")


def _draw_sky_grid(board: Board, lay: Layout, covered: int) -> str:
    """Column numbers, then each open row (those the card does not cover): its cells with their
    symbols and words, its track symbol and its number; the city."""
    parts: list[str] = []
    for c in range(board.columns):
        parts.append(
            el(
                "g",
                text(lay.col_x(c) + CELL_W / 2, 42, str(c + 1), class_="col-number"),
                title=f"Column {c + 1}: a die placed in this column of the base moves the ships of this column.",
            )
        )
    for row in range(covered + 1, board.sky_rows + 1):
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
            parts.append(el("g", _track_symbol(symbol, y), title=f"Row {row}: {symbol_text(symbol)}", data_term=symbol))
        parts.append(
            el(
                "g",
                text(GUTTER - 4, y + SKY_H / 2 + 5, str(row), anchor="end", class_="row-number"),
                title=f"Sky row {row} of {board.sky_rows}: ships move down the rows towards the city.",
            )
        )
    city = el(
        "g",
        el("rect", x=GUTTER, y=lay.city_y, width=board.columns * CELL_W, height=CITY_H, class_="city")
        + text(GUTTER + board.columns * CELL_W / 2, lay.city_y + 17, "CITY", class_="city-label"),
        title=f"City: a ship moving past row {board.sky_rows} reaches it and the base takes 1 damage.",
        data_term="city",
    )
    parts.append(city)
    return "".join(parts)


def mothership_card(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
    """The card over the rows it covers: its name, its starting spots and the ships waiting on it."""
    m = view["mothership"]
    width = board.columns * CELL_W
    band = lay.band_y
    next_row = (
        f" Next it comes down onto row {m + 1}: {symbol_text(board.track[m])}"
        if view["phase"] != "over" and m < len(board.track)
        else ""
    )
    parts = [
        deco(
            el(
                "rect",
                x=2,
                y=lay.card_top,
                width=GUTTER - 2 + width,
                height=lay.card_bottom - lay.card_top,
                rx=6,
                class_="mothership-card",
            )
        ),
        el(
            "g",
            text(GUTTER + width / 2, band + 15, "MOTHER SHIP", class_="card-label"),
            title=(
                f"The mother ship covers {m} of the {board.skull_row} rows down to the skull: "
                f"on row {board.skull_row} the base is lost.{next_row}"
            ),
            data_term="mother ship",
        ),
    ]
    on_spot = {c: red for row, c, red in view["ships"] if row == SPOT}
    for c in range(board.columns):
        cx, cy = lay.col_x(c) + CELL_W / 2, band + CARD_H - 20
        drawing = el("circle", cx=cx, cy=cy, r=12, class_="spot")
        holding = "free"
        if c in on_spot:
            drawing += _ship(cx, cy, on_spot[c])
            holding = f"a {_ship_name(on_spot[c])} stands on it"
        parts.append(deco(drawing))
        parts.append(
            hit(
                cx - 18,
                cy - 16,
                36,
                32,
                f"spot:{c + 1}",
                f"Starting spot above column {c + 1}: {holding}.",
                "starting spot",
            )
        )
    green, red = view["waiting"]
    for k, (waiting, is_red) in enumerate(((green, False), (red, True))):
        if not waiting:
            continue
        name = _ship_name(is_red)
        x = 6 + 28 * k
        parts.append(deco(_ship(x + 12, band + 20, is_red) + text(x + 12, band + 50, f"×{waiting}", class_="waiting")))
        words = f"{waiting} {name}{'s' if waiting > 1 else ''} waiting on the mother ship to respawn"
        parts.append(hit(x, band + 6, 24, 48, f"ship:waiting:{name.split()[0]}", words, name))
    return "".join(parts)
