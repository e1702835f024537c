"""The positions the How to play page draws: the first four rounds of a race, step by step.

``server/pages.py`` draws each for the seat it names. A two-player race on the default map is
played through the public API with forced dice and draws, and stopped at each step the page
explains.

The map (as the set-up lays it for two): the Nexus (node 0); Vega (1) and Rigel (2) beside it;
Vega, tiles 3-6, Altair (7); Rigel, tiles 8-11, Deneb (12); the Nexus, tiles 13-16, Sirius (17).
Red (seat 0) rolls the higher die and takes Vega with a [3|4|3] mothership; Blue takes Rigel
with a [4|3|3] one and starts. Blue finds plasma cannons; Red meets a wild [3|3|4] ship, wins
the standoff's dice 5 to 2 and names it Wanderer. Blue goes home to Rigel, Red's mothership
stops at the Nexus for customs, and Wanderer takes Altair (a conquest roll of 4: two treasure
cards, one a downgrade). Then Red's mothership assaults Rigel and is beaten.
"""

from __future__ import annotations

from collections.abc import Callable

from spacetable.engine import Action, Roll, State, load

from ..rules.actions import Contest, Design, DrawShip, DrawTreasure, EndTurn, Homeworld, LayStarway, Move
from ..rules.state import SpaceRaceState

Step = Action | int | Callable[[SpaceRaceState], Action]
"""A move, a forced die (an int), or a draw that needs the game's decks to be named."""

RED, BLUE = 0, 1
NEXUS, VEGA, RIGEL, ALTAIR = 0, 1, 2, 7
MOTHERSHIP, WANDERER = 0, 1
"""Each fleet's ships in the order they joined it."""


def _starway(tiles: str) -> Step:
    """The starway card with these tiles (nearest the Nexus first; ``.`` empty)."""
    return lambda state: LayStarway(state.game.starway_patterns.index(tiles))


def _spaceship(d: int, m: int, a: int) -> Step:
    return lambda state: DrawShip(state.game.content.ships.index((d, m, a)))


def _treasure(d: int = 0, m: int = 0, a: int = 0) -> Step:
    """The treasure card that changes the scores by exactly these amounts."""
    return lambda state: DrawTreasure(
        next(i for i, t in enumerate(state.game.content.treasure) if (t.d, t.m, t.a) == (d, m, a))
    )


SET_UP: tuple[Step, ...] = (
    _starway("T.S."),
    _starway(".T.S"),
    _starway("S.T."),
    6,
    5,
    Homeworld(VEGA),
    Homeworld(RIGEL),
    Design(3, 4, 3),
    Design(4, 3, 3),
)
"""The three starways, the order dice (Red 6, Blue 5), homeworlds and motherships."""
TREASURE_FOUND: tuple[Step, ...] = (Move(MOTHERSHIP, 9), _treasure(a=2))
"""Blue's mothership lands on the [T] tile two steps out of Rigel."""
STANDOFF: tuple[Step, ...] = (Move(MOTHERSHIP, 5), _spaceship(3, 3, 4))
"""Red's mothership lands on the [S] tile three steps out of Vega and strikes first (M 4
against 3): A 3 against D 3 is a standoff, and Red, the faster, may flee or contest."""
SHIP_CAPTURED: tuple[Step, ...] = (Contest(), 5, 2)
AT_THE_NEXUS: tuple[Step, ...] = (Move(MOTHERSHIP, RIGEL), Move(MOTHERSHIP, NEXUS))
"""Blue goes home to orbit Rigel; Red's mothership flies four steps into the Nexus."""
PLANET_TAKEN: tuple[Step, ...] = (EndTurn(), Move(WANDERER, ALTAIR), 4, _treasure(d=2), _treasure(m=-1))
"""Blue keeps its mothership in orbit; Wanderer takes Altair and rolls 4 for two cards."""
ASSAULT: tuple[Step, ...] = (EndTurn(), Move(MOTHERSHIP, RIGEL))
"""Red's mothership, out of customs, lands on Rigel, where Blue's mothership defends."""


def _played(*moves: Step) -> SpaceRaceState:
    """A new two-player game with the default options after ``moves``, each by whoever acts."""
    state = load("spacerace", 2).new_initial_state()
    assert isinstance(state, SpaceRaceState)
    for move in moves:
        state.apply_action(Roll(move) if isinstance(move, int) else move(state) if callable(move) else move)
    return state


POSITIONS: dict[str, Callable[[], tuple[State, int]]] = {
    "set-up": lambda: (_played(*SET_UP), RED),
    "treasure": lambda: (_played(*SET_UP, *TREASURE_FOUND), BLUE),
    "standoff": lambda: (_played(*SET_UP, *TREASURE_FOUND, *STANDOFF), RED),
    "nexus": lambda: (_played(*SET_UP, *TREASURE_FOUND, *STANDOFF, *SHIP_CAPTURED, *AT_THE_NEXUS), RED),
    "conquest": lambda: (
        _played(*SET_UP, *TREASURE_FOUND, *STANDOFF, *SHIP_CAPTURED, *AT_THE_NEXUS, *PLANET_TAKEN),
        RED,
    ),
    "assault": lambda: (
        _played(*SET_UP, *TREASURE_FOUND, *STANDOFF, *SHIP_CAPTURED, *AT_THE_NEXUS, *PLANET_TAKEN, *ASSAULT),
        BLUE,
    ),
}
"""Each picture of the page by the name its ``<figure data-position>`` gives."""
