"""The full-screen table's manners: what the detail panel says, the warning before a losing
move, the board's keyboard cursor, leaving the table, and the board read from the seat's view."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot

from spacetable.agents import make_agent
from spacetable.cli.terminal import QuitGame
from spacetable.cli.tui import TableApp
from spacetable.cli.tui.board import BoardView, Spot, nearest, spots
from spacetable.cli.tui.explain import board_notes
from spacetable.cli.tui.seat import Decision
from spacetable.engine import Action, State, load
from tui_helpers import click_part, run, settle, shown, table

Act = Callable[[Pilot[None], TableApp, Decision], Awaitable[Any]]
"""What a test does at the table's first decision."""


def test_the_board_notes_are_the_browser_boards_titles_and_terms() -> None:
    game = load("mothership", players=2)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    notes = board_notes(game, state.view(0), 0)
    assert notes["cell:A1"].title.startswith("A1: ")
    assert notes["cell:A1"].term in game.glossary()
    assert len([p for p in notes if p.startswith("cell:")]) >= 13 * 13


def test_the_cursor_goes_to_the_nearest_part_that_way() -> None:
    text = Text.from_markup("[@part='a']A1[/] [@part='b']B1[/]\n[@part='c']A2[/] [@part='d']B2[/]")
    places = spots(text)
    assert places["d"] == Spot(1, 3, "B2")
    assert nearest(places, places["a"], "right") == "b"
    assert nearest(places, places["a"], "down") == "c"
    assert nearest(places, places["d"], "up") == "b"
    assert nearest(places, places["a"], "left") is None


async def _first_decision_then(game_id: str, players: int, act: Act) -> Any:
    game = load(game_id, players=players)
    app = table(game, [None] + [make_agent("random") for _ in range(players - 1)])
    async with app.run_test(size=(80, 24)) as pilot:
        decision = await settle(pilot, app)
        assert decision is not None
        return await act(pilot, app, decision)


