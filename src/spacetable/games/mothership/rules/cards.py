"""Chapter 6.1 and the card list: playing action cards, and what each one does.

A card is played with ``Play(card, unit, spot)``: ``unit`` names a ship, station or planet
(an attack target number, see :mod:`.actions`) or a player (their station's number), and
``spot`` a space, a subsystem or the player's own ship, as each card needs; unused fields are 0.

Playing a card shows it and discards it; then every other player with cards in hand is
asked whether to cancel it with Noooooooooooo! (asking only its holder would tell the table
who holds it; players with empty hands are skipped), and otherwise it takes effect. Cards
take effect in the order they are played.

Effects that last are small records in ``state.effects``: ``[name, seat, ship, amount,
until, whose]``, where ``until`` is ``"end"`` (gone when ``whose`` ends a turn) or
``"begin"`` (gone when ``whose`` begins one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from . import economy, tactics, turns
from .actions import Play
from .combat import capture, declare, guarded, held, target_name
from .movement import destroy_ship, engine_spaces, jump, landing, shield_energy
from .state import EMPTY, MOVED, NOWHERE
from .targets import decode_target, planet_code, target_code

if TYPE_CHECKING:
    from .state import MothershipState

NOOOO = "noooo"
"""The key of the card that cancels cards."""

Target = tuple[int, int]
"""(unit, spot) of a Play."""

AFTERBURNER_SPACES, CONVOY_SPACES, ROPE_SPACES = 4, 3, 2
"""Engine spaces Afterburner gives a ship, Convoy each escort, Ninja Rope an attacked ship (the
length bound, ``Mothership._card_length``, reads them)."""


@dataclass(frozen=True)
class CardRule:
    """How one kind of card is played on the player's own turn: its targets now, and its effect."""

    targets: Callable[[MothershipState, int], list[Target]]
    effect: Callable[[MothershipState, int, int, int, list[Event]], None]


# ---- playing, and the window to cancel ---------------------------------------------------


def turn_plays(state: MothershipState, seat: int) -> list[Action]:
    """The own-turn cards the player may play now, with every target."""
    content = state.game.content
    actions: list[Action] = []
    for card in sorted(set(state.hands[seat])):
        rule = rule_of(state, content.cards[card].key)
        if rule is None or content.cards[card].timing != "turn":
            continue
        actions.extend(Play(card, unit, spot) for unit, spot in rule.targets(state, seat))
    return actions


def play(state: MothershipState, seat: int, card: int, unit: int, spot: int, events: list[Event]) -> None:
    """Show and discard the card; open the window to cancel it, or let it take effect."""
    state.hands[seat].remove(card)
    economy.forget(state, seat, card)
    state.discard[card] += 1
    state.played[card] += 1
    events.append(Event("card", f"{state.player_name(seat)} plays {economy.card_name(state, card)}."))
    cancellers = [s for s in _others(state, seat) if state.hands[s]]  # anyone who may hold Noooooooooooo!
    if cancellers:
        state.playing = [seat, card, unit, spot]
        state.cancel = cancellers
        return
    resolve(state, seat, card, unit, spot, events)


def waiting_card_fits(state: MothershipState) -> bool:
    """Whether the card waiting out the cancel window outside a dogfight (``state.playing``) is a
    turn card with rules, aimed at a target it may take now (its player's hand without it)."""
    seat, card, unit, spot = state.playing
    content = state.game.content
    rule = rule_of(state, content.cards[card].key)
    if rule is None or content.cards[card].timing != "turn":
        return False
    return (unit, spot) in rule.targets(state, seat)


def resolve(state: MothershipState, seat: int, card: int, unit: int, spot: int, events: list[Event]) -> None:
    key = state.game.content.cards[card].key
    if state.pending is not None:  # a dogfight card: it adds to its side (module tactics)
        tactics.played(state, key, spot, unit)
        return
    rule = rule_of(state, key)
    assert rule is not None
    rule.effect(state, seat, unit, spot, events)


def cancel_options(state: MothershipState, seat: int) -> list[Action]:
    noooo = state.game.card_index[NOOOO]
    return [Play(noooo, 0, 0)] if noooo in state.hands[seat] else []


