"""Lessons: a game taught by playing the rulebook's examples, step by step (docs/LESSONS.md).

A lesson is a TOML file in ``games/<id>/content/lessons/``. It starts from a position reached
through the public API (moves from a new game, or a saved record), and each step says what to
look at and what to do, which moves are right, what to say after a right move and after a wrong
one, and which moves follow on their own (forced dice, the other seats) before the next step.

A move in a lesson file is written as a person reads it, by its label (``"roll 4"``, ``"place
black 4 on B1 (energy)"``), or as the action's JSON form (``{kind = "roll", value = 4}``); either
may carry ``by = SEAT`` where several seats decide at once. Labels keep a lesson readable next to
the rulebook, and a rule change that makes a step's move illegal fails the lesson's check with
the step and the moves that are legal there.

:func:`lessons` loads and checks every lesson of a game once: each move is legal where it is
made, each step is the learner's own decision, and every accepted move leaves the rest of the
lesson playable. A :class:`LessonRun` is one learner's way through a lesson; front ends show
its state and hand it the learner's moves.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .actions import Action
from .errors import ContentError, MalformedActionError, OptionsError, RecordError
from .protocol import JSON, Event, Game, State
from .record import Record
from .registry import game_class, load

MAX_LESSON_BYTES = 200_000
"""A lesson file is a page of text and a few hundred moves; anything larger is refused."""


class LessonError(ContentError):
    """A lesson file that cannot be read or does not play: the message names the file and step."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveSpec(_Strict):
    """A move as a lesson file writes it in table form: a ``label`` or the action's JSON fields
    (``kind`` and the rest), and ``by``, the seat that makes it where several decide at once."""

    model_config = ConfigDict(extra="allow", frozen=True)
    label: str | None = None
    by: int | None = None


Move = str | MoveSpec
"""A move of a lesson file: its label, or a table (:class:`MoveSpec`)."""


class StepSpec(_Strict):
    say: str = Field(min_length=1)
    """What to look at and what to do, in the project's own words."""
    do: list[Move] = Field(min_length=1)
    """The right moves; the first is the lesson's own line, the others are accepted too."""
    right: str = Field(min_length=1)
    """Said after a right move."""
    wrong: str = Field(min_length=1)
    """Said after any other move: why it is not the move here, by the rules."""
    mistakes: dict[str, str] = {}
    """Said instead of ``wrong`` after the move with this label."""
    look: list[str] = []
    """The board's parts the step talks about (the names ``Game.action_parts`` gives), lit up."""
    then: list[Move] = []
    """What happens before the next step: forced dice and cards, the other seats' moves."""
    after: str | None = None
    """Said once ``then`` has been played (what the dice did)."""


class NextGame(_Strict):
    """The real game a finished lesson suggests: its seats, options and the bots' level."""

    players: int | None = None
    options: dict[str, Any] = {}
    bots: str = "easy"


class LessonSpec(_Strict):
    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    rulebook: str = Field(min_length=1)
    """The rulebook section (and example) the lesson follows."""
    seat: int = 0
    """The learner's seat."""
    players: int | None = None
    options: dict[str, Any] = {}
    record: str | None = None
    """A saved record (a file beside the lesson) whose final position the lesson starts from."""
    start: list[Move] = []
    """Moves from a new game (or after ``record``) to the lesson's first position."""
    finish: str = Field(min_length=1)
    """Said when the last step is done."""
    next: NextGame = NextGame()
    step: list[StepSpec] = Field(min_length=1)


@dataclass(frozen=True)
class Lesson:
    """A checked lesson of one game (build with :func:`lessons`)."""

    id: str
    """The file's name without ``.toml``: its place in the list (``1-dice``) and its address."""
    game: Game
    spec: LessonSpec
    start_state: State = field(repr=False)
    start_events: tuple[Event, ...] = field(repr=False, default=())

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def steps(self) -> list[StepSpec]:
        return self.spec.step

    def begin(self) -> LessonRun:
        """A new run of the lesson from its first step."""
        return LessonRun(self)

    def summary_json(self) -> dict[str, JSON]:
        spec = self.spec
        return {
            "id": self.id,
            "title": spec.title,
            "summary": spec.summary,
            "rulebook": spec.rulebook,
            "steps": len(spec.step),
            "next": spec.next.model_dump(),
        }


@dataclass(frozen=True)
class Reply:
    """What a lesson says to a move: whether it was right, and the words for it."""

    right: bool
    said: tuple[str, ...]


