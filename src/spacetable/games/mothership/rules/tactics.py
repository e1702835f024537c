"""Chapter 6.1 in a dogfight: the cards played when a dogfight is declared, before rolling.

After an attack is declared, its two sides may play their dogfight cards, the attacker
first, then in turns, until both pass one after the other (a side with nothing to play is
not asked). Each card is shown as it is played (and may be cancelled by Noooooooooooo!);
they apply in the order they were played, which matters for shields: Shield Breaker then
Auxiliary Shield leaves 4 shield points, the other way round none.

The cards and what they add (``pending["mods"]``: ``[key, side]`` in the order played):

- Defence Buff: +1 to the defence. Wingman: +2 to a defending ship with a friendly ship
  beside it. Git off Mah Propertay!: a planet of the defender's needs 3 more to capture.
- Enhanced Sensors: +2 if one of the side's fighters or bombers is beside a friendly mothership.
- Seismic Charge: +3 if an enemy ship of the dogfight is in an asteroid field or next to one.
- Volt Switch: +3 if the side fights with its mothership.
- Expansion Pak: the side's highest die face counts twice (one die, not the buffs).
- Auxiliary Shield: the side's mothership has 4 more shield points for this dogfight.
- Shield Breaker: the other side's mothership has no shields until the end of the turn.
- Intergalactic Antiques Roadshow (option exploration): +1 for every artifact the side's player
  holds; only playable while they hold one.

Action card buffs never apply to a planet attack (only Git off Mah Propertay! defends one).

Against asteroids (chapter 8: card buffs aid a ship through a field) the moving ship is the
defending side and the asteroids an attacker nobody plays: its player alone is asked, before
the roll for the cards of ``ASTEROID_CARDS``, after it for Backup Generator and The Forks on
the ship's die. Nobody answers a loss there (Last Stand and Life Support answer attackers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Event

from . import tech
from .actions import Pass, Play
from .board import ASTEROID
from .movement import destroy_ship
from .state import NOWHERE
from .targets import PLANET_TARGET, decode_target, target_code, wingmen
from .turns import destroyed

if TYPE_CHECKING:
    from .state import MothershipState

ATTACK, DEFENCE = 0, 1
ROADSHOW = "antiques_roadshow"
SIDE_TIMINGS = ({"declare", "dogfight"}, {"defend", "dogfight"})
PLANET_CARDS = {"git_off_mah_propertay"}
ASTEROID_CARDS = {"defence_buff", "volt_switch", "enhanced_sensors", "expansion_pak", "auxiliary_shield", ROADSHOW}
"""The cards played before an asteroid roll: those whose texts need no enemy (ruling 13)."""


def asteroids(pending: dict[str, Any]) -> bool:
    """Whether the dogfight in progress is a ship's against an asteroid field."""
    return bool(pending["what"] == "asteroid")


def sides(state: MothershipState, pending: dict[str, Any]) -> tuple[int, int]:
    """(attacking seat, defending seat or -1 for a neutral planet); against asteroids, (-1,
    the moving ship's player)."""
    if asteroids(pending):
        return -1, pending["seat"]
    kind, other, unit = decode_target(state, pending["target"])
    if kind == PLANET_TARGET:
        return pending["seat"], state.owner[unit]
    return pending["seat"], other


def playable(state: MothershipState, pending: dict[str, Any], side: int) -> list[int]:
    """The dogfight cards ``side`` may play now (card kinds)."""
    seat = sides(state, pending)[side]
    if seat < 0:
        return []
    return [card for card in sorted(set(state.hands[seat])) if fits(state, pending, side, seat, card)]


