"""The positions the How to play page draws: the first round of a level-1 game, step by step.

``server/pages.py`` draws each for the seat it names. They are played through the public API
with forced dice, and stopped at each step the page explains.

The round: black 4, 3, 5 and white 2, 6 are rolled; the black dice go on the energy room B1,
the robot room B2 and the shoot room B3 (two ships land on explosions, a third is pushed
sideways by an arrow); the white 6 goes on the research room B5 and re-rolls the white 2 into
a 3, which digs towards C4. The rooms then gain energy, shoot both ships down, research two
spaces, build a robot and dig; the robot goes to work on B1, and the mother ship comes down a
row with the two ships shot down waiting on it.
"""

from __future__ import annotations

from collections.abc import Callable

from spacetable.engine import Action, Roll, State, load

from ..rules.actions import Dig, Place, PlaceRobot, Resolve

PLAYER = 0
"""The only seat: every picture is drawn for it."""

ROLLED = (4, 3, 5, 2, 6)
"""The round's first roll, in the order the dice are rolled: three black, then two white."""
BLACK_PLACED = (Place("black", 4, "B1"), Place("black", 3, "B2"), Place("black", 5, "B3"))
ALL_PLACED = (*BLACK_PLACED, Place("white", 6, "B5"), 3, Place("white", 3, "C4"))
"""The white 6 re-rolls the white 2 (a 3 comes up), which then digs."""
RESOLVED = (
    Resolve("B1", True, ""),
    Resolve("B3", True, ""),
    Resolve("B5", True, ""),
    Resolve("B2", True, ""),
    Dig("C4", True),
)
ROBOT_PLACED = (PlaceRobot("B1"),)


def _played(*moves: Action | int) -> tuple[State, int]:
    """A new level-1 game after ``moves`` in turn (an int is the next die's forced roll)."""
    state = load("falling-skies").new_initial_state()
    for move in moves:
        state.apply_action(Roll(move) if isinstance(move, int) else move)
    return state, PLAYER


POSITIONS: dict[str, Callable[[], tuple[State, int]]] = {
    "round-start": lambda: _played(*ROLLED),
    "ships-move": lambda: _played(*ROLLED, *BLACK_PLACED),
    "rooms": lambda: _played(*ROLLED, *ALL_PLACED),
    "new-robot": lambda: _played(*ROLLED, *ALL_PLACED, *RESOLVED),
    "mother-ship": lambda: _played(*ROLLED, *ALL_PLACED, *RESOLVED, *ROBOT_PLACED),
}
"""Each picture of the page by the name its ``<figure data-position>`` gives."""
