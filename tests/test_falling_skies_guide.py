"""The guided table for falling-skies (issue 35): the guide line, the seat's name in the log and on
the board, the end screen's words, the warnings of losing moves (ruling 33), and a board on which
every legal move can be made, every label is large enough to read and nothing covers a label.

Positions are level 1 (the easy side): the base is destroyed at 5 damage, the skull is sky row
12, the city lies past row 15. Near the city, columns 1 and 2 hold nothing but an explosion 5 on
row 13 (column 1) and an explosion 3 on row 14 (column 2)."""

from __future__ import annotations

import functools
import json
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from falling_skies_helpers import (
    Dig,
    Place,
    PlaceRobot,
    Resolve,
    apply,
    new_game,
    placing,
    position,
    warning_position,
)
from spacetable.engine import Action, Record, State
from spacetable.games.falling_skies.views.web_markup import text_width

SVG = "{http://www.w3.org/2000/svg}"
GAME = new_game(level=1)
PLAYER = 0

ROLLED = (4, 3, 5, 2, 6)
PLACED = (
    Place("black", 4, "B1"),
    Place("black", 3, "B2"),
    Place("black", 5, "B3"),
    Place("white", 6, "B5"),
    3,  # the white 6 re-rolls the white 2
    Place("white", 3, "C4"),
)
RESOLVED = (Resolve("B1", True, ""), Resolve("B3", True, ""), Resolve("B5", True, ""), Resolve("B2", True, ""))
"""The first round of a game: the rooms used, the robot room building a robot, the digging die left."""


def _guide(state: State, seat: int | None) -> str:
    actions = state.legal_actions(seat) if seat is not None else []
    line = GAME.guide(state.view(seat), seat, actions)
    assert line is not None
    return line


def _round(*moves: Action | int) -> State:
    state = GAME.new_initial_state()
    apply(state, *moves)
    return state


def _last_round_with_the_weapon_ready() -> State:
    """Phase 2 with the mother ship one row above the skull: the research room F2-F4 holds 18,
    enough for the research's last space (12); the energy room B1 is full too."""
    slots = {"F2": ["black", 6], "F3": ["black", 6], "F4": ["white", 6], "B1": ["black", 3]}
    return position(GAME, phase="resolve", mothership=11, research=13, excavator=18, slots=slots, pending=["B1", "F2"])


def _ship_at_the_city(die: int, **changes: object) -> State:
    """One die to place, the base one damage from destroyed, a green ship on row 14 of column 1."""
    return placing([("black", die)], GAME, damage=4, ships=[[14, 0, False]], **changes)


# ---- the guide line ----------------------------------------------------------------------------


def test_the_guide_tells_the_player_each_decision_and_a_spectator_who_makes_it() -> None:
    state = GAME.new_initial_state()
    assert _guide(state, None) == _guide(state, PLAYER) == "Round 1 · the round's dice are rolled"

    apply(state, *ROLLED)
    placing_line = _guide(state, PLAYER)
    assert placing_line.startswith("Round 1 · Your move: click a die in the tray, then a base space")
    assert "a white die re-rolls the dice left" in placing_line and "may dig into the rock" in placing_line
    assert _guide(state, None) == "Round 1 · Waiting for Player 1: placing the dice (5 dice left)"

    apply(state, *PLACED[:4])
    assert _guide(state, None) == "Round 1 · the white die re-rolls the dice not yet placed"

    apply(state, *PLACED[4:])
    resolving = _guide(state, PLAYER)
    assert "resolve the rooms in any order (4 rooms left): click a room to use it" in resolving
    assert "its button under the base to skip it" in resolving and "the digging die's space to dig" in resolving
    assert _guide(state, None) == "Round 1 · Waiting for Player 1: resolving the rooms (4 rooms left)"

    apply(state, *RESOLVED, Dig("C4", True))
    assert state.phase == "robot"
    robot = state.view(PLAYER)["new_robots"][0]
    assert _guide(state, PLAYER) == (
        f"Round 1 · Your move: put the new robot ({robot}) to work: click it in the tray, then a free excavated room"
    )
    assert _guide(state, None) == "Round 1 · Waiting for Player 1: placing the new robot"

    apply(state, PlaceRobot("B1"))
    assert state.phase == "respawn"
    green, red = state.view(PLAYER)["waiting"]
    assert (green, red) == (2, 0)
    assert _guide(state, PLAYER) == (
        "Round 1 · Your move: respawn the 2 green ships waiting on the mother ship: click one, then a starting spot"
    )
    assert _guide(state, None) == "Round 1 · Waiting for Player 1: respawning the ships on the mother ship"


