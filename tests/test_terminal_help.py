"""`?` in the terminal explains what is on screen from the game's content data; every board has a legend."""

from __future__ import annotations

import io
import random
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

import spacetable
from random_play import advance
from spacetable.cli.terminal import QuitGame, TerminalPlayer, find_help_terms, find_renderer, terms_in
from spacetable.engine import State, load

CONTENT = Path(spacetable.__file__).parent / "games"


def position(game_id: str, players: int, seed: int, ready: Callable[[State], bool]) -> State:
    """A random game's first position where seat 0 decides and ``ready(state)`` holds."""
    game = load(game_id, players, {})
    state = game.new_initial_state()
    rng = random.Random(seed)
    return advance(state, rng, lambda s: s.awaiting() == (0,) and ready(s))


def screens(state: State, answers: list[str]) -> str:
    """What the terminal shows while seat 0 types ``answers`` (then quits), as plain text."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    typed = iter([*answers, "q", "y"])
    player = TerminalPlayer(
        console, find_renderer(state.game), read=lambda _: next(typed), help_terms=find_help_terms(state.game)
    )
    with pytest.raises(QuitGame):
        player.choose(state, 0, random.Random(0))
    return out.getvalue()


def test_question_mark_shows_the_text_of_each_card_in_hand_from_the_content_file() -> None:
    state = position("mothership", 2, 4, lambda s: len(s.view(0)["hands"][0]) >= 2)
    cards = tomllib.loads((CONTENT / "mothership/content/cards.toml").read_text())
    texts = {card["name"]: card["text"] for card in cards["cards"].values()}
    hand = [state.game.content.cards[c].name for c in state.view(0)["hands"][0]]
    shown = screens(state, ["?"])
    help_screen = shown[shown.index(" HELP ") :]
    for name in hand:
        assert f"{name}: {texts[name]}" in " ".join(help_screen.split()), name
    assert "Columns are letters, rows numbers" in help_screen  # the symbols too
    assert help_screen.count("Your move") == 1  # then the menu again, and nothing chosen


def test_question_mark_explains_the_falling_skies_rooms_and_symbols() -> None:
    state = position("falling-skies", 1, 2, lambda s: s.phase == "place")
    shown = screens(state, ["?"])
    help_screen = shown[shown.index(" HELP ") :]
    glossary = state.game.glossary()
    for term in ("room B1", "green ship", "black die", "excavator", "SKULL", "arrow"):
        assert f"{term}: {glossary[term]}" in " ".join(help_screen.split()), term


def test_b_redraws_the_board_and_bad_input_names_the_keys() -> None:
    state = position("falling-skies", 1, 2, lambda s: s.phase == "place")
    shown = screens(state, ["x", "b"])
    assert "'x' is neither a number nor a place" in shown and "? for help" in shown
    assert shown.count("UNDER FALLING SKIES") == 2  # the board, then again after b


def test_glossary_words_are_found_whole_and_short_ones_in_their_own_case() -> None:
    glossary = {"D": "defence", "planet": "a world", "treasure: Fuel leak": "bad", "die": "a die"}
    assert terms_in(glossary, "a Planet, with D+2 and fuel leak") == ["planet", "D", "treasure: Fuel leak"]
    assert terms_in(glossary, "planets diehard d") == []


@pytest.mark.parametrize(
    ("game_id", "players", "legend"),
    [
        ("mothership", 3, "## asteroid field (risky)"),
        ("falling-skies", 1, "< > arrow"),
        ("spacerace", 3, "T treasure"),
    ],
)
def test_every_symbol_board_has_a_legend(game_id: str, players: int, legend: str) -> None:
    state = position(game_id, players, 1, lambda s: s.game.id != "mothership" or s.phase == "turn")
    board = Text.from_markup(find_renderer(state.game)(state, 0)).plain
    assert legend in board, board


def test_version_and_option_help_without_type_names() -> None:
    from importlib.metadata import version

    from typer.testing import CliRunner

    from spacetable.cli.main import app

    runner = CliRunner()
    shown = runner.invoke(app, ["--version"])
    assert shown.exit_code == 0 and shown.output.strip() == f"spacetable {version('spacetable')}"
    for command in ("play", "tournament", "serve", "bench"):
        text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "160"}).output
        options = [line for line in text.splitlines() if "--" in line and "--help" not in line]
        assert options and not [line for line in options if re.search(r"<[a-z]", line)], (command, options)


def test_counts_and_articles_read_as_english() -> None:
    from spacetable.engine.words import article, count

    assert [count(n, "planet") for n in (0, 1, 2)] == ["0 planets", "1 planet", "2 planets"]
    assert count(1, "die", "dice") == "1 die" and count(3, "die", "dice") == "3 dice"
    words = ["Engineer", "Pilot", "8", "11", "1", "18", "unit", "AI", "Armor Plating"]
    assert [article(w).split()[0] for w in words] == ["an", "a", "an", "an", "a", "an", "a", "an", "an"]
