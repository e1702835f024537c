"""The ``learn`` command: a game's lessons (docs/LESSONS.md) played in the terminal.

The board, the menus and the log are the ``play`` command's; a lesson adds what to do at each
step, and answers every move: a right one is made and explained, a wrong one changes nothing
and is told why, by the rules.
"""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from spacetable.engine import Action, SpacetableError, State
from spacetable.engine.lessons import Lesson, find_lesson, lessons

from .common import app, ask_yes_no, fail, guarded, stdout_console
from .main import make_players
from .options import HUMAN
from .terminal import EventPrinter, QuitGame, TerminalPlayer


@app.command("learn")
@guarded
def learn_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="The game's id (see `spacetable list`).")],
    lesson_id: Annotated[
        str | None,
        typer.Argument(metavar="[LESSON]", help="One lesson by its id (default: every lesson, from the first)."),
    ] = None,
    list_only: Annotated[bool, typer.Option("--list", metavar="", help="List the game's lessons and stop.")] = False,
) -> None:
    """Learn a game by playing its lessons: each step says what to do and answers your move.

    Wrong moves are explained and change nothing; `q` leaves the lesson.
    """
    console = stdout_console()
    try:
        found = lessons(game_id)
        chosen = [find_lesson(game_id, lesson_id)] if lesson_id is not None else list(found)
    except SpacetableError as exc:
        fail(str(exc).replace("\n", " "))
    if not found:
        fail(f"{game_id} has no lessons yet")
    if list_only:
        for n, lesson in enumerate(found, 1):
            console.print(f"{n}. [bold]{escape(lesson.id)}[/]  {escape(lesson.title)}: {escape(lesson.spec.summary)}")
        return
    for n, lesson in enumerate(chosen):
        if n and not ask_yes_no(console, f"Next lesson: {escape(lesson.title)}. Go on?", default=True, on_pipe=True):
            break
        if not _teach(lesson, console):
            raise typer.Exit(0)
    if chosen:
        console.print(f"[bold]A real game:[/] {escape(play_command_line(chosen[-1]))}", soft_wrap=True)


def play_command_line(lesson: Lesson) -> str:
    """The ``spacetable play`` command of the real game a lesson suggests after it."""
    after = lesson.spec.next
    words = ["spacetable", "play", lesson.game.id]
    if after.players is not None:
        words += ["--players", str(after.players)]
    for key, value in after.options.items():
        words += ["-o", f"{key}={value if isinstance(value, str) else json.dumps(value)}"]
    seats = after.players if after.players is not None else lesson.game.players
    for seat in range(1, seats):
        words += ["--seat", f"{seat}=bot:{after.bots}"]
    return shlex.join(words)


def _teach(lesson: Lesson, console: Console) -> bool:
    """Play one lesson at the keyboard; False when the learner left it."""
    run = lesson.begin()
    seats = [HUMAN if s == run.seat else "bot:random" for s in range(lesson.game.players)]
    log = EventPrinter(console, run.seat, hold=True)
    player = make_players(seats, console, lesson.game, log)[run.seat]
    assert isinstance(player, TerminalPlayer)
    spec = lesson.spec
    console.print(f"\n[bold]Lesson {escape(lesson.id)}: {escape(spec.title)}[/] [dim]({escape(spec.rulebook)})[/]")
    console.print(escape(spec.summary), soft_wrap=True)
    log(run.state, run.events)
    rng = random.Random(0)
    game_titler = player.titler

    def step_title(state: State, actions: Sequence[Action]) -> str | None:
        """The step's words above the menu, then the game's own title of it."""
        own = game_titler(state, actions) if game_titler else None
        say = run.step.say if run.step else ""
        return f"Step {run.step_index + 1} of {len(lesson.steps)}: {say}\n{own or 'Your move:'}"

    player.titler = step_title
    while (step := run.step) is not None:
        if len(run.state.legal_actions(run.seat)) == 1:  # no menu: the step's words go first
            console.print(f"Step {run.step_index + 1} of {len(lesson.steps)}: {escape(step.say)}", soft_wrap=True)
        try:
            action = player.choose(run.state, run.seat, rng)
        except QuitGame:
            console.print("[bold]Lesson left.[/]")
            return False
        seen = len(run.events)
        reply = run.attempt(action)
        log(run.state, run.events[seen:])
        head, rest = reply.said[0], reply.said[1:]
        if reply.right:
            console.print(f"[bold green]Right.[/] {escape(head)}", soft_wrap=True)
        else:
            console.print(f"[bold yellow]Not this move:[/] {escape(head)} [dim](nothing changed)[/]", soft_wrap=True)
        for words in rest:
            console.print(escape(words), soft_wrap=True)
    log.flush()
    console.print(f"[bold]Lesson done.[/] {len(lesson.steps)} steps.")
    return True
