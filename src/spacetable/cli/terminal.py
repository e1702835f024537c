"""The terminal seat: a human player at a prompt, the board on screen, the game's events as a log.

:class:`TerminalPlayer` is an engine :class:`~spacetable.engine.Player`: it is handed
the resample of its seat (never the true state), shows it with the game's renderer,
lists the legal actions by number and reads a choice. Quitting or the end of input
raises :class:`QuitGame`, which the driver catches to save the record so far.
"""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from spacetable.engine import Action, Event, Game, State, words

Renderer = Callable[[State, "int | None"], str]
"""Text with rich markup for a state, seen from a seat (None: a spectator)."""
Grouper = Callable[[State, Sequence[Action]], "list[tuple[str, list[Action]]] | None"]
"""A game's optional ``action_groups(state, actions)``: the menu of ``actions`` as groups with a
label each (None: one entry per action, with its label). A group of several actions opens a
menu of its own, grouped again by the same function, so a choice can take several steps."""
Titler = Callable[[State, Sequence[Action]], "str | None"]
"""A game's optional ``menu_title(state, actions)``: the first menu's title (None: the usual one)."""
HelpTerms = Callable[[State, "int | None"], Sequence[str]]
"""A game's optional ``help_terms(state, seat)``: glossary words for what its board shows
without naming it (a room drawn as ``EN-1 c0``); the words named on screen are found anyway."""

EVENT_STYLES: dict[str, str] = {
    "roll": "bold magenta",
    "reroll": "magenta",
    "damage": "bold red",
    "hit": "red",
    "game_over": "bold reverse",
    "shot": "green",
    "research": "cyan",
    "energy": "yellow",
    "robot": "blue",
    "dig": "yellow",
    "use": "bold",
    "skip": "dim",
    "partial": "dim",
    "discard": "dim",
    "place": "white",
    "move": "dim",
    "arrow": "dim",
    "symbol": "bold yellow",
    "mother_icon": "magenta",
    "descend": "bold magenta",
    "obstruct": "magenta",
    "respawn": "magenta",
    "spawn": "magenta",
    "round": "bold underline",
}
"""How each event kind looks in the log; unknown kinds are printed plain."""

MAX_COLUMNS = 3
FULL_SIZE = (100, 50)
"""Columns and rows a full board needs; a smaller terminal gets the game's compact board."""
EARLIER = "[dim]… {events} before these: l lists them[/]"
KEYS = (
    "a number chooses · b shows the board again · l lists what happened since your last move · "
    "? this help · q leaves (the game stays saved)"
)


class QuitGame(Exception):
    """The human left the game (``q`` confirmed, or end of input)."""


def game_module(game: Game, name: str) -> Any | None:
    """``spacetable.games.<pkg>.views.<name>`` for the game's package, or None when it has none."""
    package = type(game).__module__.rpartition(".")[0]
    target = f"{package}.views.{name}"
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name != target:
            raise
        return None


def find_renderer(game: Game, console: Console | None = None) -> Renderer:
    """The game's ``render(state, seat)`` (its module ``views.render``), else its JSON view;
    on a terminal smaller than FULL_SIZE, the game's ``compact(state, seat)`` where it has one.

    A game's renderer may be handed a resample: it must draw only what ``view(seat)`` holds.
    """
    module = game_module(game, "render")
    render = getattr(module, "render", None) if module else None
    if console is not None and is_small(console):
        render = getattr(module, "compact", None) or render
    if render is not None:
        return lambda state, seat: str(render(state, seat))

    def view(state: State, seat: int | None) -> str:
        return escape(json.dumps(state.view(seat), indent=1, sort_keys=True))

    return view


def is_small(console: Console) -> bool:
    """A terminal smaller than FULL_SIZE (a pipe or a file never is: nobody reads it live)."""
    columns, rows = FULL_SIZE
    return console.is_terminal and (console.width < columns or console.height < rows)


def find_grouper(game: Game) -> Grouper | None:
    """The game's optional ``action_groups(state, actions)`` for a two-step menu."""
    module = game_module(game, "render")
    return getattr(module, "action_groups", None) if module else None


