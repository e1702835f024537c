"""The positions the How to play page draws: a three-captain game and a duel, step by step.

``server/pages.py`` draws each for the seat it names. A three-captain game is played through the
public API with forced deals and dice, and stopped at each step the page explains; so is the
first round of a two-captain duel, whose ships burn from the start.

Each draft is written as the picks each captain makes, in order; the deals that put those cards
in those hands are worked out from the way hands pass (:func:`_draft`). In the three-captain
game Leela (seat 0) builds three engines, two weapons, a Gunner, a Pilot, Hacking, Nitro Fuel
and Energy Shields; Malcolm (seat 1) two engines, three weapons, an Engineer, a Pilot,
Psionics, Armor Plating and a Frequency Scrambler; Han (seat 2) two engines, two weapons, an
Engineer, a Gunner, a Cryo-Crew, the AI, Adrenal Stim and Nitro Fuel. Each scraps two cards, so
every hull has five tokens. Leela starts: she charges her reactor and hacks one of Malcolm's
weapons. Malcolm double-attacks her with the two weapons left and one energy set aside; she
deploys Nitro Fuel. Han then teleports his Gunner aboard Leela's ship to sabotage it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from spacetable.engine import Action, Roll, State, load

from ..rules.actions import HULL, NONE, Attack, Board, Charge, Commit, Deploy, Done, Draw, First, Hack, Pick, Teleport
from ..rules.state import ShowdownState


class AtOnce(NamedTuple):
    """A seat's move where several seats act at once (the draft)."""

    seat: int
    action: Action


Step = Action | int | AtOnce
"""A move by whoever acts, a forced die (an int), or a seat's move where several act at once."""
Picks = Sequence[Sequence[str]]
"""One upgrade round: each seat's six picks in order; a card kind plays it, ``-kind`` scraps it
for a hull token."""

LEELA, MALCOLM, HAN = 0, 1, 2

TRIO: tuple[Picks, Picks] = (
    (
        ("engine", "weapon", "hacking", "gunner", "engine", "-adrenal_stim"),
        ("weapon", "engine", "psionics", "engineer", "weapon", "-cryo"),
        ("engine", "weapon", "ai", "gunner", "adrenal_stim", "-weapon"),
    ),
    (
        ("weapon", "pilot", "nitro_fuel", "energy_shields", "engine", "-engine"),
        ("engine", "pilot", "armor_plating", "frequency_scrambler", "weapon", "-security_drone"),
        ("engine", "engineer", "cryo", "nitro_fuel", "weapon", "-armor_plating"),
    ),
)
"""The three-captain draft: all 36 cards of the three-player deck."""
DUEL: tuple[Picks, Picks] = (
    (
        ("engine", "weapon", "gunner", "engine", "nitro_fuel", "-cryo"),
        ("weapon", "engine", "engineer", "weapon", "-adrenal_stim", "psionics"),
    ),
    (
        ("weapon", "pilot", "hacking", "engine", "armor_plating", "-engine"),
        ("engine", "gunner", "energy_shields", "weapon", "-weapon", "frequency_scrambler"),
    ),
)
"""The duel's draft: 24 of the 36 cards; the rest stay in the box."""


def _draft(rounds: Sequence[Picks], first_picks: int | None = None) -> list[Step]:
    """The deals and picks of the upgrade rounds, stopped after ``first_picks`` picks of the first
    round if given. A round's hands pass to the next seat (then back the other way), so the hand
    dealt to seat ``h`` is in seat ``h + k`` 's hands (``h - k`` in the second round) for its
    ``k``-th pick; the deal fills seat 0's hand first."""
    steps: list[Step] = []
    for number, picks in enumerate(rounds):
        seats, way = len(picks), 1 if number % 2 == 0 else -1
        for hand in range(seats):
            steps += [Draw(picks[(hand + way * k) % seats][k].lstrip("-")) for k in range(len(picks[0]))]
        for k in range(len(picks[0]) if first_picks is None else first_picks):
            for seat in range(seats):
                card = picks[seat][k]
                scrap = card.startswith("-")
                steps.append(AtOnce(seat, Pick(card.lstrip("-"), HULL if scrap else "play", NONE)))
        if first_picks is not None:
            break
    return steps


SHOWDOWN = (First(LEELA),)
HACKED = (Charge(), Hack(MALCOLM, "weapon"))
"""Leela charges three energy (four in all) and spends the four on Hacking."""
ATTACKED = (
    Done(),
    Attack(LEELA, double=True),
    Commit(1),
    Deploy(0, boost=False),
    Done(),
    Commit(0),
    *(4, 3, 2, 1),
    *(1, 1, 2, 1, 3, 2),
)
"""Malcolm lets the hack through, then fires his two working weapons twice in one volley with
one energy aside; Leela deploys Nitro Fuel, so her three engines' dice are rolled twice. Malcolm
rolls 4, 3, 2, 1 and Leela 1, 1, 2, 1, 3, 2; her Pilot's two re-rolls are still to come."""
BOARDED = (2, 4, Teleport(LEELA, "gunner"), Done(), Board("sabotage"))
"""The Pilot re-rolls two 1s into 2 and 4: three successes (the energy lifts Malcolm's 2)
against two, one hull token. Then Han's Gunner goes aboard Leela's ship to sabotage it."""


def _played(players: int, *moves: Step) -> ShowdownState:
    """A new game of ``players`` captains after ``moves``."""
    state = load("showdown", players).new_initial_state()
    assert isinstance(state, ShowdownState)
    for move in moves:
        if isinstance(move, AtOnce):
            state.apply_action(move.action, move.seat)
        else:
            state.apply_action(Roll(move) if isinstance(move, int) else move)
    return state


POSITIONS: dict[str, Callable[[], tuple[State, int]]] = {
    "draft": lambda: (_played(3, *_draft(TRIO, first_picks=3)), LEELA),
    "showdown": lambda: (_played(3, *_draft(TRIO), *SHOWDOWN), LEELA),
    "hacking": lambda: (_played(3, *_draft(TRIO), *SHOWDOWN, *HACKED), MALCOLM),
    "attack": lambda: (_played(3, *_draft(TRIO), *SHOWDOWN, *HACKED, *ATTACKED), LEELA),
    "boarding": lambda: (_played(3, *_draft(TRIO), *SHOWDOWN, *HACKED, *ATTACKED, *BOARDED), LEELA),
    "burning": lambda: (_played(2, *_draft(DUEL), First(LEELA)), LEELA),
}
"""Each picture of the page by the name its ``<figure data-position>`` gives."""
