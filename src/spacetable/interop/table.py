"""A game in progress inside an environment (PettingZoo, Gymnasium): the true state, chance
drawn from a seeded generator, seats acting by action codes, and the rewards they earn.

**Illegal actions**, one policy for every environment (flat or factored): an action outside the
mask is refused. It changes nothing, the same seat is asked again, the step pays the seat
``illegal_reward`` (default 0.0; a negative number is a penalty) and its info says so
(:func:`refusal_info`: ``illegal_action`` True and ``error``, one line). ``illegal_reward=None``
is the strict mode, for debugging: the step raises IllegalActionError with that line.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import numpy as np
import numpy.typing as npt

from spacetable.engine import Game, IllegalActionError, MalformedActionError, State

from .sequential import codes_of, decider, observe

RENDER_MODES = ("ansi", "human")
"""Text for every environment: ``ansi`` returns it, ``human`` prints it."""

ACTIONS = ("flat", "factored")
"""How an environment takes actions: ``flat``, one code of the game's codec a step
(``Discrete(game.actions.size)``); ``factored``, each action as a few small steps
(:mod:`spacetable.interop.factored`)."""

FLAT_ACTIONS_MAX = 10_000
"""The most codes a game's flat codec may have for its environments to take flat actions by
default. A masked policy's output layer has a weight per code and hidden unit (64 x 191,814 =
12.3M for solo Mothership, the whole network's bulk), so a game above it (Mothership: 191,814
to 539,014 codes) defaults to factored actions; every other game (at most 2,326) to flat."""

REWARDS = ("win", "shaped")
"""``win``: the game's ``returns()`` when it ends (a win is 1). ``shaped``: that, plus after
every step the change in the seat's ``Game.progress`` (docs/INTEROP.md, "Rewards")."""


class RenderModeError(TypeError, ValueError):
    """A render mode the environment does not have. A TypeError too, because Stable-Baselines3's
    ``make_vec_env`` asks for ``rgb_array`` and falls back to no rendering on a TypeError."""


def check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in RENDER_MODES:
        raise RenderModeError(
            f"render_mode must be one of {RENDER_MODES} or None, not {mode!r} (spacetable renders text)"
        )


def actions_for(game: Game, actions: str | None) -> str:
    """``actions`` checked against :data:`ACTIONS`, or where None the game's default:
    ``factored`` above :data:`FLAT_ACTIONS_MAX` codes, else ``flat``."""
    if actions is None:
        return "factored" if game.actions.size > FLAT_ACTIONS_MAX else "flat"
    if actions not in ACTIONS:
        raise ValueError(f"actions must be one of {ACTIONS} or None (the game's default), not {actions!r}")
    return actions


def refusal_info(error: str | None) -> dict[str, Any]:
    """What a step's info says about its action: nothing when it was taken; for a refused one
    ``illegal_action`` True and the ``error`` line."""
    return {} if error is None else {"illegal_action": True, "error": error}


def legal_summary(legal: list[int], where: str) -> str:
    """How many values are legal, the first few, and where their mask is."""
    shown = ", ".join(map(str, legal[:8])) + (", ..." if len(legal) > 8 else "")
    return f"{len(legal)} are legal ({shown}), marked in info['{where}']"


def check_reward(reward: str, game: Game) -> None:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
    if reward == "shaped" and game.progress(game.new_initial_state(), 0) is None:
        raise ValueError(f"{game.id} has no progress measure (Game.progress) for reward='shaped'")


