"""The falling-skies board for the web table: an SVG drawing, action parts and a glossary.

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON) and the game's
:class:`Board`, never from a state, so the picture holds nothing the viewer may not know.
Top to bottom it follows the cards on the table: the mother ship card over the rows it
covers (its starting spots, the ships waiting on it), the sky (track symbols at the left,
arrows, mother ship icons, explosions, ships), the city, the base (rooms, dice, robots,
excavation), the dice tray and the tracks.

The drawing has two arrangements in one ``<svg>``: the tall one above (its ``viewBox``, for
narrow screens) and a wide one with the base, the tray and the tracks to the right of the sky
(for landscape screens). Each area is a group (``g.fs-sky``, ``g.fs-base``, ``g.fs-tray``,
``g.fs-tracks``); the root carries ``data-viewbox-tall`` and ``data-viewbox-wide``, and the
embedded style moves the right-hand groups when the client puts the class ``st-wide`` on the
root (docs/WEB.md, "Board arrangements").

Clickable elements are transparent ``rect.hit`` overlays carrying ``data-part``:
``die:<color>:<value>`` (a die to place), ``space:<A1..F5>`` (a base space),
``robot:new`` (the robot just built), ``ship:waiting:<green|red>`` (a ship on the mother ship
card) and ``spot:<column>`` (a starting spot, 1-based). Elements with a meaning carry
``data-term``, a key of :func:`glossary`, and a ``<title>`` built from the content data.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from spacetable.engine import JSON, Action
from spacetable.engine.svg import board as svg_board
from spacetable.engine.svg import el, text

from ..content import ROBOT, SPOT, Board, Room
from ..rules.actions import Dig, Place, PlaceRobot, Resolve, Spawn
from .render import PHASE_NAMES

GUTTER = 64
"""Width of the left margin: the mother ship track's symbols and the row names."""
CELL_W = 72
SKY_H = 24
CARD_H = 38
"""Height of the mother ship card's band of starting spots."""
BASE_H = 50
TRACK_H = 30
WIDE_GAP = 12
"""In the wide arrangement, the space between the sky (left) and the base, tray and tracks (right)."""
WIDE_TOP = 8
"""In the wide arrangement, the top of the base's first row."""
EFFECT_COLOR = {"energy": "#f2c94c", "shoot": "#f2994a", "research": "#56ccf2", "robot": "#9b8cff"}
DIE_FILL = {"black": "#14161c", "white": "#f4f4f4", ROBOT: "#3d5afe"}
DIE_INK = {"black": "#ffffff", "white": "#111111", ROBOT: "#ffffff"}
SYMBOL_TEXT = {"+red": "+red", "dmg": "dmg", "SKULL": "☠"}


def hit(x: float, y: float, w: float, h: float, part: str, title: str, term: str | None = None) -> str:
    """A transparent clickable overlay naming a board part."""
    return el("rect", title=title, x=x, y=y, width=w, height=h, rx=4, data_part=part, data_term=term, class_="hit")


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def _effects(room: Room) -> str:
    return " and ".join(room.effects)


# ---- the words (glossary and titles) ------------------------------------------------


def room_text(room: Room, cost_unit: str = "energy") -> str:
    """What a room does, from its content data: effects, modifier, cost and spaces."""
    value = "the die" if len(room.spaces) == 1 else f"the sum of the dice on {' and '.join(room.spaces)}"
    mod = f" {_signed(room.mod)}" if room.mod else ""
    return f"{_effects(room).capitalize()} room: works with {value}{mod}, and using it costs {room.cost} {cost_unit}."


def symbol_text(symbol: str) -> str:
    """What a mother ship track symbol does when the card descends onto its row."""
    if symbol.startswith("exc-"):
        return f"When the mother ship comes down onto this row, the excavator goes back {symbol[4:]} space(s)."
    if symbol.startswith("res-"):
        return f"When the mother ship comes down onto this row, the research marker goes back {symbol[4:]} space(s)."
    if symbol == "+red":
        return "When the mother ship comes down onto this row, a red ship from the reserve boards it."
    if symbol == "dmg":
        return "When the mother ship comes down onto this row, its bombardment deals 1 damage to the base."
    if symbol == "SKULL":
        return "If the mother ship comes down onto this row, the base is lost."
    return "Nothing happens when the mother ship comes down onto this row."


