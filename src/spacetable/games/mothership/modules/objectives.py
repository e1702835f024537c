"""The expansion's objectives (the option ``objectives``; planetary exploration is required).

- ``hidden``: each player is dealt ``content.objective_cards.per_player`` objectives, kept
  secret until claimed. On their own turn, once a turn, a player may pay ``replace_cost``
  resources to discard one and draw another.
- ``global``: as many objectives as players lie face up; the first player to complete one
  takes it. Completed ones are not replaced.
- Replacing an objective shares the turn's once-only flags with :mod:`.beacons`
  (``state.activated``, its ``REPLACED`` bit).
- A goal (module :mod:`..content.language`) is checked after every action, so it is completed the
  moment it holds, on anyone's turn. A completed objective is claimed on its player's own
  turn, at once or as soon as their turn has nothing else in progress: revealed, then one of
  its two reward groups chosen and carried out (module :mod:`.scripts`). Several may be
  claimed in one turn.
- Goals count deeds from the start of the game (``state.tallies``; RULINGS.md).
- A card needing a module not in play is discarded and the next one drawn, as for beacons.

Hidden information: the objectives a player holds or has completed and not claimed yet.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from spacetable.engine import JSON, Action, Event, Statistic

from ..content.language import TALLIES, Need, parse_need
from ..rules import decks
from ..rules.actions import DrawObjective, ReplaceObjective
from ..rules.hooks import Module
from .beacons import REPLACED

if TYPE_CHECKING:
    from ..rules.state import MothershipState

__all__ = ["TALLIES"]

MODULE = "objectives"
PUBLIC = -1
"""An objective draw owed to the face-up row (option objectives 'global')."""
HELD_WORTH = 0.5
"""An objective held, in the greedy evaluation's units (a chance of a reward later)."""
DONE_WORTH = 2.5
"""A completed objective not yet claimed: a reward worth a few resources is sure to come."""


def mode(state: MothershipState) -> str:
    """'hidden', 'global' or 'off'."""
    return str(state.game.options["objectives"])


def start_deck(state: MothershipState) -> list[int]:
    on = mode(state) != "off"
    return [model.count if on else 0 for _, model in state.game.content.objectives]


def deal(state: MothershipState) -> None:
    """The game starts: the hidden objectives dealt, or the global row laid out."""
    if mode(state) == "hidden":
        for seat in range(state.game.players):
            owe(state, seat, state.game.content.objective_cards.per_player)
    elif mode(state) == "global":
        state.objective_draws += [PUBLIC] * state.game.players


def owe(state: MothershipState, seat: int, count: int) -> None:
    """``seat`` (or the face-up row) is owed ``count`` draws. An empty deck takes its discard
    pile back first, as after a draw (cards claimed or discarded since would otherwise be left
    out, and the draw would have no card); with no card left that can be dealt, nothing is owed."""
    decks.refill(state.objective_deck, state.objective_discard)
    if not decks.dry(state.objective_deck, state.objective_discard, lambda c: not missing(state, c)):
        state.objective_draws += [seat] * count


def draw_outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    return decks.outcomes(state.objective_deck, DrawObjective)


def missing(state: MothershipState, card: int) -> list[str]:
    """The modules objective ``card`` needs that are not in play."""
    return decks.lacking(state.game, state.game.content.objectives[card][1].requires)


def drawn(state: MothershipState, card: int, events: list[Event]) -> None:
    """The top objective card: to its player (or the face-up row), or discarded for the next when
    it needs a module not in play. With no card left that can be dealt, the draws owed are lost."""
    seat = state.objective_draws[0]
    state.objective_deck[card] -= 1
    state.objective_log[card][0] += 1
    model = state.game.content.objectives[card][1]
    lacking = missing(state, card)
    if lacking:
        state.objective_discard[card] += 1
        state.objective_log[card][5] += 1
        events.append(Event("objective", f"{model.name} needs {', '.join(lacking)}, not in play: discarded."))
    else:
        state.objective_draws.pop(0)
        if seat == PUBLIC:
            state.public_objectives.append(card)
            events.append(Event("objective", f"Global objective: {model.name}: {model.text}"))
        else:
            state.objectives[seat].append(card)
            state.objectives[seat].sort()
            events.append(Event("objective", f"{state.player_name(seat)} draws an objective."))
            events.append(Event("objective", f"Your new objective: {model.name}: {model.text}", (seat,)))
    decks.refill(state.objective_deck, state.objective_discard)
    if decks.dry(state.objective_deck, state.objective_discard, lambda c: not missing(state, c)):
        state.objective_draws = []  # no card left that can be dealt


