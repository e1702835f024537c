"""Chapters 6 and 6.1, the economy: the action card deck, hands, buying, selling, stealing.

- Each player is dealt ``start_cards`` cards. The deck is shuffled face down, so every draw
  is a chance node over the kinds left (weighted by copies); the deck never refills.
- A card costs ``card_price`` resources (the resources go back to the resource deck); a card
  sells for its value. Both at any time of the player's own turn, or at the end of another
  player's turn. Sold and played cards go face up to the discard pile.
- Capturing a planet earns a card from the deck, or, from another player's planet, a blind
  steal from that player's hand instead (a chance node over the cards in it, weighted by copies).
- Hands are hidden. A player knows the cards they hold and the cards they lost to a steal
  (they know the thief holds them until the thief plays or sells one).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from spacetable.engine import Action, Event

from . import tech
from .actions import Buy, DrawCard, Reward, Sell, StealCard

if TYPE_CHECKING:
    from .state import MothershipState


def start_deck(state: MothershipState) -> list[int]:
    """Copies of each kind in the deck at the start (module cards only with their module)."""
    modules = state.game.modules
    return [card.count if card.module is None or card.module in modules else 0 for card in state.game.content.cards]


def card_name(state: MothershipState, card: int) -> str:
    return state.game.content.cards[card].name


# ---- drawing and stealing (chance) ------------------------------------------------------


def owe_cards(state: MothershipState, seat: int, count: int, events: list[Event]) -> None:
    """``seat`` draws ``count`` cards from the top of the deck (as many as are left; the solo
    challenge's NPC takes none)."""
    if seat == state.game.npc:
        return
    left = sum(state.deck) - len(state.draws)
    count = min(count, left)
    if count < 1:
        events.append(Event("cards", f"The action deck is empty: {state.player_name(seat)} draws nothing."))
        return
    state.draws += [seat] * count


def draw_outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    total = sum(state.deck)
    return [(DrawCard(card), copies / total) for card, copies in enumerate(state.deck) if copies]


def draw(state: MothershipState, card: int, events: list[Event]) -> None:
    seat = state.draws.pop(0)
    if state.buying:
        state.buying -= 1
        state.bought_kinds[card] += 1
    state.deck[card] -= 1
    state.hands[seat].append(card)
    state.hands[seat].sort()
    events.append(Event("cards", f"{state.player_name(seat)} draws an action card."))
    events.append(Event("cards", f"You draw {card_name(state, card)}.", (seat,)))


def steal_outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    hand = state.hands[state.steal[1]]
    return [(StealCard(card), hand.count(card) / len(hand)) for card in sorted(set(hand))]


def steal(state: MothershipState, card: int, events: list[Event]) -> None:
    thief, victim = state.steal
    state.steal = []
    state.hands[victim].remove(card)
    for observer, facts in enumerate(state.known):
        if observer == thief and card in facts[victim]:
            facts[victim].remove(card)
        elif observer != thief:
            facts[victim] = []  # a blind steal: what they knew of the hand may be what was taken
    state.hands[thief].append(card)
    state.hands[thief].sort()
    state.known[victim][thief].append(card)
    events.append(Event("cards", f"{state.player_name(thief)} steals an action card from {state.player_name(victim)}."))
    events.append(Event("cards", f"{card_name(state, card)} is stolen.", (thief, victim)))


def start_steal(state: MothershipState, thief: int, victim: int, events: list[Event]) -> None:
    state.steal = [thief, victim]
    events.append(
        Event("cards", f"{state.player_name(thief)} reaches blindly into {state.player_name(victim)}'s hand.")
    )


def forget(state: MothershipState, holder: int, card: int) -> None:
    """``holder`` played or sold one ``card`` in the open: whoever knew of one copy in that hand
    can count on one fewer."""
    for observer in state.known:
        facts = observer[holder]
        if card in facts:
            facts.remove(card)


# ---- buying and selling -----------------------------------------------------------------


def trade_options(state: MothershipState, seat: int) -> list[Action]:
    """Buy a card (if the seat can pay and the deck has one), sell any card held."""
    actions: list[Action] = []
    resources = state.resources[seat]  # at the full price or more, no discount need be asked
    can_pay = resources >= state.game.content.card_price or resources >= card_price(state, seat)
    if can_pay and sum(state.deck) > len(state.draws):
        actions.append(Buy())
    actions.extend(Sell(card) for card in sorted(set(state.hands[seat])))
    actions.extend(tech.purchases(state, seat))
    return actions


def card_price(state: MothershipState, seat: int) -> int:
    """A card's price, less the player's Trade Network discount."""
    return max(0, state.game.content.card_price - tech.bonus(state, seat, "card_discount"))


def buy(state: MothershipState, seat: int, events: list[Event]) -> None:
    price = card_price(state, seat)
    state.resources[seat] -= price
    state.bought[seat] += 1
    state.buying = 1
    events.append(Event("buy", f"{state.player_name(seat)} buys an action card for {price} resources."))
    owe_cards(state, seat, 1, events)


def sell(state: MothershipState, seat: int, card: int, events: list[Event]) -> None:
    value = state.game.content.cards[card].value
    state.hands[seat].remove(card)
    forget(state, seat, card)
    state.discard[card] += 1
    state.resources[seat] += value
    events.append(Event("sell", f"{state.player_name(seat)} sells {card_name(state, card)} for {value}."))


# ---- the reward for a capture -----------------------------------------------------------


def capture_reward(state: MothershipState, seat: int, previous: int, events: list[Event]) -> None:
    """A card for a capture: from the deck, or (from a player with cards) the capturer's choice
    (the solo challenge's NPC takes none)."""
    if seat == state.game.npc:
        return
    if previous >= 0 and not state.out[previous] and state.hands[previous]:
        state.reward = [seat, previous]
        return
    owe_cards(state, seat, 1, events)


def reward_options(state: MothershipState) -> list[Action]:
    options: list[Action] = [Reward(1)]
    if sum(state.deck) > len(state.draws):
        options.insert(0, Reward(0))
    return options


def take_reward(state: MothershipState, steal_it: bool, events: list[Event]) -> None:
    seat, previous = state.reward
    state.reward = []
    if steal_it:
        start_steal(state, seat, previous, events)
    else:
        owe_cards(state, seat, 1, events)


# ---- hidden hands -----------------------------------------------------------------------


def redeal(state: MothershipState, seat: int, rng: random.Random) -> None:
    """Re-deal, in place, every card ``seat`` cannot account for: the deck and the other hands,
    keeping the cards it knows another player holds (those it lost to a steal)."""
    pool = list(state.deck)
    keep: list[list[int]] = []
    for holder, hand in enumerate(state.hands):
        known = list(state.known[seat][holder]) if holder != seat else list(hand)
        keep.append(known)
        if holder == seat:
            continue
        for card in hand:
            pool[card] += 1
        for card in known:
            pool[card] -= 1
    cards = [card for card, copies in enumerate(pool) for _ in range(copies)]
    rng.shuffle(cards)
    for holder, hand in enumerate(state.hands):
        if holder == seat:
            continue
        unknown = len(hand) - len(keep[holder])
        dealt, cards = cards[:unknown], cards[unknown:]
        state.hands[holder] = sorted(keep[holder] + dealt)
    state.deck = [0] * len(pool)
    for card in cards:
        state.deck[card] += 1
    # What the others know of each other's hands is hidden from ``seat`` too (a steal shows only
    # its two players the card): as many known cards as before, now from the re-dealt hands.
    for observer, facts in enumerate(state.known):
        if observer == seat:
            continue
        for holder, known in enumerate(facts):
            if known and holder != seat:
                facts[holder] = sorted(rng.sample(state.hands[holder], len(known)))
