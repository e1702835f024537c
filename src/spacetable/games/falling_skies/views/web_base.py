"""The base, the dice tray and the tracks of the falling-skies web board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el, text

from ..content import ROBOT, Board
from .web_markup import BASE_H, CELL_W, GUTTER, TRACK_H, Layout, hit
from .web_words import room_text, signed

EFFECT_COLOR = {"energy": "#f2c94c", "shoot": "#f2994a", "research": "#56ccf2", "robot": "#9b8cff"}
DIE_FILL = {"black": "#14161c", "white": "#f4f4f4", ROBOT: "#3d5afe"}
DIE_INK = {"black": "#ffffff", "white": "#111111", ROBOT: "#ffffff"}


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
        detail = [signed(room.mod)] if room.mod else []
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
            x + 6, y + 28, f"ships {signed(-board.aa_slowdown)}", anchor="start", class_="room-detail"
        )
        return el("g", _box(x, y, CELL_W, "aa") + words, class_="room-print" + dim)
    words = text(x + 6, y + 15, "tunnel", anchor="start", class_="room-name")
    return el("g", _box(x, y, CELL_W, "tunnel") + words, class_="room-print" + dim)


def base(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
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


def tray(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
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


def tracks(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
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
