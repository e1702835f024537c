"""The game protocol every front end drives: one way in (``apply_action``), one way out.

Names follow OpenSpiel where they fit. A game subclasses :class:`Game` and
:class:`State`; the base classes hold the parts that are the same for every
game (validation before apply, the legal-action cache, chance sampling).
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, NoReturn, SupportsIndex

from .actions import Action, ActionSpace
from .errors import IllegalActionError, OptionsError
from .options import OptionSpec, Requires, check_options
from .references import Teaching

if TYPE_CHECKING:
    from .match import Player
    from .tensor import Recall, Tensor

CHANCE = -1
"""``current_player()`` of a state where chance acts (a roll, a shuffle, a blind draw)."""
SIMULTANEOUS = -2
"""``current_player()`` where several seats owe a decision at once: see ``awaiting()``."""
TERMINAL = -4
"""``current_player()`` of a finished game."""

JSON = Any
"""A value made only of dict, list, str, int, float, bool and None."""


class Event(NamedTuple):
    """Something that happened, in words, with who may see it (``to=None``: everyone)."""

    kind: str
    text: str
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True)
class Outcome:
    """A finished game in words: who won, the places, the scores and why it ended.

    ``scores`` are the game's own measure of how well each seat did (points,
    or in a solo game its progress), for reports; ``returns()`` is what bots maximise.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] = ()
    ranks: tuple[int, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": list(self.scores),
            "ranks": list(self.ranks),
        }


class ActionList(list[Action]):
    """What ``legal_actions`` returns: a list that refuses to change.

    The list is cached in the state until its next apply, shared with its clones and
    resamples (a search clones a position and asks for its actions thousands of times),
    and ``apply_action`` validates against it. A caller that could append to it would
    make an illegal action legal in the real game; so every mutating method raises
    TypeError, and ``list(actions)`` gives a copy to change. Built once per computed
    list (about 0.1 µs), never per call.
    """

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(
            "legal actions are shared by the state and its clones and cannot be changed; copy them with list(...)"
        )

    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = _refuse

    def __iadd__(self, other: object) -> NoReturn:  # type: ignore[misc]
        self._refuse()

    def __imul__(self, other: SupportsIndex) -> NoReturn:
        self._refuse()

    def __reduce__(self) -> tuple[type[ActionList], tuple[list[Action]]]:
        return (ActionList, (list(self),))  # copy, deepcopy and pickle without calling append


NO_ACTIONS = ActionList()


def check_seat(seat: object, players: int) -> int:
    """``seat`` if it is an exact int in ``range(players)``; else IllegalActionError.

    ``True`` and ``0.0`` compare equal to seats 1 and 0 and would slip through an ``in``
    test, so the type is checked exactly, as action fields are.
    """
    if type(seat) is not int:
        raise IllegalActionError(
            f"a seat is an int index from 0 to {players - 1} (seats 1 to {players} as people count them), "
            f"not {seat!r} ({type(seat).__name__})"
        )
    if not 0 <= seat < players:
        raise IllegalActionError(
            f"there is no seat {seat}: seats are indices 0 to {players - 1} here "
            f"(seats 1 to {players} as people count them)"
        )
    return seat


def seat_words(seats: Iterable[int]) -> str:
    """Seats as people read them, counted from 1: "seat 2", "seats 1 and 3", "seats 1, 2 and 4"."""
    numbers = [str(seat + 1) for seat in seats]
    if len(numbers) <= 1:
        return f"seat {numbers[0]}" if numbers else "no seat"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


_NO_TENSOR = "{game} has no observation tensor yet: see docs/INTEROP.md, 'Observation tensors'"


class Statistic(NamedTuple):
    """One figure a finished game adds to a batch report: a batch shows sum(value) / sum(weight),
    as a percentage when ``percent``. (A count per game: weight 1; a rate: weight = the cases.)"""

    value: float
    weight: float
    percent: bool = False
    headline: bool = False
    """A headline figure (a total, a rate over the whole game) is compared in the report's small
    family of main figures; the rest (one per card, per option...) in the family of details."""


