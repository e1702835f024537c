"""Exact odds before and during a Mothership fight (RULINGS.md, 105): the forecast of a roll in
progress, the note beside an action that starts one, and the view's JSON.

Each expected chance is counted here from the rulebook's rules as the game plays them: the state
is cloned after the declaration, every face of every die still to roll is applied through the
real rules (card windows passed), and the wins, ties and losses are read from what happened.
Chapter 3: the higher total wins, a tie hurts nobody, +1 a friendly ship beside the defender;
chapter 7: 6 or more captures a planet; chapter 8: a tie or better gets a ship through asteroids;
the expansion: a neutron star beside a side halves its total, rounding up.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import spacetable
from mothership_helpers import (
    BOMBER_1,
    CARDS,
    FIGHTER_1,
    FIGHTER_2,
    MOTHERSHIP,
    cell,
    holding,
    mask,
    new_game,
    planet,
    play,
    position,
    rolls,
    target,
)
from spacetable.engine import CHANCE, Action, Event
from spacetable.games.mothership.content import load_content
from spacetable.games.mothership.content.language import KEEPS
from spacetable.games.mothership.game import Mothership
from spacetable.games.mothership.rules.abilities import ABILITIES
from spacetable.games.mothership.rules.actions import Attack, Choose, DrawBeacon, Move, Pass, Play, UseAbility
from spacetable.games.mothership.rules.forecast import Forecast, forecast
from spacetable.games.mothership.rules.state import MothershipState
from spacetable.games.mothership.views.odds import odds_words, side_short, side_terms

BRANCHES = {branch.key: index for index, branch in enumerate(load_content().branches)}
ECONOMY, COMBAT, SUPPORT = range(3)
NAMES = {card.key: card.name for card in load_content().cards}

Judge = Callable[[MothershipState, "dict[str, Any] | None", list[Event]], "str | None"]
"""How a fight ended, from the state after an action, the roll in progress before it and the
action's events: ``"win"``, ``"tie"``, ``"lose"`` (the attacker's), or None while it goes on."""


# ---- counting every way the dice can fall --------------------------------------------------


def walk(state: MothershipState, judge: Judge) -> dict[str, Fraction]:
    """Every way the roll in progress ends through the real rules, with its chance: each face of
    each die (all alike), every card window passed (no more cards played)."""
    ends: dict[str, Fraction] = defaultdict(Fraction)
    todo = [(state.clone(), Fraction(1))]
    while todo:
        here, chance = todo.pop()
        if here.current_player() == CHANCE:
            outcomes = here.chance_outcomes()
            assert len({p for _, p in outcomes}) == 1, "dice faces are alike"
            steps = [(action, chance / len(outcomes)) for action, _ in outcomes]
        else:
            steps = [(Pass(), chance)]
        for action, p in steps:
            after = here.clone()
            before = after.pending
            events = after.apply_action(action)
            end = judge(after, before, events)
            if end is None:
                todo.append((after, p))
            else:
                ends[end] += p
    assert sum(ends.values()) == 1
    return {end: ends[end] for end in ("win", "tie", "lose")}


def dogfight(after: MothershipState, before: dict[str, Any] | None, events: list[Event]) -> str | None:
    """The final totals the rules set on the dogfight (after any halving)."""
    if before is None or "result" not in before:
        return None
    attack, defence = before["result"]
    return "win" if attack > defence else "tie" if attack == defence else "lose"


def captures(seat: int, index: int) -> Judge:
    def judge(after: MothershipState, before: dict[str, Any] | None, events: list[Event]) -> str | None:
        if after.pending is not None:
            return None
        return "win" if after.owner[index] == seat else "lose"

    return judge


def asteroids(after: MothershipState, before: dict[str, Any] | None, events: list[Event]) -> str | None:
    """The asteroids' side is the attack: "win" when they beat the ship."""
    for event in events:
        found = re.search(r"\((\d+)\) (?:beats|loses to) the asteroids \((\d+)\)", event.text)
        if found:
            ship, rocks = int(found[1]), int(found[2])
            return "win" if rocks > ship else "tie" if rocks == ship else "lose"
    return None