def fits(state: MothershipState, pending: dict[str, Any], side: int, seat: int, card: int) -> bool:
    """Whether card kind ``card`` is one ``side`` (played by ``seat``) may play in this window."""
    cards = state.game.content.cards
    key = cards[card].key
    if pending.get("stage") == "rolled":
        return key in REROLLS and rerollable(state, pending, side, key)
    if cards[card].timing not in SIDE_TIMINGS[side] or key not in EFFECTS:
        return False
    rocks = asteroids(pending)
    planet = not rocks and decode_target(state, pending["target"])[0] == PLANET_TARGET
    if planet != (key in PLANET_CARDS) or (rocks and key not in ASTEROID_CARDS):
        return False
    return key != ROADSHOW or bool(holding(state, seat, "artifacts"))


def askable(state: MothershipState, pending: dict[str, Any], side: int) -> bool:
    """Whether ``side`` is asked: it holds cards (hand sizes are public, so asking tells nobody
    what they are; a side with an empty hand is skipped). The attacker on a planet has no
    card to play (no buffs there) and is never asked."""
    seat = sides(state, pending)[side]
    if seat < 0 or not state.hands[seat]:
        return False
    return asteroids(pending) or not (side == ATTACK and decode_target(state, pending["target"])[0] == PLANET_TARGET)


def open_asteroids(state: MothershipState) -> None:
    """If a move has just set out an asteroid dogfight, open its window before the roll."""
    if state.pending is not None and asteroids(state.pending):
        open_window(state)


def open_window(state: MothershipState) -> None:
    """Before rolling: ask the attacker first (or the defender, if only it may have cards)."""
    pending = state.pending
    assert pending is not None
    pending["mods"] = []
    pending["passes"] = 0
    pending["asker"] = -1
    for side in (ATTACK, DEFENCE):
        if askable(state, pending, side):
            pending["asker"] = side
            return


def options(state: MothershipState) -> list[Action]:
    pending = state.pending
    assert pending is not None
    side = pending["asker"]
    if pending.get("stage") == "lost":
        return [*answers(state, pending, side), Pass()]
    if pending.get("stage") != "rolled":
        return [*(Play(card, 0, 0) for card in playable(state, pending, side)), Pass()]
    keys = state.game.content.cards
    return [
        *(
            Play(card, 0, die)
            for card in playable(state, pending, side)
            for die in dice_of(pending, side)
            if keys[card].key != "backup_generator" or pending["rolls"][die] == 1
        ),
        Pass(),
    ]


# ---- after the roll: Backup Generator and The Forks -------------------------------------------

REROLLS = {"backup_generator": "add", "the_forks": "replace"}
"""The cards played on a side's own dice after they are rolled: roll one die again, and add
it (Backup Generator, on a die that rolled 1) or keep the new face (The Forks)."""


def dice_of(pending: dict[str, Any], side: int) -> list[int]:
    """Indexes in ``pending["rolls"]`` of ``side``'s dice."""
    attackers = len(pending["ships"])
    return list(range(attackers)) if side == ATTACK else list(range(attackers, len(pending["dice"])))


def rerollable(state: MothershipState, pending: dict[str, Any], side: int, key: str) -> bool:
    dice = dice_of(pending, side)
    return bool(dice) and (key != "backup_generator" or any(pending["rolls"][d] == 1 for d in dice))


def waiting_card_fits(state: MothershipState) -> bool:
    """Whether the card waiting out the cancel window (``state.playing``) in the dogfight under
    way is the asked side's, and a roll-again card only once its die is rolled."""
    pending = state.pending
    assert pending is not None and state.playing
    seat, card, _unit, die = state.playing
    side = pending.get("asker", -1)
    if side not in (ATTACK, DEFENCE) or sides(state, pending)[side] != seat:
        return False
    if not fits(state, pending, side, seat, card):
        return False
    if state.game.content.cards[card].key in REROLLS:
        return pending.get("stage") == "rolled" and die in dice_of(pending, side) and die < len(pending["rolls"])
    return True


