"""The odds of a roll in progress in one short line, for the drawings (from the view's forecast).

The view's ``pending["forecast"]`` is plain JSON, made by :meth:`..rules.forecast.Forecast.to_json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import floor
from typing import Any

from ..rules.forecast import HIGHEST

Json = Mapping[str, Any]


def odds_words(forecast: Json) -> str:
    """One line: ``Attack d6+d8 +2 vs defence d6 +1 (1 wingman): attacker wins 58.3%, tie 6.9%``."""
    what, attack, defence = forecast["what"], forecast["attack"], forecast["defence"]
    win, tie, lose = forecast["win"], forecast["tie"], forecast["lose"]
    if what == "dogfight":
        return (
            f"Attack {side_short(attack)} vs defence {side_short(defence)}: attacker wins {percent(win)}, "
            f"tie {percent(tie)}"
        )
    if what == "planet":
        return f"Attack {side_short(attack)}: {forecast['need']} or more captures, {percent(win)}"
    if what == "asteroid":
        return f"Asteroids {side_short(attack)} vs ship {side_short(defence)}: it gets through {percent(tie + lose)}"
    if what == "black_hole":
        return f"Black hole {side_short(attack)}: warps out {percent(lose)}, hurts {percent(win)}"
    return f"Roll {side_short(attack)} {forecast['op']} {forecast['need']}: works {percent(win)}"


def side_short(side: Json) -> str:
    """A side in a few characters: its dice (``d6=4`` once rolled, ``d6=?`` while rolled again),
    its bonuses (named when there is one, else summed), ``halved``: ``d6+d8 +1 (1 wingman)``."""
    dice = []
    for i, sides in enumerate(side["dice"]):
        shown = "?" if side["again"] == i else str(side["rolled"][i]) if i < len(side["rolled"]) else ""
        dice.append(f"d{sides}" + (f"={shown}" if shown else ""))
    text = "+".join(dice) or "no die"
    fixed = [(source, value) for source, value in side["terms"] if value != HIGHEST]
    if len(fixed) == 1:
        text += f" {signed(fixed[0][1])} ({fixed[0][0]})"
    elif fixed:
        text += f" {signed(sum(value for _, value in fixed))}"
    text += f" +{HIGHEST}" * (len(side["terms"]) - len(fixed))
    return text + (" halved" if side["halved"] else "")


def side_terms(side: Json) -> str:
    """Every bonus of a side, for a hover: ``technology tree +1, 1 wingman +1, halved``."""
    terms = [f"{source} {'+' + HIGHEST if value == HIGHEST else signed(value)}" for source, value in side["terms"]]
    return ", ".join(terms + (["halved, rounding up"] if side["halved"] else [])) or "no bonus"


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def percent(chance: float) -> str:
    """A chance as a percentage with one decimal, halves rounded up: ``58.3%``."""
    tenths = floor(chance * 1000 + 0.5)
    return f"{tenths // 10}.{tenths % 10}%"
