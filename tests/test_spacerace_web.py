"""The SpaceRace board for the web table: the split of the map's SVG and the HTML panels, the action
parts, the layout, the text sizes as drawn on a phone and a desktop, what covers what, the hover
texts, and the glossary."""

from __future__ import annotations

import itertools
import json
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

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
CHOICES = ("end-turn", "battle:", "design:", "ship:")
"""The parts only the seat to decide is shown: its buttons, the design's values, its ships."""

VARIANTS = {
    "2 players": ({"players": 2}, 150),
    "3 players": ({"players": 3}, 150),
    "6 players": ({"players": 6}, 80),
    "large dense map": ({"players": 4, "arm_planets": 4, "extra_planets": 6, "density": "dense"}, 50),
    "all ships move, single strike": ({"players": 3, "fleet_moves": "all", "combat": "single"}, 80),
}
"""Each variant's one random game, decisions checked (at most)."""


def _game(options: dict[str, object]) -> SpaceRace:
    opts = dict(options)
    players = opts.pop("players")
    assert isinstance(players, int)
    return new_game(players, **opts)


def _board(game: SpaceRace, state: State, seat: int | None) -> ET.Element:
    """The board as ``seat`` sees it: a split (a ``<div>``) of the map's ``<svg>`` and the panels."""
    drawn = game.board_svg(state.view(seat), seat)
    assert drawn is not None
    return ET.fromstring(drawn)


def _grid(root: ET.Element) -> ET.Element:
    grid = root.find(f"{SVG}svg")
    assert grid is not None
    return grid


def _parts(root: ET.Element) -> set[str]:
    return {e.attrib["data-part"] for e in root.iter() if "data-part" in e.attrib}


def _titles(root: ET.Element) -> list[str]:
    """The hover texts: the map's ``<title>`` children and the panels' ``title`` attributes."""
    return [e.text or "" for e in root.iter(f"{SVG}title")] + [
        e.attrib["title"] for e in root.iter() if "title" in e.attrib
    ]


def _terms(root: ET.Element) -> set[str]:
    return {e.attrib["data-term"] for e in root.iter() if "data-term" in e.attrib}


def _texts(root: ET.Element) -> list[str]:
    """Every text a person reads: the map's ``<text>`` and the panels' elements, whole."""
    words = ["".join(e.itertext()).strip() for e in root.iter(f"{SVG}text")]
    side = root.find("div")
    return words + ([" ".join("".join(e.itertext()).split()) for e in side.iter()] if side is not None else [])


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
    for k, state in enumerate(_decisions(game, 1, limit)):
        seat = state.current_player()
        viewer = seat if seat >= 0 else None
        root = _board(game, state, viewer)
        assert root.attrib["class"] == "st-split sr-board" and _grid(root).attrib["viewBox"]
        assert [s.attrib["data-tab"] for s in root.iter("section")] == ["Now", "Players", "Fleets"]
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
        if k % 5 == 0:  # a spectator and the seat not deciding are offered no choice
            for other in (None, (seat + 1) % game.players):
                offered = {p for p in _parts(_board(game, state, other)) if p.startswith(CHOICES)}
                assert not offered, (other, offered)
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
    root = _board(game, state, 1)
    titles = _titles(root)
    assert any("Initiative: M 5 against M 3" in t for t in titles)
    assert any("Attacker strikes: A 3 against D 3, standoff" in t for t in titles)
    assert {"battle:contest", "battle:flee"} <= _parts(root)
    assert {"initiative", "strike", "standoff", "flee", "contest"} <= _terms(root)
    assert not {p for p in _parts(_board(game, state, 0)) if p.startswith("battle:")}  # Red does not decide
    apply(state, Contest(), 6, 1)  # the attacker wins the dice
    assert state.phase == "reward"
    root = _board(game, state, 1)
    assert {"battle:assimilate", "battle:destroy"} <= _parts(root)
    assert "battle:contest" not in _parts(root)
    assert any("Blue (you) wins: assimilate or destroy" in t for t in _titles(root))
    apply(state, Destroy())
    root = _board(game, state, 1)
    assert not {p for p in _parts(root) if p.startswith("battle:")}


def test_ships_show_their_scores_owner_and_treasure() -> None:
    game, state = _battle_state()
    root = _board(game, state, 0)
    ember = [t for t in _titles(root) if t.startswith("Blue's spaceship Ember")]
    assert ember and "D 4 defence, M 5 movement, A 3 attack" in ember[0]  # [3|5|3] and a shield D+1
    assert "Shield plating D+1" in ember[0]
    texts = _texts(root)
    assert "4|5|3" in texts and "3|3|3" in texts
    # no ship is clickable for a seat that does not decide, and the viewer is named
    assert not {p for p in _parts(root) if p.startswith("ship:")}
    assert any("Red (you)" in t for t in texts)


