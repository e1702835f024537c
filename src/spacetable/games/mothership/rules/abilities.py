"""Chapter 6.2's fifth tiers: the mothership abilities.

An ability needs a living mothership and uses its attack phase (it cannot attack and use an
ability in one turn, nor use two). ``UseAbility(ability, unit, spot)`` names a target as a
card does (see :mod:`.cards`). The tile's ``amount`` in content/tech.toml sets its number.

- Asteroid Mining: the mothership in or next to an asteroid field gathers ``amount`` resources.
- Jump Gates: opening the gates uses the attack phase; this turn, any friendly ship (the
  player's own or a teammate's, named by its target number) next to a friendly colony station
  or planet may jump to a free space next to another one (after moving, if it likes); a ship
  that jumped moves no more this turn.
- Sunslayer Torpedoes: a dogfight against a ship, station or planet up to ``amount`` spaces
  away; the defender rolls only to avoid the damage.
- Nuclear Missile: the same against any enemy ship or station of the board, ``amount`` added
  to the roll; never a planet.
- Tractor Beam: an enemy ship up to ``amount`` spaces away is held: it cannot move until the
  end of its owner's next turn.
- Hangar Bay (the sixth branch's ability, spacetable's design): a destroyed fighter or bomber
  is launched again on a free space next to the mothership.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from ..content import CATEGORIES
from .actions import UseAbility
from .board import ASTEROID
from .combat import declare, guarded, held
from .movement import jump, landing, weapon_die
from .state import MOVED, NOWHERE
from .targets import decode_target, planet_code, target_code

if TYPE_CHECKING:
    from .state import MothershipState

ABILITIES = ("asteroid_mining", "jump_gates", "sunslayer_torpedoes", "nuclear_missile", "tractor_beam", "hangar_bay")


def owned(state: MothershipState, seat: int) -> dict[str, int]:
    """The abilities ``seat`` has reached: name -> the tile's amount."""
    found: dict[str, int] = {}
    for category in range(len(CATEGORIES)):
        index = state.branches[seat][category]
        if index >= 0 and state.tiers[seat][category] >= 5:
            tile = state.game.content.branches[index].tiers[4]
            assert tile.ability is not None
            found[tile.ability] = tile.amount
    return found


def options(state: MothershipState, seat: int) -> list[Action]:
    """Every ability use open to the player now."""
    have = owned(state, seat)
    actions: list[Action] = []
    gates_open = state.has_effect("gates", seat)
    if "jump_gates" in have and (gates_open or _ready(state, seat)):
        actions += [UseAbility(ABILITIES.index("jump_gates"), s, c) for s, c in _jumps(state, seat)]
    if not _ready(state, seat):
        return actions
    for name, amount in have.items():
        if name == "jump_gates":
            continue
        index = ABILITIES.index(name)
        actions += [UseAbility(index, unit, spot) for unit, spot in TARGETS[name](state, seat, amount)]
    return actions


def _ready(state: MothershipState, seat: int) -> bool:
    """A living mothership whose attack phase is unused."""
    return state.pos[seat][0] != NOWHERE and not state.attacked & 1


def use(state: MothershipState, seat: int, ability: int, unit: int, spot: int, events: list[Event]) -> None:
    name = ABILITIES[ability]
    amount = owned(state, seat)[name]
    if name != "jump_gates" or not state.has_effect("gates", seat):
        state.attacked |= 1  # the mothership's attack phase
        state.locked = True
    EFFECTS[name](state, seat, unit, spot, amount, events)


# ---- each ability ------------------------------------------------------------------------------


def _mining_targets(state: MothershipState, seat: int, amount: int) -> list[tuple[int, int]]:
    board = state.board
    assert board is not None
    cell = state.pos[seat][0]
    near = any(board.terrain[c] == ASTEROID for c in (cell, *board.neighbours[cell]))
    return [(0, 0)] if near else []


def _mine(state: MothershipState, seat: int, unit: int, spot: int, amount: int, events: list[Event]) -> None:
    state.resources[seat] += amount
    events.append(Event("tech", f"{state.player_name(seat)}'s mothership mines the asteroids: +{amount} resources."))


def _havens(state: MothershipState, seat: int) -> list[int]:
    board = state.board
    assert board is not None
    planets = [board.planets[p] for p, o in enumerate(state.owner) if o >= 0 and state.friendly(o, seat)]
    stations = [state.stations[s] for s in range(state.game.fleets) if state.friendly(s, seat) and state.station_hp[s]]
    return planets + stations


def _jumps(state: MothershipState, seat: int) -> Iterator[tuple[int, int]]:
    """(ship's target number, space) for every warp open: any friendly ship (the player's own
    that have not attacked, teammates') beside a friendly station or planet, once a turn."""
    board = state.board
    assert board is not None
    havens = _havens(state, seat)
    for owner in range(state.game.fleets):
        if not state.friendly(owner, seat):
            continue
        for ship, cell in enumerate(state.pos[owner]):
            if cell == NOWHERE or state.has_effect("jumped", owner, ship):
                continue
            if owner == seat and state.attacked >> ship & 1:
                continue
            starts = [h for h in havens if board.distance(cell, h) == 1]
            if not starts:
                continue
            spots = {n for h in havens if h not in starts for n in board.neighbours[h] if landing(state, n)}
            for spot in sorted(spots):
                yield target_code(state, owner, ship), spot