def worded(win: str, lose: str) -> Judge:
    """A roll judged by its events' words (a black hole's, a beacon test's)."""

    def judge(after: MothershipState, before: dict[str, Any] | None, events: list[Event]) -> str | None:
        text = " ".join(e.text for e in events)
        return "win" if win in text else "lose" if lose in text else None

    return judge


def chances(odds: Forecast) -> dict[str, Fraction]:
    return {"win": odds.win, "tie": odds.tie, "lose": odds.lose}


def percents(note: str) -> list[Fraction]:
    return [Fraction(p) for p in re.findall(r"(\d+\.\d)%", note)]


def shows(note: str, *expected: Fraction) -> None:
    """The note's percentages, in order, are ``expected`` rounded to one decimal."""
    shown = percents(note)
    assert len(shown) >= len(expected), note
    for words, exact in zip(shown, expected):
        assert abs(words - 100 * exact) <= Fraction(1, 20), note


def checked(state: MothershipState, judge: Judge) -> Forecast:
    """The forecast of the roll in progress, checked against every way it can go, and its view."""
    digest = state.digest()
    odds = forecast(state)
    assert odds is not None
    assert chances(odds) == walk(state, judge)
    assert state.digest() == digest, "the forecast spends nothing"
    views = [state.view(seat)["pending"]["forecast"] for seat in (0, 1, None)]
    assert views[0] == views[1] == views[2] == odds.to_json()  # public: alike for every seat
    assert views[0]["win"] == float(odds.win) and views[0]["lose"] == float(odds.lose)
    assert odds_words(views[0])
    return odds


def noted(state: MothershipState, action: Action) -> str:
    """``action``'s note, which changes nothing, then ``action`` applied."""
    digest = state.digest()
    note = state.action_note(action)
    assert note is not None and state.digest() == digest
    play(state, action)
    return note


def answer(state: MothershipState, cards: dict[int, list[str]]) -> None:
    """The window before the roll: each side plays its ``cards`` in turn (in order), then passes;
    nobody cancels."""
    while state.current_player() != CHANCE:
        seat = state.current_player()
        if not state.cancel and cards.get(seat):
            play(state, Play(CARDS[cards[seat].pop(0)], 0, 0))
        else:
            play(state, Pass())


# ---- dogfights -----------------------------------------------------------------------------


def test_a_plain_dogfight_d6_against_d6() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"})
    note = noted(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)))
    odds = checked(state, dogfight)
    assert (odds.win, odds.tie, odds.lose) == (Fraction(15, 36), Fraction(6, 36), Fraction(15, 36))
    assert note == "Fighter 1 (d6) against Player 2's Fighter 1 (d6): win 41.7%, tie 16.7%, lose 41.7%."


def test_wingmen_add_to_the_defence_and_two_attackers_add_their_dice() -> None:
    attackers = {(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5"}
    state = position({**attackers, (1, BOMBER_1): "E6", (1, FIGHTER_1): "D7", (1, FIGHTER_2): "F7"})
    note = noted(state, Attack(mask(FIGHTER_1, FIGHTER_2), target(1, BOMBER_1)))
    odds = checked(state, dogfight)
    assert note.startswith("Fighter 1 + Fighter 2 (d6 + d6) against Player 2's Bomber 1 (d8 + 2 wingman 2): ")
    shows(note, odds.win, odds.tie, odds.lose)


def test_the_technology_tree_adds_attack_defence_and_wingman_buffs() -> None:
    state = position({(0, FIGHTER_1): "E5", (0, BOMBER_1): "D5", (1, MOTHERSHIP): "E6", (1, FIGHTER_1): "F7"})
    state.branches[0][COMBAT], state.tiers[0][COMBAT] = BRANCHES["warheads"], 3  # fighters +1, bombers +2 (dark)
    state.branches[1][COMBAT], state.tiers[1][COMBAT] = BRANCHES["artillery"], 4  # Flak Screen: defence +1
    state.branches[1][SUPPORT], state.tiers[1][SUPPORT] = BRANCHES["defence"], 1  # Escort Doctrine: wingmen +1
    note = noted(state, Attack(mask(FIGHTER_1, BOMBER_1), target(1, MOTHERSHIP)))
    odds = checked(state, dogfight)
    assert odds.attack.terms == (("technology tree", 3),)
    assert odds.defence is not None and odds.defence.terms == (("technology tree", 1), ("1 wingman", 2))
    shows(note, odds.win, odds.tie, odds.lose)


def test_overcharges_held_count_and_are_not_spent_by_the_forecast() -> None:
    energy = {0: (5, 7, 3), 1: (3, 9, 3)}  # a d8 against a d10
    state = position({(0, MOTHERSHIP): "E5", (1, MOTHERSHIP): "E6"}, energy=energy)
    state.charges[:] = [1, 2]
    note = noted(state, Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP)))
    odds = checked(state, dogfight)
    assert odds.attack.terms == (("Overcharge", 3),) and state.charges == [1, 2]
    assert note.startswith("Mothership (d8 + Overcharge 3) against Player 2's Mothership (d10 + Overcharge 3): ")
    shows(note, odds.win, odds.tie, odds.lose)


