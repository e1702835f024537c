"""Lessons at the web table (docs/WEB.md, "Lessons"): the stateless lesson API answers each bad
input in one line and changes nothing, advances on a right move, explains a wrong one and keeps
the position, and sends only what the learner's seat may know; in Chromium, each game's first
lesson is played to its end by clicking as a person does, with one wrong move on the way; the
lobby and the How to play pages link the lessons."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page

from server_helpers import Server, run_server
from spacetable.engine import Action, list_games
from spacetable.engine.lessons import Lesson, LessonRun, board_parts, find_lesson, lessons
from spacetable.server.app import create_app
from web_page_helpers import TEXT_SIZES, WAIT_MS, click_part, confirm_asked, shot

GAMES = ["falling-skies", "showdown", "spacerace", "mothership"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(data_dir=tmp_path_factory.mktemp("lessons"))
    with TestClient(app) as running:
        yield running


def _first(game_id: str) -> Lesson:
    found = lessons(game_id)
    assert found, f"{game_id} has no lessons"
    return found[0]


def _address(lesson: Lesson) -> str:
    return f"/api/lessons/{lesson.game.id}/{lesson.id}"


def _wrong(run: LessonRun) -> Action:
    """A legal move of the learner's that is not one of the step's right moves."""
    right = run.right_moves()
    return next(a for a in run.state.legal_actions(run.seat) if a not in right)


def _post(client: TestClient, lesson: Lesson, moves: list[Action]) -> dict[str, Any]:
    response = client.post(_address(lesson), json={"moves": [lesson.game.actions.to_json(a) for a in moves]})
    assert response.status_code == 200, response.text
    frame: dict[str, Any] = response.json()
    return frame


def _as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


# ---- the API ----------------------------------------------------------------------------------


def test_the_catalogue_lists_every_game_s_lessons_in_order(client: TestClient) -> None:
    answer = client.get("/api/lessons")
    assert answer.status_code == 200
    catalogue = answer.json()
    assert [g["game"] for g in catalogue] == [cls.id for cls in list_games()]
    for entry in catalogue:
        assert entry["name"] == next(cls.name for cls in list_games() if cls.id == entry["game"])
        assert entry["lessons"] == _as_json([x.summary_json() for x in lessons(entry["game"])])


def test_a_right_move_advances_and_a_wrong_one_is_explained_on_the_same_position(client: TestClient) -> None:
    lesson = _first("falling-skies")
    run = lesson.begin()
    start = _post(client, lesson, [])
    assert (start["step"], start["steps"], start["right"], start["said"]) == (1, len(lesson.steps), None, [])
    assert start["say"] == lesson.steps[0].say
    assert start["look"] == board_parts(run)
    assert start["lesson"] == _as_json(lesson.summary_json())
    assert not start["finished"]

    wrong = _wrong(run)
    answer = _post(client, lesson, [wrong])
    step = lesson.steps[0]
    label = run.state.action_label(wrong)
    assert answer["right"] is False
    assert answer["said"] == [step.mistakes.get(label, step.wrong)]
    for key in ("view", "svg", "actions", "events", "step", "say", "look", "n"):
        assert answer[key] == start[key], f"a wrong move changed {key}"

    right = run.right_moves()[0]
    run.attempt(right)
    answer = _post(client, lesson, [right])
    assert answer["right"] is True
    assert answer["said"][0] == step.right
    assert answer["step"] == 2
    assert answer["say"] == lesson.steps[1].say
    assert answer["view"] == _as_json(run.state.view(run.seat))
    assert answer["view"] != start["view"]


def _bad_inputs(lesson: Lesson) -> list[tuple[str, str, bytes, int]]:
    run = lesson.begin()
    to_json = lesson.game.actions.to_json
    right, wrong = run.right_moves()[0], _wrong(run)
    address = _address(lesson)

    def body(moves: Any) -> bytes:
        return json.dumps({"moves": moves}).encode()

    return [
        ("unknown game", f"/api/lessons/no-such-game/{lesson.id}", body([]), 404),
        ("unknown lesson", f"/api/lessons/{lesson.game.id}/no-such-lesson", body([]), 404),
        ("not JSON", address, b'{"moves": [', 400),
        ("nested 1,000 deep", address, b'{"moves": ' + b"[" * 1000 + b"]" * 1000 + b"}", 400),
        ("a 5,000-digit integer", address, b'{"moves": [{"kind": "roll", "value": ' + b"9" * 5000 + b"}]}", 400),
        ("not an object", address, b"[1, 2]", 400),
        ("no moves", address, b'{"steps": []}', 400),
        ("a move not an object", address, body(["roll 4"]), 400),
        ("not an action", address, body([{"kind": "no-such-kind"}]), 400),
        ("not legal", address, body([to_json(right), to_json(right)]), 400),
        ("wrong and not the last", address, body([to_json(wrong), to_json(right)]), 400),
        ("too many", address, body([to_json(right)] * (len(lesson.steps) + 1)), 400),
    ]


def test_bad_input_is_answered_in_one_line_and_changes_nothing(client: TestClient) -> None:
    lesson = _first("falling-skies")
    before = _post(client, lesson, [])
    for name, address, body, status in _bad_inputs(lesson):
        answer = client.post(address, content=body, headers={"content-type": "application/json"})
        assert answer.status_code == status, f"{name}: {answer.status_code} {answer.text}"
        error = answer.json()
        assert set(error) == {"error"} and error["error"], f"{name}: {error}"
        assert "\n" not in error["error"] and len(error["error"]) <= 300, f"{name}: {error}"
        assert "Traceback" not in error["error"]
    assert _post(client, lesson, []) == before
    page = client.get(f"/learn/{lesson.game.id}/no-such-lesson")
    assert page.status_code == 404 and lesson.id in page.json()["error"], "the 404 names the lessons there are"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_lesson_s_frames_hold_only_the_learner_s_knowledge(client: TestClient, game_id: str) -> None:
    """The lesson's line played through the API: every frame's view, board, moves and events are
    the learner's own (``view(seat)``, its board, its legal moves, only events it may see)."""
    lesson = _first(game_id)
    game, run = lesson.game, lesson.begin()
    moves: list[Action] = []
    hidden = 0
    while True:
        frame = _post(client, lesson, moves)
        seat = run.seat
        view = run.state.view(seat)
        assert frame["seat"] == seat
        assert frame["view"] == _as_json(view)
        assert frame["svg"] == game.board_svg(view, seat)
        own = [] if run.finished else run.state.legal_actions(seat)
        assert [a["action"] for a in frame["actions"]] == _as_json([game.actions.to_json(a) for a in own])
        seen = [(e.kind, e.text) for e in run.events if e.visible_to(seat)]
        assert [(e["kind"], e["text"]) for e in frame["events"]] == seen
        hidden = sum(not e.visible_to(seat) for e in run.events)
        assert frame["look"] == board_parts(run)
        if run.finished:
            assert frame["finished"] and frame["say"] is None
            assert frame["said"][-1] == lesson.spec.finish
            break
        right = run.right_moves()[0]
        run.attempt(right)
        moves.append(right)
    if game_id == "showdown":
        assert hidden, "showdown's lesson should hide the other seats' secrets: none was hidden"
    following = frame["next"]
    assert following["table"]["game"] == game_id
    assert client.post("/api/tables", json=following["table"]).status_code == 201


