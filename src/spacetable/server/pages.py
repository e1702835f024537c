"""The pages the server writes for each game: 'How to play' and the rulings, in one page shell.

The rulings come as the game's RULINGS.md (``Game.rulings``), turned into HTML by a renderer of
the Markdown those files use: headings, numbered and bulleted lists (nested by indentation),
paragraphs, pipe tables, **bold**, *italic* and `code` spans; everything else is escaped
text. Each numbered ruling gets ``id="ruling-N"`` and each heading an id made from its words,
so that a log line can link to the ruling that produced it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping

from spacetable.engine import Game


def page(title: str, content: str, links: Mapping[str, str], body_class: str) -> str:
    """A whole page: the top bar with ``title`` and ``links`` (text to address), then ``content``
    (HTML) in a reading column."""
    name = html.escape(title)
    nav = "".join(
        f'<a class="howto-link" href="{html.escape(href)}">{html.escape(text)}</a>' for text, href in links.items()
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{name}</title><link rel="stylesheet" href="/static/style.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head>'
        f'<body class="{body_class}"><header class="topbar"><a href="/" class="home">spacetable</a>'
        f'<h1>{name}</h1>{nav}</header><main class="howto">{content}</main></body></html>'
    )


def how_to_play(game: Game) -> str:
    """A game's 'How to play' page: its own teaching text, then every word of its glossary."""
    name = html.escape(game.name)
    words = "".join(
        f"<dt>{html.escape(term)}</dt><dd>{html.escape(text)}</dd>" for term, text in sorted(game.glossary().items())
    )
    teaching = game.how_to_play() or f"<p>{name} has no teaching page yet; the glossary below explains its words.</p>"
    content = (
        f'{teaching}<section aria-labelledby="words"><h2 id="words">Words on the table</h2>'
        f'<dl class="glossary">{words}</dl></section>'
    )
    links = {"Rulings": f"/rulings/{game.id}"} if game.rulings() is not None else {}
    return page(f"How to play {game.name}", content, links, "howto-page")


def rulings(game: Game, text: str) -> str:
    """A game's rulings page from its RULINGS.md ``text``."""
    return page(
        f"Rulings: {game.name}", markdown(text), {"How to play": f"/howto/{game.id}"}, "howto-page rulings-page"
    )


# ---- the Markdown of RULINGS.md -----------------------------------------------------------------

_HEADING = re.compile(r"(#{1,5})\s+(.+)")
_ITEM = re.compile(r"(?:(\d+)\.|[-*])\s+")
_BULLET = re.compile(r"[-*]\s+")
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*")


def markdown(text: str) -> str:
    """``text`` as HTML (module docstring: the subset, the ids). Headings go one level down, the
    page's own title being the h1."""
    return "".join(_Renderer().blocks(text.splitlines(), top=True))


def _inline(text: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        code, bold, italic = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif bold is not None:
            out.append(f"<strong>{_inline(bold)}</strong>")
        else:
            out.append(f"<em>{_inline(italic)}</em>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def _run(lines: list[str], i: int, keep: Callable[[str], bool]) -> int:
    """The index after the lines from ``i`` on for which ``keep`` holds."""
    while i < len(lines) and keep(lines[i]):
        i += 1
    return i


def _indented(line: str) -> bool:
    return line.startswith((" ", "\t"))


def _starts_block(line: str) -> bool:
    """Whether ``line`` ends the paragraph before it. A numbered line does not: in these files a
    wrapped line may begin with a number and a full stop."""
    return bool(_HEADING.fullmatch(line) or _BULLET.match(line) or line.startswith("|"))


class _Renderer:
    """One document's blocks; remembers the heading ids given so that each is unique."""

    def __init__(self) -> None:
        self.ids: set[str] = set()

    def blocks(self, lines: list[str], top: bool) -> list[str]:
        """``lines`` (dedented to their block's margin) as HTML blocks; ``top``: the document's own
        level, where numbered items are rulings."""
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            if not line.strip():
                i += 1
            elif heading := _HEADING.fullmatch(line):
                out.append(self.heading(len(heading[1]) + 1, heading[2].strip()))
                i += 1
            elif line.startswith("|"):
                end = _run(lines, i, lambda s: s.startswith("|"))
                out.append(_table(lines[i:end]))
                i = end
            elif item := _ITEM.match(line):
                i = self.items(lines, i, item[1] is not None, top, out)
            else:
                end = _run(lines, i + 1, lambda s: bool(s.strip()) and not _starts_block(s))
                out.append(f"<p>{_inline(' '.join(s.strip() for s in lines[i:end]))}</p>")
                i = end
        return out

    def items(self, lines: list[str], i: int, ordered: bool, top: bool, out: list[str]) -> int:
        """The list starting at line ``i`` into ``out``; returns the index after it. An item goes on
        over indented lines, and over blank lines followed by indented ones."""
        html_items: list[str] = []
        while i < len(lines) and (m := _ITEM.match(lines[i])) and (m[1] is not None) == ordered:
            body = [lines[i][m.end() :]]
            i += 1
            while i < len(lines):
                if not lines[i].strip():
                    after = _run(lines, i, lambda s: not s.strip())
                    if after == len(lines) or not _indented(lines[after]):
                        break
                elif not _indented(lines[i]):
                    break
                margin = len(lines[i]) - len(lines[i].lstrip())
                body.append(lines[i][min(margin, m.end()) :])
                i += 1
            inner = "".join(self.blocks(body, top=False))
            if m[1] is None:
                html_items.append(f"<li>{inner}</li>")
            else:
                anchor = f' id="ruling-{int(m[1])}"' if top else ""
                html_items.append(f'<li value="{int(m[1])}"{anchor}>{inner}</li>')
        tag = "ol" if ordered else "ul"
        out.append(f"<{tag}>{''.join(html_items)}</{tag}>")
        return i

    def heading(self, level: int, text: str) -> str:
        words = re.sub(r"[`*]", "", text).lower()
        slug = base = re.sub(r"[^a-z0-9]+", "-", words).strip("-") or "section"
        n = 1
        while slug in self.ids:
            n += 1
            slug = f"{base}-{n}"
        self.ids.add(slug)
        return f'<h{level} id="{slug}">{_inline(text)}</h{level}>'


def _table(rows: list[str]) -> str:
    """A pipe table: the first row is the head; a row of dashes under it is the rule."""
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    head, body = cells[0], cells[1:]
    if body and all(set(c) <= set("-: ") for c in body[0]):
        body = body[1:]
    th = "".join(f'<th scope="col">{_inline(c)}</th>' for c in head)
    trs = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in body)
    return f'<table class="rulings-table"><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>'