class Game(ABC):
    """A game with its player count and options fixed. Immutable once built."""

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str]
    min_players: ClassVar[int]
    default_players: ClassVar[int | None] = None
    """Seats when nobody says (``load`` without ``players``); None: ``min_players``."""
    value_scale: ClassVar[float] = 10.0
    """How far apart two ``evaluate`` values are when one position is clearly better (about
    three to one odds); search turns evaluations into win chances with it."""
    max_players: ClassVar[int]
    hidden_information: ClassVar[bool] = False
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {}
    returns_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    """The least and the most any seat's ``returns()`` can be (OpenSpiel's utility bounds)."""
    teaching: ClassVar[Teaching | None] = None
    """The game's 'How to play' page, rulings and event references, kept beside its rules."""
    finite_options: ClassVar[Mapping[str, JSON]] = {}
    """Options that make every game end (a round limit, ships that burn), for the machines that
    need a bound: ``load_finite`` lays them under the options given. Empty where the rulebook's
    game always ends. They are house rules: people's tables leave them out."""
    returns_sum: ClassVar[float | None] = None
    """What the seats' ``returns()`` add up to in every finished game, if that never changes
    (a constant-sum game); None where the sum varies."""

    actions: ActionSpace
    """All action families (chance outcomes included) and the integer codec."""
    max_length: int | None
    """No game lasts more actions than this, chance outcomes included; None where a game with
    these options need not end (the rulebook's, without a round limit): ``load_finite`` gives
    a bounded one."""

    def __init__(self, players: int, options: Mapping[str, JSON] | None = None) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            span = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            noun = "player" if self.max_players == 1 else "players"
            raise OptionsError(f"{self.id} is played by {span} {noun}, not {players!r}")
        self.players = players
        self.options = self._check_options(dict(options or {}))

    def _check_options(self, given: dict[str, JSON]) -> dict[str, JSON]:
        return check_options(self.id, self.players, self.option_specs, given)

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first action. Set-up randomness is chance nodes, so no seed."""

    @abstractmethod
    def state_from_json(self, data: JSON) -> State:
        """Inverse of ``State.to_json``; raises ValueError on data that is not such a state."""

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic value of ``state`` for ``seat`` (higher is better), for bots.

        The default knows only finished games; games override it with what a
        player would look at.
        """
        return state.returns()[seat] if state.is_terminal() else 0.0

    def quick_values(self, state: State, seat: int, actions: Sequence[Action]) -> list[float | None] | None:
        """``evaluate(child, seat)`` for each child of ``state`` that ``seat`` reaches by one of
        ``actions`` (its legal actions), where the game can tell it from ``state`` without playing
        the action (within rounding); None for the others, or None for all. A one-ply bot plays
        out only the actions left None. The default tells none."""
        return None

    def progress(self, state: State, seat: int) -> float | None:
        """How far ``seat`` has come by the game's own measure (research reached, hull left,
        points), a number in [0, 1], for the shaped rewards of ``spacetable.interop``
        (docs/INTEROP.md). Worked out only from what ``view(seat)`` shows, so a resample of the
        seat gives the same value. None where the game has no such measure."""
        return None

    def planner(self) -> Player | None:
        """A new instance of the game's own planning bot (``bot:planner``), or None when the game
        has none (the search bot plays instead)."""
        return None

    def statistics(self, state: State, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
        """Figures of a finished game for designers' batch reports (e.g. cards played, win rate
        by strategy), by name. ``moves`` are the game's record rows (the seat that acted, or None
        for chance, and the action's JSON form) when the caller kept them, for figures per seat.
        Default: none."""
        return {}

    def first_player(self, state: State, moves: Sequence[tuple[int | None, JSON]]) -> int | None:
        """The seat that took the first turn of a finished game, from its record rows ``moves``
        (None in a one-player game). Default: the first seat that acted after the chance moves of
        the set-up; a game whose set-up has seats act before the first turn says otherwise."""
        if self.players < 2:
            return None
        return next((seat for seat, _ in moves if seat is not None), None)

    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor`, fixed by the players and options.

        Games implement the pair in ``games/<package>/views/tensor.py`` (layout in docs/INTEROP.md).
        """
        raise NotImplementedError(_NO_TENSOR.format(game=self.id))

    def observation_planes(self) -> tuple[int, tuple[int, int, int]] | None:
        """Where the game is a grid: the part of :meth:`observation_tensor` that is image planes,
        as ``(offset, (channels, rows, columns))``: entries ``offset`` to ``offset + channels *
        rows * columns`` of the flat tensor, row-major. None (the default): no such part."""
        return None

    def observation_tensor(self, state: State, seat: int) -> Tensor:
        """``state.view(seat)`` as numbers: a flat list (or numpy array) of
        ``prod(observation_shape())`` floats, each in [0, 1], worked out from the view alone so
        that it can hold nothing the seat may not know. The same tensor serves OpenSpiel, PettingZoo and Gymnasium."""
        raise NotImplementedError(_NO_TENSOR.format(game=self.id))

    def observation_tensor_shared(self, state: State, seat: int, shared: dict[str, Any]) -> Tensor:
        """:meth:`observation_tensor`, the same numbers, for callers that ask several seats'
        tensors of one state: ``shared`` is a dict the caller keeps with the state while it
        stays unchanged (a new one after any change), where the game may keep the part every
        seat's tensor has in common (the public part), worked out once. Nothing of a seat's
        own view may go into it. Default: nothing is shared."""
        return self.observation_tensor(state, seat)

    def recall(self) -> Recall | None:
        """What a seat's information-state tensor keeps beyond :meth:`observation_tensor`: its
        memory of what the view no longer shows (``engine.tensor.Recall``). None (the default):
        nothing, as where the view is the whole state (no hidden information)."""
        return None

    # ---- presentation (front ends draw only from these and view(seat)) ----
    def board_svg(self, view: JSON, seat: int | None) -> str | None:
        """The board of ``view`` (what ``seat`` may know) as one SVG element, or None where the game
        draws no board (front ends then show the view as data). Drawn from the view alone, so it
        can hold nothing the seat may not know. Elements a player can click carry
        ``data-part="<id>"`` with the ids that :meth:`action_parts` uses, and a ``<title>`` with
        their text from the content data. A board may instead be a split (``svg.split``): the grid's
        ``<svg>`` and HTML side panels, for a board whose panels are text more than drawing."""
        return None

    def guide(self, view: JSON, seat: int | None, actions: Sequence[Action] = ()) -> str | None:
        """One line for ``seat`` (None: a spectator) at ``view``, where ``actions`` are its legal moves
        (none unless it owes a decision): what is happening and what the seat may do now, in the
        rulebook's words; None where the game has none (the table then says only whose move it
        is). Drawn from what the seat may know alone, as the board is."""
        return None

    def seat_names(self, view: JSON | None = None) -> list[str]:
        """What the table calls each seat, as its board and log do ("Player 2", a colour, a
        captain's name), one name per seat used everywhere a person reads; ``view`` (any seat's, or
        None before a game) may name them where the game names seats as it goes."""
        return [f"Player {seat + 1}" for seat in range(self.players)]

    def explain_outcome(self, view: JSON, outcome: Outcome, seat: int | None) -> str:
        """The end screen's words for ``seat`` (None: a spectator) at the final ``view``: who won,
        how, and what the scores mean, in a sentence or three. Default: the outcome's reason."""
        return outcome.reason

    def action_parts(self, action: Action) -> tuple[str, ...]:
        """The board elements an action involves, as ``data-part`` ids: the piece first, then the
        place it goes (a click on the piece highlights the places, a click on a place sends the
        action). Empty where the action has no place on the board (it stays in the action list)."""
        return ()

    def glossary(self) -> dict[str, str]:
        """Words a table shows and what they mean (cards, rooms, symbols, units), from the content
        data, so a designer's override explains itself. Default: none."""
        return {}

    def how_to_play(self) -> str | None:
        """A page teaching the game in the project's own words, as an HTML fragment (headings,
        paragraphs, lists; no scripts), or None. From ``teaching``."""
        return None if self.teaching is None else self.teaching.how_to_play()

    def rulings(self) -> str | None:
        """The game's rulings as Markdown (its RULINGS.md: numbered rulings, "N. **Title.** text",
        under '## chapter' headings), or None. From ``teaching``."""
        return None if self.teaching is None else self.teaching.rulings()

    def rule_of(self, kind: str) -> str | None:
        """Where the rules say what an event of this kind does, in a few words naming the rulebook
        section and the numbered rulings ("Rulebook: Combat · Rulings 14, 15"), or None."""
        return None if self.teaching is None else self.teaching.rule_of(kind)

    @classmethod
    def usual_players(cls, options: Mapping[str, JSON] | None = None) -> int:
        """The number of seats used when none is given (``options`` may decide it, e.g. a solo mode)."""
        return cls.default_players or cls.min_players

    def bounded_length(self) -> int:
        """``max_length`` for the machines that need games to end; a clear error where these
        options let a game go on for ever (load the game with ``load_finite``)."""
        if self.max_length is None:
            raise OptionsError(
                f"{self.id} with these options need not end: load it with load_finite "
                f"or set {', '.join(f'{k}={v!r}' for k, v in self.finite_options.items())}"
            )
        return self.max_length

    def describe(self) -> str:
        return f"{self.name} ({self.players} player{'s' if self.players != 1 else ''})"


class State(ABC):
    """One position of one game. Plain data: cheap to clone and to turn into JSON.

    Subclasses implement the ``_`` methods; the public ones validate first.
    """

    __slots__ = ("_legal_cache",)
    game: Game
    _legal_cache: tuple[int, ActionList, tuple[Action, ...]] | None
    """(seat, its legal actions, the same as a tuple) until the next apply; games set it to None in
    ``__init__``. Immutable, so clones and resamples may share it. ``apply_action`` validates
    against the tuple: even ``list.append(actions, x)``, which no override of the list can stop,
    makes nothing legal."""

    # ---- whose turn -------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """A seat index, CHANCE, SIMULTANEOUS or TERMINAL."""

    def awaiting(self) -> tuple[int, ...]:
        """The seats that owe a decision now (empty at chance and terminal states)."""
        p = self.current_player()
        return (p,) if p >= 0 else ()

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # ---- actions ----------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions ``seat`` may take now; default: the one seat to act, or chance.

        A seat that owes no decision (any other int, a seat number that does not exist
        included) gets ``[]``; a seat that is not an exact int (``True``, ``0.0``) raises
        IllegalActionError. The answer is an
        :class:`ActionList`, cached until the next apply and shared with clones:
        it refuses to change (copy it with ``list(...)``).
        """
        if seat is not None and type(seat) is not int:
            check_seat(seat, self.game.players)  # raises
        actor = self.current_player()
        if actor == TERMINAL:
            return NO_ACTIONS
        if actor == SIMULTANEOUS:
            if seat is None:
                raise IllegalActionError(f"{seat_words(self.awaiting())} act at once: name the seat")
            if seat not in self.awaiting():
                return NO_ACTIONS
            actor = seat
        elif seat is not None and (seat != actor or seat < 0):  # -1 is CHANCE's number, not a seat
            return NO_ACTIONS
        return self._legal(actor)

    def _legal(self, actor: int) -> ActionList:
        """The cached legal actions of ``actor``, who must be the one to act (or CHANCE)."""
        return self._legal_entry(actor)[1]

    def _legal_entry(self, actor: int) -> tuple[int, ActionList, tuple[Action, ...]]:
        cached = self._legal_cache
        if cached is None or cached[0] != actor:
            frozen = tuple(self._legal_actions(actor))
            cached = self._legal_cache = (actor, ActionList(frozen), frozen)
        return cached

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, every outcome with its probability (they sum to 1)."""
        if not self.is_chance_node():
            raise IllegalActionError("not a chance node: nobody is rolling or drawing now")
        return self._chance_outcomes()

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one chance outcome with its probability."""
        outcomes = self.chance_outcomes()
        r = rng.random()
        for action, p in outcomes:
            r -= p
            if r < 0:
                return action
        return outcomes[-1][0]

    def apply_action(self, action: Action, seat: int | None = None) -> list[Event]:
        """Validate, then apply. An illegal or malformed action raises and changes nothing.

        ``seat`` names who acts where several seats are awaited; elsewhere it may
        be omitted, and if given must be the seat to act: an exact int (``True`` and
        ``0.0`` are refused with IllegalActionError). Drivers that know who acted (a
        record's replay, a server) pass the seat, or None at a chance node.
        """
        if self.is_terminal():
            raise IllegalActionError("the game is over: no action can be applied")
        actor = self._actor(seat)
        self.game.actions.check(action)  # exact types: Roll(True) == Roll(1) as tuples
        if action not in self._legal_entry(actor)[2]:
            raise IllegalActionError(
                f"{self.action_label(action)} is not legal now ({self._why_illegal(action, actor)})"
            )
        self._legal_cache = None
        return self._apply(action, actor)

    def apply_legal(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply an action just taken from ``legal_actions(seat)`` (or ``chance_outcomes()``)
        without validating it again: the fast path for search, which applies thousands of
        actions it generated itself. Anything else must go through :meth:`apply_action`;
        an action that is not legal here leaves the state corrupt."""
        actor = self.current_player() if seat is None else seat
        self._legal_cache = None
        return self._apply(action, actor)

    def _actor(self, seat: int | None) -> int:
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.game.players):
            check_seat(seat, self.game.players)  # raises
        p = self.current_player()
        if p == SIMULTANEOUS:
            if seat is None:
                raise IllegalActionError(f"{seat_words(self.awaiting())} act at once: name the seat")
            if seat not in self.awaiting():
                raise IllegalActionError(
                    f"seat {seat + 1} owes no decision now; waiting for {seat_words(self.awaiting())}"
                )
            return seat
        if seat is not None and seat != p:
            who = "chance acts now" if p == CHANCE else f"it is seat {p + 1}'s decision"
            raise IllegalActionError(f"seat {seat + 1} owes no decision now: {who}")
        return p

    def _why_illegal(self, action: Action, actor: int) -> str:
        """A short reason an action is refused; games override for better words."""
        return f"{len(self._legal(actor))} other actions are legal"

    def action_label(self, action: Action) -> str:
        """A human label for an action of this game."""
        return repr(action)

    def action_note(self, action: Action) -> str | None:
        """What ``action`` risks or promises, in words, from what the acting seat may know (a
        fight's odds, say); None where there is nothing to say. Asked only for the acting seat's
        legal actions."""
        return None

    warning_chance: float = 0.5
    """A move that loses the game (or the mover's place in it) with at least this chance is warned
    of before it is sent (``action_warning``)."""

    def action_warning(self, action: Action) -> str | None:
        """Why ``action`` loses, in words, where by the rules it leads to the acting seat's
        elimination or immediate loss, for certain or with at least ``warning_chance`` (from the
        dice where the game can count them, else a short bounded look-ahead); None for a move
        that does not. From what the acting seat may know; asked only for its legal actions. The
        table asks to confirm a warned move and shows why."""
        return None

    # ---- results ----------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """One number per seat; final at terminal states, 0 before."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The readable result, or None while the game goes on."""

    # ---- information ------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """Everything ``seat`` may know, as JSON (``None``: a spectator)."""

    @abstractmethod
    def resample(self, seat: int, rng: random.Random) -> State:
        """A full state that agrees with ``view(seat)``, all hidden from the seat re-dealt."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The whole state as JSON; ``game.state_from_json`` round-trips it exactly."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy; cheap (plain data)."""

    def digest(self) -> str:
        """A short fingerprint of the whole state, for records and replays."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # ---- to implement -----------------------------------------------------
    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of ``seat`` (CHANCE: the chance outcomes' actions)."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[Action, float]]: ...

    @abstractmethod
    def _apply(self, action: Action, seat: int) -> list[Event]:
        """Apply a validated action; return the events it caused."""


def check_json_keys(data: JSON, keys: AbstractSet[str], what: str) -> dict[str, JSON]:
    """Check that ``data`` is a dict with exactly ``keys``; used by ``state_from_json``."""
    if not isinstance(data, dict):
        raise ValueError(f"{what}: expected a JSON object, got {type(data).__name__}")
    if set(data) != keys:
        missing, extra = sorted(keys - set(data)), sorted(set(data) - keys)
        raise ValueError(f"{what}: missing keys {missing}, unexpected keys {extra}")
    return data


__all__ = [
    "CHANCE",
    "JSON",
    "NO_ACTIONS",
    "SIMULTANEOUS",
    "TERMINAL",
    "ActionList",
    "Event",
    "Game",
    "OptionSpec",
    "Outcome",
    "Requires",
    "State",
    "Statistic",
    "check_json_keys",
    "check_seat",
    "seat_words",
]