def test_a_kept_beacon_card_counts_and_is_kept() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}, game=new_game(beacons=True))
    state.kept[0] = [[0, KEEPS.index("dogfight"), 2]]
    note = noted(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)))
    odds = checked(state, dogfight)
    assert odds.attack.terms == (("kept beacon card", 2),) and state.kept[0] == [[0, KEEPS.index("dogfight"), 2]]
    shows(note, odds.win, odds.tie, odds.lose)


HAZARDS = [
    "...........",
    ".1.........",
    "...........",
    ".....P.....",
    ".........P.",
    ".......**..",
    ".......**..",
    "..@@.....#.",
    "..@@.......",
    ".....P...2.",
    "...........",
]
"""The hazards tests' board: a neutron star H6-I7, a black hole C8-D9, an asteroid at J8 (beside the star)."""


def hazard_game(**options: Any) -> Mothership:
    data = {"layouts": {"hazards": {"players": 2, "rows": HAZARDS}}}
    game = spacetable.load(
        "mothership", 2, {"layout": "hazards", "content": data, "neutron_stars": True, "black_holes": True, **options}
    )
    assert isinstance(game, Mothership)
    return game


@pytest.mark.parametrize(
    ("ships", "halved"),
    [
        ({(0, FIGHTER_1): "G8", (1, FIGHTER_1): "F8", (1, FIGHTER_2): "E9"}, (True, False)),  # the attacker beside H7
        ({(0, FIGHTER_1): "F8", (1, FIGHTER_1): "G8", (1, FIGHTER_2): "G9"}, (False, True)),  # the defender
        ({(0, MOTHERSHIP): "G7", (1, MOTHERSHIP): "G8"}, (True, True)),  # both
    ],
)
def test_a_neutron_star_halves_a_sides_total(ships: dict[tuple[int, int], str], halved: tuple[bool, bool]) -> None:
    state = position(ships, game=hazard_game(), energy={0: (5, 5, 5), 1: (5, 5, 5)})
    attacker = MOTHERSHIP if (0, MOTHERSHIP) in ships else FIGHTER_1
    note = noted(state, Attack(mask(attacker), target(1, attacker)))
    odds = checked(state, dogfight)
    assert odds.defence is not None and (odds.attack.halved, odds.defence.halved) == halved
    shows(note, odds.win, odds.tie, odds.lose)
    assert ("halved" in note) and ("halved" in side_short(odds.to_json()["attack" if halved[0] else "defence"]))