def test_the_how_to_play_pages_link_each_game_s_first_lesson(client: TestClient) -> None:
    for cls in list_games():
        found = lessons(cls.id)
        page = client.get(f"/howto/{cls.id}").text
        if found:
            assert f'href="/learn/{cls.id}/{found[0].id}">Learn to play</a>' in page
        else:
            assert "Learn to play" not in page


# ---- in Chromium --------------------------------------------------------------------------------

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("lessons-web") / "tables.sqlite3"
    with run_server(f"sqlite:///{db}") as running:
        yield running


@pytest.fixture(autouse=True)
def _close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """The pages a browser test opened are closed after it."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser: Browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in set(browser.contexts) - before:
        context.close()


class LessonPage:
    """A lesson page and every lesson frame it received."""

    def __init__(self, browser: Browser, url: str, viewport: dict[str, int]) -> None:
        context = browser.new_context(viewport={"width": viewport["width"], "height": viewport["height"]})
        self.page = context.new_page()
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("response", self._response)
        self.page.goto(url)
        self.wait_for(1)

    def _response(self, response: Any) -> None:
        if "/api/lessons/" in response.url and response.request.method == "POST" and response.ok:
            self.frames.append(response.json())

    def wait_for(self, count: int) -> dict[str, Any]:
        """The ``count``-th frame, once the page has drawn it (its moves are enabled, or it is done)."""
        for _ in range(WAIT_MS // 50):
            if len(self.frames) >= count:
                break
            self.page.wait_for_timeout(50)
        assert len(self.frames) >= count, f"no lesson frame {count} within {WAIT_MS} ms"
        frame = self.frames[count - 1]
        ready = "#lesson-end" if frame["finished"] else "#actions button.action:not([disabled])"
        self.page.wait_for_selector(ready, timeout=WAIT_MS)
        self.page.wait_for_function(
            "step => (document.getElementById('lesson-step') || {}).textContent === step",
            arg=f"Done · {frame['steps']} steps" if frame["finished"] else f"Step {frame['step']} of {frame['steps']}",
            timeout=WAIT_MS,
        )
        return frame

    def make(self, frame: dict[str, Any], action: dict[str, Any], by_board: bool) -> None:
        """Make ``action`` as a person does: by clicking its parts on the board (``by_board``, where
        it has any), else by its button in the move list."""
        entry = next(a for a in frame["actions"] if a["action"] == action)
        page = self.page
        if by_board and entry["parts"]:
            for part in entry["parts"]:
                click_part(page, part)
            depth = len(entry["parts"])
            longer = [a for a in frame["actions"] if len(a["parts"]) > depth and a["parts"][:depth] == entry["parts"]]
            if longer:
                click_part(page, entry["parts"][-1])
            if entry.get("warning"):
                confirm_asked(page, entry)
            elif entry.get("note"):
                page.wait_for_selector("#note:not([hidden])", timeout=WAIT_MS)
                click_part(page, entry["parts"][-1])
            return
        show_moves(page)
        button = page.locator(f'#actions button.action[data-i="{entry["i"]}"]')
        if page.locator("#actions-filter").is_visible():
            page.fill("#actions-filter", "")
        button.scroll_into_view_if_needed(timeout=WAIT_MS)
        button.click(timeout=WAIT_MS)
        if entry.get("warning") or entry.get("note"):
            confirm_asked(page, entry)


def show_moves(page: Page) -> None:
    """On a phone, the bottom sheet's Moves tab, as a person opens it."""
    tab = page.locator('#sheet-tabs [data-sheet-for="moves"]')
    if tab.is_visible() and tab.get_attribute("aria-selected") != "true":
        tab.click()


