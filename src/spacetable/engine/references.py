"""A game's teaching material, kept beside its rules: the 'How to play' page (``howto.html``), the
rulings (``RULINGS.md``) and, for every event kind the game emits, where the rules say what it
does (the table in ``rule_refs.py``). A game names its :class:`Teaching` once
(``Game.teaching``) and the base ``Game`` answers ``how_to_play``, ``rulings`` and ``rule_of``
from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

Reference = tuple[str, tuple[int, ...]]
"""The rulebook section that says what an event does, and the numbered rulings that govern it."""


class Teaching:
    """The teaching files in a game's ``folder`` and its table of event references."""

    def __init__(self, folder: Path, table: Mapping[str, Reference]) -> None:
        self.folder = folder
        self.table = dict(table)

    def how_to_play(self) -> str | None:
        """The 'How to play' page (an HTML fragment), or None where the game has none yet."""
        page = self.folder / "howto.html"
        return page.read_text(encoding="utf-8") if page.exists() else None

    def rulings(self) -> str:
        """The rulings file's text (Markdown: numbered rulings under '## chapter' headings)."""
        return (self.folder / "RULINGS.md").read_text(encoding="utf-8")

    def rule_of(self, kind: str) -> str | None:
        """``kind``'s reference in words, e.g. "Rulebook: Combat · Rulings 14, 15"; None for a
        kind the table does not list."""
        if kind not in self.table:
            return None
        section, numbers = self.table[kind]
        words = [f"Rulebook: {section}"]
        if numbers:
            words.append(f"Ruling{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}")
        return " · ".join(words)