def cancel(state: MothershipState, seat: int, events: list[Event]) -> None:
    """``seat`` plays Noooooooooooo!: the card being played is discarded without effect."""
    noooo = state.game.card_index[NOOOO]
    state.hands[seat].remove(noooo)
    economy.forget(state, seat, noooo)
    state.discard[noooo] += 1
    state.played[noooo] += 1
    victim, card = state.playing[0], state.playing[1]
    state.playing, state.cancel = [], []
    if state.pending is not None:
        tactics.played(state, None)  # the other side of the dogfight is asked next
    events.append(
        Event(
            "card",
            f"{state.player_name(seat)} plays Noooooooooooo!: {state.player_name(victim)}'s "
            f"{economy.card_name(state, card)} is cancelled.",
        )
    )


def let_pass(state: MothershipState, events: list[Event]) -> None:
    """The first seat of the cancel window lets the card be; after the last, it takes effect."""
    state.cancel.pop(0)
    if not state.cancel:
        seat, card, unit, spot = state.playing
        state.playing = []
        resolve(state, seat, card, unit, spot, events)


def _others(state: MothershipState, seat: int) -> list[int]:
    n = state.game.fleets
    return [(seat + step) % n for step in range(1, n) if not state.out[(seat + step) % n]]


# ---- lasting effects ----------------------------------------------------------------------


def add_effect(state: MothershipState, name: str, seat: int, ship: int, amount: int, until: str, whose: int) -> None:
    state.effects.append([name, seat, ship, amount, until, whose])


# ---- targets shared by several cards -----------------------------------------------------


def _movable(state: MothershipState, seat: int) -> list[int]:
    """The player's ships that may still use their movement phase (alive, not attacked)."""
    return [s for s, cell in enumerate(state.pos[seat]) if cell != NOWHERE and not state.attacked >> s & 1]


def _friendly_planets(state: MothershipState, seat: int) -> list[int]:
    board = state.board
    assert board is not None
    return [board.planets[p] for p, o in enumerate(state.owner) if o >= 0 and state.friendly(o, seat)]


def _beside(state: MothershipState, places: list[int]) -> list[int]:
    """Free spaces next to any of ``places``, in reading order."""
    board = state.board
    assert board is not None
    return sorted({n for p in places for n in board.neighbours[p] if landing(state, n)})


def _enemy_motherships(state: MothershipState, seat: int) -> list[int]:
    return [s for s in range(state.game.fleets) if not state.friendly(s, seat) and state.pos[s][0] != NOWHERE]


def _rivals(state: MothershipState, seat: int) -> list[int]:
    return [s for s in _others(state, seat) if not state.friendly(s, seat)]


def _station(state: MothershipState, seat: int) -> int:
    return target_code(state, seat, state.game.content.ships)


# ---- the own-turn cards -------------------------------------------------------------------


def _boost_targets(state: MothershipState, seat: int) -> list[Target]:
    return [(ship, 0) for ship in _movable(state, seat)]


def _afterburner(state: MothershipState, seat: int, ship: int, _spot: int, events: list[Event]) -> None:
    add_effect(state, "boost", seat, ship, AFTERBURNER_SPACES, "end", seat)
    events.append(
        Event("card", f"{state.ship_name(seat, ship)} gets {AFTERBURNER_SPACES} more engine spaces this turn.")
    )


def _punch_it(state: MothershipState, seat: int, ship: int, _spot: int, events: list[Event]) -> None:
    extra = engine_spaces(state, seat, ship)
    add_effect(state, "boost", seat, ship, extra, "end", seat)
    events.append(Event("card", f"{state.ship_name(seat, ship)}'s engine spaces are doubled: {2 * extra}."))


def _convoy_targets(state: MothershipState, seat: int) -> list[Target]:
    return [(0, 0)] if state.escort else []


def _convoy(state: MothershipState, seat: int, _unit: int, _spot: int, events: list[Event]) -> None:
    for ship in range(1, len(state.pos[seat])):
        if state.escort >> ship & 1 and state.pos[seat][ship] != NOWHERE:
            add_effect(state, "boost", seat, ship, CONVOY_SPACES, "end", seat)
    events.append(
        Event(
            "card",
            f"The ships that began the turn beside the mothership get {CONVOY_SPACES} more engine spaces.",
        )
    )


