"""The showdown state: plain data, whose turn it is, JSON, views and resampling.

The rules live beside it, one module per chapter of the rulebook: ``upgrade`` (the
upgrade phase), ``turns`` (the showdown turn, its end, ships on fire, the end of
the game), ``combat`` (attack and defend), ``boarding`` (teleport), ``xenotech``,
``ships`` (hull, damage, countermeasures, elimination). Work in progress inside a
turn (an attack waiting for the defender's reaction, dice still to roll) is one
plain dict, ``pending``, so a state can stop anywhere and be saved.

Hidden information: in the upgrade phase every hand and everything a player puts
behind their privacy screen (cards, hull tokens) is theirs alone; afterwards only
face-down countermeasures and the face-down discard pile stay hidden. Ships on fire
choose their burnt card in secret.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from spacetable.engine import CHANCE, JSON, SIMULTANEOUS, TERMINAL, Action, Event, Outcome, State, check_json_keys

from ..content import CARD_KINDS, COUNTERMEASURES, XENOTECH, Content

if TYPE_CHECKING:
    from ..game import Showdown
    from . import risk as risk
    from . import turns as turns
else:
    turns = risk = None
    """The rules' dispatch (``turns``) and the losing moves (``risk``) import this module, so the
    package's ``__init__`` binds them here once all are loaded: no import on every call of a hot
    method."""


ALIVE, LIFELESS, DESTROYED = "alive", "lifeless", "destroyed"
"""A ship's status: its captain plays on; its captain was killed (the hull floats on); it is wrecked."""
PHASES = ("deal", "draft", "first", "turn", "fire", "over")


NO_FIRE = 10**6
"""``fire_from`` while no round of fire is due (more captains than two, no ``fire_round``)."""
FIRE_ROUND = 20
"""The house rule's first round of fire in bots' batches and research (``Showdown.finite_options``)."""


AI_REUSED = 3
"""``Slot.ai`` of a countermeasure the AI has reused: it may not take the token again."""


class Slot(NamedTuple):
    """A countermeasure card on a mat. ``id`` is stable while the card is in play (tokens name it)."""

    id: int
    card: str
    deployed: bool = False
    boosted: bool = False
    ai: int = 0
    """0: no AI token; 1: the token will save the card at its next expiry; 2: saved once, the
    next deployment removes the token; 3: reused, the token is back in the box and the card may
    not take it again (the AI reuses each countermeasure once)."""
    known: bool = False
    """Face up at least once: every player knows what it is."""
    armor: int = 0
    """Armor Plating: extra hull tokens still on it."""


class Token(NamedTuple):
    """A hacking or psionics token ``owner`` placed on ``target``'s ``card`` (a kind, or ``#<slot id>``)."""

    owner: int
    xeno: str
    target: int
    card: str
    wait: int
    """End-of-turns of ``owner`` still to pass before the token comes back."""


class Boarder(NamedTuple):
    """A crew member of ``owner`` aboard ``host``'s ship."""

    owner: int
    crew: str
    host: int
    wait: int
    """End-of-turns of ``owner`` still to pass before it comes home."""
    mode: str = ""
    """"sabotage" once it sabotages; "" otherwise."""
    loot: str = ""
    """What it carries home after killing a captain."""


_SLOTS = (
    "active",
    "actions_left",
    "attacked",
    "batch",
    "boarders",
    "burns",
    "cms",
    "content",
    "damaged",
    "deck",
    "draft_round",
    "energy",
    "fallen",
    "fire_from",
    "first",
    "game",
    "hands",
    "intact",
    "mats",
    "next_id",
    "pending",
    "phase",
    "picked",
    "picks",
    "pile",
    "public_pile",
    "reason",
    "round",
    "status",
    "tokens",
    "used",
    "winners",
)


