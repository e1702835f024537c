"""What a Mothership player looks at: fleets, hulls, planets, and how close the ships are to work.

``evaluate(state, seat)`` is the seat's (or its team's) worth minus the strongest
rival team's. A roll in progress is valued by the odds of its dice (exact
distributions of the dice sums), so a one-ply bot sees what an attack is worth.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action

from ..modules import beacons, cannons, exploration, hazards, objectives, victory
from ..rules import movement, tactics, tech
from ..rules.actions import Move
from ..rules.board import ASTEROID, BLACK_HOLE, nearest_table
from ..rules.dice import face_value, rolled_sides
from ..rules.state import NOWHERE
from ..rules.targets import CANNON_TARGET, COLONY, PLANET_TARGET, decode_target
from ..rules.turns import income

if TYPE_CHECKING:
    from ..rules.state import MothershipState

SHIP_WORTH = {"mothership": 8.0, "fighter": 3.0, "bomber": 3.5}
HULL = 0.5
STATION_HP = 0.6
PLANET_WORTH = 4.0
RESOURCE = 0.25
CARD = 0.5
CARD_VALUE = 0.15
"""An action card in hand is worth ``CARD + CARD_VALUE * its resale value``: a little more than
the 2 resources it costs (so a bot buys when it can and keeps what it buys), less than a good
use of it (so it plays a card whose effect is worth more). Other players' cards count at the
deck's average value (a resample re-deals them)."""
TECH = 0.6
"""Worth of a tier per resource it cost: above the resources spent, so tiers get bought."""
PANEL = 0.6
"""Worth of the square root of each subsystem's effect (spaces, mean roll, shield points): a
balanced control panel beats one that maxes a single row."""
CLOSER = 0.15
"""Worth of one space nearer to work, per ship: fighters to the nearest planet not yet held,
bombers and the mothership to the nearest rival colony station."""
GUARD = 5.0
"""Solo challenge: worth of a ship guarding the colony station (the NPC mothership must fight
it before the station), and of a second (its wingman)."""
SOLO_STATION_HP = 1.5
"""Solo challenge: the station is the whole game (each HP, on top of ``STATION_HP``)."""
WIN = 1000.0


def evaluate(state: MothershipState, seat: int) -> float:
    if state.phase == "over":
        return WIN * (1.0 if seat in state.winners else -1.0) / max(1, len(state.winners))
    if state.board is None:
        return 0.0
    value = _standing(_team_worths(state), seat, state.game.teams)
    if state.pending is not None and state.pending["what"] == "dogfight":
        value += _pending_swing(state, seat)
    return value


def _standing(worth: list[float], seat: int, teams: int) -> float:
    """``seat``'s team's worth minus the strongest rival team's."""
    mine = worth[seat % teams]
    return mine - max(w for t, w in enumerate(worth) if t != seat % teams)


def _team_worths(state: MothershipState) -> list[float]:
    """Each team's worth (its fleets' ``player_worth``), remembered per position in ``game.worths``."""
    game = state.game
    teams = game.teams
    worth = [0.0] * teams
    board, memo = game.worths
    if board is not state.board or len(memo) > MEMO_SIZE:
        game.worths = (state.board, {})
        memo = game.worths[1]
    shared = _shared_inputs(state)
    known = memo.get(shared)
    if known is None:
        known = memo[shared] = ({}, {})
    fleets, outlooks = known
    parts = [state.peek(name) for name in FLEET_PARTS]
    for s in range(game.fleets):
        key = _fleet_inputs(state, s, parts)
        value = fleets.get(key)
        if value is None:
            outlook = outlooks.get(s)
            if outlook is None:
                outlook = outlooks[s] = _outlook(state, s)
            value = fleets[key] = player_worth(state, s, outlook)
        worth[s % teams] += value
    return worth


