"""Lessons teach by playing (issue 36): every lesson of every game is played to its end through the
engine, with a wrong move tried at each step; a lesson the rules no longer allow fails its check
naming the step and the moves that are legal there."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from spacetable.cli.learn import play_command_line
from spacetable.cli.main import app
from spacetable.cli.terminal import TerminalPlayer, find_grouper, find_renderer
from spacetable.engine import Action, Record, Roll, game_class, list_games
from spacetable.engine.content import read_toml
from spacetable.engine.errors import OptionsError
from spacetable.engine.lessons import Lesson, LessonError, LessonRun, find_lesson, lessons, lessons_folder, load_lesson

GAMES = [cls.id for cls in list_games()]
ALL_LESSONS = [(game_id, path.stem) for game_id in GAMES for path in sorted(lessons_folder(game_id).glob("*.toml"))]
"""Every lesson file (by name, so that one that fails its check fails its own test, with its reason)."""


MOTHERSHIP_CHAPTERS = {
    "exploration": True,
    "random_event": True,
    "neutron_stars": True,
    "black_holes": True,
    "beacons": True,
    "objectives": "hidden",
    "mode": ("victory_points", "solo"),
    "team_size": 2,
}
"""Mothership's expansion modules and modes, each with a lesson that turns it on."""


def base_lessons(game_id: str) -> list[Lesson]:
    """The lessons of the base game: Mothership's with none of its modules or modes on."""
    specs = game_class(game_id).option_specs
    return [
        lesson
        for lesson in lessons(game_id)
        if game_id != "mothership"
        or all(lesson.game.options[key] in (specs[key].default, "standard") for key in MOTHERSHIP_CHAPTERS)
    ]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_four_to_eight_lessons_of_its_base_game_with_distinct_titles(game_id: str) -> None:
    assert 4 <= len(base_lessons(game_id)) <= 8, [lesson.id for lesson in base_lessons(game_id)]
    assert len({lesson.title for lesson in lessons(game_id)}) == len(lessons(game_id))


@pytest.mark.parametrize(("key", "values"), MOTHERSHIP_CHAPTERS.items())
def test_every_mothership_module_and_mode_has_a_lesson(key: str, values: object) -> None:
    for value in values if isinstance(values, tuple) else (values,):
        assert any(lesson.game.options[key] == value for lesson in lessons("mothership")), (key, value)


def play_with_a_mistake_per_step(run: LessonRun, rng: random.Random) -> list[str]:
    """Play ``run`` to its end: at each step a wrong legal move first (it must change nothing and
    be told the step's reason), then a right one. Everything said, in order."""
    said: list[str] = []
    while (step := run.step) is not None:
        right = run.right_moves()
        legal = run.state.legal_actions(run.seat)
        assert right and all(a in legal for a in right)
        wrong = [a for a in legal if a not in right]
        if wrong:
            before = run.state.digest()
            mistake = rng.choice(wrong)
            reply = run.attempt(mistake)
            assert not reply.right
            label = run.state.action_label(mistake)
            assert reply.said == (step.mistakes.get(label, step.wrong),)
            assert run.state.digest() == before
        index = run.step_index
        reply = run.attempt(rng.choice(right))
        assert reply.right and reply.said[0] == step.right
        assert run.step_index == index + 1
        said += reply.said
    return said


@pytest.mark.parametrize(("game_id", "lesson_id"), ALL_LESSONS)
def test_a_lesson_plays_to_its_end_and_answers_a_wrong_move_with_its_reason(game_id: str, lesson_id: str) -> None:
    lesson = find_lesson(game_id, lesson_id)
    said = play_with_a_mistake_per_step(lesson.begin(), random.Random(lesson_id))
    assert said[-1] == lesson.spec.finish
    with pytest.raises(ValueError, match="finished"):
        run = lesson.begin()
        play_with_a_mistake_per_step(run, random.Random(1))
        run.attempt(())


