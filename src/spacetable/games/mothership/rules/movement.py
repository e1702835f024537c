"""Chapters 2 (your turn, movement), 4 (the control panel) and 8 (asteroids).

- Before the mothership moves or attacks, its player may split the energy once
  between engines, weapons and shields; the split is then locked until their next turn.
- Each ship moves up to its engine spaces, in as many legs as its player likes, until
  it attacks. A leg goes by the shortest way through empty space, the player's own and
  teammates' ships, and the asteroid field the ship stands in (if it won its way in),
  never through enemy ships, planets or colony stations, and never ends on an occupied space.
  The expansion's hazards (module ``hazards``): never through a neutron star; a black hole
  is entered, never passed through, and a leg ending beside one is pulled in.
- Entering an asteroid space from outside its field ends the leg there and starts a
  dogfight with the asteroids (their d6 against the ship's die; it is not an attack).
  A tie or better: the ship moves freely in that field until it leaves it. Worse: a
  fighter or bomber explodes; a mothership takes the asteroids' roll on its shields,
  then hull, and passes on. The card windows around the roll are module ``tactics``'s,
  the result ``combat.resolve_asteroids``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from . import tech
from .board import ASTEROID, BLACK_HOLE, NEUTRON_STAR, PLANET, neighbour_table
from .board import EMPTY as OPEN
from .dice import die_name
from .state import EMPTY, NOWHERE, STATION

if TYPE_CHECKING:
    from .actions import SetEnergy
    from .state import MothershipState


def energy_options(state: MothershipState, seat: int) -> tuple[SetEnergy, ...]:
    """The energy settings the player may choose now, as actions (none once locked, or without a
    mothership)."""
    if state.locked or state.pos[seat][0] == NOWHERE:
        return ()
    game = state.game
    return game.energy_menus.get(tuple(state.energy[seat]), game.energy_actions)


def set_energy(state: MothershipState, seat: int, split: tuple[int, int, int], events: list[Event]) -> None:
    state.energy[seat] = list(split)
    state.shield[seat] = state.game.content.shields[split[2]] + tech.bonus(state, seat, "shields")
    state.locked = True
    engines, weapons, shields = split
    events.append(
        Event(
            "energy",
            f"{state.player_name(seat)} sets the control panel: engines {engines}, weapons {weapons}, "
            f"shields {shields}.",
        )
    )


def engine_spaces(state: MothershipState, seat: int, ship: int) -> int:
    """How far ``ship`` moves this turn: the mothership by its engines, the others by their
    stats, plus what cards added (Afterburner, Punch It!, Convoy). A ship in a black hole has none."""
    engines_off = state.game.hooks.engines_off
    if (ship == 0 and powerless(state, seat)) or (engines_off and any(off(state, seat, ship) for off in engines_off)):
        return 0
    base = state.game.content.engines[state.energy[seat][0]] if ship == 0 else state.game.ship_moves[ship]
    base += tech.bonus(state, seat, "move", state.game.ship_kinds[ship])
    return base + state.effect_total("boost", seat, ship)


def weapon_die(state: MothershipState, seat: int, ship: int) -> int:
    """The sides of the die ``ship`` attacks with (0: it cannot attack)."""
    if ship == 0 and powerless(state, seat):
        return 0
    if ship == 0:
        prodded = state.effect_total("prod", seat, 1)
        return state.game.content.weapons[max(0, state.energy[seat][1] - prodded)]
    return state.game.ship_dice[ship]


def destinations(state: MothershipState, seat: int, ship: int) -> dict[int, tuple[int, bool]]:
    """Where ``ship`` may end a leg now: space -> (engine spaces it costs, whether it enters asteroids)."""
    grid = state.grid
    return {cell: way for cell, way in reach(state, seat, ship).items() if grid[cell] == EMPTY}


def reach(
    state: MothershipState, seat: int, ship: int, seen: tuple[int, ...] | None = None
) -> dict[int, tuple[int, bool]]:
    """Every space ``ship`` could end a leg on now if it were empty (the caller drops the occupied
    ones). Remembered in ``state.routes`` with everything the search reads, so it survives every
    action that changes none of it (the player's own ships moving, cards bought, dice rolled
    elsewhere) and is searched again after any that does. ``seen``: ``seen_grid(state, seat)``
    when the caller has it already (it asks for every ship)."""
    if state.attacked >> ship & 1 and not state.has_effect("rope", seat, ship):
        return {}
    start = state.pos[seat][ship]
    budget = engine_spaces(state, seat, ship) - state.used[ship]
    if budget <= 0 or start == NOWHERE:
        return {}
    frozen = state.game.hooks.ship_frozen
    if state.has_effect("frozen", seat, ship) or (frozen and any(f(state, seat, start) for f in frozen)):
        return {}
    if seen is None:
        seen = seen_grid(state, seat)
    key = (seat, start, budget, state.cleared[seat][ship], state.gone_planets(), seen)
    known = state.routes.get(ship)
    if known is None or known[0] != key:
        found = _search(state, seat, start, budget, key[3], key[4])
        row = state.game.moves[ship]
        moves, order = tuple([row[cell] for cell in found]), dict(zip(found, range(len(found))))
        known = state.routes[ship] = (key, found, moves, order)
    return known[1]


def move_actions(state: MothershipState, seat: int, ship: int, seen: tuple[int, ...], mine: list[int]) -> list[Action]:
    """The legs ``ship`` may move now, as actions in the order of its reach (``seen``:
    ``seen_grid(state, seat)``; ``mine``: ``team_cells(state, seat)``). A search's moves are
    built with it; the spaces taken now are cut out of them (the search passes through the team's
    units only, so those are the only occupied spaces it can reach)."""
    if not reach(state, seat, ship, seen):
        return []
    _, _, moves, order = state.routes[ship]
    cuts = sorted([order[cell] for cell in mine if cell in order])
    if not cuts:
        return list(moves)
    legal: list[Action] = []
    start = 0
    for cut in cuts:
        legal += moves[start:cut]
        start = cut + 1
    legal += moves[start:]
    return legal


def team_cells(state: MothershipState, seat: int) -> list[int]:
    """The spaces of ``seat``'s team's ships and guardian cannons: the occupied spaces its ships
    may pass through."""
    teams, pos, cannons = state.game.teams, state.pos, state.cannons
    cells = []
    for fleet in range(seat % teams, state.game.fleets, teams):
        cells += [cell for cell in pos[fleet] if cell != NOWHERE]
        cells += cannons[fleet]
    return cells


def seen_grid(state: MothershipState, seat: int) -> tuple[int, ...]:
    """The grid as ``seat``'s ships see it: its team's ships taken off (they never block the way)."""
    grid = state.grid[:]
    teams = state.game.teams
    for fleet in range(seat % teams, state.game.fleets, teams):
        for cell in state.pos[fleet]:
            if cell != NOWHERE:
                grid[cell] = EMPTY
    return tuple(grid)


def _search(
    state: MothershipState, seat: int, start: int, budget: int, won: int, gone: frozenset[int]
) -> dict[int, tuple[int, bool]]:
    """Every space a ship of ``seat`` on ``start`` with ``budget`` engine spaces could end a leg
    on if it were empty (``won``: the asteroid field it won its way into, else -1).

    Breadth first over (space, still inside the field it won its way into); a leg that
    reaches a space both ways takes the way without an asteroid dogfight.
    """
    board = state.board
    assert board is not None
    steps, field, grid = _steps(board.size, board.terrain, gone), board.field, state.grid
    teams = state.game.teams
    team = seat % teams
    found: dict[int, tuple[int, bool]] = {}
    seen = {start * 2 + (won >= 0)}  # (space, inside the field) as space * 2 + inside
    frontier = [(start, won >= 0)]
    for step in range(1, budget + 1):
        reached = []
        for cell, inside in frontier:
            for n, kind in steps[cell]:
                occupant = grid[n]
                if occupant != EMPTY and (occupant & 15 == STATION or (occupant >> 4) % teams != team):
                    continue
                rough = kind == _ASTEROID
                if kind == _BLACK_HOLE:  # entered, never passed through: the leg ends inside
                    if n not in found:
                        found[n] = (step, False)
                    continue
                if rough and not (inside and field[n] == won):
                    if n not in found:
                        found[n] = (step, True)
                    continue
                key = n * 2 + rough
                if key in seen:
                    continue
                seen.add(key)
                reached.append((n, rough))
                way = found.get(n)
                if way is None or way[1]:
                    found[n] = (step, False)
        frontier = reached
    found.pop(start, None)
    return found


_OPEN, _ASTEROID, _BLACK_HOLE = 0, 1, 2
"""A step's kind in ``_steps``: open space (a planet gone included), an asteroid, a black hole."""


