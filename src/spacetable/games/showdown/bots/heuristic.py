"""How good a position is for one captain: the evaluation behind the greedy bot.

A ship's worth is its hull and what it can do with its cards (weapons to hit, engines
to evade, crew abilities and spare crew to guard the captain, xenotech, countermeasures,
energy). A position is worth the seat's ship minus a blend of the strongest rival and
the average rival. An action in progress (an attack or a boarding whose dice are not
all settled) counts by its expected result, computed exactly from the dice still to
roll, so that one-ply search values declaring, committing energy and deploying
countermeasures sensibly.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..content import CAPTAIN, CREW
from ..rules import dice, ships
from ..rules.state import ALIVE, ShowdownState

HULL = 2.0
ARMOR = 1.0
ENERGY = 0.5
DICE = (5.0, 5.0, 5.0, 2.5, 2.5, 2.5, 1.0)
"""Worth of the first, second... engine or weapon (the last value for every further one)."""
ABILITY = {"gunner": 3.0, "pilot": 3.0, "engineer": 2.0, "cryo": 0.0}
SPARE_CREW = 1.5
"""Each crew member guarding the captain (up to three)."""
XENOTECH = 4.0
COUNTERMEASURE = 3.0
DEPLOYED = 1.0
LOSS = 200.0


def evaluate(state: ShowdownState, seat: int) -> float:
    if state.phase == "over":
        return LOSS * (2 * state.returns()[seat] - 1)
    if state.status[seat] != ALIVE:
        return -LOSS
    worth = [ship_worth(state, p) if state.status[p] == ALIVE else 0.0 for p in range(state.game.players)]
    _expected_action(state, worth)
    rivals = [worth[p] for p in range(len(worth)) if p != seat and state.status[p] == ALIVE]
    if not rivals:
        return worth[seat]
    return worth[seat] - 0.6 * max(rivals) - 0.4 * sum(rivals) / len(rivals)


def ship_worth(state: ShowdownState, p: int) -> float:
    """What ``p``'s ship is worth now: hull, dice, crew, xenotech, countermeasures, energy."""
    armor = sum(s.armor for s in state.cms[p])
    value = HULL * state.intact[p] + ARMOR * armor + ENERGY * min(state.energy[p], 12)
    if state.intact[p] == 1:
        value -= HULL  # one hit from elimination
    for kind in ("engine", "weapon"):
        n = ships.working(state, p, kind)
        value += sum(DICE[:n]) + DICE[-1] * max(0, n - len(DICE))
    crew = 0
    for c in CREW:
        have = state.mats[p].get(c, 0)
        crew += have
        if ships.able_crew(state, p, c):
            value += ABILITY[c]
    value += SPARE_CREW * min(crew, 3)
    if ships.usable_xenotech(state, p):
        value += XENOTECH
    for slot in state.cms[p]:
        value += DEPLOYED if slot.deployed else COUNTERMEASURE
    for b in state.boarders:
        if b.host == p and b.mode == "sabotage":
            value -= 1.0
    if state.phase in ("deal", "draft"):
        value += _draft_balance(state, p)
    return value


def _draft_balance(state: ShowdownState, p: int) -> float:
    """During the draft: a ship needs both weapons and engines, and crew abilities need their dice."""
    mat = state.mats[p]
    engines, weapons = mat.get("engine", 0), mat.get("weapon", 0)
    value = -0.5 * max(0, abs(engines - weapons) - 1)
    if mat.get("gunner") and not weapons:
        value -= ABILITY["gunner"]
    if mat.get("pilot") and not engines:
        value -= ABILITY["pilot"]
    if mat.get("ai") and not state.cms[p]:
        value -= XENOTECH / 2
    return value


# ---- the action in progress ------------------------------------------------------------------
Pending = dict[str, Any]


