"""Small pieces the games' observation tensors are built from (``games/<package>/views/tensor.py``).

Every entry of an observation tensor is in [0, 1]: categories are one-hot, counts are
divided by the most there can be (``ratio``).
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .actions import Action
    from .protocol import State

Tensor: TypeAlias = "Sequence[float] | npt.NDArray[np.floating[Any]]"
"""What ``Game.observation_tensor`` gives: a flat list of floats, or a flat numpy array (numpy
comes with the ``rl`` extra, so a game that builds arrays imports it inside its functions:
playing needs no tensors)."""


def one_hot(value: Hashable, choices: Sequence[Hashable]) -> list[float]:
    """1.0 where ``choices`` holds ``value``, else 0.0 (all 0.0 when it holds none)."""
    return [1.0 if value == choice else 0.0 for choice in choices]


def ratio(count: float, full: float) -> float:
    """``count / full`` clipped to [0, 1]; 0.0 when ``full`` is not positive."""
    if not full > 0:
        return 0.0
    share = count / full
    return 1.0 if share > 1.0 else share if share > 0.0 else 0.0


GameT = TypeVar("GameT")
Value = TypeVar("Value")


def per_game(work: Callable[[GameT], Value]) -> Callable[[GameT], Value]:
    """``work(game)`` worked out once per game and kept as long as the game (games are
    immutable): the sizes, offsets and lookup tables an encoder needs on every call."""
    cache: WeakKeyDictionary[GameT, Value] = WeakKeyDictionary()

    @functools.wraps(work)
    def once(game: GameT) -> Value:
        try:
            return cache[game]
        except KeyError:
            value = cache[game] = work(game)
            return value

    return once


GLOBAL, SEATS, PAIRS = "global", "seats", "pairs"
"""How a piece of a tensor turns round to its observer (:func:`turned`): not at all; a block
per seat; a block per (seat, seat) pair (seats absolute in the shared tensor, counted from the
observer on in each seat's)."""


def turned(players: int, pieces: Sequence[tuple[int, str]]) -> list[npt.NDArray[np.intp]]:
    """Per observer seat, where each entry of its tensor is in a tensor made with the seats
    absolute, for tensors laid out as ``pieces``: (size, ``GLOBAL``, ``SEATS`` or ``PAIRS``) in
    order, a ``SEATS`` piece being ``players`` blocks of ``size // players`` and a ``PAIRS`` piece
    ``players ** 2`` blocks, by owner then other seat. ``shared[turned[seat]]`` is then the
    tensor of ``seat``, seats relative (seat r = the seat r places after it)."""
    import numpy as np

    parts: list[list[npt.NDArray[np.intp]]] = [[] for _ in range(players)]
    at = 0
    for size, turning in pieces:
        for seat in range(players):
            order = [(seat + r) % players for r in range(players)]
            if turning == GLOBAL:
                blocks, width = [0], size
            elif turning == SEATS:
                blocks, width = order, size // players
            else:
                blocks, width = [owner * players + other for owner in order for other in order], size // players**2
            parts[seat] += [at + block * width + np.arange(width) for block in blocks]
        at += size
    return [np.concatenate(part) if part else np.zeros(0, dtype=np.intp) for part in parts]


class Recall(ABC):
    """What a seat's information-state tensor remembers beyond its current view (``Game.recall``,
    written in ``games/<package>/views/infostate.py``): ``size`` numbers in [0, 1], all 0 when a
    game starts, that each step of the game updates from what the seat saw and did alone, so
    that they hold nothing the seat may not know. Fixed size: a summary of the seat's past
    (counts, things seen once), not all of it."""

    size: int

    def glimpse(self, state: State, seat: int) -> Any:
        """What :meth:`remember` is given of ``seat``'s view of ``state`` (as ``before`` and
        ``after``): the view itself, unless a game gives less, read from the state, holding the
        very values of the view that :meth:`remember` reads (and never what the seat may not see)."""
        return state.view(seat)

    @abstractmethod
    def remember(
        self, memory: npt.NDArray[np.float32], seat: int, before: Any, action: Action | None, after: Any
    ) -> None:
        """Update ``memory`` in place for one step of the game: ``before`` and ``after`` are
        ``seat``'s views around the step (their :meth:`glimpse`), ``action`` the seat's own
        action (None when chance or another seat acted)."""


__all__ = ["GLOBAL", "PAIRS", "SEATS", "Recall", "Tensor", "one_hot", "per_game", "ratio", "turned"]
