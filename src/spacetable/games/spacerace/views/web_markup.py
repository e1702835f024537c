"""Shared pieces of SpaceRace's web board: the players' colours and shapes, and small SVG helpers."""

from __future__ import annotations

import math

from spacetable.engine.svg import attrs as attrs_markup
from spacetable.engine.svg import el, escape

PLAYER_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Cyan")
"""As the state names the seats (state.PLAYER_NAMES)."""
PLAYER_FILL = ("#e5484d", "#3e8ef7", "#30a46c", "#f5d90a", "#a66bf0", "#1fc7d4")
PLAYER_INK = ("#ffffff", "#ffffff", "#ffffff", "#1a1a1a", "#ffffff", "#10222a")
PLAYER_SHAPE = ("triangle", "square", "circle", "diamond", "star", "hexagon")
"""Each seat's shape, drawn beside its colour wherever it owns something (colour-blind players)."""

PW = 340
"""Width of the panel column (the top panel and the fleets)."""


# ---- small SVG helpers -------------------------------------------------------------------


def text(x: float, y: float, words: str, anchor: str = "middle", **attrs: object) -> str:
    return f"<text{attrs_markup({'x': tenth(x), 'y': tenth(y), 'text_anchor': anchor, **attrs})}>{escape(words)}</text>"


def tenth(v: float) -> float | int:
    """Coordinates rounded to a tenth (a short, stable SVG)."""
    v = round(v, 1)
    return int(v) if v == int(v) else v


def hit_rect(x: float, y: float, w: float, h: float, part: str, title: str, term: str | None = None) -> str:
    return el(
        "rect",
        title=title,
        x=tenth(x),
        y=tenth(y),
        width=tenth(w),
        height=tenth(h),
        rx=5,
        data_part=part,
        data_term=term,
        class_="hit",
    )


def hit_circle(cx: float, cy: float, r: float, part: str, title: str, term: str | None = None) -> str:
    return el("circle", title=title, cx=tenth(cx), cy=tenth(cy), r=r, data_part=part, data_term=term, class_="hit")


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


def button(x: float, y: float, w: float, label: str, part: str, title: str, term: str | None = None) -> str:
    """A board button: the drawing, then a transparent overlay with the part on top."""
    return (
        el("rect", x=tenth(x), y=tenth(y), width=tenth(w), height=28, rx=6, class_="btn")
        + text(x + w / 2, y + 19, label, class_="btn-label")
        + hit_rect(x, y, w, 28, part, title, term)
    )
