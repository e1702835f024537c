"""Every registered game passes the conformance suite; the suite catches what it claims to catch.

The toy games in ``spacetable.testing.toygame`` pass the whole suite. Faulty
variants of them (a view or an event that leaks a card, a clone that shares its
lists, ...) each fail the check written for that fault.
"""

from __future__ import annotations

import inspect
import itertools
import random
from collections.abc import Callable, Iterator
from typing import ClassVar

import pytest

import spacetable
from budget import playouts
from spacetable.engine import JSON, Action, ActionSpace, Event, Game, RecordError, registry
from spacetable.testing import conformance
from spacetable.testing.conformance import CHECKS, Check, run_all
from spacetable.testing.toygame import DECK, Bet, Deal, OddsEvens, Pass, ToyPoker, ToyPokerState

# ---- every registered game ---------------------------------------------------------


SHORTER = {"mothership": {"round_limit": 10}}
"""Options that keep random games of long games short enough to check at every step."""


def _registered_games() -> list[Game]:
    """Every game at its smallest table, bounded: the suite checks that random games end within
    ``max_length``, and the rulebooks' SpaceRace, Mothership and Showdown (three captains or
    more) have no bound, so each is loaded with its ``finite_options`` (random games of them do
    end without: RULINGS.md of each)."""
    games = [spacetable.load_finite(cls.id, cls.min_players, SHORTER.get(cls.id)) for cls in spacetable.list_games()]
    games.append(spacetable.load("falling-skies", options={"level": 8}))
    return games


def _game_id(game: Game) -> str:
    level = game.options.get("level")
    return f"{game.id}-level-{level}" if level is not None else game.id


GAMES = _registered_games()


LONG = {"mothership": playouts(4, 5)}
"""Playouts per check for the games whose random games are longest by far (Mothership's: several
hundred decisions each): `make test` walks a few, `make soak` more (CI's 25 minutes hold both)."""


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_registered_game_conforms(game: Game, check: Check) -> None:
    if game.id in LONG:  # no more than the check's own default
        check(game, n=min(LONG[game.id], inspect.signature(check).parameters["n"].default))
    else:
        check(game)


@pytest.mark.parametrize("players", [4, pytest.param(6, marks=pytest.mark.soak)])  # six: make soak (CI's time)
@pytest.mark.parametrize("game_id", ["showdown"])
def test_game_conforms_at_larger_tables(game_id: str, players: int) -> None:
    """Multi-seat games again at more seats (fewer playouts: their games are long; mothership's
    larger tables are in test_mothership_play)."""
    run_all(spacetable.load_finite(game_id, players), n=playouts(1, 2))


def test_registered_games_are_found() -> None:
    assert "falling-skies" in [cls.id for cls in spacetable.list_games()]


# ---- the toy games pass the whole suite ----------------------------------------------