def find_titler(game: Game) -> Titler | None:
    """The game's optional ``menu_title(state, actions)`` (see :data:`Titler`)."""
    module = game_module(game, "render")
    return getattr(module, "menu_title", None) if module else None


def find_help_terms(game: Game) -> HelpTerms | None:
    """The game's optional ``help_terms(state, seat)`` (see :data:`HelpTerms`)."""
    module = game_module(game, "render")
    return getattr(module, "help_terms", None) if module else None


def _term_pattern(term: str) -> re.Pattern[str]:
    """How a glossary word is found in text: whole words; ``kind: Name`` by its name; words of one
    or two letters (a stat such as ``D``) only in their own case, the others in any case."""
    name = term.partition(": ")[2] or term
    flags = 0 if len(name) <= 2 else re.IGNORECASE
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", flags)


def terms_in(glossary: Mapping[str, str], text: str) -> list[str]:
    """The glossary words that ``text`` names, in the order they first appear in it."""
    found = []
    for term in glossary:
        match = _term_pattern(term).search(text)
        if match:
            found.append((match.start(), -len(term), term))
    return [term for _, _, term in sorted(found)]


def help_text(
    glossary: Mapping[str, str], screen: str, options: Sequence[str], extra: Sequence[str] = (), keys: str = KEYS
) -> str:
    """The help screen, as rich markup: what every word on ``screen`` (the board, plain text) and
    every word ``extra`` adds means, then the words of the ``options`` of the menu, from the
    game's glossary (its content data), then the ``keys``."""
    on_screen = list(dict.fromkeys([t for t in extra if t in glossary] + terms_in(glossary, screen)))
    in_options = [t for t in terms_in(glossary, "\n".join(options)) if t not in on_screen]
    lines = ["[bold reverse] HELP [/] [bold]what the board shows[/] [dim](from the game's content data)[/]"]
    lines += [f"  [bold]{escape(t)}[/]: {escape(glossary[t])}" for t in on_screen] or ["  [dim]nothing to explain[/]"]
    if in_options:
        lines.append("[bold]words in your options[/]")
        lines += [f"  [bold]{escape(t)}[/]: {escape(glossary[t])}" for t in in_options]
    lines.append(f"[bold]keys[/] {escape(keys)}")
    return "\n".join(lines)


def event_line(event: Event) -> str:
    """One log line for an event, styled by its kind."""
    style = EVENT_STYLES.get(event.kind, "")
    text = escape(event.text)
    return f"  [{style}]{text}[/]" if style else f"  {text}"


class EventPrinter:
    """An ``on_events`` sink for :func:`spacetable.engine.play`: the events ``seat`` may see.

    Printed at once, or with ``hold`` kept until :meth:`flush` (a human's screen: the board,
    then what happened since their last move, then the menu, so the news stays in view)."""

    def __init__(self, console: Console, seat: int | None, hold: bool = False) -> None:
        self.console = console
        self.seat = seat
        self.hold = hold
        self.pending: list[str] = []
        self.shown: list[str] = []
        """The lines of the last flush (``l`` lists them again)."""

    def __call__(self, state: State, events: Sequence[Event]) -> None:
        for event in events:
            if event.visible_to(self.seat):
                self.add(event_line(event))

    def add(self, line: str) -> None:
        """A line of rich markup for the log."""
        if self.hold:
            self.pending.append(line)
        else:
            self.console.print(line, soft_wrap=True)

    def flush(self, room: int | None = None, again: bool = False) -> None:
        """Print the held lines (``again``: those of the last flush when none are held); with
        ``room``, only the last ones that fit in that many rows."""
        lines, self.pending = self.pending, []
        if lines:
            self.shown = lines
        elif again:
            lines = self.shown
        if room is not None and len(lines) > room:
            skipped = len(lines) - max(room - 1, 1)  # the "earlier events" line takes a row
            self.console.print(EARLIER.format(events=words.count(skipped, "earlier event")))
            lines = lines[skipped:]
        for line in lines:
            self.console.print(line, soft_wrap=room is None)

    def replay(self) -> None:
        """The lines of the last flush again, all of them."""
        for line in self.shown or ["[dim]nothing has happened yet[/]"]:
            self.console.print(line)


