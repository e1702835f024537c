"""What the detail panel says about a board element or a move, from the game's own words.

A board element is explained as the browser explains it: :meth:`Game.board_svg` draws every
clickable element with its ``data-part`` id, a ``data-term`` naming its glossary word and a
``<title>`` (or ``title``) saying what it is, from the content data and the seat's view alone.
The terminal board tags the same ids (``[@part='ID']``), so one reading of that drawing
explains both. A move is explained by its label, what it risks (``action_note``), the warning
of a losing move and the glossary words it names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser

from spacetable.engine import JSON, Action, Game, State

from ..terminal import terms_in

VOID_TAGS = frozenset({"area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"})
"""HTML elements that never close (a split board's side panels are HTML)."""


@dataclass(frozen=True)
class Note:
    """What the board says about one element: its title and the glossary word it stands for."""

    title: str
    term: str | None


class _PartReader(HTMLParser):
    """Collects each ``data-part`` element's title (a ``<title>`` child, else its ``title`` or
    ``aria-label`` attribute) and its ``data-term``; the first element of an id wins."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.notes: dict[str, Note] = {}
        self.open: list[tuple[str, str | None]] = []
        """The open elements, each with the part id it carries (None: none)."""
        self.in_title: str | None = None
        self.title_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        part = values.get("data-part")
        if part and part not in self.notes:
            title = values.get("title") or values.get("aria-label") or ""
            self.notes[part] = Note(title, values.get("data-term"))
        if tag == "title":
            self.in_title = next((p for _, p in reversed(self.open) if p), None)
            self.title_text = []
        if tag not in VOID_TAGS:
            self.open.append((tag, part))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self.in_title is not None:
            self.title_text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.in_title is not None:
            note = self.notes.get(self.in_title)
            text = "".join(self.title_text).strip()
            if note is not None and text and not note.title:
                self.notes[self.in_title] = Note(text, note.term)
            self.in_title = None
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                break


def board_notes(game: Game, view: JSON, seat: int | None) -> dict[str, Note]:
    """Every clickable element of the board ``seat`` sees, by part id (empty: the game draws none)."""
    svg = game.board_svg(view, seat)
    if not svg:
        return {}
    reader = _PartReader()
    reader.feed(svg)
    reader.close()
    return reader.notes


def glossary_lines(glossary: Mapping[str, str], text: str, first: str | None = None) -> list[str]:
    """``word: meaning`` for ``first`` (a glossary word) and then every glossary word ``text`` names."""
    words = ([first] if first in glossary else []) + terms_in(glossary, text)
    return [f"{word}: {glossary[word]}" for word in dict.fromkeys(words) if word is not None]


def explain_part(game: Game, notes: Mapping[str, Note], part: str, shown: str) -> list[str]:
    """Lines about the board element ``part``, drawn as ``shown`` on the terminal board."""
    note = notes.get(part)
    glossary = game.glossary()
    if note is None:
        return [shown.strip() or part, *glossary_lines(glossary, shown)]
    return [note.title or shown.strip() or part, *glossary_lines(glossary, note.title, note.term)]


def explain_move(state: State, action: Action, label: str) -> list[str]:
    """Lines about a move: its label, its warning and note (from the acting seat's knowledge),
    and the glossary words it names."""
    lines = [label]
    warning = state.action_warning(action)
    if warning:
        lines.append(f"WARNING: {warning}")
    note = state.action_note(action)
    if note:
        lines.append(note)
    return lines + glossary_lines(state.game.glossary(), label)