def glossary(board: Board, options: Mapping[str, Any]) -> dict[str, str]:
    """Every room, effect, symbol, piece and track of the board, in one sentence each."""
    gain = options.get("energy_room", "gain") == "gain"
    words = {
        "energy": (
            f"An energy room adds its value to the energy, up to {board.energy_max}."
            if gain
            else f"An energy room raises the energy to its value, up to {board.energy_max}."
        ),
        "shoot": "A shoot room shoots down every ship standing on an explosion whose number is at most its value.",
        "research": "A research room moves the research marker on as long as its value pays the next spaces' numbers.",
        "robot": (
            f"A robot room builds a robot die with its value (at most {board.robot_max}), "
            "put on a free excavated room after phase 2."
        ),
        "anti-aircraft gun": (
            f"A die here moves the ships of its column {board.aa_slowdown} row(s) fewer, needs no energy, "
            "and leaves before phase 2."
        ),
        "tunnel": "A space in no room: dug through on the way, it takes no die once excavated.",
        "unexcavated": (
            f"Once a round a die may go here to dig: with {board.dig_cost} energy and a value at least "
            "the route's length, the excavator moves here."
        ),
        "excavator": "Every space of the route up to the excavator is excavated, open for dice.",
        "arrow": "A ship ending its move here shifts one column the way the arrow points, if that space is free.",
        "mother ship icon": "A ship ending its move here brings the mother ship down one row at once, skipping "
        "that row's symbol.",
        "explosion": "A ship standing here can be shot down by a shoot room whose value is at least the number.",
        "mother ship": (
            f"The card comes down one row each round; at row {board.skull_row} (the skull) the base is lost. "
            "Ships waiting on it respawn on its starting spots."
        ),
        "mother ship track": "The symbols at the left of the sky rows take effect as the mother ship comes down.",
        "starting spot": "A waiting ship respawns here, above a column with no ship in the sky when there is one.",
        "green ship": "An enemy ship: shot down or reaching the city, it goes back onto the mother ship.",
        "red ship": "A reinforcement: shot down, it returns to the reserve; reaching the city, to the mother ship.",
        "city": "A ship moving past the last sky row reaches the city: the base takes 1 damage.",
        "black die": "A die to place: the ships of its column move down by its value.",
        "white die": "A die to place: the ships of its column move down by its value, then the unplaced dice re-roll.",
        "robot die": "A robot works its room every round without moving ships, losing a pip each time.",
        "research track": (
            f"{len(board.research)} spaces, each needing that much research value; reaching the last wins."
        ),
        "energy track": (
            f"Energy, {board.energy_start} at the start and at most {board.energy_max}, pays for rooms and digging."
        ),
        "damage track": f"The base is destroyed at {board.lose_at_damage} damage.",
        "round": "A round: roll and place the dice, resolve the rooms, then the mother ship comes down.",
    }
    for symbol in dict.fromkeys(board.track):
        if symbol:
            words[symbol] = symbol_text(symbol)
    for room in board.rooms:
        words[f"room {room.id}"] = room_text(room)
    return words


# ---- parts ---------------------------------------------------------------------------


def action_parts(action: Action) -> tuple[str, ...]:
    """The board parts of an action: the piece, then the place (see the module docstring)."""
    if isinstance(action, Place):
        return (f"die:{action.color}:{action.value}", f"space:{action.space}")
    if isinstance(action, Resolve) and action.use:
        return (f"space:{action.room}", f"space:{action.take}") if action.take else (f"space:{action.room}",)
    if isinstance(action, Dig) and action.use:
        return (f"space:{action.space}",)
    if isinstance(action, PlaceRobot):
        return ("robot:new", f"space:{action.space}")
    if isinstance(action, Spawn):
        return (f"ship:waiting:{'red' if action.red else 'green'}", f"spot:{action.column}")
    return ()


# ---- the drawing ------------------------------------------------------------------------


