"""The SpaceRace state: plain data and the protocol; ``dispatch`` hands actions to the chapters.

Set-up runs starways -> order -> homeworld -> design (:mod:`.setup`); then turns
run rebuild -> move (:mod:`.turns`), a move's arrival possibly opening a battle
(initiative -> standoff -> contest -> reward, :mod:`.battle`), an encounter (an
[S] card drawn), a conquest roll and treasure draws (:mod:`.planets`).

Nothing is hidden: the decks are kept as the number of copies of each card left,
and every draw is a chance node over the cards left, so the order of a face-down
deck is never part of the state. A state is read back from JSON, every field checked, by
:mod:`.reading`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple

from spacetable.engine import CHANCE, JSON, TERMINAL, Action, Event, Outcome, Roll, State

from ..content import Stats, numbered
from .actions import (
    Assimilate,
    Contest,
    Design,
    Destroy,
    DrawShip,
    DrawTreasure,
    EndTurn,
    Flee,
    Homeworld,
    LayStarway,
    Move,
)
from .mapgen import NEXUS
from .ships import MOTHERSHIP, Ship

if TYPE_CHECKING:
    from ..game import SpaceRace
    from . import dispatch as dispatch
else:
    dispatch = None
    """The rules' dispatch (``dispatch``) imports this module, so the package's ``__init__`` binds
    it here once both are loaded: the state imports no rule."""

PHASES = (
    "starways",
    "order",
    "homeworld",
    "design",
    "rebuild",
    "move",
    "initiative",
    "standoff",
    "contest",
    "reward",
    "encounter",
    "conquest",
    "treasure",
    "over",
)
CHANCE_PHASES = frozenset(
    {"starways", "order", "rebuild", "initiative", "contest", "encounter", "conquest", "treasure"}
)
PVM = "pvm"
"""A battle's kinds: against a map ship, between players, a planetary assault (the defender orbits
its own planet); its sides: ATTACKER (the moving ship) and DEFENDER."""
PVP = "pvp"
ASSAULT = "assault"
ATTACKER = 1
DEFENDER = 2
KIND_NAMES = {PVM: "player vs map", PVP: "player vs player", ASSAULT: "planetary assault"}


class Battle(NamedTuple):
    """The battle in progress (module ``battle`` runs it). The attacker is the moving ship
    (``state.moving`` of ``state.turn``)."""

    kind: str
    """PVM, PVP or ASSAULT."""
    foe: int
    """The defending seat, or -1 for a map ship."""
    foe_ship: int
    """The defender's place in its fleet, or the map ship's card id."""
    first: int
    """Who strikes first: ATTACKER, DEFENDER, or 0 while the initiative is being rolled."""
    roll: int
    """In a dice contest, the attacker's die once rolled (0 before)."""
    winner: int
    """ATTACKER or DEFENDER once decided (PvP: while the winner chooses the reward), else 0."""


PLAYER_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Cyan")
_D6 = [(Roll(v), 1 / 6) for v in range(1, 7)]
_STANDOFF_CHOICES: list[Action] = [Contest(), Flee()]
_REWARD_CHOICES: list[Action] = [Assimilate(), Destroy()]
_WAITING_FOR = {
    "starways": "a starway card to be drawn",
    "order": "a die roll for the order of choice",
    "homeworld": "a homeworld choice",
    "design": "a mothership design",
    "rebuild": "the mothership's rebuild roll",
    "move": "a move or the end of the turn",
    "initiative": "the initiative dice",
    "standoff": "the attacker's choice to contest or flee",
    "contest": "the standoff dice",
    "reward": "the winner's choice to assimilate or destroy",
    "encounter": "a spaceship card to be drawn",
    "conquest": "the planetary conquest roll",
    "treasure": "a treasure card to be drawn",
}


