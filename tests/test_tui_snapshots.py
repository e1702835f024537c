"""One screen of each game on the full-screen terminal table at 80x24 and 120x50, compared with
the SVG kept in docs/screenshots/terminal/ (`make screenshots` writes them anew, to look at)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from textual.widgets import Input

from spacetable.agents import make_agent
from spacetable.engine import load
from tui_helpers import run, settle, table

KEPT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "terminal"
GAMES = {
    "falling-skies": ("falling-skies", 1, {}),
    "showdown": ("showdown", 4, {}),
    "spacerace": ("spacerace", 3, {}),
    "mothership": ("mothership", 4, {}),
    "mothership-solo": ("mothership", 1, {"mode": "solo"}),
}
SIZES = [(80, 24), pytest.param((120, 50), marks=pytest.mark.soak)]
"""80x24 in make test, 120x50 in make soak (CI runs both)."""
UNIQUE = re.compile(r"terminal-\d+")
"""The id Rich gives an SVG from a hash of its text: left out of the comparison."""


async def first_screen(name: str, size: tuple[int, int]) -> str:
    """The SVG of the table at seat 0's first decision, the bots random, the seed fixed."""
    game_id, players, options = GAMES[name]
    game = load(game_id, players=players, options=options)
    app = table(game, [None] + [make_agent("random") for _ in range(players - 1)], seed=3)
    async with app.run_test(size=size) as pilot:
        assert await settle(pilot, app) is not None
        app.query_one("#moves-filter", Input).cursor_blink = False
        await pilot.pause()
        return app.export_screenshot(title=f"spacetable play {name}")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x50"])
@pytest.mark.parametrize("name", list(GAMES))
def test_the_first_screen_is_the_one_kept(name: str, size: tuple[int, int]) -> None:
    svg = run(first_screen(name, size))
    kept = KEPT / f"{name}-{size[0]}x{size[1]}.svg"
    if os.environ.get("SPACETABLE_SCREENSHOTS"):
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(svg, encoding="utf-8")
    assert kept.exists(), f"{kept.name} is missing: `make screenshots` writes it"
    assert UNIQUE.sub("", svg) == UNIQUE.sub("", kept.read_text(encoding="utf-8")), (
        f"the screen differs from {kept.name}: look at it with `make screenshots` and keep it if right"
    )