def _expected_action(state: ShowdownState, worth: list[float]) -> None:
    pending = state.pending
    if pending is None or pending["kind"] not in ("attack", "board") or pending["stage"] == "loot":
        return
    a, t = pending["attacker"], pending["target"]
    if pending["kind"] == "attack":
        hit, block = _attack_pools(state, pending)
        armor = sum(s.armor for s in state.cms[t])
        loss = sum(pa * pd * max(0, i - j - armor) for i, pa in enumerate(hit) for j, pd in enumerate(block))
        gain = sum(pa * pd * max(0, j - i) for i, pa in enumerate(hit) for j, pd in enumerate(block))
        if state.status[t] == ALIVE:
            worth[t] -= min(loss, state.intact[t]) * HULL * 1.5 - gain * ENERGY
        failed = pending["an"] - sum(i * pa for i, pa in enumerate(hit))
        worth[a] += failed * state.content.rules.energy_per_failed_attack_die * ENERGY
        return
    if pending["stage"] not in ("defend", "roll"):
        return
    defender = pending.get("defender") or _likely_defender(state, t)
    hit, block = _boarding_pools(state, pending, defender)
    win = sum(pa * pd for i, pa in enumerate(hit) for j, pd in enumerate(block) if i > j)
    lose = sum(pa * pd for i, pa in enumerate(hit) for j, pd in enumerate(block) if j > i)
    worth[t] -= win * (LOSS if defender == CAPTAIN else ABILITY[defender] + SPARE_CREW)
    worth[a] -= lose * (ABILITY[pending["crew"]] + SPARE_CREW)


def _likely_defender(state: ShowdownState, t: int) -> str:
    crew = [c for c in CREW if ships.able_crew(state, t, c)]
    return max(crew, key=state.content.rating.__getitem__) if crew else CAPTAIN


def _attack_pools(state: ShowdownState, pending: Pending) -> tuple[list[float], list[float]]:
    """Success distributions of an attack; a target still to commit is assumed to commit all it can use."""
    rules = state.content.rules
    t = pending["target"]
    defending = pending["stage"] != "roll"
    count = pending["dn"]
    if defending and state.status[t] == ALIVE:
        nitro = ships.active_countermeasure(state, t, "nitro_fuel") is not None
        count = ships.working(state, t, "engine") * (2 if nitro else 1)
    energy = min(state.energy[t], 2 * count) if defending else pending["dc"]
    faces, success = rules.attack_die, rules.attack_success
    hit = _dist(pending["a"], pending["an"], faces, success, pending["ac"])
    block = _dist(pending["d"], count, faces, success, energy)
    return hit, block


def _boarding_pools(state: ShowdownState, pending: Pending, defender: str) -> tuple[list[float], list[float]]:
    rules, rating = state.content.rules, state.content.rating
    faces, success = rules.teleporter_die, rules.teleporter_success
    if pending["stage"] == "roll":
        hit = _dist(pending["a"], pending["an"], faces, success, 0)
        return hit, [0.0] * pending["dauto"] + _dist(pending["d"], pending["dn"], faces, success, 0)
    return _dist([], rating[pending["crew"]], faces, success, 0), _dist([], rating[defender], faces, success, 0)


def _dist(rolled: list[int], count: int, faces: int, success: int, energy: int) -> list[float]:
    """The distribution of one pool's successes: dice already rolled plus those still to roll."""
    needs = tuple(sorted(max(0, success - v) for v in rolled))
    return list(_hits(needs, max(0, count - len(rolled)), faces, success, energy))


@cache
def _hits(known: tuple[int, ...], unrolled: int, faces: int, success: int, energy: int) -> tuple[float, ...]:
    """P(successes = k) for dice with ``known`` needs plus ``unrolled`` fresh dice, spending ``energy``."""
    per_die = [0.0] * success
    for v in range(1, faces + 1):
        per_die[max(0, success - v)] += 1 / faces
    outcomes: dict[tuple[int, ...], float] = {known: 1.0}
    for _ in range(unrolled):
        grown: dict[tuple[int, ...], float] = {}
        for needs, p in outcomes.items():
            for need, q in enumerate(per_die):
                if q:
                    key = tuple(sorted((*needs, need)))
                    grown[key] = grown.get(key, 0.0) + p * q
        outcomes = grown
    dist = [0.0] * (len(known) + unrolled + 1)
    for needs, p in outcomes.items():
        hits, _ = dice.allocate([success - n for n in needs], energy, 0, success)
        dist[hits] += p
    return tuple(dist)


__all__ = ["evaluate", "ship_worth"]