class LessonRun:
    """One learner's way through a lesson: the state, the step, the events and the right moves so far.

    ``state`` is the true state; front ends show ``state.view(lesson.spec.seat)`` as at any table.
    """

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.state = lesson.start_state.clone()
        self.step_index = 0
        self.events: list[Event] = list(lesson.start_events)
        self.done_moves: list[Action] = []

    @property
    def seat(self) -> int:
        return self.lesson.spec.seat

    @property
    def step(self) -> StepSpec | None:
        """The step the learner is on; None once the lesson is finished."""
        steps = self.lesson.steps
        return steps[self.step_index] if self.step_index < len(steps) else None

    @property
    def finished(self) -> bool:
        return self.step is None

    def right_moves(self) -> list[Action]:
        """The step's accepted moves, the lesson's own line first ([] once finished)."""
        step = self.step
        if step is None:
            return []
        return [_resolve(self.lesson.game, self.state, move, self.seat)[1] for move in step.do]

    def attempt(self, action: Action) -> Reply:
        """Answer the learner's ``action`` (one of the seat's legal actions): a right one is made,
        with the step's ``then``; a wrong one changes nothing and is told why.

        Raises ValueError when the lesson is over or ``action`` is not legal for the learner."""
        step = self.step
        if step is None:
            raise ValueError("the lesson is finished: there is no move to make")
        if action not in self.state.legal_actions(self.seat):
            raise ValueError(f"{action!r:.80} is not one of your moves now")
        if action not in self.right_moves():
            label = self.state.action_label(action)
            return Reply(False, (step.mistakes.get(label, step.wrong),))
        self.events += self.state.apply_action(action, self.seat)
        self.done_moves.append(action)
        for move in step.then:
            actor, follow = _resolve(self.lesson.game, self.state, move, self.seat)
            self.events += self.state.apply_action(follow, actor)
        self.step_index += 1
        said = [step.right, *([step.after] if step.after else [])]
        if self.finished:
            said.append(self.lesson.spec.finish)
        return Reply(True, tuple(said))


class _Unresolved(Exception):
    """A lesson move that names no single legal move here (the message says why)."""


def _resolve(game: Game, state: State, move: Move, learner: int | None) -> tuple[int | None, Action]:
    """The seat that makes ``move`` (None for chance) and the legal action it names."""
    if state.is_terminal():
        raise _Unresolved("the game is over here, so no move can follow")
    spec = MoveSpec(label=move) if isinstance(move, str) else move
    if state.is_chance_node():
        if spec.by is not None:
            raise _Unresolved("chance decides here, so a move cannot name a seat with `by`")
        actor: int | None = None
        candidates = [a for a, _ in state.chance_outcomes()]
    else:
        awaiting = state.awaiting()
        if spec.by is not None:
            if spec.by not in awaiting:
                raise _Unresolved(f"seat {spec.by} has no decision here (awaiting {list(awaiting)})")
            actor = spec.by
        elif len(awaiting) == 1:
            actor = awaiting[0]
        elif learner in awaiting and spec.label is not None:
            actor = learner
        else:
            raise _Unresolved(f"seats {list(awaiting)} decide at once here: say which with `by`")
        candidates = state.legal_actions(actor)
    fields = dict(spec.model_extra or {})
    if spec.label is not None:
        if fields:
            raise _Unresolved(f"a move has a label or action fields, not both: {sorted(fields)}")
        matches = [a for a in candidates if state.action_label(a) == spec.label]
        if not matches:
            raise _Unresolved(_no_such_label(state, spec.label, candidates))
        if len(matches) > 1:
            raise _Unresolved(f"{len(matches)} moves are labelled {spec.label!r}: write the move as its JSON form")
        return actor, matches[0]
    try:
        action = game.actions.from_json(fields)
    except MalformedActionError as exc:
        raise _Unresolved(str(exc)) from None
    if action not in candidates:
        raise _Unresolved(f"{state.action_label(action)!r} is not legal here")
    return actor, action


def _no_such_label(state: State, label: str, candidates: Sequence[Action]) -> str:
    labels = [state.action_label(a) for a in candidates]
    near = difflib.get_close_matches(label, labels, n=4, cutoff=0.4) or labels[:4]
    listed = "; ".join(repr(x) for x in near)
    return f"no legal move is labelled {label!r}; the nearest of the {len(labels)} here: {listed}"


_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,40}")


def lessons_folder(game_id: str) -> Path:
    """Where the game's lesson files are (the folder may not exist: then it has no lessons)."""
    teaching = game_class(game_id).teaching
    if teaching is None:
        raise OptionsError(f"{game_id} has no teaching files, so no lessons")
    return teaching.folder / "content" / "lessons"


@cache
def lessons(game_id: str) -> tuple[Lesson, ...]:
    """Every lesson of ``game_id`` in order of their file names, each checked (LessonError)."""
    folder = lessons_folder(game_id)
    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    return tuple(load_lesson(game_id, path) for path in files)