class TerminalPlayer:
    """A human at the keyboard. ``choose`` never raises on bad input, only :class:`QuitGame`."""

    name = "human"

    def __init__(
        self,
        console: Console,
        render: Renderer,
        grouper: Grouper | None = None,
        read: Callable[[str], str] | None = None,
        help_terms: HelpTerms | None = None,
        log: EventPrinter | None = None,
        compact: bool = False,
        titler: Titler | None = None,
    ) -> None:
        self.console = console
        self.render = render
        self.grouper = grouper
        self.help_terms = help_terms
        self.log = log
        """The game's log, held until this player's screen shows it under the board."""
        self.compact = compact
        """Fit the board, the news and the menu in the terminal's height."""
        self.titler = titler
        self.read = read if read is not None else console.input

    # ---- the Player protocol ---------------------------------------------------
    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """Show ``state`` and return the legal action the human picks (alone: applied at once)."""
        actions = list(state.legal_actions(seat))
        if len(actions) == 1:
            line = f"  [dim]your only choice:[/] {escape(state.action_label(actions[0]))}"
            if self.log is not None:
                self.log.add(line)
            else:
                self.console.print(line, soft_wrap=True)
            return actions[0]
        title = self.titler(state, actions) if self.titler else None
        stack: list[list[Action]] = []
        """The menus above the current one (0 goes back up)."""
        current = actions
        entries = self.entries(state, current)
        self.show_board(state, seat, self.menu_height([label for label, _ in entries], back=False) + 2)
        headings: list[str] = []
        """The label of each menu on the stack's path, the title of the menu under it."""
        while True:
            heading = title or ("Your move:" if all(len(g) == 1 for _, g in entries) else "Your move (pick one):")
            if stack:
                heading = f"{' › '.join(headings)}:"
            picked = self.pick(state, seat, entries, heading, back=bool(stack))
            if picked is None:
                current = stack.pop()
                headings.pop()
            elif len(picked[1]) == 1:
                return picked[1][0]
            else:
                stack.append(current)
                headings.append(picked[0])
                current = picked[1]
            entries = self.entries(state, current)

    def entries(self, state: State, actions: list[Action]) -> list[tuple[str, list[Action]]]:
        """A menu of ``actions``: the game's groups (each a step towards one action) or their labels."""
        groups = self.grouper(state, actions) if self.grouper else None
        return groups or [(state.action_label(a), [a]) for a in actions]

    # ---- screens ---------------------------------------------------------------
    def show_board(self, state: State, seat: int | None, below: int = 0, again: bool = False) -> None:
        """The board, then the log held since this player's last move (``again``: the same news as
        the last time); on a compact screen only as much of it as leaves ``below`` rows for the
        menu and the prompt."""
        board = self.render(state, seat)
        if not self.compact:
            self.console.print()
        self.console.print(board, soft_wrap=True)
        if self.log is not None:
            room = self.console.height - board.count("\n") - 1 - below if self.compact else None
            self.log.flush(None if room is None else max(room, 1), again)

    def menu_height(self, labels: Sequence[str], back: bool) -> int:
        """The rows :meth:`show_menu` prints for these choices (without its title)."""
        return -(-(len(labels) + back) // self.menu_columns(labels, back))

    def menu_columns(self, labels: Sequence[str], back: bool) -> int:
        cell = max(len(str(len(labels))) + 1 + len(label) for label in [*labels, "back" if back else ""]) + 3
        return max(1, min(MAX_COLUMNS, self.console.width // cell))

    def show_help(self, state: State, seat: int, labels: Sequence[str]) -> None:
        """The ``?`` screen for the board ``seat`` sees and the menu's ``labels``."""
        screen = Text.from_markup(self.render(state, seat)).plain
        extra = self.help_terms(state, seat) if self.help_terms else ()
        self.console.print()
        self.console.print(help_text(state.game.glossary(), screen, labels, extra))  # wrapped at words

    def show_menu(self, labels: Sequence[str], title: str, back: bool) -> None:
        """The numbered choices, in up to three columns when they fit the terminal."""
        items = [f"[bold cyan]{i:>{len(str(len(labels)))}}[/] {escape(label)}" for i, label in enumerate(labels, 1)]
        widths = [len(str(len(labels))) + 1 + len(label) for label in labels]
        if back:
            items.append(f"[bold cyan]{'0':>{len(str(len(labels)))}}[/] back")
            widths.append(len(str(len(labels))) + 5)
        cell = max(widths) + 3
        columns = self.menu_columns(labels, back)
        rows = -(-len(items) // columns)
        self.console.print(f"[bold]{escape(title)}[/]")
        for r in range(rows):
            line = ""
            for c in range(columns):
                i = c * rows + r
                if i < len(items):
                    pad = " " * (cell - widths[i]) if c < columns - 1 and i + rows < len(items) else ""
                    line += "  " + items[i] + pad
            self.console.print(line, soft_wrap=columns > 1)  # a long single entry wraps at words

    def pick(
        self, state: State, seat: int, entries: Sequence[tuple[str, list[Action]]], title: str, back: bool = False
    ) -> tuple[str, list[Action]] | None:
        """Read a menu choice: the chosen entry, or the entry of the place typed by its name
        (``E4``: every action whose parts name it); None for "back". Re-prompts on anything else."""
        labels = [label for label, _ in entries]
        count = len(labels)
        self.show_menu(labels, title, back)
        hint = f"1-{count}{', 0 back' if back else ''}, b board, ? help, q quit"
        while True:
            answer = self.ask(f"[bold]Choose[/] ({hint}): ").strip().lower()
            if answer in ("q", "quit", "exit"):
                if self.confirm_quit():
                    raise QuitGame("you quit the game")
                continue
            if answer in ("?", "h", "help"):
                self.show_help(state, seat, labels)
                self.show_menu(labels, title, back)
                continue
            if answer in ("b", "board"):
                self.show_board(state, seat, self.menu_height(labels, back) + 2, again=True)
                self.show_menu(labels, title, back)
                continue
            if answer in ("l", "log"):
                if self.log is not None:
                    self.log.replay()
                self.show_menu(labels, title, back)
                continue
            if back and answer in ("0", "back"):
                return None
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= count:
                return entries[int(answer) - 1]
            named = self.named(state, [a for _, group in entries for a in group], answer)
            if named:
                return answer.upper(), named
            if not answer:
                self.error(f"Type the number of your choice, 1 to {count}.")
            elif answer.isascii() and answer.isdigit():
                self.error(f"{int(answer)} is not on the menu: choose 1 to {count}.")
            else:
                self.error(
                    f"{answer!r} is neither a number nor a place on this menu: type 1 to {count}, "
                    "b to see the board, ? for help, q to quit."
                )

    @staticmethod
    def named(state: State, actions: Sequence[Action], name: str) -> list[Action]:
        """The actions one of whose board parts (``Game.action_parts``, e.g. ``cell:E4``) ends in
        ``name`` (any case), so a place can be typed instead of looked up in the menu."""
        if not (name.isascii() and name.isalnum()) or name.isdigit():  # a number is a menu entry's
            return []
        found = []
        for action in actions:
            parts = state.game.action_parts(action)
            if any(part.rpartition(":")[2].lower() == name for part in parts):
                found.append(action)
        return found

    def ask(self, prompt: str) -> str:
        """One line of input; the end of input quits the game."""
        try:
            return self.read(prompt)
        except EOFError:
            self.console.print()
            raise QuitGame("the input ended") from None

    def confirm_quit(self) -> bool:
        answer = self.ask("Quit this game? (y/N): ").strip().lower()
        return answer in ("y", "yes")

    def error(self, message: str) -> None:
        self.console.print(f"[bold red]{escape(message)}[/]", soft_wrap=True)


__all__ = [
    "EVENT_STYLES",
    "EventPrinter",
    "QuitGame",
    "TerminalPlayer",
    "event_line",
    "find_grouper",
    "find_help_terms",
    "find_renderer",
    "find_titler",
    "game_module",
    "help_text",
    "is_small",
    "terms_in",
]
