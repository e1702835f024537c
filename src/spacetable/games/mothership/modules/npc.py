"""Chapter 14, the solo challenge: the NPC fleet's set-up and its scripted turns.

The NPC is a fleet, not a seat: it never answers a question. Its turn runs by itself, one
step after each action of the game, until it needs dice (a chance node), a card window of
the player's, or it ends. Its ships act one after another in fleet order (mothership,
fighters, bombers), each moving one space per leg (so an asteroid field on its way is
entered, and rolled for, space by space) and then attacking:

- the mothership attacks the player's colony station; while a ship of the player's guards
  the station, it goes for the guarding ship nearest to it instead;
- a bomber attacks the planet it was posted at until the NPC holds it; from then on it flies
  at full engine power along the straight line to the station (through asteroids on the
  line) and attacks the station once next to it (or, the station being guarded, the
  player's mothership if that is next to it);
- a fighter stays by its planet until a fighter or bomber of the player's is in engine range
  (king steps no more than its engine spaces); then it flies at the nearest such ship
  (around asteroids where that is no longer) and attacks it. It never attacks a mothership.
  With nothing in range it returns to its planet.

The NPC takes no resources and no cards; its control panel and technology tree are fixed by
the level (``content/rules.toml`` ``[solo]``). See RULINGS.md for the readings.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from spacetable.engine import Event

from ..rules import combat, movement, tactics, turns
from ..rules.actions import Attack
from ..rules.board import PLANET
from ..rules.hooks import Module
from ..rules.state import EMPTY, NOWHERE
from ..rules.targets import BOMBER, FIGHTER, MOTHERSHIP, planet_code, target_code

if TYPE_CHECKING:
    from ..rules.board import Board
    from ..rules.state import MothershipState

PLAYER = 0
"""The solo challenge's one seat."""
UNREACHABLE = 10**6


def deploy(state: MothershipState) -> None:
    """The NPC's fleet on the board, its control panel and its tech tree (by level).

    The mothership takes the free space next to the player's colony station nearest the
    board's centre. Fighters, then bombers, are posted at the planets in turn (the first
    planet in reading order first), each on the free space next to its planet nearest the
    player's station.
    """
    game, board = state.game, state.board
    assert board is not None
    npc, content = game.npc, game.content
    station = state.stations[PLAYER]
    centre = (board.size * board.size) // 2
    _put(state, 0, _free_next_to(state, board, station, centre))
    for ship in range(1, content.ships):
        _put(state, ship, _free_next_to(state, board, board.planets[post(state, ship)], station))
    level = content.solo.levels[game.options["level"] - 1]
    state.energy[npc] = [level.energy] * 3
    keys = [b.key for b in content.branches]
    for category, key in enumerate(content.solo.branches):
        state.branches[npc][category] = keys.index(key) if level.tier else -1
        state.tiers[npc][category] = level.tier
    turns.regenerate_shields(state)


def post(state: MothershipState, ship: int) -> int:
    """The planet an NPC fighter or bomber guards or besieges (see :func:`posted`)."""
    board = state.board
    assert board is not None
    return posted(board, ship)


def posted(board: Board, ship: int) -> int:
    """The planet NPC ship ``ship`` is posted at on ``board``: fighters, then bombers, are dealt to
    the planets in turn (reading order); -1 for the mothership."""
    return (ship - 1) % len(board.planets) if ship else -1


def _free_next_to(state: MothershipState, board: Board, cell: int, towards: int) -> int:
    free = [n for n in board.neighbours[cell] if board.terrain[n] != PLANET and state.grid[n] == EMPTY]
    if not free:
        raise AssertionError(f"solo layout {board.name!r}: no free space next to {board.name_of(cell)}")
    return min(free, key=lambda n: (board.distance(n, towards), _crow(board, n, towards), n))


def _put(state: MothershipState, ship: int, cell: int) -> None:
    npc = state.game.npc
    state.pos[npc][ship] = cell
    state.grid[cell] = npc * 16 + ship


def _crow(board: Board, a: int, b: int) -> int:
    """Squared straight-line distance between two spaces (a tie-break nearer the true line)."""
    ar, ac = divmod(a, board.size)
    br, bc = divmod(b, board.size)
    return (ar - br) ** 2 + (ac - bc) ** 2


