"""The moves panel: the legal moves as a short list to filter by typing and pick by key.

The list is the game's menu (``action_groups``: a unit first, then where it goes); an entry
holding several moves opens them as a list of their own, and Escape goes back. Typing filters
the entries by the words of their labels; a number picks that entry of the whole list; the
arrow keys move the highlight and Enter chooses it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from spacetable.engine import Action


@dataclass(frozen=True)
class Entry:
    """One line of the menu: a label and the moves it leads to (one: choosing it makes the move)."""

    label: str
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Menu:
    """A list of entries under a title."""

    title: str
    entries: tuple[Entry, ...]


def matches(entry: Entry, words: str) -> bool:
    """Whether every word typed appears in the entry's label (any case)."""
    label = entry.label.lower()
    return all(word in label for word in words.lower().split())


class MovesPanel(Vertical):
    """The title, the filter and the list. Posts :class:`Chosen` with the entry picked and
    :class:`Pointed` with the entry highlighted; an entry of several moves opens them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Previous", show=False),
        Binding("down", "cursor(1)", "Next", show=False),
        Binding("pageup", "cursor(-5)", show=False),
        Binding("pagedown", "cursor(5)", show=False),
        Binding("escape", "back", "Back", show=False),
    ]

    class Chosen(Message):
        def __init__(self, entry: Entry) -> None:
            super().__init__()
            self.entry = entry

    class Pointed(Message):
        def __init__(self, entry: Entry | None) -> None:
            super().__init__()
            self.entry = entry

    class Returned(Message):
        """Escape went back to the menu a list was opened from."""

    def __init__(self, expand: Callable[[tuple[Action, ...]], tuple[Entry, ...]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.opener = expand
        """The entries of a group of several moves (the game's next menu step)."""
        self.menus: list[Menu] = []
        """The menu shown last, the ones it was opened from before it."""
        self.shown: list[int] = []
        """The positions in the current menu of the entries the filter lets through."""

    def compose(self) -> ComposeResult:
        yield Static(id="moves-title")
        yield Input(placeholder="type to filter · ↑↓ Enter · a number", id="moves-filter")
        yield OptionList(id="moves-list")

    @property
    def menu(self) -> Menu | None:
        return self.menus[-1] if self.menus else None

    def show(self, menu: Menu, keep: bool = False) -> None:
        """Show ``menu`` (``keep``: opened from the current one, which Escape goes back to)."""
        self.menus = [*self.menus, menu] if keep else [menu]
        self.query_one(Input).value = ""
        self._fill("")

    def clear(self, title: str) -> None:
        """No moves (another seat decides): the panel says ``title``."""
        self.menus = []
        self.query_one(Input).value = ""
        self.query_one("#moves-title", Static).update(escape(title))
        self.query_one(OptionList).clear_options()
        self.shown = []

    def _fill(self, words: str) -> None:
        menu = self.menu
        if menu is None:
            return
        width = len(str(len(menu.entries)))
        pick = words.strip()
        self.shown = [i for i, e in enumerate(menu.entries) if pick.isdigit() or not pick or matches(e, pick)]
        options = self.query_one("#moves-list", OptionList)
        options.clear_options()
        options.add_options(
            Option(Text.assemble((f"{i + 1:>{width}} ", "bold"), menu.entries[i].label)) for i in self.shown
        )
        back = " · Esc back" if len(self.menus) > 1 else ""
        found = f"{len(self.shown)} of {len(menu.entries)}" if pick and not pick.isdigit() else f"{len(menu.entries)}"
        self.query_one("#moves-title", Static).update(f"[bold]{escape(menu.title)}[/] [dim]({found}){back}[/]")
        if self.shown:
            number = int(pick) - 1 if pick.isdigit() else -1
            options.highlighted = self.shown.index(number) if number in self.shown else 0
        self._point()

    @on(Input.Changed, "#moves-filter")
    def _filtered(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#moves-filter")
    def _submitted(self) -> None:
        self.choose_highlighted()

    @on(OptionList.OptionSelected, "#moves-list")
    def _selected(self) -> None:
        self.choose_highlighted()

    @on(OptionList.OptionHighlighted, "#moves-list")
    def _highlighted(self) -> None:
        self._point()

    def highlighted(self) -> Entry | None:
        """The entry the highlight is on (None: no entry shown)."""
        index = self.query_one("#moves-list", OptionList).highlighted
        menu = self.menu
        if menu is None or index is None or not 0 <= index < len(self.shown):
            return None
        return menu.entries[self.shown[index]]

    def choose_highlighted(self) -> None:
        """Open the highlighted entry's moves, or choose its only move."""
        entry = self.highlighted()
        if entry is None:
            return
        if len(entry.actions) > 1:
            self.show(Menu(entry.label, self.opener(entry.actions)), keep=True)
        else:
            self.post_message(self.Chosen(entry))

    def _point(self) -> None:
        self.post_message(self.Pointed(self.highlighted()))

    def action_cursor(self, step: int) -> None:
        options = self.query_one("#moves-list", OptionList)
        if self.shown:
            options.highlighted = max(0, min(len(self.shown) - 1, (options.highlighted or 0) + step))

    def action_back(self) -> None:
        """Escape: clear the filter, else go back to the menu this one was opened from."""
        filter_input = self.query_one(Input)
        if filter_input.value:
            filter_input.value = ""
        elif len(self.menus) > 1:
            self.menus.pop()
            self._fill("")
            self.post_message(self.Returned())
