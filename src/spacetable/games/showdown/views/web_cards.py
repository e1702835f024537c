"""A card drawn on Showdown's web board (on a mat or in hand): its face, family icon, name, notes and tokens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.engine.svg import el, text

from ..content import CAPTAIN, card_name, family
from .web_markup import Ctx, color_of, hit, mark

CARD_H = 60
FAMILY_COLOR = {
    "engine": "#9fb3c8",
    "weapon": "#c8a0a0",
    "crew": "#e0e7ef",
    "xenotech": "#d08c4f",
    "countermeasure": "#e8b931",
}
SHORT = {
    "ai": "A.I.",
    "cryo": "Cryo-Crew",
    "adrenal_stim": "Adrenal|Stim",
    "armor_plating": "Armor|Plating",
    "energy_shields": "Energy|Shields",
    "frequency_scrambler": "Frequency|Scrambler",
    "nitro_fuel": "Nitro|Fuel",
    "security_drone": "Security|Drone",
}


def _icon(fam: str, x: float, y: float) -> str:
    """A 14 px picture of a card family at (x, y)."""
    if fam == "engine":
        return el(
            "path",
            d=f"M{x + 7} {y} C{x + 11} {y + 4} {x + 13} {y + 8} {x + 7} {y + 14} C{x + 1} {y + 8} {x + 3} {y + 4} "
            f"{x + 7} {y}Z",
            fill="#ff9f43",
        )
    if fam == "weapon":
        return el(
            "g",
            el("circle", cx=x + 7, cy=y + 7, r=5, fill="none", stroke="#ff6b6b", stroke_width=2)
            + el("path", d=f"M{x + 7} {y}V{y + 14}M{x} {y + 7}H{x + 14}", stroke="#ff6b6b", stroke_width=1.5),
        )
    if fam == "crew":
        return el(
            "g",
            el("circle", cx=x + 7, cy=y + 4, r=3.5, fill="#e0e7ef")
            + el("path", d=f"M{x + 1} {y + 14} Q{x + 7} {y + 5} {x + 13} {y + 14}Z", fill="#e0e7ef"),
        )
    if fam == "xenotech":
        return el(
            "g",
            el(
                "polygon",
                points=f"{x + 7},{y} {x + 13},{y + 3.5} {x + 13},{y + 10.5} {x + 7},{y + 14} {x + 1},{y + 10.5} "
                f"{x + 1},{y + 3.5}",
                fill="#d08c4f",
            )
            + el("circle", cx=x + 7, cy=y + 7, r=2.5, fill="#1b2540"),
        )
    return el(
        "path",
        d=f"M{x + 7} {y} L{x + 13} {y + 3} V{y + 7} Q{x + 13} {y + 12} {x + 7} {y + 14} Q{x + 1} {y + 12} {x + 1} "
        f"{y + 7} V{y + 3}Z",
        fill="#e8b931",
    )


def _name_lines(kind: str) -> list[str]:
    return SHORT.get(kind, card_name(kind)).split("|")


def _token(ctx: Ctx, t: Sequence[Any], x: float, y: float) -> str:
    """A xenotech token of its owner (colour and shape) with its letter."""
    owner, xeno = int(t[0]), str(t[1])
    letter = "H" if xeno == "hacking" else "Ψ"
    return el(
        "g",
        mark(owner, x, y, 8, color_of(ctx.content, owner), term=ctx.captain(owner))
        + text(x, y + 3.5, letter, class_="tok-letter"),
        class_="token",
    )


@dataclass
class Face:
    """One card (or slot) on a mat."""

    kind: str
    count: int = 1
    back: bool = False
    empty: str = ""
    note: str = ""
    note2: str = ""
    title: str = ""
    term: str | None = None
    part: str | None = None
    tokens: tuple[Sequence[Any], ...] = ()
    deployed: bool = False
    boosted: bool = False
    face_down: bool = False
    dim: bool = False
    armor: int = 0
    stack: bool = True
    """A pile on a mat (its count always shown for engines and weapons); False for a card in hand."""


def face_svg(ctx: Ctx, face: Face, x: float, y: float, w: float, h: float = CARD_H) -> str:
    body = []
    if face.empty:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="card empty"))
        lines = face.empty.split("|")
        for k, line in enumerate(lines):
            body.append(text(x + w / 2, y + h / 2 + 4 + 12 * (k - (len(lines) - 1) / 2), line, class_="empty-label"))
    elif face.back:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="card back"))
        body.append(el("rect", x=x + 4, y=y + 4, width=w - 8, height=h - 8, rx=4, class_="back-inner"))
        body.append(text(x + w / 2, y + h / 2 + 7, "?", class_="back-mark"))
        body.append(_icon("countermeasure", x + 4, y + 5))
    else:
        fam = family(face.kind) if face.kind != CAPTAIN else "crew"
        color = FAMILY_COLOR[fam]
        cls = "card" + (" deployed" if face.deployed else "") + (" face-down" if face.face_down else "")
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_=cls, stroke=color))
        body.append(el("rect", x=x + 1, y=y + 1, width=w - 2, height=17, rx=5, fill=color, fill_opacity=0.22))
        body.append(_icon(fam, x + 4, y + 3))
        if face.count > 1 or (face.kind in ("engine", "weapon") and face.stack):
            body.append(text(x + w - 5, y + 14, f"×{face.count}", anchor="end", class_="count"))
        lines = _name_lines(face.kind)
        base = y + (33 if len(lines) == 1 else 29)
        for k, line in enumerate(lines):
            body.append(text(x + w / 2, base + 11 * k, line, class_="card-name" + (" narrow" if w < 60 else "")))
        if face.note:
            body.append(text(x + w / 2, y + h - (15 if face.note2 else 5), face.note, class_="card-note"))
        if face.note2:
            body.append(text(x + w / 2, y + h - 5, face.note2, class_="card-note"))
        if face.boosted:
            body.append(el("path", d=bolt(x + w - 12, y + 20, 0.7), class_="bolt"))
        for k in range(face.armor):
            body.append(el("rect", x=x + 4 + k * 9, y=y + 21, width=7, height=7, rx=1.5, class_="armor"))
    if face.dim:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="disabled"))
    for k, t in enumerate(face.tokens):
        body.append(_token(ctx, t, x + w - 8 - 17 * k, y + h - 10))
    body.append(hit(x, y, w, h, face.title, face.part, face.term, rx=6))
    return "".join(body)


def bolt(x: float, y: float, s: float = 1.0) -> str:
    """An energy bolt path, about 12 x 16 at scale 1, its top left at (x, y)."""
    pts = [(7, 0), (0, 9), (5, 9), (3, 16), (11, 6), (6, 6), (9, 0)]
    return "M" + " L".join(f"{x + px * s:.1f} {y + py * s:.1f}" for px, py in pts) + "Z"
