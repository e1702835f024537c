"""Mothership part 2, chapters 6 and 6.1: the action card deck, hands, buying, selling, capture
rewards, blind steals, and the windows where other players may act. Forced draws and dice."""

from __future__ import annotations

import random

from mothership_helpers import BOMBER_1, FIGHTER_1, new_game, play, position, rolls
from spacetable.games.mothership.actions import Attack, Buy, DrawCard, EndTurn, Pass, Reward, Sell, StealCard
from spacetable.games.mothership.content import load_content

CARDS = {card.key: index for index, card in enumerate(load_content().cards)}
AFTERBURNER, HULL_REPAIR, WORMHOLE, NOOOO = (
    CARDS["afterburner"],
    CARDS["hull_repair"],
    CARDS["wormhole"],
    CARDS["noooo"],
)


def test_the_deck_holds_the_card_lists_quantities_random_event_only_with_its_module() -> None:
    state = new_game().new_initial_state()
    content = load_content()
    assert sum(state.deck) == 92 and state.deck[CARDS["random_event"]] == 0
    assert state.deck[CARDS["afterburner"]] == 4 and state.deck[NOOOO] == 1
    with_events = new_game(random_event=True).new_initial_state()
    assert sum(with_events.deck) == 97
    assert len(content.cards) == 39


def test_a_card_costs_two_resources_and_is_drawn_blind() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"})
    state.resources = [3, 0]
    assert Buy() in state.legal_actions()
    events = play(state, Buy())
    assert state.resources[0] == 1 and state.is_chance_node()
    events += play(state, DrawCard(WORMHOLE))
    assert state.hands[0] == [WORMHOLE] and state.deck[WORMHOLE] == 0
    public = [e.text for e in events if e.to is None]
    assert "Player 1 draws an action card." in public and not any("Wormhole" in text for text in public)
    assert Buy() not in state.legal_actions()  # 1 resource left


def test_a_card_sells_for_its_value_into_the_discard_pile() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "K11"})
    state.hands[0] = [HULL_REPAIR, WORMHOLE]
    play(state, Sell(WORMHOLE))
    assert state.resources[0] == 3 and state.hands[0] == [HULL_REPAIR] and state.discard[WORMHOLE] == 1


def test_a_capture_earns_a_card_from_the_deck() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    play(state, Attack(1 << FIGHTER_1, 2 * 7 + 0), *rolls(6))
    assert state.owner[0] == 0 and state.is_chance_node()
    play(state, DrawCard(AFTERBURNER))
    assert state.hands[0] == [AFTERBURNER]


def test_capturing_another_players_planet_may_steal_blindly_instead() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    state.owner[0] = 1
    state.hands[1] = [AFTERBURNER, WORMHOLE, WORMHOLE]
    play(state, Attack(1 << FIGHTER_1, 2 * 7 + 0), *rolls(6))
    assert state.current_player() == 0 and state.legal_actions() == [Reward(0), Reward(1)]
    play(state, Reward(1))
    assert state.chance_outcomes() == [(StealCard(AFTERBURNER), 1 / 3), (StealCard(WORMHOLE), 2 / 3)]
    events = play(state, StealCard(WORMHOLE))
    assert state.hands == [[WORMHOLE], [AFTERBURNER, WORMHOLE]]
    assert state.known[1][0] == [WORMHOLE]  # the victim knows what the thief holds now
    assert all(e.to in (None, (0, 1)) for e in events)


def test_resample_re_deals_hidden_hands_but_keeps_what_the_seat_knows() -> None:
    state = position({(0, FIGHTER_1): "C3", (1, FIGHTER_1): "K11"})
    state.hands = [[HULL_REPAIR], [AFTERBURNER, WORMHOLE]]
    state.known[1][0] = [HULL_REPAIR]
    rng = random.Random(3)
    for _ in range(20):
        seen_by_1 = state.resample(1, rng)
        assert seen_by_1.hands[1] == [AFTERBURNER, WORMHOLE] and seen_by_1.hands[0] == [HULL_REPAIR]
        seen_by_0 = state.resample(0, rng)
        assert seen_by_0.hands[0] == [HULL_REPAIR] and len(seen_by_0.hands[1]) == 2
        assert sum(seen_by_0.deck) + 2 == sum(state.deck) + 2
    assert any(state.resample(0, rng).hands[1] != [AFTERBURNER, WORMHOLE] for _ in range(20))


def test_views_show_only_the_seats_own_hand() -> None:
    state = position({(0, BOMBER_1): "C3", (1, FIGHTER_1): "K11"})
    state.hands = [[HULL_REPAIR], [AFTERBURNER, WORMHOLE]]
    assert state.view(0)["hands"] == [[HULL_REPAIR], 2]
    assert state.view(None)["hands"] == [1, 2] and state.view(None)["deck"] == sum(state.deck)


def test_a_player_out_discards_the_hand() -> None:
    state = position({(0, FIGHTER_1): "E5", (1, FIGHTER_1): "E6"})
    state.hands[1] = [WORMHOLE]
    play(state, Attack(1 << FIGHTER_1, 7 + FIGHTER_1), *rolls(6, 1))
    assert state.out[1] and state.hands[1] == [] and state.discard[WORMHOLE] == 1


def test_other_players_may_buy_and_sell_at_the_end_of_a_turn_only_those_who_can_are_asked() -> None:
    game = new_game(4)
    ships = {(0, FIGHTER_1): "E5", (1, FIGHTER_1): "A6", (2, FIGHTER_1): "K6", (3, FIGHTER_1): "F1"}
    state = position(ships, game=game)
    state.resources = [0, 0, 2, 0]  # seat 2 can buy
    state.hands[3] = [HULL_REPAIR]  # seat 3 can sell; seat 1 can do nothing
    play(state, EndTurn())
    assert state.current_player() == 2 and state.turn == 0
    assert state.legal_actions() == [Buy(), Pass()]
    play(state, Buy(), DrawCard(WORMHOLE))
    assert state.current_player() == 2  # still trading: sell what was just bought, or pass
    assert state.legal_actions() == [Sell(WORMHOLE), Pass()]
    play(state, Pass())
    assert state.current_player() == 3 and state.legal_actions() == [Sell(HULL_REPAIR), Pass()]
    play(state, Pass())
    assert state.current_player() == 1 and state.turn == 1  # the next turn: seat 1 was never asked