def quick_values(state: MothershipState, seat: int, actions: Sequence[Action]) -> list[float | None] | None:
    """``evaluate`` after each of ``actions`` that is a move, a control panel setting, a card sold,
    bought or played (:func:`_played`), worked out from ``state`` as the difference it makes to
    ``seat``'s own worth: a move changes only its ship's distance to work (or, one a black hole
    rolls against, as :func:`_rolled_against` says), a setting only the panel's worth, a sale or
    purchase only the seat's resources and hand (the rest of every fleet's worth reads none of
    them). None for other actions, for a move into asteroids whose roll could decide something,
    and for all of them where more could follow: a roll, a window, choice or card in progress (but
    a warp out of a black hole, each space valued as a move there), the seat not the one to act
    (on turn, or trading at a turn's end), the solo challenge (its guards), or rivals' ships as
    targets; and for each action a module in play would react to (hook ``quiet``)."""
    game, hooks, board = state.game, state.game.hooks, state.board
    if (
        board is None
        or state.phase != "turn"
        or (state.trading[0] if state.trading else state.turn) != seat
        or state.pending is not None
        or (state.choice is not None and hazards.warping_out(state) < 0)
        or state.cancel
        or state.reward
        or state.playing
        or state.out[seat]
        or state.script is not None
        or game.npc >= 0
        or _shared_inputs(state)[-1]
    ):
        return None
    quiet: list[Callable[[Action], bool]] = []
    for hook in hooks.quiet:
        leaves = hook(state, seat)
        if leaves is None:
            return None
        quiet.append(leaves)
    teams_worth = _team_worths(state)
    for holder, cards in objectives.completions(state):  # completed after any action told here
        teams_worth[holder % game.teams] += len(cards) * (objectives.DONE_WORTH - objectives.HELD_WORTH)
    base = _standing(teams_worth, seat, game.teams)
    outlooks = {seat: _outlook(state, seat)}
    planets, nearest, _ = outlooks[seat]
    window = any(state.hands[s] for s in range(game.fleets) if s != seat and not state.out[s])  # see _played
    kinds, terrain, fleet, content = game.ship_kinds, board.terrain, state.pos[seat], game.content
    black_holes = BLACK_HOLE in terrain
    panel = panel_worth(state, seat)
    losable = _losable(state, seat) if black_holes else range(0)
    shields = tech.bonus(state, seat, "shields")
    values: list[float | None] = []
    warping = hazards.warping_out(state) if state.choice is not None else -1
    if warping >= 0:  # each space the ship may warp out to: a jump there, which meets no black hole
        table = planets if planets and kinds[warping] == "fighter" else nearest
        for action in actions:
            jump = Move(warping, action[0])
            if quiet and not all(leaves(jump) for leaves in quiet):
                values.append(None)
            else:
                values.append(base + CLOSER * (table[fleet[warping]] - table[jump.cell]) if table else base)
        return values
    for action in actions:
        kind = action[-1]
        hole = hazards.hole_at(state, seat, action[0], action[1]) if kind == "move" and black_holes else -1
        if hole >= 0:
            ship = action[0]
            table = planets if planets and kinds[ship] == "fighter" else nearest
            if ship in losable:
                values.append(_rolled_against(state, seat, ship, hole, base, table, panel))
            else:
                values.append(None)
        elif quiet and not all(leaves(action) for leaves in quiet):
            values.append(None)
        elif kind == "move" and (terrain[action[1]] != ASTEROID or _no_asteroid_roll_decides(state, seat, action)):
            ship, cell = action[0], action[1]
            table = planets if planets and kinds[ship] == "fighter" else nearest
            values.append(base + CLOSER * (table[fleet[ship]] - table[cell]) if table else base)
        elif kind == "energy":
            shield = content.shields[action[2]] + shields
            values.append(base + _panel(content, action[0], action[1], shield) - panel)
        elif kind == "sell":
            price = content.cards[action[0]].value
            values.append(base + RESOURCE * price - (CARD + CARD_VALUE * price))
        elif kind == "buy":
            values.append(_bought(state, seat, action, base))
        elif kind == "play":
            values.append(base if window else _played(state, seat, action, teams_worth, base, outlooks))
        else:
            values.append(None)
    return values


