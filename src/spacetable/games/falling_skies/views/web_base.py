"""The base, the dice tray and the tracks of the falling-skies web board.

A base space is drawn in three strips, so that nothing stands on its words: the room's name,
then its modifier (and the sum of a room of several spaces) beside its energy cost (a yellow
disc), then a strip with the excavator or the dig route at the left and the die at the right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el, text

from ..content import ROBOT, Board
from .web_markup import (
    BASE_H,
    CELL_W,
    GUTTER,
    MIN_FONT,
    TRACK_H,
    TRACK_STEP,
    TRAY_H,
    Layout,
    deco,
    fitted,
    hit,
    text_width,
)
from .web_words import room_text, signed

EFFECT_COLOR = {"energy": "#f2c94c", "shoot": "#f2994a", "research": "#56ccf2", "robot": "#9b8cff"}
DIE_FILL = {"black": "#14161c", "white": "#f4f4f4", ROBOT: "#3d5afe"}
DIE_INK = {"black": "#ffffff", "white": "#111111", ROBOT: "#ffffff"}
BASE_DIE = 26
"""The side of a die standing on a base space."""
TRAY_DIE = 30
RESERVE_W = 90
"""The room the reserves take at the right of the tray."""


def _die(x: float, y: float, size: float, color: str, value: int | str, dashed: bool = False) -> str:
    """A die (black/white square, robot octagon) with its value, drawn at (x, y)."""
    ink = DIE_INK.get(color, "#fff")
    if color == ROBOT:
        c = size * 0.28
        half: tuple[tuple[float, float], ...] = ((c, 0), (size - c, 0), (size, c), (size, size - c))
        corners = half + tuple((size - px, size - py) for px, py in half)
        points = " ".join(f"{x + px},{y + py}" for px, py in corners)
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
    font = max(MIN_FONT, round(size * 0.58))
    label = text(
        x + size / 2,
        y + size / 2 + font * 0.36,
        str(value),
        class_="die-value",
        font_size=font,
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


def excavated(board: Board, view: Mapping[str, Any], space: str) -> bool:
    """Whether ``space`` is open for dice in ``view``: open from the start, or on the route up to the excavator."""
    return _open(board, view["excavator"], space)


def _open(board: Board, excavator: int, space: str) -> bool:
    index = board.dig_index.get(space)
    return space in board.open_at_start or (index is not None and index <= excavator)


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


def _cost(cx: float, cy: float, cost: int) -> str:
    """A room's energy cost: a yellow disc with the number."""
    return el("circle", cx=cx, cy=cy, r=8.5, class_="cost") + text(cx, cy + 5, str(cost), class_="cost-value")


def _base_labels(board: Board, excavator: int, space: str, x: float, y: float) -> str:
    """The printed part of a space: a room's box and words (drawn once, on its first space), a gun, a tunnel."""
    room = board.room_of.get(space)
    dim = "" if _open(board, excavator, space) else " closed"
    if room is not None:
        if room.spaces[0] != space:
            return ""
        color = EFFECT_COLOR.get(room.effects[0], "#999")
        width = len(room.spaces) * CELL_W
        name = "+".join(e.capitalize() for e in room.effects)
        detail = [signed(room.mod)] if room.mod else []
        if len(room.spaces) > 1:
            detail.append(f"sum of {len(room.spaces)}")
        body = (
            _box(x, y, width, "room", color)
            + fitted(x + 6, y + 18, name, width - 12, bold=True, class_="room-name", fill=color)
            + (text(x + 6, y + 37, " · ".join(detail), anchor="start", class_="room-detail") if detail else "")
            + _cost(x + width - 17, y + 32, room.cost)
        )
        return deco(body, class_="room-print" + dim)
    if space in board.aa_spaces:
        slow = f"−{board.aa_slowdown} row{'s' if board.aa_slowdown != 1 else ''}"
        words = text(x + 6, y + 18, "AA gun", anchor="start", class_="room-name") + text(
            x + 6, y + 37, slow, anchor="start", class_="room-detail"
        )
        return deco(_box(x, y, CELL_W, "aa") + words, class_="room-print" + dim)
    words = text(x + 6, y + 18, "tunnel", anchor="start", class_="room-detail")
    return deco(_box(x, y, CELL_W, "tunnel") + words, class_="room-print" + dim)