def find_lesson(game_id: str, lesson_id: str) -> Lesson:
    """The lesson ``lesson_id`` of ``game_id``; OptionsError naming the lessons there are."""
    found = {lesson.id: lesson for lesson in lessons(game_id)}
    if lesson_id not in found:
        have = ", ".join(found) or "none yet"
        raise OptionsError(f"{game_id} has no lesson {lesson_id!r} (its lessons: {have})")
    return found[lesson_id]


def load_lesson(game_id: str, path: Path) -> Lesson:
    """Read, validate and check one lesson file; LessonError names the file and the step."""
    where = f"{path.name}"
    if not _ID.fullmatch(path.stem):
        raise LessonError(f"{where}: a lesson's file name is lower-case letters, digits and dashes")
    try:
        if path.stat().st_size > MAX_LESSON_BYTES:
            raise LessonError(f"{where}: over {MAX_LESSON_BYTES:,} bytes, longer than any lesson")
        spec = LessonSpec.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LessonError(f"{where}: cannot be read: {exc}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        place = ".".join(str(p) for p in error["loc"])
        raise LessonError(f"{where}: {place}: {error['msg']}") from None
    game, state, events = _start(game_id, spec, path, where)
    lesson = Lesson(path.stem, game, spec, state, tuple(events))
    _check_line(lesson, lesson.start_state.clone(), 0, where, branch=True)
    return lesson


def _start(game_id: str, spec: LessonSpec, path: Path, where: str) -> tuple[Game, State, list[Event]]:
    """The game, the lesson's first position and the events on the way there."""
    try:
        if spec.record is not None:
            if spec.players is not None or spec.options:
                raise LessonError(f"{where}: a lesson from a record takes its players and options from it")
            record = Record.loads((path.parent / spec.record).read_bytes())
            if record.game_id != game_id:
                raise LessonError(f"{where}: the record {spec.record} is a game of {record.game_id}")
            game, state = record.game(), record.final_state()
        else:
            game = load(game_id, spec.players, spec.options)
            state = game.new_initial_state()
        load(game_id, spec.next.players, spec.next.options)
    except (OSError, RecordError, OptionsError) as exc:
        raise LessonError(f"{where}: {exc}") from None
    if not 0 <= spec.seat < game.players:
        raise LessonError(f"{where}: seat {spec.seat} is not a seat of a {game.players}-player game")
    events = _play(game, state, spec.start, spec.seat, f"{where}, start")
    return game, state, events


def _play(game: Game, state: State, moves: Sequence[Move], learner: int, where: str) -> list[Event]:
    events: list[Event] = []
    for n, move in enumerate(moves, 1):
        try:
            actor, action = _resolve(game, state, move, learner)
        except _Unresolved as exc:
            raise LessonError(f"{where}, move {n}: {exc}") from None
        events += state.apply_action(action, actor)
    return events


def _check_line(lesson: Lesson, state: State, first: int, where: str, branch: bool) -> None:
    """Play the lesson's line from step ``first`` on ``state`` and, with ``branch``, from every step
    each other accepted move and the rest of the line after it; every move must be legal where it
    is made and every step the learner's (LessonError naming the step)."""
    seat, steps = lesson.spec.seat, lesson.steps
    for index in range(first, len(steps)):
        step, at = steps[index], f"{where}, step {index + 1}"
        if state.is_terminal() or state.is_chance_node() or seat not in state.awaiting():
            raise LessonError(f"{at}: it is not the learner's (seat {seat}) decision here")
        for label in step.mistakes:
            if not any(state.action_label(a) == label for a in state.legal_actions(seat)):
                raise LessonError(f"{at}: mistakes: {_no_such_label(state, label, state.legal_actions(seat))}")
        right: list[Action] = []
        for n, move in enumerate(step.do, 1):
            try:
                mover, action = _resolve(lesson.game, state, move, seat)
            except _Unresolved as exc:
                raise LessonError(f"{at}, do {n}: {exc}") from None
            if mover != seat:
                raise LessonError(f"{at}, do {n}: the move is seat {mover}'s, not the learner's")
            right.append(action)
        if branch:
            for action in right[1:]:
                other = state.clone()
                other.apply_action(action, seat)
                _play(lesson.game, other, step.then, seat, f"{at}, then (after another right move)")
                _check_line(lesson, other, index + 1, f"{at} (another right move)", branch=False)
        state.apply_action(right[0], seat)
        _play(lesson.game, state, step.then, seat, f"{at}, then")


def board_parts(lesson_run: LessonRun) -> list[str]:
    """The board parts the current step lights up: its ``look`` and the right moves' parts."""
    step = lesson_run.step
    if step is None:
        return []
    game = lesson_run.lesson.game
    parts = list(step.look)
    for action in lesson_run.right_moves():
        parts += [p for p in game.action_parts(action) if p not in parts]
    return parts