def test_the_guide_says_when_nothing_but_the_research_can_save_the_base() -> None:
    state = _last_round_with_the_weapon_ready()
    assert _guide(state, PLAYER).endswith(
        " · At the end of this round the mother ship comes down onto the skull row: only completing the research "
        "first wins"
    )
    calm = position(GAME, phase="resolve", slots={"B1": ["black", 3]}, pending=["B1"])
    assert "At the end" not in _guide(calm, PLAYER)


def test_the_guide_at_the_end_names_who_lost_and_how() -> None:
    state = _ship_at_the_city(2)
    apply(state, Place("black", 2, "B1"))
    assert _guide(state, PLAYER) == "Game over: you lost, the base was destroyed"
    assert _guide(state, None) == "Game over: Player 1 lost, the base was destroyed"


# ---- names and the end screen -----------------------------------------------------------------------


def test_the_log_the_board_and_the_table_name_the_seat_alike() -> None:
    state = _ship_at_the_city(2)
    events = state.apply_action(Place("black", 2, "B1"))
    names = GAME.seat_names(state.view(None))
    assert names == GAME.seat_names() == ["Player 1"]
    assert [e.text for e in events if e.kind == "game_over"] == ["Player 1 lost: the base was destroyed."]
    assert not [e.text for e in events if e.text.startswith("You")]  # a spectator reads the same log
    assert "Game over: Player 1 lost" in _texts(GAME.board_svg(state.view(None), None))
    assert "Game over: you lost" in _texts(GAME.board_svg(state.view(PLAYER), PLAYER))


def test_the_end_screen_says_how_the_game_was_lost_and_what_the_score_counts() -> None:
    destroyed = _ship_at_the_city(2)
    apply(destroyed, Place("black", 2, "B1"))
    outcome = destroyed.outcome()
    assert outcome is not None and outcome.scores == (0.0,)
    assert GAME.explain_outcome(destroyed.view(PLAYER), outcome, PLAYER) == (
        "You lost in round 1: the base took 5 damage and was destroyed. The score, 0, counts the research spaces "
        "reached, of the 14 that win."
    )
    assert GAME.explain_outcome(destroyed.view(None), outcome, None).startswith("Player 1 lost in round 1: the base")

    overrun = _last_round_with_the_weapon_ready()
    apply(overrun, Resolve("F2", False, ""), Resolve("B1", False, ""))
    lost = overrun.outcome()
    assert lost is not None
    assert GAME.explain_outcome(overrun.view(PLAYER), lost, PLAYER) == (
        "You lost in round 1: the mother ship came down onto the skull row (row 12). The score, 13, counts the "
        "research spaces reached, of the 14 that win."
    )


def test_the_end_screen_of_a_win_says_the_weapon_is_built() -> None:
    state = _last_round_with_the_weapon_ready()
    apply(state, Resolve("F2", True, ""))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (PLAYER,)
    assert GAME.explain_outcome(state.view(PLAYER), outcome, PLAYER) == (
        "You won in round 1: the research reached the last of its 14 spaces, and the weapon destroyed the mother "
        "ship. The score, 14, counts the research spaces reached."
    )
    assert GAME.explain_outcome(state.view(None), outcome, None).startswith("Player 1 won in round 1: ")


