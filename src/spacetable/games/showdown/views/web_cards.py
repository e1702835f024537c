"""A card drawn on Showdown's web board (on a mat or in hand): its face, family icon, name, notes and tokens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.engine.svg import el, text

from ..content import CAPTAIN, card_name, family
from .web_markup import Ctx, W, hit

CARD_H = 48
FAMILY_COLOR = {
    "engine": "#9fb3c8",
    "weapon": "#c8a0a0",
    "crew": "#e0e7ef",
    "xenotech": "#d08c4f",
    "countermeasure": "#e8b931",
}
SHORT = {
    "ai": "A.I.",
    "adrenal_stim": "Stim",
    "armor_plating": "Armor",
    "energy_shields": "Shields",
    "frequency_scrambler": "Scrambler",
    "nitro_fuel": "Nitro",
    "security_drone": "Drone",
}
"""The word a card's face shows where its printed name does not fit a card's width at 12 px (its
hover text gives the whole name)."""


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


def face_word(kind: str) -> str:
    """The name a card's face shows."""
    return SHORT.get(kind, card_name(kind))


def _token(ctx: Ctx, t: Sequence[Any], x: float, y: float) -> str:
    """A xenotech token of its owner (colour and shape) with its letter: a decoration of the card
    it sits on, whose hover text names it."""
    owner, xeno = int(t[0]), str(t[1])
    letter = "H" if xeno == "hacking" else "Ψ"
    return el(
        "g",
        ctx.mark(owner, x, y, 6.5, quiet=True) + text(x, y + 4.5, letter, class_="tok-letter"),
        class_="token",
        pointer_events="none",
    )


@dataclass
class Face:
    """One card (or slot) on a mat."""

    kind: str
    count: int = 1
    back: bool = False
    empty: str = ""
    """The words of an empty place ("|" between lines)."""
    note: str = ""
    """One line under the name (the tokens on the card take its place)."""
    rating: int | None = None
    """A crew member's combat rating, in a badge beside the icon, as the cards print it."""
    title: str = ""
    term: str | None = None
    part: str | None = None
    tokens: tuple[Sequence[Any], ...] = ()
    deployed: bool = False
    face_down: bool = False
    dim: bool = False
    armor: int = 0
    badge: str = ""
    """A word in the top band's right end where no count is shown (an AI token: "AI")."""
    stack: bool = True
    """A pile on a mat (its count always shown for engines and weapons); False for a card in hand."""


BAND = 15
"""The card's top band: its family icon, then armor tokens, then its count or badge at the right."""


def face_svg(ctx: Ctx, face: Face, x: float, y: float, w: float, h: float = CARD_H) -> str:
    """A card: the band (icon, rating, armor, count or badge), its name, then one line: its note,
    or the tokens on it. Nothing is drawn over its words; the hover is the whole card's."""
    body = []
    if face.empty:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="card empty"))
        lines = face.empty.split("|")
        for k, line in enumerate(lines):
            body.append(text(x + w / 2, y + h / 2 + 4 + 14 * (k - (len(lines) - 1) / 2), line, class_="empty-label"))
    elif face.back:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="card back"))
        body.append(el("rect", x=x + 4, y=y + 4, width=w - 8, height=h - 8, rx=4, class_="back-inner"))
        body.append(text(x + w / 2, y + h / 2 + 9, "?", class_="back-mark"))
        body.append(_icon("countermeasure", x + 4, y + 1))
    else:
        fam = family(face.kind) if face.kind != CAPTAIN else "crew"
        color = FAMILY_COLOR[fam]
        cls = "card" + (" deployed" if face.deployed else "") + (" face-down" if face.face_down else "")
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_=cls, stroke=color))
        body.append(el("rect", x=x + 1, y=y + 1, width=w - 2, height=BAND, rx=5, fill=color, fill_opacity=0.22))
        body.append(_icon(fam, x + 4, y + 1))
        if face.count > 1 or (face.kind in ("engine", "weapon") and face.stack):
            body.append(text(x + w - 4, y + 13, f"×{face.count}", anchor="end", class_="count"))
        elif face.badge:
            body.append(text(x + w - 4, y + 13, face.badge, anchor="end", class_="count"))
        if face.rating is not None:
            body.append(el("circle", cx=x + 27, cy=y + 8, r=6.5, class_="rating"))
            body.append(text(x + 27, y + 12.5, str(face.rating), class_="rating-value"))
        room = int((w - 44) // 8)  # armor tokens between the icon and the badge
        for k in range(min(face.armor, room)):
            body.append(el("rect", x=x + 21 + k * 8, y=y + 4, width=6, height=7, rx=1.5, class_="armor"))
        body.append(text(x + w / 2, y + 29, face_word(face.kind), class_="card-name"))
        if face.tokens:
            start = x + w / 2 - 7 * (len(face.tokens) - 1)
            body += [_token(ctx, t, start + 14 * k, y + h - 9) for k, t in enumerate(face.tokens)]
        elif face.note:
            body.append(text(x + w / 2, y + h - 6, face.note, class_="card-note"))
    card = "".join(body)
    return (el("g", card, opacity=0.45) if face.dim else card) + hit(x, y, w, h, face.title, face.part, face.term, rx=6)


def bolt(x: float, y: float, s: float = 1.0) -> str:
    """An energy bolt path, about 12 x 16 at scale 1, its top left at (x, y)."""
    pts = [(7, 0), (0, 9), (5, 9), (3, 16), (11, 6), (6, 6), (9, 0)]
    return "M" + " L".join(f"{x + px * s:.1f} {y + py * s:.1f}" for px, py in pts) + "Z"


PER_ROW = 5
ROW_PAD = 6
CARD_GAP = 4
CARD_W = (W - 2 * ROW_PAD - (PER_ROW - 1) * CARD_GAP) / PER_ROW
"""Cards on a mat: five a row, as wide as the mat allows (a card's name is 12 px text)."""


def rows_svg(ctx: Ctx, faces: list[Face], y: float) -> tuple[str, float]:
    """``faces`` in rows of five from ``y``; the markup and the height it takes."""
    body = []
    for i, face in enumerate(faces):
        row, col = divmod(i, PER_ROW)
        body.append(face_svg(ctx, face, ROW_PAD + col * (CARD_W + CARD_GAP), y + row * (CARD_H + CARD_GAP), CARD_W))
    rows = -(-len(faces) // PER_ROW)
    return "".join(body), rows * (CARD_H + CARD_GAP)
