"""A SpaceRace position's value for bots: what a player weighs at a glance.

Each player's standing counts planets held; the fleet, each ship by its chance
to beat a spaceship drawn from the deck (so a design or a treasure card is worth
what it does in battle); for each ship, the nearest planet it could take,
discounted by the turns of travel (the Nexus's customs included) and, if ships
orbit it, by the odds of the assault; and the held planets left with no ship in
orbit that an enemy ship can reach next turn. A seat's value is its standing
minus its rivals' (half the strongest, half the average). A battle in progress
counts by its odds: the dice still to roll and the tables. Before the
motherships exist, a homeworld is valued by the planets nearer to it than to
the others. The weights are a hand-tuned default; the win rates they give are
in RULINGS.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content import Stats
from ..rules.battle import chances, fighting_scores
from ..rules.planets import planet_count
from ..rules.ships import Ship
from ..rules.state import ASSAULT, ATTACKER, PVM

if TYPE_CHECKING:
    from ..game import SpaceRace
    from ..rules.state import SpaceRaceState

WIN = 1000.0
PLANET = 10.0
SHIP = 3.0
POWER = 8.0
"""A ship's value is SHIP + POWER x its chance to beat a spaceship card."""
MOTHERSHIP_LOST = 4.0
PROSPECT = 5.0
"""A ship's next planet is worth PROSPECT x the odds of taking it, less TRAVEL per turn of travel (at least 0)."""
TRAVEL = 0.8
EXPOSED = 0.4
"""Share of a planet's value at risk when it has no ship in orbit and an enemy ship can reach it."""
TREASURE_DRAW = 0.8
TERRITORY = 1.5
"""Set-up only: per planet nearer to a homeworld than to any other."""
SETUP_PHASES = frozenset({"starways", "order", "homeworld"})


