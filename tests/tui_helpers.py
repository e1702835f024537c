"""Drive the full-screen table (:class:`spacetable.cli.tui.TableApp`) with Textual's headless
pilot, as a person would: by keys (a number, Enter) or by mouse clicks on the board's parts."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from rich.text import Text
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Input, Static

from spacetable.cli.tui import TableApp
from spacetable.cli.tui.board import BoardView
from spacetable.cli.tui.seat import Decision
from spacetable.engine import Action, Game, Player, Record

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end in a thread of its own: in a worker that has run the browser
    tests an event loop is already running in this thread (Playwright's), and asyncio will not
    start a second one there."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(asyncio.run(coroutine))
        except BaseException as exc:  # handed to the test's thread
            failure.append(exc)

    thread = threading.Thread(target=target, name="table-test")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


STEP_LIMIT = 400
"""Pauses of 10 ms a test waits for the table to owe a decision or end (bots are fast)."""


def table(game: Game, players: list[Player | None], seed: int = 7) -> TableApp:
    seats = ["human" if p is None else "bot:random" for p in players]
    return TableApp(game, players, seed, Record.start(game, seats))


async def settle(pilot: Pilot[Any], app: TableApp) -> Decision | None:
    """Wait until the table shows a decision (returned) or the game has ended (None)."""
    for _ in range(STEP_LIMIT):
        await pilot.pause(0.01)
        if app.failure is not None:
            raise app.failure
        if app.decision is not None and app.query_one("#moves-list").option_count:
            return app.decision
        if app.final is not None:
            await pilot.pause()
            return None
    raise AssertionError(
        f"the table owes nothing after {STEP_LIMIT} pauses: {app.query_one('#prompt', Static).content}"
    )


def shown(app: TableApp, selector: str) -> str:
    """The plain text a Static shows."""
    return Text.from_markup(str(app.query_one(selector, Static).content)).plain


def check_screen(app: TableApp, decision: Decision) -> None:
    """The prompt is the engine's guide for this decision; no widget pokes out of the screen."""
    state, seat = decision.state, decision.seat
    guide = state.game.guide(state.view(seat), seat, decision.actions)
    if guide is not None and app.confirming is None:
        assert shown(app, "#prompt") == guide
    screen = Region(0, 0, *app.size)
    for widget in app.query("#board, #bottom, #prompt, #strip"):
        assert screen.contains_region(widget.region), (widget.id, widget.region, app.size)


async def choose_by_keys(pilot: Pilot[Any], app: TableApp, rng: random.Random) -> None:
    """Type the number of a random entry and Enter, down the menus until a move is made."""
    decision = app.decision
    app.query_one("#moves-filter", Input).focus()
    while app.decision is decision:
        menu = app.query_one("#moves").menu
        number = rng.randrange(len(menu.entries)) + 1
        await pilot.press(*str(number), "enter")
        await pilot.pause()
        if app.confirming is not None and app.decision is decision:  # a warned move: choose it again
            await pilot.press("enter")
            await pilot.pause()


async def click_part(pilot: Pilot[Any], app: TableApp, part: str) -> None:
    """Click ``part`` on the board tab, scrolled into view first."""
    board = app.query_one("#board-view", BoardView)
    spot = board.places[part]
    app.query_one("#board", ScrollableContainer).scroll_to_region(
        Region(spot.column, spot.row, 1, 1), animate=False, immediate=True
    )
    await pilot.pause()
    assert await pilot.click(BoardView, offset=(spot.column, spot.row)), part


async def choose_by_mouse(pilot: Pilot[Any], app: TableApp, rng: random.Random) -> Action | None:
    """Click the parts of a random move with a place on the board, piece first; then pick it
    from the list when several moves share those parts. None: no move has a place (keys then)."""
    decision = app.decision
    assert decision is not None
    placed = [a for a in decision.actions if decision.parts(a)]
    if not placed:
        await choose_by_keys(pilot, app, rng)
        return None
    action = rng.choice(placed)
    for part in decision.parts(action):
        await click_part(pilot, app, part)
        if app.decision is not decision:
            return action
    if app.confirming == action:
        await click_part(pilot, app, decision.parts(action)[-1])
    else:  # several moves end on these parts: the list names them
        labels = [e.label for e in app.query_one("#moves").menu.entries]
        await pilot.press(*str(labels.index(decision.state.action_label(action)) + 1), "enter")
        await pilot.pause()
        if app.confirming == action:
            await pilot.press("enter")
    await pilot.pause()
    return action


Chooser = Callable[[Pilot[Any], TableApp, random.Random], Awaitable[object]]