# ---- the NPC's turn ----------------------------------------------------------------------


def proceed(state: MothershipState, events: list[Event]) -> None:
    """Play the NPC's turn on until it needs dice (a chance node), a player's answer, or it ends."""
    npc = state.game.npc
    while state.phase == "turn" and state.turn == npc and _idle(state):
        step(state, events)


def _idle(state: MothershipState) -> bool:
    """Nothing waits on chance or on the player: the NPC may take its next step."""
    return not (
        state.pending
        or state.draws
        or state.steal
        or state.reward
        or state.event_roll
        or state.cancel
        or state.trading
        or state.playing
        or state.exploring >= 0
    )


def step(state: MothershipState, events: list[Event]) -> None:
    """The NPC's next step: one leg or the attack of its first ship still to act, or the turn's end."""
    npc = state.game.npc
    for ship, cell in enumerate(state.pos[npc]):
        if cell == NOWHERE or state.acted >> ship & 1:
            continue
        kind = state.game.ship_kinds[ship]
        act = _mothership if kind == MOTHERSHIP else _fighter if kind == FIGHTER else _bomber
        if not act(state, ship, events):
            state.acted |= 1 << ship
        return
    state.acted = 0
    events.append(Event("turn", "NPC ends its turn."))
    turns.pass_turn(state, events)


def _mothership(state: MothershipState, ship: int, events: list[Event]) -> bool:
    """Go for the colony station, or the guarding ship nearest to the mothership."""
    board = state.board
    assert board is not None
    here = state.pos[state.game.npc][ship]
    if combat.guarded(state, PLAYER):
        station = state.stations[PLAYER]
        guards = [(s, c) for s, c in enumerate(state.pos[PLAYER]) if c != NOWHERE and board.distance(c, station) == 1]
        target, goal = min(guards, key=lambda g: (board.distance(here, g[1]), g[0]))
        return _close_in(state, ship, goal, target_code(state, PLAYER, target), events)
    station_code = target_code(state, PLAYER, state.game.content.ships)
    return _close_in(state, ship, state.stations[PLAYER], station_code, events)


def _bomber(state: MothershipState, ship: int, events: list[Event]) -> bool:
    """Besiege the posted planet until the NPC holds it; then raid the colony station."""
    npc = state.game.npc
    planet = post(state, ship)
    if not state.raiding >> ship & 1 and state.owner[planet] in (npc, -2):
        state.raiding |= 1 << ship
        events.append(Event("npc", f"{state.ship_name(npc, ship)} turns towards the colony station."))
    board = state.board
    assert board is not None
    if not state.raiding >> ship & 1:
        return _close_in(state, ship, board.planets[planet], planet_code(state, planet), events)
    station = state.stations[PLAYER]
    if board.distance(state.pos[npc][ship], station) > 1 and _leg(state, ship, station, straight=True, events=events):
        return True
    codes = [target_code(state, PLAYER, state.game.content.ships), target_code(state, PLAYER, 0)]
    return _attack_first(state, ship, codes, events)


def _fighter(state: MothershipState, ship: int, events: list[Event]) -> bool:
    """Hunt the nearest fighter or bomber of the player's in engine range; else hold the planet."""
    board = state.board
    assert board is not None
    npc = state.game.npc
    here = state.pos[npc][ship]
    reach = movement.engine_spaces(state, npc, ship)
    kinds = state.game.ship_kinds
    prey = [
        (board.distance(here, c), s, c)
        for s, c in enumerate(state.pos[PLAYER])
        if c != NOWHERE and kinds[s] in (FIGHTER, BOMBER) and board.distance(here, c) <= reach
    ]
    if prey:
        _, target, goal = min(prey)
        return _close_in(state, ship, goal, target_code(state, PLAYER, target), events)
    home = board.planets[post(state, ship)]
    if board.distance(here, home) > 1:
        return _leg(state, ship, home, straight=False, events=events)
    return False


