"""Shared pieces of SpaceRace's web board: the players' colours and shapes, small SVG helpers for the
map, and HTML helpers for the side panels."""

from __future__ import annotations

import math

from spacetable.engine.svg import attrs as attrs_markup
from spacetable.engine.svg import el, escape

from ..rules.state import PLAYER_NAMES as PLAYER_NAMES  # the state's names of the seats, drawn with their colours

PLAYER_FILL = ("#e5484d", "#3e8ef7", "#30a46c", "#f5d90a", "#a66bf0", "#1fc7d4")
PLAYER_INK = ("#ffffff", "#ffffff", "#ffffff", "#1a1a1a", "#ffffff", "#10222a")
PLAYER_SHAPE = ("triangle", "square", "circle", "diamond", "star", "hexagon")
"""Each seat's shape, drawn beside its colour wherever it owns something (colour-blind players)."""

PLAYER_GLYPH = ("▲", "■", "●", "◆", "★", "⬢")
"""Each seat's shape as a character, for the HTML panels."""


# ---- small SVG helpers -------------------------------------------------------------------


def text(x: float, y: float, words: str, anchor: str = "middle", **attrs: object) -> str:
    return f"<text{attrs_markup({'x': tenth(x), 'y': tenth(y), 'text_anchor': anchor, **attrs})}>{escape(words)}</text>"


def tenth(v: float) -> float | int:
    """Coordinates rounded to a tenth (a short, stable SVG)."""
    v = round(v, 1)
    return int(v) if v == int(v) else v


def shape(kind: str, cx: float, cy: float, size: float, fill: str, cls: str | None = None) -> str:
    """A player's shape centred on (cx, cy), ``size`` across."""
    h = size / 2
    if kind == "circle":
        return el("circle", cx=tenth(cx), cy=tenth(cy), r=tenth(h * 0.9), fill=fill, class_=cls)
    if kind == "square":
        s = h * 0.8
        return el(
            "rect", x=tenth(cx - s), y=tenth(cy - s), width=tenth(2 * s), height=tenth(2 * s), fill=fill, class_=cls
        )
    if kind == "triangle":
        points = [(0, -1.0), (0.95, 0.75), (-0.95, 0.75)]
    elif kind == "diamond":
        points = [(0, -1.0), (0.8, 0), (0, 1.0), (-0.8, 0)]
    elif kind == "star":
        points = [
            (math.cos(-math.pi / 2 + k * math.pi / 5) * (1.0 if k % 2 == 0 else 0.45),
             math.sin(-math.pi / 2 + k * math.pi / 5) * (1.0 if k % 2 == 0 else 0.45))
            for k in range(10)
        ]  # fmt: skip
    else:  # hexagon
        points = [(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)]
    d = " ".join(f"{tenth(cx + px * h)},{tenth(cy + py * h)}" for px, py in points)
    return el("polygon", points=d, fill=fill, class_=cls)


# ---- the side panels: HTML ----------------------------------------------------------------------


def tag(name: str, body: str = "", **values: object) -> str:
    """One HTML element of the side panels; ``title`` is an attribute (the hover text, which the
    table also shows in its info panel), ``body`` is raw markup."""
    return f"<{name}{attrs_markup(values)}>{body}</{name}>"


def mark(seat: int) -> str:
    """A seat's shape in its colour, before its name (colour-blind players read the shape)."""
    return tag("span", PLAYER_GLYPH[seat], class_="sr-mark", style=f"color:{PLAYER_FILL[seat]}", aria_hidden="true")


def chip(words: str, title: str, part: str | None = None, term: str | None = None, cls: str = "sr-chip") -> str:
    """A labelled box: a value, a button; clickable where it names a ``part``."""
    return tag("span", escape(words), title=title, data_part=part, data_term=term, class_=cls)
