"""Losing moves, for ``State.action_warning``: the player's legal moves that lose the game.

Rulebook, "End of the game": the game is lost the moment the mother ship card comes down onto
the skull row, or the damage marker reaches the skull. Ruling 33 of RULINGS.md says which
moves count as losing ones; in short, a move's chance of losing is

* 1 when it loses at once: applying it ends the game in a loss, with everything that follows
  it without a choice (the ships of its column moving, the round's end when nothing is left
  to resolve);
* 1 when, after it, the end of this round loses (the mother ship's next row is the skull, or
  its bombardment deals the last damage) and no order of the rooms left to resolve completes
  the research first;
* else the chance that every choice of the next decision loses at once, counted exactly over
  the dice rolled before it (a white die re-rolls the dice not yet placed; a new round rolls
  them all);

and a move is warned when that chance is at least ``warning_chance`` and above the best legal
move's, since a loss that no move avoids is not the move's doing. Nothing is hidden in this
game, so every count is made from what the player sees.
"""

from __future__ import annotations

from collections import Counter

from spacetable.engine import Action, Event, Roll
from spacetable.engine.words import count

from . import placement
from .actions import Place
from .state import DECISIONS, FallingSkiesState

FACES = range(1, 7)


def warnings(state: FallingSkiesState) -> dict[Action, str]:
    """The warned legal moves of ``state``, each with why it loses."""
    if state.phase not in DECISIONS:
        return {}
    judged: dict[Action, tuple[float, str]] = {}
    alike: dict[tuple[object, ...], tuple[float, str]] = {}
    columns = Counter(col for _, col, _ in state.ships)
    margin = min(_lives(state), _rows(state)) - _most_in_a_free_column(state) - 2
    for action in state.legal_actions():
        kin = _kin(state, action)
        if kin in alike:
            judged[action] = alike[kin]
        elif isinstance(action, Place) and 2 * columns[state.board.column_of[action.space]] < margin:
            # it cannot lose at once nor leave a position where one placement could (``_tight``):
            # the k ships it moves cost at most k damage or rows, the round's end one more, and
            # they add at most k ships to another free column
            judged[action] = (0.0, "")
        else:
            after, events = _after(state, action)
            judged[action] = _judge(state, after, events)
            if kin is not None and not _ended_placing(events):
                alike[kin] = judged[action]
    best = min(chance for chance, _ in judged.values())
    return {a: why for a, (chance, why) in judged.items() if chance >= state.warning_chance and chance > best}


def _judge(state: FallingSkiesState, after: FallingSkiesState, events: list[Event]) -> tuple[float, str]:
    """A move's chance of losing (0 where it is below ``warning_chance``) and why, in words, from
    the position ``after`` it and the ``events`` it caused."""
    if after.phase == "over":
        return (1.0, f"Loses the game at once: {_cause(events)}, and {_loss(after)}.") if _lost(after) else (0.0, "")
    if after.phase in ("resolve", "robot") and _doomed(after) and not _research_completable(after, set()):
        return 1.0, (
            f"Loses the game: at the end of this round {_threat(after)}, and after this no room left to "
            "resolve can complete the research first."
        )
    return _next_decision(state, after)


def _next_decision(before: FallingSkiesState, after: FallingSkiesState) -> tuple[float, str]:
    """The chance that every choice of the decision after ``after`` loses at once, over the dice
    rolled first (0 where it is below ``warning_chance``)."""
    if not _tight(after):
        return 0.0, ""
    if after.phase != "roll":
        if after.phase != "place" or not _every_choice_loses(after):
            return 0.0, ""
        return 1.0, "Loses the game: after it, every die left loses the game wherever it goes."
    dice = len(after.to_roll)
    least = next(k for k in range(7) if (k / 6) ** dice >= after.warning_chance or k == 6)
    deadly: list[int] = []
    for value in FACES:
        if _every_choice_loses(_rolled(after, value)):
            deadly.append(value)
        elif value - len(deadly) > 6 - least:  # too many safe values to reach the threshold
            return 0.0, ""
    chance = (len(deadly) / 6) ** dice
    if chance < after.warning_chance:
        return 0.0, ""
    rolled = "the new round rolls" if after.round > before.round else "the white die re-rolls"
    which = "it shows" if dice == 1 else ("both show" if dice == 2 else "all show")
    if len(deadly) == 6:
        return 1.0, (
            f"Loses the game: {rolled} {count(dice, 'die', 'dice')}, and whatever they show, every place for "
            "the next die loses the game."
        )
    return chance, (
        f"Loses the game with a {round(100 * chance)}% chance: {rolled} {count(dice, 'die', 'dice')}, and if "
        f"{which} {_values(deadly)}, every place for the next die loses the game."
    )


# ---- the positions looked at ----------------------------------------------------------------


def _after(state: FallingSkiesState, action: Action) -> tuple[FallingSkiesState, list[Event]]:
    after = state.clone()
    return after, after.apply_legal(action)