class SpaceRaceState(State):
    game: SpaceRace
    __slots__ = (
        "battle",
        "content",
        "designs",
        "draws",
        "fleets",
        "galaxy",
        "game",
        "homeworld",
        "moving",
        "named",
        "order",
        "origin",
        "out",
        "owner",
        "phase",
        "reason",
        "rebuilding",
        "rolls",
        "round",
        "ship_deck",
        "starter",
        "starway_deck",
        "tiles",
        "treasure_deck",
        "turn",
        "winners",
    )

    def __init__(self, game: SpaceRace) -> None:
        players = game.players
        self.game = game
        self.galaxy = game.galaxy
        self.content = game.content
        self._legal_cache = None
        self.phase = "starways" if game.galaxy.starways else "order"
        self.tiles: str = game.galaxy.marks
        """Per node: N nexus, P planet, or a tile's T / S / . (? before its card is drawn)."""
        self.starway_deck: list[int] = list(game.starway_counts)
        """Copies left of each starway card (the deck of the chosen density)."""
        self.ship_deck: list[int] = list(game.content.ship_counts)
        self.treasure_deck: list[int] = list(game.content.treasure_counts)
        self.rolls: list[int] = [0] * players
        """Each seat's d6 for the order of choice (0: not rolled yet)."""
        self.order: list[int] = []
        """Seats in the order they choose homeworlds (and design motherships)."""
        self.homeworld: list[int] = [-1] * players
        self.designs: list[Stats | None] = [None] * players
        self.owner: list[int] = [-1] * game.galaxy.size
        """Per node: the seat controlling that planet, else -1."""
        self.fleets: list[list[Ship]] = [[] for _ in range(players)]
        self.rebuilding: list[bool] = [False] * players
        """The seat's mothership is destroyed and waits to be rebuilt."""
        self.out: list[bool] = [False] * players
        """Eliminated: no planet and no ship left."""
        self.turn = 0
        self.starter = 0
        self.round = 0
        self.battle: Battle | None = None
        self.moving = -1
        """The fleet place of the turn's moving ship while its move resolves, else -1."""
        self.origin = -1
        """Where the moving ship came from (a ship that flees goes back there), else -1."""
        self.draws = 0
        """Treasure cards the moving ship still draws."""
        self.named = 0
        """Ships named so far (the next captured ship takes the next name)."""
        self.winners: list[int] = []
        self.reason = ""

    # ---- protocol ---------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase == "over":
            return TERMINAL
        if phase == "homeworld" or phase == "design":
            return dispatch.chooser(self)
        if phase == "reward":
            assert self.battle is not None
            return self.turn if self.battle.winner == ATTACKER else self.battle.foe
        return self.turn

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.phase
        if phase == "starways":
            return _draws(self.game.lay_actions, self.starway_deck)
        if phase == "encounter":
            return _draws(self.game.draw_ship_actions, self.ship_deck)
        if phase == "treasure":
            return _draws(self.game.draw_treasure_actions, self.treasure_deck)
        if phase == "order":
            faces = dispatch.order_faces(self)
            return [(Roll(v), 1 / len(faces)) for v in faces]
        if (phase == "initiative" or phase == "contest") and self.battle is not None and self.battle.roll:
            first = self.battle.roll
            return [(Roll(v), 0.2) for v in range(1, 7) if v != first]
        return list(_D6)

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase in CHANCE_PHASES:
            return [a for a, _ in self._chance_outcomes()]
        if phase == "move":
            return dispatch.moves(self)
        if phase == "homeworld":
            return [Homeworld(p) for p in dispatch.free_planets(self)]
        if phase == "design":
            return self.game.design_actions
        if phase == "standoff":
            return _STANDOFF_CHOICES
        if phase == "reward":
            return _REWARD_CHOICES
        return []

    def _apply(self, action: Action, seat: int) -> list[Event]:
        events: list[Event] = []
        dispatch.apply(self, action, seat, events)
        return events

    def _why_illegal(self, action: Action, actor: int) -> str:
        phase = self.phase
        if phase == "over":
            return "the game is over"
        expected = _WAITING_FOR[phase]
        if isinstance(action, Move) and phase == "move":
            return self._why_not_move(action)
        if isinstance(action, Homeworld) and phase == "homeworld":
            owner = self.homeworld.index(action.planet)
            return f"{self.galaxy.names[action.planet]} is already {self.player_name(owner)}'s homeworld"
        if isinstance(action, Design) and phase == "design":
            c = self.content
            return (
                f"a mothership has {c.mothership_points} points, at least {c.mothership_minimum} on each score "
                f"(D{action.d} M{action.m} A{action.a} does not fit)"
            )
        if isinstance(action, Flee) and phase == "contest":
            return "the dice are settling this standoff (only an attacker with the higher M may flee, before the dice)"
        return f"the game is waiting for {expected}"

    def _why_not_move(self, action: Move) -> str:
        fleet = self.fleets[self.turn]
        if action.ship >= len(fleet):
            return f"{self.player_name(self.turn)} has {len(fleet)} ship(s): there is no ship #{action.ship}"
        ship = fleet[action.ship]
        if ship.acted:
            return f"{ship.name} has already moved this turn"
        if ship.wait:
            return f"{ship.name} may not move before a later turn (customs at the Nexus, or just joined the fleet)"
        if not ship.m:
            return f"{ship.name} has M 0 and cannot move"
        return (
            f"{self.galaxy.place(action.to)} is not within {ship.m} step(s) of {self.galaxy.place(ship.node)} "
            "without passing the Nexus or enemy ships"
        )

    def action_label(self, action: Action) -> str:
        galaxy, content = self.galaxy, self.content
        if isinstance(action, Move):
            fleet = self.fleets[self.turn]
            ship = fleet[action.ship] if action.ship < len(fleet) else None
            what = ship.label() if ship else f"ship {action.ship}"
            return f"{what} to {galaxy.place(action.to)}{self.describe_target(action.to)}"
        if isinstance(action, Roll):
            return f"roll {action.value}"
        if isinstance(action, EndTurn):
            return "end the turn"
        if isinstance(action, DrawShip):
            d, m, a = content.ships[action.card]
            return f"draw spaceship [{d}|{m}|{a}]"
        if isinstance(action, DrawTreasure):
            return f"draw treasure: {content.treasure[action.card].describe()}"
        if isinstance(action, Contest):
            return "contest the standoff: a d6 each"
        if isinstance(action, Flee):
            return f"flee back to {galaxy.place(self.origin)}" if self.origin >= 0 else "flee"
        if isinstance(action, Assimilate | Destroy):
            return self._reward_label(isinstance(action, Assimilate))
        if isinstance(action, LayStarway):
            return f"lay starway [{' '.join(self.game.starway_patterns[action.card])}]"
        if isinstance(action, Homeworld):
            steps = galaxy.distance[NEXUS][action.planet]
            return f"homeworld {galaxy.names[action.planet]} ({steps} step{'s' if steps > 1 else ''} from the Nexus)"
        if isinstance(action, Design):
            return f"mothership [D{action.d}|M{action.m}|A{action.a}]"
        return repr(action)

    def action_warning(self, action: Action) -> str | None:
        """A move that loses the mothership, or the last ship with no planet held (RULINGS.md 38)."""
        return dispatch.warning(self, action)

    def describe_target(self, node: int) -> str:
        """What a ship moving to ``node`` meets there, in a few words (for menus)."""
        seat = self.turn
        foe = self.occupant(node, seat)
        if foe >= 0:
            held = self.owner[node] == foe
            return f" (attack {self.player_name(foe)}{': planetary assault' if held else ''})"
        if node == NEXUS:
            return " (customs: wait there)"
        mark = self.tiles[node]
        if mark == "T":
            return " (treasure)"
        if mark == "S":
            return " (spaceship encounter)"
        if self.galaxy.names[node]:
            owner = self.owner[node]
            if owner == seat:
                return " (yours)"
            return " (take it)" if owner < 0 else f" (take it from {self.player_name(owner)})"
        return ""

    def _reward_label(self, assimilate: bool) -> str:
        b = self.battle
        if b is None or not b.winner:
            return "assimilate" if assimilate else "destroy"
        loser = self.fleets[b.foe][b.foe_ship] if b.winner == ATTACKER else self.fleets[self.turn][self.moving]
        if assimilate:
            return f"assimilate {loser.label()} into your fleet"
        cards = len(loser.treasure)
        return f"destroy {loser.label()} and take its {cards} treasure card{'s' if cards != 1 else ''}"

    # ---- results ----------------------------------------------------------------------
    def returns(self) -> list[float]:
        players = self.game.players
        if self.phase != "over":
            return [0.0] * players
        won = len(self.winners)
        lost = players - won
        return [1.0 / won if s in self.winners else (-1.0 / lost) for s in range(players)]

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        players = range(self.game.players)
        standings = [dispatch.standing(self, s) for s in players]
        keys = [(s in self.winners, *standings[s]) for s in players]
        ranks = tuple(1 + sum(1 for other in keys if other > keys[s]) for s in players)
        return Outcome(
            winners=tuple(self.winners),
            reason=self.reason,
            scores=tuple(float(standings[s][0]) for s in players),
            ranks=ranks,
        )

    # ---- facts the chapters share -------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    def player_name(self, seat: int) -> str:
        return PLAYER_NAMES[seat]

    def occupant(self, node: int, seat: int) -> int:
        """A seat other than ``seat`` with ships on ``node``, else -1 (there is at most one)."""
        for other, fleet in enumerate(self.fleets):
            if other != seat:
                for ship in fleet:
                    if ship.node == node:
                        return other
        return -1

    def fleet_room(self, seat: int) -> int:
        """Ships ``seat`` may still add (a mothership waiting to be rebuilt keeps its place)."""
        return self.content.fleet_limit - len(self.fleets[seat]) - self.rebuilding[seat]

    def base_scores(self, seat: int, ship: Ship) -> Stats:
        """The scores before treasure: the card's, or the owner's design for a mothership."""
        if ship.card == MOTHERSHIP:
            design = self.designs[seat]
            assert design is not None
            return design
        return self.content.ships[ship.card]

    def next_ship_name(self) -> str:
        name = numbered(self.content.ship_names, self.named)
        self.named += 1
        return name

    def mothership_name(self, seat: int) -> str:
        return f"Mothership {self.galaxy.names[self.homeworld[seat]]}"

    def clear_tile(self, node: int) -> None:
        self.tiles = self.tiles[:node] + "." + self.tiles[node + 1 :]

    # ---- information ----------------------------------------------------------------------
    def to_json(self) -> JSON:
        b = self.battle
        return {
            "phase": self.phase,
            "tiles": self.tiles,
            "starway_deck": list(self.starway_deck),
            "ship_deck": list(self.ship_deck),
            "treasure_deck": list(self.treasure_deck),
            "rolls": list(self.rolls),
            "order": list(self.order),
            "homeworld": list(self.homeworld),
            "designs": [list(d) if d is not None else None for d in self.designs],
            "owner": list(self.owner),
            "fleets": [
                [[s.card, s.name, s.node, list(s.treasure), s.wait, s.acted] for s in fleet] for fleet in self.fleets
            ],
            "rebuilding": list(self.rebuilding),
            "out": list(self.out),
            "turn": self.turn,
            "starter": self.starter,
            "round": self.round,
            "battle": list(b) if b is not None else None,
            "moving": self.moving,
            "origin": self.origin,
            "draws": self.draws,
            "named": self.named,
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def view(self, seat: int | None) -> JSON:
        return self.to_json()  # nothing is hidden: the decks are public counts, every draw is chance

    def resample(self, seat: int, rng: random.Random) -> SpaceRaceState:
        return self.clone()

    def clone(self) -> SpaceRaceState:
        new = object.__new__(SpaceRaceState)
        new.game = self.game
        new.galaxy = self.galaxy
        new.content = self.content
        new._legal_cache = self._legal_cache
        new.phase = self.phase
        new.tiles = self.tiles
        new.starway_deck = self.starway_deck[:]
        new.ship_deck = self.ship_deck[:]
        new.treasure_deck = self.treasure_deck[:]
        new.rolls = self.rolls[:]
        new.order = self.order[:]
        new.homeworld = self.homeworld[:]
        new.designs = self.designs[:]
        new.owner = self.owner[:]
        new.fleets = [fleet[:] for fleet in self.fleets]
        new.rebuilding = self.rebuilding[:]
        new.out = self.out[:]
        new.turn = self.turn
        new.starter = self.starter
        new.round = self.round
        new.battle = self.battle
        new.moving = self.moving
        new.origin = self.origin
        new.draws = self.draws
        new.named = self.named
        new.winners = self.winners[:]
        new.reason = self.reason
        return new


def _draws(actions: tuple[Action, ...], deck: list[int]) -> list[tuple[Action, float]]:
    """Each card left in ``deck`` (``actions[card]`` draws it) with its share of the copies left."""
    total = sum(deck)
    return [(actions[card], count / total) for card, count in enumerate(deck) if count]
