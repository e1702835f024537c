"""A game in progress inside an environment (PettingZoo, Gymnasium): the true state, chance
drawn from a seeded generator, and seats acting by action codes.
"""

from __future__ import annotations

import json
import random

import numpy as np
import numpy.typing as npt

from spacetable.engine import Game, MalformedActionError, State

from .sequential import decider, observe

RENDER_MODES = ("ansi", "human")
"""Text for every environment: ``ansi`` returns it, ``human`` prints it."""


def check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {mode!r}")


class Table:
    """One game at a time. Chance is drawn as soon as it is due, so the state always waits for a
    seat's decision, or is over.

    ``together`` says who may act where several seats decide at once: all of them (a parallel
    environment), or only the lowest of them, then the next (turn by turn).
    """

    def __init__(self, game: Game, together: bool) -> None:
        self.game = game
        self.together = together
        self.state: State = game.new_initial_state()
        self._rng = random.Random()

    def reset(self, seed: int) -> None:
        """A new game, its chance drawn from ``random.Random(seed)``."""
        self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self._draw_chance()

    def acting(self) -> tuple[int, ...]:
        """The seats that may act now (none once the game is over)."""
        state = self.state
        if state.is_terminal():
            return ()
        return state.awaiting() if self.together else (decider(state),)

    def play(self, seat: int, code: int) -> bool:
        """Apply ``seat``'s action ``code``, then draw chance up to the next decision. Returns
        False, changing nothing, when the code is not a legal action of the seat now."""
        try:
            action = self.game.actions.decode(code)
        except MalformedActionError:
            return False
        if seat not in self.acting() or action not in self.state.legal_actions(seat):
            return False
        self.state.apply_action(action, seat)
        self._draw_chance()
        return True

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        return observe(self.state, seat)

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each legal action code of ``seat`` (all 0 when it may not act now)."""
        mask = np.zeros(self.game.actions.size, dtype=np.int8)
        if seat in self.acting():
            encode = self.game.actions.encode
            mask[[encode(action) for action in self.state.legal_actions(seat)]] = 1
        return mask

    def text(self) -> str:
        """The game for a spectator, as text: who acts or how it ended, and the spectator's view."""
        outcome = self.state.outcome()
        if outcome is not None:
            winners = f"seats {list(outcome.winners)} win" if outcome.winners else "nobody wins"
            status = f"over: {winners} ({outcome.reason})"
        else:
            status = f"seats {list(self.acting())} to act"
        view = json.dumps(self.state.view(None), indent=1, sort_keys=True)
        return f"{self.game.describe()}: {status}\n{view}"

    def render(self, mode: str | None) -> str | None:
        """:meth:`text` as the render ``mode`` wants it: returned (``ansi``), printed (``human``)."""
        if mode == "ansi":
            return self.text()
        if mode == "human":
            print(self.text())
        return None

    def _draw_chance(self) -> None:
        state = self.state
        while state.is_chance_node():
            state.apply_action(state.sample_chance(self._rng))