def open_rolled(state: MothershipState) -> None:
    """Every die is rolled: the sides holding cards may roll again before the result."""
    pending = state.pending
    assert pending is not None
    pending["stage"] = "rolled"
    pending["passes"] = 0
    pending["asker"] = -1
    if not asteroids(pending) and decode_target(state, pending["target"])[0] == PLANET_TARGET:
        return  # nothing changes a planet attack's roll
    for side in (ATTACK, DEFENCE):
        if askable(state, pending, side):
            pending["asker"] = side
            return


def decided(state: MothershipState) -> bool:
    """Whether the dogfight in progress is ready for its next step (every die rolled, nobody asked)."""
    pending = state.pending
    return (
        pending is not None
        and pending.get("stage") in ("rolled", "lost")
        and pending["asker"] < 0
        and not pending.get("reroll")
    )


# ---- on losing a defence: Last Stand and Life Support ---------------------------------------

ANSWERS = {"last_stand", "life_support"}


def open_lost(state: MothershipState) -> None:
    """The result is known: a defender that lost, if it holds cards, may answer before the
    damage. Last Stand and Life Support are defenders' cards (ruling 31): an attacker that
    lost is never asked."""
    pending = state.pending
    assert pending is not None
    pending["stage"] = "lost"
    pending["passes"] = 0
    attack, defence = pending["result"]
    lost = attack > defence
    pending["asker"] = DEFENCE if lost and askable(state, pending, DEFENCE) else -1


def answers(state: MothershipState, pending: dict[str, Any], side: int) -> list[Action]:
    """Last Stand on each enemy ship of the dogfight; Life Support on each of the side's
    fighters and bombers (the one to keep if it explodes)."""
    seat, enemy = sides(state, pending)[side], sides(state, pending)[1 - side]
    cards = state.game.content.cards
    kinds = state.game.ship_kinds
    own = [s for s in _ships(state, pending, side) if kinds[s] != "mothership"]
    foes = _ships(state, pending, 1 - side)
    actions: list[Action] = []
    for card in sorted(set(state.hands[seat])):
        key = cards[card].key
        if key == "life_support":
            actions += [Play(card, 0, ship) for ship in own]
        elif key == "last_stand":
            actions += [Play(card, target_code(state, enemy, ship), 0) for ship in foes]
    return actions


def _ships(state: MothershipState, pending: dict[str, Any], side: int) -> list[int]:
    seat, ships = _side_ships(state, pending, side)
    return [s for s in ships if seat >= 0 and state.pos[seat][s] != NOWHERE]


def saved_ship(pending: dict[str, Any]) -> int:
    """The ship Life Support keeps (-1: none)."""
    return next((m[2] for m in pending["mods"] if m[0] == "life_support"), -1)


def last_stand(state: MothershipState, pending: dict[str, Any], events: list[Event]) -> None:
    """Each Last Stand played: an enemy fighter or bomber explodes, or its mothership loses 4 hull."""
    for mod in pending["mods"]:
        if mod[0] != "last_stand":
            continue
        _, seat, ship = decode_target(state, mod[2])
        player = sides(state, pending)[mod[1]]
        if state.pos[seat][ship] == NOWHERE:
            continue
        if ship == 0:
            state.hp[seat] = max(0, state.hp[seat] - 4)
            events.append(
                Event("card", f"Last Stand: {state.ship_name(seat, 0)} loses 4 hull ({state.hp[seat]} left).")
            )
            if state.hp[seat] == 0:
                destroy_ship(state, seat, 0)
                destroyed(state, player, seat, 0, events)
        else:
            destroy_ship(state, seat, ship)
            events.append(Event("card", f"Last Stand: {state.ship_name(seat, ship)} explodes."))
            destroyed(state, player, seat, ship, events)


def asked_seat(state: MothershipState) -> int:
    pending = state.pending
    assert pending is not None
    return sides(state, pending)[pending["asker"]]


