"""Tiny two-player hidden-information games: the conformance suite's test subjects, and examples.

Toy poker (Kuhn poker with five cards): each player antes 1 and is dealt one
hidden card from 1..5 (two chance nodes, the second from the four cards left).
Then seat 0 bets or passes, seat 1 bets or passes, and if seat 0 passed and
seat 1 bet, seat 0 bets (calls) or passes (folds). Two passes, or two bets,
go to a showdown: the higher card wins the other player's stake (1, or 2 after
bets). Passing after the other player's bet folds: the bettor wins 1 and no
card is shown.

A second, even smaller game shows seats deciding at once: in odds and evens
both players show one or two fingers simultaneously (``SIMULTANEOUS``,
``awaiting()``); whoever answers first has that answer hidden from the other
until both have answered; an odd total wins for seat 0, an even one for seat 1.

Neither game is registered (``spacetable.list_games()`` does not list them):
tests build ``ToyPoker()`` and ``OddsEvens()`` directly. What a game author can
copy from them:

- actions are NamedTuples ending in ``kind``, declared once in an ActionSpace;
- chance (the deal) is explicit: ``_chance_outcomes`` lists every card left;
- everything a seat may know is in ``view(seat)``; ``resample(seat, rng)``
  re-deals exactly what that view hides (the other player's unrevealed card);
- private news is an ``Event`` with ``to=(seat,)``, public news has ``to=None``;
- the state is plain data: ``to_json``/``from_json`` and ``clone`` are short.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, NamedTuple

from spacetable.engine import (
    CHANCE,
    JSON,
    SIMULTANEOUS,
    TERMINAL,
    Action,
    ActionSpace,
    Event,
    Game,
    Outcome,
    State,
    check_json_keys,
)

DECK = (1, 2, 3, 4, 5)
FINISHED = ("pp", "bb", "bp", "pbb", "pbp")
"""Betting histories that end the hand (b = bet, p = pass)."""
SHOWDOWNS = ("pp", "bb", "pbb")


class Deal(NamedTuple):
    """Chance: the next seat to be dealt gets ``card``."""

    card: int
    kind: str = "deal"


class Bet(NamedTuple):
    """Put one more chip in (a bet, or a call of the other player's bet)."""

    kind: str = "bet"


class Pass(NamedTuple):
    """Check; or, facing a bet, fold."""

    kind: str = "pass"


class ToyPokerState(State):
    __slots__ = ("cards", "game", "history")

    def __init__(self, game: ToyPoker) -> None:
        self.game = game
        self._legal_cache = None
        self.cards: list[int] = []
        """The cards dealt so far, by seat."""
        self.history = ""
        """The betting so far: one letter per decision, b(et) or p(ass)."""

    # ---- whose turn -------------------------------------------------------
    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.history in FINISHED:
            return TERMINAL
        return len(self.history) % 2

    # ---- actions ----------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        if seat == CHANCE:
            return [a for a, _ in self._chance_outcomes()]
        return [Bet(), Pass()]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        left = [c for c in DECK if c not in self.cards]
        return [(Deal(c), 1 / len(left)) for c in left]

    def _apply(self, action: Action, seat: int) -> list[Event]:
        if isinstance(action, Deal):
            return self._deal(action.card)
        kind = action[-1]
        self.history += kind[0]
        events = [Event(kind, f"seat {seat} {'bets' if kind == 'bet' else 'passes'}")]
        if self.history in SHOWDOWNS:
            winner, stake = self._winner(), self._stake()
            c0, c1 = self.cards
            events.append(Event("showdown", f"seat 0 shows {c0}, seat 1 shows {c1}: seat {winner} wins {stake}"))
        elif self.history in FINISHED:
            events.append(Event("fold", f"seat {seat} folds: seat {1 - seat} wins 1"))
        return events

    def _deal(self, card: int) -> list[Event]:
        seat = len(self.cards)
        self.cards.append(card)
        return [
            Event("deal", f"seat {seat} is dealt a card"),
            Event("card", f"you are dealt {card}", to=(seat,)),
        ]

    def action_label(self, action: Action) -> str:
        if isinstance(action, Deal):
            return f"deal {action.card}"
        if isinstance(action, Bet | Pass):
            return str(action[-1])
        return repr(action)

    # ---- results ----------------------------------------------------------
    def _winner(self) -> int:
        if self.history in SHOWDOWNS:
            return 0 if self.cards[0] > self.cards[1] else 1
        return 0 if self.history == "bp" else 1  # the other player folded

    def _stake(self) -> int:
        return 2 if self.history in ("bb", "pbb") else 1

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        won = float(self._stake())
        return [won, -won] if self._winner() == 0 else [-won, won]

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        reason = "showdown" if self.history in SHOWDOWNS else "fold"
        return Outcome(winners=(self._winner(),), reason=reason, scores=tuple(self.returns()))

    # ---- information ------------------------------------------------------
    def _shown(self, seat: int | None, owner: int) -> bool:
        """Whether ``seat`` may see the card of ``owner``."""
        return owner == seat or self.history in SHOWDOWNS

    def view(self, seat: int | None) -> JSON:
        return {
            "seat": seat,
            "dealt": len(self.cards),
            "cards": [card if self._shown(seat, owner) else None for owner, card in enumerate(self.cards)],
            "history": self.history,
        }

    def resample(self, seat: int, rng: random.Random) -> ToyPokerState:
        new = self.clone()
        hidden = [owner for owner in range(len(self.cards)) if not self._shown(seat, owner)]
        if hidden:
            known = [card for owner, card in enumerate(self.cards) if owner not in hidden]
            left = [c for c in DECK if c not in known]
            for owner, card in zip(hidden, rng.sample(left, len(hidden))):
                new.cards[owner] = card
        return new

    def to_json(self) -> JSON:
        return {"cards": list(self.cards), "history": self.history}

    def clone(self) -> ToyPokerState:
        new = object.__new__(type(self))
        new.game = self.game
        new._legal_cache = self._legal_cache
        new.cards = self.cards[:]
        new.history = self.history
        return new


class ToyPoker(Game):
    id = "toy-poker"
    name = "Toy poker (five-card Kuhn poker)"
    version = "1"
    min_players = 2
    max_players = 2
    hidden_information = True

    state_class: ClassVar[type[ToyPokerState]] = ToyPokerState
    """The state class this game builds (a test can swap in a faulty variant)."""

    def __init__(self, players: int = 2, options: dict[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        self.actions = ActionSpace((Deal, {"card": DECK}), (Bet, {}), (Pass, {}))
        self.max_length = 2 + 3  # two deals, at most three decisions

    def new_initial_state(self) -> ToyPokerState:
        return self.state_class(self)

    def state_from_json(self, data: JSON) -> ToyPokerState:
        d: dict[str, Any] = check_json_keys(data, {"cards", "history"}, "toy-poker state")
        cards, history = d["cards"], d["history"]
        if not isinstance(cards, list) or len(cards) > 2 or any(type(c) is not int or c not in DECK for c in cards):
            raise ValueError(f"toy-poker state: cards must be up to two cards from {list(DECK)}, got {cards!r}")
        if len(set(cards)) != len(cards):
            raise ValueError(f"toy-poker state: the two cards must differ, got {cards!r}")
        prefixes = {h[:i] for h in FINISHED for i in range(len(h) + 1)}
        if not isinstance(history, str) or history not in prefixes or (history and len(cards) < 2):
            raise ValueError(f"toy-poker state: {history!r} is not a betting history after {len(cards)} cards")
        state = self.state_class(self)
        state.cards = list(cards)
        state.history = history
        return state


# ---- odds and evens: seats deciding at once ----------------------------------------------
class Show(NamedTuple):
    """Odds and evens: show ``fingers`` (1 or 2)."""

    fingers: int
    kind: str = "show"


class OddsEvensState(State):
    __slots__ = ("game", "shown")

    def __init__(self, game: OddsEvens) -> None:
        self.game = game
        self._legal_cache = None
        self.shown: list[int] = [0, 0]
        """Fingers shown by each seat; 0: not answered yet."""

    def current_player(self) -> int:
        return TERMINAL if all(self.shown) else SIMULTANEOUS

    def awaiting(self) -> tuple[int, ...]:
        return tuple(seat for seat, fingers in enumerate(self.shown) if not fingers)

    def _legal_actions(self, seat: int) -> list[Action]:
        return [Show(1), Show(2)]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return []  # no chance in this game

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self.shown[seat] = action[0]
        events = [Event("show", f"seat {seat} has answered"), Event("you", f"you show {action[0]}", to=(seat,))]
        if self.is_terminal():
            a, b = self.shown
            events.append(Event("reveal", f"seat 0 shows {a}, seat 1 shows {b}: seat {self._winner()} wins"))
        return events

    def _winner(self) -> int:
        return 0 if sum(self.shown) % 2 else 1

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self._winner() == 0 else [-1.0, 1.0]

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        return Outcome(winners=(self._winner(),), reason="odd total" if self._winner() == 0 else "even total")

    def view(self, seat: int | None) -> JSON:
        done = self.is_terminal()
        return {
            "answered": [bool(f) for f in self.shown],
            "shown": [f if done or owner == seat else 0 for owner, f in enumerate(self.shown)],
        }

    def resample(self, seat: int, rng: random.Random) -> OddsEvensState:
        new = self.clone()
        if not self.is_terminal():
            other = 1 - seat
            if self.shown[other]:
                new.shown[other] = rng.choice((1, 2))
        return new

    def to_json(self) -> JSON:
        return {"shown": list(self.shown)}

    def clone(self) -> OddsEvensState:
        new = object.__new__(type(self))
        new.game = self.game
        new._legal_cache = None
        new.shown = self.shown[:]
        return new


class OddsEvens(Game):
    id = "toy-odds-evens"
    name = "Odds and evens"
    version = "1"
    min_players = 2
    max_players = 2
    hidden_information = True

    def __init__(self, players: int = 2, options: dict[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        self.actions = ActionSpace((Show, {"fingers": (1, 2)}))
        self.max_length = 2

    def new_initial_state(self) -> OddsEvensState:
        return OddsEvensState(self)

    def state_from_json(self, data: JSON) -> OddsEvensState:
        shown = check_json_keys(data, {"shown"}, "odds-evens state")["shown"]
        if (
            not isinstance(shown, list)
            or len(shown) != 2
            or any(type(f) is not int or f not in (0, 1, 2) for f in shown)
        ):
            raise ValueError(f"odds-evens state: shown must be two of 0, 1, 2; got {shown!r}")
        state = OddsEvensState(self)
        state.shown = list(shown)
        return state


__all__ = ["DECK", "Bet", "Deal", "OddsEvens", "OddsEvensState", "Pass", "Show", "ToyPoker", "ToyPokerState"]
