"""The lessons at the web table (docs/WEB.md, "Lessons"): the list, and one lesson's frame.

The lesson API keeps nothing: each request names the lesson and carries the learner's moves from
its start, and the lesson is played again from its first position (lessons are a few steps
long). Every move but the last must be one of its step's right moves; the last may be wrong, and
then the answer says why and shows the position before it, which a wrong move leaves as it was.

A frame holds only what the learner's seat may know, as a table's update does
(:func:`messages.seat_frame`): its view, the board drawn from it, its own moves and the events it
may see, with the lesson's words for the step.
"""

from __future__ import annotations

import logging
from typing import Any

from spacetable.engine import Action, ContentError, Game, MalformedActionError, SpacetableError, game_class, list_games
from spacetable.engine.lessons import Lesson, LessonRun, Reply, board_parts, find_lesson, lessons

from . import messages
from .errors import Refused

log = logging.getLogger("spacetable.server")

Frame = dict[str, Any]


class NoLesson(Exception):
    """An unknown game or lesson; ``str()`` says which, and names the lessons there are."""


def catalogue() -> list[Frame]:
    """Every game with its lessons in order (``summary_json`` each); a game whose lesson files do
    not load is listed without lessons (the error is logged)."""
    return [
        {"game": cls.id, "name": cls.name, "lessons": [x.summary_json() for x in _lessons(cls.id)]}
        for cls in list_games()
    ]


def _lessons(game_id: str) -> tuple[Lesson, ...]:
    try:
        return lessons(game_id)
    except ContentError:
        log.exception("the lessons of %s do not load", game_id)
        return ()
    except SpacetableError:  # a game without teaching files has no lessons
        return ()


def first_lesson(game_id: str) -> Lesson | None:
    """The game's first lesson (its file name sorts first), or None where it has none."""
    found = _lessons(game_id)
    return found[0] if found else None


def lesson(game_id: str, lesson_id: str) -> Lesson:
    """The lesson ``lesson_id`` of ``game_id``; NoLesson naming the games or lessons there are."""
    try:
        game_class(game_id)
    except SpacetableError as exc:
        raise NoLesson(str(exc)) from None
    try:
        return find_lesson(game_id, lesson_id)
    except ContentError as exc:
        log.error("the lessons of %s do not load: %s", game_id, exc)
        raise NoLesson(f"the lessons of {game_id} cannot be loaded now") from None
    except SpacetableError as exc:
        raise NoLesson(str(exc)) from None


def moves_of(body: object, lesson: Lesson) -> list[dict[str, Any]]:
    """The moves of a request body ``{"moves": [ACTION_JSON, ...]}``; Refused says what is wrong."""
    if not isinstance(body, dict) or set(body) != {"moves"} or not isinstance(body["moves"], list):
        raise Refused('the request must be a JSON object {"moves": [action JSON, ...]}')
    moves: list[Any] = body["moves"]
    steps = len(lesson.steps)
    if len(moves) > steps:
        raise Refused(f"{len(moves)} moves for a lesson of {steps} steps: at most one move a step")
    for k, move in enumerate(moves, 1):
        if not isinstance(move, dict):
            raise Refused(f"move {k} must be an action's JSON object (as the frame's actions give it)")
    return moves


def play(lesson: Lesson, moves: list[dict[str, Any]]) -> tuple[LessonRun, Reply | None]:
    """The lesson with ``moves`` made from its start, and the reply to the last one (None for no
    move). Refused for a move that is not an action, not legal, or wrong and not the last."""
    run = lesson.begin()
    reply = None
    for k, data in enumerate(moves, 1):
        try:
            action = lesson.game.actions.from_json(data)
        except MalformedActionError as exc:
            raise Refused(f"move {k}: {exc}") from None
        if run.finished:
            raise Refused(f"move {k}: the lesson is finished, there is no move to make")
        if action not in run.state.legal_actions(run.seat):
            raise Refused(f"move {k} is not one of your moves at step {run.step_index + 1}")
        reply = run.attempt(action)
        if not reply.right and k < len(moves):
            raise Refused(f"move {k} is not a right move of step {run.step_index + 1}; only the last move may be wrong")
    return run, reply


def frame(run: LessonRun, reply: Reply | None) -> Frame:
    """What the learner is shown (docs/WEB.md, "Lessons"): the position as their seat knows it,
    the step's words and the parts it lights up, and the words for the last move."""
    lesson, seat, step = run.lesson, run.seat, run.step
    game = lesson.game
    steps = len(lesson.steps)
    own: list[Action] | None = [] if run.finished else None  # a finished lesson offers no more moves
    return {
        "type": "lesson",
        "n": len(run.done_moves),
        "game": {"id": game.id, "name": game.name, "players": game.players, "options": game.options},
        "seat": seat,
        "lesson": lesson.summary_json(),
        "step": min(run.step_index + 1, steps),
        "steps": steps,
        "say": None if step is None else step.say,
        "look": board_parts(run),
        "said": [] if reply is None else list(reply.said),
        "right": None if reply is None else reply.right,
        "finished": run.finished,
        "next": _next(lesson),
        "glossary": game.glossary(),
        **messages.seat_frame(game, run.state, seat, enumerate(run.events, 1), 0, own),
    }


def _next(lesson: Lesson) -> Frame:
    """After the lesson: the next lesson of its game (or None), and the real game it suggests as
    the body of ``POST /api/tables`` (the learner in seat 1, bots at its level in the others)."""
    found = _lessons(lesson.game.id)
    ids = [x.id for x in found]
    after = ids.index(lesson.id) + 1 if lesson.id in ids else len(ids)
    suggested = lesson.spec.next
    game: Game = lesson.game
    players = suggested.players or type(game).usual_players(suggested.options)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": suggested.bots}] * (players - 1)
    return {
        "lesson": found[after].summary_json() if after < len(found) else None,
        "table": {"game": game.id, "players": players, "options": dict(suggested.options), "seats": seats},
    }