class _Layout:
    """Where things go, from the board's size."""

    def __init__(self, board: Board, mothership: int) -> None:
        self.board = board
        self.width = GUTTER + board.columns * CELL_W + 8
        self.sky_y = 48 + CARD_H
        self.card_bottom = self.sky_y + mothership * SKY_H
        self.city_y = self.sky_y + board.sky_rows * SKY_H
        self.base_y = self.city_y + 30
        self.base_rows = list(dict.fromkeys(s[0] for s in board.spaces))
        self.tray_y = self.base_y + len(self.base_rows) * BASE_H + 10
        self.tracks_y = self.tray_y + 64
        self.height = self.tracks_y + 3 * (TRACK_H + 8) + 4
        # the wide arrangement: the header and the sky stay put, the rest moves to their right
        self.wide_dx = self.width + WIDE_GAP
        self.wide_dy = WIDE_TOP - self.base_y
        self.wide_width = self.wide_dx + self.width
        self.wide_height = max(self.city_y + 28, self.height + self.wide_dy)

    def col_x(self, col: int) -> float:
        return GUTTER + col * CELL_W

    def row_y(self, row: int) -> float:
        return self.sky_y + (row - 1) * SKY_H


def _die(x: float, y: float, size: float, color: str, value: int | str, dashed: bool = False) -> str:
    """A die (black/white square, robot octagon) with its value, drawn at (x, y)."""
    ink = DIE_INK.get(color, "#fff")
    if color == ROBOT:
        c = size * 0.28
        points = " ".join(
            f"{x + px},{y + py}"
            for px, py in (
                (c, 0),
                (size - c, 0),
                (size, c),
                (size, size - c),
                (size - c, size),
                (c, size),
                (0, size - c),
                (0, c),
            )
        )
        shape = el("polygon", points=points, fill=DIE_FILL[ROBOT], stroke="#c5cae9", stroke_width=1.5)
    else:
        fill = "none" if dashed else DIE_FILL.get(color, "#888")
        stroke = "#9aa4b8" if color == "black" else "#ffffff"
        shape = el(
            "rect",
            x=x,
            y=y,
            width=size,
            height=size,
            rx=size * 0.18,
            fill=fill,
            stroke=stroke,
            stroke_width=2 if color == "white" else 1.5,
            stroke_dasharray="4 3" if dashed else None,
        )
    label = text(
        x + size / 2,
        y + size / 2 + size * 0.2,
        str(value),
        class_="die-value",
        font_size=round(size * 0.55),
        fill="#cfd8e3" if dashed else ink,
    )
    return el("g", shape + label, class_=f"die die-{color}")


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


def _sky(board: Board, view: Mapping[str, Any], lay: _Layout) -> str:
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


def _sky_grid(board: Board, lay: _Layout) -> str:
    cached = _SKY_GRIDS.get(id(board))
    if cached is None or cached[0] is not board:
        if len(_SKY_GRIDS) >= 64:
            _SKY_GRIDS.clear()
        cached = _SKY_GRIDS[id(board)] = (board, _draw_sky_grid(board, lay))
    return cached[1]


def _draw_sky_grid(board: Board, lay: _Layout) -> str:
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


def _mothership(board: Board, view: Mapping[str, Any], lay: _Layout) -> str:
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


def _space_title(board: Board, view: Mapping[str, Any], space: str, excavated: bool) -> tuple[str, str]:
    """The words and glossary term of a base space."""
    room = board.room_of.get(space)
    if space in board.aa_spaces:
        words, term = (
            f"Anti-aircraft gun: the ships of this column move {board.aa_slowdown} row(s) fewer.",
            "anti-aircraft gun",
        )
    elif room is None:
        words, term = "Tunnel: takes no die once excavated.", "tunnel"
    else:
        words, term = room_text(room), f"room {room.id}"
    if not excavated:
        route = board.dig_index[space] - view["excavator"]
        words += f" Not excavated: a die of {route} or more placed here can dig to it."
    if space == board.dig_path[view["excavator"]]:
        words += " The excavator is here: every space of the route up to it is excavated."
    held = view["slots"].get(space)
    if held:
        color, value = held
        words += f" Holds a {'robot' if color == ROBOT else color + ' die'} showing {value}."
    return f"{space}: {words}", term


def _excavated(board: Board, view: Mapping[str, Any], space: str) -> bool:
    index = board.dig_index.get(space)
    return space in board.open_at_start or (index is not None and index <= view["excavator"])


def _box(x: float, y: float, w: float, cls: str, color: str | None = None) -> str:
    """A base space's (or room's) outline, in its effect's colour where it has one."""
    tint = 0.22 if color else None
    return el(
        "rect",
        x=x + 2,
        y=y + 2,
        width=w - 4,
        height=BASE_H - 4,
        rx=5,
        class_=cls,
        fill=color,
        fill_opacity=tint,
        stroke=color,
    )


