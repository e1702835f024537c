"""The typer app and what its commands share: one-line errors, the console, progress bars, a final position."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

import click
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from typer.core import TyperCommand, TyperGroup, TyperOption
from typer.models import CommandFunctionType

from spacetable.engine import SpacetableError, State

from .terminal import find_renderer


def _untyped_flags(params: list[Any]) -> list[Any]:
    """``params`` with no type beside a flag in the help (typer shows ``--help <bool>`` otherwise)."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    """A command whose help shows no ``<bool>`` beside its flags (``--help`` among them)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _untyped_flags(super().get_params(ctx))


class _Group(TyperGroup):
    """The ``spacetable`` group, its flags shown as its commands' are."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _untyped_flags(super().get_params(ctx))


class _Typer(typer.Typer):
    """A typer app whose commands are :class:`_Command` unless told otherwise."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[CommandFunctionType], CommandFunctionType]:
        kwargs.setdefault("cls", _Command)
        return super().command(*args, **kwargs)


app = _Typer(
    name="spacetable",
    help="A rules engine and digital tabletop for space strategy board games.",
    cls=_Group,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_show_locals=False,
)


class CliError(Exception):
    """A mistake on the command line or in a file the user named: one line, exit code 2."""


def stdout_console() -> Console:
    """The console for results; 120 columns when writing to a pipe or file (rich would use 80)."""
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 120
    return console


def fail(message: str, code: int = 2) -> NoReturn:
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(code)


Command = TypeVar("Command", bound=Callable[..., None])


def guarded(command: Command) -> Command:
    """Every error that reaches the command line is one line, never a traceback: the project's
    own errors as they are, anything else (a bug) named with its type and exit code 3."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except (typer.Exit, typer.Abort, click.exceptions.ClickException, KeyboardInterrupt):
            raise
        except SpacetableError as exc:
            fail(str(exc).replace("\n", " "))
        except (RecursionError, MemoryError) as exc:
            fail(f"the input is too large or too deeply nested ({type(exc).__name__})")
        except Exception as exc:
            fail(f"internal error, please report it: {type(exc).__name__}: {str(exc)[:300]}", code=3)

    return cast(Command, run)


def ask_yes_no(console: Console, question: str, default: bool, on_pipe: bool) -> bool:
    """``question`` answered at the terminal: y or yes, n or no, Enter for ``default``; ``on_pipe``
    where nobody can answer (not a terminal), and no at the end of input."""
    if not console.is_terminal:
        return on_pipe
    try:
        answer = console.input(f"{question} ({'Y/n' if default else 'y/N'}): ").strip().lower()
    except EOFError:
        return False
    return default if not answer else answer in ("y", "yes")


def print_outcome(state: State, console: Console, render_seat: int | None) -> None:
    outcome = state.outcome()
    render = find_renderer(state.game, console)
    console.print()
    console.print(render(state, render_seat), soft_wrap=True)
    if outcome is None:
        console.print("[bold]The game is not over.[/]")
        return
    if state.game.players == 1:
        head = "[bold green]You won[/]" if outcome.winners else "[bold red]You lost[/]"
    elif outcome.winners:
        head = f"[bold]Winner{'s' if len(outcome.winners) > 1 else ''}: seat {', '.join(map(str, outcome.winners))}[/]"
    else:
        head = "[bold]Nobody won[/]"
    console.print(f"{head}: {escape(outcome.reason)}.", soft_wrap=True)


def progress_bar(console: Console) -> Progress:
    """The progress bar of a batch of games (shown only on a terminal)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
