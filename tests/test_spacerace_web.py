"""The SpaceRace board for the web table: the SVG, the action parts, the layout and the glossary."""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET

import pytest

from spacerace_helpers import (
    NEXUS,
    RIGEL,
    VEGA,
    Assimilate,
    Contest,
    Design,
    Destroy,
    EndTurn,
    Flee,
    Homeworld,
    Move,
    apply,
    new_game,
    position,
    ship,
    ship_card,
    treasure_card,
)
from spacetable.engine import Roll, State
from spacetable.games.spacerace.game import SpaceRace
from spacetable.games.spacerace.views.web_layout import map_layout

SVG = "{http://www.w3.org/2000/svg}"

VARIANTS = {
    "2 players": ({"players": 2}, 220),
    "3 players": ({"players": 3}, 220),
    "6 players": ({"players": 6}, 110),
    "large dense map": ({"players": 4, "arm_planets": 4, "extra_planets": 6, "density": "dense"}, 70),
    "all ships move, single strike": ({"players": 3, "fleet_moves": "all", "combat": "single"}, 120),
}


def _game(options: dict[str, object]) -> SpaceRace:
    opts = dict(options)
    players = opts.pop("players")
    assert isinstance(players, int)
    return new_game(players, **opts)


def _root(svg: str | None) -> ET.Element:
    assert svg is not None
    return ET.fromstring(svg)


def _parts(root: ET.Element) -> set[str]:
    return {e.attrib["data-part"] for e in root.iter() if "data-part" in e.attrib}


