"""The pages the server writes for each game: 'How to play' and the rulings, in one page shell.

'How to play' is the game's own teaching fragment (``Game.how_to_play``, its howto.html) made
whole here, once per game and options (the page is cached):

- each ``<figure data-position="NAME">`` gets, before its caption, the board the game's renderer
  draws for the position NAME of its ``views/howto_positions.py`` (``POSITIONS``: a function
  building the state and the seat it is drawn for), from ``view(seat)`` only: a board with two
  arrangements in the wide one, or the tall one where the figure says ``data-arrangement="tall"``;
  a split board (``engine.svg.split``) as its grid, with the side panels the figure's
  ``data-panels`` names by their tabs (``"Now Fleets"``) under it. A name the game does not
  define fails the page (:class:`UnknownPosition`);
- each ``<em data-option="NAME">`` (optionally ``data-value`` as JSON) becomes the option's label
  in the lobby, with the value's words, so a page never shows an option's code name;
- every "Ruling 14", "Rulings 14, 15", "Rulings 55–64" or "§14" in its text links to that ruling
  on the rulings page (``/rulings/GAME#ruling-14``).

The rulings come as the game's RULINGS.md (``Game.rulings``), turned into HTML by a renderer of
the Markdown those files use: headings, numbered and bulleted lists (nested by indentation),
paragraphs, pipe tables, **bold**, *italic* and `code` spans; everything else is escaped
text. Each numbered ruling gets ``id="ruling-N"`` and each heading an id made from its words,
so that a log line can link to the ruling that produced it.
"""

from __future__ import annotations

import html
import importlib
import json
import re
from collections.abc import Callable, Mapping, Sequence

from spacetable.engine import Game, State

from . import lessons


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


Position = Callable[[], tuple[State, int]]
"""A teaching position: builds its state through the game's public API and names the seat whose
view is drawn."""


class UnknownPosition(ValueError):
    """A How to play page shows a position its game does not define."""


class UnknownOption(ValueError):
    """A How to play page names an option its game does not have."""


_PAGES: dict[tuple[str, int, str], str] = {}
"""Each How to play page written, by game id, players and options (the server asks only for the
default ones)."""


def how_to_play(game: Game) -> str:
    """A game's 'How to play' page (:func:`write_how_to_play`), written once per game and options."""
    key = (game.id, game.players, json.dumps(game.options, sort_keys=True, default=str))
    if key not in _PAGES:
        _PAGES[key] = write_how_to_play(game)
    return _PAGES[key]


def write_how_to_play(game: Game) -> str:
    """A game's 'How to play' page: its own teaching text with its pictures, option labels and
    links to its rulings (module docstring), then every word of its glossary;
    :class:`UnknownPosition` or :class:`UnknownOption` where the teaching text names what the
    game has not."""
    name = html.escape(game.name)
    words = "".join(
        f"<dt>{html.escape(term)}</dt><dd>{html.escape(text)}</dd>" for term, text in sorted(game.glossary().items())
    )
    teaching = game.how_to_play() or f"<p>{name} has no teaching page yet; the glossary below explains its words.</p>"
    content = (
        f'{_option_labels(teaching, game)}<section aria-labelledby="words"><h2 id="words">Words on the table</h2>'
        f'<dl class="glossary">{words}</dl></section>'
    )
    has_rulings = game.rulings() is not None
    if has_rulings:
        content = _ruling_links(content, f"/rulings/{game.id}")
    links = {"Rulings": f"/rulings/{game.id}"} if has_rulings else {}
    first = lessons.first_lesson(game.id)
    if first is not None:
        links["Learn to play"] = f"/learn/{game.id}/{first.id}"
    return page(f"How to play {game.name}", _pictures(content, game), links, "howto-page")


def rulings(game: Game, text: str) -> str:
    """A game's rulings page from its RULINGS.md ``text``."""
    return page(
        f"Rulings: {game.name}", markdown(text), {"How to play": f"/howto/{game.id}"}, "howto-page rulings-page"
    )


# ---- the How to play page: pictures, option labels, ruling links -----------------------------

_FIGURE = re.compile(r'<figure\b[^>]*\sdata-position="([^"]*)"[^>]*>')
_ROOT_SVG = re.compile(r"<svg\b[^>]*>")
_SPLIT_SIDE = '<div class="st-side">'
_PANEL = re.compile(r'(<section\b[^>]*\sdata-tab="([^"]*)".*?</section>)', re.S)
_OPTION = re.compile(r'<em data-option="([^"]*)"(?: data-value="([^"]*)")?></em>')
_TAG = re.compile(r"(<[^>]*>)")
_CITATION = re.compile(r"\b(Rulings?\s+)(\d+(?:(?:\s*[,–]\s*|\s+(?:and|or|to)\s+)\d+)*)|§\s?(\d+)")
_NUMBER = re.compile(r"\d+")


