"""The small language of the expansion's cards: distress beacons and objectives.

A card's requirements and rewards are short strings in content data
(``content/beacons.toml``, ``content/objectives.toml``), parsed and checked when the content
loads, so a designer's typo is a clear error naming the card, never a surprise in play.

**Effects** (``verb arguments``), done in order; "your ship" is the ship that activated the
beacon (an objective has none):

- ``resources N``: gain N resources (negative: pay, never below 0).
- ``cards N``: draw N action cards. ``objectives N``: draw N objective cards (hidden objectives
  only; otherwise the reward is discarded).
- ``repair N``: repair N hull points of the mothership, or of the colony station in whole
  counters (multiples of 4); the player picks where.
- ``cannon``: deploy a guardian cannon beside one of the player's ships (the player picks the space).
- ``artifact``: explore, free, an unexplored planet the player holds (the player picks which).
- ``tech CATEGORY``: one tier up in ``economy``, ``combat`` or ``support``, free (the player
  picks the branch where none is climbed yet).
- ``development``: a planetary development (a module spacetable does not have: only on cards
  that require ``planetary_development``: drawn, they are discarded for another card).
- ``points N``: victory points (ignored outside mode victory_points).
- ``damage N``: your ship takes N damage (a fighter or bomber is destroyed; a mothership's
  shields absorb first). ``destroy``: your ship is destroyed.
- ``warp WHERE``: your ship jumps to a free space ``anywhere``, beside the closest ``planet``,
  beside your ``station``, or beside the closest ``enemy`` ship (the player breaks ties).
- ``strike N``: the enemy ship closest to your ship takes N damage (the player breaks ties);
  your units destroyed it if it explodes.
- ``keep dogfight N``: the card is kept; +N to the player's side in their next dogfight.
  ``keep salvage N``: kept; the next time the player's units destroy an enemy unit, N resources.
  A kept card blocks the player's further beacons until it is used.

**Requirements** (``QUANTITY OP N``, OP one of ``>= <= == > <``), each the player's own:
``engines``, ``weapons``, ``shields`` (the mothership's energy in the subsystem; shields count 0
beside a neutron star; 0 without a mothership), ``resources``, ``hull``, ``station`` (hull
points), ``planets``, ``artifacts``, ``cards`` (action cards in hand), ``ships`` (on the board),
``cannons``, ``tiers`` (tiers bought), ``economy_tier``, ``combat_tier``, ``support_tier``, and
the tallies counted from the start of the game (``TALLIES``). Or ``near THING``: your ship is on
or next to a ``planet``, ``asteroid``, ``neutron_star``, ``black_hole``, ``station`` (any colony
station) or ``enemy`` ship.

**Dice**: a beacon card's ``decide = "dN"`` rolls and the option whose ``faces`` hold the roll is
taken; an option's ``test = "dN >= K"`` is rolled after the player commits to it: ``effects`` on
success, ``otherwise`` on failure.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

OBJECTIVE_REWARDS = (
    "resources",
    "cards",
    "objectives",
    "repair",
    "cannon",
    "artifact",
    "tech",
    "development",
    "points",
)
"""The reward kinds the rulebook lists for objectives."""
EFFECTS = (*OBJECTIVE_REWARDS, "damage", "destroy", "warp", "strike", "keep")
"""Every effect verb: the objectives' rewards, and what beacon cards do besides."""
CATEGORIES = ("economy", "combat", "support")
WARPS = ("anywhere", "planet", "station", "enemy")
KEEPS = ("dogfight", "salvage")
TALLIES = (
    "fighters_destroyed",
    "bombers_destroyed",
    "motherships_destroyed",
    "stations_destroyed",
    "planets_captured",
    "dogfights_won",
    "beacons_activated",
    "planets_explored",
)
"""Deeds each player has done since the start of the game (counted by the rules as they happen)."""
QUANTITIES = (
    "engines",
    "weapons",
    "shields",
    "resources",
    "hull",
    "station",
    "planets",
    "artifacts",
    "cards",
    "ships",
    "cannons",
    "tiers",
    "economy_tier",
    "combat_tier",
    "support_tier",
    *TALLIES,
)
NEAR = ("planet", "asteroid", "neutron_star", "black_hole", "station", "enemy")
COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    ">": operator.gt,
    "<": operator.lt,
}
"""A requirement's or test's comparison as a function of (value, amount)."""
OPS = tuple(COMPARE)
MODULES = ("exploration", "random_event", "neutron_stars", "black_holes", "beacons", "objectives", "victory_points")
"""Modules a card may require that spacetable has (``victory_points`` is the mode)."""
ABSENT = ("nebula", "wormholes", "class_cards", "moons", "influence", "planetary_development")
"""Modules of the physical game that spacetable lacks: a card requiring one is in the deck, and
discarded for the next card when drawn (as any card needing a module not in play)."""
DICE = (4, 6, 8, 10, 12)


