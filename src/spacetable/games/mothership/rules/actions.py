"""Mothership's actions and their integer codec.

Ships are numbered per fleet: 0 the mothership, then the fighters, then the bombers.
An attack names its ships as a bit mask (bit ``i``: ship ``i``) and a target number:
``seat * (ships + 1) + ship`` for a ship, ``seat * (ships + 1) + ships`` for a colony
station, ``players * (ships + 1) + p`` for planet ``p``, and ``players * (ships + 1) + 9 + cell`` for
the guardian cannon on ``cell``.
"""

from __future__ import annotations

from typing import NamedTuple

from spacetable.engine import ActionSpace, Roll

from .board import MAX_EXTRA, MAX_PLANETS

BOARD_SEEDS = 1000
"""Generated boards a game draws from (a chance node at set-up)."""


class DrawBoard(NamedTuple):
    """Chance: the generated board, by its seed."""

    seed: int
    kind: str = "board"


class Place(NamedTuple):
    """Place the next ship of the fleet (mothership, fighters, bombers) on ``cell``."""

    cell: int
    kind: str = "place"


class AutoPlace(NamedTuple):
    """Place every ship not yet placed in the standard formation (nearest the centre first)."""

    kind: str = "auto_place"


class SetEnergy(NamedTuple):
    """Split the mothership's energy into engines, weapons and shields (locked until the next turn)."""

    engines: int
    weapons: int
    shields: int
    kind: str = "energy"


class Move(NamedTuple):
    """Move ``ship`` to ``cell`` by its shortest way (entering an asteroid field ends the move there)."""

    ship: int
    cell: int
    kind: str = "move"


class Attack(NamedTuple):
    """Attack ``target`` with the ships of ``ships`` (a bit mask), declared together before rolling."""

    ships: int
    target: int
    kind: str = "attack"


class DrawCard(NamedTuple):
    """Chance: the top card of the action deck (a kind, weighted by the copies left)."""

    card: int
    kind: str = "draw_card"


class StealCard(NamedTuple):
    """Chance: the card a blind steal takes (a kind, weighted by the copies in the hand)."""

    card: int
    kind: str = "steal_card"


class Buy(NamedTuple):
    """Pay the price for the top card of the action deck."""

    kind: str = "buy"


class Sell(NamedTuple):
    """Sell a card from the hand for its value."""

    card: int
    kind: str = "sell"


class Reward(NamedTuple):
    """The card for capturing another player's planet: from the deck (0) or stolen blindly from them (1)."""

    steal: int
    kind: str = "reward"


class Play(NamedTuple):
    """Play an action card: ``unit`` a ship, station, planet or player and ``spot`` a space,
    subsystem or ship of the player's, as the card needs (see :mod:`.cards`)."""

    card: int
    unit: int
    spot: int
    kind: str = "play"


class EventChoice(NamedTuple):
    """After the event die: double the event for oneself (1) or avoid it (2)."""

    choice: int
    kind: str = "event_choice"


class BuyTech(NamedTuple):
    """Buy the next tier of a branch of the technology tree (0-5, in category order)."""

    branch: int
    kind: str = "buy_tech"


class BuyCharge(NamedTuple):
    """Buy the orange tile again: one Overcharge for the next roll."""

    kind: str = "buy_charge"


class UseAbility(NamedTuple):
    """Use a mothership ability (fifth tier; see :mod:`.abilities`) on ``unit`` / ``spot``."""

    ability: int
    unit: int
    spot: int
    kind: str = "ability"


class Explore(NamedTuple):
    """Pay to explore ``planet`` (one the player holds, not yet explored): its token is turned over."""

    planet: int
    kind: str = "explore"


class DrawArtifact(NamedTuple):
    """Chance: the artifact under the planet being explored (one of the tokens not yet turned over)."""

    artifact: int
    kind: str = "draw_artifact"


class Choose(NamedTuple):
    """Answer the choice the rules ask for now (``state.choice``): ``value`` is one of its
    options (a space, an option or reward group of a card, a planet, a branch; see
    :mod:`.choices`)."""

    value: int
    kind: str = "choose"


class Activate(NamedTuple):
    """Distress beacons: ``ship``, standing on a beacon token it can activate since before this
    turn, stays there and activates it (its movement phase ends)."""

    ship: int
    kind: str = "activate"


class DrawBeacon(NamedTuple):
    """Chance: the top card of the distress beacon deck (a kind, weighted by the copies left)."""

    card: int
    kind: str = "draw_beacon"


class RevealToken(NamedTuple):
    """Chance: the unit a locked beacon token shows when it is turned face up (0 mothership,
    1 fighter, 2 bomber)."""

    unit: int
    kind: str = "reveal_token"


class DrawObjective(NamedTuple):
    """Chance: the top card of the objective deck (a kind, weighted by the copies left)."""

    card: int
    kind: str = "draw_objective"


class ReplaceObjective(NamedTuple):
    """Pay the price to discard the held objective ``card`` and draw another."""

    card: int
    kind: str = "replace_objective"


class Pass(NamedTuple):
    """Let a window go by: nothing (more) to buy, sell or play now."""

    kind: str = "pass"


class EndTurn(NamedTuple):
    """Collect resources and end the turn."""

    kind: str = "end_turn"


def ship_bits(mask: int) -> list[int]:
    """The ships of a bit mask, lowest first."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def action_space(
    fleets: int, ships: int, size: int, row_length: int, cards: int, artifacts: int, beacons: int, objectives: int
) -> ActionSpace:
    cells = range(size * size)
    units = range(fleets * (ships + 1) + MAX_PLANETS + MAX_EXTRA)
    targets = range(len(units) + size * size)  # attacks may also target a guardian cannon (by its space)
    energy = range(row_length + 1)
    kinds = range(cards)
    return ActionSpace(
        (DrawBoard, {"seed": range(BOARD_SEEDS)}),
        (Roll, {"value": range(1, 13)}),
        (Place, {"cell": cells}),
        (AutoPlace, {}),
        (SetEnergy, {"engines": energy, "weapons": energy, "shields": energy}),
        (Move, {"ship": range(ships), "cell": cells}),
        (Attack, {"ships": range(1, 1 << ships), "target": targets}),
        (EndTurn, {}),
        (DrawCard, {"card": kinds}),
        (StealCard, {"card": kinds}),
        (Buy, {}),
        (Sell, {"card": kinds}),
        (Reward, {"steal": range(2)}),
        (Pass, {}),
        (EventChoice, {"choice": range(1, 3)}),
        (BuyTech, {"branch": range(6)}),
        (BuyCharge, {}),
        (
            UseAbility,
            {"ability": range(6), "unit": units, "spot": cells},
        ),
        (Play, {"card": kinds, "unit": units, "spot": cells}),
        (Explore, {"planet": range(MAX_PLANETS + MAX_EXTRA)}),
        (DrawArtifact, {"artifact": range(artifacts)}),
        (Choose, {"value": cells}),
        (Activate, {"ship": range(ships)}),
        (DrawBeacon, {"card": range(max(1, beacons))}),
        (RevealToken, {"unit": range(3)}),
        (DrawObjective, {"card": range(max(1, objectives))}),
        (ReplaceObjective, {"card": range(max(1, objectives))}),
        chance=(DrawBoard, Roll, DrawCard, StealCard, DrawArtifact, DrawBeacon, RevealToken, DrawObjective),
    )