class Table:
    """One game at a time. Chance is drawn as soon as it is due, so the state always waits for a
    seat's decision, or is over.

    ``together`` says who may act where several seats decide at once: all of them (a parallel
    environment), or only the lowest of them, then the next (turn by turn). ``reward`` is one of
    :data:`REWARDS`. ``illegal_reward`` is the illegal-action policy of the module's docstring
    (:meth:`refuse`).
    """

    def __init__(self, game: Game, together: bool, reward: str = "win", illegal_reward: float | None = 0.0) -> None:
        check_reward(reward, game)
        self.game = game
        self.together = together
        self.reward = reward
        self.illegal_reward = illegal_reward
        self.state = game.new_initial_state()
        self._rng = random.Random()
        self._earned = self._earned_now()
        self._penalties = [0.0] * game.players

    @property
    def state(self) -> State:
        """The true state (one set from outside starts the position's caches afresh)."""
        return self._state

    @state.setter
    def state(self, state: State) -> None:
        self._state = state
        self._moved()

    def _moved(self) -> None:
        """Forget what was worked out for the position before (the state changed)."""
        self._shared: dict[str, Any] = {}
        """What the seats' tensors of ``state`` have in common."""
        self._tensors: dict[int, npt.NDArray[np.float32]] = {}
        self._codes: dict[int, list[int]] = {}
        self._acting: tuple[int, ...] | None = None

    def reset(self, seed: int) -> None:
        """A new game, its chance drawn from ``random.Random(seed)``."""
        self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self._draw_chance()
        self._earned = self._earned_now()
        self._penalties = [0.0] * self.game.players

    def acting(self) -> tuple[int, ...]:
        """The seats that may act now (none once the game is over)."""
        if self._acting is None:
            state = self.state
            if state.is_terminal():
                self._acting = ()
            else:
                self._acting = state.awaiting() if self.together else (decider(state),)
        return self._acting

    def play(self, seat: int, code: int) -> str | None:
        """Apply ``seat``'s action ``code``, then draw chance up to the next decision; None. An
        action that is not legal for the seat now is refused (:meth:`refuse`): its error line."""
        try:
            action = self.game.actions.decode(code)
        except MalformedActionError:
            action = None
        if action is None or seat not in self.acting() or action not in self.state.legal_actions(seat):
            return self.refuse(seat, self._why_illegal(seat, code))
        self.state.apply_action(action, seat)
        self._draw_chance()
        return None

    def refuse(self, seat: int, error: str) -> str:
        """The illegal-action policy: nothing changes; in strict mode (``illegal_reward`` None)
        raise IllegalActionError(``error``), else book ``illegal_reward`` for ``seat`` (paid by
        the next :meth:`rewards`) and return ``error``."""
        if self.illegal_reward is None:
            raise IllegalActionError(error)
        self._penalties[seat] += self.illegal_reward
        return error

    def rewards(self) -> list[float]:
        """What each seat earned since the last call (or the reset): see :data:`REWARDS`, plus
        the rewards of its illegal actions."""
        earned = self._earned_now()
        paid, penalties = self._earned, self._penalties
        self._earned, self._penalties = earned, [0.0] * self.game.players
        return [now - before + penalty for now, before, penalty in zip(earned, paid, penalties)]

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s tensor of the position, a new array (the tensor is worked out once per
        position and seat)."""
        tensor = self._tensors.get(seat)
        if tensor is None:
            tensor = self._tensors[seat] = observe(self.state, seat, self._shared)
        return tensor.copy()

    def global_state(self) -> npt.NDArray[np.float32]:
        """Every seat's observation tensor, flattened and concatenated, seat 0 first: all that
        any seat knows, its private information included. It comes from the TRUE state: for a
        centralised critic in training, never for a policy that acts."""
        return np.concatenate([self.observation(seat).ravel() for seat in range(self.game.players)])

    def global_state_size(self) -> int:
        """The length of :meth:`global_state`."""
        return self.game.players * math.prod(self.game.observation_shape())

    def legal_codes(self, seat: int) -> list[int]:
        """The codes of ``seat``'s legal actions, ascending (none when it may not act now); one
        list per position (do not change it)."""
        if seat not in self.acting():
            return []
        codes = self._codes.get(seat)
        if codes is None:
            codes = self._codes[seat] = codes_of(self.state, seat)
        return codes

    def action_mask(self, seat: int, codes: list[int] | None = None) -> npt.NDArray[np.int8]:
        """1 for each legal action code of ``seat`` (all 0 when it may not act now); ``codes``:
        its :meth:`legal_codes`, where the caller has them."""
        mask = np.zeros(self.game.actions.size, dtype=np.int8)
        mask[self.legal_codes(seat) if codes is None else codes] = 1
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

    def _why_illegal(self, seat: int, code: int) -> str:
        if self.state.is_terminal():
            return f"action {code} for seat {seat}: the game is over (reset it)"
        if seat not in self.acting():
            return f"action {code} for seat {seat}: seat {seat} does not act now (seats {list(self.acting())} do)"
        legal = codes_of(self.state, seat)
        return f"action {code} is not legal for seat {seat} now: {legal_summary(legal, 'action_mask')}"

    def _earned_now(self) -> list[float]:
        """Each seat's reward so far: its return (0 until the game ends) and, shaped, its progress."""
        returns = self.state.returns()
        if self.reward == "shaped":
            progress = self.game.progress
            return [value + float(progress(self.state, seat) or 0.0) for seat, value in enumerate(returns)]
        return returns

    def _draw_chance(self) -> None:
        """Draw chance up to the next decision; the state has moved."""
        state = self.state
        while state.is_chance_node():
            state.apply_action(state.sample_chance(self._rng))
        self._moved()