# ---- warnings of losing moves (ruling 33) ---------------------------------------------------------


def _loses(state: State, action: Action) -> bool:
    after = state.clone()
    after.apply_action(action)
    return after.is_terminal() and after.returns() == [0.0]


def test_a_die_that_sends_a_ship_into_the_city_for_the_last_damage_is_warned_and_a_safe_one_is_not() -> None:
    state = _ship_at_the_city(2)
    assert _loses(state, Place("black", 2, "B1")) and not _loses(state, Place("black", 2, "A1"))
    assert state.action_warning(Place("black", 2, "B1")) == (
        "Loses the game at once: a ship reaches the city, and the base is destroyed."
    )
    assert state.action_warning(Place("black", 2, "A1")) is None  # the gun holds the ship on row 15
    assert state.action_warning(Place("black", 2, "B2")) is None  # no ship in column 2


def test_a_white_die_is_warned_when_its_reroll_leaves_no_safe_place_often_enough() -> None:
    """Columns 3-5 hold dice already; ships on row 13 of columns 1 and 2. The black 1 is safe
    anywhere, and the white 1 after it too. The white 1 first re-rolls the black: then the next
    die must go into the other column, where a 4, 5 or 6 sends its ship into the city even from
    the gun (a 3 on the gun stops on row 15): half the rolls lose."""
    state = placing(
        [("white", 1), ("black", 1)],
        GAME,
        damage=4,
        ships=[[13, 0, False], [13, 1, False]],
        columns_used=0b11100,
    )
    assert state.action_warning(Place("black", 1, "B1")) is None
    assert state.action_warning(Place("black", 1, "A2")) is None
    for space in ("B1", "A1", "B2"):
        assert state.action_warning(Place("white", 1, space)) == (
            "Loses the game with a 50% chance: the white die re-rolls 1 die, and if it shows 4 to 6, every place "
            "for the next die loses the game."
        )
    after = state.clone()
    apply(after, Place("white", 1, "B1"), 4)
    assert all(_loses(after, action) for action in after.legal_actions())
    after = state.clone()
    apply(after, Place("white", 1, "B1"), 3)
    assert not _loses(after, Place("black", 3, "A2"))


def test_skipping_the_room_that_completes_the_research_in_the_last_round_is_warned() -> None:
    state = _last_round_with_the_weapon_ready()
    assert state.action_warning(Resolve("F2", False, "")) == (
        "Loses the game: at the end of this round the mother ship comes down onto the skull row, and after this no "
        "room left to resolve can complete the research first."
    )
    for safe in (Resolve("F2", True, ""), Resolve("B1", True, ""), Resolve("B1", False, "")):
        assert state.action_warning(safe) is None, safe


def test_no_move_is_warned_when_every_move_loses() -> None:
    """The last die is a 6 and only column 1 is free: even the gun lets the ship through."""
    state = _ship_at_the_city(6, columns_used=0b11110)
    actions = state.legal_actions()
    assert actions and all(_loses(state, action) for action in actions)
    assert [state.action_warning(action) for action in actions] == [None] * len(actions)


def test_the_warning_position_replays_to_a_warned_move_beside_a_safe_one() -> None:
    data, seat, warned, safe = warning_position()
    record = Record.loads(json.dumps(data))
    state = record.final_state()
    assert state.awaiting() == (seat,)
    by_label = {state.action_label(action): action for action in state.legal_actions()}
    assert by_label[warned] and by_label[safe]
    assert (state.action_warning(by_label[warned]) or "").startswith("Loses the game at once")
    assert state.action_warning(by_label[safe]) is None
    assert _loses(state, by_label[warned])


# ---- the board --------------------------------------------------------------------------------------