def check_lesson_box(page: Page, least_px: float) -> None:
    """The lesson box is on screen whole, its text at least ``least_px`` and nothing in it cut."""
    box = page.locator("#lesson").bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, f"the lesson box is off screen: {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, f"the lesson box is off screen: {box}"
    assert page.locator("#lesson-say").is_visible()
    say = page.locator("#lesson-say").bounding_box()
    assert say is not None and say["y"] >= box["y"] - 1, "the step's words are scrolled out of the box"
    for text in page.evaluate(TEXT_SIZES, "#lesson"):
        assert text["px"] >= least_px, f"{text['words']!r} is {text['px']:.1f} px"
        assert not text["cut"], f"{text['words']!r} is cut"


def _done(page: Page) -> dict[str, list[str]]:
    done: dict[str, list[str]] = json.loads(page.evaluate("localStorage.getItem('spacetable:lessons-done') || '{}'"))
    return done


def play_first_lesson(browser: Browser, server: Server, game_id: str, tmp_path: Path) -> None:
    lesson = find_lesson(game_id, _first(game_id).id)
    run = lesson.begin()
    lp = LessonPage(browser, f"{server.url}/learn/{game_id}/{lesson.id}", DESKTOP)
    page = lp.page
    frame = lp.wait_for(1)
    assert page.locator("#lesson-say").inner_text() == lesson.steps[0].say
    assert page.locator("#lesson-title").inner_text() == lesson.title
    look = [p for p in frame["look"] if page.locator(f'#board [data-part="{p}"]').count()]
    lit = page.eval_on_selector_all("#board .st-look", "nodes => nodes.map(n => n.getAttribute('data-part'))")
    assert set(look) <= set(lit), f"the step's parts {look} are not all lit up: {lit}"
    check_lesson_box(page, 12)

    # one wrong move, from the list: its reason is shown, and the position stays
    wrong = _wrong(run)
    label = run.state.action_label(wrong)
    board_before = page.locator("#board").inner_text()
    lp.make(frame, lesson.game.actions.to_json(wrong), by_board=False)
    answer = lp.wait_for(2)
    step = lesson.steps[0]
    reason = step.mistakes.get(label, step.wrong)
    page.wait_for_selector('#lesson-said[data-right="false"]', timeout=WAIT_MS)
    assert reason in page.locator("#lesson-said").inner_text()
    assert "Not this one" in page.locator("#lesson-said").inner_text()
    assert answer["view"] == frame["view"] and answer["step"] == 1
    assert page.locator("#board").inner_text() == board_before, "a wrong move changed the board"
    assert page.locator("#lesson-say").inner_text() == step.say
    check_lesson_box(page, 12)
    shot(page, f"lesson-{game_id}", tmp_path)

    # the lesson's line, on the board where a move has parts
    count = 2
    while not run.finished:
        right = run.right_moves()[0]
        frame = lp.frames[-1]
        run.attempt(right)
        lp.make(frame, lesson.game.actions.to_json(right), by_board=True)
        count += 1
        frame = lp.wait_for(count)
        assert frame["right"] is True, f"step {frame['step']}: {frame['said']}"
        assert frame["view"] == _as_json(run.state.view(run.seat))
        if not run.finished:
            assert page.locator("#lesson-say").inner_text() == lesson.steps[run.step_index].say
    assert page.locator("#lesson-finish").inner_text() == lesson.spec.finish
    assert lesson.id in _done(page).get(game_id, [])
    following = frame["next"]["lesson"]
    if following is not None:
        assert page.locator("#lesson-next").get_attribute("href") == f"/learn/{game_id}/{following['id']}"
    assert not lp.errors, lp.errors

    # the real game: a new table with the lesson's suggestion, opened in the learner's seat
    page.click("#lesson-play")
    page.wait_for_url("**/t/**", timeout=WAIT_MS)
    page.wait_for_selector("#actions button.action, #outcome:not([hidden])", timeout=WAIT_MS)