def test_the_end_turn_button_is_for_the_seat_on_turn_only() -> None:
    game = new_game(2)
    state = position(game)  # Blue starts
    assert state.current_player() == 1 and state.phase == "move"
    assert {"end-turn", "ship:0"} <= _parts(_board(game, state, 1))
    for other in (0, None):
        root = _board(game, state, other)
        assert not {p for p in _parts(root) if p.startswith(CHOICES)}
        assert not any("End turn" in t for t in _texts(root))


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
    root = _board(game, state, 0)
    titles = _titles(root)
    assert any(t.startswith("Zorblax: a planet") for t in titles)
    assert any("Treasure: Quantum sail M+4" in t for t in titles)
    assert "treasure: Quantum sail" in _terms(root)
    # the design panel offers the seat designing the values the content allows, and nobody else
    design = game.new_initial_state()
    while design.phase != "design":
        apply(design, design.sample_chance(random.Random(0)) if design.is_chance_node() else design.legal_actions()[0])
    designer = design.current_player()
    parts = _parts(_board(game, design, designer))
    assert "design:d:6" in parts and "design:a:2" in parts
    assert "design:d:7" not in parts and "design:m:1" not in parts
    assert not {p for p in _parts(_board(game, design, None)) if p.startswith("design:")}


def test_the_glossary_explains_the_board_in_whole_sentences() -> None:
    words = new_game(3).glossary()
    for term in ("Nexus", "planet", "homeworld", "starway", "treasure tile", "spaceship tile", "empty tile"):
        assert term in words
    for term in ("D", "M", "A", "initiative", "strike", "standoff", "assimilate", "destroy", "conquest roll"):
        assert term in words
    assert "treasure: Shield plating" in words and "treasure: Hull breach" in words
    assert all(text.endswith(".") for text in words.values())


def test_how_to_play_is_a_plain_html_fragment() -> None:
    page = new_game(3).how_to_play()
    assert page is not None and "<script" not in page.lower()
    ET.fromstring(f"<div>{page}</div>")  # well formed


# ---- the map as drawn: text sizes, what covers what, hover texts ------------------------------------

PHONE = (370, 784)
"""The board's width on a 390 x 844 phone, and the height left for it under the guide line."""
DESKTOP = (760, 684)
"""The board's width at 1280 x 800, and the height left for it (the panel's cap, 100vh - 4.5rem,
less the guide line)."""
SIDE_MIN = 400
"""table.js arrangeSplit(): the panels' least width beside the map."""


@dataclass(frozen=True)
class Drawn:
    """One painted element of the map: its box in the map's units, its text size (0: a shape),
    whether it paints a surface (a fill, or text), its hover text and whether a pointer rests on it."""

    tag: str
    box: tuple[float, float, float, float]
    font: float
    words: str
    covers: bool
    title: str | None
    inert: bool


Rule = tuple[str, frozenset[str], dict[str, str]]


def _style(root: ET.Element) -> list[Rule]:
    """The style's rules: the element and the classes the last part of each selector needs, and
    its properties."""
    style = "".join(e.text or "" for e in root.iter("style"))
    rules = []
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", style):
        props = dict(tuple(p.split(":", 1)) for p in body.split(";") if ":" in p)
        for one in selector.split(","):
            element, *classes = re.split(r"[\s+>~]+", one.strip())[-1].split(".")
            rules.append((element, frozenset(classes), props))
    return rules


def _prop(rules: list[Rule], tag: str, classes: set[str], name: str) -> str | None:
    """The value the most specific rule matching an element ``tag`` of ``classes`` gives ``name``."""
    best, found = -1, None
    for element, needed, props in rules:
        if name in props and element in ("", tag) and needed <= classes and len(needed) >= best:
            best, found = len(needed), props[name]
    return found