@pytest.fixture
def toys_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make the toy games loadable by id for this test only (records replay through ``load``)."""
    spacetable.list_games()  # load the built-in games first
    monkeypatch.setitem(registry._GAMES, ToyPoker.id, ToyPoker)
    monkeypatch.setitem(registry._GAMES, OddsEvens.id, OddsEvens)
    yield


def test_toy_games_are_not_registered() -> None:
    ids = [cls.id for cls in spacetable.list_games()]
    assert ToyPoker.id not in ids and OddsEvens.id not in ids


@pytest.mark.usefixtures("toys_registered")
@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
@pytest.mark.parametrize("toy", [ToyPoker, OddsEvens], ids=lambda cls: cls.id)
def test_toy_game_conforms(toy: type[Game], check: Check) -> None:
    check(toy(2))


@pytest.mark.usefixtures("toys_registered")
def test_run_all_on_toy_poker_with_another_seed() -> None:
    run_all(ToyPoker(), seed=7)


def test_toy_poker_plays_by_its_rules() -> None:
    game = ToyPoker()
    state = game.new_initial_state()
    events = state.apply_action(state.legal_actions()[3])  # seat 0 gets the 4
    assert events[0].visible_to(1) and not events[1].visible_to(1) and events[1].visible_to(0)
    state.apply_action(state.legal_actions()[0])  # seat 1 gets the 1
    assert state.view(1)["cards"] == [None, 1]
    assert state.view(None)["cards"] == [None, None]
    bet, pass_ = state.legal_actions(0)
    state.apply_action(pass_)
    state.apply_action(bet, 1)
    state.apply_action(bet, 0)  # call: showdown for 2
    assert state.is_terminal()
    assert state.returns() == [2.0, -2.0]
    assert state.view(1)["cards"] == [4, 1]


def test_toy_poker_fold_shows_no_card() -> None:
    game = ToyPoker()
    state = game.state_from_json({"cards": [2, 5], "history": "b"})
    events = state.apply_action(state.legal_actions(1)[1])  # seat 1 folds with the 5
    assert state.returns() == [1.0, -1.0]
    assert state.view(0)["cards"] == [2, None]
    assert all("5" not in e.text for e in events if e.visible_to(0))


# ---- faulty variants: each check catches its fault ----------------------------------------


def _variant(name: str, state_class: type[ToyPokerState], **attributes: object) -> type[ToyPoker]:
    return type(name, (ToyPoker,), {"state_class": state_class, **attributes})


class _ViewShowsAllCards(ToyPokerState):
    def view(self, seat: int | None) -> JSON:
        return {**super().view(seat), "cards": list(self.cards)}


class _SeatsSeeAllCards(ToyPokerState):
    """Every seat (not the spectator) sees both cards, and resample agrees: a leak only events can expose."""

    def view(self, seat: int | None) -> JSON:
        return super().view(seat) if seat is None else {**super().view(seat), "cards": list(self.cards)}

    def resample(self, seat: int, rng: random.Random) -> ToyPokerState:
        return self.clone()


class _DealEventShowsCard(ToyPokerState):
    def _deal(self, card: int) -> list[Event]:
        return [Event("deal", f"seat {len(self.cards)} is dealt {card}"), *super()._deal(card)[1:]]


class _FoldShowsCard(ToyPokerState):
    def _apply(self, action: Action, seat: int) -> list[Event]:
        events = super()._apply(action, seat)
        if any(e.kind == "fold" for e in events):
            events.append(Event("muck", f"seat {seat} had {self.cards[seat]}"))
        return events


class _SpectatorSeesAll(ToyPokerState):
    def view(self, seat: int | None) -> JSON:
        return {**super().view(seat), "cards": list(self.cards)} if seat is None else super().view(seat)


class _SilentShowdown(ToyPokerState):
    def _apply(self, action: Action, seat: int) -> list[Event]:
        return [e for e in super()._apply(action, seat) if e.kind != "showdown"]


class _SharedClone(ToyPokerState):
    def clone(self) -> ToyPokerState:
        new = super().clone()
        new.cards = self.cards  # shares the list
        return new


class _ResampleRedealsOwnCard(ToyPokerState):
    def resample(self, seat: int, rng: random.Random) -> ToyPokerState:
        new = self.clone()
        if len(new.cards) > seat:
            new.cards[seat] = rng.choice([c for c in DECK if c not in new.cards])
        return new


class _TupleInView(ToyPokerState):
    def view(self, seat: int | None) -> JSON:
        return {**super().view(seat), "cards": tuple(super().view(seat)["cards"])}


class _UnfairDeck(ToyPokerState):
    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(a, 0.2) for a, _ in super()._chance_outcomes()]  # 0.2 each, also when 4 cards are left


class _OneReturn(ToyPokerState):
    def returns(self) -> list[float]:
        return super().returns()[:1]


class _ForgetfulDealer(ToyPokerState):
    """Deals from a counter shared by all states instead of the chance outcome: play and replay differ."""

    dealt: ClassVar[itertools.count[int]] = itertools.count()

    def _deal(self, card: int) -> list[Event]:
        left = [c for c in DECK if c not in self.cards]
        return super()._deal(left[next(self.dealt) % len(left)])


class _NoValidation(ToyPokerState):
    def apply_action(self, action: Action, seat: int | None = None) -> list[Event]:
        self._legal_cache = None
        return self._apply(action, self._actor(seat))  # skips the legality check


class _ResampleIsTheTruth(ToyPokerState):
    """Its views hide the other card, but a bot's resample is the true state."""

    def resample(self, seat: int, rng: random.Random) -> ToyPokerState:
        return self.clone()


class _JsonSharesCards(ToyPokerState):
    def to_json(self) -> JSON:
        return {"cards": self.cards, "history": self.history}  # the state's own list


class _LaxSeats(ToyPokerState):
    def apply_action(self, action: Action, seat: int | None = None) -> list[Event]:
        return super().apply_action(action, None if seat is None else int(seat))


