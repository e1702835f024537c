"""The positions the How to play page draws: the first round of a duel, step by step.

``server/pages.py`` draws each for the seat it names. A two-player game on the duel layout is
played through the public API with forced dice and cards, and stopped at each step the page
explains.

Player 1 (seat 0) sets up around B2, Player 2 around L12, and Player 1 rolls the higher start
die. Player 1 shifts energy to the engines, takes the planet C5 with a fighter and a bomber
(4 + 5), flies a fighter to H6, wins its way into the asteroid field at F4 (5 against the
asteroids' 2) and parks the mothership at G5, beside that fighter. Player 2 answers with two
fighters against the one at H6: 3 + 1 against 4 and the mothership's wingman bonus, and both
attackers explode.
"""

from __future__ import annotations

from collections.abc import Callable

from spacetable.engine import Action, Roll, State, load

from ..rules.actions import Attack, DrawCard, EndTurn, Move, Pass, Place, SetEnergy
from ..rules.state import MothershipState
from ..rules.targets import planet_code, target_code

Step = Action | int | Callable[[MothershipState], Action]
"""A move, a forced die (an int), or a move that needs the state to be named."""

MOTHERSHIP, FIGHTER_1, FIGHTER_2, FIGHTER_3, BOMBER_1, BOMBER_2 = range(6)
PLAYER_1, PLAYER_2 = 0, 1


def _space(name: str) -> int:
    """A space of the duel layout's 13x13 board by its name (``"C4"``)."""
    return (int(name[1:]) - 1) * 13 + ord(name[0]) - ord("A")


def _draw(card: str) -> Step:
    """The deck's next card, by its key in the content's card list."""
    return lambda state: DrawCard(next(i for i, c in enumerate(state.game.content.cards) if c.key == card))


def _attack(ships: tuple[int, ...], seat: int, ship: int) -> Step:
    return lambda state: Attack(sum(1 << s for s in ships), target_code(state, seat, ship))


def _capture(ships: tuple[int, ...], space: str) -> Step:
    def attack(state: MothershipState) -> Action:
        assert state.board is not None
        return Attack(sum(1 << s for s in ships), planet_code(state, state.board.planets.index(_space(space))))

    return attack


SET_UP: tuple[Step, ...] = (
    *(Place(_space(s)) for s in ("D4", "D3", "C4", "D2", "C3", "B4")),
    *(Place(_space(s)) for s in ("J10", "J11", "K10", "J12", "K11", "L10")),
)
"""Each fleet in the order mothership, fighters, bombers, within two spaces of its station."""
DEALT: tuple[Step, ...] = (
    _draw("hull_repair"),
    _draw("afterburner"),
    _draw("defence_buff"),
    _draw("deflector_shields"),
    5,
    2,
)
"""Two action cards each, then the start dice: Player 1 rolls 5, Player 2 a 2."""
PLANET_TAKEN: tuple[Step, ...] = (
    SetEnergy(engines=7, weapons=5, shields=3),
    _capture((FIGHTER_2, BOMBER_2), "C5"),
    4,
    5,
    _draw("wingman"),
)
"""The fighter's d6 and the bomber's d8 total 9, six or more: the planet and a card are won."""
FIRST_TURN_OVER: tuple[Step, ...] = (
    Move(FIGHTER_1, _space("H6")),
    Move(FIGHTER_3, _space("F4")),
    Pass(),
    2,
    5,
    Pass(),
    Move(MOTHERSHIP, _space("G5")),
    EndTurn(),
)
"""The asteroids roll first (2), the fighter second (5); no card is played around the roll."""
ATTACK_DECLARED: tuple[Step, ...] = (
    Pass(),
    Move(FIGHTER_1, _space("I7")),
    Move(FIGHTER_2, _space("I6")),
    _attack((FIGHTER_1, FIGHTER_2), PLAYER_1, FIGHTER_1),
)
"""Player 2 buys nothing after Player 1's turn, then attacks H6 with two fighters."""
FIGHT_OVER: tuple[Step, ...] = (Pass(), Pass(), 3, 1, 4, Pass(), Pass())
"""Nobody plays a card; the attackers roll 3 and 1, the defender 4 (+1 for its wingman)."""


def _played(*moves: Step) -> MothershipState:
    """A new two-player game on the duel layout after ``moves`` in turn, each by whoever acts."""
    state = load("mothership", 2, {"layout": "duel"}).new_initial_state()
    assert isinstance(state, MothershipState)
    for move in moves:
        action = Roll(move) if isinstance(move, int) else move(state) if callable(move) else move
        state.apply_action(action)
    return state


POSITIONS: dict[str, Callable[[], tuple[State, int]]] = {
    "set-up": lambda: (_played(*SET_UP), PLAYER_1),
    "planet": lambda: (_played(*SET_UP, *DEALT, *PLANET_TAKEN), PLAYER_1),
    "first-turn": lambda: (_played(*SET_UP, *DEALT, *PLANET_TAKEN, *FIRST_TURN_OVER), PLAYER_1),
    "dogfight": lambda: (_played(*SET_UP, *DEALT, *PLANET_TAKEN, *FIRST_TURN_OVER, *ATTACK_DECLARED), PLAYER_2),
    "after-dogfight": lambda: (
        _played(*SET_UP, *DEALT, *PLANET_TAKEN, *FIRST_TURN_OVER, *ATTACK_DECLARED, *FIGHT_OVER),
        PLAYER_1,
    ),
}
"""Each picture of the page by the name its ``<figure data-position>`` gives."""
