"""The bridge between the engine's game loop (a thread) and the full-screen table (Textual's loop).

:func:`spacetable.engine.play` runs in a thread of its own, so a bot may think without freezing
the screen. A human's seat is an :class:`AppSeat`: its ``choose`` hands the app a
:class:`Decision` (the resample the seat sees, its legal actions) and waits for the answer;
leaving the table answers :data:`LEAVE`, which raises :class:`~spacetable.cli.terminal.QuitGame`
in the game's thread.
"""

from __future__ import annotations

import contextlib
import queue
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from spacetable.engine import Action, Player, State

from ..terminal import QuitGame

LEAVE = object()
"""The answer that leaves the table (the game stays saved)."""


@dataclass
class Decision:
    """What a human seat owes: ``state`` is the seat's resample (never the true state)."""

    state: State
    seat: int
    actions: list[Action]
    answer: queue.Queue[object] = field(default_factory=lambda: queue.Queue(maxsize=1))

    def leave(self) -> None:
        """Answer that the person left (nothing when an answer is already given)."""
        with contextlib.suppress(queue.Full):
            self.answer.put_nowait(LEAVE)

    def parts(self, action: Action) -> tuple[str, ...]:
        """The board elements ``action`` involves (the piece first, then the place)."""
        return self.state.game.action_parts(action)


class AppSeat:
    """A human at the full-screen table. ``ask`` shows a decision (called in the game's thread)."""

    name = "human"

    def __init__(self, ask: Callable[[Decision], None]) -> None:
        self.ask = ask

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """The action the person picks on screen; :class:`QuitGame` when they leave the table."""
        decision = Decision(state, seat, list(state.legal_actions(seat)))
        self.ask(decision)
        answer = decision.answer.get()
        if answer is LEAVE:
            raise QuitGame("you left the table")
        assert isinstance(answer, tuple), answer  # an Action is a (named) tuple
        return answer


class WatchedBot:
    """A bot's seat at the table: ``thinks`` runs (in the game's thread) as it starts to think and
    ``decided`` once it has, so the table can show the position while a bot takes its time."""

    def __init__(self, bot: Player, thinks: Callable[[], None], decided: Callable[[], None]) -> None:
        self.bot = bot
        self.thinks, self.decided = thinks, decided
        self.name = getattr(bot, "name", "bot")

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        self.thinks()
        try:
            return self.bot.choose(state, seat, rng)
        finally:
            self.decided()