def test_a_warned_move_is_sent_only_when_chosen_again(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load("showdown", players=2)
    state_class = type(game.new_initial_state())
    monkeypatch.setattr(state_class, "action_warning", lambda self, action: "it loses the game.")

    async def act(pilot: Pilot[None], app: TableApp, decision: Decision) -> Any:
        before = len(app.record.actions)
        while app.confirming is None:  # down the menus, the first entry each time
            await pilot.press("1", "enter")
            await pilot.pause()
        assert app.decision is decision and len(app.record.actions) == before
        assert shown(app, "#prompt") == "Are you sure? it loses the game."
        assert "WARNING: it loses the game." in shown(app, "#detail")
        await pilot.press("enter")
        await settle(pilot, app)
        assert len(app.record.actions) > before

    run(_first_decision_then("showdown", 2, act))


def test_the_mouse_on_a_part_explains_it_and_a_click_marks_where_it_can_go() -> None:
    async def act(pilot: Pilot[None], app: TableApp, decision: Decision) -> Any:
        moving = [a for a in decision.actions if len(decision.parts(a)) >= 2]
        piece = decision.parts(moving[0])[0]
        board = app.query_one("#board-view", BoardView)
        spot = board.places[piece]
        await pilot.hover(BoardView, offset=(spot.column, spot.row))
        await pilot.pause()
        notes = board_notes(app.game, decision.state.view(decision.seat), decision.seat)
        assert shown(app, "#detail").startswith(notes[piece].title)
        await click_part(pilot, app, piece)
        places = {decision.parts(a)[-1] for a in decision.actions if decision.parts(a)[0] == piece}
        assert board.chosen == {piece} and places <= board.marked
        assert "where to?" in str(app.query_one("#moves-title").content)

    run(_first_decision_then("falling-skies", 1, act))


def test_the_keyboard_cursor_on_the_board_presses_parts() -> None:
    async def act(pilot: Pilot[None], app: TableApp, decision: Decision) -> Any:
        await pilot.press("shift+tab")  # from the moves' filter back to the board
        while not isinstance(app.focused, BoardView):
            await pilot.press("tab")
        board = app.focused
        start = board.cursor
        assert start is not None and start in board.places
        await pilot.press("right")
        assert board.cursor != start
        await pilot.press("enter")
        await pilot.pause()
        assert board.cursor in board.chosen or app.decision is not decision or "Nothing to do" in shown(app, "#detail")

    run(_first_decision_then("falling-skies", 1, act))


def test_leaving_the_table_stops_the_game_and_keeps_its_moves() -> None:
    async def act(pilot: Pilot[None], app: TableApp, decision: Decision) -> Any:
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        return app

    app = run(_first_decision_then("spacerace", 2, act))
    app.thread.join(5)
    assert not app.thread.is_alive()
    assert isinstance(app.failure, QuitGame)
    assert app.final is None and app.record.actions


def test_play_on_a_terminal_opens_the_full_screen_table_and_leaving_keeps_the_game(tmp_path: Path) -> None:
    from terminal_helpers import Terminal

    term = Terminal(tmp_path, "play", "falling-skies", "--full-screen", "--seed", "3", rows=24, columns=80)
    term.until("F2 Board")  # the tab strip of the full-screen table
    term.until("Your move")
    term.child.send("1\r")
    term.child.send("\x11")  # Ctrl+Q
    rest = term.finish()
    assert "Game left: you left the table." in rest
    assert "spacetable play --resume last" in rest
    saves = list(tmp_path.glob("*.json"))
    assert len(saves) == 1


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("showdown", 4, {}),
        ("spacerace", 3, {}),
        ("mothership", 3, {"objectives": "hidden", "exploration": True}),
        ("falling-skies", 1, {}),
    ],
)
def test_a_seats_drawings_are_the_same_whatever_it_cannot_see(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """Every byte of the terminal table comes from the seat's knowledge: re-dealing what the seat
    cannot see (a resample) changes nothing of its full or compact drawing or its prompt."""
    from spacetable.cli.terminal import game_module

    game = load(game_id, players=players, options=options)
    drawings = game_module(game, "render")
    rng = random.Random(2)
    compared = 0
    for _ in range(2):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 300:
            steps += 1
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            seat = state.awaiting()[0]
            if steps % 3 == 0:
                for other in rng.sample(range(players), min(players, 2)):
                    redealt = state.resample(other, random.Random(rng.random()))
                    for draw in (drawings.render, drawings.compact):
                        assert draw(redealt, other) == draw(state, other), (game_id, draw.__name__, steps)
                    view = state.view(other)
                    assert game.guide(view, other) == game.guide(redealt.view(other), other)
                    compared += 1
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 10


def test_no_color_draws_in_greys_and_the_tab_strip_switches_panels(monkeypatch: pytest.MonkeyPatch) -> None:
    """With NO_COLOR the table draws in greys alone (owners then read by their letters and
    digits, as the drawings' own tests check); a click on the strip's "F4 Log" shows the log."""
    import re

    from textual.widgets import ContentSwitcher

    monkeypatch.setenv("NO_COLOR", "1")

    async def act(pilot: Pilot[None], app: TableApp, decision: Decision) -> Any:
        colours = set(re.findall(r"fill: #([0-9a-f]{6})", app.export_screenshot()))
        channels = [[int(c[i : i + 2], 16) for i in (0, 2, 4)] for c in colours]
        assert channels and all(max(rgb) - min(rgb) <= 4 for rgb in channels), colours  # greys
        strip = shown(app, "#strip")
        await pilot.click("#strip", offset=(strip.index("F4 Log") + 1, 0))
        assert app.query_one("#tabs", ContentSwitcher).current == "log"

    run(_first_decision_then("spacerace", 3, act))


def test_while_a_bot_thinks_the_table_shows_the_position_it_thinks_about() -> None:
    """The board and prompt are redrawn at most every 0.1 s while bots play on; a bot that takes
    its time still has the position it thinks about, and the news, on screen meanwhile."""
    import threading

    gate = threading.Event()
    thinking = threading.Event()

    class Slow:
        name = "slow"

        def choose(self, state: State, seat: int, rng: random.Random) -> Action:
            thinking.set()
            gate.wait(10)
            return rng.choice(state.legal_actions(seat))

    game = load("spacerace", players=2)  # Blue, the bot, chooses its homeworld first

    async def play() -> str:
        app = table(game, [None, Slow()])
        async with app.run_test(size=(80, 24)) as pilot:
            while not thinking.is_set():
                await pilot.pause(0.02)
            await pilot.pause(0.4)
            during = shown(app, "#prompt")
            gate.set()
            assert await settle(pilot, app) is not None  # then seat 0's choice
            return during

    assert run(play()).endswith("Waiting for Blue: choose a homeworld")
