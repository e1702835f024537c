"""Every log line can say which rule produced it: each game's rulings page (RULINGS.md as HTML with
an anchor per ruling), its table of references (``Game.rule_of``) and the events that carry them."""

from __future__ import annotations

import ast
import inspect
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spacetable.engine import CHANCE, Event, Game, list_games, load
from spacetable.server import create_app
from spacetable.server.messages import events_json
from spacetable.server.pages import markdown

RANDOM_GAMES: list[tuple[str, int, dict[str, object]]] = [
    ("falling-skies", 1, {}),
    ("falling-skies", 1, {"level": 8}),
    ("showdown", 2, {}),
    ("showdown", 4, {}),
    ("spacerace", 2, {}),
    ("spacerace", 3, {"map_initiative": "roll", "fleet_moves": "all"}),
    ("mothership", 2, {"random_event": True, "exploration": True, "objectives": "hidden"}),
    ("mothership", 2, {"mode": "victory_points", "neutron_stars": True, "black_holes": True, "beacons": True}),
    ("mothership", 1, {"level": 5}),
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("rulings") / "tables.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", bot_workers=1)) as client:
        yield client


def emitted_kinds(game: Game, seed: int, limit: int = 4000) -> set[str]:
    """The event kinds of one game of random moves (cut short after ``limit`` actions)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    kinds: set[str] = set()
    for _ in range(limit):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            events = state.apply_action(state.sample_chance(rng))
        else:
            seat = state.awaiting()[0]
            events = state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        kinds.update(e.kind for e in events)
    return kinds


def written_kinds(game: Game) -> set[str]:
    """The kinds of every ``Event("kind", ...)`` written in a game's package."""
    kinds = set()
    for path in Path(inspect.getfile(type(game))).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Event":
                assert isinstance(node.args[0], ast.Constant), f"{path.name}:{node.lineno}: a kind that is not a word"
                kinds.add(node.args[0].value)
    return kinds


def ruling_numbers(reference: str) -> list[int]:
    """The ruling numbers a reference names ("... · Rulings 12, 14" -> [12, 14])."""
    found = re.search(r"Rulings? ([\d, ]+)", reference)
    return [int(n) for n in found[1].split(",")] if found else []


@pytest.mark.parametrize(("game_id", "players", "options"), RANDOM_GAMES)
def test_every_event_kind_of_random_games_has_a_rule(game_id: str, players: int, options: dict[str, object]) -> None:
    game = load(game_id, players=players, options=options)
    kinds = set().union(*(emitted_kinds(game, seed) for seed in range(2)))
    assert kinds, game_id
    missing = sorted(k for k in kinds if game.rule_of(k) is None)
    assert not missing, f"{game_id}: no rule for the event kinds {missing}"


@pytest.mark.parametrize("game_id", [cls.id for cls in list_games()])
def test_the_references_are_the_kinds_the_game_writes_and_name_real_rulings(client: TestClient, game_id: str) -> None:
    game = load(game_id)
    kinds = written_kinds(game)
    references = {kind: game.rule_of(kind) for kind in kinds}
    assert all(references.values()), [k for k, r in references.items() if not r]
    assert game.rule_of("no such kind") is None
    page = client.get(f"/rulings/{game_id}")
    assert page.status_code == 200 and "html" in page.headers["content-type"]
    anchors = {int(n) for n in re.findall(r'id="ruling-(\d+)"', page.text)}
    assert anchors == {int(n) for n in re.findall(r"^(\d+)\. ", game.rulings() or "", re.M)}
    for kind, reference in references.items():
        assert reference and reference.startswith("Rulebook: "), kind
        numbers = ruling_numbers(reference)
        assert numbers and set(numbers) <= anchors, f"{game_id} {kind}: {reference}"


def test_the_rulings_page_has_heading_anchors_and_links_how_to_play(client: TestClient) -> None:
    page = client.get("/rulings/falling-skies").text
    assert "<title>Rulings: Under Falling Skies" in page and 'href="/howto/falling-skies"' in page
    assert '<h3 id="phase-1-placing-dice-and-moving-ships">' in page
    assert '<li value="12" id="ruling-12"><p><strong>Reaching the city.</strong>' in page
    assert "<code>energy_room = &quot;restore&quot;</code>" in page
    for cls in list_games():
        howto = client.get(f"/howto/{cls.id}").text
        assert f'href="/rulings/{cls.id}">Rulings</a>' in howto, cls.id
    missing = client.get("/rulings/chess")
    assert missing.status_code == 404 and "chess" in missing.json()["error"]


def test_the_renderer_knows_the_subset_and_escapes_the_rest() -> None:
    text = """# Title <b>

Intro with **bold**, *italic* and `a <tag>` & more.

## A chapter

1. **First.** A ruling whose wrapped line ends in a number like
   0. which is still the same paragraph.
   - a bullet
     going on
   - *another*

   A second paragraph of the ruling.
2. **Second.** Short.

| a | b |
|---|---|
| `x` | 2 |
"""
    out = markdown(text)
    assert '<h2 id="title-b">Title &lt;b&gt;</h2>' in out
    assert "<strong>bold</strong>, <em>italic</em> and <code>a &lt;tag&gt;</code> &amp; more." in out
    assert '<h3 id="a-chapter">A chapter</h3>' in out
    assert (
        '<li value="1" id="ruling-1"><p><strong>First.</strong> A ruling whose wrapped line ends in a number like'
        " 0. which is still the same paragraph.</p><ul><li><p>a bullet going on</p></li>"
        "<li><p><em>another</em></p></li></ul><p>A second paragraph of the ruling.</p></li>"
    ) in out
    assert '<li value="2" id="ruling-2"><p><strong>Second.</strong> Short.</p></li></ol>' in out
    assert '<thead><tr><th scope="col">a</th><th scope="col">b</th></tr></thead>' in out
    assert "<tbody><tr><td><code>x</code></td><td>2</td></tr></tbody>" in out
    assert "<b>" not in out and "<tag>" not in out


def test_events_carry_their_rule() -> None:
    game = load("falling-skies")
    events = [(1, Event("roll", "Rolled a black 4.")), (2, Event("clock", "the clock ran out"))]
    sent = events_json(game, events, None, 0)
    assert sent[0] == {"n": 1, "kind": "roll", "text": "Rolled a black 4.", "rule": game.rule_of("roll")}
    assert sent[0]["rule"] == "Rulebook: Place dice and move ships · Ruling 4"
    assert sent[1]["rule"] is None