@functools.cache
def _positions() -> dict[str, State]:
    """A few positions: the dice to place, the rooms to resolve, a busy one late in a game, the end."""
    busy = GAME.new_initial_state()
    rng = random.Random(11)
    while busy.view(PLAYER)["round"] < 5 or busy.is_chance_node():
        busy.apply_action(busy.sample_chance(rng) if busy.is_chance_node() else rng.choice(busy.legal_actions()))
    over = _ship_at_the_city(2)
    apply(over, Place("black", 2, "B1"))
    return {
        "placing": _round(*ROLLED),
        "rooms": _round(*ROLLED, *PLACED),
        "robot": _round(*ROLLED, *PLACED, *RESOLVED, Dig("C4", True)),
        "busy": busy,
        "over": over,
    }


def _texts(svg: str | None) -> str:
    assert svg is not None
    return " ".join(e.text or "" for e in ET.fromstring(svg).iter(f"{SVG}text"))


def _parts(svg: str | None) -> set[str]:
    assert svg is not None
    return {e.attrib["data-part"] for e in ET.fromstring(svg).iter() if "data-part" in e.attrib}


def test_every_legal_move_of_a_game_can_be_made_on_the_board() -> None:
    """Over one seeded game (its first 300 decisions): every legal move has a path of board parts,
    each drawn for the player, and no two moves share a path."""
    state = GAME.new_initial_state()
    rng = random.Random(5)
    kinds: set[str] = set()
    decisions = 0
    while not state.is_terminal() and decisions < 300:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        decisions += 1
        drawn = _parts(GAME.board_svg(state.view(PLAYER), PLAYER))
        actions = state.legal_actions()
        paths = [GAME.action_parts(action) for action in actions]
        for action, path in zip(actions, paths, strict=True):
            assert path and set(path) <= drawn, (state.action_label(action), path)
            kinds.add(f"{type(action).__name__}:{getattr(action, 'use', '')}")
        assert len(set(paths)) == len(paths)
        state.apply_action(rng.choice(actions))
    assert {"Place:", "Resolve:True", "Resolve:False", "Dig:True", "Dig:False", "PlaceRobot:", "Spawn:"} <= kinds


def test_the_skip_buttons_are_drawn_for_the_player_alone() -> None:
    state = _positions()["rooms"]
    skips = {part for part in _parts(GAME.board_svg(state.view(PLAYER), PLAYER)) if part.startswith("skip:")}
    assert skips == {"skip:B1", "skip:B2", "skip:B3", "skip:B5", "skip:C4"}
    spectator = GAME.board_svg(state.view(None), None)
    assert not {part for part in _parts(spectator) if part.startswith("skip:")}
    assert "to resolve: B1, B2, B3, B5, C4" in _texts(spectator)
    placing_board = GAME.board_svg(_positions()["placing"].view(PLAYER), PLAYER)
    assert not {part for part in _parts(placing_board) if part.startswith("skip:")}


# ---- labels: their size, what covers them, their hover texts ----------------------------------------


@dataclass
class Drawn:
    """One shape or label of a board, with its box in drawing units and its ancestors."""

    order: int
    tag: str
    box: tuple[float, float, float, float]
    element: ET.Element
    ancestors: tuple[ET.Element, ...]
    font: float = 0.0

    def inert(self) -> bool:
        return any(e.get("pointer-events") == "none" for e in (self.element, *self.ancestors))

    def titled_by(self) -> ET.Element | None:
        """The nearest element (itself or an ancestor) with a ``<title>``: what its hover shows."""
        return next((e for e in (self.element, *reversed(self.ancestors)) if e.find(f"{SVG}title") is not None), None)


def _styles(root: ET.Element) -> list[tuple[str, dict[str, str]]]:
    """The board's CSS rules, in order: (the class a rule names, or '' for the board's own, its properties)."""
    css = "".join(e.text or "" for e in root.iter(f"{SVG}style"))
    rules = []
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        props = dict(p.split(":", 1) for p in body.split(";") if ":" in p)
        for selector in selectors.split(","):
            simple = re.fullmatch(r"\.fs-board(?: \.([\w-]+))?", selector.strip())
            if simple:
                rules.append((simple.group(1) or "", props))
    return rules