def _jump(state: MothershipState, seat: int, unit: int, spot: int, amount: int, events: list[Event]) -> None:
    """A friendly ship warps: the player's own ship has used its movement phase, a teammate's not."""
    board = state.board
    assert board is not None
    if not state.has_effect("gates", seat):
        state.effects.append(["gates", seat, 0, 0, "end", seat])
        events.append(Event("tech", f"{state.player_name(seat)} opens the jump gates."))
    _, owner, ship = decode_target(state, unit)
    jump(state, owner, ship, spot)
    state.effects.append(["jumped", owner, ship, 0, "end", seat])
    if owner == seat:
        state.used[ship] = MOVED
    events.append(Event("move", f"{state.ship_name(owner, ship)} jumps to {board.name_of(spot)}."))


def _in_range(state: MothershipState, seat: int, reach: int, planets: bool) -> list[tuple[int, int]]:
    """Targets at most ``reach`` spaces from the mothership (not next to it: that is a dogfight)."""
    board = state.board
    assert board is not None
    cell = state.pos[seat][0]
    ships = state.game.content.ships
    targets = []
    for other in range(state.game.fleets):
        if state.out[other] or state.friendly(other, seat):
            continue
        for unit, where in enumerate(state.pos[other]):
            if where != NOWHERE and 1 < board.distance(cell, where) <= reach:
                targets.append((target_code(state, other, unit), 0))
        station = state.stations[other]
        if state.station_hp[other] and 1 < board.distance(cell, station) <= reach and not guarded(state, other):
            targets.append((target_code(state, other, ships), 0))
    if planets:
        for p, where in enumerate(board.planets):
            owner = state.owner[p]
            if owner == -2 or (owner >= 0 and state.friendly(owner, seat)):
                continue
            if 1 < board.distance(cell, where) <= reach:
                targets.append((planet_code(state, p), 0))
    return targets


def _torpedo_targets(state: MothershipState, seat: int, amount: int) -> list[tuple[int, int]]:
    if not weapon_die(state, seat, 0) or held(state, seat, 0):  # nothing to fire with, or held
        return []
    return _in_range(state, seat, amount, planets=True)


def _missile_targets(state: MothershipState, seat: int, amount: int) -> list[tuple[int, int]]:
    board = state.board
    assert board is not None
    if not weapon_die(state, seat, 0) or held(state, seat, 0):
        return []
    return _in_range(state, seat, 2 * board.size, planets=False)


def _fire(state: MothershipState, seat: int, unit: int, spot: int, amount: int, events: list[Event]) -> None:
    """A dogfight at range: the defender only avoids the damage."""
    declare(state, seat, [0], unit, events)
    assert state.pending is not None
    state.pending["ranged"] = True


def _missile(state: MothershipState, seat: int, unit: int, spot: int, amount: int, events: list[Event]) -> None:
    _fire(state, seat, unit, spot, amount, events)
    assert state.pending is not None
    state.pending["mods"].append(["nuclear", 0])


def _beam_targets(state: MothershipState, seat: int, amount: int) -> list[tuple[int, int]]:
    board = state.board
    assert board is not None
    cell = state.pos[seat][0]
    return [
        (target_code(state, other, unit), 0)
        for other in range(state.game.fleets)
        if not state.out[other] and not state.friendly(other, seat)
        for unit, where in enumerate(state.pos[other])
        if where != NOWHERE and board.distance(cell, where) <= amount
    ]


def _beam(state: MothershipState, seat: int, unit: int, spot: int, amount: int, events: list[Event]) -> None:
    ships = state.game.content.ships
    other, ship = divmod(unit, ships + 1)
    state.effects.append(["frozen", other, ship, 1, "end", other])
    events.append(Event("tech", f"The tractor beam holds {state.ship_name(other, ship)} until its next turn is over."))


def _hangar_targets(state: MothershipState, seat: int, amount: int) -> list[tuple[int, int]]:
    board = state.board
    assert board is not None
    lost = [s for s, cell in enumerate(state.pos[seat]) if s and cell == NOWHERE]
    free = [n for n in board.neighbours[state.pos[seat][0]] if landing(state, n)]
    return [(ship, spot) for ship in lost for spot in free]


def _launch(state: MothershipState, seat: int, ship: int, spot: int, amount: int, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    state.pos[seat][ship] = spot
    state.grid[spot] = seat * 16 + ship
    state.used[ship] = MOVED  # launched this turn: it moves from the next one
    state.attacked |= 1 << ship
    events.append(Event("tech", f"{state.ship_name(seat, ship)} is launched from the hangar at {board.name_of(spot)}."))


TARGETS = {
    "asteroid_mining": _mining_targets,
    "sunslayer_torpedoes": _torpedo_targets,
    "nuclear_missile": _missile_targets,
    "tractor_beam": _beam_targets,
    "hangar_bay": _hangar_targets,
}
EFFECTS = {
    "asteroid_mining": _mine,
    "jump_gates": _jump,
    "sunslayer_torpedoes": _fire,
    "nuclear_missile": _missile,
    "tractor_beam": _beam,
    "hangar_bay": _launch,
}