# ---- replacing --------------------------------------------------------------------------------


def options(state: MothershipState, seat: int) -> list[Action]:
    """Replace a held objective, on the player's own turn, once a turn, if they can pay."""
    if mode(state) != "hidden" or state.resources[seat] < state.game.content.objective_cards.replace_cost:
        return []
    if state.activated & REPLACED:
        return []
    if not sum(state.objective_deck) + sum(state.objective_discard):
        return []
    return [ReplaceObjective(card) for card in sorted(set(state.objectives[seat]))]


def replace(state: MothershipState, seat: int, card: int, events: list[Event]) -> None:
    cost = state.game.content.objective_cards.replace_cost
    state.resources[seat] -= cost
    state.activated |= REPLACED
    state.objectives[seat].remove(card)
    state.objective_discard[card] += 1
    state.objective_log[card][4] += 1
    name = state.game.content.objectives[card][1].name
    events.append(
        Event("objective", f"{state.player_name(seat)} pays {cost} to replace an objective, discarding {name}.")
    )
    decks.refill(state.objective_deck, state.objective_discard)
    owe(state, seat, 1)


# ---- completing and claiming ------------------------------------------------------------------


def check(state: MothershipState, events: list[Event]) -> None:
    """After every action: objectives whose goal holds are completed; the player on turn claims
    theirs as soon as nothing else is in progress."""
    played = mode(state)
    if played == "off" or state.phase != "turn":
        return
    models = state.game.content.objectives
    for seat, cards in completions(state):
        pool = state.objectives[seat] if played == "hidden" else state.public_objectives
        for card in cards:
            pool.remove(card)
            state.completed[seat].append(card)
            state.objective_log[card][1] += 1
            whose = "an objective" if played == "hidden" else models[card][1].name
            events.append(Event("objective", f"{state.player_name(seat)} completes {whose}."))
    turn = state.turn
    if state.peek("completed")[turn] and _quiet(state):
        from .scripts import begin_reward  # carried out by the scripts, which import this module

        begin_reward(state, turn, state.completed[turn].pop(0), events)


def completions(state: MothershipState) -> list[tuple[int, list[int]]]:
    """The objectives whose goal holds now, by seat, in turn order from the player on turn (a face-up
    one goes to the first whose goal it is): what the next check completes. None outside the turns."""
    played = mode(state)
    if played == "off" or state.phase != "turn":
        return []
    tests = _goal_tests(state.game.content.objectives)
    n, turn, out = state.game.players, state.turn, state.out
    held, public = state.peek("objectives"), state.peek("public_objectives")  # read after every action: no copy
    taken: list[int] = []  # face-up cards already completed in this pass
    found = []
    for step in range(n):
        seat = (turn + step) % n
        pool = held[seat] if played == "hidden" else [c for c in public if c not in taken]
        if not pool or out[seat]:
            continue
        done = [c for c in pool if tests[c](state, seat)]
        if done:
            found.append((seat, done))
            taken += done
    return found


_GOAL_TESTS: list[Any] = [None, ()]
"""The objective cards of the content last asked about, and each card's goal as one test (one
entry: a process plays one content at a time, and keeping every content's would keep them all)."""


