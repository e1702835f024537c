"""Opposed dice rolls: two pools, re-rolls, and energy spent on dice.

A roll lives in the pending dict of the action that makes it: the attacker's pool
``a`` and the defender's pool ``d`` (die results), how many dice each rolls (``an``,
``dn``), the energy each set aside (``ac``, ``dc``), each side's bonus per die
(``ab``, ``db``: a boosted Adrenal Stim), guaranteed successes (``dauto``: a boosted
Security Drone), and the queue of re-rolls still to make (``rr``). Every die is one
chance node; ``at`` names the die being rolled.

Re-rolls and energy are spent the way that helps their owner most, so they are not
separate decisions (RULINGS.md): a forced re-roll (enemy saboteurs) takes the owner's
lowest success; an own re-roll takes the lowest failure that the energy set aside
cannot lift to a success; energy lifts the failures that need the least first.
"""

from __future__ import annotations

from typing import Any

Pending = dict[str, Any]


def new_roll(die: int, success: int, an: int, dn: int) -> Pending:
    return {
        "die": die,
        "success": success,
        "a": [],
        "d": [],
        "an": an,
        "dn": dn,
        "ac": 0,
        "dc": 0,
        "ab": 0,
        "db": 0,
        "dauto": 0,
        "rr": [],
        "at": [],
    }


def allocate(dice: list[int], energy: int, bonus: int, success: int) -> tuple[int, list[int]]:
    """Successes after spending ``energy`` (+1 per token) on the cheapest failures; and the
    indices of the dice that still fail, lowest first."""
    needs = sorted((success - v - bonus, i) for i, v in enumerate(dice) if v + bonus < success)
    hits = len(dice) - len(needs)
    still: list[int] = []
    for need, i in needs:
        if need <= energy:
            energy -= need
            hits += 1
        else:
            still.append(i)
    still.sort(key=lambda i: dice[i])
    return hits, still


def successes(pending: Pending, side: str) -> int:
    energy = pending["ac"] if side == "a" else pending["dc"]
    bonus = pending["ab"] if side == "a" else pending["db"]
    hits, _ = allocate(pending[side], energy, bonus, pending["success"])
    return hits + (pending["dauto"] if side == "d" else 0)


def reroll_choice(pending: Pending, side: str, forced: bool) -> int | None:
    """The die of ``side`` a re-roll takes (RULINGS 13): a forced one the lowest success, an own one
    the lowest die the energy set aside cannot lift; None when no die qualifies."""
    dice = pending[side]
    bonus = pending["ab"] if side == "a" else pending["db"]
    if forced:
        hits = [i for i, v in enumerate(dice) if v + bonus >= pending["success"]]
        return min(hits, key=lambda i: dice[i]) if hits else None
    energy = pending["ac"] if side == "a" else pending["dc"]
    _, still = allocate(dice, energy, bonus, pending["success"])
    return still[0] if still else None


def next_die(pending: Pending) -> bool:
    """Point ``at`` at the next die to roll or re-roll; False once every die is settled."""
    for side, count in (("a", "an"), ("d", "dn")):
        if len(pending[side]) < pending[count]:
            pending["at"] = [side, len(pending[side])]
            return True
    queue = pending["rr"]
    while queue:
        side, why = queue.pop(0)
        index = reroll_choice(pending, side, forced=why == "forced")
        if index is not None:
            pending["at"] = [side, index]
            return True
    pending["at"] = []
    return False


def record(pending: Pending, value: int) -> int | None:
    """Put a rolled value on the die ``at`` points to; returns the old value of a re-rolled die."""
    side, index = pending["at"]
    dice = pending[side]
    if index == len(dice):
        dice.append(value)
        return None
    old: int = dice[index]
    dice[index] = value
    return old


def initial_done(pending: Pending) -> bool:
    """Every die of both pools has been rolled once (re-rolls may follow)."""
    return bool(len(pending["a"]) == pending["an"] and len(pending["d"]) == pending["dn"])


def show(dice: list[int]) -> str:
    return " ".join(f"[{v}]" for v in dice) or "no dice"