class ShowdownState(State):
    __slots__ = (*_SLOTS, "_warnings")
    game: Showdown

    def __init__(self, game: Showdown) -> None:
        c = game.content
        n = game.players
        self.game = game
        self.content: Content = c
        self._legal_cache = None
        self._warnings: tuple[object, dict[Action, str]] | None = None
        """The losing moves of the seat deciding, for the legal moves they were worked out with."""
        self.phase = "deal"
        self.deck: dict[str, int] = dict(c.deck)
        """The face-down upgrade deck: copies left of each kind."""
        self.pile: dict[str, int] = {}
        """Face-down discards (upgrade phase): nobody knows them."""
        self.public_pile: dict[str, int] = {}
        """Face-up discards: everybody saw them go."""
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.picks = [0] * n
        """Cards each player has taken from a hand so far (public)."""
        self.picked = [False] * n
        """Has chosen from the current hand (public)."""
        self.draft_round = 1
        self.mats: list[dict[str, int]] = [{} for _ in range(n)]
        """Engines, weapons, crew (aboard or away) and xenotech: copies of each kind."""
        self.cms: list[list[Slot]] = [[] for _ in range(n)]
        self.intact = [c.rules.start_hull] * n
        self.damaged = [0] * n
        self.energy = [c.rules.start_energy] * n
        self.status = [ALIVE] * n
        self.fallen = [0] * n
        """0 while in the game; else the number of the elimination batch that took the seat out."""
        self.batch = 0
        self.tokens: list[Token] = []
        self.boarders: list[Boarder] = []
        self.next_id = 0
        self.first = 0
        self.round = 0
        self.active = 0
        self.actions_left = 0
        self.used: list[str] = []
        """Once-per-turn actions taken this turn (charge, repair, teleport, xenotech)."""
        self.attacked: list[int] = []
        """Targets of this turn's single attacks."""
        self.pending: dict[str, Any] | None = None
        self.burns = [""] * n
        """Ships on fire: each seat's secret choice ("" until made)."""
        self.fire_from = 1 if n == 2 else game.fire_round or NO_FIRE
        """The first round the ships burn: at once in a duel, else when two captains are left
        (``ships.eliminate`` brings it forward) or from the house rule's ``fire_round``."""
        self.winners: list[int] = []
        self.reason = ""

    # ---- whose turn ---------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == "turn":
            pending = self.pending
            return self.active if pending is None else int(pending["actor"])
        if phase in ("deal", "first"):
            return CHANCE
        if phase in ("draft", "fire"):
            return SIMULTANEOUS
        return TERMINAL

    def awaiting(self) -> tuple[int, ...]:
        if self.phase == "draft":
            return tuple(p for p, done in enumerate(self.picked) if not done)
        if self.phase == "fire":
            return tuple(p for p in range(self.game.players) if self.status[p] == ALIVE and not self.burns[p])
        return super().awaiting()

    def _legal_actions(self, seat: int) -> list[Action]:
        return turns.legal_actions(self, seat)

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return turns.chance_outcomes(self)

    def _apply(self, action: Action, seat: int) -> list[Event]:
        events: list[Event] = []
        turns.apply(self, action, seat, events)
        return events

    def _why_illegal(self, action: Action, actor: int) -> str:
        return turns.why_illegal(self, action, actor)

    def action_label(self, action: Action) -> str:
        return self.game.label(self, action)

    def action_warning(self, action: Action) -> str | None:
        """Why ``action`` puts its mover out of the game (``risk.warnings``, RULINGS 32), worked out
        once per position for all the mover's moves. In the simultaneous phases the mover is the
        seat whose legal moves were listed last (a table lists a seat's moves, then asks)."""
        mover = self.current_player()
        if mover == SIMULTANEOUS and self._legal_cache is not None:
            mover = self._legal_cache[0]
        if mover < 0 or self.status[mover] != ALIVE:
            return None
        self.legal_actions(mover)
        listed = self._legal_cache
        if self._warnings is None or self._warnings[0] is not listed:
            self._warnings = (listed, risk.warnings(self, mover))
        return self._warnings[1].get(action)

    # ---- results ----------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != "over":
            return [0.0] * n
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return [share if p in self.winners else 0.0 for p in range(n)]

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        n = self.game.players
        # later eliminations place higher; the winners (fallen or not) place first
        order = sorted(range(n), key=lambda p: (p not in self.winners, -(self.fallen[p] or 10**9)))
        ranks = [0] * n
        for place, p in enumerate(order, start=1):
            key = (p in self.winners, self.fallen[p])
            same = [q for q in order[: place - 1] if (q in self.winners, self.fallen[q]) == key]
            ranks[p] = ranks[same[0]] if same else place
        scores = tuple(float(self.intact[p]) if self.status[p] == ALIVE else 0.0 for p in range(n))
        return Outcome(tuple(self.winners), self.reason, scores, tuple(ranks))

    # ---- information ------------------------------------------------------------------
    def screened(self) -> bool:
        """True while privacy screens are up (the upgrade phase)."""
        return self.phase in ("deal", "draft")

    def view(self, seat: int | None) -> JSON:
        players = [self.player_view(p, seat) for p in range(self.game.players)]
        return {
            "phase": self.phase,
            "round": self.round,
            "draft_round": self.draft_round,
            "deck_size": sum(self.deck.values()),
            "first": self.first,
            "active": self.active,
            "actions_left": self.actions_left,
            "used": list(self.used),
            "attacked": list(self.attacked),
            "fire_from": self.fire_from,
            "players": players,
            "tokens": [list(t) for t in self.tokens],
            "boarders": [list(b) for b in self.boarders],
            "public_pile": dict(self.public_pile),
            "pending": _copy_pending(self.pending),
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def player_view(self, p: int, seat: int | None) -> dict[str, JSON]:
        """``view(seat)["players"][p]``: what ``seat`` sees of player ``p``. Only its own entry
        differs from the spectator's (its mat behind the screens, its face-down cards, its hand)."""
        own = seat == p
        info: dict[str, JSON] = {
            "captain": self.content.captains[p].name,
            "status": self.status[p],
            "energy": self.energy[p],
            "picks": self.picks[p],
            "hand_size": len(self.hands[p]),
            "chosen": self.picked[p] if self.phase == "draft" else bool(self.burns[p]),
        }
        if own or not self.screened():
            info["mat"] = dict(self.mats[p])
            info["intact"] = self.intact[p]
            info["damaged"] = self.damaged[p]
            info["countermeasures"] = [_slot_json(s, show=own or s.known) for s in self.cms[p]]
        if own:
            info["hand"] = list(self.hands[p])
            info["burn"] = self.burns[p]
        return info

    def resample(self, seat: int, rng: random.Random) -> ShowdownState:
        """A copy with every card ``seat`` cannot see re-dealt from the cards it cannot account for."""
        new = self.clone()
        new._legal_cache = None
        if self.screened():
            _redeal_screened(new, seat, rng)
        else:
            _redeal_face_down(new, seat, rng)
        if self.phase == "fire":
            for p in range(self.game.players):
                if p != seat and new.burns[p]:
                    new.burns[p] = rng.choice(turns.legal_burns(new, p)).item
        return new

    # ---- copying ------------------------------------------------------------------------
    def clone(self) -> ShowdownState:
        new = ShowdownState.__new__(ShowdownState)
        new.game = self.game
        new.content = self.content
        new._legal_cache = self._legal_cache
        new._warnings = None
        new.phase = self.phase
        new.deck = dict(self.deck)
        new.pile = dict(self.pile)
        new.public_pile = dict(self.public_pile)
        new.hands = [list(h) for h in self.hands]
        new.picks = list(self.picks)
        new.picked = list(self.picked)
        new.draft_round = self.draft_round
        new.mats = [dict(m) for m in self.mats]
        new.cms = [list(c) for c in self.cms]
        new.intact = list(self.intact)
        new.damaged = list(self.damaged)
        new.energy = list(self.energy)
        new.status = list(self.status)
        new.fallen = list(self.fallen)
        new.batch = self.batch
        new.tokens = list(self.tokens)
        new.boarders = list(self.boarders)
        new.next_id = self.next_id
        new.first = self.first
        new.round = self.round
        new.active = self.active
        new.actions_left = self.actions_left
        new.used = list(self.used)
        new.attacked = list(self.attacked)
        new.pending = _copy_pending(self.pending)
        new.burns = list(self.burns)
        new.fire_from = self.fire_from
        new.winners = list(self.winners)
        new.reason = self.reason
        return new

    def to_json(self) -> JSON:
        return {
            "phase": self.phase,
            "deck": dict(self.deck),
            "pile": dict(self.pile),
            "public_pile": dict(self.public_pile),
            "hands": [list(h) for h in self.hands],
            "picks": list(self.picks),
            "picked": list(self.picked),
            "draft_round": self.draft_round,
            "mats": [dict(m) for m in self.mats],
            "cms": [[list(s) for s in c] for c in self.cms],
            "intact": list(self.intact),
            "damaged": list(self.damaged),
            "energy": list(self.energy),
            "status": list(self.status),
            "fallen": list(self.fallen),
            "batch": self.batch,
            "tokens": [list(t) for t in self.tokens],
            "boarders": [list(b) for b in self.boarders],
            "next_id": self.next_id,
            "first": self.first,
            "round": self.round,
            "active": self.active,
            "actions_left": self.actions_left,
            "used": list(self.used),
            "attacked": list(self.attacked),
            "pending": _copy_pending(self.pending),
            "burns": list(self.burns),
            "fire_from": self.fire_from,
            "winners": list(self.winners),
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, game: Showdown, data: JSON) -> ShowdownState:
        from spacetable.engine.schema import probe, validate

        what = "showdown state"
        d = check_json_keys(data, set(cls.to_json_keys()), what)
        validate(game.state_model(), d, what)
        n = game.players
        state = cls(game)
        try:
            if d["phase"] not in PHASES:
                raise ValueError(f"unknown phase {d['phase']!r}")
            state.phase = d["phase"]
            state.deck = _counts(d["deck"], "deck")
            state.pile = _counts(d["pile"], "pile")
            state.public_pile = _counts(d["public_pile"], "public_pile")
            state.hands = [_cards(h, "hand") for h in _seats(d["hands"], n, "hands")]
            state.mats = [_counts(m, "mat") for m in _seats(d["mats"], n, "mats")]
            state.cms = [[Slot(*s) for s in c] for c in _seats(d["cms"], n, "cms")]
            for name in ("picks", "picked", "intact", "damaged", "energy", "status", "fallen", "burns"):
                setattr(state, name, list(_seats(d[name], n, name)))
            state.tokens = [Token(*t) for t in d["tokens"]]
            state.boarders = [Boarder(*b) for b in d["boarders"]]
            for name in (
                "draft_round",
                "batch",
                "next_id",
                "first",
                "round",
                "active",
                "actions_left",
                "fire_from",
                "reason",
            ):
                setattr(state, name, d[name])
            state.used = list(d["used"])
            state.attacked = list(d["attacked"])
            state.pending = _copy_pending(d["pending"])
            state.winners = list(d["winners"])
            game.check_state(state)
        except (TypeError, KeyError, ValueError) as exc:
            raise ValueError(f"{what}: {exc}") from None
        probe(state, what)
        return state

    @staticmethod
    def to_json_keys() -> tuple[str, ...]:
        return tuple(k for k in _SLOTS if k not in ("game", "content"))


# The JSON helpers below are strict so that state_from_json refuses anything that is not a state.
def _seats(value: JSON, n: int, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"showdown state: {what} must be a list of {n} seats")
    return value


def _counts(value: JSON, what: str) -> dict[str, int]:
    if not isinstance(value, dict) or not all(k in CARD_KINDS and type(v) is int for k, v in value.items()):
        raise ValueError(f"showdown state: {what} must map card kinds to counts")
    return dict(value)


def _cards(value: JSON, what: str) -> list[str]:
    if not isinstance(value, list) or not all(k in CARD_KINDS for k in value):
        raise ValueError(f"showdown state: {what} must be a list of card kinds")
    return list(value)


def _copy_pending(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy sharing no list with ``pending`` (its re-roll queue ``rr`` holds lists in a list)."""
    if pending is None:
        return None
    return {k: [x[:] if type(x) is list else x for x in v] if type(v) is list else v for k, v in pending.items()}


def _slot_json(slot: Slot, show: bool) -> dict[str, JSON]:
    return {
        "id": slot.id,
        "card": slot.card if show else None,
        "deployed": slot.deployed,
        "boosted": slot.boosted,
        "ai": slot.ai,
        "armor": slot.armor,
    }


# ---- resampling -------------------------------------------------------------------------
RESAMPLE_PLAY_CHANCE = 0.8
"""Behind the screens, a re-dealt pick of another player is played (if it fits) with this
chance, else discarded for hull: a guess at how drafts go, not a rule."""


def _full_deck(state: ShowdownState) -> Counter[str]:
    return Counter(state.content.deck)


def _redeal_screened(state: ShowdownState, seat: int, rng: random.Random) -> None:
    """Upgrade phase: re-deal other hands, other mats (and their hull) and the deck."""
    rules = state.content.rules
    unknown = _full_deck(state)
    unknown.subtract(state.hands[seat])
    unknown.subtract(state.mats[seat])
    unknown.subtract(s.card for s in state.cms[seat])
    pool = sorted(unknown.elements())
    rng.shuffle(pool)
    others = [p for p in range(state.game.players) if p != seat]
    for p in others:
        size = len(state.hands[p])
        state.hands[p] = sorted(pool[:size])
        del pool[:size]
    state.pile = {}
    for p in others:
        state.mats[p], state.cms[p] = {}, []
        state.intact[p] = rules.start_hull
        for _ in range(state.picks[p]):
            card = pool.pop()
            if rng.random() < RESAMPLE_PLAY_CHANCE and fits(state, p, card):
                put_on_mat(state, p, card)
            else:
                state.pile[card] = state.pile.get(card, 0) + 1
                state.intact[p] += 1
    deck_size = sum(state.deck.values())
    state.deck = dict(Counter(pool[:deck_size]))
    for card in pool[deck_size:]:
        state.pile[card] = state.pile.get(card, 0) + 1


def _redeal_face_down(state: ShowdownState, seat: int, rng: random.Random) -> None:
    """Showdown: re-deal the face-down countermeasures of others, the face-down pile and the deck."""
    unknown = _full_deck(state)
    unknown.subtract(state.public_pile)
    for p in range(state.game.players):
        unknown.subtract(state.mats[p])
        unknown.subtract(s.card for s in state.cms[p] if s.known or p == seat)
    unknown.subtract(b.loot for b in state.boarders if b.loot in CARD_KINDS)
    pool = sorted(unknown.elements())
    rng.shuffle(pool)
    for p in range(state.game.players):
        if p == seat:
            continue
        for i, slot in enumerate(state.cms[p]):
            if not slot.known:
                pick = next(j for j in range(len(pool) - 1, -1, -1) if pool[j] in COUNTERMEASURES)
                state.cms[p][i] = slot._replace(card=pool.pop(pick))
    deck_size = sum(state.deck.values())
    state.deck = dict(Counter(pool[:deck_size]))
    state.pile = dict(Counter(pool[deck_size:]))


def fits(state: ShowdownState, p: int, card: str) -> bool:
    """Would ``card`` fit on ``p``'s mat within the xenotech and countermeasure limits?"""
    rules = state.content.rules
    if card in XENOTECH:
        return sum(state.mats[p].get(x, 0) for x in XENOTECH) < rules.xenotech_limit
    if card in COUNTERMEASURES:
        return len(state.cms[p]) < rules.countermeasure_limit
    return True


def put_on_mat(state: ShowdownState, p: int, card: str, known: bool = False) -> None:
    """Equip ``card``. Countermeasures get their slot id at the reveal (-1 behind the screens,
    so that the order in which seats draft changes nothing)."""
    if card in COUNTERMEASURES:
        screened = state.screened()
        state.cms[p].append(Slot(-1 if screened else state.next_id, card, known=known))
        if not screened:
            state.next_id += 1
    else:
        state.mats[p][card] = state.mats[p].get(card, 0) + 1


__all__ = ["ALIVE", "DESTROYED", "LIFELESS", "Boarder", "ShowdownState", "Slot", "Token", "fits", "put_on_mat"]