def played(state: MothershipState, key: str | None, die: int = 0, unit: int = 0) -> None:
    """The side asked played a card (``key``; None: it was cancelled): the other side is asked next.
    A card played after the roll sets one die (``die``) to roll again first."""
    pending = state.pending
    assert pending is not None
    if key in REROLLS:
        pending["reroll"] = [die, REROLLS[key]]
    elif key in ANSWERS:
        pending["mods"].append([key, pending["asker"], die if key == "life_support" else unit])
    elif key is not None:
        pending["mods"].append([key, pending["asker"]])
    pending["passes"] = 0
    _next(state)


def passed(state: MothershipState) -> None:
    pending = state.pending
    assert pending is not None
    pending["passes"] += 1
    _next(state)


def _next(state: MothershipState) -> None:
    pending = state.pending
    assert pending is not None
    other = 1 - pending["asker"]
    if pending.get("stage") == "lost":  # only the losing defender answers, as often as it likes
        if pending["passes"]:
            pending["asker"] = -1
        return
    if pending["passes"] < 2 and askable(state, pending, other):
        pending["asker"] = other
    elif pending["passes"] == 0 and askable(state, pending, pending["asker"]):
        pass  # the other side is not asked: the same side may play another card
    else:
        pending["asker"] = -1


# ---- what the cards add ---------------------------------------------------------------------

Term = tuple[str, int | None]
"""One addition to a side's total: (its source in words, what it adds), where None stands for
the side's highest die face (Expansion Pak), known once the side's dice are rolled."""


def bonus(state: MothershipState, pending: dict[str, Any], side: int, rolls: list[int]) -> int:
    """The cards' additions to ``side``'s total (``rolls``: that side's die faces)."""
    return sum(amount for _, amount in bonuses(state, pending, side, rolls))


def bonuses(state: MothershipState, pending: dict[str, Any], side: int, rolls: list[int]) -> list[tuple[str, int]]:
    """Each card's addition to ``side``'s total, with the card's name, in the order played."""
    return faced(card_terms(state, pending, side), rolls)


def card_terms(state: MothershipState, pending: dict[str, Any], side: int) -> list[Term]:
    """Each card's addition to ``side``'s total with the card's name, in the order played, before
    the dice are rolled (None: the side's highest face, see :data:`Term`)."""
    if not pending["mods"]:  # the usual case, and bots ask it for every candidate action
        return []
    names = {card.key: card.name for card in state.game.content.cards}
    return [
        (names.get(key, key.replace("_", " ")), EFFECTS[key](state, pending, side))
        for key, who, *_ in pending["mods"]
        if who == side and key in EFFECTS  # the defender's answers (Last Stand, Life Support) add nothing
    ]


def faced(terms: list[Term], rolls: list[int]) -> list[tuple[str, int]]:
    """``terms`` once the side's dice show ``rolls``: the highest face read from them."""
    return [(source, max(rolls, default=0) if value is None else value) for source, value in terms]