def _base_labels(board: Board, view: Mapping[str, Any], space: str, x: float, y: float) -> str:
    """The printed part of a space: a room's box and words (drawn once, on its first space), a gun, a tunnel."""
    room = board.room_of.get(space)
    dim = "" if _excavated(board, view, space) else " closed"
    if room is not None:
        if room.spaces[0] != space:
            return ""
        color = EFFECT_COLOR.get(room.effects[0], "#999")
        box = _box(x, y, len(room.spaces) * CELL_W, "room", color)
        name = "+".join(e.capitalize() for e in room.effects)
        detail = [_signed(room.mod)] if room.mod else []
        detail.append(f"cost {room.cost}")
        if len(room.spaces) > 1:
            detail.append(f"sum of {len(room.spaces)}")
        return el(
            "g",
            box
            + text(x + 6, y + 15, name, anchor="start", class_="room-name", fill=color)
            + text(x + 6, y + 28, " · ".join(detail), anchor="start", class_="room-detail"),
            class_="room-print" + dim,
        )
    if space in board.aa_spaces:
        words = text(x + 6, y + 15, "AA gun", anchor="start", class_="room-name") + text(
            x + 6, y + 28, f"ships {_signed(-board.aa_slowdown)}", anchor="start", class_="room-detail"
        )
        return el("g", _box(x, y, CELL_W, "aa") + words, class_="room-print" + dim)
    words = text(x + 6, y + 15, "tunnel", anchor="start", class_="room-name")
    return el("g", _box(x, y, CELL_W, "tunnel") + words, class_="room-print" + dim)


def _base(board: Board, view: Mapping[str, Any], lay: _Layout) -> str:
    """Rows of spaces: rock under the closed ones, the printed rooms, then the excavator, dice and overlays."""
    cells = [
        (space, lay.col_x(board.column_of[space]), lay.base_y + lay.base_rows.index(space[0]) * BASE_H)
        for space in board.spaces
    ]
    parts = [
        el(
            "g",
            text(GUTTER - 8, lay.base_y + i * BASE_H + BASE_H / 2 + 5, row, anchor="end", class_="row-letter"),
            title=f"Base row {row}: its spaces are named {row}1 to {row}{board.columns}, column by column.",
        )
        for i, row in enumerate(lay.base_rows)
    ]
    parts += [_box(x, y, CELL_W, "rock") for space, x, y in cells if not _excavated(board, view, space)]
    parts += [_base_labels(board, view, space, x, y) for space, x, y in cells]
    excavator = board.dig_path[view["excavator"]]
    for space, x, y in cells:
        open_ = _excavated(board, view, space)
        route = board.dig_index[space] - view["excavator"] if not open_ else 0
        if 0 < route <= 6:  # a die's reach
            parts.append(text(x + 6, y + BASE_H - 8, f"dig {route}", anchor="start", class_="dig-route"))
        if space == excavator:
            right = x + CELL_W
            parts.append(
                el(
                    "polygon",
                    title=f"The excavator, on {space}",
                    points=f"{right - 12},{y + 5} {right - 5},{y + 12} {right - 12},{y + 19} {right - 19},{y + 12}",
                    class_="excavator",
                    data_term="excavator",
                )
            )
        held = view["slots"].get(space)
        if held:
            parts.append(_die(x + CELL_W - 28, y + BASE_H - 26, 22, held[0], held[1]))
        words, term = _space_title(board, view, space, open_)
        parts.append(hit(x + 1, y + 1, CELL_W - 2, BASE_H - 2, f"space:{space}", words, term))
    return "".join(parts)


