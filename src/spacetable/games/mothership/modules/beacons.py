"""The expansion's distress beacons (the option ``beacons``).

- Set-up: twice as many tokens as players (``content.beacon_tokens.per_player`` each), laid
  in balanced places (:func:`furnish`): each player gets the same share, at the same
  distances from their own colony station, nearer to it than to anyone else's. Half are face
  up showing a unit (the same units for everyone), half locked. When no face-up token is
  left, the locked ones turn over at once; what each shows is a chance node over the token
  pool (``content.beacon_tokens.units``).
- A player activates at most one beacon a turn, by moving a unit of the token's type onto it
  (that ends its movement; it may still attack once the card is done). A player holding a
  kept beacon card activates none until that card is used. Any unit may stand on a token; a
  unit that could activate the one it stood on since before the turn must move off it or
  stay and activate it (:class:`.Activate`) before it attacks or the turn ends.
- Activating draws the top beacon card (chance; the discard pile is shuffled back when the
  deck runs out). A card that cannot be done (it needs a module not in play, or none of its
  options is open to the player) is discarded and the next one drawn.
  The card is carried out by :mod:`.scripts`; then the token leaves the board and the card
  goes to the discard pile, unless it is kept.
- Kept cards (``keep dogfight N``, ``keep salvage N``) are ``state.kept[seat]`` entries
  ``[card, kind, amount]``; each is used once, then discarded.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Event, Statistic

from ..content.language import KEEPS, TALLIES, Effect
from ..rules import decks
from ..rules.actions import Activate, DrawBeacon, RevealToken, ship_bits
from ..rules.board import BLACK_HOLE, Board, build_board
from ..rules.board import EMPTY as OPEN
from ..rules.hooks import Module
from ..rules.state import LOCKED, MOVED, NOWHERE
from ..rules.targets import BOMBER, FIGHTER, MOTHERSHIP
from . import scripts

if TYPE_CHECKING:
    from ..content import Content
    from ..rules.state import MothershipState

MODULE = "beacons"
UNITS = (MOTHERSHIP, FIGHTER, BOMBER)
"""What a face-up token shows, by number."""
ACTIVATED, REPLACED = 1, 2
"""Bits of ``state.activated``: what the player on turn has done once this turn (a beacon
activated; an objective replaced, module :mod:`.objectives`)."""
BEACON_WORTH = 2.0
"""A beacon card about to be drawn, in the greedy evaluation's units: most cards pay a few
resources or better (a resource is 0.25), some hurt."""
KEPT_WORTH = 1.0


def active(state: MothershipState) -> bool:
    return MODULE in state.game.modules


def start_deck(state: MothershipState) -> list[int]:
    """Copies of each beacon card in the deck at the start (none without the module)."""
    on = MODULE in state.game.modules
    return [model.count if on else 0 for _, model in state.game.content.beacons]


# ---- set-up ---------------------------------------------------------------------------------


def furnish(board: Board, content: Content, players: int) -> Board:
    """``board`` with its beacon tokens laid out (the same for the same board)."""
    rules = content.beacon_tokens
    rng = random.Random(f"beacons:{board.terrain}:{board.stations}")
    low, high = rules.distance
    taken: set[int] = set()
    per_seat: list[list[int]] = []
    wanted: list[int] = []  # the first player's tokens' distances: the others' follow them where they can
    for station in board.stations[:players]:
        others = [s for s in board.stations[:players] if s != station]
        spots = [
            c
            for c in range(board.size * board.size)
            if board.terrain[c] == OPEN
            and low <= board.distance(c, station) <= high
            and all(board.distance(c, o) > board.distance(c, station) for o in others)
            and not any(board.terrain[n] == BLACK_HOLE for n in board.neighbours[c])
        ]
        chosen: list[int] = []
        for i in range(rules.per_player):
            free = [c for c in spots if all(board.distance(c, t) > 1 for t in taken | set(chosen))]
            if not free:
                break
            alike = [c for c in free if i < len(wanted) and board.distance(c, station) == wanted[i]]
            chosen.append(rng.choice(alike or free))
        wanted = wanted or [board.distance(c, station) for c in chosen]
        taken.update(chosen)
        per_seat.append(chosen)
    pool = [u for u, copies in enumerate(rules.units) for _ in range(copies)]
    shown = [rng.choice(pool) for _ in range(rules.per_player // 2)]
    tokens = []
    for chosen in per_seat:
        for i, cell in enumerate(chosen):  # the i-th token of each player's share shows the same
            tokens.append((cell, shown[i] if i < len(shown) else LOCKED))
    return build_board(
        board.name, board.size, board.terrain, board.planets, board.stations, board.fleet, tuple(sorted(tokens))
    )


def lay_out(state: MothershipState, board: Board) -> None:
    state.tokens = [[cell, unit] for cell, unit in board.beacons] if active(state) else []


# ---- activating -------------------------------------------------------------------------------


def token_at(state: MothershipState, cell: int) -> int:
    """The index of the token on ``cell``, else -1."""
    return next((i for i, token in enumerate(state.tokens) if token[0] == cell), -1)


def can_activate(state: MothershipState, seat: int, ship: int) -> bool:
    """Whether ``seat``'s ``ship`` may activate the token it stands on now."""
    if not active(state) or state.activated & ACTIVATED or state.kept[seat] or state.turn != seat:
        return False
    token = token_at(state, state.pos[seat][ship])
    return token >= 0 and state.tokens[token][1] == UNITS.index(state.game.ship_kinds[ship])