def _titles(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{SVG}title")]


def _terms(root: ET.Element) -> set[str]:
    return {e.attrib["data-term"] for e in root.iter() if "data-term" in e.attrib}


def _decisions(game: SpaceRace, seed: int, limit: int) -> list[State]:
    """The positions where a player decides, in one random game (at most ``limit`` of them)."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    found: list[State] = []
    while not state.is_terminal() and len(found) < limit:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    found.append(state)  # the end (or the last position), drawn too
    return found


@pytest.mark.parametrize(("options", "limit"), VARIANTS.values(), ids=VARIANTS.keys())
def test_every_legal_action_is_a_path_of_parts_on_the_acting_seats_board(
    options: dict[str, object], limit: int
) -> None:
    game = _game(options)
    words = game.glossary()
    kinds: set[str] = set()
    for seed in (1, 2):
        for state in _decisions(game, seed, limit):
            seat = state.current_player()
            viewer = seat if seat >= 0 else None
            root = _root(game.board_svg(state.view(viewer), viewer))
            assert root.tag == f"{SVG}svg" and root.attrib["viewBox"] == root.attrib["data-viewbox-tall"]
            assert _terms(root) <= set(words)
            if seat < 0:  # the end, or chance
                continue
            parts = _parts(root)
            paths: dict[tuple[str, ...], object] = {}
            for action in state.legal_actions():
                path = game.action_parts(action)
                assert path, action  # every decision of SpaceRace has a place on the board
                assert set(path) <= parts, (action, path)
                assert path not in paths, (action, paths.get(path))
                paths[path] = action
                kinds.add(type(action).__name__)
            # no path is the start of another: a click on its last element sends it
            for a, b in itertools.permutations(paths, 2):
                assert b[: len(a)] != a or len(a) == len(b), (a, b)
    assert {"Homeworld", "Design", "Move", "EndTurn"} <= kinds


def test_the_parts_of_each_family_of_actions() -> None:
    game = new_game(2)
    assert game.action_parts(Move(0, 1)) == ("ship:0", "planet:1")  # node 1 is Vega
    assert game.action_parts(Move(2, 4)) == ("ship:2", "tile:4")
    assert game.action_parts(Move(1, NEXUS)) == ("ship:1", "nexus")
    assert game.action_parts(Homeworld(RIGEL)) == (f"planet:{RIGEL}",)
    assert game.action_parts(Design(3, 3, 4)) == ("design:d:3", "design:m:3", "design:a:4")
    assert game.action_parts(EndTurn()) == ("end-turn",)
    assert game.action_parts(Contest()) == ("battle:contest",)
    assert game.action_parts(Flee()) == ("battle:flee",)
    assert game.action_parts(Assimilate()) == ("battle:assimilate",)
    assert game.action_parts(Destroy()) == ("battle:destroy",)
    assert game.action_parts(Roll(4)) == ()  # chance never shows on the board


def _battle_state() -> tuple[SpaceRace, State]:
    """Blue's fast [3|5|3] flies onto Red's [3|3|3]: A 3 against D 3, a standoff Blue may flee."""
    game = new_game(2)
    fast, plain = ship_card(game, 3, 5, 3), ship_card(game, 3, 3, 3)
    state = position(
        game,
        fleets=[
            [ship(VEGA), ship(14, card=plain, name="Kestrel")],
            [ship(RIGEL), ship(13, card=fast, name="Ember", treasure=(treasure_card(game, d=1),))],
        ],
    )
    apply(state, Move(1, 14))
    assert state.phase == "standoff"
    return game, state


def test_the_battle_panel_follows_the_battle_step_by_step() -> None:
    game, state = _battle_state()
    root = _root(game.board_svg(state.view(1), 1))
    titles = _titles(root)
    assert any("Initiative: M 5 against M 3" in t for t in titles)
    assert any("Attacker strikes: A 3 against D 3, standoff" in t for t in titles)
    assert {"battle:contest", "battle:flee"} <= _parts(root)
    assert {"initiative", "strike", "standoff", "flee", "contest"} <= _terms(root)
    apply(state, Contest(), 6, 1)  # the attacker wins the dice
    assert state.phase == "reward"
    root = _root(game.board_svg(state.view(1), 1))
    assert {"battle:assimilate", "battle:destroy"} <= _parts(root)
    assert "battle:contest" not in _parts(root)
    assert any("Blue (you) wins: assimilate or destroy" in t for t in _titles(root))
    apply(state, Destroy())
    root = _root(game.board_svg(state.view(1), 1))
    assert not {p for p in _parts(root) if p.startswith("battle:")}


def test_ships_show_their_scores_owner_and_treasure() -> None:
    game, state = _battle_state()
    root = _root(game.board_svg(state.view(0), 0))
    ember = [t for t in _titles(root) if t.startswith("Blue's spaceship Ember")]
    assert ember and "D 4 defence, M 5 movement, A 3 attack" in ember[0]  # [3|5|3] and a shield D+1
    assert "Shield plating D+1" in ember[0]
    texts = [e.text for e in root.iter(f"{SVG}text")]
    assert "4|5|3" in texts and "3|3|3" in texts
    # no ship is clickable for a seat that does not decide, and the viewer is named
    assert not {p for p in _parts(root) if p.startswith("ship:")}
    assert "Red (you)" in texts


def test_the_svg_is_drawn_from_the_view_alone() -> None:
    game = new_game(3)
    for state in _decisions(game, 5, 80)[::10]:
        seat = state.current_player()
        if seat < 0:
            continue
        view = state.view(seat)
        svg = game.board_svg(view, seat)
        assert game.board_svg(state.resample(seat, random.Random(1)).view(seat), seat) == svg
        rebuilt = game.state_from_json(json.loads(json.dumps(view)))
        assert game.board_svg(rebuilt.view(seat), seat) == svg


def test_the_layout_is_deterministic_and_the_starways_do_not_cross() -> None:
    for players, options in ((2, {}), (3, {}), (6, {"arm_planets": 3, "extra_planets": 6})):
        first, second = new_game(players, **options), new_game(players, **options)
        assert first.galaxy == second.galaxy and first.galaxy is not second.galaxy
        lay = map_layout(first.galaxy)
        map_layout.cache_clear()
        assert map_layout(second.galaxy) == lay
        svg_a = first.board_svg(first.new_initial_state().view(0), 0)
        svg_b = second.board_svg(second.new_initial_state().view(0), 0)
        assert svg_a == svg_b
        edges = [(a, b) for a, near in enumerate(first.galaxy.adjacency) for b in near if a < b]
        for (a, b), (c, d) in itertools.combinations(edges, 2):
            if len({a, b, c, d}) == 4:
                assert not _cross(lay.xy[a], lay.xy[b], lay.xy[c], lay.xy[d]), (a, b, c, d)
        for i, j in itertools.combinations(range(first.galaxy.size), 2):
            assert abs(lay.xy[i][0] - lay.xy[j][0]) + abs(lay.xy[i][1] - lay.xy[j][1]) > 25


def _cross(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    def turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return turn(p, q, r) * turn(p, q, s) < 0 and turn(r, s, p) * turn(r, s, q) < 0


def test_a_content_override_shows_in_the_glossary_and_the_titles() -> None:
    content = {
        "names": {"planets": ["Zorblax", "Quuxor", "Fnord", "Blip", "Glorp"]},
        "treasure": [{"name": "Quantum sail", "m": 4, "count": 3}, {"name": "Rust", "d": -2, "count": 2}],
        "rules": {"conquest_treasure": [1, 1, 1, 1, 1, 5], "mothership_minimum": 2},
    }
    game = new_game(2, content=content)
    words = game.glossary()
    assert "M+4" in words["treasure: Quantum sail"] and "D−2" in words["treasure: Rust"]
    assert "6 → 5" in words["conquest roll"] and "at least 2 each" in words["mothership"]
    assert "treasure: Shield plating" not in words
    state = position(game, fleets=[[ship(VEGA, treasure=(0,))], [ship(RIGEL)]])
    root = _root(game.board_svg(state.view(0), 0))
    titles = _titles(root)
    assert any(t.startswith("Zorblax: a planet") for t in titles)
    assert any("Treasure: Quantum sail M+4" in t for t in titles)
    assert "treasure: Quantum sail" in _terms(root)
    # the design panel offers the values the content allows
    design = game.new_initial_state()
    while design.phase != "design":
        apply(design, design.sample_chance(random.Random(0)) if design.is_chance_node() else design.legal_actions()[0])
    parts = _parts(_root(game.board_svg(design.view(None), None)))
    assert "design:d:6" in parts and "design:a:2" in parts
    assert "design:d:7" not in parts and "design:m:1" not in parts


def test_the_glossary_explains_the_board_in_whole_sentences() -> None:
    words = new_game(3).glossary()
    for term in ("Nexus", "planet", "homeworld", "starway", "treasure tile", "spaceship tile", "empty tile"):
        assert term in words
    for term in ("D", "M", "A", "initiative", "strike", "standoff", "assimilate", "destroy", "conquest roll"):
        assert term in words
    assert "treasure: Shield plating" in words and "treasure: Hull breach" in words
    assert all(text.endswith(".") for text in words.values())


def test_two_arrangements_move_the_panels_beside_the_map() -> None:
    game = new_game(3)
    state = _decisions(game, 3, 40)[-1]
    root = _root(game.board_svg(state.view(0), 0))
    _, _, tall_w, tall_h = map(float, root.attrib["data-viewbox-tall"].split())
    _, _, wide_w, wide_h = map(float, root.attrib["data-viewbox-wide"].split())
    assert wide_w > tall_w and wide_h < tall_h
    groups = {e.attrib["class"] for e in root if e.tag == f"{SVG}g"}
    assert groups == {"sr-top", "sr-map", "sr-fleets"}
    style = "".join(e.text or "" for e in root.iter(f"{SVG}style"))
    assert ".sr-board.st-wide .sr-top" in style and ".sr-board.st-wide .sr-fleets" in style


def test_how_to_play_is_a_plain_html_fragment() -> None:
    page = new_game(3).how_to_play()
    assert page is not None and page.startswith("<h1>How to play SpaceRace</h1>")
    assert "<script" not in page.lower() and "RULINGS.md 18" in page
    ET.fromstring(f"<div>{page}</div>")  # well formed
