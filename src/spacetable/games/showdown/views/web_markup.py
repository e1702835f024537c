"""Shared pieces of Showdown's web board: sizes, owners' colours and marks, overlays, buttons, text, the context."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spacetable.engine.svg import el, text

from ..content import Content
from .web_words import owner_words, shape_name

W = 360
"""Width of every area (a mat, the centre)."""
GAP = 6
PAD = 8
COLORS = {
    "red": "#ef5350",
    "blue": "#42a5f5",
    "green": "#66bb6a",
    "yellow": "#ffca28",
    "purple": "#b980f0",
    "white": "#eceff1",
    "orange": "#ffa040",
    "pink": "#f48fb1",
    "cyan": "#4dd0e1",
}


def hit(
    x: float, y: float, w: float, h: float, title: str, part: str | None = None, term: str | None = None, rx: float = 5
) -> str:
    """A transparent overlay: the hover text, the glossary term and (if any) the clickable part."""
    return el("rect", title=title, x=x, y=y, width=w, height=h, rx=rx, data_part=part, data_term=term, class_="hit")


def color_of(content: Content, p: int) -> str:
    name = content.captains[p].color
    return COLORS.get(name.lower(), name)


def mark(
    p: int,
    cx: float,
    cy: float,
    r: float,
    fill: str,
    *,
    term: str | None = None,
    title: str | None = None,
    quiet: bool = False,
) -> str:
    """The seat's shape, centred on (cx, cy); ``term`` names its glossary entry (the seat's captain),
    ``title`` its hover text; ``quiet``: a decoration that leaves the hover to what is under it."""
    shape = shape_name(p)
    common: dict[str, Any] = {
        "fill": fill,
        "stroke": "#0b1020",
        "stroke_width": 1.5,
        "data_term": term,
        "pointer_events": "none" if quiet else None,
    }
    if shape == "circle":
        return el("circle", title=title, cx=cx, cy=cy, r=r * 0.9, **common)
    if shape == "square":
        s = r * 1.6
        return el("rect", title=title, x=cx - s / 2, y=cy - s / 2, width=s, height=s, rx=1.5, **common)
    if shape == "triangle":
        pts = [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)]
    elif shape == "diamond":
        pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    elif shape == "star":
        pts = []
        for k in range(10):
            rad = r if k % 2 == 0 else r * 0.45
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    else:  # hexagon
        pts = [(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    return el("polygon", title=title, points=points, **common)


@dataclass
class Ctx:
    """What the drawing reads: the content, the view and the seat looking (None: a spectator)."""

    content: Content
    view: Mapping[str, Any]
    seat: int | None

    @property
    def players(self) -> list[dict[str, Any]]:
        players: list[dict[str, Any]] = self.view["players"]
        return players

    @property
    def pending(self) -> dict[str, Any] | None:
        pending: dict[str, Any] | None = self.view["pending"]
        return pending

    def name(self, p: int) -> str:
        return str(self.players[p]["captain"])

    def owner(self, p: int) -> str:
        return owner_words(self.content, p)

    def captain(self, p: int) -> str:
        """The glossary term of seat ``p``'s captain: their colour and shape."""
        return self.content.captains[p].name

    def mark(self, p: int, cx: float, cy: float, r: float, quiet: bool = False) -> str:
        """Seat ``p``'s shape in its colour, naming its owner on hover (``quiet``: a decoration)."""
        return mark(p, cx, cy, r, color_of(self.content, p), term=self.captain(p), title=self.owner(p), quiet=quiet)

    def my_turn(self) -> bool:
        return self.view["phase"] == "turn" and self.pending is None and self.view["active"] == self.seat

    def my_xeno(self) -> str:
        """The xenotech the viewer can aim at other ships now ("" if none)."""
        if self.seat is None or not self.my_turn():
            return ""
        mat = self.players[self.seat].get("mat") or {}
        return next((x for x in ("hacking", "psionics") if mat.get(x)), "")

    def loot_target(self) -> int | None:
        pending = self.pending
        if pending and pending["stage"] == "loot" and pending["actor"] == self.seat:
            return int(pending["target"])
        return None

    def tokens_on(self, p: int, card: str) -> list[list[Any]]:
        return [t for t in self.view["tokens"] if t[2] == p and t[3] == card]

    def until(self, owner: int, wait: int) -> str:
        ends = wait + 1
        who = self.name(owner)
        return f"when {who}'s turn ends" if ends == 1 else f"when {who}'s turn has ended {ends} more times"


def button_svg(
    x: float, y: float, w: float, label: str, part: str, title: str, term: str | None = None, on: bool = True
) -> str:
    cls = "button" + ("" if on else " off")
    return (
        el("rect", x=x, y=y, width=w, height=30, rx=7, class_=cls)
        + text(x + w / 2, y + 20, label, class_="button-label")
        + hit(x, y, w, 30, title, part, term, rx=7)
    )


def _wrap(words: str, width: int = 56) -> list[str]:
    """``words`` in lines of at most ``width`` characters, breaking only between words."""
    return textwrap.wrap(words, width, break_long_words=False, break_on_hyphens=False)


LINE = 15
"""The height of a line of the board's 12 px text."""


def paragraph(x: float, y: float, words: str, cls: str = "small", width: int = 0) -> tuple[str, float]:
    """``words`` wrapped to the panel's width (in characters of the class's font) from baseline ``y``;
    its height."""
    lines = _wrap(words, width or (47 if cls == "prompt" else 50))
    body = "".join(text(x, y + LINE * k, line, anchor="start", class_=cls) for k, line in enumerate(lines))
    return body, float(LINE * len(lines))


def text_width(words: str, per_char: float) -> float:
    """About how wide ``words`` are drawn at ``per_char`` pixels a character."""
    return len(words) * per_char