def arrived(state: MothershipState, seat: int, ship: int, events: list[Event]) -> None:
    """A ship's move ended: onto a token it can activate, it does (its movement ends)."""
    idle = state.pending is None and state.choice is None
    if idle and state.pos[seat][ship] != NOWHERE and can_activate(state, seat, ship):
        activate(state, seat, ship, events)


def sitters(state: MothershipState, seat: int) -> int:
    """Bit mask of ``seat``'s ships standing, unmoved this turn, on a token they can activate:
    each must move off or stay and activate it (:class:`.Activate`) before it attacks or the
    turn ends."""
    if not state.tokens or not active(state) or state.activated & ACTIVATED or state.turn != seat or state.kept[seat]:
        return 0  # what can_activate asks of the seat, asked once
    calls: dict[int, int] = {}  # by space, the unit its (first) token calls for, as can_activate reads it
    for token in state.tokens:
        calls.setdefault(token[0], token[1])
    used, attacked, kinds = state.used, state.attacked, state.game.ship_kinds
    return sum(
        1 << ship
        for ship, cell in enumerate(state.pos[seat])
        if cell != NOWHERE
        and not used[ship]
        and not attacked >> ship & 1
        and calls.get(cell, LOCKED) == UNITS.index(kinds[ship])
    )


def activate(state: MothershipState, seat: int, ship: int, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    cell = state.pos[seat][ship]
    state.activated |= ACTIVATED
    state.used[ship] = MOVED  # the ship's movement ends here
    state.tallies[seat][TALLIES.index("beacons_activated")] += 1
    state.beacon_draw = [seat, ship, cell]
    events.append(
        Event("beacon", f"{state.ship_name(seat, ship)} answers the distress beacon at {board.name_of(cell)}.")
    )
    decks.refill(state.beacon_deck, state.beacon_discard)
    if _dry(state):  # every card kept by someone, or none left that can be played
        _fade(state, events)


def _dry(state: MothershipState, open_to: Callable[[int], bool] = lambda card: True) -> bool:
    """Whether no card is left in the deck or the discard pile that the modules in play allow
    and (``open_to``) the activating player can take an option of."""
    return decks.dry(state.beacon_deck, state.beacon_discard, lambda card: not missing(state, card) and open_to(card))


def _fade(state: MothershipState, events: list[Event]) -> None:
    events.append(Event("beacon", "No beacon card is left to draw: the signal fades."))
    cell = state.beacon_draw[2]
    state.beacon_draw = []
    remove_token(state, cell, events)


def draw_outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    return decks.outcomes(state.beacon_deck, DrawBeacon)


def missing(state: MothershipState, card: int) -> list[str]:
    """The modules beacon ``card`` needs that are not in play."""
    return decks.lacking(state.game, state.game.content.beacons[card][1].requires)


def drawn(state: MothershipState, card: int, events: list[Event]) -> None:
    """The beacon card is drawn: carried out, or discarded for the next when it cannot be done
    (it needs a module not in play, or no option is open to the player: RULINGS.md)."""
    seat, ship, cell = state.beacon_draw
    state.beacon_deck[card] -= 1
    state.beacon_log[card][0] += 1
    name = state.game.content.beacons[card][1].name
    lacking = missing(state, card)
    if lacking or not scripts.open_options(state, seat, ship, card):
        state.beacon_log[card][1] += 1
        state.beacon_discard[card] += 1
        why = (
            f"needs {', '.join(lacking)}, not in play"
            if lacking
            else f"has no option open to {state.player_name(seat)}"
        )
        events.append(Event("beacon", f"{name} {why}: discarded, another is drawn."))
        decks.refill(state.beacon_deck, state.beacon_discard)
        if _dry(state, lambda c: bool(scripts.open_options(state, seat, ship, c))):
            _fade(state, events)
        return
    state.beacon_draw = []
    scripts.begin_beacon(state, seat, ship, card, cell, events)


def finish(state: MothershipState, script: dict[str, Any], events: list[Event]) -> None:
    """The beacon card ``script`` carried out is done (``scripted`` hook): to the discard pile
    unless kept; its token leaves."""
    seat, card = script["seat"], script["card"]
    if not any(k[0] == card for k in state.kept[seat]):
        state.beacon_discard[card] += 1
    remove_token(state, script["token"], events)


def remove_token(state: MothershipState, cell: int, events: list[Event]) -> None:
    """The token on ``cell`` leaves the board; with no face-up token left, the locked ones turn over."""
    state.tokens = [t for t in state.tokens if t[0] != cell]
    if state.tokens and all(t[1] == LOCKED for t in state.tokens):
        state.flipping = len(state.tokens)
        events.append(Event("beacon", "The last active beacon is answered: the locked beacons switch on."))


def flip_outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    pool = state.game.content.beacon_tokens.units
    total = sum(pool)
    return [(RevealToken(unit), copies / total) for unit, copies in enumerate(pool) if copies]


def revealed(state: MothershipState, unit: int, events: list[Event]) -> None:
    """The next locked token turns face up showing ``unit``."""
    board = state.board
    assert board is not None
    token = next(t for t in state.tokens if t[1] == LOCKED)
    token[1] = unit
    state.flipping -= 1
    events.append(Event("beacon", f"The beacon at {board.name_of(token[0])} calls for a {UNITS[unit]}."))


# ---- kept cards -------------------------------------------------------------------------------


def keep(state: MothershipState, seat: int, ship: int, effect: Effect, events: list[Event]) -> None:
    """``seat`` keeps the beacon card it is carrying out for ``effect`` (``keep dogfight N`` or
    ``keep salvage N``; the ``effects`` hook)."""
    assert state.script is not None
    card = state.script["card"]
    state.kept[seat].append([card, KEEPS.index(effect.word), effect.amount])
    name = state.game.content.beacons[card][1].name
    events.append(Event("beacon", f"{state.player_name(seat)} keeps {name} ({effect.word} +{effect.amount})."))


def use_kept(state: MothershipState, seat: int, kind: str, events: list[Event]) -> int:
    """``seat``'s first kept card of ``kind`` is used (and discarded): its amount, else 0."""
    if seat < 0 or not state.kept[seat]:
        return 0
    number = KEEPS.index(kind)
    entry = next((k for k in state.kept[seat] if k[1] == number), None)
    if entry is None:
        return 0
    state.kept[seat].remove(entry)
    script = state.script
    if script is None or script["source"] != "beacon" or script["card"] != entry[0]:
        state.beacon_discard[entry[0]] += 1  # (used by its own card's effects: ``finish`` discards it)
    name = state.game.content.beacons[entry[0]][1].name
    events.append(Event("beacon", f"{state.player_name(seat)} uses the kept {name}: +{entry[2]}."))
    return int(entry[2])


def salvage(state: MothershipState, seat: int, events: list[Event]) -> None:
    """``seat``'s units destroyed an enemy unit: a kept salvage card pays out."""
    state.resources[seat] += use_kept(state, seat, "salvage", events) if seat >= 0 else 0


# ---- for bots, terminals and reports ----------------------------------------------------------


def worth(state: MothershipState, seat: int) -> float:
    """Beacon cards about to be drawn or carried out for ``seat``, and its kept cards."""
    if not active(state):
        return 0.0
    drawing = state.beacon_draw[:1] == [seat] or (state.script is not None and state.script["seat"] == seat)
    return BEACON_WORTH * drawing + KEPT_WORTH * len(state.peek("kept")[seat])


def label(state: MothershipState, action: Action) -> str:
    if isinstance(action, Activate):
        return f"stay and answer the beacon with {state.game.ship_names[action.ship]}"
    if isinstance(action, DrawBeacon) and action.card < len(state.game.content.beacons):
        return f"beacon card: {state.game.content.beacons[action.card][1].name}"
    if isinstance(action, RevealToken) and action.unit < len(UNITS):
        return f"the beacon calls for a {UNITS[action.unit]}"
    return repr(action)


def describe(state: MothershipState) -> list[str]:
    """Lines for the terminal: the tokens and the kept cards."""
    board = state.board
    if board is None or not active(state):
        return []
    shown = ", ".join(
        f"{board.name_of(cell)} ({'locked' if unit == LOCKED else UNITS[unit]})" for cell, unit in state.tokens
    )
    lines = [f"Beacons: {shown or 'none left'}"]
    for seat, kept in enumerate(state.kept):
        if kept:
            names = ", ".join(state.game.content.beacons[k[0]][1].name for k in kept)
            lines.append(f"{state.player_name(seat)} keeps {names} (no more beacons until used)")
    return lines


def statistics(state: MothershipState) -> dict[str, Statistic]:
    """For designers (option beacons): the cards drawn a game (a headline figure); per card, draws
    a game, the share of draws discarded because the card could not be done (a module not in
    play, no option open), and the share of each option among the draws carried out (a batch
    report's rows sort by name, so each card's rows stand together: the table a designer tunes
    cards with)."""
    if not active(state):
        return {}
    total = sum(log[0] for log in state.beacon_log)
    figures = {"beacon cards drawn (total)": Statistic(total, 1, headline=True)}
    for (_, model), (drawn_, discarded, first, second) in zip(state.game.content.beacons, state.beacon_log):
        name = f"beacon {model.name}"
        figures[f"{name}: drawn"] = Statistic(drawn_, 1)
        figures[f"{name}: discarded (cannot be done)"] = Statistic(discarded, drawn_, percent=True)
        figures[f"{name}: option 1 taken"] = Statistic(first, first + second, percent=True)
        figures[f"{name}: option 2 taken"] = Statistic(second, first + second, percent=True)
    return figures


# ---- the rule hooks ---------------------------------------------------------------------------


def _started(state: MothershipState) -> None:
    state.beacon_deck = start_deck(state)


def _chance(state: MothershipState) -> list[tuple[Action, float]] | None:
    if state.beacon_draw:
        return draw_outcomes(state)
    return flip_outcomes(state) if state.flipping else None


def _activations(state: MothershipState, seat: int) -> list[Action]:
    return [Activate(ship) for ship in ship_bits(sitters(state, seat))]


def _dogfight(state: MothershipState, seat: int, events: list[Event]) -> int:
    return use_kept(state, seat, "dogfight", events)


def _destroyed(state: MothershipState, by: int, seat: int, unit: int, events: list[Event]) -> None:
    salvage(state, by, events)


def _knocked_out(state: MothershipState, seat: int, events: list[Event]) -> None:
    """A player out discards the beacon cards it kept."""
    for card, *_ in state.kept[seat]:
        state.beacon_discard[card] += 1
    state.kept[seat] = []


def quiet(state: MothershipState, seat: int) -> Callable[[Action], bool]:
    """The quick values' question (hook ``quiet``): only a move onto a token the ship may answer
    there (:func:`can_activate`) sets a beacon off; onto another, the ship just stands on it."""
    if not active(state) or state.activated & ACTIVATED or state.peek("kept")[seat] or state.turn != seat:
        return lambda action: True  # what can_activate asks of the seat, asked once
    calls: dict[int, int] = {}  # by space, the unit its (first) token calls for, as can_activate reads it
    for token in state.tokens:
        calls.setdefault(token[0], token[1])
    kinds = state.game.ship_kinds
    return lambda action: action[-1] != "move" or calls.get(action[1], LOCKED) != UNITS.index(kinds[action[0]])


PLUGIN = Module(
    MODULE,
    lambda game: MODULE in game.modules,
    {
        "state_started": _started,
        "chance": _chance,
        "board_laid": lay_out,
        "moved": arrived,
        "quiet": quiet,
        "waiting_ships": sitters,
        "dogfight_bonus": _dogfight,
        "unit_destroyed": _destroyed,
        "knocked_out": _knocked_out,
        "turn_actions": _activations,
        "actions": {
            "activate": lambda state, seat, action, events: activate(state, seat, action[0], events),
            "draw_beacon": lambda state, seat, action, events: drawn(state, action[0], events),
            "reveal_token": lambda state, seat, action, events: revealed(state, action[0], events),
        },
        "labels": {"activate": label, "draw_beacon": label, "reveal_token": label},
        "scripted": {"beacon": finish},
        "effects": {"keep": keep},
    },
    term="kept beacon card",
    fields=("beacon_draw", "flipping"),
)
"""The expansion's distress beacons (option ``beacons``)."""