def _defence_buff(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    return 1


def _wingman(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    _, seat, unit = decode_target(state, pending["target"])
    cell = state.pos[seat][unit] if unit < len(state.pos[seat]) else NOWHERE
    return 2 if cell != NOWHERE and wingmen(state, seat, cell) else 0


def _side_ships(state: MothershipState, pending: dict[str, Any], side: int) -> tuple[int, list[int]]:
    """(seat, its ships in the dogfight) of ``side``; the asteroids have neither."""
    if asteroids(pending):
        return (pending["seat"], list(pending["ships"])) if side == DEFENCE else (-1, [])
    if side == ATTACK:
        return pending["seat"], list(pending["ships"])
    _, seat, unit = decode_target(state, pending["target"])
    return seat, [unit] if unit < len(state.pos[seat]) else []


def _sensors(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    board = state.board
    assert board is not None
    seat, ships = _side_ships(state, pending, side)
    motherships = [
        state.pos[s][0] for s in range(state.game.players) if state.friendly(s, seat) and state.pos[s][0] != NOWHERE
    ]
    for ship in ships:
        cell = state.pos[seat][ship]
        if ship and cell != NOWHERE and any(board.distance(cell, m) == 1 for m in motherships):
            return 2
    return 0


def _seismic(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    board = state.board
    assert board is not None
    seat, ships = _side_ships(state, pending, 1 - side)
    for ship in ships:
        cell = state.pos[seat][ship]
        if cell != NOWHERE and any(board.terrain[c] == ASTEROID for c in (cell, *board.neighbours[cell])):
            return 3
    return 0


def _volt(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    return 3 if 0 in _side_ships(state, pending, side)[1] else 0


def _expansion(state: MothershipState, pending: dict[str, Any], side: int) -> None:
    """Expansion Pak: the side's highest face once more."""
    return None


def _nuclear(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    """Nuclear Missile: its tile's amount added to the mothership's roll."""
    return max(
        (t.amount for b in state.game.content.branches for t in b.tiers if t.ability == "nuclear_missile"), default=0
    )


def _roadshow(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    """Intergalactic Antiques Roadshow: +1 for every artifact the side's player holds."""
    return holding(state, sides(state, pending)[side], "artifacts")


def holding(state: MothershipState, seat: int, thing: str) -> int:
    """How many of a module's ``thing`` (``"artifacts"``) ``seat`` holds: 0 without the module."""
    return sum(count(state, seat, thing) for count in state.game.hooks.holdings)


def _nothing(state: MothershipState, pending: dict[str, Any], side: int) -> int:
    return 0


EFFECTS: dict[str, Callable[[MothershipState, dict[str, Any], int], int | None]] = {
    "defence_buff": _defence_buff,
    "wingman": _wingman,
    "git_off_mah_propertay": _nothing,  # raises the capture total instead (capture_needs)
    "enhanced_sensors": _sensors,
    "seismic_charge": _seismic,
    "volt_switch": _volt,
    "expansion_pak": _expansion,
    "auxiliary_shield": _nothing,  # shields (apply_shields)
    "shield_breaker": _nothing,  # shields (apply_shields)
    ROADSHOW: _roadshow,
    "nuclear": _nuclear,  # not a card: the Nuclear Missile ability (module abilities)
}
"""The dogfight cards implemented so far, by key: what each adds to its side's total (None: the
side's highest face, see :data:`Term`)."""


def capture_needs(state: MothershipState, pending: dict[str, Any]) -> int:
    """The total that captures a planet: 6, more with Git off Mah Propertay! and Planetary Defence."""
    extra = sum(3 for mod in pending["mods"] if mod[0] == "git_off_mah_propertay")
    owner = sides(state, pending)[DEFENCE]
    defence = tech.bonus(state, owner, "planet_defence") if owner >= 0 else 0
    return state.game.content.capture_total + extra + defence


def apply_shields(state: MothershipState, pending: dict[str, Any], events: list[Event]) -> dict[int, int]:
    """Shield cards in the order played; returns the extra (one-dogfight) points per seat."""
    attacker, defender = sides(state, pending)
    seats = (attacker, defender)
    extra: dict[int, int] = {}
    for key, side, *_ in pending["mods"]:
        if key == "shield_breaker":
            victim = seats[1 - side]
            state.shield[victim] = 0
            extra[victim] = 0
            state.effects.append(["shields_off", victim, 0, 0, "end", state.turn])
            events.append(Event("card", f"{state.player_name(victim)}'s shields are down until the end of the turn."))
        elif key == "auxiliary_shield":
            seat = seats[side]
            state.shield[seat] += 4
            extra[seat] = extra.get(seat, 0) + 4
    return extra


def drop_extra_shields(state: MothershipState, extra: dict[int, int], before: dict[int, int]) -> None:
    """After the dogfight: the one-dogfight points go, spent first."""
    for seat, points in extra.items():
        used = before[seat] - state.shield[seat]
        state.shield[seat] -= max(0, points - used)