def _bought(state: MothershipState, seat: int, buy: Action, base: float) -> float | None:
    """The evaluation after ``buy`` and the draw it owes (its chance outcomes averaged, as a one-ply
    bot values them): the price paid and the card drawn are all that changes."""
    child = state.clone()
    child.apply_legal(buy, seat)
    if not child.is_chance_node():
        return None
    paid = RESOURCE * (child.resources[seat] - state.resources[seat])
    cards = state.game.content.cards
    return sum(p * (base + paid + CARD + CARD_VALUE * cards[draw[0]].value) for draw, p in child.chance_outcomes())


HIT = frozenset({"hull", "shields", "engines", "weapons", "ships"})
"""The goals' quantities (module ``content.language``) a black hole's roll against a mothership
may lower (against a fighter or bomber: only ``ships``)."""


def _losable(state: MothershipState, seat: int) -> range:
    """The ships of ``seat`` whose loss to a black hole changes nothing the evaluation reads but the
    ship's own worth and distance (and the mothership's hull and panel): with the station and
    another ship kept nobody is knocked out, and no goal the seat may complete can come to hold
    by what the roll lowers (``objectives.reads``): every ship, the fighters and bombers, or none."""
    if state.station_hp[seat] <= 0 or sum(1 for cell in state.pos[seat] if cell != NOWHERE) < 2:
        return range(0)
    fall = objectives.reads(state, seat, objectives.FALLING)
    if "ships" in fall:
        return range(0)
    mothership = not fall & HIT and "shields" not in objectives.reads(state, seat)  # a move may unblock them
    return range(0 if mothership else 1, len(state.pos[seat]))


def _rolled_against(
    state: MothershipState, seat: int, ship: int, hole: int, base: float, table: tuple[int, ...] | None, panel: float
) -> float:
    """The evaluation after a move of ``seat``'s ``ship`` that ends with a black hole rolling against
    it in space ``hole`` (``hazards.hole_at``; the ship is in :func:`_losable`), its faces averaged
    as the greedy bot averages them (``table``: the ship's distances to work, ``panel``: the
    control panel's worth now). Up to ``warp_faces`` the ship waits in ``hole`` to warp out (a
    choice); above, a fighter or bomber is torn apart, and the mothership takes the face in
    damage, its shields absorbing first unless a neutron star beside ``hole`` blocks them
    (``hazards.shields_blocked``), destroyed at no hull left."""
    content, kinds = state.game.content, state.game.ship_kinds
    die = content.hazards.black_hole_die
    thrown = rolled_sides(die)
    cell, hp, shield = state.pos[seat][ship], state.hp[seat], state.shield[seat]
    waiting = base + CLOSER * (table[cell] - table[hole]) if table else base
    torn = base - SHIP_WORTH[kinds[ship]] + (CLOSER * table[cell] if table else 0.0)
    if ship == 0:
        torn -= HULL * hp + panel
    engines, weapons, _ = state.energy[seat]
    points = 0 if hazards.star_beside(state, hole) else shield
    p, total = 1 / thrown, 0.0
    for face in range(1, thrown + 1):
        roll = face_value(die, face)
        absorbed = min(points, roll)
        left = hp - (roll - absorbed)
        if roll <= content.hazards.warp_faces:
            total += p * waiting
        elif ship == 0 and left > 0:
            total += p * (waiting + HULL * (left - hp) + _panel(content, engines, weapons, shield - absorbed) - panel)
        else:
            total += p * torn
    return total


RELOCATING = frozenset({"panic_button", "wormhole", "gravity_manipulator"})
"""The cards whose whole effect is to put one ship (the play's unit) on the play's space: a jump,
which no module reacts to (rules ``cards._warp`` and ``cards._gravity``)."""
LASTING = frozenset({"afterburner", "punch_it", "convoy", "deflector_shields", "ninja_rope"})
"""The cards whose whole effect is a lasting effect the evaluation does not read (engine spaces,
an asteroid field entered unharmed, a move after an attack), as is Prod's on engines or weapons."""