@pytest.mark.parametrize(
    ("attacker_cards", "defender_cards"),
    [
        (["expansion_pak"], []),  # the highest face again: 2 dice
        (["expansion_pak", "volt_switch"], ["defence_buff", "wingman"]),
        ([], ["defence_buff"]),
    ],
)
def test_cards_played_into_the_window_count(attacker_cards: list[str], defender_cards: list[str]) -> None:
    ships = {(0, MOTHERSHIP): "E5", (0, FIGHTER_1): "F5", (1, FIGHTER_1): "E6", (1, FIGHTER_2): "D7"}
    state = holding(holding(position(ships), 0, *attacker_cards), 1, *defender_cards, "noooo")
    notes = [state.action_note(action) or "" for action in state.legal_actions()]
    note = noted(state, Attack(mask(MOTHERSHIP, FIGHTER_1), target(1, FIGHTER_1)))
    assert note in notes and note.endswith("; cards played before the roll can change this.")
    for name in [*defender_cards, "noooo"]:
        assert not any(NAMES[name] in words for words in notes)  # another seat's hand is never named
    answer(state, {0: list(attacker_cards), 1: list(defender_cards)})
    odds = checked(state, dogfight)
    played = [source for source, _ in odds.attack.terms]
    assert played == [NAMES[key] for key in attacker_cards]
    words = side_terms(odds.to_json()["attack"])
    assert ("highest die" in words) is ("expansion_pak" in attacker_cards)


def test_a_card_played_into_the_window_is_noted_with_the_odds_it_makes() -> None:
    state = holding(position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"}), 1, "defence_buff")
    play(state, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)))
    before = forecast(state)
    assert before is not None
    buff = Play(CARDS["defence_buff"], 0, 0)
    note = noted(state, buff)
    odds = checked(state, dogfight)
    assert note.startswith("With Defence Buff: win ")
    shows(note, odds.lose, odds.tie, odds.win, before.lose, before.tie, before.win)  # the defender's side


def test_a_roll_half_done_counts_the_faces_shown() -> None:
    state = position({(0, FIGHTER_1): "E5", (0, FIGHTER_2): "F5", (1, FIGHTER_1): "E6"})
    play(state, Attack(mask(FIGHTER_1, FIGHTER_2), target(1, FIGHTER_1)), *rolls(2))
    odds = checked(state, dogfight)
    assert odds.attack.rolled == (2,) and side_short(odds.to_json()["attack"]) == "d6=2+d6"


def test_an_ability_that_fires_is_noted_at_range() -> None:
    state = position({(0, MOTHERSHIP): "A1", (1, MOTHERSHIP): "K11"})
    state.branches[0][COMBAT], state.tiers[0][COMBAT] = BRANCHES["warheads"], 5  # the Nuclear Missile: +4
    state._legal_cache = None
    note = noted(state, UseAbility(ABILITIES.index("nuclear_missile"), target(1, MOTHERSHIP), 0))
    odds = checked(state, dogfight)
    assert note.startswith("Mothership (d6 + nuclear 4) against Player 2's Mothership (d6): ")
    assert "(at range: no damage to you)" in note
    shows(note, odds.win, odds.tie, odds.lose)


# ---- planets -------------------------------------------------------------------------------


def test_a_planet_attack_needs_six_and_takes_no_buffs() -> None:
    state = position({(0, FIGHTER_1): "C3", (0, BOMBER_1): "E5", (1, FIGHTER_1): "K11"})
    state.branches[0][COMBAT], state.tiers[0][COMBAT] = BRANCHES["warheads"], 3
    state.charges[0] = 1
    note = noted(state, Attack(mask(FIGHTER_1, BOMBER_1), planet(0)))
    odds = checked(state, captures(0, 0))
    assert odds.win == Fraction(38, 48) and odds.attack.terms == () and odds.need == 6
    assert note == "Fighter 1 + Bomber 1 roll d6 + d8 on the neutral planet at D4: 6 or more captures it, 79.2%."


def test_git_off_mah_propertay_and_planetary_defence_raise_the_total_needed() -> None:
    state = position({(0, FIGHTER_1): "C3", (0, BOMBER_1): "E5", (1, FIGHTER_1): "K11"})
    holding(state, 1, "git_off_mah_propertay")
    state.owner[0] = 1
    state.branches[1][SUPPORT], state.tiers[1][SUPPORT] = BRANCHES["engineering"], 4  # Planetary Defence +2
    note = noted(state, Attack(mask(FIGHTER_1, BOMBER_1), planet(0)))
    assert "8 or more captures it" in note and NAMES["git_off_mah_propertay"] not in note
    card = noted(state, Play(CARDS["git_off_mah_propertay"], 0, 0))
    odds = checked(state, captures(0, 0))
    assert odds.need == 11 and odds.win == Fraction(10, 48)  # 3 + 8, 4 + 7 or more, ...
    assert card == "With Git off Mah Propertay!: holds 79.2% (now holds 43.8%)."  # 27 of 48 reach 8


