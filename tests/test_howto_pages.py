"""The How to play pages teach (issue 35): each draws small boards of positions built through the
public API (``games/<pkg>/views/howto_positions.py``), links every ruling it cites, names options
as the lobby does, and opens with a one-page card that prints alone."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser

from server_helpers import Server, run_server
from spacetable.engine import Game, list_games, load
from spacetable.games.showdown.content import card_name
from spacetable.server import create_app, pages

GAMES = [cls.id for cls in list_games()]
STYLE = Path(pages.__file__).parent / "static" / "style.css"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The application without its lifespan: the pages need no tables and no bots."""
    db = tmp_path_factory.mktemp("howto") / "tables.sqlite3"
    yield TestClient(create_app(f"sqlite:///{db}", bot_workers=1))


def figures(page: str) -> dict[str, tuple[str, str]]:
    """Each figure of a page by its position name: its other attributes, and what it holds."""
    found = re.findall(r'<figure data-position="([^"]+)"([^>]*)>(.*?)</figure>', page, re.S)
    return {name: (attributes, inside) for name, attributes, inside in found}


def text_of(markup: str) -> str:
    """What a reader sees of ``markup``: its text without tags, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def teaching(page: str) -> str:
    """The page's main column up to the glossary (which the game's words, not the page, write)."""
    main = page.split('<main class="howto">', 1)[1]
    return main.split('<section aria-labelledby="words">', 1)[0]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_page_draws_its_positions_from_the_seats_view(client: TestClient, game_id: str) -> None:
    game = load(game_id)
    page = client.get(f"/howto/{game_id}")
    assert page.status_code == 200 and "html" in page.headers["content-type"]
    drawn = figures(page.text)
    positions = pages.teaching_positions(game)
    assert 4 <= len(drawn) <= 8, f"{game_id}: {len(drawn)} pictures"
    assert set(drawn) == set(positions), f"{game_id}: pictures without a position or positions never shown"
    for name, (attributes, figure) in drawn.items():
        state, seat = positions[name]()
        assert 0 <= seat < state.game.players and not state.is_terminal(), name
        panels = re.search(r'data-panels="([^"]*)"', attributes)
        tall = 'data-arrangement="tall"' in attributes
        board = pages.picture(state, seat, panels[1].split() if panels else (), "tall" if tall else "wide")
        assert board in figure, f"{game_id} {name}: not the seat's own board"
        assert figure.count("<svg") >= 1 and figure.count("<title>") >= 10, f"{game_id} {name}: an empty board"
        assert "<figcaption>" in figure and len(text_of(figure.split("<figcaption>")[1])) > 40, name


def test_a_picture_is_small_in_the_arrangement_asked_and_a_split_board_keeps_the_panels_named() -> None:
    wide = load("falling-skies")
    state, seat = pages.teaching_positions(wide)["round-start"]()
    picture = pages.picture(state, seat)
    root = re.match(r"<svg\b[^>]*>", picture)
    assert root and 'class="fs-board st-wide"' in root[0]
    shown, wide_box = re.search(r' viewBox="([^"]+)"', root[0]), re.search(r'data-viewbox-wide="([^"]+)"', root[0])
    assert shown and wide_box and shown[1] == wide_box[1]
    tall = pages.picture(state, seat, arrangement="tall")
    assert tall == wide.board_svg(state.view(seat), seat) and "st-wide" not in tall.split(">", 1)[0]
    with pytest.raises(ValueError, match="wide or tall"):
        pages.picture(state, seat, arrangement="square")
    split = load("mothership")
    state, seat = pages.teaching_positions(split)["dogfight"]()
    grid = pages.picture(state, seat)
    assert grid.startswith('<div class="st-split') and '<div class="st-side' not in grid and grid.count("<svg") == 1
    with_panel = pages.picture(state, seat, ["Now"])
    assert with_panel.startswith(grid.removesuffix("</div>")) and '<div class="st-side" inert><section' in with_panel
    assert re.findall(r'data-tab="([^"]+)"', with_panel) == ["Now"]
    with pytest.raises(ValueError, match="no panel"):
        pages.picture(state, seat, ["Bridge"])
    css = STYLE.read_text(encoding="utf-8").split("/* ---- How to play pages ---- */", 1)[1]
    width = re.search(r"\.howto figure\[data-position\] \{[^}]*max-width: (\d+)px", css)
    assert width and 360 <= int(width[1]) <= 480


def test_an_unknown_position_or_option_fails_the_page_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load("falling-skies")
    monkeypatch.setattr(
        game, "how_to_play", lambda: '<figure data-position="the-moon"><figcaption>x</figcaption></figure>'
    )
    with pytest.raises(pages.UnknownPosition, match="the-moon"):
        pages.write_how_to_play(game)
    monkeypatch.setattr(game, "how_to_play", lambda: '<p><em data-option="warp_speed"></em></p>')
    with pytest.raises(pages.UnknownOption, match="warp_speed"):
        pages.write_how_to_play(game)


def test_a_page_is_written_once_per_game_and_options() -> None:
    first = pages.how_to_play(load("spacerace"))
    assert pages.how_to_play(load("spacerace")) is first
    assert pages.how_to_play(load("spacerace", 2)) is not first


@pytest.mark.parametrize("game_id", GAMES)
def test_every_ruling_cited_is_a_link_to_a_ruling_that_exists(client: TestClient, game_id: str) -> None:
    page = client.get(f"/howto/{game_id}").text
    rulings = client.get(f"/rulings/{game_id}").text
    anchors = {int(n) for n in re.findall(r'id="ruling-(\d+)"', rulings)}
    linked = [int(n) for n in re.findall(rf'<a class="ruling" href="/rulings/{game_id}#ruling-(\d+)">', page)]
    assert len(linked) >= 10, f"{game_id}: {len(linked)} ruling links"
    assert set(linked) <= anchors, f"{game_id}: links to rulings that do not exist: {sorted(set(linked) - anchors)}"
    unlinked = text_of(re.sub(r"<a\b[^>]*>.*?</a>", "", teaching(page)))
    assert not re.search(r"\b(Rulings?|RULINGS)(\.md)?\s+\d|§\s?\d|\[\d+(,\s*\d+)*\]", unlinked), game_id


@pytest.mark.parametrize("game_id", GAMES)
def test_options_are_named_as_the_lobby_names_them(client: TestClient, game_id: str) -> None:
    game = load(game_id)
    page = client.get(f"/howto/{game_id}").text
    words = text_of(teaching(page))
    for name in game.option_specs:
        code = rf"\b{name}\b" if "_" in name else rf"<code>\s*{name}\b|\b{name}\s*="
        assert not re.search(code, words if "_" in name else teaching(page)), f"{game_id}: {name}"
    assert "data-option" not in page and "<code>" not in teaching(page)
    labels = {spec.named(name) for name, spec in game.option_specs.items()}
    named = [html.unescape(m) for m in re.findall(r'<em class="option">([^<]*)</em>', page)]
    assert named, f"{game_id} names no option"
    assert all(any(n == label or n.startswith(f"{label}: ") for label in labels) for n in named), named


def card_of(page: str) -> str:
    cards = re.findall(r'<section class="howto-card"[^>]*>(.*?)</section>', page, re.S)
    assert len(cards) == 1
    return str(cards[0])


@pytest.mark.parametrize("game_id", GAMES)
def test_the_page_opens_with_a_summary_card_of_the_whole_game(client: TestClient, game_id: str) -> None:
    page = client.get(f"/howto/{game_id}").text
    assert teaching(page).lstrip().startswith('<section class="howto-card"'), "the card comes first"
    card = card_of(page)
    assert len(text_of(card).split()) < 300
    assert re.search(r"<strong>Goal:</strong>", card) and re.search(r"<strong>The end:</strong>", card)
    steps = re.findall(r"<li>", card.split("<ol>", 1)[1].split("</ol>", 1)[0])
    missed = re.findall(r"<li>", card.split("Easy to miss", 1)[1].split("</ul>", 1)[0])
    assert 3 <= len(steps) <= 6 and 3 <= len(missed) <= 5, (len(steps), len(missed))


def hidden_elsewhere(game: Game, name: str) -> bool:
    """Whether any resample of the position's seat changes what another seat knows."""
    state, seat = pages.teaching_positions(game)[name]()
    rng = random.Random(7)
    others = [s for s in range(state.game.players) if s != seat]
    return any(state.resample(seat, rng).view(o) != state.view(o) for o in others for _ in range(3))