def _rolled(state: FallingSkiesState, value: int) -> FallingSkiesState:
    """``state`` (at a roll) with every die still to roll showing ``value``."""
    rolled = state.clone()
    while rolled.phase == "roll":
        rolled.apply_legal(Roll(value))
    return rolled


def _every_choice_loses(state: FallingSkiesState) -> bool:
    """Every legal move of ``state`` loses at once (or the game is already lost)."""
    if state.phase == "over":
        return _lost(state)
    columns = Counter(col for _, col, _ in state.ships)
    column_of = state.board.column_of

    def danger(action: Action) -> int:  # the safest places first: a safe one ends the search
        return columns[column_of[action.space]] if isinstance(action, Place) else 0

    if state.phase == "place":  # most often the safest place shows at once that not all lose
        space = min(placement.legal_spaces(state), key=lambda s: columns[column_of[s]], default=None)
        if space is not None and not _lost(_after(state, Place(*state.unplaced[0], space))[0]):
            return False
    losing: set[tuple[object, ...] | None] = set()
    actions = sorted(state.legal_actions(), key=danger)
    for action in actions:
        kin = _kin(state, action)
        if kin is not None and kin in losing:
            continue
        after, events = _after(state, action)
        if not _lost(after):
            return False
        if not _ended_placing(events):
            losing.add(kin)
    return bool(actions)


def _kin(state: FallingSkiesState, action: Action) -> tuple[object, ...] | None:
    """What makes placements alike while dice are left to place after them: the die, its column,
    whether the space is a gun and whether it digs. Alike placements move the same ships the
    same way and leave the same spaces free, so they differ only once placing ends (by a die
    set aside for want of a free space). None for any other move."""
    if not isinstance(action, Place) or len(state.unplaced) < 2:
        return None
    b = state.board
    space = action.space
    return (action.color, action.value, b.column_of[space], space in b.aa_spaces, not state.excavated(space))


def _ended_placing(events: list[Event]) -> bool:
    return any(event.kind == "discard" for event in events)


def _research_completable(state: FallingSkiesState, seen: set[str]) -> bool:
    """Some order of the rooms left to resolve completes the research this round."""
    if state.phase == "over":
        return state.result == "won"
    room_of = state.board.room_of
    if state.phase != "resolve" or not any("research" in room_of[room].effects for room in state.pending):
        return False
    key = state.digest()
    if key in seen:
        return False
    seen.add(key)
    return any(_research_completable(_after(state, action)[0], seen) for action in state.legal_actions())


# ---- the facts they turn on ------------------------------------------------------------------


def _lost(state: FallingSkiesState) -> bool:
    return state.phase == "over" and state.result == "lost"


def _lives(state: FallingSkiesState) -> int:
    """Damage the base can still take before the one that destroys it, plus that one."""
    return state.board.lose_at_damage - state.damage


def _rows(state: FallingSkiesState) -> int:
    """Rows the mother ship card can still come down, counting the one onto the skull."""
    return state.board.skull_row - state.mothership


def _tight(state: FallingSkiesState) -> bool:
    """Whether one placement could lose at once here: it moves the ships of one column without a
    die yet, each of which reaches the city or lands on a mother ship icon at most once, and the
    round's end it may bring adds at most one damage and one row."""
    return _most_in_a_free_column(state) + 1 >= min(_lives(state), _rows(state))


def _most_in_a_free_column(state: FallingSkiesState) -> int:
    """The most ships in one column that has no die this round."""
    ships = Counter(col for _, col, _ in state.ships if not state.columns_used >> col & 1)
    return max(ships.values(), default=0)


def _doomed(state: FallingSkiesState) -> bool:
    """The mother ship's step at the end of this round loses the game."""
    return _rows(state) <= 1 or (state.board.track[state.mothership] == "dmg" and _lives(state) <= 1)


# ---- words -----------------------------------------------------------------------------------


def _cause(events: list[Event]) -> str:
    hits = sum(event.kind == "hit" for event in events)
    icons = sum(event.kind == "mother_icon" for event in events)
    if hits:
        return "a ship reaches the city" if hits == 1 else f"{hits} ships reach the city"
    if icons:
        return "a ship lands on a mother ship icon" if icons == 1 else f"{icons} ships land on mother ship icons"
    return "the round ends"


def _loss(state: FallingSkiesState) -> str:
    if state.damage >= state.board.lose_at_damage:
        return "the base is destroyed"
    return "the mother ship comes down onto the skull row"


def _threat(state: FallingSkiesState) -> str:
    if _rows(state) <= 1:
        return "the mother ship comes down onto the skull row"
    return "the mother ship's bombardment deals the base its last damage"


def _values(values: list[int]) -> str:
    """``6``, ``5 or 6``, ``3 to 6``, ``2, 4 or 6``."""
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}"
    return " or ".join(filter(None, (", ".join(map(str, values[:-1])), str(values[-1]))))
