"""Losing moves (RULINGS.md, ruling 32): the chance that a move puts its own captain out of the game.

A captain is out when their ship is wrecked (no intact hull token left, collateral damage
included), when a boarder kills their captain, or when their burning ship discards its last intact
hull token. A move is followed to the end of the action it starts, through the rules themselves
(on a copy of the state): the mover's own later choices in it are taken at their safest, another
captain's at their worst for the mover, every captain sets aside all the energy that can help,
and nobody deploys a countermeasure the mover cannot see. The dice at the end are counted
exactly (:func:`successes_odds`, re-rolls and energy spent as :mod:`.dice` spends them), never
sampled; nothing the mover may not know is read (face-down cards are taken as absent).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from spacetable.engine import Action

from . import boarding, combat, dice, ships
from .actions import HULL, Attack, Board, Burn, Commit, Defend, Deploy, Done, Teleport
from .state import ALIVE, DESTROYED, ShowdownState

Dice = tuple[int, ...]


# ---- the dice --------------------------------------------------------------------------------
def _add(out: dict[Dice, float], held: Dice, chance: float, faces: int) -> None:
    """Into ``out``: the dice ``held`` and one more die, each face with its share of ``chance``."""
    for value in range(1, faces + 1):
        key = tuple(sorted((*held, value)))
        out[key] = out.get(key, 0.0) + chance / faces


def _reroll(dist: dict[Dice, float], faces: int, roll: dice.Pending, forced: bool) -> dict[Dice, float]:
    """One re-roll of each pool of ``dist``, of the die the rules pick (``dice.reroll_choice``)."""
    out: dict[Dice, float] = {}
    for held, p in dist.items():
        index = dice.reroll_choice({**roll, "a": list(held)}, "a", forced)
        if index is None:
            out[held] = out.get(held, 0.0) + p
        else:
            _add(out, held[:index] + held[index + 1 :], p, faces)
    return out


@functools.lru_cache(maxsize=64)
def _rolled(count: int, faces: int) -> dict[Dice, float]:
    """Every way ``count`` dice of ``faces`` faces can fall (sorted), with its chance."""
    dist: dict[Dice, float] = {(): 1.0}
    for _ in range(count):
        more: dict[Dice, float] = {}
        for held, p in dist.items():
            _add(more, held, p, faces)
        dist = more
    return dist


@functools.lru_cache(maxsize=2048)
def successes_odds(
    count: int, faces: int, success: int, bonus: int, energy: int, forced: int, own: int
) -> tuple[float, ...]:
    """The chance of each number of successes (index 0 to ``count``) of a pool: ``count`` dice of
    ``faces`` faces, a success from ``success`` up, ``bonus`` on every die, ``energy`` set aside,
    then ``forced`` re-rolls (an enemy saboteur's) and ``own`` re-rolls, as ruling 13 spends them."""
    roll: dice.Pending = {"success": success, "ab": bonus, "ac": energy}
    dist = _rolled(count, faces)
    for _ in range(forced):
        dist = _reroll(dist, faces, roll, forced=True)
    for _ in range(own):
        dist = _reroll(dist, faces, roll, forced=False)
    odds = [0.0] * (count + 1)
    for held, p in dist.items():
        odds[dice.allocate(list(held), energy, bonus, success)[0]] += p
    return tuple(odds)


def _side_odds(roll: dice.Pending, side: str) -> tuple[float, ...]:
    """The odds of one side of a roll about to be made; a boosted Security Drone's sure successes
    shift the defender's."""
    queue = [why for s, why in roll["rr"] if s == side]
    odds = successes_odds(
        roll["an" if side == "a" else "dn"],
        roll["die"],
        roll["success"],
        roll["ab" if side == "a" else "db"],
        roll["ac" if side == "a" else "dc"],
        queue.count("forced"),
        queue.count("own"),
    )
    auto = roll["dauto"] if side == "d" else 0
    return (0.0,) * auto + odds


# ---- following a move to the end of its action ---------------------------------------------------
def _after(state: ShowdownState, action: Action, actor: int) -> ShowdownState:
    copy = state.clone()
    copy.apply_legal(action, actor)
    return copy


def _follow(state: ShowdownState, mover: int) -> float:
    """The chance that ``mover`` is out once the action in progress is over (see the module docstring)."""
    while True:
        lost = _out(state, mover)
        pending = state.pending
        if lost or state.phase != "turn" or pending is None:
            return lost
        if pending["stage"] == "roll":
            return _roll_chance(state, mover) if pending["kind"] in ("attack", "board") else 0.0
        actor = int(pending["actor"])
        options = state.legal_actions(actor)
        if pending["stage"] == "commit":
            state = _after(state, options[-1], actor)  # all the energy that can help
        elif pending["stage"] == "react" and actor != mover:
            state = _after(state, Done(), actor)  # what the mover cannot see is not counted
        else:
            chances = [_follow(_after(state, option, actor), mover) for option in options]
            return min(chances) if actor == mover else max(chances)


def _settled(state: ShowdownState, hits: int, blocks: int) -> ShowdownState:
    """A copy of ``state`` (a roll about to be made) after the roll ends in ``hits`` against ``blocks``."""
    copy = state.clone()
    roll = copy.pending
    assert roll is not None
    high, low = roll["success"], 1 if roll["success"] > 1 else 0
    shown = min(blocks, roll["dn"])
    roll.update(
        a=[high] * hits + [low] * (roll["an"] - hits),
        d=[high] * shown + [low] * (roll["dn"] - shown),
        dauto=blocks - shown,
        ac=0,
        dc=0,
        ab=0,
        db=0,
        rr=[],
        at=[],
    )
    (combat.resolve if roll["kind"] == "attack" else boarding.resolve)(copy, [])
    return copy


Memo = dict[tuple[int, int], float]


def _roll_chance(
    state: ShowdownState, mover: int, memo: Memo | None = None, defence_energy: int | None = None
) -> float:
    """The chance that the roll about to be made (``state.pending``) puts ``mover`` out;
    ``defence_energy`` the defender's energy set aside instead of the roll's own, ``memo`` the
    outcomes already worked out for a roll that differs from this one in energy only."""
    roll = state.pending
    assert roll is not None
    target = int(roll["target"])
    nitro = ships.active_countermeasure(state, target, "nitro_fuel")
    hit_back = roll["kind"] == "attack" and nitro is not None and nitro.boosted
    if roll["kind"] == "attack" and not hit_back and roll["an"] < state.intact[target] + _armor(state, target):
        return 0.0  # no ship can be wrecked, so nobody is out
    hits = _side_odds(roll, "a")
    blocks = _side_odds(roll if defence_energy is None else {**roll, "dc": defence_energy}, "d")
    memo = {} if memo is None else memo
    total = 0.0
    for h, ph in enumerate(hits):
        for b, pb in enumerate(blocks):
            if not ph * pb:
                continue
            key = _outcome_key(roll["kind"] == "attack", hit_back, h, b)
            if key not in memo:
                after = _settled(state, h, b)
                memo[key] = _out(after, mover)
            total += ph * pb * memo[key]
    return total


def _outcome_key(attack: bool, hit_back: bool, hits: int, blocks: int) -> tuple[int, int]:
    """What the rules' resolution of a roll depends on: an attack's damage (and a boosted Nitro
    Fuel's hits back), a teleporter fight's winner."""
    if attack:
        return max(hits - blocks, 0), blocks if hit_back else 0
    return (hits > blocks) - (hits < blocks), 0


def _out(state: ShowdownState, mover: int) -> float:
    """1.0 if ``mover`` is out at ``state`` (and did not win), else 0.0."""
    if state.phase == "over":
        return 0.0 if mover in state.winners else 1.0
    return float(state.status[mover] != ALIVE)


# ---- which moves to follow -----------------------------------------------------------------------
def _armor(state: ShowdownState, p: int) -> int:
    """Armor tokens that take damage before ``p``'s hull does."""
    return sum(s.armor for s in state.cms[p] if not ships.slot_hacked(state, p, s))


def _exposed(state: ShowdownState, mover: int) -> bool:
    """Can collateral damage reach ``mover``'s last intact hull token? Each ship wrecked flips one
    token of every other: after a first wreck, a ship goes down in the cascade once as many ships
    have been wrecked as it has tokens (intact hull and armor), so count them, the weakest first
    (one too many at most: the first wreck is counted twice)."""
    wrecked = 1
    for tokens in sorted(
        state.intact[q] + _armor(state, q)
        for q, status in enumerate(state.status)
        if q != mover and status != DESTROYED
    ):
        if tokens > wrecked:
            break
        wrecked += 1
    return state.intact[mover] + _armor(state, mover) <= wrecked


def _may_lose(state: ShowdownState, mover: int, action: Action) -> bool:
    """Could ``action`` put ``mover`` out at all? (Cheap: most moves cannot, and are not followed.)"""
    if isinstance(action, Attack):
        nitro = ships.active_countermeasure(state, action.target, "nitro_fuel")
        return _exposed(state, mover) or (nitro is not None and nitro.boosted)
    if isinstance(action, Teleport | Board):
        return _exposed(state, mover)  # an Engineer's sabotage may wreck the target
    if isinstance(action, Defend):
        return action.crew == "captain"
    if isinstance(action, Commit | Deploy | Done):
        pending = state.pending
        assert pending is not None
        return int(pending["target"]) == mover or _exposed(state, mover)
    return False


def chances(state: ShowdownState, mover: int) -> Iterator[tuple[Action, float]]:
    """Each legal move of ``mover`` (the seat deciding now) that may put them out, with the chance."""
    legal = state.legal_actions(mover)
    if state.phase == "fire":
        if state.intact[mover] == 1:
            yield Burn(HULL), 1.0
        return
    pending = state.pending
    if pending is not None and pending["stage"] == "commit" and pending["side"] == "d":
        # the roll follows at once: work it out once, with each amount of energy
        start = _after(state, Commit(0), mover)
        if start.pending is None or start.pending["stage"] != "roll":
            return
        memo: Memo = {}
        for action in legal:
            assert isinstance(action, Commit)
            yield action, _roll_chance(start, mover, memo, action.energy)
        return
    for action in legal:
        if _may_lose(state, mover, action):
            yield action, _follow(_after(state, action, mover), mover)


# ---- the warnings ------------------------------------------------------------------------------
def warnings(state: ShowdownState, mover: int) -> dict[Action, str]:
    """Why each losing move of ``mover`` loses: a move that puts them out with at least
    ``state.warning_chance`` while another legal move of theirs does so less often than that
    (where every choice is as likely to lose, none is singled out). Each names a safer move, one of
    the same kind where there is one."""
    found = dict(chances(state, mover))
    threshold = state.warning_chance
    legal = state.legal_actions(mover)
    safe = [a for a in legal if found.get(a, 0.0) < threshold]
    if not safe:
        return {}
    words = {}
    for action, chance in found.items():
        if chance < threshold:
            continue
        safer = min(safe, key=lambda a: (type(a) is not type(action), found.get(a, 0.0)))
        low = found.get(safer, 0.0)
        hint = f"Safer: {state.action_label(safer)}" + (f" ({_percent(low)})" if low else "")
        words[action] = f"{_why(state, mover, action, chance)}. {hint}."
    return words


def _percent(chance: float) -> str:
    shown = round(chance * 100)
    return f"{min(shown, 99) if chance < 1 else 100}%"


def _why(state: ShowdownState, mover: int, action: Action, chance: float) -> str:
    how = "for certain" if chance >= 1 - 1e-9 else f"{_percent(chance)} of the time"
    first = f"This puts you out of the game {how}"
    if isinstance(action, Burn):
        return f"{first}: a ship with no intact hull token left is wrecked"
    if isinstance(action, Defend):
        return f"{first}: if the boarder wins the fight, your captain is killed"
    pending = state.pending
    target = action.target if isinstance(action, Attack | Teleport) else int(pending["target"]) if pending else mover
    if target == mover:
        if pending is not None and pending["kind"] == "board":
            return f"{first}: the boarder may wreck your ship or kill your captain"
        return f"{first}: the attack may wreck your ship"
    name = ships.name(state, target)
    nitro = ships.active_countermeasure(state, target, "nitro_fuel")
    causes = []
    if nitro is not None and nitro.boosted:
        causes.append(f"{name}'s boosted Nitro Fuel turns their defence dice on your ship")
    if _exposed(state, mover):
        causes.append(f"wrecking {name}'s ship would wreck yours too (collateral damage)")
    return f"{first}: {', and '.join(causes)}"
