"""Writing SVG markup fast, for the games' board drawings (``Game.board_svg``).

A board is drawn for every update a server sends, so these helpers are on a hot path: attribute
names are translated once (``data_part`` -> ``data-part``, ``class_`` -> ``class``) and values
are escaped only when they hold a character that needs it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

_TEXT_SPECIAL = re.compile("[&<>]")
_ATTR_SPECIAL = re.compile('[&<>"\n\r\t]')


@functools.cache
def _name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def escape(text: str) -> str:
    """``text`` safe as element content."""
    if _TEXT_SPECIAL.search(text):
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text


def quote(value: object) -> str:
    """``value`` as a double-quoted attribute value."""
    if type(value) is int or type(value) is float:
        return f'"{value}"'
    text = str(value)
    if _ATTR_SPECIAL.search(text):
        text = (
            text.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace('"', "&quot;")
            .replace("\n", "&#10;")
            .replace("\r", "&#13;")
            .replace("\t", "&#9;")
        )
    return f'"{text}"'


def attrs(values: Mapping[str, object]) -> str:
    """Attributes from keyword-style names (``data_part``, ``class_``); None values are left out."""
    return "".join(f" {_name(k)}={quote(v)}" for k, v in values.items() if v is not None)


def el(tag: str, body: str = "", title: str | None = None, **values: object) -> str:
    """One element; ``title`` becomes its first child (the hover text), ``body`` is raw markup."""
    inner = f"<title>{escape(title)}</title>{body}" if title else body
    return f"<{tag}{attrs(values)}>{inner}</{tag}>" if inner else f"<{tag}{attrs(values)}/>"


def text(x: float, y: float, words: str, anchor: str = "middle", **values: object) -> str:
    """A ``<text>`` at (x, y), anchored at its middle unless told."""
    return f"<text{attrs({'x': x, 'y': y, 'text_anchor': anchor, **values})}>{escape(words)}</text>"


def board(body: str, *, tall: str, wide: str, name: str, label: str) -> str:
    """A game's whole board: the root ``<svg>`` in its tall arrangement, naming the wide one for
    the client to switch to (docs/WEB.md, "Board arrangements"); ``name`` is its CSS class."""
    return el(
        "svg",
        body,
        xmlns="http://www.w3.org/2000/svg",
        viewBox=tall,
        data_viewbox_tall=tall,
        data_viewbox_wide=wide,
        class_=name,
        role="img",
        aria_label=label,
    )


def split(grid: str, side: str, *, name: str, style: str = "") -> str:
    """A board in two parts (docs/WEB.md, "Board arrangements"): ``grid`` an ``<svg>`` the table
    scales to its room, ``side`` HTML panels (``<section data-tab="...">``) set beside it, or under
    it as tabs where the screen is narrow; ``style`` the game's CSS for both."""
    styled = f"<style>{style}</style>" if style else ""
    return f'<div class="st-split {name}">{styled}{grid}<div class="st-side">{side}</div></div>'