def _deflector(state: MothershipState, seat: int, ship: int, _spot: int, events: list[Event]) -> None:
    add_effect(state, "deflect", seat, ship, 1, "end", seat)
    events.append(Event("card", f"{state.ship_name(seat, ship)} may enter an asteroid field without a dogfight."))


def _repair_targets(state: MothershipState, seat: int) -> list[Target]:
    alive = state.pos[seat][0] != NOWHERE
    return [(0, 0)] if alive and state.hp[seat] < state.game.content.mothership_hp else []


def _hull_repair(state: MothershipState, seat: int, _unit: int, _spot: int, events: list[Event]) -> None:
    state.hp[seat] = min(state.game.content.mothership_hp, state.hp[seat] + 1)
    events.append(Event("card", f"{state.player_name(seat)}'s mothership is repaired to {state.hp[seat]} HP."))


def _player_targets(state: MothershipState, seat: int) -> list[Target]:
    return [(_station(state, s), 0) for s in _others(state, seat)]


def _wallet_inspector(state: MothershipState, seat: int, unit: int, _spot: int, events: list[Event]) -> None:
    victim = decode_target(state, unit)[1]
    taken = min(1, state.resources[victim])
    state.resources[victim] -= taken
    state.resources[seat] += taken
    events.append(Event("card", f"{state.player_name(seat)} takes {taken} resource from {state.player_name(victim)}."))


def _pick_targets(state: MothershipState, seat: int) -> list[Target]:
    return [(0, 0)]


def _pick_up_two(state: MothershipState, seat: int, _unit: int, _spot: int, events: list[Event]) -> None:
    economy.owe_cards(state, seat, 2, events)


def _steal_targets(state: MothershipState, seat: int) -> list[Target]:
    return [(_station(state, s), 0) for s in _rivals(state, seat) if state.hands[s]]


def _surprise_attack(state: MothershipState, seat: int, unit: int, _spot: int, events: list[Event]) -> None:
    economy.start_steal(state, seat, decode_target(state, unit)[1], events)


def _blockade(state: MothershipState, seat: int, _unit: int, _spot: int, events: list[Event]) -> None:
    add_effect(state, "blockade", seat, 0, 1, "begin", seat)
    events.append(Event("card", "Trade Blockade: no resources from planets or stations until this player's next turn."))


def _freeze_targets(state: MothershipState, seat: int) -> list[Target]:
    return [
        (target_code(state, s, ship), 0)
        for s in _rivals(state, seat)
        for ship, cell in enumerate(state.pos[s])
        if cell != NOWHERE
    ]


def _forced_update(state: MothershipState, seat: int, unit: int, _spot: int, events: list[Event]) -> None:
    _, victim, ship = decode_target(state, unit)
    add_effect(state, "frozen", victim, ship, 1, "end", victim)
    events.append(Event("card", f"{state.ship_name(victim, ship)} cannot move during its owner's next turn."))


def _warp_targets(
    places: Callable[[MothershipState, int], list[int]],
) -> Callable[[MothershipState, int], list[Target]]:
    """Targets of a card that moves a friendly ship (``unit``: its target number) to one of
    ``places``: the player's own ships that have not attacked, and teammates' ships."""

    def targets(state: MothershipState, seat: int) -> list[Target]:
        spots = places(state, seat)
        return [(unit, spot) for unit in _friendly_ships(state, seat) for spot in spots]

    return targets


def _friendly_ships(state: MothershipState, seat: int) -> list[int]:
    """Target numbers of the ships a card may move: the player's own (not attacked), teammates'."""
    units = [target_code(state, seat, ship) for ship in _movable(state, seat)]
    for mate in _others(state, seat):
        if state.friendly(mate, seat):
            units += [target_code(state, mate, s) for s, cell in enumerate(state.pos[mate]) if cell != NOWHERE]
    return units


def _warp(state: MothershipState, seat: int, unit: int, spot: int, events: list[Event]) -> None:
    """A friendly ship jumps to ``spot``: the player's own ship uses its movement phase; a
    teammate's does not."""
    board = state.board
    assert board is not None
    _, owner, ship = decode_target(state, unit)
    jump(state, owner, ship, spot)
    if owner == seat:
        state.used[ship] = MOVED
        if ship == 0:
            state.locked = True
    events.append(Event("move", f"{state.ship_name(owner, ship)} jumps to {board.name_of(spot)}."))