def copy_lesson(tmp_path: Path, game_id: str, text: str) -> Path:
    """A lessons folder holding only ``text`` as ``1-test.toml``."""
    path = tmp_path / "1-test.toml"
    path.write_text(text, encoding="utf-8")
    return path


FIRST = lessons_folder("falling-skies") / "1-dice.toml"


def test_a_lesson_whose_move_became_illegal_fails_naming_the_step_and_the_legal_moves(tmp_path: Path) -> None:
    """As after a rule change: the energy room's label no longer names a legal move."""
    text = FIRST.read_text(encoding="utf-8").replace("on B1 (energy -1, cost 0)", "on B1 (energy -2, cost 0)")
    with pytest.raises(LessonError) as caught:
        load_lesson("falling-skies", copy_lesson(tmp_path, "falling-skies", text))
    message = str(caught.value)
    assert message.startswith("1-test.toml, step 1, do 1: no legal move is labelled 'place black 4 on B1 (energy -2")
    assert "'place black 4 on B1 (energy -1, cost 0)'" in message
    assert "\n" not in message


def toml_inline(value: object) -> str:
    """``value`` (JSON data) as a TOML inline value."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {toml_inline(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_inline(item) for item in value) + "]"
    return json.dumps(value)


def test_a_lesson_fails_its_check_after_a_rule_change_that_makes_its_move_illegal(tmp_path: Path) -> None:
    """A designer turns the energy room B1 into a research room: the first lesson's first move, the
    black 4 on the energy room, no longer exists, and loading it says so at its step."""
    upper = read_toml(lessons_folder("falling-skies").parent / "cards.toml")["cards"]["base_upper"]["easy"]
    rooms = [{**room, "effects": ["research"]} if room["spaces"] == ["B1"] else room for room in upper["rooms"]]
    content = {"cards": {"base_upper": {"easy": {"rooms": rooms}}}}
    text = FIRST.read_text(encoding="utf-8").replace(
        "options = { level = 1 }", f"options = {toml_inline({'level': 1, 'content': content})}", 1
    )
    with pytest.raises(LessonError) as caught:
        load_lesson("falling-skies", copy_lesson(tmp_path, "falling-skies", text))
    message = str(caught.value)
    assert message.startswith("1-test.toml, step 1, do 1: no legal move is labelled 'place black 4 on B1 (energy -1")
    assert "'place black 4 on B1 (research -1, cost 0)'" in message and "\n" not in message


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("start = [", 'start = ["roll 7", '), "1-test.toml, start, move 1: no legal move is labelled 'roll 7'"),
        (('then = ["roll 3"]', "then = []"), "1-test.toml, step 5: it is not the learner's (seat 0) decision here"),
        (
            ('then = ["roll 3"]', 'then = ["roll 3", "roll 4"]'),
            "step 4, then, move 2: no legal move is labelled 'roll 4'",
        ),
        (("title = ", "titel = 'x'\ntitle = "), "1-test.toml: titel: Extra inputs are not permitted"),
        (("players = 1", "players = 3"), "1-test.toml: falling-skies is played by 1 player, not 3"),
        (("options = { level = 1 }", "options = { level = 1 }\nseat = 2"), "seat 2 is not a seat of a 1-player game"),
        (('look = ["space:B1"]', 'look = ["space:B1"]\nmistakes = { "roll 2" = "no" }'), "step 1: mistakes:"),
        (('do = ["place black 3', 'do = [{ kind = "place", colour = "black" }, "place black 3'), "step 2, do 1:"),
        (
            ('do = ["place black 4 on B1 (energy -1, cost 0)"]', "do = []"),
            "1-test.toml: step.0.do: List should have at least 1 item",
        ),
    ],
)
def test_a_bad_lesson_file_gets_one_line_naming_its_place(
    tmp_path: Path, change: tuple[str, str], expected: str
) -> None:
    text = FIRST.read_text(encoding="utf-8").replace(*change, 1)
    with pytest.raises(LessonError) as caught:
        load_lesson("falling-skies", copy_lesson(tmp_path, "falling-skies", text))
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_lesson_may_start_from_a_saved_record(tmp_path: Path) -> None:
    """The first lesson's opening rolls saved as a record: the lesson from it plays the same."""
    lesson = find_lesson("falling-skies", "1-dice")
    game = lesson.game
    record = Record.start(game, ["learner"])
    state = game.new_initial_state()
    for roll in (4, 3, 5, 2, 6):
        record.add(game, None, Roll(roll))
        state.apply_action(Roll(roll))
    record.save(tmp_path / "start.json")
    text = FIRST.read_text(encoding="utf-8").replace(
        'players = 1\noptions = { level = 1 }\nstart = ["roll 4", "roll 3", "roll 5", "roll 2", "roll 6"]',
        'record = "start.json"',
    )
    assert 'record = "start.json"' in text
    from_record = load_lesson("falling-skies", copy_lesson(tmp_path, "falling-skies", text))
    assert from_record.start_state.digest() == lesson.start_state.digest() == state.digest()
    said = play_with_a_mistake_per_step(from_record.begin(), random.Random(2))
    assert said[-1] == lesson.spec.finish


