"""Small helpers for the words front ends and events show: counts and articles."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 ship``, ``2 ships``, ``0 ships`` (``plural`` for irregular nouns: ``count(2, 'die', 'dice')``)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def article(word: str) -> str:
    """``a Pilot``, ``an Engineer``, ``an 8``, ``a unit``: the indefinite article by how the word
    starts when read aloud (a vowel sound: 8, 11 and 18 among numbers; ``uni``, ``use``, ``one``
    sound as consonants)."""
    text = str(word)
    if text[:1].isdigit():
        vowel = text.startswith("8") or text in ("11", "18")
    else:
        lower = text.lower()
        vowel = lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(("uni", "use", "one", "eu"))
    return f"{'an' if vowel else 'a'} {text}"


__all__ = ["article", "count"]
