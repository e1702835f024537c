"""Shared pieces of the falling-skies web board: its sizes, where each area goes, the clickable overlay."""

from __future__ import annotations

from spacetable.engine.svg import el

from ..content import Board

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


def hit(x: float, y: float, w: float, h: float, part: str, title: str, term: str | None = None) -> str:
    """A transparent clickable overlay naming a board part."""
    return el("rect", title=title, x=x, y=y, width=w, height=h, rx=4, data_part=part, data_term=term, class_="hit")


# ---- the drawing ------------------------------------------------------------------------


class Layout:
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
