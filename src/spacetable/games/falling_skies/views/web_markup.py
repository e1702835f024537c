"""Shared pieces of the falling-skies web board: its sizes, where each area goes, the clickable
overlay, and how wide a label is drawn.

Every label is drawn at least ``MIN_FONT`` units high. The client scales the board to its room
(docs/WEB.md, "Board arrangements"): a phone about 370 px wide shows the tall arrangement
(``Layout.width`` units wide), a desktop about 760 px wide the wide one (``Layout.wide_width``),
so 14 units come out at about 12 px on either.
"""

from __future__ import annotations

from spacetable.engine.svg import el, text

from ..content import Board

MIN_FONT = 14
"""The smallest font size of the board's labels, in drawing units."""
GUTTER = 64
"""Width of the left margin: the mother ship track's symbols and the row names."""
CELL_W = 72
SKY_H = 26
HEADER_H = 48
"""The status line and the column numbers above the mother ship card."""
CARD_H = 58
"""Height of the mother ship card's band: its name above its starting spots."""
CITY_H = 24
BASE_H = 70
"""A base space: its name, its details, then a strip for the excavator or dig route and the die."""
TRAY_H = 66
TRACK_STEP = 50
"""A track: its heading, then its cells (``TRACK_H`` high)."""
TRACK_H = 26
WIDE_GAP = 12
"""In the wide arrangement, the space between the sky (left) and the base, tray and tracks (right)."""
WIDE_TOP = 8
"""In the wide arrangement, the top of the base's first row."""

_NARROW = {" ": 0.32, "i": 0.28, "l": 0.28, "j": 0.28, "t": 0.39, "f": 0.35, "r": 0.41, ".": 0.32, "·": 0.32}
_WIDE = {"m": 0.97, "w": 0.82, "M": 0.86, "W": 0.99, "−": 0.84, "+": 0.84, "×": 0.84, "☠": 1.0}


def text_width(words: str, size: float, bold: bool = False) -> float:
    """About how wide ``words`` are drawn at ``size`` (DejaVu Sans, the widest of the usual
    sans-serif faces: a digit is 0.64 of the size, a capital about 0.7)."""
    em = sum(_NARROW.get(ch, _WIDE.get(ch, 0.7 if ch.isupper() else 0.62)) for ch in words)
    return em * size * (1.08 if bold else 1.0)


def fitted(x: float, y: float, words: str, room: float, *, bold: bool = False, **values: object) -> str:
    """A ``MIN_FONT`` label starting at (x, y), squeezed (``textLength``) where it would be wider
    than ``room``, so that it never reaches into its neighbour."""
    squeeze = text_width(words, MIN_FONT, bold) > room
    length = {"textLength": round(room, 1), "lengthAdjust": "spacingAndGlyphs"} if squeeze else {}
    return text(x, y, words, anchor="start", **length, **values)


def hit(x: float, y: float, w: float, h: float, part: str, title: str, term: str | None = None) -> str:
    """A transparent clickable overlay naming a board part; what it covers is drawn with
    ``pointer-events="none"``, so the overlay's title speaks for all of it."""
    return el("rect", title=title, x=x, y=y, width=w, height=h, rx=4, data_part=part, data_term=term, class_="hit")


def deco(body: str, class_: str | None = None) -> str:
    """A group that shows but takes no pointer (a picture under an overlay, a background)."""
    return el("g", body, pointer_events="none", class_=class_)


# ---- the drawing ------------------------------------------------------------------------


class Layout:
    """Where things go, from the board's size and the rows the mother ship card covers."""

    def __init__(self, board: Board, mothership: int) -> None:
        self.board = board
        self.width = GUTTER + board.columns * CELL_W + 8
        self.card_top = HEADER_H
        self.sky_y = HEADER_H + CARD_H
        self.card_bottom = self.sky_y + mothership * SKY_H
        self.band_y = self.card_bottom - CARD_H
        """The top of the card's band (its name and starting spots), just above the first open row."""
        self.city_y = self.sky_y + board.sky_rows * SKY_H
        self.base_y = self.city_y + CITY_H + 8
        self.base_rows = list(dict.fromkeys(s[0] for s in board.spaces))
        self.tray_y = self.base_y + len(self.base_rows) * BASE_H + 10
        self.tracks_y = self.tray_y + TRAY_H + 8
        self.height = self.tracks_y + 3 * TRACK_STEP + 4
        # the wide arrangement: the header and the sky stay put, the rest moves to their right
        self.wide_dx = self.width + WIDE_GAP
        self.wide_dy = WIDE_TOP - self.base_y
        self.wide_width = self.wide_dx + self.width
        self.wide_height = max(self.city_y + CITY_H + 4, self.height + self.wide_dy)

    def col_x(self, col: int) -> float:
        return GUTTER + col * CELL_W

    def row_y(self, row: int) -> float:
        return self.sky_y + (row - 1) * SKY_H
