"""Exact odds of a fight, before it and while it is rolled: each side's dice and bonuses, and the chances.

A side (:class:`Side`) is its dice, the faces rolled so far, its bonus terms in the order its
total lists them, and whether its final total is halved. Its terms come from the functions the
resolution itself adds up (:func:`.combat.attack_terms`, :func:`.combat.defence_terms`,
:func:`.combat.wingmen_term`, :func:`.combat.asteroid_terms`, the cards' :func:`.tactics.card_terms`),
asked on a clone: what is good for one roll (an Overcharge, a kept beacon card) is spent there,
never in the state, and what they tell is dropped. The chances are counted exactly, die by die
(no sampling), as :class:`fractions.Fraction`.

Everything read is public: dice, positions, the tree, Overcharges and kept beacon cards held,
the cards already played into the window, hand sizes. Nobody's hand is read, so a forecast is
the same for every seat, and a note (:func:`note`) never names a card someone holds. What a
note takes for granted is RULINGS.md's ruling 105.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import floor, prod
from typing import TYPE_CHECKING, Any

from spacetable.engine import JSON, Action, Event

from ..content.language import COMPARE, parse_test
from . import combat, movement, tactics, turns
from .actions import Choose, Pass
from .board import ASTEROID, BLACK_HOLE
from .targets import FIGHTER, PLANET_TARGET, decode_target, target_cell

if TYPE_CHECKING:
    from .state import MothershipState
    from .tactics import Term

HIGHEST = "highest die"
"""The words (and the JSON value) of a term that adds the side's highest face (Expansion Pak)."""