def _played(
    state: MothershipState, seat: int, play: Action, worth: list[float], base: float, outlooks: dict[int, Outlook]
) -> float | None:
    """The evaluation after ``play``, a card played on the seat's own turn while nobody else holds a
    card, so that it takes effect at once (``worth``: each team's now, ``base``: the seat's
    standing, ``outlooks``: fleets' outlooks known, filled as needed). Otherwise a window to cancel
    it opens (rules ``cards.play``) and the position is worth ``base``: the card counts as in hand
    until it works. Any card told: its worth leaves the hand. A relocating card
    (:data:`RELOCATING`): the ship's distance to work changes its team's worth; a lasting one
    (:data:`LASTING`): nothing more. None for any other card."""
    game = state.game
    card = game.content.cards[play[0]]
    spent = CARD + CARD_VALUE * card.value
    if card.key in LASTING or (card.key == "prod" and play[2] != 2):  # (on shields, Prod takes shield points)
        return base - spent
    if card.key not in RELOCATING:
        return None
    _, owner, ship = decode_target(state, play[1])
    outlook = outlooks.get(owner)
    if outlook is None:
        outlook = outlooks[owner] = _outlook(state, owner)
    planets, nearest, _ = outlook
    table = planets if planets and game.ship_kinds[ship] == "fighter" else nearest
    closer = CLOSER * (table[state.pos[owner][ship]] - table[play[2]]) if table else 0.0
    if state.friendly(owner, seat):
        return base + closer - spent
    worth = worth[:]
    worth[owner % game.teams] += closer
    return _standing(worth, seat, game.teams) - spent


def _no_asteroid_roll_decides(state: MothershipState, seat: int, move: Action) -> bool:
    """Whether the position after ``move`` into an asteroid field, and after the roll it may set
    out, is worth what the move's own change makes it (no dogfight: the field is the ship's already,
    or Deflector Shields; a dogfight of two dice: its first roll decides nothing)."""
    ship = move[0]
    fight = movement.reach(state, seat, ship)[move[1]][1]
    return not fight or state.has_effect("deflect", seat, ship) or movement.weapon_die(state, seat, ship) > 0


MEMO_SIZE = 5_000
"""Positions (by ``_shared_inputs``) whose fleet worths a game remembers (``game.worths``) before
it forgets them all (it forgets them too when it is asked about another board)."""


def _shared_inputs(state: MothershipState) -> tuple[Any, ...]:
    """Everything ``player_worth`` reads that is not one fleet's own (with :func:`_fleet_inputs`:
    all it reads, so equal inputs give an equal worth and a one-ply bot scores again only the
    fleets an action changed). The rivals' ships count only where some fleet has no rival
    station left to go for."""
    game, out, stations, station_hp = state.game, state.out, state.stations, state.station_hp
    teams = game.teams
    live = {f % teams for f in range(game.fleets) if not out[f] and stations[f] != NOWHERE and station_hp[f] > 0}
    ships = tuple(map(tuple, state.pos)) if len(live) < 2 else ()
    script = state.script
    return (
        state.turn,
        not state.trading,
        tuple(state.playing),
        tuple(state.owner),
        tuple(out),
        tuple(stations),
        tuple(station_hp),
        tuple(map(tuple, state.effects)),
        tuple(state.beacon_draw[:1]),
        -1 if script is None else script["seat"],
        state.exploring,
        tuple(state.peek("artifacts")),
        ships,
    )