@pytest.mark.parametrize("game_id", GAMES)
def test_a_picture_shows_nothing_its_seat_may_not_know(game_id: str) -> None:
    """Every position drawn again after re-dealing all that is hidden from its seat (other hands,
    face-down cards, the decks) is the same picture."""
    game = load(game_id)
    for name, build in pages.teaching_positions(game).items():
        state, seat = build()
        picture = pages.picture(state, seat)
        rng = random.Random(name)
        for _ in range(4):
            assert pages.picture(state.resample(seat, rng), seat) == picture, f"{game_id} {name}"


def cards_on(player: dict[str, Any]) -> set[str]:
    """The card kinds a Showdown view shows of one captain: hand, mat and countermeasures."""
    kinds = set(player.get("hand", [])) | set(player.get("mat", {}))
    return kinds | {cm["card"] for cm in player.get("countermeasures", []) if cm["card"]}


def test_other_captains_cards_stay_behind_their_screens() -> None:
    """Showdown's draft and a countermeasure window: no card another captain keeps hidden (a hand,
    a mat behind the screen, a face-down countermeasure) is named in a picture drawn for a
    captain, while the captain's own are."""
    game = load("showdown", 3)
    for name in ("draft", "hacking"):
        assert hidden_elsewhere(game, name), f"{name} hides nothing: the check below would prove nothing"
        state, seat = pages.teaching_positions(game)[name]()
        named = set(re.findall(r'data-term="([^"]+)"', pages.picture(state, seat)))
        seen = set().union(*(cards_on(p) for p in state.view(seat)["players"]))
        for other in range(state.game.players):
            own = cards_on(state.view(other)["players"][other])
            if other == seat:
                assert {card_name(k) for k in own} <= named, name
            else:
                hidden = {card_name(k) for k in own - seen}
                assert hidden and not hidden & named, (name, other, hidden & named)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with run_server(f"sqlite:///{tmp_path_factory.mktemp('howto-print')}/tables.sqlite3") as running:
        yield running


@pytest.mark.soak  # a browser and a server: CI's ten minutes leave it to make soak
def test_each_summary_card_prints_alone_on_one_page(browser: Browser, server: Server) -> None:
    """Printing a How to play page prints its card, and nothing else, on a single A4 page; on
    screen the whole page shows, its pictures no wider than 480 px on a desktop."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        for game_id in GAMES:
            page.emulate_media(media="screen")
            page.goto(f"{server.url}/howto/{game_id}")
            boards = page.locator("figure[data-position] .howto-board")
            widths = [(boards.nth(i).bounding_box() or {"width": 0})["width"] for i in range(boards.count())]
            assert len(widths) >= 4 and all(0 < w <= 480 for w in widths) and page.locator("#words").is_visible()
            page.emulate_media(media="print")
            assert page.locator(".howto-card").is_visible() and not page.locator("#words").is_visible()
            assert not page.locator("figure[data-position]").first.is_visible()
            assert not page.locator(".topbar").is_visible()
            pdf = page.pdf(format="A4")
            assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1, f"{game_id}: the card takes more than one page"
    finally:
        page.close()
