"""Reading a terminal renderer's markup as the terminal app does (its printed lines and its tagged
parts), and random positions to read it at."""

from __future__ import annotations

import collections
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from spacetable.engine import State

PART = "@part"
"""The rich meta key a renderer tags a board element with (the browser's ``data-part``)."""


@dataclass(frozen=True)
class Drawing:
    """What a renderer's markup prints, and the texts drawn for each part id."""

    lines: list[str]
    parts: dict[str, list[str]]

    @property
    def size(self) -> tuple[int, int]:
        """Columns (terminal cells) and rows."""
        return max(cell_len(line) for line in self.lines), len(self.lines)


def read(markup: str) -> Drawing:
    """Parse ``markup`` once, as rich does."""
    text = Text.from_markup(markup)
    parts: dict[str, list[str]] = {}
    for span in text.spans:
        if isinstance(span.style, Style) and PART in span.style.meta:
            parts.setdefault(span.style.meta[PART], []).append(text.plain[span.start : span.end])
    return Drawing(text.plain.split("\n"), parts)


def decisions(state: State, rng: random.Random) -> Iterator[int]:
    """Play ``state`` to its end at random (chance sampled), yielding at each decision each seat
    asked (all the seats of a simultaneous decision before anyone acts); the caller only looks."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seats = state.awaiting()
        yield from seats
        state.apply_action(rng.choice(state.legal_actions(seats[0])), seats[0])


def varied_decisions(state: State, rng: random.Random, count: int) -> Iterator[int]:
    """The first ``count`` decisions of ``state`` played at random, yielding each seat asked (all
    the seats of a simultaneous decision before anyone acts); each kind (class) of legal move is as
    likely as the others, so cards, battles and windows come up as often as flights."""
    for _ in range(count):
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        if state.is_terminal():
            return
        yield from state.awaiting()
        seat = state.awaiting()[0]
        kinds: dict[type, list[Any]] = collections.defaultdict(list)
        for action in state.legal_actions(seat):
            kinds[type(action)].append(action)
        state.apply_action(rng.choice(rng.choice(list(kinds.values()))), seat)
