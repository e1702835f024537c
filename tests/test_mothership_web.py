"""Mothership's web board: the grid's SVG and the side panels, the action parts (paths) and the glossary."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import spacetable
from spacetable.engine import Action
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.rules.state import MothershipState

EXPANSION = {
    "neutron_stars": True,
    "black_holes": True,
    "beacons": True,
    "exploration": True,
    "objectives": "hidden",
}
GAMES: list[tuple[int, dict[str, Any]]] = [
    (4, {}),
    (4, {"team_size": 2}),
    (1, {}),
    (4, EXPANSION),
    (3, {"mode": "victory_points", "exploration": True, "objectives": "global", "random_event": True}),
]


def _svg(game: Mothership, state: MothershipState, seat: int | None) -> str:
    svg = game.board_svg(state.view(seat), seat)
    assert svg is not None
    return svg


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # well-formed XML, or this raises


def _parts(root: ET.Element) -> set[str]:
    return {e.get("data-part", "") for e in root.iter()} - {""}


def _titles(root: ET.Element) -> list[str]:
    """The hover texts of the board: the grid's ``<title>`` elements and the panels' ``title`` attributes."""
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")] + [
        e.get("title", "") for e in root.iter() if e.get("title")
    ]


def _terms(root: ET.Element) -> set[str]:
    return {e.get("data-term", "") for e in root.iter()} - {""}


def _positions(game: Mothership, seed: int, steps: int, every: int = 3) -> list[MothershipState]:
    """Positions of a random game where a seat decides, one in ``every``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found: list[MothershipState] = []
    decisions = 0
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        decisions += 1
        if decisions % every == 0:
            found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return found


def _check_parts(game: Mothership, state: MothershipState) -> None:
    """Every action has a place on the board of the seat to act (its parts are there), and paths
    name one action."""
    seat = state.current_player()
    root = _parse(_svg(game, state, seat))
    parts = _parts(root)
    paths: dict[tuple[str, ...], Action] = {}
    for action in state.legal_actions():
        path = game.action_parts(action)
        assert path, f"{state.action_label(action)!r} has no place on the board"
        missing = [p for p in path if p not in parts]
        assert not missing, (state.action_label(action), path, missing)
        if path:
            assert path not in paths, (state.action_label(action), state.action_label(paths[path]), path)
            paths[path] = action
    glossary = game.glossary()
    unknown = _terms(root) - set(glossary)
    assert not unknown, unknown


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_parts_exist_and_name_one_action(players: int, options: dict[str, Any]) -> None:
    game = Mothership(players, options)
    positions = _positions(game, seed=players * 7 + len(options), steps=180)
    assert positions
    for state in positions:
        _check_parts(game, state)


def _rich(game: Mothership, seed: int) -> MothershipState:
    """A turn position where the player holds one of every card, every ability and riches."""
    for state in _positions(game, seed, steps=400, every=1):
        quiet = state.pending is None and state.choice is None and not (state.trading or state.cancel or state.reward)
        if state.phase == "turn" and quiet and state.current_player() == state.turn and state.round >= 2:
            break
    else:
        raise AssertionError("no quiet turn position")
    seat = state.turn
    rich = state.clone()
    rich.hands[seat] = sorted(range(len(game.content.cards)))
    rich.resources[seat] = 50
    content = game.content
    for category, name in enumerate(("economy", "combat", "support")):
        rich.branches[seat][category] = next(i for i, b in enumerate(content.branches) if b.category == name)
        rich.tiers[seat][category] = 5
    return rich


@pytest.mark.parametrize("seed", [3, 11])
def test_cards_and_abilities_have_parts(seed: int) -> None:
    game = Mothership(4, {"exploration": True, "random_event": True})
    rich = _rich(game, seed)
    kinds = {a[-1] for a in rich.legal_actions()}
    assert {"play", "ability", "buy_charge", "sell"} <= kinds
    _check_parts(game, rich)
    second = rich.clone()  # the other branch of each category: the other abilities
    content = game.content
    for category, name in enumerate(("economy", "combat", "support")):
        second.branches[rich.turn][category] = [i for i, b in enumerate(content.branches) if b.category == name][1]
    second._legal_cache = None
    _check_parts(game, second)


def test_dogfight_cards_have_parts() -> None:
    game = Mothership(4, {"exploration": True})
    rich = _rich(game, 11)
    for seat in range(4):
        rich.hands[seat] = sorted(range(len(game.content.cards))) if not rich.out[seat] else []
    content = game.content
    rich.branches[rich.turn][1] = [i for i, b in enumerate(content.branches) if b.category == "combat"][1]
    rich._legal_cache = None
    starts = [a for a in rich.legal_actions() if a[-1] == "attack"][:2]
    missile = game.content.branches[rich.branches[rich.turn][1]].tiers[4].ability
    starts += [a for a in rich.legal_actions() if a[-1] == "ability" and missile == "nuclear_missile"][:2]
    assert starts
    rng = random.Random(2)
    seen = set()
    for attack in starts:
        state = rich.clone()
        state.apply_action(attack)
        for _ in range(60):
            if state.pending is None or state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            _check_parts(game, state)
            actions = state.legal_actions()
            seen.update(game.action_parts(a)[:1] for a in actions if a[-1] == "play")
            state.apply_action(rng.choice(actions))
    assert seen