def _tray(board: Board, view: Mapping[str, Any], lay: _Layout) -> str:
    """The dice to place (clickable), the dice to roll, the new robots and the reserves."""
    y = lay.tray_y
    parts = [
        el("rect", x=4, y=y, width=lay.width - 8, height=56, rx=8, class_="tray"),
        text(10, y + 14, "DICE", class_="section-label", anchor="start"),
    ]
    x = 10.0
    for color, value in view["unplaced"]:
        parts.append(_die(x, y + 20, 30, color, value))
        words = f"A {color} die showing {value}: choose it, then a base space."
        parts.append(hit(x - 2, y + 18, 34, 34, f"die:{color}:{value}", words, f"{color} die"))
        x += 38
    for color in view["to_roll"]:
        parts.append(el("g", _die(x, y + 24, 24, color, "?", dashed=True), title=f"A {color} die still to roll"))
        x += 30
    for k, value in enumerate(view["new_robots"]):
        parts.append(_die(x + 4, y + 20, 30, ROBOT, value))
        words = f"A new robot showing {value}: choose it, then a free excavated room."
        parts.append(hit(x + 2, y + 18, 34, 34, "robot:new", words, "robot die") if k == 0 else "")
        x += 38
    right = lay.width - 10
    parts.append(
        el(
            "g",
            text(right, y + 30, f"robots {view['robot_supply']}", class_="reserve", anchor="end")
            + text(right, y + 46, f"red ships {view['red_supply']}", class_="reserve", anchor="end"),
            title=f"In reserve: {view['robot_supply']} robot dice, {view['red_supply']} red ships",
        )
    )
    return "".join(parts)


def _track(y: float, label: str, term: str, title: str, cells: list[tuple[str, str, str]], width: float) -> str:
    """One track: a label and its cells (text, class, title)."""
    step = (width - GUTTER) / max(len(cells), 1)
    parts = [text(6, y + TRACK_H / 2 + 4, label, class_="track-label", anchor="start")]
    for k, (words, cls, cell_title) in enumerate(cells):
        x = GUTTER + k * step
        parts.append(
            el(
                "g",
                el("rect", x=x + 1, y=y, width=step - 2, height=TRACK_H, rx=4, class_=f"track-cell {cls}")
                + text(x + step / 2, y + TRACK_H / 2 + 5, words, class_="track-value"),
                title=cell_title,
            )
        )
    return el("g", "".join(parts), title=title, data_term=term, class_="track")


def _tracks(board: Board, view: Mapping[str, Any], lay: _Layout) -> str:
    width = lay.width - 6
    research = view["research"]
    done = len(board.research)
    r_cells = [
        (
            str(need),
            "done" if k < research else ("current" if k == research else ""),
            f"Research space {k + 1} of {done}: needs {need}" + (" (reached)" if k < research else ""),
        )
        for k, need in enumerate(board.research)
    ]
    e_cells = [
        (str(e), "current" if e == view["energy"] else "", f"Energy {e}" + (" (now)" if e == view["energy"] else ""))
        for e in range(board.energy_max + 1)
    ]
    lose = board.lose_at_damage
    d_cells = [
        ("☠" if k == lose else str(k), "hurt" if k <= view["damage"] else "", f"Damage {k} of {lose}")
        for k in range(1, lose + 1)
    ]
    y = lay.tracks_y
    return (
        _track(y, "Research", "research track", f"Research: {research} of {done} spaces", r_cells, width)
        + _track(y + TRACK_H + 8, "Energy", "energy track", f"Energy: {view['energy']}", e_cells, width)
        + _track(y + 2 * (TRACK_H + 8), "Damage", "damage track", f"Damage: {view['damage']} of {lose}", d_cells, width)
    )


def _header(board: Board, view: Mapping[str, Any], lay: _Layout) -> str:
    if view["phase"] == "over":
        status = f"You {view['result']}: {view['reason']}"
    else:
        status = f"Round {view['round']} · {PHASE_NAMES.get(view['phase'], view['phase'])}"
    hard = f" ({len(board.hard)} hard)" if board.hard else ""
    return el(
        "g",
        text(6, 19, status, class_="status", anchor="start")
        + text(lay.width - 6, 19, f"level {board.level}{hard}", class_="level", anchor="end"),
        title="A round: roll and place the dice, resolve the rooms, then the mother ship comes down.",
        data_term="round",
    )