@lru_cache(maxsize=256)
def _steps(size: int, terrain: str, gone: frozenset[int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each space of a board, the neighbours a ship may step onto whoever stands there (no
    planet but those ``gone``, no neutron star), each with its kind (``_OPEN``, ``_ASTEROID``,
    ``_BLACK_HOLE``), in the board's order."""
    blocked = {n for n, mark in enumerate(terrain) if (mark == PLANET and n not in gone) or mark == NEUTRON_STAR}
    kinds = [_ASTEROID if m == ASTEROID else _BLACK_HOLE if m == BLACK_HOLE else _OPEN for m in terrain]
    return tuple(tuple((n, kinds[n]) for n in around if n not in blocked) for around in neighbour_table(size))


def move(state: MothershipState, seat: int, ship: int, cell: int, events: list[Event]) -> None:
    cost, fight = reach(state, seat, ship)[cell]  # a legal move: the cell is empty
    board = state.board
    assert board is not None
    grid, fleet = state.grid, state.pos[seat]
    grid[fleet[ship]] = EMPTY
    grid[cell] = seat * 16 + ship
    fleet[ship] = cell
    state.used[ship] += cost
    if ship == 0:
        state.locked = True
    events.append(Event("move", f"{state.ship_name(seat, ship)} moves to {board.name_of(cell)}."))
    if board.terrain[cell] != ASTEROID:
        state.cleared[seat][ship] = -1
        for ended in state.game.hooks.move_ended:  # a black hole: entered, or pulled in from beside it
            ended(state, seat, ship, events)
    elif fight and state.has_effect("deflect", seat, ship):
        state.cleared[seat][ship] = board.field[cell]
        events.append(Event("asteroid", "Deflector Shields: it enters the asteroid field unharmed."))
    elif fight:
        state.cleared[seat][ship] = -1
        sides = weapon_die(state, seat, ship)
        dice = [state.game.content.asteroid_die] + ([sides] if sides else [])
        state.pending = {"what": "asteroid", "seat": seat, "ships": [ship], "target": -1, "dice": dice, "rolls": []}
        events.append(
            Event(
                "asteroid",
                f"The asteroids attack it: their d{dice[0]} against its "
                f"{die_name(sides) if sides else 'no die (weapons empty)'}.",
            )
        )


def jump(state: MothershipState, seat: int, ship: int, cell: int) -> None:
    """``seat``'s ``ship`` is put on ``cell`` without moving through the board (cards, abilities,
    black holes, beacon warps): it leaves any asteroid field it had won its way into."""
    state.grid[state.pos[seat][ship]] = EMPTY
    state.grid[cell] = seat * 16 + ship
    state.pos[seat][ship] = cell
    state.cleared[seat][ship] = -1


def destroy_ship(state: MothershipState, seat: int, ship: int) -> None:
    cell = state.pos[seat][ship]
    state.grid[cell] = EMPTY
    state.pos[seat][ship] = NOWHERE
    state.cleared[seat][ship] = -1
    for destroyed in state.game.hooks.ship_destroyed:  # mode victory_points: it comes back later
        destroyed(state, seat, ship)


def damage_mothership(state: MothershipState, seat: int, amount: int, hull: bool) -> str:
    """``amount`` damage to a mothership: shields absorb first, the rest hits the hull when ``hull``.
    Returns what happened in words."""
    absorbed = min(shield_points(state, seat), amount)
    state.shield[seat] -= absorbed
    rest = amount - absorbed if hull else 0
    state.hp[seat] = max(0, state.hp[seat] - rest)
    words = f"shields absorb {absorbed}, hull -{rest} ({state.hp[seat]} left)"
    if state.hp[seat] == 0:
        destroy_ship(state, seat, 0)
        words += ", the mothership is destroyed"
    return words


def powerless(state: MothershipState, seat: int) -> bool:
    """Whether ``seat``'s mothership has no power (a module's storm): no engines, weapons or shields."""
    hooks = state.game.hooks.powerless
    return bool(hooks) and any(off(state, seat) for off in hooks)


def shield_points(state: MothershipState, seat: int) -> int:
    """The shield points ``seat``'s mothership can use now (a module may block them: it keeps
    them, and they count again once the block is gone)."""
    hooks = state.game.hooks.shields_blocked
    return 0 if hooks and any(blocked(state, seat) for blocked in hooks) else state.shield[seat]


def shield_energy(state: MothershipState, seat: int) -> int:
    """The energy ``seat`` counts in its shields: 0 without a mothership or while they are blocked."""
    if state.pos[seat][0] == NOWHERE or any(blocked(state, seat) for blocked in state.game.hooks.shields_blocked):
        return 0
    return state.energy[seat][2]


def landing(state: MothershipState, cell: int) -> bool:
    """A free space for a jump, warp or launch by a card or an ability: no unit, open space (no
    planet, asteroid or hazard), and none a module rules out (beside a black hole)."""
    board = state.board
    assert board is not None
    if state.grid[cell] != EMPTY or board.terrain[cell] != OPEN:
        return False
    return not any(blocked(state, cell) for blocked in state.game.hooks.landing_blocked)