class Effect(NamedTuple):
    verb: str
    amount: int = 0
    word: str = ""


class Need(NamedTuple):
    quantity: str
    op: str
    amount: int


class Test(NamedTuple):
    sides: int
    op: str
    amount: int


def _number(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a whole number") from None


@cache
def parse_effect(text: str) -> Effect:
    """An effect string as an :class:`Effect`; ValueError saying what is wrong (cached: cards
    are read again and again in play)."""
    words = text.split()
    if not words or words[0] not in EFFECTS:
        raise ValueError(f"effect {text!r}: begin with one of {', '.join(EFFECTS)}")
    verb, args = words[0], words[1:]
    where = f"effect {text!r}"
    if verb in ("resources", "cards", "objectives", "repair", "points", "damage", "strike"):
        if len(args) != 1:
            raise ValueError(f"{where}: {verb} takes one number")
        amount = _number(args[0], where)
        if verb != "resources" and amount < 1:
            raise ValueError(f"{where}: the number is at least 1")
        return Effect(verb, amount)
    if verb == "tech":
        if len(args) != 1 or args[0] not in CATEGORIES:
            raise ValueError(f"{where}: tech takes a category, one of {', '.join(CATEGORIES)}")
        return Effect(verb, 0, args[0])
    if verb == "warp":
        if len(args) != 1 or args[0] not in WARPS:
            raise ValueError(f"{where}: warp takes where to, one of {', '.join(WARPS)}")
        return Effect(verb, 0, args[0])
    if verb == "keep":
        if len(args) != 2 or args[0] not in KEEPS:
            raise ValueError(f"{where}: keep takes a kind ({', '.join(KEEPS)}) and a number")
        amount = _number(args[1], where)
        if amount < 1:
            raise ValueError(f"{where}: the number is at least 1")
        return Effect(verb, amount, args[0])
    if args:
        raise ValueError(f"{where}: {verb} takes nothing more")
    return Effect(verb)


@cache
def parse_need(text: str) -> Need:
    """A requirement string as a :class:`Need` (``near`` ones as ``Need("near", thing, 0)``)."""
    words = text.split()
    if len(words) == 2 and words[0] == "near":
        if words[1] not in NEAR:
            raise ValueError(f"requirement {text!r}: near one of {', '.join(NEAR)}")
        return Need("near", words[1], 0)
    if len(words) != 3 or words[0] not in QUANTITIES or words[1] not in OPS:
        raise ValueError(
            f"requirement {text!r}: write QUANTITY OP N (quantities: {', '.join(QUANTITIES)}; ops: "
            f"{' '.join(OPS)}) or near THING"
        )
    return Need(words[0], words[1], _number(words[2], f"requirement {text!r}"))


def parse_die(text: str) -> int:
    """``"d6"`` as 6."""
    if not text.startswith("d") or _number(text[1:], f"die {text!r}") not in DICE:
        raise ValueError(f"die {text!r}: one of {', '.join(f'd{d}' for d in DICE)}")
    return int(text[1:])


@cache
def parse_test(text: str) -> Test:
    """``"d6 >= 4"`` as a :class:`Test`."""
    words = text.split()
    if len(words) != 3 or words[1] not in OPS:
        raise ValueError(f"test {text!r}: write dN OP K, like d6 >= 4")
    return Test(parse_die(words[0]), words[1], _number(words[2], f"test {text!r}"))
