"""Pieces of Rich markup that know the columns they print, for the games' terminal drawings.

A game's ``views/render.py`` lays its compact board out to the column (the terminal table's
panel is 78 columns wide), so it builds its lines from :class:`Piece` s rather than measuring
markup afterwards. Every character drawn this way must be one column wide. A piece may be
tagged with a board part (``[@part='ID']``, the id ``Game.action_parts`` uses), which Rich
prints as nothing and the terminal table makes clickable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Piece(NamedTuple):
    """Markup and the columns it prints."""

    markup: str
    width: int


def escaped(text: str) -> str:
    """``text`` with ``[`` escaped, so Rich does not read literal text as markup."""
    return text.replace("[", "\\[")


def piece(text: str, style: str = "", part: str = "") -> Piece:
    """``text`` in ``style``, tagged with the board ``part`` where it names one."""
    markup = escaped(text)
    if style:
        markup = f"[{style}]{markup}[/]"
    if part:
        markup = f"[@part='{part}']{markup}[/]"
    return Piece(markup, len(text))


def joined(pieces: Sequence[Piece], gap: str = " ") -> Piece:
    """``pieces`` side by side, ``gap`` between each two."""
    return Piece(gap.join(p.markup for p in pieces), sum(p.width for p in pieces) + len(gap) * (len(pieces) - 1))


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns, an ellipsis marking the cut."""
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def flow(pieces: Sequence[Piece], width: int) -> list[Piece]:
    """``pieces`` side by side, a space apart, onto as many lines of ``width`` as they need (a piece
    is never split: each must fit ``width``)."""
    lines: list[list[Piece]] = []
    used = 0
    for p in pieces:
        if lines and used + 1 + p.width <= width:
            lines[-1].append(p)
            used += 1 + p.width
        else:
            lines.append([p])
            used = p.width
    return [joined(line) for line in lines]


def beside(left: Sequence[Piece], right: Sequence[Piece], column: int) -> list[str]:
    """Two columns of lines: ``right`` starts at ``column``."""
    rows = []
    for i in range(max(len(left), len(right))):
        here = left[i] if i < len(left) else Piece("", 0)
        there = right[i].markup if i < len(right) else ""
        rows.append(here.markup + " " * (column - here.width) + there if there else here.markup)
    return rows
