"""The full-screen terminal table (Textual): the board that never scrolls away, a prompt line
saying what to do now, the moves as a short list to filter, a detail panel, the dice and the log.

Layout, top to bottom: the prompt (the game's guide line, the browser's status line); a strip
of tabs (the board, everything the game shows, the log, the help); the board's panel; the moves
and, beside them, the detail of whatever the mouse, the board's cursor or the highlighted move
is on, above the last dice rolled. A terminal of at least :data:`BIG` also shows the latest
events beside the board. The game itself runs in a thread (see :mod:`.seat`); everything drawn
comes from what the watching seat may know: a decision's resample, or the view of the seat
watching (a renderer draws only ``view(seat)``).
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.widgets import ContentSwitcher, Input, RichLog, Static

from spacetable.engine import JSON, Action, Event, Game, Player, Record, State, play
from spacetable.engine.words import count

from ..terminal import QuitGame, event_line, find_grouper, find_help_terms, find_titler, game_module, help_text
from .board import BoardView
from .explain import Note, board_notes, explain_move, explain_part
from .moves import Entry, Menu, MovesPanel
from .seat import AppSeat, Decision, WatchedBot

BIG = (110, 36)
"""Columns and rows from which the latest events stay beside the board."""
REDRAW = 0.1
"""Seconds between two drawings of the board while bots play on (a decision is drawn at once)."""
DICE_KINDS = frozenset({"roll", "reroll", "dice", "initiative", "rebuild"})
"""Event kinds the dice panel keeps: the rolls and how each total was made."""
DICE_SHOWN = (2, 4)
"""The rolls the dice panel shows on a small and on a big terminal."""
KEYS = (
    "type to filter the moves · ↑↓ and Enter or a number choose · Esc back · click a piece, then a place "
    "(or Tab to the board, arrows, Enter) · F2 board · F3 everything · F4 log · F1 help · "
    "Ctrl+Q leaves (the game stays saved)"
)
TABS = (("board", "F2 Board"), ("everything", "F3 Everything"), ("log", "F4 Log"), ("help", "F1 Help"))


@dataclass(frozen=True)
class Screenful:
    """What the table shows of a position, built where the position is (the game's thread):
    the board drawn small and in full, the prompt, and the view the detail panel explains."""

    compact: Text
    full: Text
    prompt: str
    view: JSON
    seat: int | None

    def full_size(self) -> tuple[int, int]:
        """Columns and rows the full drawing takes."""
        lines = self.full.plain.split("\n")
        return max(map(cell_len, lines)), len(lines)


def markup_text(markup: str) -> Text:
    """A drawing's markup as text (emoji codes are not a game's: ``:D`` stays as typed)."""
    return Text.from_markup(markup, emoji=False)


class TableApp(App[None]):
    """A game at the terminal. ``players[s]`` is None for a person's seat, else its bot; the game
    starts at ``state`` (None: a new one), adds every action to ``record`` and calls ``saved``
    after each. :attr:`final` is the finished game, :attr:`failure` what stopped it otherwise."""

    TITLE = "spacetable"
    CSS = """
    Screen { layout: vertical; }
    #prompt { height: auto; max-height: 4; padding: 0 1; background: $boost; text-style: bold; }
    #strip { height: 1; padding: 0 1; color: $text-muted; }
    #middle { height: 1fr; }
    #tabs { width: 1fr; }
    #tabs > ScrollableContainer { height: 1fr; scrollbar-size: 1 1; }
    BoardView { width: auto; height: auto; }
    BoardView:focus { background: $boost; }
    #help { width: 1fr; height: auto; }
    #side { display: none; width: 38; border-left: solid $primary; }
    Screen.big #side { display: block; }
    #bottom { height: 6; background: $boost; }
    Screen.big #bottom { height: 14; }
    MovesPanel { width: 1fr; }
    #moves-title { height: auto; max-height: 2; padding: 0 1; }
    #moves-filter { height: 1; border: none; padding: 0 1; }
    #moves-list { height: 1fr; border: none; padding: 0; }
    #info { width: 34; border-left: solid $primary; padding: 0 1; }
    Screen.big #info { width: 50; }
    #detail { height: 1fr; }
    #dice { height: auto; max-height: 4; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "tab('help')", "Help", show=False),
        Binding("f2", "tab('board')", "Board", show=False),
        Binding("f3", "tab('everything')", "Everything", show=False),
        Binding("f4", "tab('log')", "Log", show=False),
        Binding("ctrl+q", "leave", "Leave", priority=True, show=False),
    ]

    def __init__(
        self,
        game: Game,
        players: Sequence[Player | None],
        seed: int,
        record: Record,
        state: State | None = None,
        saved: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        humans = [s for s, p in enumerate(players) if p is None]
        self.viewer = humans[0] if len(humans) == 1 else None
        """The seat whose knowledge the board shows between decisions (None: a spectator's)."""
        self.players: list[Player] = [
            AppSeat(self._ask_in_thread) if p is None else WatchedBot(p, self._bot_thinks, self._bot_decided)
            for p in players
        ]
        self.seed = seed
        self.record = record
        self.start_state = state
        self.saved = saved
        self.final: State | None = None
        self.failure: BaseException | None = None
        self.leaving = False
        self.decision: Decision | None = None
        self.selected: tuple[str, ...] = ()
        """The board parts clicked towards a move (the piece, then the place)."""
        self.confirming: Action | None = None
        """A move warned of, chosen once: choosing it again sends it."""
        self.screenful: Screenful | None = None
        self.notes: dict[str, Note] | None = None
        self.dice: list[str] = []
        self.unshown: list[tuple[str, str]] = []
        """Log lines of the game's thread not yet on screen (kind, markup)."""
        self.shown_at = 0.0
        self.latest: State | None = None
        """The position after the last action, while it is not yet drawn (the game's thread's)."""
        self.thinking: threading.Timer | None = None
        """The timer that draws the position while a bot thinks long."""
        self.drawing = threading.Lock()
        """Held while the position is drawn from another thread than the game's."""
        render = game_module(game, "render")
        self.draw_full = getattr(render, "render", None)
        self.draw_compact = getattr(render, "compact", None) or self.draw_full
        self.grouper, self.titler, self.help_terms = find_grouper(game), find_titler(game), find_help_terms(game)
        self.thread = threading.Thread(target=self._play, name="spacetable-game", daemon=True)

    # ---- layout --------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="prompt")
        yield Static(self._strip("board"), id="strip")
        with Horizontal(id="middle"):
            with ContentSwitcher(initial="board", id="tabs"):
                with ScrollableContainer(id="board"):
                    yield BoardView(id="board-view")
                with ScrollableContainer(id="everything"):
                    yield BoardView(id="everything-view")
                yield RichLog(id="log", wrap=True, min_width=20, max_lines=2000)
                with ScrollableContainer(id="help"):
                    yield Static(id="help-text")
            yield RichLog(id="side", wrap=True, min_width=20, max_lines=200)
        with Horizontal(id="bottom"):
            yield MovesPanel(self._expand, id="moves")
            with Vertical(id="info"):
                yield Static(id="detail")
                yield Static(id="dice")

    def _strip(self, current: str) -> str:
        tabs = " ".join(
            f"[@click=app.tab('{name}')]{'[reverse]' if name == current else ''} {label} "
            f"{'[/reverse]' if name == current else ''}[/]"
            for name, label in TABS
        )
        return f"{tabs}  Tab next panel · Ctrl+Q leave (saved)"

    def on_mount(self) -> None:
        self.title = self.game.describe()
        self._resized()
        self.query_one("#prompt", Static).update(escape(self.game.describe()))
        self.query_one(MovesPanel).clear("The game is starting…")
        self.query_one("#moves-filter", Input).focus()
        self.thread.start()

    def on_resize(self) -> None:
        self._resized()

    def _resized(self) -> None:
        wide, tall = BIG
        self.screen.set_class(self.size.width >= wide and self.size.height >= tall, "big")
        self._show_dice()
        self._draw_boards()

    def action_tab(self, name: str) -> None:
        self.query_one("#tabs", ContentSwitcher).current = name
        if name == "help":
            self._write_help()
        elif name == "everything":
            self._draw_boards()
        self.query_one("#strip", Static).update(self._strip(name))

    # ---- the game's thread -----------------------------------------------------------
    def _play(self) -> None:
        """Play to the end in this thread; tell the app how it ended."""
        try:
            self.final = play(
                self.game,
                self.players,
                random.Random(self.seed),
                record=self.record,
                on_events=self._events_in_thread,
                state=self.start_state,
            )
        except BaseException as exc:  # the person left (QuitGame), or a bug: the caller reports it
            self.failure = exc
            self._from_thread(self.exit)
            return
        self._flush_in_thread(None)
        self._from_thread(self._game_over, self._screenful(self.final, self.viewer))

    def _from_thread(self, callback: Callable[..., object], *args: object) -> None:
        """Run ``callback`` in the app's loop and wait for it (nothing once the app has closed)."""
        if self.is_running and not self.leaving:
            with contextlib.suppress(RuntimeError):  # the app closed meanwhile
                self.call_from_thread(callback, *args)

    def _events_in_thread(self, state: State, events: Sequence[Event]) -> None:
        """After each action: save, then show what the watching seat may see of it (the board
        drawn again at most every :data:`REDRAW` seconds while bots play on)."""
        if self.saved is not None:
            self.saved()
        if self.leaving:
            raise QuitGame("you left the table")
        self.unshown += [(e.kind, event_line(e)) for e in events if e.visible_to(self.viewer)]
        self.latest = state
        if time.monotonic() - self.shown_at >= REDRAW:
            self._flush_in_thread(self._screenful(state, self.viewer))

    def _bot_thinks(self) -> None:
        """A bot starts to think: if it is still thinking after :data:`REDRAW` seconds, the table
        catches up with the position (which stays as it is until the bot has decided)."""
        self.thinking = threading.Timer(REDRAW, self._draw_while_thinking)
        self.thinking.daemon = True
        self.thinking.start()

    def _bot_decided(self) -> None:
        timer, self.thinking = self.thinking, None
        if timer is not None:
            timer.cancel()
        with self.drawing:  # a drawing under way ends before the position changes
            pass

    def _draw_while_thinking(self) -> None:
        with self.drawing:
            if self.thinking is not None and self.latest is not None:
                self._flush_in_thread(self._screenful(self.latest, self.viewer))

    def _flush_in_thread(self, screenful: Screenful | None) -> None:
        """Show the events not yet shown (and ``screenful`` where given)."""
        lines, self.unshown = self.unshown, []
        self.shown_at, self.latest = time.monotonic(), None
        self._from_thread(self._show_events, lines, screenful)

    def _screenful(self, state: State, seat: int | None, actions: Sequence[Action] = ()) -> Screenful:
        view = state.view(seat)
        guide = self.game.guide(view, seat, actions)
        if guide is None:
            guide = f"Your move: {count(len(actions), 'choice')}" if actions else self._whose_move(state)
        draw = self.draw_full
        full = markup_text(str(draw(state, seat))) if draw else Text(str(view))
        compact = markup_text(str(self.draw_compact(state, seat))) if self.draw_compact else full
        return Screenful(compact, full, guide, view, seat)

    def _whose_move(self, state: State) -> str:
        if state.is_terminal():
            return "The game is over."
        names = self.game.seat_names(state.view(self.viewer))
        waiting = [names[s] for s in state.awaiting()] if not state.is_chance_node() else []
        return f"Waiting for {', '.join(waiting)}" if waiting else "The dice are rolled…"

    def _ask_in_thread(self, decision: Decision) -> None:
        """An :class:`AppSeat`'s decision, shown in the app (a lone move is made at once)."""
        if self.leaving:
            raise QuitGame("you left the table")
        if len(decision.actions) == 1:
            only = decision.state.action_label(decision.actions[0])
            self.unshown.append(("skip", f"  [dim]your only choice:[/] {escape(only)}"))
            decision.answer.put(decision.actions[0])
            return
        self._flush_in_thread(None)
        screenful = self._screenful(decision.state, decision.seat, decision.actions)
        menu = self._menu(decision.state, decision.actions)
        self._from_thread(self._show_decision, decision, screenful, menu)
        if self.leaving:
            decision.leave()

    # ---- drawing (the app's loop) ------------------------------------------------------
    def _show_events(self, lines: list[tuple[str, str]], screenful: Screenful | None) -> None:
        for kind, line in lines:
            text = markup_text(line)
            for log in self.query(RichLog):
                log.write(text)
            if kind in DICE_KINDS:
                self.dice = [*self.dice, text.plain.strip()][-max(DICE_SHOWN) :]
        self._show_dice()
        if screenful is not None and self.decision is None:
            self._show(screenful)

    def _show_dice(self) -> None:
        shown = self.dice[-DICE_SHOWN[self.screen.has_class("big")] :]
        self.query_one("#dice", Static).update("\n".join(f"[b]dice[/b] {escape(line)}" for line in shown))

    def _show(self, screenful: Screenful) -> None:
        self.screenful, self.notes = screenful, None
        self.query_one("#prompt", Static).update(escape(screenful.prompt))
        self._draw_boards()
        if self.query_one("#tabs", ContentSwitcher).current == "help":
            self._write_help()

    def _write_help(self) -> None:
        """The help tab: the words of the board and the moves now on screen, and the keys."""
        screenful, decision = self.screenful, self.decision
        menu = self.query_one(MovesPanel).menu
        labels = [e.label for e in menu.entries] if decision and menu else []
        extra = self.help_terms(decision.state, decision.seat) if decision and self.help_terms else ()
        plain = screenful.full.plain if screenful else ""
        self.query_one("#help-text", Static).update(help_text(self.game.glossary(), plain, labels, extra, keys=KEYS))

    def _draw_boards(self) -> None:
        """The board tab: the full drawing where it fits the panel, else the compact one."""
        screenful = self.screenful
        if screenful is None:
            return
        panel = self.query_one("#board", ScrollableContainer).size
        columns, rows = screenful.full_size()
        fits = rows <= panel.height and columns <= panel.width
        marked, chosen = self._marks()
        self.query_one("#board-view", BoardView).draw(screenful.full if fits else screenful.compact, marked, chosen)
        if self.query_one("#tabs", ContentSwitcher).current == "everything":  # else drawn when shown
            self.query_one("#everything-view", BoardView).draw(screenful.full, marked, chosen)

    def _marks(self) -> tuple[frozenset[str], frozenset[str]]:
        """The places the parts clicked so far lead to, and those parts."""
        decision = self.decision
        if decision is None or not self.selected:
            return frozenset(), frozenset()
        pool = self._pool(self.selected)
        places = {part for action in pool for part in decision.parts(action)} - set(self.selected)
        return frozenset(places), frozenset(self.selected)

    def _remark(self) -> None:
        marked, chosen = self._marks()
        for board in self.query(BoardView):
            board.mark(marked, chosen)

    # ---- a decision ---------------------------------------------------------------------
    def _menu(self, state: State, actions: list[Action]) -> Menu:
        title = (self.titler(state, actions) if self.titler else None) or "Your move"
        return Menu(title, self._entries(state, actions))

    def _entries(self, state: State, actions: Sequence[Action]) -> tuple[Entry, ...]:
        groups = self.grouper(state, actions) if self.grouper else None
        if groups:
            return tuple(Entry(label, tuple(group)) for label, group in groups)
        return tuple(Entry(state.action_label(a), (a,)) for a in actions)

    def _expand(self, actions: tuple[Action, ...]) -> tuple[Entry, ...]:
        assert self.decision is not None
        return self._entries(self.decision.state, actions)

    def _show_decision(self, decision: Decision, screenful: Screenful, menu: Menu) -> None:
        self.decision, self.selected, self.confirming = decision, (), None
        self.query_one(MovesPanel).show(menu)
        self._show(screenful)
        if not isinstance(self.focused, BoardView):
            self.query_one("#moves-filter", Input).focus()

    def _pool(self, parts: Sequence[str]) -> list[Action]:
        """The moves whose board parts include all of ``parts``."""
        assert self.decision is not None
        wanted = set(parts)
        return [a for a in self.decision.actions if wanted <= set(self.decision.parts(a))]

    @on(BoardView.Pressed)
    def _pressed(self, event: BoardView.Pressed) -> None:
        """A click on a board part: the piece, then the place it goes (as at the browser table)."""
        decision, part = self.decision, event.part
        board = event.board
        shown = board.places[part].text.strip() if part in board.places else part
        self._explain_part(part, shown)
        if decision is None:
            return
        pool = self._pool((*self.selected, part))
        if not pool:
            self.selected, pool = (), self._pool((part,))
        if not pool:
            self._say(f"Nothing to do with {shown} now.")
            return
        if part not in self.selected:
            self.selected = (*self.selected, part)
        ending = [a for a in pool if decision.parts(a)[-1] == part]
        if len(pool) == 1 and (ending or len(decision.parts(pool[0])) == 1):
            self._choose(pool[0])
            return
        self._remark()
        labels = (decision.state.action_label(a) for a in (ending or pool))
        title = f"{shown}: which move?" if ending else f"{shown}: where to? (the places shown reversed)"
        entries = tuple(Entry(label, (a,)) for label, a in zip(labels, ending or pool, strict=True))
        self.query_one(MovesPanel).show(Menu(title, entries), keep=True)

    @on(MovesPanel.Returned)
    def _returned(self) -> None:
        self.selected = ()
        self._remark()

    @on(MovesPanel.Chosen)
    def _chosen(self, event: MovesPanel.Chosen) -> None:
        self._choose(event.entry.actions[0])

    def _choose(self, action: Action) -> None:
        """Send ``action``; a move warned of is sent when chosen a second time."""
        decision = self.decision
        if decision is None:
            return
        warning = decision.state.action_warning(action)
        if warning and self.confirming != action:
            self.confirming = action
            label = decision.state.action_label(action)
            self._say(f"WARNING: {warning} Choose {label!r} again to play it anyway, or pick another move.")
            self.query_one("#prompt", Static).update(escape(f"Are you sure? {warning}"))
            return
        self.decision, self.selected, self.confirming = None, (), None
        self.query_one(MovesPanel).clear("Waiting for the other seats…")
        decision.answer.put(action)

    # ---- the detail panel -------------------------------------------------------------
    def _say(self, text: str) -> None:
        """Put ``text`` in the detail panel (none once the screen is closing)."""
        for detail in self.query("#detail").results(Static):
            detail.update(escape(text))

    @on(BoardView.Pointed)
    def _pointed(self, event: BoardView.Pointed) -> None:
        if event.part is not None:
            self._explain_part(event.part, event.shown)

    def _explain_part(self, part: str, shown: str) -> None:
        screenful = self.screenful
        if screenful is None:
            return
        if self.notes is None:
            self.notes = board_notes(self.game, screenful.view, screenful.seat)
        self._say("\n".join(explain_part(self.game, self.notes, part, shown)))

    @on(MovesPanel.Pointed)
    def _move_pointed(self, event: MovesPanel.Pointed) -> None:
        decision, entry = self.decision, event.entry
        if decision is None or entry is None:
            return
        if len(entry.actions) == 1:
            self._say("\n".join(explain_move(decision.state, entry.actions[0], entry.label)))
        else:
            self._say(f"{entry.label}: {count(len(entry.actions), 'move')}; Enter lists them.")

    # ---- the end -------------------------------------------------------------------------
    def _game_over(self, screenful: Screenful) -> None:
        self._show(screenful)
        final = self.final
        outcome = final.outcome() if final is not None else None
        if outcome is not None:
            words = self.game.explain_outcome(screenful.view, outcome, self.viewer)
            self.query_one("#prompt", Static).update(escape(f"The game is over: {words}"))
        self.query_one(MovesPanel).clear("The game is over: Ctrl+Q or Enter leaves the table.")
        self.query_one("#moves-filter", Input).focus()

    @on(Input.Submitted, "#moves-filter")
    def _submitted_at_end(self) -> None:
        if self.final is not None:
            self.exit()

    def action_leave(self) -> None:
        """Leave the table: the game stays saved (a game over just closes)."""
        if self.final is None:
            self.leaving = True
            if self.decision is not None:
                self.decision.leave()
                self.decision = None
        self.exit()