def teaching_positions(game: Game) -> Mapping[str, Position]:
    """The positions ``game`` teaches with: ``POSITIONS`` of the ``views/howto_positions.py`` of its
    package; empty where it has none."""
    package = type(game).__module__.rpartition(".")[0]
    name = f"{package}.views.howto_positions"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise
        return {}
    found: Mapping[str, Position] = module.POSITIONS
    return found


def picture(state: State, seat: int, panels: Sequence[str] = (), arrangement: str = "wide") -> str:
    """The board of ``state`` as ``seat`` sees it (``view(seat)`` only), drawn for a small picture:
    a board with two arrangements in the one named (``"wide"``, the shorter, or ``"tall"``, the
    phone's); a split board as its grid, with only the side panels named in ``panels`` (by their
    tab), kept inert under it. ValueError for a panel or an arrangement the board has not."""
    board = state.game.board_svg(state.view(seat), seat)
    if board is None:
        raise ValueError(f"{state.game.id} draws no board to picture")
    if board.startswith('<div class="st-split') and _SPLIT_SIDE in board:
        at = board.index(_SPLIT_SIDE)
        sections = {tab: section for section, tab in _PANEL.findall(board, at)}
        missing = [tab for tab in panels if tab not in sections]
        if missing:
            raise ValueError(f"{state.game.id}'s board has no panel {missing}; it has {sorted(sections)}")
        side = "".join(sections[tab] for tab in panels)
        return board[:at] + (f'<div class="st-side" inert>{side}</div>' if side else "") + "</div>"
    if arrangement not in ("wide", "tall"):
        raise ValueError(f"a board is drawn wide or tall, not {arrangement!r}")
    root = _ROOT_SVG.search(board)
    wide = root and re.search(r'data-viewbox-wide="([^"]*)"', root[0])
    if root is None or not wide or arrangement == "tall":
        return board
    tag = re.sub(r' viewBox="[^"]*"', f' viewBox="{wide[1]}"', root[0], count=1)
    tag = re.sub(r' class="([^"]*)"', r' class="\1 st-wide"', tag, count=1)
    return board[: root.start()] + tag + board[root.end() :]


def _pictures(content: str, game: Game) -> str:
    """``content`` with each figure's board drawn in it (module docstring)."""
    known = teaching_positions(game)

    def draw(figure: re.Match[str]) -> str:
        name = figure[1]
        if name not in known:
            raise UnknownPosition(
                f"{game.id}'s How to play shows the position {name!r}; its views/howto_positions.py "
                f"defines {', '.join(sorted(known)) or 'none'}"
            )
        state, seat = known[name]()
        panels = re.search(r'\sdata-panels="([^"]*)"', figure[0])
        arrangement = re.search(r'\sdata-arrangement="([^"]*)"', figure[0])
        board = picture(state, seat, panels[1].split() if panels else (), arrangement[1] if arrangement else "wide")
        return f'{figure[0]}<div class="howto-board">{board}</div>'

    return _FIGURE.sub(draw, content)


def _option_labels(fragment: str, game: Game) -> str:
    """``fragment`` with each ``<em data-option>`` in the lobby's words (module docstring)."""

    def label(option: re.Match[str]) -> str:
        name, value = option[1], option[2]
        spec = game.option_specs.get(name)
        if spec is None:
            raise UnknownOption(f"{game.id}'s How to play names the option {name!r}, which it does not have")
        words = spec.named(name)
        if value is not None:
            words += f": {spec.words(json.loads(html.unescape(value)))}"
        return f'<em class="option">{html.escape(words)}</em>'

    return _OPTION.sub(label, fragment)


def _ruling_links(content: str, rulings_page: str) -> str:
    """``content`` with every ruling its text cites linked to ``rulings_page#ruling-N``; text
    already in a link is left as it is."""

    def link(number: str, text: str) -> str:
        return f'<a class="ruling" href="{rulings_page}#ruling-{int(number)}">{text}</a>'

    def cite(citation: re.Match[str]) -> str:
        if citation[3] is not None:
            return link(citation[3], citation[0])
        return citation[1] + _NUMBER.sub(lambda n: link(n[0], n[0]), citation[2])

    out: list[str] = []
    in_link = False
    for piece in _TAG.split(content):
        if piece.startswith("<"):
            in_link = piece.startswith("<a ") or piece == "<a>" or (in_link and piece != "</a>")
        elif not in_link:
            piece = _CITATION.sub(cite, piece)
        out.append(piece)
    return "".join(out)


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
