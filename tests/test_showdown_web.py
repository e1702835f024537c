"""The Starship Showdown table for the web: the SVG, the action parts, the glossary and the how-to page."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

import spacetable
from showdown_helpers import new_game, table
from spacetable.engine import Game
from spacetable.games.showdown.content import CARD_KINDS, CREW, card_name
from spacetable.games.showdown.rules.actions import (
    Attack,
    Board,
    Burn,
    Charge,
    Commit,
    Defend,
    Deploy,
    Done,
    EndTurn,
    Hack,
    Loot,
    Pick,
    Psionics,
    Repair,
    Reprogram,
    Teleport,
)
from spacetable.games.showdown.rules.state import ShowdownState

SVG = "{http://www.w3.org/2000/svg}"


def _root(svg: str | None) -> ET.Element:
    assert svg is not None
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.attrib["viewBox"] == root.attrib["data-viewbox-tall"]
    assert root.attrib["data-viewbox-wide"].startswith("0 0 ")
    return root


def _parts(root: ET.Element) -> set[str]:
    return {e.attrib["data-part"] for e in root.iter() if "data-part" in e.attrib}


def _terms(root: ET.Element) -> set[str]:
    return {e.attrib["data-term"] for e in root.iter() if "data-term" in e.attrib}


def _drawn_words(root: ET.Element) -> str:
    """What the board writes and names (texts and glossary terms), not the hover sentences."""
    texts = [e.text or "" for e in root.iter(f"{SVG}text")]
    return " ".join(texts) + "\n" + "\n".join(sorted(_terms(root)))


def _names(root: ET.Element, name: str) -> bool:
    """Whether the board writes ``name`` as a word or uses it as a glossary term."""
    return name in _terms(root) or re.search(rf"\b{re.escape(name)}\b", _drawn_words(root)) is not None


def _titles(root: ET.Element) -> str:
    return "\n".join(e.text or "" for e in root.iter(f"{SVG}title"))


def _unseen_kinds(view: dict[str, Any]) -> set[str]:
    """Card kinds the view never names (as a kind id anywhere in it)."""
    words = json.dumps(view)
    return {k for k in CARD_KINDS if f'"{k}"' not in words}


def _hover_texts(root: ET.Element) -> list[str]:
    """What the board names (``data-term``) but gives no hover text: an element with a term and no
    ``<title>`` on it or around it, that is not a decoration letting the hover through."""
    parents = {child: parent for parent in root.iter() for child in parent}
    missing = []
    for e in root.iter():
        if "data-term" not in e.attrib or e.attrib.get("pointer-events") == "none":
            continue
        node: ET.Element | None = e
        while node is not None and node.find(f"{SVG}title") is None:
            node = parents.get(node)
        if node is None:
            missing.append(e.attrib["data-term"])
    return missing


def _play_and_check(game: Game, seed: int, most: int = 400) -> Counter[str]:
    """A random game (``most`` decisions at most); every decision checks the parts, the paths,
    hidden cards, the resample, the hover texts, and that only the seats deciding get buttons."""
    glossary = game.glossary()
    state = game.new_initial_state()
    assert isinstance(state, ShowdownState)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    decisions = 0
    while not state.is_terminal() and decisions < most:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        idle = [q for q in range(game.players) if q not in state.awaiting()]
        for seat in [None, *idle[:1]] if decisions % 3 == 0 else ():
            root = _root(game.board_svg(state.view(seat), seat))
            assert not root.findall(f".//{SVG}rect[@class='button']"), (seat, "a button for a seat that cannot use it")
        for seat in state.awaiting()[:1]:  # the seat that moves next: each decision is checked once
            view = state.view(seat)
            svg = game.board_svg(view, seat)
            root = _root(svg)
            parts = _parts(root)
            assert _terms(root) <= set(glossary), _terms(root) - set(glossary)
            assert not _hover_texts(root)
            paths: Counter[tuple[str, ...]] = Counter()
            for action in state.legal_actions(seat):
                path = game.action_parts(action)
                assert path, action
                assert set(path) <= parts, (action, set(path) - parts)
                paths[path] += 1
                seen[type(action).__name__] += 1
            assert not [p for p, k in paths.items() if k > 1]
            # nothing of other seats' hands or face-down countermeasures that the view does not show
            unseen = _unseen_kinds(view)
            hidden = {c for q, hand in enumerate(state.hands) if q != seat for c in hand}
            hidden |= {s.card for q, slots in enumerate(state.cms) if q != seat for s in slots if not s.known}
            for kind in hidden & unseen:
                assert not _names(root, card_name(kind)), (kind, seat)
            if decisions % 7 == 0:
                other = state.resample(seat, random.Random(decisions))
                assert game.board_svg(other.view(seat), seat) == svg
        decisions += 1
        seat = state.awaiting()[0]
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    _root(game.board_svg(state.view(None), None))
    return seen


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (6, 3)])
def test_random_games_draw_every_action_on_the_board(players: int, seed: int) -> None:
    game = spacetable.load("showdown", players, {"fire_round": 6})  # every phase within ~200 decisions
    seen = _play_and_check(game, seed)
    assert {"Pick", "Attack", "Commit", "EndTurn", "Burn"} <= set(seen)


def test_parts_are_paths_through_the_board() -> None:
    game = new_game(4)
    assert game.action_parts(Pick("engine", "play", "")) == ("hand:engine", "use:play")
    assert game.action_parts(Pick("engine", "hull", "")) == ("hand:engine", "use:hull")
    assert game.action_parts(Pick("hacking", "play", "ai")) == ("hand:hacking", "mine:ai")
    assert game.action_parts(Attack(2, False)) == ("mine:weapon", "captain:2")
    assert game.action_parts(Attack(2, True)) == ("double", "captain:2")
    assert game.action_parts(Charge()) == ("mine:engine",)
    assert game.action_parts(Repair()) == ("mine:hull",)
    assert game.action_parts(Teleport(1, "pilot")) == ("mine:pilot", "captain:1")
    assert game.action_parts(Hack(3, "cm1")) == ("mine:hacking", "ship:3:cm1")
    assert game.action_parts(Psionics(3, "gunner")) == ("mine:psionics", "ship:3:gunner")
    assert game.action_parts(Reprogram(0)) == ("mine:ai", "mycm:0")
    assert game.action_parts(EndTurn()) == ("do:end",)
    assert game.action_parts(Commit(3)) == ("commit:3",)
    assert game.action_parts(Deploy(1, True)) == ("mycm:1", "deploy:boost")
    assert game.action_parts(Deploy(1, False)) == ("mycm:1", "deploy:plain")
    assert game.action_parts(Done()) == ("react:done",)
    assert game.action_parts(Board("sabotage")) == ("mode:sabotage",)
    assert game.action_parts(Defend("captain")) == ("mine:captain",)
    assert game.action_parts(Loot("energy")) == ("loot:energy",)
    assert game.action_parts(Burn("cm0")) == ("mycm:0",)
    assert game.action_parts(Burn("hull")) == ("mine:hull",)
    assert game.action_parts(Burn("weapon")) == ("mine:weapon",)


def _showdown_position() -> tuple[Game, ShowdownState]:
    state = table(
        [
            {"engine": 2, "weapon": 2, "hacking": 1, "pilot": 1},
            {"engine": 1, "weapon": 3, "gunner": 1},
            {"engine": 2, "weapon": 1},
        ],
        cms=[["nitro_fuel"], ["security_drone", "armor_plating"], []],
        energy=[5, 1, 1],
    )
    return state.game, state


def test_face_down_countermeasures_of_others_are_backs() -> None:
    game, state = _showdown_position()
    mine = game.board_svg(state.view(1), 1) or ""
    assert "Security Drone" in mine and "Armor Plating" in mine
    for seat in (0, 2, None):
        root = _root(game.board_svg(state.view(seat), seat))
        assert "Security Drone" not in ET.tostring(root, encoding="unicode")
        assert not _names(root, "Armor Plating")
        assert "face-down countermeasure" in _terms(root)


def test_the_seat_asked_gets_its_prompt_and_the_pools_show_step_by_step() -> None:
    game, state = _showdown_position()
    state.apply_action(Attack(1, False))
    state.apply_action(Commit(2))  # seat 0 sets two energy aside
    assert state.pending is not None and state.pending["stage"] == "react"
    target = _root(game.board_svg(state.view(1), 1))
    assert {"mycm:0", "mycm:1", "deploy:plain", "react:done"} <= _parts(target)
    assert "You are targeted!" in _drawn_words(target)
    attacker = _root(game.board_svg(state.view(0), 0))
    assert "deploy:plain" not in _parts(attacker)
    assert "2⚡ set aside" in _drawn_words(attacker)
    state.apply_action(Done(), 1)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        if state.pending is not None and state.pending["a"]:
            words = _titles(_root(game.board_svg(state.view(2), 2)))
            assert "red attack dice: 1" in words


def test_tokens_and_boarders_show_on_the_ship_they_touch() -> None:
    game, state = _showdown_position()
    state.apply_action(Hack(1, "engine"))
    while state.pending is not None:
        state.apply_action(Done(), state.current_player())
    state.apply_action(Teleport(2, "pilot"))
    while state.pending is not None:
        seat = state.current_player()
        state.apply_action(state.legal_actions(seat)[0], seat)
    svg = _root(game.board_svg(state.view(2), 2))
    titles = _titles(svg)
    assert "disabled by Kathryn" in titles and "Pilot aboard Leela's ship" in titles
    assert "boarder" in _terms(svg)


def test_a_content_override_shows_in_the_glossary_and_the_titles() -> None:
    content = {
        "rules": {"armor_tokens": 5, "xenotech_cost": 3},
        "crew": {"pilot": 4},
        "captains": [{"name": n, "color": c} for n, c in [("Zed", "red"), ("Ann", "blue"), ("Bo", "green")]]
        + [{"name": f"X{k}", "color": "white"} for k in range(3)],
    }
    game = spacetable.load("showdown", 3, {"content": content})
    words = game.glossary()
    assert "5 armor tokens" in words["Armor Plating"]
    assert "Combat rating 4" in words["Pilot"]
    assert "(3 energy" in words["Hacking"]
    assert "Zed" in words
    state = game.new_initial_state()
    assert isinstance(state, ShowdownState)
    state.phase, state.round, state.active, state.actions_left = "turn", 1, 0, 2
    state.mats = [{"pilot": 1, "engine": 1}, {"weapon": 1}, {}]
    root = _root(game.board_svg(state.view(0), 0))
    assert "Combat rating 4" in _titles(root)
    assert "Zed" in _drawn_words(root)


def test_the_glossary_explains_every_card_and_symbol() -> None:
    words = new_game(4).glossary()
    for kind in (*CARD_KINDS, "captain"):
        assert card_name(kind) in words
    for term in (
        "intact hull",
        "damaged hull",
        "energy",
        "attack die",
        "defence die",
        "teleporter die",
        "face-down countermeasure",
        "ships on fire",
        "captain killed",
        "wrecked",
        "boarder",
    ):
        assert words[term]
    assert all(s.endswith(".") or s.endswith(")") for s in words.values())
    assert len({k: v for k, v in words.items() if k in {card_name(c) for c in CREW}}) == len(CREW)


def test_how_to_play_is_an_html_fragment() -> None:
    page = new_game(4).how_to_play() or ""
    assert "<h2" in page and "<script" not in page
    ET.fromstring(f"<div>{page}</div>")