class _TooShort(ToyPoker):
    def __init__(self, players: int = 2, options: dict[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        self.max_length = 4


class _CardMissingFromCodec(ToyPoker):
    def __init__(self, players: int = 2, options: dict[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        self.actions = ActionSpace((Deal, {"card": (1, 2, 3, 4)}), (Bet, {}), (Pass, {}))


_FAULTS: list[tuple[str, Callable[[], Game], Check, str]] = [
    (
        "view shows the other card",
        lambda: _variant("LeakyView", _ViewShowsAllCards)(),
        conformance.check_hidden_information,
        r"view\(\d\) changes when resample",
    ),
    (
        "view and resample both show the other card",
        lambda: _variant("LeakyViewAndResample", _SeatsSeeAllCards)(),
        conformance.check_hidden_information,
        r"give seat \d different views, but neither an event",
    ),
    (
        "deal event shows the card to everyone",
        lambda: _variant("LeakyDeal", _DealEventShowsCard)(),
        conformance.check_hidden_information,
        r"show (seat 0|the spectator) different events although its view is the same",
    ),
    (
        "fold event shows the folded card",
        lambda: _variant("LeakyFold", _FoldShowsCard)(),
        conformance.check_hidden_information,
        r"the events shown to seat \d depend on what its view hides",
    ),
    (
        "spectator sees every card",
        lambda: _variant("LeakySpectator", _SpectatorSeesAll)(),
        conformance.check_hidden_information,
        r"view\(None\) changes when resample",
    ),
    (
        "showdown reveals cards without an event",
        lambda: _variant("SilentShowdown", _SilentShowdown)(),
        conformance.check_hidden_information,
        r"reveals something hidden before, but no event",
    ),
    (
        "hidden_information is False but resample re-deals",
        lambda: _variant("NotPerfect", ToyPokerState, hidden_information=False)(),
        conformance.check_hidden_information,
        r"hidden_information is False, yet resample",
    ),
    (
        "clone shares a list",
        lambda: _variant("SharedClone", _SharedClone)(),
        conformance.check_json_roundtrip_and_clone,
        r"changed the original|changed a clone",
    ),
    (
        "resample re-deals the seat's own card",
        lambda: _variant("BadResample", _ResampleRedealsOwnCard)(),
        conformance.check_hidden_information,
        r"view\(\d\) changes when resample",
    ),
    (
        "view holds a tuple",
        lambda: _variant("TupleView", _TupleInView)(),
        conformance.check_views_and_resample,
        r"view\(.*\)\['cards'\] holds a tuple",
    ),
    (
        "chance probabilities do not sum to 1",
        lambda: _variant("UnfairDeck", _UnfairDeck)(),
        conformance.check_chance,
        r"chance probabilities sum to 0\.8",
    ),
    (
        "one return for two seats",
        lambda: _variant("OneReturn", _OneReturn)(),
        conformance.check_returns_and_outcome,
        r"returns\(\) has 1 numbers for 2 seats",
    ),
    (
        "resample returns the true state",
        lambda: _variant("TrueResample", _ResampleIsTheTruth)(),
        conformance.check_resample_redeals,
        r"no resample differs from the true state",
    ),
    (
        "to_json shares a list with the state",
        lambda: _variant("SharedJson", _JsonSharesCards)(),
        conformance.check_clone_independence,
        r"changed the state|changed view",
    ),
    (
        "a seat of 0.0 or True is taken for a seat",
        lambda: _variant("LaxSeats", _LaxSeats)(),
        conformance.check_seat_strictness,
        r"was accepted",
    ),
    (
        "max_length too small",
        lambda: _TooShort(),
        conformance.check_random_playouts,
        r"not over after game.max_length=4",
    ),
    (
        "apply_action skips validation",
        lambda: _variant("NoValidation", _NoValidation)(),
        conformance.check_illegal_actions,
        r"was accepted",
    ),
    (
        "a legal action outside the codec",
        lambda: _CardMissingFromCodec(),
        conformance.check_codec,
        r"cannot be encoded",
    ),
]


@pytest.mark.parametrize(("make", "check", "match"), [f[1:] for f in _FAULTS], ids=[f[0] for f in _FAULTS])
def test_check_catches_fault(make: Callable[[], Game], check: Check, match: str) -> None:
    with pytest.raises(AssertionError, match=match):
        check(make())


def test_check_replay_catches_nondeterminism(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _variant("ForgetfulDealer", _ForgetfulDealer)()
    spacetable.list_games()
    monkeypatch.setitem(registry._GAMES, ToyPoker.id, type(game))
    with pytest.raises((AssertionError, RecordError), match=r"differs|different"):
        conformance.check_replay(game)


@pytest.mark.parametrize(
    "check",
    [conformance.check_random_playouts, conformance.check_views_and_resample, conformance.check_codec],
    ids=lambda c: c.__name__,
)
def test_leaky_views_pass_the_other_checks(check: Check) -> None:
    """The leaks above are found by check_hidden_information, not by accident of another check."""
    check(_variant("LeakyView", _ViewShowsAllCards)())
    check(_variant("LeakyDeal", _DealEventShowsCard)())


def test_failure_names_the_playout() -> None:
    with pytest.raises(AssertionError) as info:
        conformance.check_json_roundtrip_and_clone(_variant("SharedClone", _SharedClone)())
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "playout 0 of seed 0, after" in notes and "toy-poker" in notes


def test_assert_json() -> None:
    conformance.assert_json({"a": [1, 2.5, "x", None, True, {"b": []}]}, "value")
    for bad, match in [
        ({"a": (1, 2)}, r"value\['a'\] holds a tuple"),
        ({1: "x"}, r"the key 1"),
        ([float("nan")], r"value\[0\] is nan"),
        ({"a": {1, 2}}, r"holds a set"),
    ]:
        with pytest.raises(AssertionError, match=match):
            conformance.assert_json(bad, "value")


def test_same_action_is_strict() -> None:
    from spacetable.engine import Roll

    assert conformance.same_action(Roll(3), Roll(3))
    assert not conformance.same_action(Roll(3), (3, "roll"))
    assert not conformance.same_action(Roll(1), Roll(True))
    assert not conformance.same_action(Roll(3), Roll(3.0))
