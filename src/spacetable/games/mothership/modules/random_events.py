"""Chapter 15, the Random Event D6 (an optional module: option ``random_event``).

Playing a Random Event card rolls the event die; its player then chooses to double the
effect for themselves or to avoid it. The effect starts on that turn and lasts one round:
it is gone when its player's next turn begins. Only one event is active at a time, so the
card cannot be played while one lasts.

1. Offworld Trading: +1 resource for every 2 planets held, at the end of each turn.
2. Solar Storm: every mothership gets +2 on every roll.
3. Free Samples!: every player draws an action card at once.
4. Pirate Raid: the resources from planets at the end of a turn are halved (rounded up).
5. Magnetic Storm: every mothership loses its power (no engines, weapons or shields).
6. Space Virus: a ship next to a planet cannot move.

Doubling: twice the bonus, two cards, resources quartered; a storm or virus cannot be
worse than total, so doubling one changes nothing. Avoiding: the player is not affected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from ..rules import economy
from ..rules.actions import EventChoice
from ..rules.cards import CardRule, Target
from ..rules.hooks import Module

if TYPE_CHECKING:
    from ..rules.state import MothershipState

NAMES = ("", "Offworld Trading", "Solar Storm", "Free Samples!", "Pirate Raid", "Magnetic Storm", "Space Virus")
DOUBLE, AVOID = 1, 2


def active(state: MothershipState) -> list[int] | None:
    """The event in force as [player, outcome, choice], or None."""
    for e in state.effects:
        if e[0] == "event":
            return [e[1], e[2], e[3]]
    return None


def strength(state: MothershipState, outcome: int, seat: int) -> int:
    """How hard the event ``outcome`` hits ``seat``: 0 not at all (no such event, or avoided), 1, 2 doubled."""
    event = active(state)
    if event is None or event[1] != outcome:
        return 0
    player, _, choice = event
    if seat != player:
        return 1
    return 2 if choice == DOUBLE else 0


def start(state: MothershipState, seat: int, events: list[Event]) -> None:
    """The card is played: roll the event die."""
    state.pending = {"what": "event", "seat": seat, "ships": [], "target": -1, "dice": [6], "rolls": []}
    events.append(Event("card", "The event die is rolled."))


def rolled(state: MothershipState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    state.event_roll = [pending["seat"], pending["rolls"][0]]
    events.append(Event("card", f"Random event: {NAMES[pending['rolls'][0]]}."))


def choices(state: MothershipState) -> list[Action]:
    return [EventChoice(DOUBLE), EventChoice(AVOID)]


def choose(state: MothershipState, choice: int, events: list[Event]) -> None:
    seat, outcome = state.event_roll
    state.event_roll = []
    state.effects.append(["event", seat, outcome, choice, "begin", seat])
    how = "doubles it" if choice == DOUBLE else "avoids it"
    events.append(Event("card", f"{state.player_name(seat)} {how} for one round: {NAMES[outcome]}."))
    if outcome == 5:  # Magnetic Storm: the shields go down with the power
        for player in range(state.game.fleets):
            if powerless(state, player):
                state.shield[player] = 0
    if outcome == 3:  # Free Samples!: cards at once
        for player in range(state.game.fleets):
            count = strength(state, 3, player)
            if count and not state.out[player]:
                economy.owe_cards(state, player, count, events)


# ---- the effects, where the rules ask -------------------------------------------------------


def income_change(state: MothershipState, seat: int, planets: int) -> tuple[int, int]:
    """(extra resources, planet resources) at the end of ``seat``'s turn with ``planets`` held."""
    bonus = (planets // 2) * strength(state, 1, seat)
    raid = strength(state, 4, seat)
    kept = planets
    for _ in range(raid):
        kept = (kept + 1) // 2
    return bonus, kept


def roll_bonus(state: MothershipState, seat: int, ship: int) -> int:
    """Solar Storm: +2 (doubled +4) on a mothership's roll."""
    return 2 * strength(state, 2, seat) if ship == 0 else 0


def powerless(state: MothershipState, seat: int) -> bool:
    """Magnetic Storm: the seat's mothership has no power."""
    return strength(state, 5, seat) > 0


def sick(state: MothershipState, seat: int, cell: int) -> bool:
    """Space Virus: a ship of ``seat`` on ``cell`` next to a planet cannot move."""
    board = state.board
    if strength(state, 6, seat) == 0 or board is None:
        return False
    gone = state.gone_planets()
    return any(board.terrain[n] == "P" and n not in gone for n in board.neighbours[cell])


def _card_targets(state: MothershipState, seat: int) -> list[Target]:
    """The Random Event card: playable while no event lasts."""
    return [(0, 0)] if active(state) is None else []


def _card(state: MothershipState, seat: int, _unit: int, _spot: int, events: list[Event]) -> None:
    start(state, seat, events)


def _chosen(state: MothershipState, seat: int, action: Action, events: list[Event]) -> None:
    choose(state, action[0], events)


def _label(state: MothershipState, action: Action) -> str:
    return "double the event for yourself" if action[0] == DOUBLE else "avoid the event yourself"


PLUGIN = Module(
    "random_events",
    lambda game: "random_event" in game.modules,
    {
        "decisions": lambda state, seat: choices(state) if state.event_roll else None,
        "income": income_change,
        "powerless": powerless,
        "ship_frozen": sick,
        "roll_bonus": roll_bonus,
        "actions": {"event_choice": _chosen},
        "rolled": {"event": rolled},
        "labels": {"event_choice": _label},
        "cards": {"random_event": CardRule(_card_targets, _card)},
    },
    term="random event",
    fields=("event_roll",),
)
"""Chapter 15 (option ``random_event``)."""