# ---- asteroids, black holes, beacon tests ---------------------------------------------------


def test_entering_asteroids_with_the_trees_buffs_and_an_overcharge() -> None:
    state = position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"})
    state.branches[0][COMBAT], state.tiers[0][COMBAT] = BRANCHES["warheads"], 4  # Evasive Pilots: +1
    state.branches[0][SUPPORT], state.tiers[0][SUPPORT] = BRANCHES["engineering"], 2  # Asteroid Navigation: +2
    state.charges[0] = 1
    note = noted(state, Move(FIGHTER_1, cell("B6")))
    odds = checked(state, asteroids)
    assert odds.defence is not None and odds.defence.terms == (("technology tree", 3), ("Overcharge", 3))
    assert note.startswith("Entering the asteroids at B6: Fighter 1 (d6 + technology tree 3 + Overcharge 3) ")
    shows(note, odds.tie + odds.lose, odds.win)


def test_asteroids_beside_a_neutron_star_halve_the_ship_not_the_rocks() -> None:
    state = holding(position({(0, FIGHTER_1): "K9", (1, FIGHTER_1): "A11"}, game=hazard_game()), 0, "defence_buff")
    note = noted(state, Move(FIGHTER_1, cell("J8")))
    answer(state, {0: ["defence_buff"]})
    odds = checked(state, asteroids)
    assert odds.defence is not None and odds.defence.halved and not odds.attack.halved
    assert "halved" in note


def test_a_die_rolled_again_after_the_asteroid_roll() -> None:
    state = holding(position({(0, FIGHTER_1): "B7", (1, FIGHTER_1): "K11"}), 0, "backup_generator")
    play(state, Move(FIGHTER_1, cell("B6")), Pass(), *rolls(4, 1))
    note = noted(state, Play(CARDS["backup_generator"], 0, 1))
    odds = checked(state, asteroids)
    assert odds.defence is not None and odds.defence.again == (0, 1)
    assert odds.win == Fraction(2, 6) and odds.tie == Fraction(1, 6)  # 1 + d6 against 4
    assert note.startswith("With Backup Generator: gets through 66.7%")


def test_entering_a_black_hole() -> None:
    state = position({(0, FIGHTER_1): "F7", (1, FIGHTER_1): "K11"}, game=hazard_game())
    note = noted(state, Move(FIGHTER_1, cell("D8")))
    odds = checked(state, worded("torn apart", "warps out"))
    assert odds.win == Fraction(10, 12) and odds.need == 3
    assert note == "The black hole at D8 rolls a d12 against Fighter 1: it warps out 16.7%, is destroyed 83.3%."


def test_a_beacon_options_test() -> None:
    card = {"name": "T Test", "count": 1, "story": "A gamble."}
    card["options"] = [
        {"text": "Gamble.", "effects": ["resources 5"], "test": "d6 >= 4", "otherwise": ["resources -1"]},
        {"text": "Walk away.", "effects": ["cards 1"]},
    ]
    game = new_game(2, content={"beacons": {"t_test": card}}, beacons=True)
    state = position({(0, FIGHTER_1): "E2", (1, FIGHTER_1): "K11"}, game=game)
    state.tokens = [[cell("E4"), 1]]
    state.resources[0] = 2
    play(state, Move(FIGHTER_1, cell("E4")))
    keys = [key for key, _ in game.content.beacons]
    play(state, DrawBeacon(keys.index("t_test")))
    note = noted(state, Choose(0))
    odds = checked(state, worded("it works", "it fails"))
    assert odds.win == Fraction(1, 2) and note == "Roll a d6: 4 or more succeeds, 50.0%."


# ---- nothing to say ------------------------------------------------------------------------


