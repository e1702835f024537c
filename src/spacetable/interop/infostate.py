"""Information states with perfect recall, for OpenSpiel: what a seat has seen and done.

A seat's information state is the sequence of its observations (its view after every action,
chance outcomes included) and of its own actions. It holds nothing the seat may not see, and
two different pasts of a seat never share one (perfect recall). Rather than a text that grows
with the game, the sequence is hashed step by step (BLAKE2b, 128 bits): the information state
string is ``seat S after N actions: <digest>``.

A :class:`Trail` (the history of a position) is a chain of immutable steps, each holding the engine state it reached (a
clone: cheap by design). A step two back from the newest lets go of its state, unless it starts
the chain, is every :data:`KEPT_EVERY`-th step or is where the next walk of the memories starts
(below), and works it out again if it is asked for (from the nearest step that kept one,
replaying the codes since): a long game keeps few positions
alive, so Python's cyclic garbage collector has little to walk (OpenSpiel's state keeps its
whole past for perfect recall). Copies of a position share their past, and a digest is worked out only
when asked, once per step and seat, for one ``view`` per step. Observation tensors are likewise
worked out when asked, once per step and seat, the part they have in common once per step
(OpenSpiel asks for the initial state's on every ``observation_tensor`` call, to learn its
size, and ``rl_environment`` for every seat's after every step).

The information state tensor is fixed in size: the seat's observation tensor, flat, then the
game's memory of what the seat saw and did that its view no longer shows (``Game.recall``,
``games/<package>/views/infostate.py``), updated step by step from the seat's views around each
step and its own actions, and worked out when asked, as digests are. A game without a recall
(nothing hidden: the view is the whole state) has the observation tensor alone.

The seats' memories are worked out together: asking for one walks every seat's along the steps
since they were last worked out, one glimpse of each seat's view per step (``Recall.glimpse``:
the view, or only what the memory reads of it, read from the state), so a state let go is
replayed once for all of them. The glimpse each walk ends with is kept on the step it reached
(and dropped from the step before), to serve as the next walk's first.

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
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from spacetable.engine import CHANCE, JSON, Game, State
from spacetable.engine.tensor import Recall

from .sequential import apply_code, codes_of, decider, load_game, observation_string, observe


class Trail:
    """A position and how it was reached: the step that made it, and the history before."""

    __slots__ = (
        "_codes",
        "_decider",
        "_digests",
        "_kept",
        "_memories",
        "_seed",
        "_shared",
        "_state",
        "_tensors",
        "_views",
        "code",
        "length",
        "parent",
        "seat",
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
        self._state: State | None = state
        self._kept = parent is None or length % KEPT_EVERY == 0
        """Whether the step keeps its state when it is two back from the newest."""
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

    @property
    def state(self) -> State:
        """The engine state reached; never changed (a step applies to a clone). A state let go
        and asked for again is kept from then on: someone has come back to this position."""
        state = self._state
        if state is None:
            state = self._state = self._replayed()
            self._kept = True
        return state

    def _replayed(self) -> State:
        """The state reached, replayed from the nearest step back that holds one (a chain's
        first step always does); not kept."""
        steps: list[Trail] = []
        node = self
        state = node._state
        while state is None:
            steps.append(node)
            assert node.parent is not None, "the first step of a chain holds its state"
            node = node.parent
            state = node._state
        for step in reversed(steps):
            state = step._after(state)
        return state

    def _after(self, before: State) -> State:
        """The state this step reached, from ``before``, the state of the step before it (not changed)."""
        state = before.clone()
        state.apply_legal(state.game.actions.decode(self.code), None if self.seat == CHANCE else self.seat)
        return state

    def _state_now(self) -> State:
        """The state reached, replayed (not kept) if it was let go."""
        return self._replayed() if self._state is None else self._state

    def _let_go(self) -> None:
        """Drop what can be worked out again from the chain: the state, its legal codes and tensors."""
        self._state = None
        self._codes = None
        self._tensors = {}

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
        """The history after the action ``code`` of whoever acts now (validated: against the legal
        codes when they were asked for here, else by the engine)."""
        state = self.state.clone()
        actor = self.decider()
        codes = self._codes
        if codes is not None and actor >= 0 and code in codes:
            state.apply_legal(state.game.actions.decode(code), actor)
        else:
            apply_code(state, code, actor)
        self._shared = {}  # kept for the newest position only: a tensor asked later works it out again
        before = self.parent
        if before is not None and not before._kept and not before._views:
            before._let_go()
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
        if seat not in self._memories:
            self._remember(recall)
        return self._memories[seat]

    def _remember(self, recall: Recall) -> None:
        """Work out every seat's memory up to here, from the nearest step back that holds them
        (every seat's are worked out together, so the same step for all), or from zeros at the
        first step: one walk of the steps' states for all seats, so a state let go is replayed once."""
        node, chain = self._since(0, "_memories")
        walks: list[_Walk] = []
        for seat in range(self.state.game.players):
            memory = node._memories.get(seat)
            if memory is None:
                memory = node._memories[seat] = _read_only(np.zeros(recall.size, dtype=np.float32))
            if chain:
                before = node._views.pop(seat) if seat in node._views else recall.glimpse(node._state_now(), seat)
                walks.append(_Walk(seat, memory, before))
        for step, state in _with_states(chain):
            for walk in walks:
                walk.step(recall, step, state)
        for walk in walks:
            self._views[walk.seat] = walk.before
        if chain and not node._kept and node is not self.parent:
            node._let_go()  # the next walk starts here, not there

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
            value = node._digests[seat] = _hash(node._seed, "", node._state_now(), seat)
        for step, state in _with_states(chain):
            value = step._digests[seat] = _hash(value, str(step.code) if step.seat == seat else "", state, seat)
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


KEPT_EVERY = 32
"""Every so many actions a step keeps its state: a state let go is replayed from at most this
many actions back."""

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


class _Walk:
    """One seat's memory being worked out step by step (:meth:`Trail._remember`)."""

    __slots__ = ("before", "kept", "memory", "seat", "work")

    def __init__(self, seat: int, memory: npt.NDArray[np.float32], before: Any) -> None:
        self.seat = seat
        self.memory = memory
        self.work = memory.copy()
        self.kept = memory.tobytes()
        self.before = before
        """The seat's glimpse of the last step walked."""

    def step(self, recall: Recall, step: Trail, state: State) -> None:
        """Remember ``step`` (whose state is ``state``) and keep the memory on it."""
        after = recall.glimpse(state, self.seat)
        action = state.game.actions.decode(step.code) if step.seat == self.seat else None
        recall.remember(self.work, self.seat, self.before, action, after)
        now = self.work.tobytes()
        if now != self.kept:  # a new array for the steps from here: the earlier keep theirs
            self.memory, self.kept = _read_only(self.work.copy()), now
        step._memories[self.seat] = self.memory
        self.before = after


def _with_states(chain: list[Trail]) -> Iterator[tuple[Trail, State]]:
    """Each step of ``chain`` (latest first, as :meth:`Trail._since` gives it) oldest first,
    with the state it reached: a state let go is replayed from the one before and not kept."""
    state: State | None = None
    for step in reversed(chain):
        if step._state is not None:
            state = step._state
        elif state is not None:
            state = step._after(state)
        else:
            state = step._replayed()
        yield step, state


def _hash(before: str, action: str, state: State, seat: int) -> str:
    text = f"{before}|{action}|{observation_string(state, seat)}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