def test_an_unknown_lesson_names_the_lessons_there_are() -> None:
    with pytest.raises(OptionsError, match=r"falling-skies has no lesson 'nope' \(its lessons: 1-dice"):
        find_lesson("falling-skies", "nope")


# ---- in the terminal: `spacetable learn GAME [LESSON]` ----------------------------------------


def menu_keys(run: LessonRun, action: Action) -> list[str]:
    """The keys a person types at the terminal's menus to make ``action``: an entry of the game's
    grouped menu, then the entry of its submenu while the group holds several moves."""
    player = TerminalPlayer(Console(), find_renderer(run.lesson.game), find_grouper(run.lesson.game))
    keys: list[str] = []
    current = list(run.state.legal_actions(run.seat))
    while len(current) > 1:
        entries = player.entries(run.state, current)
        index = next(i for i, (_, group) in enumerate(entries) if action in group)
        keys.append(str(index + 1))
        current = entries[index][1]
    return keys


def test_a_lesson_is_played_at_the_terminal_with_a_wrong_move_explained() -> None:
    lesson = find_lesson("falling-skies", lessons("falling-skies")[0].id)
    run, keys = lesson.begin(), []
    wrong = next(a for a in run.state.legal_actions(run.seat) if a not in run.right_moves())
    keys += menu_keys(run, wrong)
    while run.step is not None:
        right = run.right_moves()[0]
        keys += menu_keys(run, right)
        run.attempt(right)
    result = CliRunner().invoke(app, ["learn", "falling-skies", lesson.id], input="\n".join(keys) + "\n")
    out = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    first = lesson.steps[0]
    assert f"Not this move: {first.mistakes.get(lesson.begin().state.action_label(wrong), first.wrong)}" in out
    for step in lesson.steps:
        assert " ".join(step.say.split()) in out and f"Right. {' '.join(step.right.split())}" in out
    assert out.count("Right.") == len(lesson.steps) and out.count("Not this move") == 1
    assert "Lesson done." in out and f"A real game: {play_command_line(lesson)}" in out


def test_learn_lists_lessons_and_refuses_unknown_ones_in_one_line() -> None:
    listed = CliRunner().invoke(app, ["learn", "showdown", "--list"])
    assert listed.exit_code == 0
    assert all(lesson.title in listed.output for lesson in lessons("showdown"))
    for args, words in [
        (["learn", "chess"], "unknown game 'chess'"),
        (["learn", "falling-skies", "9-nope"], "falling-skies has no lesson '9-nope' (its lessons: "),
    ]:
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert words in " ".join(result.output.split()) and result.output.count("error:") == 1
