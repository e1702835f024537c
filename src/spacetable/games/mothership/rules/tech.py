"""Chapter 6.2, the technology tree: buying tiers, and what they add.

Each player climbs at most one branch per category, tier by tier, paying the tier's cost
(at any time of their own turn, or at the end of another player's turn, like cards). What a
player has bought is public (the grey counters on the tree). Buffs add up, except dark
tiles of one effect, where the highest reached counts. The orange tile (Overcharge) is bought
again each time and is good for one roll: the player's next dogfight roll. Buffs never apply
to planet attacks. The artifacts of planetary exploration (:mod:`..modules.exploration`) use the same
effects and are counted in :func:`bonus` (the ``tree_bonus`` hook).

The fifth tiers are the mothership abilities (:mod:`.abilities`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from ..content import CATEGORIES
from .actions import BuyCharge, BuyTech

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..content import BranchModel
    from .state import MothershipState

TOP_TIER = 5


def bonus(state: MothershipState, seat: int, effect: str, unit: str = "") -> int:
    """What ``seat``'s tiers and artifacts add to ``effect`` (for ``unit``, a kind of ship, where
    it matters). Artifacts add up, whatever the tiers' dark tiles."""
    chosen, tiers = state.branches[seat], state.tiers[seat]
    key: tuple[int | str, ...] = (*chosen, *tiers, effect, unit)  # one flat tuple: asked per ship per decision
    memo = state.game.tree_bonuses
    tree = memo.get(key)
    if tree is None:
        tree = memo[key] = tree_bonus(state.game.content.branches, tuple(chosen), tuple(tiers), effect, unit)
    for extra in state.game.hooks.tree_bonus:  # artifacts
        tree += extra(state, seat, effect, unit)
    return tree


def tree_bonus(
    branches: Sequence[BranchModel], chosen: tuple[int, ...], tiers: tuple[int, ...], effect: str, unit: str
) -> int:
    """What the tiers bought (``tiers`` up the branches ``chosen`` per category, -1 none) add to
    ``effect`` for ``unit``: light tiles add up, of the dark tiles the highest counts."""
    total = 0
    for index, bought in zip(chosen, tiers):
        if index < 0:
            continue
        best_dark = 0
        for tile in branches[index].tiers[:bought]:
            if tile.effect != effect or (tile.units and unit not in tile.units):
                continue
            if tile.dark:
                best_dark = max(best_dark, tile.amount)
            else:
                total += tile.amount
        total += best_dark
    return total


def purchases(state: MothershipState, seat: int) -> list[Action]:
    """The next tier of every branch the player may climb and can pay, and an Overcharge."""
    game = state.game
    costs, resources = game.content.tech_costs, state.resources[seat]
    if resources < min(costs):  # an Overcharge costs a tier's price too
        return []
    actions: list[Action] = []
    chosen_by, tiers = state.branches[seat], state.tiers[seat]
    for index, category in enumerate(game.branch_categories):
        chosen = chosen_by[category]
        tier = tiers[category] if chosen == index else 0
        if chosen not in (-1, index) or tier >= TOP_TIER:
            continue
        if resources >= costs[tier]:
            actions.append(BuyTech(index))
    price = charge_price(state, seat)
    if price is not None and state.resources[seat] >= price:
        actions.append(BuyCharge())
    return actions


def buy(state: MothershipState, seat: int, index: int, events: list[Event]) -> None:
    content = state.game.content
    category = CATEGORIES.index(content.branches[index].category)
    climb(state, seat, index, events, content.tech_costs[state.tiers[seat][category]])


def climb(state: MothershipState, seat: int, index: int, events: list[Event], cost: int) -> None:
    """``seat`` moves one tier up branch ``index`` (which it may climb), paying ``cost`` (0: a reward)."""
    branch = state.game.content.branches[index]
    category = CATEGORIES.index(branch.category)
    tier = state.tiers[seat][category]
    state.resources[seat] -= cost
    state.branches[seat][category] = index
    state.tiers[seat][category] = tier + 1
    tile = branch.tiers[tier]
    if tile.reusable:
        state.charges[seat] += 1
    tile_words = f"{tile.name} ({branch.name}, tier {tier + 1})"
    how = f"buys {tile_words} for {cost}" if cost else f"gains {tile_words} as a reward"
    events.append(Event("tech", f"{state.player_name(seat)} {how}."))


def charge_price(state: MothershipState, seat: int) -> int | None:
    """The price of another Overcharge: its tier's cost, once the player has reached it."""
    game = state.game
    for index, bought in zip(state.branches[seat], state.tiers[seat]):
        first = game.charge_tiers[index] if index >= 0 else -1
        if 0 <= first < bought:
            return game.content.tech_costs[first]
    return None


def buy_charge(state: MothershipState, seat: int, events: list[Event]) -> None:
    price = charge_price(state, seat)
    assert price is not None
    state.resources[seat] -= price
    state.charges[seat] += 1
    events.append(Event("tech", f"{state.player_name(seat)} buys another Overcharge for {price}."))


def overcharge(state: MothershipState, seat: int, events: list[Event]) -> int:
    """The seat's next roll: an Overcharge held is spent on it (its bonus, else 0)."""
    if seat < 0 or not state.charges[seat]:
        return 0
    state.charges[seat] -= 1
    amount = max((t.amount for b in state.game.content.branches for t in b.tiers if t.reusable), default=0)
    events.append(Event("tech", f"{state.player_name(seat)} spends an Overcharge: +{amount}."))
    return amount