STYLE = """
.fs-board{fill:#e6ebf5;font-family:system-ui,sans-serif}
.fs-board .closed{opacity:.55}
.fs-board .status{font-size:15px;font-weight:700}
.fs-board .level,.fs-board .col-number,.fs-board .row-number{font-size:11px;fill:#9aa6bd}
.fs-board .sky-cell{fill:#101830;stroke:#26324f;stroke-width:.6}
.fs-board .sky-cell.city-card{fill:#16203b}
.fs-board .city{fill:#3a2530;stroke:#ff6b6b;stroke-width:1}
.fs-board .city-label{font-size:12px;font-weight:700;fill:#ffb3b3;letter-spacing:4px}
.fs-board .mothership-card{fill:#3b1d4f;fill-opacity:.93;stroke:#e040fb;stroke-width:1.5}
.fs-board .card-label{font-size:9px;font-weight:700;fill:#f3a6ff;letter-spacing:2px}
.fs-board .spot{fill:#1a0f26;stroke:#e040fb;stroke-dasharray:3 2}
.fs-board .ship-letter{font-size:8px;font-weight:800}
.fs-board .waiting-count{font-size:10px;fill:#f3a6ff}
.fs-board .next-marker{fill:#ffd54f}
.fs-board .track-symbol{font-size:10px;font-weight:700}
.fs-board .symbol-back{fill:#ffd54f}
.fs-board .symbol-harm{fill:#ff6b6b}
.fs-board .symbol-skull{fill:#ff5252;font-size:15px}
.fs-board .section-label{font-size:10px;font-weight:700;fill:#9aa6bd;letter-spacing:2px}
.fs-board .row-letter{font-size:14px;font-weight:700}
.fs-board .room-name{font-size:12px;font-weight:700}
.fs-board .room-detail{font-size:10.5px;fill:#dfe6f0}
.fs-board .aa{fill:#12333a;stroke:#4dd0e1;stroke-width:1.5}
.fs-board .tunnel{fill:#1c2130;stroke:#3a4358;stroke-dasharray:4 3}
.fs-board .rock{fill:url(#fs-rock);stroke:#5b4a3a}
.fs-board .dig-route{font-size:10px;font-weight:700;fill:#ffe0b2}
.fs-board .excavator{fill:#ffd54f;stroke:#000;stroke-width:1}
.fs-board .die-value{font-weight:800}
.fs-board .tray{fill:#141b2d;stroke:#2c3a5a}
.fs-board .reserve{font-size:11px;fill:#cfd8e3}
.fs-board .track-label{font-size:11px;font-weight:700}
.fs-board .track-cell{fill:#141b2d;stroke:#2c3a5a}
.fs-board .track-cell.done{fill:#1f4d2e;stroke:#4cd964}
.fs-board .track-cell.current{fill:#f2c94c;stroke:#fff;stroke-width:2}
.fs-board .track-cell.hurt{fill:#7a1f1f;stroke:#ff5252}
.fs-board .track-cell.current+.track-value{fill:#111;font-weight:800}
.fs-board .track-value{font-size:12px}
.fs-board .hit{fill:transparent;cursor:pointer}
"""

ROCK = (
    '<defs><pattern id="fs-rock" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="8" height="8" fill="#2b241f"/><line x1="0" y1="0" x2="0" y2="8" stroke="#5b4a3a" stroke-width="3"/>'
    "</pattern></defs>"
)


def _arrangements(lay: _Layout) -> str:
    """The style rule that moves the base, the tray and the tracks beside the sky in the wide arrangement."""
    moved = ",".join(f".fs-board.st-wide .fs-{area}" for area in ("base", "tray", "tracks"))
    return f"{moved}{{transform:translate({lay.wide_dx}px,{lay.wide_dy}px)}}"


def board_svg(board: Board, view: JSON) -> str:
    """The whole board of ``view`` as one ``<svg>`` element that scales to its container.

    Its ``viewBox`` is the tall arrangement; ``data-viewbox-wide`` names the wide one, which
    the client picks (with the class ``st-wide``) when the board's panel is landscape.
    """
    lay = _Layout(board, view["mothership"])
    tall = f"0 0 {lay.width} {lay.height}"
    wide = f"0 0 {lay.wide_width} {lay.wide_height}"
    body = (
        f"<style>{STYLE}{_arrangements(lay)}</style>"
        + ROCK
        + el("rect", x=0, y=0, width=lay.wide_width, height=max(lay.height, lay.wide_height), fill="#0b1020")
        + el("g", _header(board, view, lay) + _sky(board, view, lay) + _mothership(board, view, lay), class_="fs-sky")
        + el("g", _base(board, view, lay), class_="fs-base")
        + el("g", _tray(board, view, lay), class_="fs-tray")
        + el("g", _tracks(board, view, lay), class_="fs-tracks")
    )
    return svg_board(body, tall=tall, wide=wide, name="fs-board", label="Under Falling Skies board")