def _text_style(element: ET.Element, rules: list[tuple[str, dict[str, str]]]) -> dict[str, str]:
    classes = set((element.get("class") or "").split()) | {""}
    style: dict[str, str] = {}
    for name, props in rules:
        if name in classes:
            style.update(props)
    for key in ("font-size", "font-weight"):
        if element.get(key):
            style[key] = element.get(key, "")
    return style


Box = tuple[float, float, float, float]


def _box(element: ET.Element, tag: str, rules: list[tuple[str, dict[str, str]]]) -> tuple[Box, float]:
    def get(key: str) -> float:
        return float(element.get(key, 0))

    if tag == "rect":
        return (get("x"), get("y"), get("x") + get("width"), get("y") + get("height")), 0.0
    if tag == "circle":
        return (get("cx") - get("r"), get("cy") - get("r"), get("cx") + get("r"), get("cy") + get("r")), 0.0
    if tag == "ellipse":
        return (get("cx") - get("rx"), get("cy") - get("ry"), get("cx") + get("rx"), get("cy") + get("ry")), 0.0
    if tag == "polygon":
        xy = [float(n) for n in re.split(r"[\s,]+", element.get("points", "").strip())]
        return (min(xy[0::2]), min(xy[1::2]), max(xy[0::2]), max(xy[1::2])), 0.0
    style = _text_style(element, rules)
    size = float(style["font-size"].removesuffix("px"))
    words = element.text or ""
    spacing = float(style.get("letter-spacing", "0").removesuffix("px")) * len(words)
    bold = style.get("font-weight", "400") in ("700", "800", "bold")
    width = float(element.get("textLength") or text_width(words, size, bold) + spacing)
    anchor = {"start": 0.0, "middle": 0.5, "end": 1.0}[element.get("text-anchor", "start")]
    x, y = get("x") - anchor * width, get("y")
    return (x, y - 0.75 * size, x + width, y + 0.2 * size), size


def _drawn(svg: str | None) -> tuple[ET.Element, list[Drawn]]:
    assert svg is not None
    root = ET.fromstring(svg)
    rules = _styles(root)
    out: list[Drawn] = []

    def walk(element: ET.Element, ancestors: tuple[ET.Element, ...]) -> None:
        tag = element.tag.removeprefix(SVG)
        if tag in ("defs", "style", "title"):
            return
        if tag in ("rect", "circle", "ellipse", "polygon", "text"):
            box, font = _box(element, tag, rules)
            out.append(Drawn(len(out), tag, box, element, ancestors, font))
        for child in element:
            walk(child, (*ancestors, element))

    walk(root, ())
    return root, out


def _overlap(a: tuple[float, ...], b: tuple[float, ...], inset: float = 1.0) -> bool:
    return a[0] + inset < b[2] and b[0] < a[2] - inset and a[1] + inset < b[3] and b[1] < a[3] - inset


def _drawn_scale(root: ET.Element, width: float, room: float) -> tuple[str, float]:
    """The arrangement the client picks for a board panel ``width`` wide with ``room`` of height
    (server/static/table.js ``arrange()``: the wide one when it draws the board at least 0.9 times
    as large), and the scale it draws it at (a tall board is as wide as the panel)."""
    boxes = {k: [float(n) for n in root.attrib[f"data-viewbox-{k}"].split()] for k in ("tall", "wide")}

    def fit(box: list[float]) -> float:
        return min(width / box[2], room / box[3])

    if fit(boxes["wide"]) >= 0.9 * fit(boxes["tall"]):
        return "wide", fit(boxes["wide"])
    return "tall", width / boxes["tall"][2]