def _drawn(board: ET.Element) -> list[Drawn]:
    """The map's painted elements in drawing order (text boxes estimated from their size:
    0.62 of it a character in bold, 0.56 otherwise; from 0.72 of it above the baseline to 0.22
    below)."""
    rules = _style(board)
    grid = _grid(board)
    found = re.search(r"font-size:([\d.]+)px", grid.attrib["style"])
    assert found is not None
    em = float(found.group(1))
    out: list[Drawn] = []

    def walk(e: ET.Element, title: str | None, inert: bool) -> None:
        tag = e.tag.replace(SVG, "")
        a = e.attrib
        classes = set(a.get("class", "").split())
        own = e.find(f"{SVG}title")
        title = own.text if own is not None else title
        inert = inert or (a.get("pointer-events") or _prop(rules, tag, classes, "pointer-events")) == "none"
        fill = a.get("fill") or _prop(rules, tag, classes, "fill")
        covers = fill not in ("none", "transparent")
        if tag == "rect":
            x, y, w, h = (float(a[k]) for k in ("x", "y", "width", "height"))
            out.append(Drawn(tag, (x, y, x + w, y + h), 0.0, "", covers, title, inert))
        elif tag == "circle":
            cx, cy, r = float(a["cx"]), float(a["cy"]), float(a["r"])
            out.append(Drawn(tag, (cx - r, cy - r, cx + r, cy + r), 0.0, "", covers, title, inert))
        elif tag == "polygon":
            xy = [float(v) for v in re.split(r"[\s,]+", a["points"].strip())]
            box = (min(xy[0::2]), min(xy[1::2]), max(xy[0::2]), max(xy[1::2]))
            out.append(Drawn(tag, box, 0.0, "", covers, title, inert))
        elif tag == "text":
            words = "".join(e.itertext()).strip()
            size = _prop(rules, tag, classes, "font-size") or "1em"
            font = float(size[:-2]) * (em if size.endswith("em") else 1.0)
            weight = int(_prop(rules, tag, classes, "font-weight") or 400)
            width = len(words) * font * (0.62 if weight >= 700 else 0.56)
            x, y = float(a["x"]), float(a["y"])
            anchor = a.get("text-anchor", "start")
            left = x - width / 2 if anchor == "middle" else (x - width if anchor == "end" else x)
            out.append(
                Drawn(tag, (left, y - 0.72 * font, left + width, y + 0.22 * font), font, words, True, title, inert)
            )
        elif tag in ("path", "line"):
            out.append(Drawn(tag, (0, 0, 0, 0), 0.0, "", False, title, inert))
        for child in e:
            if child.tag != f"{SVG}title":
                walk(child, title, inert)

    for child in grid:
        walk(child, None, False)
    return out


def _drawn_width(board: ET.Element, width: float, room: float) -> float:
    """The map's width in pixels as table.js arrangeSplit() draws it in a board ``width`` wide
    with ``room`` of height: beside the panels where that leaves it wide enough, else across the
    whole width, its height capped by the room."""
    w, h = (float(v) for v in _grid(board).attrib["viewBox"].split()[2:])
    beside = min(room * w / h, width - SIDE_MIN - 12)
    return beside if beside >= min(480, width * 0.5) else min(width, room * w / h)


def _busy(players: int, seed: int = 1, steps: int = 300) -> tuple[SpaceRace, State]:
    """The position of a random game (at most ``steps`` actions) with the most ships and treasure."""
    game = new_game(players)
    state, rng = game.new_initial_state(), random.Random(seed)
    best, most = state, -1
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        fleets = state.to_json()["fleets"]
        count = sum(len(f) for f in fleets) + sum(len(s[3]) for f in fleets for s in f)
        if count > most:
            best, most = state.clone(), count
        state.apply_action(rng.choice(state.legal_actions()))
    return game, best


def _boards() -> list[tuple[str, ET.Element]]:
    """The boards checked as drawn: a busy position of every table size, the set-up, a battle."""
    boards = []
    for players in range(2, 7):
        game, state = _busy(players)
        seat = state.current_player()
        boards.append((f"{players} players", _board(game, state, seat if seat >= 0 else None)))
    first = new_game(3).new_initial_state()
    boards.append(("set-up", _board(new_game(3), first, None)))
    game, state = _battle_state()
    boards.append(("battle", _board(game, state, 1)))
    return boards


def test_every_text_of_the_board_reads_on_a_phone_and_a_desktop() -> None:
    for name, board in _boards():
        width = float(_grid(board).attrib["viewBox"].split()[2])
        texts = [d for d in _drawn(board) if d.tag == "text" and d.words]
        least = min(texts, key=lambda d: d.font)
        for (screen, room), floor in ((PHONE, 11.0), (DESKTOP, 12.0)):
            pixels = least.font * _drawn_width(board, screen, room) / width
            assert pixels >= floor, f"{name}: {least.words!r} is {pixels:.1f} px on a {screen} px board"
    # the panels are HTML: their text keeps its size whatever the map's scale
    style = "".join(e.text or "" for e in _boards()[0][1].iter("style"))
    side = [line for line in style.splitlines() if ".st-side" in line]
    sizes = [float(v) for v in re.findall(r"font(?:-size)?:([\d.]+)px", "".join(side))]
    assert sizes and min(sizes) >= 12


def test_nothing_on_the_map_covers_a_text() -> None:
    for name, board in _boards():
        drawn = _drawn(board)
        for i, text in enumerate(drawn):
            if text.tag != "text" or not text.words:
                continue
            for later in drawn[i + 1 :]:
                if later.covers and _overlap(text.box, later.box) > 1.0:
                    raise AssertionError(f"{name}: {text.words!r} is covered by a {later.tag} {later.words!r}")


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """How deep two boxes overlap, on the side they overlap least (0: apart)."""
    return max(0.0, min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])))


def test_every_symbol_has_a_hover_text_and_nothing_takes_it_away() -> None:
    for name, board in _boards():
        bare = [d for d in _drawn(board) if not d.inert and not d.title]
        assert not bare, f"{name}: {bare[:3]}"
        side = board.find("div")
        assert side is not None
        for e in side.iter():
            if "data-part" in e.attrib:
                assert e.attrib.get("title"), (name, e.attrib["data-part"])