def _cells(board: Board, lay: Layout) -> list[tuple[str, float, float]]:
    """Each base space with the top left corner of its box."""
    return [
        (space, lay.col_x(board.column_of[space]), lay.base_y + lay.base_rows.index(space[0]) * BASE_H)
        for space in board.spaces
    ]


def base(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
    """The printed base (as the excavator left it), then the dice and robots on it, and the overlays."""
    parts = [_printed(board, lay, view["excavator"])]
    for space, x, y in _cells(board, lay):
        held = view["slots"].get(space)
        if held:
            parts.append(deco(_die(x + CELL_W - BASE_DIE - 3, y + BASE_H - BASE_DIE - 3, BASE_DIE, *held)))
        words, term = _space_title(board, view, space, excavated(board, view, space))
        parts.append(hit(x + 1, y + 1, CELL_W - 2, BASE_H - 2, f"space:{space}", words, term))
    return "".join(parts)


_PRINTED: dict[tuple[int, int], tuple[Board, str]] = {}
"""The printed base of each board and excavator place, by the board's id (kept with the board, so
the id stays its own): the part of the drawing that changes only when the excavator moves."""


def _printed(board: Board, lay: Layout, excavator: int) -> str:
    key = (id(board), excavator)
    cached = _PRINTED.get(key)
    if cached is None or cached[0] is not board:
        if len(_PRINTED) >= 256:
            _PRINTED.clear()
        cached = _PRINTED[key] = (board, _print_base(board, lay, excavator))
    return cached[1]


def _print_base(board: Board, lay: Layout, excavator: int) -> str:
    """The row letters, rock under the closed spaces, the rooms' words, the dig routes and the excavator."""
    cells = _cells(board, lay)
    parts = [
        el(
            "g",
            text(GUTTER - 8, lay.base_y + i * BASE_H + BASE_H / 2 + 6, row, anchor="end", class_="row-letter"),
            title=f"Base row {row}: its spaces are named {row}1 to {row}{board.columns}, column by column.",
        )
        for i, row in enumerate(lay.base_rows)
    ]
    parts += [deco(_box(x, y, CELL_W, "rock")) for space, x, y in cells if not _open(board, excavator, space)]
    parts += [_base_labels(board, excavator, space, x, y) for space, x, y in cells]
    strip = []
    for space, x, y in cells:
        route = 0 if _open(board, excavator, space) else board.dig_index[space] - excavator
        if 0 < route <= 6:  # a die's reach
            strip.append(text(x + 6, y + BASE_H - 11, f"dig {route}", anchor="start", class_="dig-route"))
        if space == board.dig_path[excavator]:
            cx, cy = x + 17, y + BASE_H - 17
            diamond = f"{cx},{cy - 9} {cx + 9},{cy} {cx},{cy + 9} {cx - 9},{cy}"
            strip.append(el("polygon", points=diamond, class_="excavator"))
    return "".join(parts) + deco("".join(strip))


def _button(x: float, y: float, label: str, part: str, title: str) -> tuple[str, float]:
    """A labelled button on the board, and its width."""
    width = max(40.0, round(len(label) * 10 + 18))
    shape = el("rect", title=title, x=x, y=y, width=width, height=30, rx=6, data_part=part, class_="button")
    return shape + deco(text(x + width / 2, y + 20, label, class_="button-label")), width


def _skip_buttons(board: Board, view: Mapping[str, Any], x: float, y: float) -> tuple[str, float]:
    """Phase 2, for the player: a button to skip each room left to resolve and each digging die,
    from ``x`` on; and where they end."""
    parts = []
    for room_id in view["pending"]:
        room = board.room_of[room_id]
        words = f"Skip room {room_id} ({'+'.join(room.effects)}): its dice are removed without effect."
        button, width = _button(x, y, room_id, f"skip:{room_id}", words)
        parts.append(button)
        x += width + 6
    for space, _ in view["slots"].items():
        if not excavated(board, view, space):
            words = f"Discard the digging die on {space}: the excavator stays where it is."
            button, width = _button(x, y, space, f"skip:{space}", words)
            parts.append(button)
            x += width + 6
    return "".join(parts), x


def tray(board: Board, view: Mapping[str, Any], lay: Layout, acting: bool) -> str:
    """The dice to place (clickable), the dice to roll, the new robots and the reserves; in phase 2,
    for the player (``acting``), the buttons that skip a room or a digging die."""
    y = lay.tray_y
    skipping = acting and view["phase"] == "resolve"
    parts = [
        deco(
            el("rect", x=4, y=y, width=lay.width - 8, height=TRAY_H, rx=8, class_="tray")
            + text(10, y + 17, "SKIP WITHOUT USING" if skipping else "DICE", class_="section-label", anchor="start")
        )
    ]
    x = 10.0
    if skipping:
        buttons, x = _skip_buttons(board, view, x, y + 26)
        parts.append(buttons)
    for color, value in view["unplaced"]:
        parts.append(deco(_die(x, y + 26, TRAY_DIE, color, value)))
        words = f"A {color} die showing {value}: choose it, then a base space."
        parts.append(hit(x - 2, y + 24, TRAY_DIE + 4, TRAY_DIE + 4, f"die:{color}:{value}", words, f"{color} die"))
        x += TRAY_DIE + 8
    for color in view["to_roll"]:
        parts.append(el("g", _die(x, y + 28, BASE_DIE, color, "?", dashed=True), title=f"A {color} die still to roll"))
        x += BASE_DIE + 6
    for k, value in enumerate(view["new_robots"]):
        robot = _die(x + 4, y + 26, TRAY_DIE, ROBOT, value)
        if k == 0:
            words = f"A new robot showing {value}: choose it, then a free excavated room."
            parts.append(deco(robot) + hit(x + 2, y + 24, TRAY_DIE + 4, TRAY_DIE + 4, "robot:new", words, "robot die"))
        else:
            parts.append(el("g", robot, title=f"A new robot showing {value}, placed after the one before it"))
        x += TRAY_DIE + 8
    right = lay.width - 10
    if view["phase"] == "resolve" and not skipping:
        digging = [space for space in view["slots"] if not excavated(board, view, space)]
        left = f"to resolve: {', '.join([*view['pending'], *digging])}"
        if x + text_width(left, MIN_FONT) > right - RESERVE_W:
            left = f"to resolve: {len(view['pending']) + len(digging)} left"
        parts.append(deco(text(x + 4, y + 46, left, anchor="start", class_="reserve")))
    parts.append(
        el(
            "g",
            text(right, y + 34, f"robots {view['robot_supply']}", class_="reserve", anchor="end")
            + text(right, y + 56, f"red ships {view['red_supply']}", class_="reserve", anchor="end"),
            title=f"In reserve: {view['robot_supply']} robot dice, {view['red_supply']} red ships",
        )
    )
    return "".join(parts)


def _track(y: float, label: str, term: str, title: str, cells: list[tuple[str, str, str]], width: float) -> str:
    """One track: its heading, then its cells (text, class, title)."""
    step = (width - 4) / max(len(cells), 1)
    parts = [text(6, y + 15, label, class_="track-label", anchor="start")]
    top = y + TRACK_STEP - TRACK_H - 6
    for k, (words, cls, cell_title) in enumerate(cells):
        x = 4 + k * step
        parts.append(
            el(
                "g",
                el("rect", x=x + 1, y=top, width=step - 2, height=TRACK_H, rx=4, class_=f"track-cell {cls}")
                + text(x + step / 2, top + TRACK_H / 2 + 5, words, class_="track-value"),
                title=cell_title,
            )
        )
    return el("g", "".join(parts), title=title, data_term=term, class_="track")


def tracks(board: Board, view: Mapping[str, Any], lay: Layout) -> str:
    width = lay.width - 4
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
    research_words = f"Research: {research} of {done} spaces (the last one wins)"
    energy_words = f"Energy: {view['energy']} of {board.energy_max}"
    damage_words = f"Damage: {view['damage']} (the base is lost at {lose})"
    return (
        _track(y, research_words, "research track", f"Research: {research} of {done} spaces", r_cells, width)
        + _track(y + TRACK_STEP, energy_words, "energy track", f"Energy: {view['energy']}", e_cells, width)
        + _track(y + 2 * TRACK_STEP, damage_words, "damage track", damage_words, d_cells, width)
    )
