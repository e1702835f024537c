"""The Mothership state: plain data, whose turn it is, JSON, views and resampling.

The rules live beside it, one module per chapter of the rulebook: ``setup`` (chapter 1:
the board, placing the fleets, who starts), ``movement`` (chapters 2 and 4: the turn,
moving, the control panel, and 8: asteroids), ``combat`` (chapters 3, 5 and 7: dogfights,
the colony station, planets) and ``turns`` (chapters 6 and 11: resources, the end of a
turn, players out, the end of the game), then the optional chapters: ``exploration`` (12),
``victory`` (13) and ``npc`` (14, the solo challenge's NPC fleet). A roll in progress (a
dogfight, a planet attack, an asteroid field) is one plain dict, ``pending``, so a state
stops anywhere. The fields' order, and which of them a clone shares, are in ``fields``.

Fleets and seats: every array indexed by player holds one entry per *fleet*
(``game.fleets``): the seats', and in the solo challenge the NPC's after them, which is not
a seat (it never decides; its turns run by themselves).

Ships are numbered per fleet: 0 the mothership, then fighters, then bombers. The grid
holds for each space its occupant: ``-1`` nobody, ``seat * 16 + ship`` a ship,
``seat * 16 + STATION`` a colony station.

Hidden information: the resources a player holds. Every change to them is announced
(income, loot), so a player who keeps count knows them; ``resample`` keeps them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from spacetable.engine import CHANCE, JSON, TERMINAL, Action, Event, Outcome, State

from ..content.language import TALLIES
from .board import Board
from .codes import CANNON, EMPTY, LOCKED, MOVED, NOWHERE, PHASES, STATION
from .fields import ALL_SHARED, COPIED, FIELDS, SHARED, SHARED_INDEX, plain, shared_field

if TYPE_CHECKING:
    from ..game import Mothership
    from . import dispatch as dispatch
else:
    dispatch = None
    """The rules' dispatch imports this module, so the package's ``__init__`` binds it here."""


JSON_KEYS = frozenset({*FIELDS, "layout"})
"""The keys of a state's JSON (its fields and the board's layout name)."""


class MothershipState(State):
    __slots__ = ("board", "game", "routes", "_parts", "_shared", *COPIED)

    game: Mothership
    board: Board | None
    phase: str
    board_seed: int
    """The generated board's seed; -1 for a layout's board."""
    grid: list[int]
    pos: list[list[int]]
    hp: list[int]
    """Each mothership's hull points."""
    station_hp: list[int]
    energy: list[list[int]]
    """Each seat's [engines, weapons, shields] energy."""
    shield: list[int]
    """Shield points each mothership has left this turn."""
    resources: list[int]
    owner: list[int]
    """Each planet's owner, -1 neutral."""
    cleared: list[list[int]]
    """The asteroid field each ship won its way into and has not left, else -1."""
    out: list[int]
    """0 for a player still in; else the number of turns played when the player was knocked out."""
    turn: int
    first: int
    round: int
    used: list[int]
    """Engine spaces each ship of the player on turn has used."""
    attacked: int
    """Bit mask: ships of the player on turn that have attacked (they move no more)."""
    locked: bool
    """The control panel of the player on turn is locked (energy set, or the mothership has moved or attacked)."""
    order_rolls: list[int]
    """The d6 rolled for who starts (0: not yet)."""
    pending: dict[str, Any] | None
    winners: list[int]
    reason: str
    deck: list[int]
    """Copies of each card kind left in the action deck (its order is chance's)."""
    hands: list[list[int]]
    """Each player's action cards (kinds, sorted)."""
    discard: list[int]
    """Copies of each kind in the discard pile (face up)."""
    known: list[list[list[int]]]
    """``known[observer][holder]``: cards ``observer`` knows ``holder`` has (taken from it by a steal)."""
    draws: list[int]
    """Seats owed a card from the deck, in order (chance draws them first)."""
    steal: list[int]
    """[thief, victim] while a blind steal is to be drawn, else []."""
    reward: list[int]
    """[capturer, previous owner] while the capturer chooses its card for the capture, else []."""
    bought: list[int]
    """Cards each player has bought (for reports)."""
    trading: list[int]
    """The end-of-turn window: the seats still to buy or sell before the next turn, in order."""
    played: list[int]
    """Copies of each kind played so far (for reports)."""
    effects: list[list[Any]]
    """Lasting card effects: [name, seat, ship, amount, until ("end"/"begin"), whose turn]."""
    playing: list[int]
    """[seat, card, unit, spot] of a card waiting on the window to cancel it, else []."""
    cancel: list[int]
    """The seats holding Noooooooooooo! still to say whether they cancel ``playing``."""
    escort: int
    """Bit mask of the turn player's ships next to its mothership when the turn began (Convoy)."""
    stations: list[int]
    """Each colony station's space (Migration moves one)."""
    branches: list[list[int]]
    """Per seat and category (economy, combat, support): the branch climbed (0-5), or -1."""
    tiers: list[list[int]]
    """Per seat and category: the tiers bought."""
    charges: list[int]
    """Overcharges (the orange tile) each seat holds for a roll."""
    bought_kinds: list[int]
    """Copies of each kind drawn by a purchase (for reports; hidden from the views)."""
    buying: int
    """1 while the next draw is a purchase's."""
    event_roll: list[int]
    """[player, outcome] while the player of a Random Event chooses to double or avoid it, else []."""
    artifacts: list[int]
    """Per planet: the artifact found there (an index of ``content.artifacts``), -1 while unexplored."""
    explorers: list[int]
    """Per planet: the seat that explored it, -1 while unexplored (for reports)."""
    exploring: int
    """The planet whose token is being turned over (chance draws its artifact), else -1."""
    points: list[int]
    """Each fleet's victory points (mode victory_points)."""
    respawns: list[list[int]]
    """Destroyed ships waiting to come back (mode victory_points): [seat, ship, due], ``due`` 1
    once the owner's next turn has begun (they return at its end)."""
    raiding: int
    """Solo: bit mask of the NPC bombers that have claimed their planet and fly at the station."""
    acted: int
    """Solo: bit mask of the NPC ships done with this turn."""
    choice: dict[str, Any] | None
    """A decision the rules ask for now (module :mod:`.choices`): ``seat`` answers, ``what``
    names it, ``options`` are the values it may choose; other keys are its context."""
    stuck: int
    """Black holes: bit mask of the turn player's ships that began the turn inside a black hole
    (no engines, no dogfights; rolled against again at the end of the turn)."""
    cannons: list[list[int]]
    """Each fleet's guardian cannons, by space (module :mod:`..modules.cannons`)."""
    tokens: list[list[int]]
    """Distress beacon tokens on the board: [space, unit shown (0 mothership, 1 fighter,
    2 bomber) or -1 locked]."""
    flipping: int
    """Locked tokens still to turn face up (chance shows each one's unit)."""
    beacon_deck: list[int]
    """Copies of each distress beacon card left in the deck (its order is chance's)."""
    beacon_discard: list[int]
    beacon_draw: list[int]
    """[seat, ship, token] while the beacon card of that activation is drawn, else []."""
    activated: int
    """What the player on turn has done once this turn, as bits (``beacons.ACTIVATED``: a
    beacon activated; ``beacons.REPLACED``: an objective replaced)."""
    kept: list[list[list[int]]]
    """Per seat: the beacon cards kept, as [card, kind, amount] (each blocks further beacons
    until it is used; module :mod:`..modules.beacons`)."""
    script: dict[str, Any] | None
    """A card being carried out (module :mod:`..modules.scripts`): ``seat``, ``ship``, ``source``
    (beacon/objective), ``card``, ``effects`` still to do."""
    objective_deck: list[int]
    objective_discard: list[int]
    objectives: list[list[int]]
    """Per seat: objective cards held (hidden; option objectives 'hidden')."""
    public_objectives: list[int]
    """The face-up objectives anyone may complete (option objectives 'global')."""
    completed: list[list[int]]
    """Per seat: objectives completed and not yet claimed (claimed on the player's own turn)."""
    objective_draws: list[int]
    """Seats owed an objective card, in order (-1: one more face up in the global row)."""
    tallies: list[list[int]]
    """Per fleet: deeds counted for objectives (module :mod:`..modules.objectives`, ``TALLIES``)."""
    beacon_log: list[list[int]]
    """Per beacon card (for reports): [drawn, discarded as it could not be done, option 1, option 2]."""
    objective_log: list[list[int]]
    """Per objective card (for reports): [drawn, completed, group 1 taken, group 2 taken, replaced,
    discarded for a module not in play]."""
    secret: list[list[int]]
    """Per fleet: [Replicator d4s rolled in secret, their sum]. The count is public, the sum is the
    fleet's own (RULINGS 35): ``resample`` re-rolls the others' (their resources with it)."""
    routes: dict[int, tuple[tuple[Any, ...], dict[int, tuple[int, bool]], tuple[Action, ...], dict[int, int]]]
    """Per ship: where it could move (``movement.reach``) and everything that reach was searched
    from, with the moves there as actions and each space's place among them; filled as asked and
    searched again when any of that changed. A clone shares it until either side applies an
    action (the apply copies it), so a clone's entries never overwrite the original's."""

    _parts: list[Any]
    """The fields of ``SHARED``, in order (read and set through their names)."""
    _shared: int
    """Bit ``i`` set: the ``i``-th field of ``SHARED`` may be shared with a clone (copied before
    its first use); bit ``len(SHARED)``: ``_parts`` itself may be."""

    def __init__(self, game: Mothership) -> None:
        self.game = game
        self._legal_cache = None
        self._parts = [None] * len(SHARED)
        self._shared = 0
        self.routes = {}
        n, ships = game.fleets, game.content.ships
        c = game.content
        self.board = game.layout_board
        self.phase = "place" if self.board is not None else "board"
        self.board_seed = -1
        self.grid = []
        self.pos = [[NOWHERE] * ships for _ in range(n)]
        self.hp = [c.mothership_hp] * n
        self.station_hp = [c.station_hp] * n
        self.energy = [list(c.start_energy) for _ in range(n)]
        self.shield = [c.shields[c.start_energy[2]]] * n
        self.resources = [0] * n
        self.owner = []
        self.cleared = [[-1] * ships for _ in range(n)]
        self.out = [0] * n
        self.turn = 0
        self.first = 0
        self.round = 0
        self.used = [0] * ships
        self.attacked = 0
        self.locked = False
        self.order_rolls = [0] * n
        self.pending = None
        self.winners = []
        self.reason = ""
        self.deck = dispatch.economy.start_deck(self)
        self.hands = [[] for _ in range(n)]
        self.discard = [0] * len(self.deck)
        self.known = [[[] for _ in range(n)] for _ in range(n)]
        self.draws = []
        self.steal = []
        self.reward = []
        self.bought = [0] * n
        self.trading = []
        self.played = [0] * len(self.deck)
        self.effects = []
        self.playing = []
        self.cancel = []
        self.escort = 0
        self.stations = []
        self.event_roll = []
        self.branches = [[-1, -1, -1] for _ in range(n)]
        self.tiers = [[0, 0, 0] for _ in range(n)]
        self.charges = [0] * n
        self.bought_kinds = [0] * len(self.deck)
        self.buying = 0
        self.artifacts = []
        self.explorers = []
        self.exploring = -1
        self.points = [0] * n
        self.respawns = []
        self.raiding = 0
        self.acted = 0
        self.choice = None
        self.stuck = 0
        self.cannons = [[] for _ in range(n)]
        self.tokens = []
        self.flipping = 0
        self.beacon_deck = [0] * len(self.game.content.beacons)
        self.beacon_discard = [0] * len(self.beacon_deck)
        self.beacon_draw = []
        self.activated = 0
        self.kept = [[] for _ in range(n)]
        self.script = None
        self.objective_deck = [0] * len(self.game.content.objectives)
        self.objective_discard = [0] * len(self.objective_deck)
        self.objectives = [[] for _ in range(n)]
        self.public_objectives = []
        self.completed = [[] for _ in range(n)]
        self.objective_draws = []
        self.tallies = [[0] * len(TALLIES) for _ in range(n)]
        self.beacon_log = [[0] * 4 for _ in self.beacon_deck]
        self.objective_log = [[0] * 6 for _ in self.objective_deck]
        self.secret = [[0, 0] for _ in range(n)]
        for started in self.game.hooks.state_started:  # the beacon and objective decks
            started(self)
        if self.board is not None:
            dispatch.setup.lay_out(self, self.board)  # layout boards are known from the start

    # ---- whose turn -------------------------------------------------------
    def current_player(self) -> int:
        if self.draws or self.steal or self.exploring >= 0:
            return CHANCE
        if self.beacon_draw or self.flipping or self.objective_draws:
            return CHANCE
        if self.choice is not None:
            return int(self.choice["seat"])
        if self.reward:
            return self.reward[0]
        if self.event_roll:
            return self.event_roll[0]
        if self.cancel:
            return self.cancel[0]
        if self.trading:
            return self.trading[0]
        phase = self.phase
        if phase == "turn":
            pending = self.pending
            if pending is None:
                return self.turn
            if pending.get("reroll") or pending.get("asker", -1) < 0:
                return CHANCE
            return dispatch.tactics.asked_seat(self)
        if phase == "over":
            return TERMINAL
        if phase == "place":
            return dispatch.setup.placer(self)
        return CHANCE

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat == CHANCE:
            return [a for a, _ in self._chance_outcomes()]
        if self.choice is not None:
            return dispatch.choices.options(self)
        if self.reward:
            return dispatch.economy.reward_options(self)
        for decision in self.game.hooks.decisions:  # a random event's choice
            actions = decision(self, seat)
            if actions is not None:
                return actions
        if self.cancel:
            return [*dispatch.cards.cancel_options(self, seat), dispatch.Pass()]
        if self.pending is not None:
            return dispatch.tactics.options(self)
        if self.trading:
            return [*dispatch.economy.trade_options(self, seat), dispatch.Pass()]
        if self.phase == "place":
            return dispatch.setup.placements(self, seat)
        return dispatch.turn_actions(self, seat)

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.draws:
            return dispatch.economy.draw_outcomes(self)
        if self.steal:
            return dispatch.economy.steal_outcomes(self)
        for chance in self.game.hooks.chance:  # an artifact, a beacon card or token, an objective
            outcomes = chance(self)
            if outcomes is not None:
                return outcomes
        if self.phase == "board":
            return self.game.board_outcomes
        if self.phase == "order":
            return dispatch.setup.order_outcomes(self)
        return dispatch.dice.outcomes(self)

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self.routes = self.routes.copy()
        return dispatch.apply(self, action, seat)

    def _why_illegal(self, action: Action, actor: int) -> str:
        return dispatch.why_illegal(self, action, actor)

    def action_label(self, action: Action) -> str:
        return dispatch.label(self, action)

    def action_note(self, action: Action) -> str | None:
        return dispatch.forecast.note(self, action)

    def action_warning(self, action: Action) -> str | None:
        return dispatch.forecast.warning(self, action)

    # ---- results ----------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.game.players  # seats (the solo challenge's NPC is not one)
        if self.phase != "over":
            return [0.0] * n
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return [share if s in self.winners else 0.0 for s in range(n)]

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        n = self.game.players
        if self.game.mode == "victory_points":  # scores are the points; ranks follow them
            scores = tuple(float(self.points[s]) for s in range(n))
            order = sorted(range(n), key=lambda s: (s not in self.winners, -self.points[s]))
        else:  # the winners first, then those knocked out later before those knocked out earlier
            scores = tuple(float(dispatch.turns.standing(self, s)) for s in range(n))
            order = sorted(range(n), key=lambda s: (s not in self.winners, -(self.out[s] or 10**9)))
        ranks = [0] * n
        for place, seat in enumerate(order):
            ranks[seat] = place + 1
        return Outcome(tuple(self.winners), self.reason, scores, tuple(ranks))

    # ---- information ------------------------------------------------------
    def view(self, seat: int | None) -> JSON:
        """Public: the board, the panels, hand sizes, the deck's size, the discard pile. The seat's
        own: its resources, its hand, the cards it knows others hold, and its objectives."""
        data = self.to_json()
        data["resources"] = [r if s == seat else None for s, r in enumerate(self.resources)]
        data["hands"] = [hand[:] if s == seat else len(hand) for s, hand in enumerate(self.hands)]
        data["known"] = [k[:] for k in self.known[seat]] if seat is not None else None
        data["deck"] = sum(self.deck)
        data["bought_kinds"] = None  # which cards were bought is only known to their buyers
        data["secret"] = [[n, total if s == seat else None] for s, (n, total) in enumerate(self.secret)]
        for hide in self.game.hooks.view:  # others' objectives
            hide(self, data, seat)
        if data["pending"] is not None:  # the odds of the roll in progress: public, alike for every seat
            odds = dispatch.forecast.forecast(self)
            data["pending"]["forecast"] = None if odds is None else odds.to_json()
        data["seat"] = seat
        data["to_act"] = list(self.awaiting())  # whose decision it is: public, for the table's words
        return data

    def resample(self, seat: int, rng: random.Random) -> MothershipState:
        """The deck and the other hands re-dealt (keeping the cards the seat knows of), and the
        objectives hidden from the seat. Resources are kept, as every change to them is announced
        (income, loot, prices, resale values), except what Replicator's secret d4s gave: those
        are re-rolled (RULINGS 35)."""
        other = self.clone()
        dispatch.economy.redeal(other, seat, rng)
        other.bought_kinds = [0] * len(self.bought_kinds)  # which kinds were bought: the buyers' own (reports only)
        for redeal in self.game.hooks.resample:  # others' hidden objectives
            redeal(other, seat, rng)
        for fleet, (dice, _total) in enumerate(self.secret):
            if fleet != seat and dice:  # Replicator's secret d4s: the seat knows how many, not what
                _reroll_secret(self, other, fleet, rng)
        return other

    def to_json(self) -> JSON:
        """Every field as plain JSON data sharing nothing with the state: a clone's fields (a
        clone copies every list the rules change in place), the nested dicts copied whole."""
        copy = self.clone()
        data: dict[str, JSON] = {name: getattr(copy, name) for name in FIELDS}
        data["pending"] = plain(self.pending)
        data["layout"] = self.board.name if self.board is not None else None
        return data

    @classmethod
    def from_fields(cls, game: Mothership, data: JSON) -> MothershipState:
        """The state of ``data``'s fields, which the game's schema has already validated
        (``Mothership.state_from_json``); ValueError if its board is not this game's."""
        state = cls.__new__(cls)
        state.game = game
        state._legal_cache = None
        state._parts = [None] * len(SHARED)
        state._shared = 0
        state.routes = {}
        for name in FIELDS:
            setattr(state, name, plain(data[name]))
        state.board = game.board_for(state.board_seed) if state.phase != "board" else None
        if (state.board.name if state.board else None) != data["layout"]:
            raise ValueError(f"board {data['layout']!r} is not this game's")
        return state

    def clone(self) -> MothershipState:
        other = _new_state(MothershipState)
        other.game = self.game
        other._legal_cache = None
        other.routes = self.routes
        other.board = self.board
        other.phase = self.phase
        other.board_seed = self.board_seed
        other.grid = self.grid[:]
        other.pos = [*map(list.copy, self.pos)]
        other.hp = self.hp[:]
        other.station_hp = self.station_hp[:]
        other.energy = [*map(list.copy, self.energy)]
        other.shield = self.shield[:]
        other.resources = self.resources[:]
        other.owner = self.owner[:]
        other.cleared = [*map(list.copy, self.cleared)]
        other.out = self.out[:]
        other.turn = self.turn
        other.first = self.first
        other.round = self.round
        other.used = self.used[:]
        other.attacked = self.attacked
        other.locked = self.locked
        pending = self.pending
        other.pending = None if pending is None else {k: v[:] if type(v) is list else v for k, v in pending.items()}
        other.reason = self.reason
        other.deck = self.deck[:]
        other.hands = [*map(list.copy, self.hands)]
        other.draws = self.draws[:]
        other.steal = self.steal[:]
        other.reward = self.reward[:]
        other.trading = self.trading[:]
        other.effects = [*map(list.copy, self.effects)]
        other.playing = self.playing[:]
        other.cancel = self.cancel[:]
        other.escort = self.escort
        other.stations = self.stations[:]
        other.event_roll = self.event_roll[:]
        other.branches = [*map(list.copy, self.branches)]
        other.tiers = [*map(list.copy, self.tiers)]
        other.charges = self.charges[:]
        other.buying = self.buying
        other.exploring = self.exploring
        other.raiding = self.raiding
        other.acted = self.acted
        other.choice = None if self.choice is None else plain(self.choice)
        other.stuck = self.stuck
        other.cannons = [*map(list.copy, self.cannons)]
        other.tokens = [*map(list.copy, self.tokens)]
        other.flipping = self.flipping
        other.beacon_draw = self.beacon_draw[:]
        other.activated = self.activated
        other.script = None if self.script is None else plain(self.script)
        other.objective_draws = self.objective_draws[:]
        other._parts = self._parts
        self._shared = other._shared = ALL_SHARED
        return other

    def peek(self, name: str) -> Any:
        """The field ``name`` of ``SHARED`` without making it this state's own (which a plain read
        does, copying it): for a look only, never to change or to keep."""
        return self._parts[SHARED_INDEX[name]]

    # ---- helpers the rules share -----------------------------------------
    def effect_total(self, name: str, seat: int, ship: int = -1) -> int:
        """The summed amounts of the lasting effects ``name`` on ``seat`` (and ``ship``, unless -1)."""
        effects = self.effects
        if not effects:  # the usual case, asked for every ship's reach: no generator built
            return 0
        return sum(e[3] for e in effects if e[0] == name and e[1] == seat and (ship < 0 or e[2] == ship))

    def has_effect(self, name: str, seat: int, ship: int = -1) -> bool:
        """Whether a lasting effect ``name`` is on ``seat`` (and ``ship``, unless -1)."""
        effects = self.effects
        return bool(effects) and any(e[0] == name and e[1] == seat and (ship < 0 or e[2] == ship) for e in effects)

    def expire(self, until: str, whose: int) -> None:
        """Drop the effects that last until ``whose`` ends (``"end"``) or begins (``"begin"``) a turn."""
        self.effects = [e for e in self.effects if not (e[4] == until and e[5] == whose)]

    def gone_planets(self) -> frozenset[int]:
        """The spaces of planets taken off the board (Planet Laser Pointer): empty space now."""
        board = self.board
        if board is None or -2 not in self.owner:
            return frozenset()
        return frozenset(board.planets[p] for p, o in enumerate(self.owner) if o == -2)

    def team(self, seat: int) -> int:
        return seat % self.game.teams

    def friendly(self, a: int, b: int) -> bool:
        return a % self.game.teams == b % self.game.teams

    def player_name(self, seat: int) -> str:
        return "NPC" if seat == self.game.npc else f"Player {seat + 1}"

    def ship_name(self, seat: int, ship: int) -> str:
        return f"{self.player_name(seat)}'s {self.game.ship_names[ship]}"