def _anywhere(state: MothershipState, seat: int) -> list[int]:
    board = state.board
    assert board is not None
    return [c for c in range(board.size * board.size) if landing(state, c)]


def _migration_targets(state: MothershipState, seat: int) -> list[Target]:
    if state.station_hp[seat] <= 0:
        return []
    return [(_station(state, seat), spot) for spot in _beside(state, _friendly_planets(state, seat))]


def _migration(state: MothershipState, seat: int, _unit: int, spot: int, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    old = state.stations[seat]
    state.grid[old] = EMPTY
    state.grid[spot] = seat * 16 + 15
    state.stations[seat] = spot
    events.append(Event("move", f"{state.player_name(seat)}'s colony station jumps to {board.name_of(spot)}."))


def _planets_near_fleet(state: MothershipState, seat: int, capture: bool) -> list[Target]:
    board = state.board
    assert board is not None
    ships = [c for s in range(state.game.fleets) if state.friendly(s, seat) for c in state.pos[s] if c != NOWHERE]
    targets = []
    for p, cell in enumerate(board.planets):
        owner = state.owner[p]
        if owner == -2 or (capture and owner >= 0 and state.friendly(owner, seat)):
            continue
        if any(board.distance(cell, c) <= 2 for c in ships):
            targets.append((planet_code(state, p), 0))
    return targets


def _negotiations(state: MothershipState, seat: int, unit: int, _spot: int, events: list[Event]) -> None:
    planet = decode_target(state, unit)[2]
    capture(state, seat, planet, state.game.content.capture_total, events)


def _laser_pointer(state: MothershipState, seat: int, unit: int, _spot: int, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    planet = decode_target(state, unit)[2]
    events.append(Event("card", f"The planet at {board.name_of(board.planets[planet])} is taken off the board."))
    turns.change_owner(state, planet, -2, events)


def _rope_targets(state: MothershipState, seat: int) -> list[Target]:
    return [(s, 0) for s, cell in enumerate(state.pos[seat]) if cell != NOWHERE and state.attacked >> s & 1]


def _ninja_rope(state: MothershipState, seat: int, ship: int, _spot: int, events: list[Event]) -> None:
    add_effect(state, "rope", seat, ship, ROPE_SPACES, "end", seat)
    state.used[ship] = max(0, engine_spaces(state, seat, ship) - ROPE_SPACES)
    events.append(Event("card", f"{state.ship_name(seat, ship)} may move {ROPE_SPACES} spaces after its attack."))


def _gravity_targets(state: MothershipState, seat: int) -> list[Target]:
    board = state.board
    assert board is not None
    planets = _friendly_planets(state, seat)
    targets = []
    for s in _rivals(state, seat):
        for ship, cell in enumerate(state.pos[s]):
            if cell == NOWHERE or not any(board.distance(cell, p) <= 3 for p in planets):
                continue
            targets += [(target_code(state, s, ship), spot) for spot in board.within(cell, 2) if landing(state, spot)]
    return targets


def _gravity(state: MothershipState, seat: int, unit: int, spot: int, events: list[Event]) -> None:
    board = state.board
    assert board is not None
    _, victim, ship = decode_target(state, unit)
    jump(state, victim, ship, spot)
    events.append(Event("move", f"{state.ship_name(victim, ship)} is pulled to {board.name_of(spot)}."))


def _prod_targets(state: MothershipState, seat: int) -> list[Target]:
    return [
        (target_code(state, s, 0), subsystem)
        for s in _enemy_motherships(state, seat)
        for subsystem in range(3)
        if (shield_energy(state, s) if subsystem == 2 else state.energy[s][subsystem]) > 0
    ]


def _prod(state: MothershipState, seat: int, unit: int, subsystem: int, events: list[Event]) -> None:
    victim = decode_target(state, unit)[1]
    add_effect(state, "prod", victim, subsystem, 1, "end", seat)
    if subsystem == 2:  # one energy less in the shields: fewer shield points until they regenerate
        table = state.game.content.shields
        level = state.energy[victim][2]
        state.shield[victim] = max(0, state.shield[victim] - (table[level] - table[level - 1]))
    names = ("engines", "weapons", "shields")
    events.append(Event("card", f"{state.player_name(victim)}'s {names[subsystem]} lose 1 energy this turn."))


def _attackers(state: MothershipState, seat: int, kinds: tuple[str, ...]) -> list[int]:
    kind_of = state.game.ship_kinds
    return [
        s
        for s, cell in enumerate(state.pos[seat])
        if cell != NOWHERE and kind_of[s] in kinds and not state.attacked >> s & 1 and not held(state, seat, s)
    ]


def _wam_targets(state: MothershipState, seat: int) -> list[Target]:
    board = state.board
    assert board is not None
    targets = []
    for ship in _attackers(state, seat, ("mothership", "bomber")):
        for s in _enemy_motherships(state, seat):
            if board.distance(state.pos[seat][ship], state.pos[s][0]) == 1:
                targets.append((target_code(state, s, 0), ship))
    return targets


def _wam(state: MothershipState, seat: int, unit: int, ship: int, events: list[Event]) -> None:
    victim = decode_target(state, unit)[1]
    state.attacked |= 1 << ship
    if ship == 0:
        state.locked = True
    state.hp[victim] = max(0, state.hp[victim] - 3)
    events.append(
        Event("damage", f"{state.player_name(victim)}'s mothership takes 3 hull damage ({state.hp[victim]} left).")
    )
    if state.hp[victim] == 0:
        destroy_ship(state, victim, 0)
        turns.destroyed(state, seat, victim, 0, events)
        turns.check_out(state, [victim], events)


def _railgun_targets(state: MothershipState, seat: int) -> list[Target]:
    board = state.board
    assert board is not None
    targets = []
    for ship in _attackers(state, seat, ("bomber",)):
        cell = state.pos[seat][ship]
        for s in _rivals(state, seat):
            units = [
                (0, state.pos[s][0]),
                (state.game.content.ships, state.stations[s] if state.station_hp[s] else NOWHERE),
            ]
            for unit, where in units:
                guard = unit == state.game.content.ships and guarded(state, s)
                if where != NOWHERE and board.distance(cell, where) == 4 and not guard:
                    targets.append((target_code(state, s, unit), ship))
    return targets


def _railguns(state: MothershipState, seat: int, unit: int, ship: int, events: list[Event]) -> None:
    declare(state, seat, [ship], unit, events)
    assert state.pending is not None
    state.pending["ranged"] = True


def _retreat_targets(state: MothershipState, seat: int) -> list[Target]:
    havens = _friendly_planets(state, seat) + [
        state.stations[s] for s in range(state.game.fleets) if state.friendly(s, seat) and state.station_hp[s]
    ]
    return [
        (unit, haven) for unit in _friendly_ships(state, seat) for haven in sorted(havens) if _beside(state, [haven])
    ]


def _retreat(state: MothershipState, seat: int, centre: int, haven: int, events: list[Event]) -> None:
    """Every friendly ship within 1 space of ``centre`` (a target number) jumps beside ``haven``,
    as long as there is room."""
    board = state.board
    assert board is not None
    _, owner, ship = decode_target(state, centre)
    middle = state.pos[owner][ship]
    for unit in _friendly_ships(state, seat):
        _, who, which = decode_target(state, unit)
        spaces = _beside(state, [haven])
        if board.distance(state.pos[who][which], middle) <= 1 and spaces:
            _warp(state, seat, unit, spaces[0], events)


def _replicator(state: MothershipState, seat: int, _unit: int, _spot: int, events: list[Event]) -> None:
    """The d4 is rolled in secret: what it gives is resources, and those are hidden."""
    state.pending = {"what": "replicator", "seat": seat, "ships": [], "target": -1, "dice": [4], "rolls": []}


def replicate(state: MothershipState, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    seat, amount = pending["seat"], pending["rolls"][0]
    state.resources[seat] += amount
    state.secret[seat][0] += 1  # how many secret d4s is public, their sum is the seat's own
    state.secret[seat][1] += amount
    events.append(Event("card", f"Replicator: you take {amount} resources.", (seat,)))


RULES: dict[str, CardRule] = {
    "afterburner": CardRule(_boost_targets, _afterburner),
    "punch_it": CardRule(_boost_targets, _punch_it),
    "convoy": CardRule(_convoy_targets, _convoy),
    "deflector_shields": CardRule(_boost_targets, _deflector),
    "hull_repair": CardRule(_repair_targets, _hull_repair),
    "wallet_inspector": CardRule(_player_targets, _wallet_inspector),
    "pick_up_two": CardRule(_pick_targets, _pick_up_two),
    "surprise_attack": CardRule(_steal_targets, _surprise_attack),
    "trade_blockade": CardRule(_pick_targets, _blockade),
    "forced_update": CardRule(_freeze_targets, _forced_update),
    "panic_button": CardRule(_warp_targets(lambda s, p: _beside(s, _friendly_planets(s, p))), _warp),
    "wormhole": CardRule(_warp_targets(_anywhere), _warp),
    "migration": CardRule(_migration_targets, _migration),
    "friendly_negotiations": CardRule(lambda s, p: _planets_near_fleet(s, p, capture=True), _negotiations),
    "planet_laser_pointer": CardRule(lambda s, p: _planets_near_fleet(s, p, capture=False), _laser_pointer),
    "ninja_rope": CardRule(_rope_targets, _ninja_rope),
    "gravity_manipulator": CardRule(_gravity_targets, _gravity),
    "prod": CardRule(_prod_targets, _prod),
    "dedotated_wam": CardRule(_wam_targets, _wam),
    "railguns": CardRule(_railgun_targets, _railguns),
    "cowardly_retreat": CardRule(_retreat_targets, _retreat),
    "replicator": CardRule(_pick_targets, _replicator),
}
"""The base game's own-turn cards, by their key in content/cards.toml (a module adds its
chapter's cards through the ``cards`` hook: :func:`rule_of`)."""


def rule_of(state: MothershipState, key: str) -> CardRule | None:
    """How the own-turn card ``key`` is played: the base game's, or a module's in play (None: it
    is not an own-turn card, or its module is off)."""
    rule = RULES.get(key)
    return rule if rule is not None else state.game.hooks.cards.get(key)


def label(state: MothershipState, action: Play) -> str:
    """A card play in words: the card, then its target."""
    card = state.game.content.cards[action.card]
    if state.cancel:
        return f"play {card.name} to cancel it"
    board = state.board
    kind, seat, unit = decode_target(state, action.unit)
    names = state.game.ship_names
    own = names[action.unit] if action.unit < len(names) else f"ship {action.unit}"
    words = card.name
    spot_ship = names[action.spot] if action.spot < len(names) else f"ship {action.spot}"
    if card.key in ("afterburner", "punch_it", "deflector_shields", "ninja_rope"):
        words += f" on {own}"
    elif card.key in ("dedotated_wam", "railguns"):
        words += f": {spot_ship} on {target_name(state, action.unit)}"
    elif card.key == "prod":
        subsystem = ("engines", "weapons", "shields")[action.spot] if action.spot < 3 else f"subsystem {action.spot}"
        words += f" on {state.player_name(seat)}'s {subsystem}"
    elif card.key == "gravity_manipulator" and board is not None and kind != "planet" and unit < len(names):
        words += f": {state.ship_name(seat, unit)} to {board.name_of(action.spot)}"
    elif card.key == "cowardly_retreat" and board is not None and kind != "planet" and unit < len(names):
        words += f": the ships around {state.ship_name(seat, unit)} to beside {board.name_of(action.spot)}"
    elif card.key in ("panic_button", "wormhole") and board is not None and kind != "planet" and unit < len(names):
        words += f": {state.ship_name(seat, unit)} to {board.name_of(action.spot)}"
    elif card.key == "migration" and board is not None:
        words += f": the colony station to {board.name_of(action.spot)}"
    elif card.key in ("wallet_inspector", "surprise_attack"):
        words += f" on {state.player_name(seat)}"
    elif card.key == "forced_update" and kind != "planet" and unit < len(names):
        words += f" on {state.ship_name(seat, unit)}"
    elif kind == "planet" and board is not None and unit < len(board.planets):
        words += f" on the planet at {board.name_of(board.planets[unit])}"
    return f"play {words}"
