"""The board widget: the game's terminal drawing, with its clickable parts.

A game's renderer tags each board element with the id its actions use (``[@part='cell:E4']``,
the browser's ``data-part``). Here the mouse over an element asks for its explanation, a click
presses it, and with the keyboard the arrow keys move a cursor from element to element and
Enter presses the one under it. Places the chosen piece can go are shown reversed, the cursor
underlined, so both read without colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.message import Message
from textual.widgets import Static

PART = "@part"
"""The Rich meta key a renderer tags a board element with."""

DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
ROW_WIDTH = 3
"""Columns a row counts for when the cursor looks for the nearest element (cells are wider than tall)."""


@dataclass(frozen=True)
class Spot:
    """Where a part is drawn first: its row and column, and the text drawn there."""

    row: int
    column: int
    text: str


def spots(text: Text) -> dict[str, Spot]:
    """Each tagged part of ``text`` at its first place (top to bottom, left to right)."""
    plain = text.plain
    found: dict[str, Spot] = {}
    for span in sorted(text.spans, key=lambda s: s.start):
        style = span.style
        part = style.meta.get(PART) if isinstance(style, Style) else None
        if not isinstance(part, str) or part in found:
            continue
        line_start = plain.rfind("\n", 0, span.start) + 1
        row = plain.count("\n", 0, span.start)
        found[part] = Spot(row, cell_len(plain[line_start : span.start]), plain[span.start : span.end])
    return found


def nearest(places: dict[str, Spot], start: Spot, direction: str) -> str | None:
    """The part nearest to ``start`` in ``direction`` (None: nothing lies that way)."""
    dx, dy = DIRECTIONS[direction]
    best: tuple[int, str] | None = None
    for part, spot in places.items():
        across = (spot.column - start.column) * dx + (spot.row - start.row) * dy * ROW_WIDTH
        aside = abs(spot.column - start.column) * abs(dy) + abs(spot.row - start.row) * abs(dx) * ROW_WIDTH
        if across <= 0:
            continue
        score = across + 2 * aside
        if best is None or score < best[0]:
            best = (score, part)
    return None if best is None else best[1]


class BoardView(Static, can_focus=True):
    """The board. Posts :class:`Pointed` when the mouse or the cursor rests on a part and
    :class:`Pressed` when one is clicked or Enter is pressed on it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"move('{key}')", show=False) for key in DIRECTIONS),
        Binding("enter,space", "press", "Choose", show=False),
    ]

    class Pointed(Message):
        """The mouse or the cursor is on ``part`` (drawn as ``shown``); None: on no part."""

        def __init__(self, part: str | None, shown: str) -> None:
            super().__init__()
            self.part = part
            self.shown = shown

    class Pressed(Message):
        """``part`` was clicked on ``board``, or Enter was pressed with the cursor on it."""

        def __init__(self, board: BoardView, part: str) -> None:
            super().__init__()
            self.board = board
            self.part = part

        @property
        def control(self) -> BoardView:
            return self.board

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.drawing = Text()
        self.places: dict[str, Spot] = {}
        self.marked: frozenset[str] = frozenset()
        self.chosen: frozenset[str] = frozenset()
        self.cursor: str | None = None
        self.hovered: str | None = None

    def draw(self, drawing: Text, marked: frozenset[str] = frozenset(), chosen: frozenset[str] = frozenset()) -> None:
        """Show the board ``drawing`` with the ``marked`` places (where the chosen piece can go)
        and the ``chosen`` parts picked so far."""
        if drawing is not self.drawing:
            self.drawing = drawing
            self.places = spots(drawing)
        if self.cursor not in self.places:
            self.cursor = None
        self.mark(marked, chosen)

    def mark(self, marked: frozenset[str], chosen: frozenset[str] = frozenset()) -> None:
        """Show other places as marked and chosen, on the same drawing."""
        self.marked, self.chosen = marked, chosen
        self._refresh_drawing()

    def _refresh_drawing(self) -> None:
        text = self.drawing.copy()
        for span in self.drawing.spans:
            style = span.style
            part = style.meta.get(PART) if isinstance(style, Style) else None
            if part in self.chosen:
                text.stylize("bold reverse", span.start, span.end)
            elif part in self.marked:
                text.stylize("reverse", span.start, span.end)
            if part is not None and part == self.cursor and self.has_focus:
                text.stylize("bold underline", span.start, span.end)
        self.update(text)

    # ---- the mouse ---------------------------------------------------------------
    def on_mouse_move(self, event: events.MouseMove) -> None:
        part = event.style.meta.get(PART)
        if part != self.hovered:
            self.hovered = part
            spot = self.places.get(part) if part else None
            self.post_message(self.Pointed(part, spot.text if spot else ""))

    def on_click(self, event: events.Click) -> None:
        part = event.style.meta.get(PART)
        if isinstance(part, str):
            self.cursor = part
            self.post_message(self.Pressed(self, part))

    # ---- the keyboard ------------------------------------------------------------
    def on_focus(self) -> None:
        if self.cursor is None and self.places:
            self.cursor = next(iter(self.marked & self.places.keys()), None) or next(iter(self.places))
        self._point_cursor()

    def on_blur(self) -> None:
        self._refresh_drawing()

    def action_move(self, direction: str) -> None:
        """Move the cursor to the nearest part in ``direction``."""
        if self.cursor is None or self.cursor not in self.places:
            self.on_focus()
            return
        target = nearest(self.places, self.places[self.cursor], direction)
        if target is not None:
            self.cursor = target
            self._point_cursor()

    def action_press(self) -> None:
        if self.cursor is not None:
            self.post_message(self.Pressed(self, self.cursor))

    def _point_cursor(self) -> None:
        self._refresh_drawing()
        if self.cursor is None:
            return
        spot = self.places[self.cursor]
        if isinstance(self.parent, ScrollableContainer):  # the board's panel: keep the cursor in view
            self.parent.scroll_to_region(Region(spot.column, spot.row, max(cell_len(spot.text), 1), 1), animate=False)
        self.post_message(self.Pointed(self.cursor, spot.text))