def _close_in(state: MothershipState, ship: int, goal: int, code: int, events: list[Event]) -> bool:
    """Move next to ``goal`` (one leg a step), then attack ``code``. False: this ship is done."""
    board = state.board
    assert board is not None
    if board.distance(state.pos[state.game.npc][ship], goal) > 1 and _leg(state, ship, goal, False, events):
        return True
    return _attack_first(state, ship, [code], events)


def _attack_first(state: MothershipState, ship: int, codes: list[int], events: list[Event]) -> bool:
    """Attack the first of ``codes`` the ship may attack now; False (done) either way."""
    npc = state.game.npc
    if not state.attacked >> ship & 1:
        legal = {a.target for a in combat.attack_options(state, npc) if isinstance(a, Attack) and a.ships == 1 << ship}
        for code in codes:
            if code in legal:
                state.acted |= 1 << ship
                combat.declare(state, npc, [ship], code, events)
                return True
    return False


def _leg(state: MothershipState, ship: int, goal: int, straight: bool, events: list[Event]) -> bool:
    """Move ``ship`` one space nearer to being next to ``goal``, if it can; whether it moved.

    Nearer is counted in steps around what blocks the way (asteroids count as open space).
    Among equally near spaces a ship on a straight course keeps closest to the line to the
    goal, asteroids or not; any other ship keeps out of asteroids where it can.
    """
    board = state.board
    assert board is not None
    npc = state.game.npc
    here = state.pos[npc][ship]
    near = _steps_to(state, board, goal, here)
    options: list[tuple[int, float, int, int]] = [
        (near[cell], _line_gap(board, here, goal, cell) if straight else int(fight), _crow(board, cell, goal), cell)
        for cell, (cost, fight) in movement.destinations(state, npc, ship).items()
        if cost == 1
    ]
    best = min(options, default=None)
    if best is None or best[0] >= near[here]:
        return False
    movement.move(state, npc, ship, best[3], events)
    tactics.open_asteroids(state)  # the NPC holds no cards: nobody is asked
    return True


def _steps_to(state: MothershipState, board: Board, goal: int, mover: int) -> list[int]:
    """For every space, the steps from it to a space next to ``goal`` (breadth first from there,
    through empty space and asteroids, never through planets, stations or other ships; the
    moving ship stands on ``mover``)."""
    grid, terrain, neighbours = state.grid, board.terrain, board.neighbours
    gone = state.gone_planets()

    def open_space(cell: int) -> bool:
        return (terrain[cell] != PLANET or cell in gone) and (grid[cell] == EMPTY or cell == mover)

    near = [UNREACHABLE] * len(grid)
    todo: deque[int] = deque()
    for cell in neighbours[goal]:
        if open_space(cell):
            near[cell] = 0
            todo.append(cell)
    while todo:
        cell = todo.popleft()
        for n in neighbours[cell]:
            if near[n] == UNREACHABLE and open_space(n):
                near[n] = near[cell] + 1
                todo.append(n)
    return near


def _line_gap(board: Board, start: int, goal: int, cell: int) -> float:
    """How far ``cell`` lies from the straight line through ``start`` and ``goal`` (in spaces)."""
    sr, sc = divmod(start, board.size)
    gr, gc = divmod(goal, board.size)
    r, c = divmod(cell, board.size)
    dr, dc = gr - sr, gc - sc
    length = (dr * dr + dc * dc) ** 0.5 or 1.0
    return abs(dr * (c - sc) - dc * (r - sr)) / length


__all__ = ["deploy", "post", "proceed", "step"]


# ---- the rule hooks ---------------------------------------------------------------------------


def _lay_out(state: MothershipState, board: Board) -> None:
    """The solo board: the NPC has no colony station, holds every planet, and its fleet is posted."""
    state.stations.append(NOWHERE)
    state.owner = [0] * len(board.planets)
    deploy(state)


PLUGIN = Module(
    "npc",
    lambda game: game.npc >= 0,
    {
        "board_laid": _lay_out,
        "after_action": proceed,
        "quiet": lambda state, seat: None,  # the NPC's turns follow: every action is played out
    },
)
"""Chapter 14, the solo challenge (option ``mode="solo"``): the NPC fleet's set-up and turns."""
