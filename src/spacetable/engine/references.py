"""Where the rules say what each event does: a game's rulings file and its table of references.

A game keeps both beside its rules (``games/<package>/RULINGS.md`` and ``rule_refs.py``) and
answers ``Game.rulings`` and ``Game.rule_of`` from one :class:`RuleReferences`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

Reference = tuple[str, tuple[int, ...]]
"""The rulebook section that says what an event does, and the numbered rulings that govern it."""


class RuleReferences:
    """A game's rulings file and, for every event kind the game emits, its :data:`Reference`."""

    def __init__(self, rulings: Path, table: Mapping[str, Reference]) -> None:
        self.path = rulings
        self.table = dict(table)

    def rulings(self) -> str:
        """The rulings file's text (Markdown: numbered rulings under '## chapter' headings)."""
        return self.path.read_text(encoding="utf-8")

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