def test_choice_buttons_and_marks() -> None:
    game = Mothership(4, EXPANSION)
    for state in _positions(game, seed=5, steps=900, every=1):
        if state.choice is not None:
            _check_parts(game, state)
            root = _parse(_svg(game, state, state.current_player()))
            for value in state.choice["options"]:
                assert f"choice:{value}" in _parts(root)
            return
    pytest.skip("no choice came up in this game")


@pytest.mark.parametrize(("players", "options"), [(4, {}), (4, EXPANSION)])
def test_the_board_uses_only_what_the_seat_knows(players: int, options: dict[str, Any]) -> None:
    game = Mothership(players, options)
    rng = random.Random(1)
    for state in _positions(game, seed=9, steps=220, every=15):
        for seat in range(players):
            other = state.resample(seat, rng)
            assert _svg(game, state, seat) == _svg(game, other, seat)


def _renamed_game() -> Mothership:
    content = {
        "cards": {"afterburner": {"name": "Zorblax Booster", "text": "Quux text of the booster."}},
        "objectives": {"land_grab": {"name": "Glorp Holdings", "text": "Hold 2 planets, glorp."}},
    }
    return Mothership(4, {"content": content, "exploration": True, "objectives": "hidden"})


def test_hidden_hands_and_objectives_stay_hidden() -> None:
    game = _renamed_game()
    state = next(s for s in _positions(game, seed=4, steps=200, every=1) if s.phase == "turn")
    card = game.card_index["afterburner"]
    objective = next(i for i, (key, _) in enumerate(game.content.objectives) if key == "land_grab")
    for seat in range(4):
        state.hands[seat] = [c for c in state.hands[seat] if c != card]
        state.objectives[seat] = [o for o in state.objectives[seat] if o != objective]
    state.hands[1].append(card)
    state.objectives[1].append(objective)
    state.discard[card] = 0
    mine = _svg(game, state, 1)
    assert "Zorblax Booster" in mine and "Glorp Holdings" in mine
    for seat in (0, 2, 3, None):
        theirs = _svg(game, state, seat)
        assert "Zorblax" not in theirs and "Glorp" not in theirs


def test_content_override_shows_in_glossary_and_titles() -> None:
    game = _renamed_game()
    glossary = game.glossary()
    assert glossary["Zorblax Booster"].startswith("Quux text of the booster.")
    assert "Afterburner" not in glossary
    assert "Glorp Holdings" in glossary and "glorp" in glossary["Glorp Holdings"]
    state = next(s for s in _positions(game, seed=4, steps=200, every=1) if s.phase == "turn")
    state.hands[0].append(game.card_index["afterburner"])
    root = _parse(_svg(game, state, 0))
    titles = _titles(root)
    assert any("Quux text of the booster." in t for t in titles)
    assert "Zorblax Booster" in _terms(root)


def test_glossary_covers_the_content() -> None:
    game = Mothership(4, EXPANSION)
    glossary = game.glossary()
    c = game.content
    for name in ("mothership", "fighter", "bomber", "colony station", "guardian cannon", "planet", "asteroid field"):
        assert glossary[name]
    for name in ("neutron star", "black hole", "beacon token", "engines", "weapons", "shields"):
        assert glossary[name]
    assert all(card.name in glossary for card in c.cards)
    assert all(tile.name in glossary for branch in c.branches for tile in branch.tiers)
    assert all(a.name in glossary for a in c.artifacts)
    assert all(m.name in glossary for _, m in c.beacons)
    assert all(m.name in glossary for _, m in c.objectives)


def test_parts_of_each_family() -> None:
    game = Mothership(4, {})
    from spacetable.games.mothership.rules.actions import Attack, EndTurn, Move, Place, SetEnergy

    assert game.action_parts(Move(2, 0)) == ("unit:2", "cell:A1")
    assert game.action_parts(Place(14)) == ("cell:B2",)
    assert game.action_parts(SetEnergy(4, 3, 8)) == ("panel:engines:4", "panel:weapons:3", "panel:shields:8")
    ships = game.content.ships
    assert game.action_parts(Attack(0b101, 2 * (ships + 1))) == ("unit:0", "unit:2", "unit:2:0")
    assert game.action_parts(Attack(1, 3 * (ships + 1) + ships)) == ("unit:0", "station:3")
    assert game.action_parts(EndTurn()) == ("end_turn",)  # a button of the Now panel


def test_the_board_before_it_is_drawn_and_how_to_play() -> None:
    game = Mothership(4, {})
    state = game.new_initial_state()
    _parse(_svg(game, state, 0))
    page = game.how_to_play()
    assert page and "<h2" in page and "<script" not in page


def test_the_npc_fleet_shows_what_each_ship_will_do() -> None:
    game = spacetable.load("mothership", 1, {"mode": "solo", "level": 1})
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    root = ET.fromstring(game.board_svg(state.view(0), 0) or "")
    titles = _titles(root)
    npc = [t for t in titles if t.startswith("NPC: ")]
    assert any("its orders: attack your colony station" in t for t in npc)
    assert any("its orders: guard the planet at " in t and "then hunt it" in t for t in npc)
    assert any("its orders: besiege the planet at " in t for t in npc)