def _goal_tests(models: Any) -> tuple[Callable[[MothershipState, int], bool], ...]:
    """Each objective card's goal (``models``: the content's cards) as one test of a seat, by
    card (the goals are read after every action; each goal is parsed once, ``scripts.goal``)."""
    if _GOAL_TESTS[0] is not models:
        from .scripts import goal  # the language's requirements: one reading for beacons and objectives

        _GOAL_TESTS[:] = [models, tuple(goal(tuple(model.goal)) for _, model in models)]
    tests: tuple[Callable[[MothershipState, int], bool], ...] = _GOAL_TESTS[1]
    return tests


ENERGY = frozenset({"engines", "weapons", "shields"})
CHANGES = {
    "energy": (ENERGY, ENERGY),
    "sell": (frozenset({"resources"}), frozenset({"cards"})),
    "buy": (frozenset({"cards"}), frozenset({"resources"})),
    "play": (frozenset(), frozenset({"cards"})),
}
"""What each kind of quick-valued action may raise and lower among the acting seat's goals'
quantities (a move: none, but the mothership's shields, which a neutron star beside it blocks; a
card played as the quick values tell it leaves the hand, and may put any seat's ship, a mothership
too, elsewhere)."""
MOTHERSHIP_MOVED = frozenset({"shields"})
RISING, FALLING = frozenset({">=", ">", "=="}), frozenset({"<=", "<", "=="})
"""The comparisons a quantity's rise, and its fall, can make hold."""


def quiet(state: MothershipState, seat: int) -> Callable[[Action], bool] | None:
    """The quick values' question (hook ``quiet``): the objectives completed after an action are
    those whose goal holds, so an action changing no quantity that a goal in play reads, or none
    the way that could make it hold, completes those that hold now (:func:`completions`, which
    the quick values count: a turn's first decision may come with some, and a bot's resample
    re-deals others' hidden objectives), and nothing else. A goal reads its holder's quantities
    only, so what ``seat``'s action changes of its own counts against its own hidden objectives
    (or the face-up row). None where one holds for the player on turn, or one of theirs waits to
    be claimed (a choice in progress held it back): their claim would follow."""
    played = mode(state)
    if played == "off":
        return lambda action: True
    if state.peek("completed")[state.turn] or any(holder == state.turn for holder, _ in completions(state)):
        return None
    own, anyone = reads(state, seat), reads(state, -1)
    rises, falls = reads(state, seat, RISING), reads(state, seat, FALLING)

    def leaves(action: Action) -> bool:
        kind = action[-1]
        if kind == "move":
            return action[0] != 0 or not own & MOTHERSHIP_MOVED
        if kind not in CHANGES or (kind == "play" and anyone & MOTHERSHIP_MOVED):
            return False
        raised, lowered = CHANGES[kind]
        return not rises & raised and not falls & lowered

    return leaves


def reads(state: MothershipState, seat: int, ops: frozenset[str] | None = None) -> frozenset[str]:
    """The quantities read by the goals ``seat`` may complete: its hidden objectives (every seat's
    for -1), or the face-up row (a goal reads its holder's quantities only). ``ops``: only those
    of requirements comparing with one of them (``RISING``: what a rise could make hold;
    ``FALLING``: a fall), unless one of ``seat``'s goals holds now (a change either way could
    undo it before the check completes it)."""
    if mode(state) == "off":
        return frozenset()
    pools = state.peek("objectives") if mode(state) == "hidden" else [state.peek("public_objectives")]
    if mode(state) == "hidden" and seat >= 0:
        pools = [pools[seat]]
    needs = _goal_needs(state.game.content.objectives)
    if ops is not None and any(holder == seat for holder, _ in completions(state)):
        ops = None
    return frozenset(n.quantity for pool in pools for card in pool for n in needs[card] if ops is None or n.op in ops)


def _goal_needs(models: Any) -> tuple[tuple[Need, ...], ...]:
    """Each objective card's goal as its parsed requirements, by card (kept as ``_goal_tests`` keeps
    the tests: for the content last asked about)."""
    if _GOAL_NEEDS[0] is not models:
        _GOAL_NEEDS[:] = [models, tuple(tuple(parse_need(n) for n in model.goal) for _, model in models)]
    needs: tuple[tuple[Need, ...], ...] = _GOAL_NEEDS[1]
    return needs


