"""Information states with perfect recall, for OpenSpiel: what a seat has seen and done.

A seat's information state is the sequence of its observations (its view after every action,
chance outcomes included) and of its own actions. It holds nothing the seat may not see, and
two different pasts of a seat never share one (perfect recall). Rather than a text that grows
with the game, the sequence is hashed step by step (BLAKE2b, 128 bits): the information state
string is ``seat S after N actions: <digest>``.

A :class:`Trail` (the history of a position) is a chain of immutable steps, each holding the engine state it reached (a
clone: cheap by design). Copies of a position share their past, and a digest is worked out only
when asked, once per step and seat, for one ``view`` per step. Observation tensors are likewise
worked out when asked, once per step and seat, the part they have in common once per step
(OpenSpiel asks for the initial state's on every ``observation_tensor`` call, to learn its
size, and ``rl_environment`` for every seat's after every step).

The information state tensor is fixed in size: the seat's observation tensor, flat, then the
game's memory of what the seat saw and did that its view no longer shows (``Game.recall``,
``games/<package>/views/infostate.py``), updated step by step from the seat's views around each
step and its own actions, and worked out when asked, as digests are. A game without a recall
(nothing hidden: the view is the whole state) has the observation tensor alone.

A seat's memory walks the steps since it was last worked out, one glimpse of the seat's view
per step (``Recall.glimpse``: the view, or only what the memory reads of it, read from the
state): the glimpse it ends with is kept on the step it reached (and dropped from the step
before), to serve as the next walk's first.

Resampling starts a new chain at a state re-dealt by ``state.resample(seat)``. The resampled
seat keeps its digest and memory, so its information state is unchanged. The other seats'
pasts in the re-dealt world are unknown: their digests start again from their view of it
(seeded with the resampled seat's digest), so ISMCTS groups the worlds in which an opponent
sees the same, and their memories start empty.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any

import numpy as np
import numpy.typing as npt

from spacetable.engine import CHANCE, JSON, Game, State

from .sequential import apply_code, codes_of, decider, load_game, observation_string, observe


class Trail:
    """A position and how it was reached: the step that made it, and the history before."""

    __slots__ = (
        "_codes",
        "_decider",
        "_digests",
        "_memories",
        "_seed",
        "_shared",
        "_tensors",
        "_views",
        "code",
        "length",
        "parent",
        "seat",
        "state",
    )

    def __init__(
        self,
        state: State,
        parent: Trail | None = None,
        seat: int = CHANCE,
        code: int = -1,
        length: int = 0,
        seed: str = "",
    ) -> None:
        self.state = state
        """The engine state reached; never changed (a step applies to a clone)."""
        self.parent = parent
        self.seat = seat
        """Who took the step that reached ``state`` (CHANCE for an outcome or a start)."""
        self.code = code
        self.length = length
        """Actions since the start of the game."""
        self._seed = seed
        self._digests: dict[int, str] = {}
        self._tensors: dict[int, npt.NDArray[np.float32]] = {}
        self._memories: dict[int, npt.NDArray[np.float32]] = {}
        self._shared: dict[str, Any] = {}
        """What the seats' tensors of ``state`` have in common (``Game.observation_tensor_shared``)."""
        self._decider: int | None = None
        self._codes: list[int] | None = None
        self._views: dict[int, JSON] = {}
        """Each seat's glimpse of ``state`` where its memory's last walk ended (see the module)."""

    def decider(self) -> int:
        """Who acts at ``state`` (``sequential.decider``), worked out once."""
        if self._decider is None:
            self._decider = decider(self.state)
        return self._decider

    def legal_codes(self, seat: int) -> list[int]:
        """``seat``'s legal codes at ``state``, ascending ([] unless it decides now), worked out
        once (do not change the list)."""
        if self.decider() != seat:
            return []
        if self._codes is None:
            self._codes = codes_of(self.state, seat)
        return self._codes

    def then(self, code: int) -> Trail:
        """The history after the action ``code`` of whoever acts now (validated)."""
        state = self.state.clone()
        actor = apply_code(state, code, self.decider())
        self._shared = {}  # kept for the newest position only: a tensor asked later works it out again
        return Trail(state, self, actor, code, self.length + 1)

    def tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation tensor of ``state`` for ``seat`` (a read-only array, shared)."""
        tensor = self._tensors.get(seat)
        if tensor is None:
            tensor = self._tensors[seat] = observe(self.state, seat, self._shared)
            tensor.flags.writeable = False
        return tensor

    def information_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s information state tensor: its observation tensor, flat, then its memory."""
        return np.concatenate((self.tensor(seat).ravel(), self.memory(seat)))

    def memory(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s memory (``Game.recall``) of its past up to here (a read-only array, shared)."""
        recall = self.state.game.recall()
        if recall is None:
            return _NOTHING
        node, chain = self._since(seat, "_memories")
        memory = node._memories.get(seat)
        if memory is None:
            memory = node._memories[seat] = _read_only(np.zeros(recall.size, dtype=np.float32))
        if chain:
            before = node._views.pop(seat) if seat in node._views else recall.glimpse(node.state, seat)
            work, kept = memory.copy(), memory.tobytes()
            for step in reversed(chain):
                after = recall.glimpse(step.state, seat)
                action = step.state.game.actions.decode(step.code) if step.seat == seat else None
                recall.remember(work, seat, before, action, after)
                now = work.tobytes()
                if now != kept:  # a new array for the steps from here: the earlier keep theirs
                    memory, kept = _read_only(work.copy()), now
                step._memories[seat] = memory
                before = after
            self._views[seat] = before
        return memory

    def _since(self, seat: int, cache: str) -> tuple[Trail, list[Trail]]:
        """The nearest step back (this one included) whose ``cache`` (``_digests``,
        ``_memories``) holds ``seat``'s value, or the first step; and the steps after it up to
        this one, latest first, whose values are still to work out."""
        chain: list[Trail] = []
        node = self
        while seat not in getattr(node, cache) and node.parent is not None:
            chain.append(node)
            node = node.parent
        return node, chain

    def information_state(self, seat: int) -> str:
        return f"seat {seat} after {self.length} actions: {self.digest(seat)}"

    def digest(self, seat: int) -> str:
        """The hash of ``seat``'s observations and own actions up to here."""
        node, chain = self._since(seat, "_digests")
        value = node._digests.get(seat)
        if value is None:
            value = node._digests[seat] = _hash(node._seed, "", node.state, seat)
        for step in reversed(chain):
            value = step._digests[seat] = _hash(value, str(step.code) if step.seat == seat else "", step.state, seat)
        return value

    def resampled(self, seat: int, rng: random.Random) -> Trail:
        """A new history at ``state.resample(seat, rng)`` in which ``seat``'s information state is this one."""
        mine = self.digest(seat)
        start = Trail(self.state.resample(seat, rng), length=self.length, seed=mine)
        start._digests[seat] = mine
        start._memories[seat] = self.memory(seat)
        return start

    def __deepcopy__(self, memo: dict[int, Any]) -> Trail:
        return self  # immutable: OpenSpiel's clone shares it

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialization) as :meth:`to_text`: no history to replay."""
        return (from_text, (self.to_text(),))

    def to_text(self) -> str:
        """This position as JSON text: the game, the engine state's JSON, and every seat's
        digest and memory (worked out now if they were not), with :data:`FORMAT` and
        :data:`VERSION`. :func:`from_text` reads it back as a trail with no past."""
        game = self.state.game
        seats = range(game.players)
        data = {
            "format": FORMAT,
            "version": VERSION,
            "game": [game.id, game.players, game.options],
            "state": self.state.to_json(),
            "length": self.length,
            "digests": [self.digest(seat) for seat in seats],
            "memories": [self.memory(seat).tolist() for seat in seats],
        }
        return json.dumps(data, separators=(",", ":"))


FORMAT = "spacetable trail"
VERSION = 1
"""The version of :meth:`Trail.to_text`'s layout; :func:`from_text` reads this one only."""