@pytest.mark.soak  # CI's ten minutes: make soak plays every game's first lesson in Chromium
@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_s_first_lesson_is_played_to_its_end_in_chromium(
    browser: Browser, server: Server, game_id: str, tmp_path: Path
) -> None:
    play_first_lesson(browser, server, game_id, tmp_path)


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_the_lesson_reads_on_a_phone(browser: Browser, server: Server, tmp_path: Path) -> None:
    lesson = _first("falling-skies")
    run = lesson.begin()
    lp = LessonPage(browser, f"{server.url}/learn/falling-skies/{lesson.id}", PHONE)
    frame = lp.wait_for(1)
    check_lesson_box(lp.page, 11)
    lp.make(frame, lesson.game.actions.to_json(_wrong(run)), by_board=False)
    lp.wait_for(2)
    lp.page.wait_for_selector('#lesson-said[data-right="false"]', timeout=WAIT_MS)
    check_lesson_box(lp.page, 11)
    lp.page.evaluate("window.scrollTo(0, 0)")
    shot(lp.page, "lesson-falling-skies-phone", tmp_path)
    assert not lp.errors, lp.errors


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_the_lobby_lists_the_lessons_with_a_tick_for_those_done(browser: Browser, server: Server) -> None:
    lesson = _first("falling-skies")
    context = browser.new_context(viewport={"width": DESKTOP["width"], "height": DESKTOP["height"]})
    page = context.new_page()
    page.goto(server.url)
    page.evaluate(
        "done => localStorage.setItem('spacetable:lessons-done', JSON.stringify(done))", {"falling-skies": [lesson.id]}
    )
    page.reload()
    page.wait_for_selector('#lessons [data-game="falling-skies"] li', timeout=WAIT_MS)
    for cls in list_games():
        found = lessons(cls.id)
        items = page.locator(f'#lessons [data-game="{cls.id}"] li')
        assert items.count() == len(found)
        for k, x in enumerate(found):
            link = items.nth(k).locator("a")
            assert link.text_content() == x.title
            assert link.get_attribute("href") == f"/learn/{cls.id}/{x.id}"
            assert link.is_visible() == (k < 6), "lessons past the sixth fold under 'N more lessons'"
    more = page.locator('#lessons [data-game="mothership"] details.learn-more')
    assert more.locator("summary").inner_text() == f"{len(lessons('mothership')) - 6} more lessons"
    more.locator("summary").click()
    assert page.locator('#lessons [data-game="mothership"] li').nth(6).locator("a").is_visible()
    first = page.locator(f'#lessons [data-game="falling-skies"] li[data-lesson="{lesson.id}"]')
    assert first.locator(".tick").count() == 1
    assert page.locator("#lessons .tick").count() == 1
    first.locator("a").click()
    page.wait_for_selector("#lesson-say", timeout=WAIT_MS)