def _fleet_inputs(state: MothershipState, seat: int, parts: list[Any]) -> tuple[Any, ...]:
    """What ``player_worth`` reads of ``seat``'s own (``parts``: the modules' fields it reads,
    :data:`FLEET_PARTS`, peeked at, so a child position that never changes them never copies them)."""
    kept, held, completed, points = parts
    return (
        seat,
        state.resources[seat],
        tuple(state.hands[seat]),
        state.charges[seat],
        tuple(state.branches[seat]),
        tuple(state.tiers[seat]),
        tuple(state.pos[seat]),
        state.hp[seat],
        tuple(state.energy[seat]),
        state.shield[seat],
        len(kept[seat]),
        len(held[seat]),
        len(completed[seat]),
        len(state.cannons[seat]),
        points[seat],
    )


FLEET_PARTS = ("kept", "objectives", "completed", "points")
"""The modules' fields (shared by a clone until first read) that :func:`_fleet_inputs` reads."""


Outlook = tuple[tuple[int, ...] | None, tuple[int, ...] | None, float]
"""What ``player_worth`` reads of a position that is not the fleet's own: for each space the
steps to the nearest planet the fleet does not hold and to the nearest rival station (or, with
none, rival ship), and its artifacts' worth."""


def _outlook(state: MothershipState, seat: int) -> Outlook:
    """``seat``'s :data:`Outlook` in ``state`` (it reads only ``_shared_inputs``, so it is worked out
    once per position a bot weighs, not once per fleet changed)."""
    board = state.board
    assert board is not None
    game, owner, out = state.game, state.owner, state.out
    size, teams, team = board.size, game.teams, seat % game.teams
    cells = board.planets
    targets = tuple([cells[i] for i, o in enumerate(owner) if o != seat and o != -2])
    planets = nearest_table(size, targets) if targets else None
    rivals = [s for s in range(game.fleets) if not out[s] and s % teams != team]
    stations, station_hp = state.stations, state.station_hp
    targets = tuple([stations[s] for s in rivals if stations[s] != NOWHERE and station_hp[s] > 0])
    if not targets:  # the solo challenge's NPC has no station: go for its ships
        targets = tuple([c for s in rivals for c in state.pos[s] if c != NOWHERE])
    nearest = nearest_table(size, targets) if targets else None
    return planets, nearest, exploration.worth(state, seat)


def player_worth(state: MothershipState, seat: int, outlook: Outlook | None = None) -> float:
    """``seat``'s worth (``outlook``: its :data:`Outlook` here, if known already)."""
    out = state.out
    if out[seat]:
        return 0.0
    game = state.game
    board = state.board
    assert board is not None
    total = STATION_HP * state.station_hp[seat] + RESOURCE * state.resources[seat]
    hand = state.hands[seat]
    if hand:
        cards = game.content.cards
        total += sum([CARD + CARD_VALUE * cards[c].value for c in hand]) + CARD * state.charges[seat]
    else:
        total += CARD * state.charges[seat]
    if state.playing and state.playing[0] == seat:  # a card waiting on Noooo: not lost before it works
        total += CARD + CARD_VALUE * game.content.cards[state.playing[1]].value
    if seat == state.turn and not state.trading:  # the income to come: ending the turn gains nothing
        total += RESOURCE * income(state, seat)
    costs = game.content.tech_costs
    total += TECH * sum([sum(costs[:tiers]) for tiers in state.tiers[seat]])
    total += PLANET_WORTH * state.owner.count(seat)
    planets, nearest, artifacts = outlook or _outlook(state, seat)
    worths = _ship_worths(game.ship_kinds)
    for ship, cell in enumerate(state.pos[seat]):
        if cell == NOWHERE:
            continue
        total += worths[ship]
        if ship == 0:
            total += HULL * state.hp[seat] + panel_worth(state, seat)
        if planets and game.ship_kinds[ship] == "fighter":
            total -= CLOSER * planets[cell]
        elif nearest:
            total -= CLOSER * nearest[cell]
    if state.game.npc >= 0 and seat != state.game.npc:
        total += _solo_defence(state, seat)
    total += beacons.worth(state, seat) + objectives.worth(state, seat) + cannons.WORTH * len(state.cannons[seat])
    return total + artifacts + victory.worth(state, seat)