@pytest.mark.parametrize(
    ("screen", "width", "room", "arrangement", "least"),
    [("phone 390x844", 370, 828, "tall", 11.0), ("desktop 1280x800", 760, 690, "wide", 12.0)],
)
def test_every_label_is_large_enough_to_read(
    screen: str, width: int, room: int, arrangement: str, least: float
) -> None:
    for name, state in _positions().items():
        for seat in (PLAYER, None):
            root, drawn = _drawn(GAME.board_svg(state.view(seat), seat))
            chosen, scale = _drawn_scale(root, width, room)
            assert chosen == arrangement, screen
            smallest = min(d.font for d in drawn if d.tag == "text" and (d.element.text or "").strip()) * scale
            assert smallest >= least, (screen, name, smallest)


def _drawn_after(drawn: list[Drawn]) -> dict[int, list[Drawn]]:
    """For each element (by its order), the elements drawn after it whose boxes overlap its own."""
    band = 40.0
    bands: dict[int, list[Drawn]] = {}
    for d in drawn:
        for k in range(int(d.box[1] // band), int(d.box[3] // band) + 1):
            bands.setdefault(k, []).append(d)
    after: dict[int, list[Drawn]] = {}
    for d in drawn:
        near = {e.order: e for k in range(int(d.box[1] // band), int(d.box[3] // band) + 1) for e in bands[k]}
        after[d.order] = [e for order, e in sorted(near.items()) if order > d.order and _overlap(d.box, e.box)]
    return after


def test_nothing_covers_a_label_and_every_symbol_explains_itself() -> None:
    """In the tall arrangement: no shape or label drawn after a label overlaps it (the transparent
    clickable overlays aside); everything that takes the pointer has a hover text; and nothing that
    takes the pointer lies on a symbol with a hover text of its own."""
    for name, state in _positions().items():
        for seat in (PLAYER, None):
            _, drawn = _drawn(GAME.board_svg(state.view(seat), seat))
            after = _drawn_after(drawn)
            for label in (d for d in drawn if d.tag == "text"):
                for later in after[label.order]:
                    hidden = "hit" not in (later.element.get("class") or "") and later.element.get("fill") != "none"
                    assert not hidden, (name, label.element.text, later.tag, later.element.attrib)
            for d in drawn:
                assert d.inert() or d.titled_by() is not None, (name, d.tag, d.element.attrib)
            symbols = [d for d in drawn if not d.inert() and (d.tag != "rect" or "data-part" in d.element.attrib)]
            for symbol in symbols:
                for later in after[symbol.order]:
                    if not later.inert() and later.titled_by() not in (symbol.titled_by(), *symbol.ancestors):
                        raise AssertionError((name, symbol.element.attrib, "under", later.element.attrib))


AREAS = {"fs-sky", "fs-base", "fs-tray", "fs-tracks"}


def test_the_wide_arrangement_sets_the_base_tray_and_tracks_beside_the_sky() -> None:
    for name, state in _positions().items():
        root, drawn = _drawn(GAME.board_svg(state.view(PLAYER), PLAYER))
        css = "".join(e.text or "" for e in root.iter(f"{SVG}style"))
        dx, dy = map(float, re.findall(r"translate\(([-\d.]+)px,([-\d.]+)px\)", css)[0])
        _, _, wide_w, wide_h = map(float, root.attrib["data-viewbox-wide"].split())
        areas: dict[str, list[tuple[float, ...]]] = {}
        for d in drawn:
            area = next((a.get("class") for a in d.ancestors if a.get("class") in AREAS), None)
            if area is None:
                continue
            shift = (0.0, 0.0) if area == "fs-sky" else (dx, dy)
            areas.setdefault(area, []).append(tuple(v + shift[k % 2] for k, v in enumerate(d.box)))
        bounds = {
            a: tuple(f(b[k] for b in boxes) for k, f in enumerate((min, min, max, max))) for a, boxes in areas.items()
        }
        assert set(bounds) == AREAS
        for area, box in bounds.items():
            assert box[0] >= 0 and box[1] >= 0 and box[2] <= wide_w and box[3] <= wide_h, (name, area, box)
            if area != "fs-sky":
                assert not _overlap(bounds["fs-sky"], box, 0.0), (name, area)