_new_state = object.__new__


for _index, (_name, _depth) in enumerate(SHARED.items()):
    setattr(MothershipState, _name, shared_field(_index, _depth))


def _reroll_secret(real: MothershipState, other: MothershipState, fleet: int, rng: random.Random) -> None:
    """Re-roll ``fleet``'s secret d4s in ``other`` (a resample), moving its resources by the
    difference, among the rolls that leave it the same trade options: who a trading window asks
    is public and tells whether a player can afford a card or a tech (RULINGS 35). After 30 draws
    that all change them, the true sum stays."""
    dice, total = real.secret[fleet]

    def paid(state: MothershipState) -> list[Action]:  # what resources buy (a sale depends on the hand)
        return [a for a in dispatch.economy.trade_options(state, fleet) if a[-1] != "sell"]

    options = paid(real)
    for _ in range(30):
        fresh = sum(rng.randint(1, 4) for _ in range(dice))
        resources = real.resources[fleet] - total + fresh
        if resources < 0:
            continue
        other.resources[fleet] = resources
        if paid(other) == options:
            other.secret[fleet] = [dice, fresh]
            return
    other.resources[fleet] = real.resources[fleet]


__all__ = ["CANNON", "EMPTY", "LOCKED", "MOVED", "NOWHERE", "PHASES", "STATION", "MothershipState"]