@cache
def _ship_worths(kinds: tuple[str, ...]) -> tuple[float, ...]:
    """``SHIP_WORTH`` of each ship of a fleet, by number."""
    return tuple(SHIP_WORTH[kind] for kind in kinds)


def _solo_defence(state: MothershipState, seat: int) -> float:
    """The solo player's station, worth more, and the ships guarding it."""
    board = state.board
    assert board is not None
    station = state.stations[seat]
    guards = sum(1 for cell in state.pos[seat] if cell != NOWHERE and board.distance(cell, station) == 1)
    return SOLO_STATION_HP * state.station_hp[seat] + GUARD * min(guards, 2)


def panel_worth(state: MothershipState, seat: int) -> float:
    engines, weapons, _ = state.energy[seat]
    return _panel(state.game.content, engines, weapons, state.shield[seat])


def _panel(content: Any, engines: int, weapons: int, shield: int) -> float:
    """The control panel's worth with that energy in engines and weapons and that many shield points."""
    die = content.weapons[weapons]
    mean = 1.5 if die == 2 else (die + 1) / 2 if die else 0.0
    return PANEL * (math.sqrt(content.engines[engines]) + math.sqrt(mean) + math.sqrt(shield))


@cache
def sum_distribution(dice: tuple[int, ...]) -> tuple[float, ...]:
    """Probability of each total of ``dice`` (sides, a d2 as its d4), index = total."""
    dist = [1.0]
    for sides in dice:
        thrown = rolled_sides(sides)
        new = [0.0] * (len(dist) + sides)
        for total, p in enumerate(dist):
            if p:
                for face in range(1, thrown + 1):
                    new[total + face_value(sides, face)] += p / thrown
        dist = new
    return tuple(dist)


def _pending_swing(state: MothershipState, seat: int) -> float:
    """The expected worth a dogfight in progress moves toward its attacker, signed for ``seat``."""
    pending = state.pending
    assert pending is not None
    ships, rolls, dice = pending["ships"], pending["rolls"], pending["dice"]
    attackers = len(ships)
    if state.playing and pending.get("asker", -1) >= 0:  # a dogfight card waiting on Noooo counts
        key = state.game.content.cards[state.playing[1]].key
        pending = dict(pending, mods=[*pending["mods"], [key, pending["asker"]]])
    known_attack = sum(rolls[:attackers]) + tactics.bonus(state, pending, tactics.ATTACK, rolls[:attackers])
    known_defence = sum(rolls[attackers:]) + tactics.bonus(state, pending, tactics.DEFENCE, rolls[attackers:])
    left = dice[len(rolls) :]
    attack_left = tuple(dice[len(rolls) : attackers]) if len(rolls) < attackers else ()
    defence_left = tuple(left[len(attack_left) :])
    kind, _, unit = decode_target(state, pending["target"])
    attack_dist = sum_distribution(attack_left)
    if kind == PLANET_TARGET:
        need = state.game.content.capture_total - known_attack
        p_win = sum(p for t, p in enumerate(attack_dist) if t >= need)
        swing = p_win * PLANET_WORTH
        return swing if state.friendly(seat, pending["seat"]) else -swing
    defence_dist = sum_distribution(defence_left)
    p_win = p_lose = 0.0
    for a, pa in enumerate(attack_dist):
        for d, pd in enumerate(defence_dist):
            diff = known_attack + a - known_defence - d
            if diff > 0:
                p_win += pa * pd
            elif diff < 0:
                p_lose += pa * pd
    kinds = state.game.ship_kinds
    if kind == COLONY:
        prize = 6.0
    elif kind == CANNON_TARGET:
        prize = cannons.WORTH
    else:
        prize = SHIP_WORTH[kinds[unit]] * (0.6 if unit == 0 else 1.0)
    risk = sum(SHIP_WORTH[kinds[s]] * (0.4 if s == 0 else 1.0) for s in ships)
    swing = p_win * prize - p_lose * risk
    return swing if state.friendly(seat, pending["seat"]) else -swing