class Heuristic:
    """The evaluation for one game (deck, map and options fixed), with its caches."""

    def __init__(self, game: SpaceRace) -> None:
        self.game = game
        self.galaxy = game.galaxy
        self.deck = list(zip(game.content.ships, game.content.ship_counts))
        self.single = game.options["combat"] == "single"
        self.map_rolls = game.options["map_initiative"] == "roll"
        self.delay = game.options["nexus_delay"]
        self.direct = game.galaxy.direct
        self._power: dict[Stats, float] = {}
        self._nearest: dict[tuple[int, int], list[tuple[int, int]]] = {}

    # ---- battles ---------------------------------------------------------------------------
    def power(self, stats: Stats) -> float:
        """The chance that a ship with these scores beats a spaceship card drawn from the full deck."""
        cached = self._power.get(stats)
        if cached is None:
            total = wins = 0.0
            for card, count in self.deck:
                total += count
                wins += count * self.odds(stats, card, map_ship=True)
            cached = self._power[stats] = wins / total
        return cached

    def odds(self, attacker: Stats, defender: Stats, map_ship: bool, first_roll: int = 0) -> float:
        """The attacker's chance to win a battle not yet begun (a standoff is settled by the dice).

        ``first_roll``: the attacker's die, when the initiative dice are being rolled.
        """
        first = (first_roll - 1) / 5 if first_roll else 0.5
        if map_ship and not self.map_rolls:
            first = 1.0
        ends = chances(attacker, defender, self.single, first)
        return ends.attacker + 0.5 * ends.standoff

    def ship_value(self, ship: Ship) -> float:
        return SHIP + POWER * self.power(ship.stats)

    # ---- travel ------------------------------------------------------------------------------
    def turns(self, start: int, goal: int, speed: int) -> int:
        """Turns for a ship of M ``speed`` to get from ``start`` to ``goal``, waiting at the Nexus if it passes."""
        return self.galaxy.travel_turns(start, goal, speed, self.delay)

    def nearest(self, node: int, speed: int) -> list[tuple[int, int]]:
        """Every planet as (turns of travel, planet) from ``node`` at M ``speed``, nearest first."""
        key = (node, speed)
        found = self._nearest.get(key)
        if found is None:
            found = self._nearest[key] = sorted((self.turns(node, p, speed), p) for p in self.galaxy.planets)
        return found

    # ---- the evaluation ------------------------------------------------------------------------
    def evaluate(self, state: SpaceRaceState, seat: int) -> float:
        if state.phase == "over":
            return WIN * state.returns()[seat]
        if state.phase in SETUP_PHASES:
            return TERRITORY * self._territory(state, seat) if state.homeworld[seat] >= 0 else 0.0
        players = state.game.players
        rivals = [self._standing(state, s) for s in range(players) if s != seat and not state.out[s]]
        value = self._standing(state, seat)
        if rivals:
            value -= 0.5 * max(rivals) + 0.5 * sum(rivals) / len(rivals)
        if state.battle is not None:
            value += self._battle(state, seat)
        if state.draws and seat == state.turn:
            value += TREASURE_DRAW * state.draws
        return value

    def _standing(self, state: SpaceRaceState, seat: int) -> float:
        owner = state.owner
        fleet = state.fleets[seat]
        value = PLANET * planet_count(state, seat)
        if state.rebuilding[seat]:
            value -= MOTHERSHIP_LOST
        guards: dict[int, list[Ship]] = {}
        for other, ships in enumerate(state.fleets):
            if other != seat:
                for ship in ships:
                    guards.setdefault(ship.node, []).append(ship)
        for ship in fleet:
            value += self.ship_value(ship)
            if ship.m:
                value += self._prospect(state, seat, ship, guards)
        guarded = {ship.node for ship in fleet}
        direct = self.direct
        for p in self.galaxy.planets:
            if owner[p] == seat and p not in guarded:
                for ships in guards.values():
                    if any(s.m and s.wait <= 1 and 0 <= direct[s.node][p] <= s.m for s in ships):
                        value -= EXPOSED * PLANET
                        break
        return value

    def _prospect(self, state: SpaceRaceState, seat: int, ship: Ship, guards: dict[int, list[Ship]]) -> float:
        """The best planet for ``ship`` to take next: PROSPECT x the odds against its defenders, less TRAVEL a turn."""
        owner = state.owner
        held_up = max(ship.wait - 1, 0)  # a wait of 1 only means "from the next turn"
        best = 0.0
        for turns, planet in self.nearest(ship.node, ship.m):
            if PROSPECT - TRAVEL * (turns + held_up) <= best:
                break  # farther planets cannot do better
            if owner[planet] == seat:
                continue
            chance = 1.0
            defenders = guards.get(planet)
            if defenders:
                toughest = max((2 * s.d, 0, s.a) for s in defenders)
                chance = self.odds(ship.stats, toughest, map_ship=False) ** len(defenders)
            best = max(best, PROSPECT * chance - TRAVEL * (turns + held_up))
        return best

    def _territory(self, state: SpaceRaceState, seat: int) -> int:
        """Planets strictly nearer to ``seat``'s homeworld than to any other homeworld."""
        distance = self.galaxy.distance
        mine = distance[state.homeworld[seat]]
        others = [distance[h] for s, h in enumerate(state.homeworld) if s != seat and h >= 0]
        return sum(1 for p in self.galaxy.planets if all(mine[p] < row[p] for row in others))

    def _battle(self, state: SpaceRaceState, seat: int) -> float:
        """The battle in progress at its odds, for ``seat`` (0 for a seat not in it)."""
        battle = state.battle
        assert battle is not None
        if seat != state.turn and seat != battle.foe:
            return 0.0
        attacker_ship = state.fleets[state.turn][state.moving]
        attacker, defender = fighting_scores(state, battle)
        if battle.winner:
            p = 1.0 if battle.winner == ATTACKER else 0.0
        elif state.phase == "initiative":
            p = self.odds(attacker, defender, battle.kind == PVM, battle.roll)
        elif state.phase == "contest":
            p = (battle.roll - 1) / 5 if battle.roll else 0.5
        else:  # a standoff, before the attacker contests or flees
            p = 0.5
        if battle.kind == PVM:
            captured = SHIP + POWER * self.power(state.content.ships[battle.foe_ship])
            gain = captured if state.fleet_room(state.turn) > 0 else 0.0
            return p * gain - (1 - p) * self._loss(attacker_ship)
        defender_ship = state.fleets[battle.foe][battle.foe_ship]
        node = defender_ship.node
        last = sum(1 for ship in state.fleets[battle.foe] if ship.node == node) == 1
        stake = PLANET if battle.kind == ASSAULT and last else 0.0
        swing = p * (self._loss(defender_ship) + stake) - (1 - p) * self._loss(attacker_ship)
        return swing if seat == state.turn else -swing

    def _loss(self, ship: Ship) -> float:
        return self.ship_value(ship) + (MOTHERSHIP_LOST if ship.is_mothership else 0.0)
