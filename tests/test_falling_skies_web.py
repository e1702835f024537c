"""The falling-skies board for the web table: the SVG, the action parts and the glossary."""

from __future__ import annotations

import copy
import json
import random
import xml.etree.ElementTree as ET

import pytest

import spacetable
from spacetable.engine import Game, State
from spacetable.games.falling_skies.rules.actions import Dig, Place, PlaceRobot, Resolve, Spawn

SVG = "{http://www.w3.org/2000/svg}"


def _play(game: Game, steps: int, seed: int = 1) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
    return state


def _parts(svg: str) -> list[str]:
    return [e.attrib["data-part"] for e in ET.fromstring(svg).iter() if "data-part" in e.attrib]


def _titles(svg: str) -> list[str]:
    return [e.text or "" for e in ET.fromstring(svg).iter(f"{SVG}title")]


@pytest.fixture(scope="module")
def game() -> Game:
    return spacetable.load("falling-skies", options={"level": 1})


@pytest.mark.parametrize("level", [1, 8])
def test_every_position_draws_well_formed_svg_with_the_parts_of_its_actions(level: int) -> None:
    game = spacetable.load("falling-skies", options={"level": level})
    for seed in range(3):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            svg = game.board_svg(state.view(0), 0)
            assert svg is not None
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg" and root.attrib["viewBox"].startswith("0 0 ")
            parts = set(_parts(svg))
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            for action in state.legal_actions():
                assert set(game.action_parts(action)) <= parts, action
            state.apply_action(rng.choice(state.legal_actions()))


def test_parts_name_the_piece_then_the_place(game: Game) -> None:
    assert game.action_parts(Place("white", 4, "C2")) == ("die:white:4", "space:C2")
    assert game.action_parts(PlaceRobot("B3")) == ("robot:new", "space:B3")
    assert game.action_parts(Spawn(3, True)) == ("ship:waiting:red", "spot:3")
    assert game.action_parts(Resolve("B3", True, "")) == ("space:B3",)
    assert game.action_parts(Resolve("B2", True, "D1")) == ("space:B2", "space:D1")
    assert game.action_parts(Dig("C4", True)) == ("space:C4",)
    assert game.action_parts(Resolve("B3", False, "")) == ("skip:B3",)  # a button under the base
    assert game.action_parts(Dig("C4", False)) == ("skip:C4",)


def test_the_dice_to_place_are_the_views_and_nothing_more(game: Game) -> None:
    state = _play(game, 5)
    view = state.view(0)
    assert view["phase"] == "place"
    dice = [p for p in _parts(game.board_svg(view, 0) or "") if p.startswith("die:")]
    assert sorted(dice) == sorted(f"die:{c}:{v}" for c, v in view["unplaced"])


def test_the_svg_is_drawn_from_the_view_alone(game: Game) -> None:
    """Two different states with the same view draw the same board, and a changed view draws a changed one."""
    state = _play(game, 40)
    view = state.view(0)
    svg = game.board_svg(view, 0)
    rebuilt = game.state_from_json(json.loads(json.dumps(view)))
    assert game.board_svg(rebuilt.view(0), 0) == svg
    assert game.board_svg(state.view(None), None) == svg  # nothing is hidden from a spectator here
    moved = copy.deepcopy(view)
    moved["energy"] = (view["energy"] + 1) % 8
    assert game.board_svg(moved, 0) != svg
    ships = sum(1 for e in ET.fromstring(svg or "").iter() if "ship" in e.attrib.get("class", "").split())
    assert ships == len(view["ships"]) + sum(1 for n in view["waiting"] if n)


def test_titles_and_glossary_come_from_the_content_data() -> None:
    override = {"cards": {"base_upper": {"easy": {"rooms": [
        {"spaces": ["B1"], "effects": ["research"], "mod": -4, "cost": 3},
        {"spaces": ["B2"], "effects": ["robot"], "mod": -1, "cost": 1},
        {"spaces": ["B3"], "effects": ["shoot"], "mod": -1, "cost": 1},
        {"spaces": ["B5"], "effects": ["research"], "mod": -1, "cost": 1},
        {"spaces": ["C4"], "effects": ["shoot"], "mod": 0, "cost": 2},
        {"spaces": ["C2", "C3"], "effects": ["energy"], "mod": 0, "cost": 0},
        {"spaces": ["C1"], "effects": ["research"], "mod": 0, "cost": 1},
    ]}}}}  # fmt: skip
    game = spacetable.load("falling-skies", options={"level": 1, "content": override})
    svg = game.board_svg(game.new_initial_state().view(0), 0) or ""
    b1 = [t for t in _titles(svg) if t.startswith("B1:")]
    assert b1 and "Research room" in b1[0] and "−4" in b1[0] and "costs 3 energy" in b1[0]
    words = game.glossary()
    assert "−4" in words["room B1"] and "costs 3" in words["room B1"]
    default = spacetable.load("falling-skies", options={"level": 1}).glossary()
    assert "Energy room" in default["room B1"]


def test_the_glossary_explains_every_term_the_board_names(game: Game) -> None:
    words = game.glossary()
    for effect in ("energy", "shoot", "research", "robot"):
        assert effect in words
    for symbol in {s for s in game.board.track if s}:  # type: ignore[attr-defined]
        assert symbol in words
    state = _play(game, 60)
    svg = game.board_svg(state.view(0), 0) or ""
    terms = {e.attrib["data-term"] for e in ET.fromstring(svg).iter() if "data-term" in e.attrib}
    assert terms and terms <= set(words)
    assert all(text.endswith(".") for text in words.values())


def test_the_svg_carries_a_tall_and_a_wide_arrangement(game: Game) -> None:
    """The viewBox is the tall arrangement; the wide one moves the base, tray and tracks beside the sky."""
    svg = game.board_svg(_play(game, 5).view(0), 0) or ""
    root = ET.fromstring(svg)
    assert root.attrib["viewBox"] == root.attrib["data-viewbox-tall"]
    _, _, tall_w, tall_h = map(float, root.attrib["data-viewbox-tall"].split())
    _, _, wide_w, wide_h = map(float, root.attrib["data-viewbox-wide"].split())
    assert wide_w > tall_w and wide_h < tall_h
    areas = {e.attrib["class"]: e for e in root if e.tag == f"{SVG}g"}
    assert set(areas) == {"fs-sky", "fs-base", "fs-tray", "fs-tracks"}
    inside = {e.attrib["data-part"] for area in areas.values() for e in area.iter() if "data-part" in e.attrib}
    assert inside == set(_parts(svg))
    style = "".join(e.text or "" for e in root.iter(f"{SVG}style"))
    assert all(f".fs-board.st-wide .fs-{area}" in style for area in ("base", "tray", "tracks"))
    assert ".st-wide .fs-sky" not in style
