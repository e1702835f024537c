"""What the command line names, read and checked: seats, game options, content files and records."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from spacetable.agents import AGENTS
from spacetable.engine import JSON, Game, Record, RecordError, game_class, load, load_finite
from spacetable.engine.content import idle_overrides
from spacetable.engine.safejson import read_json

from .common import CliError, ask_yes_no, fail

DEFAULT_BOT = "greedy"
MAX_CONTENT_BYTES = 1_000_000
"""The largest content file read: a variant's overrides take a few kilobytes, and the game's
options, content included, must then fit the engine's ``MAX_OPTIONS_BYTES`` as JSON."""
HUMAN = "human"

# The options a batch of bot games takes, shared by `spacetable simulate` and `spacetable sweep`
Players = Annotated[int | None, typer.Option(metavar="N", help="Number of players (default: the game's usual count).")]
BotSeats = Annotated[
    list[str] | None, typer.Option(metavar="SEAT=WHO", help="SEAT=bot:NAME, repeatable (unnamed seats: bot:greedy).")
]
GameOptions = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE", help="A game option KEY=VALUE, repeatable."),
]
Jobs = Annotated[
    int,
    typer.Option(min=1, metavar="N", help="Processes playing at once (also --ray auto's, when no cluster runs here)."),
]
RayAddress = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS",
        help="Play on a Ray cluster: auto joins the one running here (`ray start --head`; with none, --jobs "
        "processes play and a note says so), or a cluster's HEAD:6379 or ray://HEAD:10001. Ray pays only when "
        "the cluster has more CPUs than --jobs and the run outlasts its seconds of start-up (docs/LAB.md).",
    ),
]
VariantContent = Annotated[
    Path | None, typer.Option(metavar="FILE", help="A TOML file overriding the game's content data (the variant).")
]
_SEAT = re.compile(r"(\d+)=(human|bot(?::([A-Za-z0-9_-]+))?)")


def parse_seats(values: list[str], players: int, batch: bool) -> list[str]:
    """Each seat's occupant, ``human`` or ``bot:<name>``, from ``--seat`` values.

    Unnamed seats: with ``batch`` (``--games``) a bot, otherwise a human in seat 0
    and a bot elsewhere. Raises CliError naming any bad value.
    """
    named: dict[int, str] = {}
    for value in values:
        match = _SEAT.fullmatch(value.strip())
        if match is None:
            raise CliError(f"bad --seat {value!r}: write SEAT=human or SEAT=bot:NAME, e.g. 0=bot:{DEFAULT_BOT}")
        seat = int(match.group(1))
        if seat >= players:
            raise CliError(f"bad --seat {value!r}: this game has seats 0 to {players - 1}")
        if seat in named:
            raise CliError(f"seat {seat} is named twice (--seat {value!r})")
        if match.group(2) == HUMAN:
            named[seat] = HUMAN
        else:
            bot = match.group(3) or DEFAULT_BOT
            if bot not in AGENTS:
                raise CliError(f"unknown bot {bot!r} in --seat {value!r}; bots: {', '.join(sorted(AGENTS))}")
            named[seat] = f"bot:{bot}"
    seats = []
    for seat in range(players):
        default = HUMAN if seat == 0 and not batch else f"bot:{DEFAULT_BOT}"
        seats.append(named.get(seat, default))
    if batch and HUMAN in seats:
        raise CliError("--games plays bots only: a human seat cannot play a batch of games")
    return seats


def read_content(path: Path) -> dict[str, Any]:
    """A content override file, parsed as TOML; CliError if it cannot be read or parsed, or is
    over MAX_CONTENT_BYTES (said before any of it is parsed)."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_CONTENT_BYTES + 1)
            size = os.fstat(file.fileno()).st_size
        if len(data) > MAX_CONTENT_BYTES:
            over = f"is {size:,} bytes" if size > MAX_CONTENT_BYTES else "is larger"
            raise CliError(
                f"the content file {str(path)!r} {over}, over the {MAX_CONTENT_BYTES:,}-byte limit for content "
                "(a variant's overrides are a few kilobytes)"
            )
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read the content file {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CliError(f"the content file {str(path)!r} is not valid TOML: {exc}") from None


def check_writable(path: Path, option: str = "--record") -> None:
    if path.is_dir():
        raise CliError(f"{option} {str(path)!r} is a directory, not a file")
    if not path.resolve().parent.is_dir():
        raise CliError(f"{option} {str(path)!r}: the folder {str(path.parent)!r} does not exist")


def check_replaceable(path: Path, overwrite: bool, console: Console) -> None:
    """Consent to replace an existing ``--record`` file: ``overwrite``, or a yes at the terminal
    (no by default); CliError otherwise, with nothing written."""
    if overwrite or not path.exists():
        return
    if not console.is_terminal:
        raise CliError(f"--record {str(path)!r} exists: add --overwrite to replace it, or name another file")
    if not ask_yes_no(console, f"{escape(str(path))} exists. Replace it?", default=False, on_pipe=False):
        raise CliError(f"{str(path)!r} is kept: name another --record file, or add --overwrite")


def parse_options(values: list[str]) -> dict[str, JSON]:
    """Game options from ``--option KEY=VALUE`` values: VALUE is read as JSON (30, true, "x",
    [1, 2]) and otherwise taken as text. Raises CliError on a value without ``=``."""
    options: dict[str, JSON] = {}
    for item in values:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise CliError(f"bad --option {item!r}: write KEY=VALUE, e.g. turn_limit=30")
        try:
            options[key.strip()] = read_json(text, max_bytes=100_000, max_depth=8)
        except ValueError as exc:
            if "not valid JSON" not in str(exc):
                raise CliError(f"bad --option {item[:60]!r}: {exc}") from None
            options[key.strip()] = text
    return options


def load_game(
    game_id: str,
    players: int | None,
    level: int | None,
    content: Path | None,
    extra: list[str] | None = None,
    mode: str | None = None,
    finite: bool = False,
) -> Game:
    """The game from the command line's options (CliError or SpacetableError if they are wrong);
    ``finite``: bots' batches, with the game's ``finite_options`` under those given, so every
    game ends (a table with a person plays the rulebook's game). Content (the file or the option)
    that changes nothing is said on stderr as a warning."""
    options = parse_options(extra or [])
    if level is not None:
        options["level"] = level
    if mode is not None:
        options["mode"] = mode
    if content is not None:
        options["content"] = read_content(content)
    cls = game_class(game_id)
    seats = cls.usual_players(options) if players is None else players
    with idle_overrides() as idle:
        game = (load_finite if finite else load)(game_id, seats, options)
    named = str(content) if content is not None else "the option content"
    for why in dict.fromkeys(idle):
        Console(stderr=True, highlight=False).print(
            f"[bold yellow]warning:[/] {escape(named)} changes nothing: {why}.", soft_wrap=True
        )
    return game


def load_record(file: Path) -> Record:
    """Read and parse a record file; exit 2 with a clear message if it is unreadable or foreign."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {str(file)!r}: {getattr(exc, 'strerror', None) or exc}")
    try:
        return Record.loads(text)
    except RecordError as exc:
        fail(f"{file}: {exc}")