_GOAL_NEEDS: list[Any] = [None, ()]


def _quiet(state: MothershipState) -> bool:
    """Nothing in progress on the turn: no roll, card, choice, draw or window."""
    return (
        state.pending is None and state.script is None and state.choice is None and state.current_player() == state.turn
    )


def finish(state: MothershipState, script: dict[str, Any], events: list[Event]) -> None:
    """A claimed objective's reward (``script``) is done (``scripted`` hook): the card is
    discarded; the next claim may follow."""
    state.objective_discard[script["card"]] += 1
    check(state, events)


def knocked_out(state: MothershipState, seat: int, events: list[Event]) -> None:
    """A player out discards their objectives, face up (like any discard, for all to see)."""
    cards = state.objectives[seat] + state.completed[seat]
    for card in cards:
        state.objective_discard[card] += 1
    if cards:
        names = ", ".join(state.game.content.objectives[card][1].name for card in cards)
        events.append(Event("objective", f"{state.player_name(seat)} discards the objectives {names}."))
    state.objectives[seat], state.completed[seat] = [], []
    state.objective_draws = [s for s in state.objective_draws if s != seat]


# ---- hidden information -----------------------------------------------------------------------


def hide(state: MothershipState, data: dict[str, JSON], seat: int | None) -> None:
    """``view``: others' objectives and unclaimed completions as counts, the deck as a count."""
    data["objectives"] = [held[:] if s == seat else len(held) for s, held in enumerate(state.objectives)]
    if mode(state) == "hidden":  # (a global objective was face up: who took which is known to all)
        data["completed"] = [done[:] if s == seat else len(done) for s, done in enumerate(state.completed)]
    data["objective_deck"] = sum(state.objective_deck)
    data["objective_log"] = None  # which cards were dealt is only known to their holders


def redeal(state: MothershipState, seat: int, rng: random.Random) -> None:
    """Re-deal, in place, the objectives ``seat`` cannot see: the deck and others' hidden ones."""
    if mode(state) != "hidden":  # the global row, and who took which of it, are public
        return
    held, completed = state.objectives, state.completed  # (each read once: a bot re-deals every decision)
    pool = list(state.objective_deck)
    for holder in range(len(held)):
        if holder != seat:
            for card in held[holder] + completed[holder]:
                pool[card] += 1
    cards = [card for card, copies in enumerate(pool) for _ in range(copies)]
    rng.shuffle(cards)
    undealable = _undealable(state.game)
    cards.sort(key=lambda card: undealable[card])  # a card needing a module not in play is never dealt
    for holder in range(len(held)):
        if holder == seat:
            continue
        for row in (held, completed):
            count = len(row[holder])
            row[holder], cards = sorted(cards[:count]), cards[count:]
    deck = [0] * len(pool)
    for card in cards:
        deck[card] += 1
    state.objective_deck = deck


def _undealable(game: Any) -> tuple[bool, ...]:
    """By card, whether it needs a module not in ``game`` (:func:`missing`; kept for the game last
    asked about, as ``_goal_tests`` keeps the tests)."""
    if _UNDEALABLE[0] is not game:
        models = game.content.objectives
        _UNDEALABLE[:] = [game, tuple(bool(decks.lacking(game, model.requires)) for _, model in models)]
    undealable: tuple[bool, ...] = _UNDEALABLE[1]
    return undealable


_UNDEALABLE: list[Any] = [None, ()]


# ---- for bots, terminals and reports ----------------------------------------------------------


def worth(state: MothershipState, seat: int) -> float:
    if mode(state) == "off":
        return 0.0
    return HELD_WORTH * len(state.peek("objectives")[seat]) + DONE_WORTH * len(state.peek("completed")[seat])


