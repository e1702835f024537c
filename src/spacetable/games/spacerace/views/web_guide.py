"""The guide line and the end screen's words, from a view alone.

:func:`guide` says, in one line, what the game waits for and from whom: the set-up's choices
(homeworld, mothership design), a turn's move, a battle's standoff and reward, and the dice and
cards chance is drawing; to the seat that decides, what it may do now and how on the board.
:func:`explain_outcome` says who won, how, and what the scores count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Outcome
from spacetable.engine.words import count

from ..content import listed
from ..rules.actions import Move
from ..rules.planets import EVERY_PLANET, LAST_STANDING, TURN_LIMIT
from ..rules.state import ATTACKER, PLAYER_NAMES
from .web_context import ShipView, deciding_seat, ship_views

if TYPE_CHECKING:
    from ..game import SpaceRace


def guide(game: SpaceRace, view: Mapping[str, Any], seat: int | None, actions: Sequence[Action] = ()) -> str:
    """The line for ``seat`` (None: a spectator) at ``view``; ``actions``: its legal moves."""
    phase = view["phase"]
    if phase == "over":
        return _game_over(game, view, seat)
    actor = deciding_seat(view)
    mine = actor >= 0 and actor == seat
    stage = f"Round {view['round']}" if view["round"] else "Set-up"
    if view["round"] and game.options["turn_limit"]:
        stage += f" of {game.options['turn_limit']}"
    out = "You are out of the game · " if seat is not None and view["out"][seat] else ""
    if actor >= 0:
        line = _decision(game, view, phase, actions) if mine else _waiting(game, view, phase, actor)
    else:
        line = _chance(game, view, phase)
    return f"{out}{stage} · {line}"


def _decision(game: SpaceRace, view: Mapping[str, Any], phase: str, actions: Sequence[Action]) -> str:
    """What the seat deciding now may do, and how on the board."""
    c = game.content
    if phase == "homeworld":
        return "Your choice: tap a free planet to make it your homeworld (the last to choose starts the game)"
    if phase == "design":
        return (
            f"Your choice: design your mothership, {c.mothership_points} points over D, M and A, at least "
            f"{c.mothership_minimum} each: tap a D, then an M, and A takes the rest"
        )
    if phase == "standoff":
        origin = game.galaxy.place(view["origin"])
        return (
            f"Standoff at {_battle_place(game, view)} · Your choice: contest with a die each, or flee back to {origin}"
        )
    if phase == "reward":
        loser = _beaten(game, view)
        cards = len(loser.treasure)
        spoils = f"and take its {count(cards, 'treasure card')}" if cards else "(it carries no treasure)"
        return f"You won the battle · Your choice: assimilate {loser.label} into your fleet, or destroy it {spoils}"
    ready = len({a.ship for a in actions if isinstance(a, Move)})
    every = game.options["fleet_moves"] == "all"
    what = "move each ship once if you wish" if every else "move one ship"
    end = "then end the turn" if every else "or end the turn"
    return f"Your turn: {what} ({count(ready, 'ship')} ready): tap it, then where it flies; {end}"


def _waiting(game: SpaceRace, view: Mapping[str, Any], phase: str, seat: int) -> str:
    """Whose decision the table waits for, and what it is."""
    who = PLAYER_NAMES[seat]
    if phase == "homeworld":
        return f"Waiting for {who}: choose a homeworld"
    if phase == "design":
        return f"Waiting for {who}: design a mothership"
    if phase == "standoff":
        return f"Standoff at {_battle_place(game, view)} · Waiting for {who}: contest with a die each, or flee"
    if phase == "reward":
        loser = _beaten(game, view).label
        return f"{who} won the battle · Waiting for {who}: assimilate {loser}, or destroy it for its treasure"
    return f"Waiting for {who}: move a ship or end the turn"


def _chance(game: SpaceRace, view: Mapping[str, Any], phase: str) -> str:
    """What chance is deciding now (the table draws it at once)."""
    turn = PLAYER_NAMES[view["turn"]]
    if phase == "starways":
        return "The starway cards are drawn and laid"
    if phase == "order":
        return "A die each decides who chooses a homeworld first"
    if phase == "rebuild":
        held = sum(1 for p in game.galaxy.planets if view["owner"][p] == view["turn"])
        target = game.content.rebuild_target
        return f"{turn}'s rebuild roll: a die + {count(held, 'planet')} held, {target} or more rebuilds the mothership"
    where = _battle_place(game, view)
    if phase == "initiative":
        return f"Battle at {where}: equal M, a die each for the first strike"
    if phase == "contest":
        return f"Standoff at {where}: a die each, the higher wins"
    if phase == "encounter":
        return f"{turn}'s ship meets a wild spaceship at {where}: its card is drawn"
    if phase == "conquest":
        return f"{turn} takes {where}: the conquest roll for treasure"
    return f"{turn}'s ship at {where} draws {count(view['draws'], 'treasure card')}"


def _battle_place(game: SpaceRace, view: Mapping[str, Any]) -> str:
    """Where the moving ship is (its battle, its encounter, the planet it takes)."""
    fleet = view["fleets"][view["turn"]]
    return game.galaxy.place(fleet[view["moving"]][2])


def _beaten(game: SpaceRace, view: Mapping[str, Any]) -> ShipView:
    """The ship beaten in the battle whose winner is choosing its reward."""
    fleets = ship_views(view, game.content)
    _, foe, foe_ship, _, _, winner = view["battle"]
    loser: ShipView = fleets[foe][foe_ship] if winner == ATTACKER else fleets[view["turn"]][view["moving"]]
    return loser


def _game_over(game: SpaceRace, view: Mapping[str, Any], seat: int | None) -> str:
    winners = list(view["winners"])
    if seat is not None and seat in winners:
        head = "you won" if len(winners) == 1 else f"you share the win with {listed(_others(winners, seat))}"
    else:
        head = f"{listed([PLAYER_NAMES[s] for s in winners])} {'wins' if len(winners) == 1 else 'share the win'}"
    return f"Game over after round {_last_round(game, view)}: {head} ({view['reason']})"


# ---- the end screen -----------------------------------------------------------------------------


def explain_outcome(game: SpaceRace, view: Mapping[str, Any], outcome: Outcome, seat: int | None) -> str:
    """Who won and how, for ``seat`` (None: a spectator), then what the scores count."""
    winners = list(outcome.winners)
    planets = len(game.galaxy.planets)
    names = [PLAYER_NAMES[s] for s in winners]
    if seat in winners:
        head = "You win" if len(winners) == 1 else f"You and {listed(_others(winners, seat))} share the win"
    else:
        head = f"{listed(names)} {'wins' if len(winners) == 1 else 'share the win'}"
        if seat is not None:
            head = f"You lose: {head}"
    if outcome.reason == EVERY_PLANET:
        how = f"{head} by taking all {planets} planets of the galaxy."
    elif outcome.reason == LAST_STANDING:
        how = f"{head} as the last player left: every rival is out, with no planet and no ship."
    else:
        most, last = int(max(outcome.scores)), _last_round(game, view)
        how = f"{head} at the round limit, holding the most planets after round {last}: {most} of {planets}."
    if seat is not None and seat not in winners and view["out"][seat]:
        how += " You were knocked out, left with no planet and no ship."
    scores = f"Each score counts the planets a player holds at the end, out of {planets}"
    if outcome.reason == TURN_LIMIT:
        scores += "; equal planets are ranked by fleet strength, the D + M + A of all the player's ships"
    return f"{how} {scores}."


def _last_round(game: SpaceRace, view: Mapping[str, Any]) -> int:
    """The round the game ended in (the round counter passes the limit when the limit ends it)."""
    limit = game.options["turn_limit"]
    played: int = view["round"]
    return min(played, limit) if limit else played


def _others(winners: Sequence[int], seat: int) -> list[str]:
    return [PLAYER_NAMES[s] for s in winners if s != seat]