def from_text(text: str) -> Trail:
    """The trail :meth:`Trail.to_text` wrote (its information states and tensors the same);
    ValueError, one line, for any other text or another version."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise ValueError(f"not a serialized spacetable state (JSON from Trail.to_text): {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a serialized spacetable state: no format {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(
            f"a serialized spacetable state of version {data.get('version')!r}: this spacetable reads {VERSION}"
        )
    try:
        game_id, players, options = data["game"]
        game = load_game(game_id, players, options)
        node = Trail(game.state_from_json(data["state"]), length=int(data["length"]))
        node._digests.update(enumerate(data["digests"]))
        for seat, memory in enumerate(data["memories"]):
            node._memories[seat] = _read_only(np.array(memory, dtype=np.float32))
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"a serialized spacetable state that does not load: {error!r}") from None
    return node


def information_shape(game: Game) -> tuple[int]:
    """The shape of :meth:`Trail.information_tensor` in ``game``."""
    recall = game.recall()
    return (math.prod(game.observation_shape()) + (0 if recall is None else recall.size),)


def _read_only(array: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    array.flags.writeable = False
    return array


_NOTHING = _read_only(np.zeros(0, dtype=np.float32))
"""The memory of a game without a recall."""


def _hash(before: str, action: str, state: State, seat: int) -> str:
    text = f"{before}|{action}|{observation_string(state, seat)}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