@dataclass(frozen=True)
class Side:
    """One side of a fight: ``dice`` (each die's sides; a d2 counts 1 or 2), ``terms`` (source,
    value) in the order its total lists them, zero ones left out (None: the highest face again,
    :data:`.tactics.Term`), ``halved``: its final total is halved, rounding up (a neutron star
    beside one of its units); ``rolled``: the faces shown so far, die by die; ``again``: (die,
    what its new face adds to) while one die is rolled again (0: The Forks, its old face: Backup
    Generator)."""

    dice: tuple[int, ...]
    terms: tuple[Term, ...] = ()
    halved: bool = False
    rolled: tuple[int, ...] = ()
    again: tuple[int, int] | None = None

    def totals(self) -> tuple[dict[int, int], int]:
        """Each final total the side may reach with the ways to reach it, out of how many ways
        the dice still to roll may fall (all alike)."""
        faces = [_faces(sides) if i >= len(self.rolled) else (self.rolled[i],) for i, sides in enumerate(self.dice)]
        if self.again is not None:
            die, base = self.again
            faces[die] = tuple(base + face for face in _faces(self.dice[die]))
        constant = sum(value for _, value in self.terms if value is not None)
        highest = sum(1 for _, value in self.terms if value is None)
        counts: dict[tuple[int, int], int] = {(0, 0): 1}  # (sum, highest face) -> ways
        for options in faces:
            step: dict[tuple[int, int], int] = defaultdict(int)
            for (total, top), ways in counts.items():
                for face in options:
                    step[total + face, max(top, face) if highest else 0] += ways
            counts = step
        final: dict[int, int] = defaultdict(int)
        for (total, top), ways in counts.items():
            value = total + constant + highest * top
            final[(value + 1) // 2 if self.halved else value] += ways
        return final, prod(len(options) for options in faces)

    def to_json(self) -> JSON:
        return {
            "dice": list(self.dice),
            "terms": [[source, HIGHEST if value is None else value] for source, value in self.terms],
            "halved": self.halved,
            "rolled": list(self.rolled),
            "again": None if self.again is None else self.again[0],
        }


@dataclass(frozen=True)
class Forecast:
    """A fight's odds: ``what`` (``dogfight``, ``planet``, ``asteroid``, ``black_hole``, ``test``),
    the attacking side (the asteroids against a ship; the roll alone for a planet, a black hole,
    a beacon test) and the defending one (None where a total is needed instead: ``attack`` must
    satisfy ``op`` ``need``). ``win``: the attack wins (is higher, or meets the need); ``tie``:
    equal totals (nobody is hurt; a ship gets through asteroids); ``lose``: the rest."""

    what: str
    attack: Side
    defence: Side | None
    need: int | None
    op: str
    win: Fraction
    tie: Fraction
    lose: Fraction

    def to_json(self) -> JSON:
        return {
            "what": self.what,
            "attack": self.attack.to_json(),
            "defence": None if self.defence is None else self.defence.to_json(),
            "need": self.need,
            "op": self.op,
            "win": float(self.win),
            "tie": float(self.tie),
            "lose": float(self.lose),
        }


def odds(what: str, attack: Side, defence: Side | None, need: int | None = None, op: str = ">=") -> Forecast:
    """The exact chances of ``attack`` against ``defence`` (or against ``need``)."""
    mine, ways = attack.totals()
    if defence is None:
        assert need is not None
        win = Fraction(sum(n for total, n in mine.items() if COMPARE[op](total, need)), ways)
        return Forecast(what, attack, None, need, op, win, Fraction(0), 1 - win)
    theirs, their_ways = defence.totals()
    wins = ties = 0
    for a, n in mine.items():
        for d, m in theirs.items():
            if a > d:
                wins += n * m
            elif a == d:
                ties += n * m
    win, tie = Fraction(wins, ways * their_ways), Fraction(ties, ways * their_ways)
    return Forecast(what, attack, defence, None, op, win, tie, 1 - win - tie)


def forecast(state: MothershipState) -> Forecast | None:
    """The odds of the roll in progress (``state.pending``) from the faces rolled so far and the
    cards played into its window; None with no roll, once its result is known, or for a roll
    that is no contest (a random event, Replicator, a beacon card's die choosing its option)."""
    pending = state.pending
    if pending is None or "result" in pending:
        return None
    what = pending["what"]
    if what == "dogfight":
        return _dogfight(state)
    if what == "asteroid":
        return _asteroids(state)
    if what == "black_hole":  # module hazards: up to warp_faces the unit warps out, above it is hurt
        hole = Side(tuple(pending["dice"]), rolled=tuple(pending["rolls"]))
        return odds(what, hole, None, state.game.content.hazards.warp_faces + 1)
    if what == "test":  # a beacon card's option tested by a die (module scripts)
        script = state.script
        if script is None or script["source"] != "beacon" or script["option"] < 0:
            return None
        test = state.game.content.beacons[script["card"]][1].options[script["option"]].test
        assert test is not None
        rule = parse_test(test)
        return odds(what, Side(tuple(pending["dice"]), rolled=tuple(pending["rolls"])), None, rule.amount, rule.op)
    return None


def _dogfight(state: MothershipState) -> Forecast:
    probe = state.clone()  # the terms spend what is good for one roll: here, not in the state
    pending = probe.pending
    assert pending is not None
    scratch: list[Event] = []
    seat, ships, target = pending["seat"], pending["ships"], pending["target"]
    count = len(ships)
    attackers = [probe.pos[seat][ship] for ship in ships]
    attack = _side(probe, pending, 0, count, combat.attack_terms(probe, pending, scratch), attackers)
    if decode_target(probe, target)[0] == PLANET_TARGET:
        return odds("planet", attack, None, tactics.capture_needs(probe, pending))
    terms = [*combat.defence_terms(probe, pending, scratch), combat.wingmen_term(probe, pending)[1]]
    defence = _side(probe, pending, count, len(pending["dice"]), terms, [target_cell(probe, target)])
    return odds("dogfight", attack, defence)


def _asteroids(state: MothershipState) -> Forecast:
    probe = state.clone()
    pending = probe.pending
    assert pending is not None
    cell = probe.pos[pending["seat"]][pending["ships"][0]]
    terms = combat.asteroid_terms(probe, pending, [])
    rocks = Side((pending["dice"][0],), rolled=tuple(pending["rolls"][:1]))
    return odds("asteroid", rocks, _side(probe, pending, 1, len(pending["dice"]), terms, [cell]))


def _side(
    state: MothershipState, pending: dict[str, Any], first: int, end: int, terms: list[Term], cells: list[int]
) -> Side:
    """The side whose dice are ``pending["dice"][first:end]``, with ``terms``, its units on ``cells``."""
    rolls = pending["rolls"]
    again = pending.get("reroll")
    if again is not None and first <= again[0] < end:
        die = again[0] - first
        rerolled: tuple[int, int] | None = (die, rolls[again[0]] if again[1] == "add" else 0)
    else:
        rerolled = None
    return Side(
        tuple(pending["dice"][first:end]),
        tuple((source, value) for source, value in terms if value != 0),
        combat.final_total(state, cells, 2, "", []) != 2,  # the modules' chain halves a total (a neutron star)
        tuple(rolls[first:end]),
        rerolled,
    )


def _faces(sides: int) -> tuple[int, ...]:
    """What a die of ``sides`` may count, each as likely (a d2: 1 or 2)."""
    return tuple(range(1, sides + 1))


# ---- the note beside an action -------------------------------------------------------------

PROBED = frozenset({"attack", "move", "play", "ability", "choose", "end_turn"})
"""The kinds of action that may start a roll, or change one under way: each is tried on a clone."""


def note(state: MothershipState, action: Action) -> str | None:
    """What ``action`` (legal for the seat to act) risks or promises: the odds of the roll it
    starts (an attack, an asteroid field or a black hole entered, a card or ability that fires,
    a beacon option's test) or, for a card played into a dogfight's window, the odds it makes.
    Tried on a clone, the cards played taking effect (nobody cancels them); None otherwise."""
    tried = _tried(state, action)
    if tried is None:
        return None
    probe, after = tried
    seat = state.current_player()
    if state.pending is None:
        roll = probe.pending
        assert roll is not None
        return _started(probe, roll, after) if roll["seat"] == seat else None
    sides = tactics.sides(state, state.pending)
    now = forecast(state) if action[-1] == "play" and seat in sides else None  # (a canceller may be neither side)
    if now is None or now == after:
        return None
    side = sides.index(seat)
    card = state.game.content.cards[action[0]].name
    return f"With {card}: {_chances(after, side)} (now {_chances(now, side)})."


def warning(state: MothershipState, action: Action) -> str | None:
    """Why ``action`` (legal for the seat to act) may knock its player out (ruling 106): it starts
    a roll with the player's last ships (no other ship on the board), and the dice destroy them
    all with at least ``state.warning_chance``; None otherwise, and always in the victory points
    mode, which knocks nobody out. Cards still to be played are left out, as in :func:`note`."""
    if state.pending is not None or state.game.mode == "victory_points":
        return None
    tried = _tried(state, action)
    if tried is None:
        return None
    probe, fight = tried
    roll, seat = probe.pending, state.current_player()
    assert roll is not None
    ships = roll["ships"]
    if roll["seat"] != seat or not ships or turns.ships_left(probe, seat) > len(ships):
        return None
    chance = _all_lost(probe, roll, fight)
    if chance < state.warning_chance:
        return None
    names = " + ".join(state.game.ship_names[ship] for ship in ships)
    one = len(ships) == 1
    return (
        f"{names} {'is your last ship' if one else 'are your last ships'}, and this roll destroys "
        f"{'it' if one else 'them all'} with a {percent(chance)} chance: you would be out of the game."
    )


def _tried(state: MothershipState, action: Action) -> tuple[MothershipState, Forecast] | None:
    """``action`` applied to a clone (cards played taking effect, a pull into a black hole taken
    to any space, as all roll alike) and the odds of the roll then under way; None where the
    action starts or changes no roll."""
    kind = action[-1]
    if kind not in PROBED or (kind == "move" and not _hazardous(state, action[1])):
        return None
    seat = state.current_player()
    probe = state.clone()
    probe.apply_legal(action, seat)
    while probe.cancel:  # nobody plays Noooooooooooo!
        probe.apply_legal(Pass(), probe.cancel[0])
    choice = probe.choice
    if kind == "move" and choice is not None and probe.pending is None and choice["seat"] == seat:
        probe.apply_legal(Choose(choice["options"][0]), seat)  # pulled into a black hole: any space rolls alike
    after = forecast(probe)
    return None if after is None else (probe, after)


def _all_lost(state: MothershipState, roll: dict[str, Any], fight: Forecast) -> Fraction:
    """The chance that the roll ``fight`` destroys every ship of ``roll`` (its roller's): a ship
    is torn apart by any loss, the mothership only by damage reaching its shields and hull."""
    seat, ships = roll["seat"], roll["ships"]
    toughness = movement.shield_points(state, seat) + state.hp[seat]
    if fight.what == "black_hole":
        hurts = fight.need
        assert hurts is not None
        return _chance(fight, lambda hole, _: hole >= hurts and (ships[0] != 0 or hole >= toughness))
    if fight.what == "asteroid":
        return _chance(fight, lambda rocks, ship: ship < rocks and (ships[0] != 0 or rocks >= toughness))
    if fight.what != "dogfight" or roll.get("ranged"):
        return Fraction(0)
    kind = decode_target(state, roll["target"])[0]
    kinds = state.game.ship_kinds
    if any(kinds[ship] not in combat.DAMAGES[kind] for ship in ships):
        return Fraction(0)  # a ship the defender cannot hurt survives
    if 0 in ships and kind == FIGHTER:
        return Fraction(0)  # fighters alone never reach a hull
    return _chance(fight, lambda attack, defence: defence > attack and (0 not in ships or defence >= toughness))


def _chance(fight: Forecast, happens: Callable[[int, int], bool]) -> Fraction:
    """The chance of ``happens(attack total, defence total)`` (defence 0 against a number)."""
    attack, ways = fight.attack.totals()
    defence, their_ways = fight.defence.totals() if fight.defence is not None else ({0: 1}, 1)
    hits = sum(n * m for a, n in attack.items() for d, m in defence.items() if happens(a, d))
    return Fraction(hits, ways * their_ways)


def _hazardous(state: MothershipState, cell: int) -> bool:
    """Whether a move ending on ``cell`` may meet a roll: an asteroid, or a black hole in or beside it."""
    board = state.board
    assert board is not None
    terrain = board.terrain
    return terrain[cell] in (ASTEROID, BLACK_HOLE) or any(terrain[n] == BLACK_HOLE for n in board.neighbours[cell])


def _started(state: MothershipState, roll: dict[str, Any], fight: Forecast) -> str:
    """The note of a roll just started by the seat to act (``roll["seat"]``)."""
    board = state.board
    assert board is not None
    seat, what = roll["seat"], fight.what
    ships = " + ".join(state.game.ship_names[ship] for ship in roll["ships"])
    later = "; cards played before the roll can change this." if roll.get("asker", -1) >= 0 else "."
    if what == "planet":
        assert fight.need is not None
        return (
            f"{ships} {'roll' if len(roll['ships']) > 1 else 'rolls'} {side_words(fight.attack)} on "
            f"{combat.target_name(state, roll['target'])}: "
            f"{needed(fight)} captures it, {percent(fight.win)}{later}"
        )
    if what == "dogfight":
        assert fight.defence is not None
        at_range = " (at range: no damage to you)" if roll.get("ranged") else ""
        return (
            f"{ships} ({side_words(fight.attack)}) against {combat.target_name(state, roll['target'])} "
            f"({side_words(fight.defence)}): {_chances(fight, tactics.ATTACK)}{at_range}{later}"
        )
    where = board.name_of(state.pos[seat][roll["ships"][0]]) if roll["ships"] else ""
    if what == "asteroid":
        assert fight.defence is not None
        return (
            f"Entering the asteroids at {where}: {ships} ({side_words(fight.defence)}) against the asteroids "
            f"({side_words(fight.attack)}): {_chances(fight, tactics.DEFENCE)}{later}"
        )
    if what == "black_hole":
        hurt = "is destroyed" if roll["ships"][0] else "takes the roll as damage"
        return (
            f"The black hole at {where} rolls a {side_words(fight.attack)} against {ships}: it warps out "
            f"{percent(fight.lose)}, {hurt} {percent(fight.win)}."
        )
    return f"Roll a {side_words(fight.attack)}: {needed(fight)} succeeds, {percent(fight.win)}."


def _chances(fight: Forecast, side: int) -> str:
    """The chances in words for ``side`` (``tactics.ATTACK`` or ``DEFENCE``) of a fight."""
    if fight.what == "asteroid":  # the ship defends: a tie or better gets it through
        return f"gets through {percent(fight.tie + fight.lose)}, loses {percent(fight.win)}"
    win, lose = (fight.win, fight.lose) if side == tactics.ATTACK else (fight.lose, fight.win)
    if fight.defence is None:
        return f"{'succeeds' if side == tactics.ATTACK else 'holds'} {percent(win)}"
    return f"win {percent(win)}, tie {percent(fight.tie)}, lose {percent(lose)}"


def side_words(side: Side) -> str:
    """A side in words: ``d6 + d8 + technology tree 1 + Expansion Pak (highest die), halved``."""
    dice = [
        f"d{sides}" + (f" showing {side.rolled[i]}" if i < len(side.rolled) and not _again(side, i) else "")
        for i, sides in enumerate(side.dice)
    ]
    text = " + ".join(dice) or "no die"
    for source, value in side.terms:
        text += f" + {source} ({HIGHEST})" if value is None else f" {'-' if value < 0 else '+'} {source} {abs(value)}"
    return text + (", halved" if side.halved else "")


def _again(side: Side, die: int) -> bool:
    return side.again is not None and side.again[0] == die


def needed(fight: Forecast) -> str:
    """The total a fight against a number needs, in words: ``6 or more``."""
    words = {">=": "{} or more", ">": "more than {}", "<=": "{} or less", "<": "less than {}", "==": "exactly {}"}
    return words[fight.op].format(fight.need)


def percent(chance: Fraction) -> str:
    """A chance as a percentage with one decimal, halves rounded up: ``41.7%``, ``56.3%``."""
    tenths = floor(chance * 1000 + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10}%"