def test_no_note_and_no_forecast_where_nothing_is_rolled() -> None:
    state = position({(0, FIGHTER_1): "J2", (1, FIGHTER_1): "K11"})  # nothing to attack, no asteroid in reach
    assert [state.action_note(action) for action in state.legal_actions()] == [None] * len(state.legal_actions())
    assert state.view(0)["pending"] is None


# ---- a warning before a move that knocks its player out (ruling 106) -----------------------


def out_of_the_game(seat: int) -> Judge:
    """A roll judged once it is over (no roll left, no die to roll): "win" when ``seat`` is out."""

    def judge(after: MothershipState, before: dict[str, Any] | None, events: list[Event]) -> str | None:
        if after.pending is not None or after.current_player() == CHANCE:
            return None
        return "win" if after.out[seat] else "lose"

    return judge


def warned(state: MothershipState, action: Action) -> tuple[str | None, Fraction]:
    """``action``'s warning (which changes nothing) and the chance, counted through the real rules
    die by die, that the acting seat is out of the game once the roll it starts is over."""
    seat, digest = state.current_player(), state.digest()
    warning = state.action_warning(action)
    assert state.digest() == digest
    after = state.clone()
    play(after, action)
    return warning, walk(after, out_of_the_game(seat))["win"]


def test_a_last_ship_into_a_black_hole_is_warned_with_the_chance_it_is_torn_apart() -> None:
    state = position({(0, FIGHTER_1): "F7", (1, FIGHTER_1): "K11"}, game=hazard_game())
    warning, out = warned(state, Move(FIGHTER_1, cell("D8")))
    assert out == Fraction(10, 12)
    assert warning == (
        "Fighter 1 is your last ship, and this roll destroys it with a 83.3% chance: you would be out of the game."
    )


def test_no_warning_while_another_ship_is_left_or_in_the_victory_points_mode() -> None:
    ships = {(0, FIGHTER_1): "F7", (0, FIGHTER_2): "A1", (1, FIGHTER_1): "K11"}
    assert warned(position(ships, game=hazard_game()), Move(FIGHTER_1, cell("D8"))) == (None, Fraction(0))
    points = position({(0, FIGHTER_1): "F7", (1, FIGHTER_1): "K11"}, game=hazard_game(mode="victory_points"))
    assert points.action_warning(Move(FIGHTER_1, cell("D8"))) is None


def test_a_last_fighter_attacking_is_warned_only_when_it_loses_half_the_time_or_more() -> None:
    even = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"})
    warning, out = warned(even, Attack(mask(FIGHTER_1), target(1, FIGHTER_1)))
    assert (warning, out) == (None, Fraction(15, 36))  # d6 against d6: it loses 41.7%
    bomber = position({(0, FIGHTER_1): "E5", (1, BOMBER_1): "E6", (1, FIGHTER_1): "D7", (1, FIGHTER_2): "F7"})
    assert warned(bomber, Attack(mask(FIGHTER_1), target(1, BOMBER_1))) == (
        None,
        Fraction(0),
    )  # it cannot hurt a fighter
    strong = position({(0, FIGHTER_1): "E5", (1, MOTHERSHIP): "E6", (1, FIGHTER_1): "D7", (1, FIGHTER_2): "F7"})
    warning, out = warned(strong, Attack(mask(FIGHTER_1), target(1, MOTHERSHIP)))
    assert out >= Fraction(1, 2) and warning is not None  # against the mothership's die and 2 wingmen
    assert abs(percents(warning)[0] - 100 * out) <= Fraction(1, 20)


def test_a_mothership_is_lost_only_to_damage_through_its_shields_and_hull() -> None:
    state = position({(0, MOTHERSHIP): "E5", (1, MOTHERSHIP): "E6", (1, FIGHTER_1): "D7", (1, FIGHTER_2): "F7"})
    attack = Attack(mask(MOTHERSHIP), target(1, MOTHERSHIP))
    state.shield[0], state.hp[0] = 0, 20
    assert warned(state, attack) == (None, Fraction(0))  # no total reaches 20
    state.hp[0] = 1
    warning, out = warned(state, attack)
    assert out > Fraction(1, 2) and warning is not None and warning.startswith("Mothership is your last ship")