def label(state: MothershipState, action: Action) -> str:
    cards = state.game.content.objectives
    if isinstance(action, DrawObjective) and action.card < len(cards):
        return f"objective card: {cards[action.card][1].name}"
    if isinstance(action, ReplaceObjective) and action.card < len(cards):
        cost = state.game.content.objective_cards.replace_cost
        return f"replace the objective {cards[action.card][1].name} for {cost} resources"
    return repr(action)


def describe(state: MothershipState, seat: int | None) -> list[str]:
    """Lines for the terminal: the global row, or ``seat``'s own objectives and others' counts."""
    if mode(state) == "off" or state.board is None:
        return []
    if state.phase == "place":
        return ["Objectives: dealt once every fleet is placed"]
    cards = state.game.content.objectives
    if mode(state) == "global":
        row = "; ".join(f"{cards[c][1].name}: {cards[c][1].text}" for c in state.public_objectives)
        return [f"Global objectives: {row or 'all taken'}"]
    lines = []
    for s in range(state.game.players):
        if s == seat:
            own = "; ".join(f"{cards[c][1].name}: {cards[c][1].text}" for c in state.objectives[s])
            lines.append(f"Your objectives: {own or 'none'}")
        else:
            lines.append(f"{state.player_name(s)} holds {len(state.objectives[s])} objective(s)")
    return lines


def statistics(state: MothershipState) -> dict[str, Statistic]:
    """For designers (option objectives): the objectives completed a game (a headline figure);
    per card, drawn a game (dealt, face up or drawn as a replacement), the share of draws
    discarded for a module not in play, completed (taken) and replaced, and each reward group's
    share of the claims."""
    if mode(state) == "off":
        return {}
    log = state.objective_log
    figures = {"objectives completed (total)": Statistic(sum(card[1] for card in log), 1, headline=True)}
    for (_, model), (dealt, done, first, second, replaced, discarded) in zip(state.game.content.objectives, log):
        name = f"objective {model.name}"
        figures[f"{name}: drawn"] = Statistic(dealt, 1)
        figures[f"{name}: discarded (cannot be done)"] = Statistic(discarded, dealt, percent=True)
        figures[f"{name}: taken (completed)"] = Statistic(done, dealt, percent=True)
        if mode(state) == "hidden":
            figures[f"{name}: replaced"] = Statistic(replaced, dealt, percent=True)
        figures[f"{name}: reward 1 taken"] = Statistic(first, first + second, percent=True)
        figures[f"{name}: reward 2 taken"] = Statistic(second, first + second, percent=True)
    return figures


# ---- the rule hooks ---------------------------------------------------------------------------


def _started(state: MothershipState) -> None:
    state.objective_deck = start_deck(state)


def check_loaded(state: MothershipState) -> None:
    """Objective cards are owed only while one is left that can be dealt."""
    if state.objective_draws and decks.dry(
        state.objective_deck, state.objective_discard, lambda c: not missing(state, c)
    ):
        raise ValueError("objective_draws owes objective cards, but none is left that can be dealt")


PLUGIN = Module(
    MODULE,
    lambda game: game.options[MODULE] != "off",
    {
        "state_started": _started,
        "chance": lambda state: draw_outcomes(state) if state.objective_draws else None,
        "view": hide,
        "resample": redeal,
        "fleets_placed": deal,
        "knocked_out": knocked_out,
        "turn_actions": options,
        "actions": {
            "draw_objective": lambda state, seat, action, events: drawn(state, action[0], events),
            "replace_objective": lambda state, seat, action, events: replace(state, seat, action[0], events),
        },
        "labels": {"draw_objective": label, "replace_objective": label},
        "scripted": {"objective": finish},
        "effects": {"objectives": lambda state, seat, ship, effect, events: owe(state, seat, effect.amount)},
        "after_action": check,
        "quiet": quiet,
        "loaded": check_loaded,
    },
    fields=("objective_draws", "objectives", "public_objectives", "completed"),
)
"""The expansion's objectives (option ``objectives``: hidden or global)."""
