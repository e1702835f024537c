"""The observation tensor of showdown: ``view(seat)`` as numbers in [0, 1], for learners
(the layout is documented in docs/INTEROP.md too). It is worked out from the view alone, so
it holds nothing the seat may not know: behind the privacy screens other mats are all 0.

Seats are relative: "seat r" is the seat r places after the observer (the observer is r = 0),
so one policy serves every seat. With N seats, L countermeasure slots per mat and F faces on
the largest die, the flat tensor holds, in order:

==============  ==============  =================================================================
piece           size            values
==============  ==============  =================================================================
phase           6               one-hot: deal, draft, first, turn, fire, over
clock           6               round / fire round, ships on fire, upgrade round / upgrade rounds,
                                deck left / deck, actions left / actions per turn, fire round /
                                20, the batches' fire round (1 when no round of fire is due)
turn            3 * N           first player, active captain, targets attacked this turn (seats)
used            4               charge, repair, teleport, xenotech taken this turn
seats           N * (19 + 12L)  per seat: status one-hot (alive, lifeless, destroyed), energy /
                                60, picks / cards dealt, hand size / hand size, has chosen (draft,
                                fire), mat visible; engine, weapon, crew and xenotech counts each
                                over its copies in the deck; intact and damaged hull / (start hull
                                + cards dealt); per slot: present, face known, its card (one-hot
                                of 6 countermeasures), deployed, boosted, AI state / 3, armor /
                                armor tokens
hand            15              own hand: copies of each card kind / hand size
burn            10 + L          own secret discard on fire: one-hot of engine, weapon, the crew,
                                the xenotech, each slot, an intact hull token
disabled        N * (7 + L)     per target seat: 1 where a token disables its engine, weapon,
                                xenotech, slot, or crew type
tokens out      N               tokens each seat has placed / xenotech tokens in the box
boarders        N * N * 5       per (owner, host) seat pair: crew aboard by type / its copies,
                                then crew sabotaging / crew copies
public pile     15              face-up discards of each kind / its copies in the deck
winners         N               1 for each winner
action          10 + 3N + 1     pending action: kind (attack, board, repair, xeno), stage (roll,
                                react, commit, mode, defend, loot), actor (seats, then chance),
                                attacker, target
dice            2 * (F + 3) + 6 attacker's then defender's pool: dice showing each face / 30,
                                dice to roll / 30, energy set aside / 60, bonus / F; then
                                guaranteed defender successes / 30, success / F, die / F,
                                double attack, commit side (attacker, defender)
rerolls         1               re-rolls queued (or a repair's re-rolls left) / 30
boarding        18 + L          crew teleported (one-hot), defender (captain or crew), xenotech
                                (hacking, psionics), what it disables (as "disabled" above)
==============  ==============  =================================================================
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from spacetable.engine import CHANCE, JSON
from spacetable.engine.tensor import one_hot, per_game, ratio

from .actions import HULL, MAX_COMMIT, NON_COUNTERMEASURES
from .content import CAPTAIN, CARD_KINDS, COUNTERMEASURES, CREW
from .state import ALIVE, DESTROYED, FIRE_ROUND, LIFELESS, PHASES

if TYPE_CHECKING:
    from .game import Showdown
    from .state import ShowdownState

STATUSES = (ALIVE, LIFELESS, DESTROYED)
ONCE_PER_TURN = ("charge", "repair", "teleport", "xenotech")
PENDING_KINDS = ("attack", "board", "repair", "xeno")
STAGES = ("roll", "react", "commit", "mode", "defend", "loot")
DISABLED_XENO = ("hacking", "psionics")
CARD_INDEX = {kind: i for i, kind in enumerate(CARD_KINDS)}
SEAT_KEYS = ("status", "energy", "picks", "hand_size", "chosen", "mat", "intact", "damaged", "countermeasures")
"""What :func:`_seat` reads of a player's entry."""
POOL = MAX_COMMIT // 2
"""The most dice one pool rolls (a double attack of 15 weapons)."""


@per_game
def shape(game: Showdown) -> tuple[int, ...]:
    n, slots = game.players, _slots(game)
    per_seat = len(STATUSES) + 5 + len(NON_COUNTERMEASURES) + 2 + slots * (6 + len(COUNTERMEASURES))
    things = len(_things(game))
    size = len(PHASES) + 6 + 3 * n + len(ONCE_PER_TURN) + n * per_seat + len(CARD_KINDS)
    size += len(NON_COUNTERMEASURES) + slots + 1 + n * things + n + n * n * (len(CREW) + 1) + len(CARD_KINDS) + n
    return (size + _pending_size(game),)


def encode(game: Showdown, view: JSON, seat: int) -> list[float]:
    """The tensor of ``view``, which is ``state.view(seat)`` of this game."""
    v: dict[str, Any] = view
    return _assemble(game, _public(game, v), v["players"][seat], seat)


def encode_shared(game: Showdown, state: ShowdownState, seat: int, shared: dict[str, Any]) -> list[float]:
    """:func:`encode` of ``state.view(seat)``, the same numbers, with the part every seat's
    tensor has in common worked out once per state from the spectator's view and kept in
    ``shared`` (a dict kept with the unchanged state). A seat's view differs from the
    spectator's only in its own player entry (``ShowdownState.player_view``), which is
    encoded for each seat alone."""
    public = shared.get("showdown public")
    if public is None:
        public = shared["showdown public"] = _public(game, state.view(None))
    return _assemble(game, public, state.player_view(seat, seat), seat)


class _Public(NamedTuple):
    """The pieces of a view that every seat's tensor shares, seats absolute (seat p at index
    p); :func:`_assemble` turns them round to the observer."""

    head: list[float]
    """phase and clock"""
    turn: list[list[float]]
    """first player, active captain, attacked: each a value per seat"""
    used: list[float]
    entries: list[dict[str, Any]]
    """the players' entries of the view"""
    seats: list[list[float]]
    """each player's entry encoded (its ``seats`` piece)"""
    disabled: list[list[float]]
    tokens_out: list[float]
    boarders: list[float] | None
    """per (owner, host) pair, owner-major: crew aboard by type, crew sabotaging (None: no boarders)"""
    pile: list[float]
    winners: list[float]
    pending: _Pending | None
    """the action in progress (None: no action)"""


class _Pending(NamedTuple):
    """The action in progress, its seats absolute (a value per seat)."""

    start: list[float]
    """kind and stage"""
    actor: list[float]
    chance: float
    """1 when chance acts"""
    attacker: list[float]
    target: list[float]
    rest: list[float]


def _public(game: Showdown, v: dict[str, Any]) -> _Public:
    c = game.content
    rules = c.rules
    n = game.players
    players: list[dict[str, Any]] = v["players"]
    head = one_hot(v["phase"], PHASES)
    head += [
        ratio(v["round"], v["fire_from"]),
        float(v["round"] >= v["fire_from"]),
        ratio(v["draft_round"], rules.upgrade_rounds),
        ratio(v["deck_size"], sum(c.deck.values())),
        ratio(v["actions_left"], rules.actions_per_turn),
        ratio(v["fire_from"], FIRE_ROUND),
    ]
    turn = [_seat_hot(v["first"], n), _seat_hot(v["active"], n), [float(p in v["attacked"]) for p in range(n)]]
    things = _things(game)
    disabled = {(t, _thing(players, t, card)) for _, _, t, card, _ in v["tokens"]}
    box = sum(c.tokens[x] for x in DISABLED_XENO)
    return _Public(
        head=head,
        turn=turn,
        used=[float(name in v["used"]) for name in ONCE_PER_TURN],
        entries=players,
        seats=[_seat(game, info) for info in players],
        disabled=[[float((p, thing) in disabled) for thing in things] for p in range(n)],
        tokens_out=[ratio(sum(1 for t in v["tokens"] if t[0] == p), box) for p in range(n)],
        boarders=_boarders(game, v["boarders"]),
        pile=[ratio(v["public_pile"].get(kind, 0), c.deck.get(kind, 0)) for kind in CARD_KINDS],
        winners=[float(p in v["winners"]) for p in range(n)],
        pending=_pending(game, v["pending"], players),
    )


def _assemble(game: Showdown, public: _Public, own: dict[str, Any], seat: int) -> list[float]:
    """The tensor of ``seat``: the shared pieces turned round to it, its own entry ``own``
    (its ``view(seat)["players"][seat]``) in place of the shared one, and its hand."""
    n = game.players
    order = [(seat + r) % n for r in range(n)]
    out = list(public.head)
    for values in public.turn:
        out += values[seat:] + values[:seat]
    out += public.used
    entry = public.entries[seat]
    same = all(own.get(key) == entry.get(key) for key in SEAT_KEYS)
    out += public.seats[seat] if same else _seat(game, own)
    for p in order[1:]:
        out += public.seats[p]
    out += _hand(game, own.get("hand", []))
    out += one_hot(own.get("burn", ""), (*NON_COUNTERMEASURES, *_slot_names(game), HULL))
    for p in order:
        out += public.disabled[p]
    out += public.tokens_out[seat:] + public.tokens_out[:seat]
    width = len(CREW) + 1
    if public.boarders is None:
        out += [0.0] * (n * n * width)
    else:
        for owner in order:
            for host in order:
                pair = (owner * n + host) * width
                out += public.boarders[pair : pair + width]
    out += public.pile
    out += public.winners[seat:] + public.winners[:seat]
    if public.pending is None:
        return out + [0.0] * _pending_size(game)
    pending = public.pending
    out += pending.start
    out += pending.actor[seat:] + pending.actor[:seat]
    out.append(pending.chance)
    out += pending.attacker[seat:] + pending.attacker[:seat]
    out += pending.target[seat:] + pending.target[:seat]
    return out + pending.rest


def _hand(game: Showdown, hand: list[str]) -> list[float]:
    """Copies of each card kind in the hand / hand size."""
    size = game.content.rules.hand_size
    out = [0.0] * len(CARD_KINDS)
    for kind, count in Counter(hand).items():
        if kind in CARD_INDEX:
            out[CARD_INDEX[kind]] = ratio(count, size)
    return out


def _seat(game: Showdown, info: dict[str, Any]) -> list[float]:
    """A player's entry of the view (its ``seats`` piece)."""
    c = game.content
    rules = c.rules
    hull = rules.start_hull + c.dealt
    mat: dict[str, int] = info.get("mat", {})
    out = one_hot(info["status"], STATUSES)
    out += [
        ratio(info["energy"], MAX_COMMIT),
        ratio(info["picks"], c.dealt),
        ratio(info["hand_size"], rules.hand_size),
        float(info["chosen"]),
        float("mat" in info),
    ]
    if mat:
        out += [ratio(mat.get(kind, 0), copies) for kind, copies in zip(NON_COUNTERMEASURES, _mat_copies(game))]
    else:  # behind a privacy screen
        out += [0.0] * len(NON_COUNTERMEASURES)
    out += [ratio(info.get("intact", 0), hull), ratio(info.get("damaged", 0), hull)]
    cms: list[dict[str, Any]] = info.get("countermeasures", [])
    for i in range(_slots(game)):
        if i < len(cms):
            slot = cms[i]
            out += [1.0, float(slot["card"] is not None), *one_hot(slot["card"], COUNTERMEASURES)]
            out += [float(slot["deployed"]), float(slot["boosted"]), ratio(slot["ai"], 3)]
            out.append(ratio(slot["armor"], rules.armor_tokens))
        else:
            out += [0.0] * (6 + len(COUNTERMEASURES))
    return out


@per_game
def _mat_copies(game: Showdown) -> list[int]:
    return [game.content.deck.get(kind, 0) for kind in NON_COUNTERMEASURES]


def _boarders(game: Showdown, boarders: list[list[Any]]) -> list[float] | None:
    """Per (owner, host) seat pair, seats absolute: crew aboard by type / its copies, then
    crew sabotaging / crew copies (None when nobody is aboard another ship)."""
    if not boarders:
        return None
    n, width = game.players, len(CREW) + 1
    out = [0.0] * (n * n * width)
    deck = game.content.deck
    crew_copies = sum(deck.get(k, 0) for k in CREW)
    aboard = Counter((b[0], b[2], b[1]) for b in boarders)
    sabotage = Counter((b[0], b[2]) for b in boarders if b[4] == "sabotage")
    for (owner, host, crew), count in aboard.items():
        if crew in CREW:
            out[(owner * n + host) * width + CREW.index(crew)] = ratio(count, deck.get(crew, 0))
    for (owner, host), count in sabotage.items():
        out[(owner * n + host) * width + len(CREW)] = ratio(count, crew_copies)
    return out


def _seat_hot(p: int | None, n: int) -> list[float]:
    """Seat ``p`` one-hot over the ``n`` seats (all 0 for None or chance)."""
    return one_hot(p, range(n)) if p is not None and p >= 0 else [0.0] * n


def _pending(game: Showdown, pending: dict[str, Any] | None, players: list[dict[str, Any]]) -> _Pending | None:
    """The action in progress (None when there is none)."""
    if pending is None:
        return None
    n, faces = game.players, _faces(game)
    p: dict[str, Any] = pending
    start = one_hot(p.get("kind"), PENDING_KINDS) + one_hot(p.get("stage"), STAGES)
    rest: list[float] = []
    for side, count, energy, bonus in (("a", "an", "ac", "ab"), ("d", "dn", "dc", "db")):
        dice: list[int] = p.get(side, [])
        rest += [ratio(dice.count(face), POOL) for face in range(1, faces + 1)]
        rest += [ratio(p.get(count, 0), POOL), ratio(p.get(energy, 0), MAX_COMMIT), ratio(p.get(bonus, 0), faces)]
    rest += [ratio(p.get("dauto", 0), POOL), ratio(p.get("success", 0), faces), ratio(p.get("die", 0), faces)]
    rest += [float(p.get("double", False)), *one_hot(p.get("side"), ("a", "d"))]
    rest.append(ratio(len(p["rr"]) if "rr" in p else p.get("rerolls", 0), POOL))
    rest += one_hot(p.get("crew"), CREW) + one_hot(p.get("defender"), (CAPTAIN, *CREW))
    rest += one_hot(p.get("xeno"), DISABLED_XENO)
    disabled = _thing(players, p["target"], p["card"]) if p.get("kind") == "xeno" else None
    rest += one_hot(disabled, _things(game))
    return _Pending(
        start=start,
        actor=_seat_hot(p.get("actor"), n),
        chance=float(p.get("actor") == CHANCE),
        attacker=_seat_hot(p.get("attacker"), n),
        target=_seat_hot(p.get("target"), n),
        rest=rest,
    )


@per_game
def _pending_size(game: Showdown) -> int:
    """The length of :func:`_pending`'s part."""
    n, faces = game.players, _faces(game)
    size = len(PENDING_KINDS) + len(STAGES) + 3 * n + 1 + 2 * (faces + 3) + 6 + 1
    return size + len(CREW) + 1 + len(CREW) + len(DISABLED_XENO) + len(_things(game))


def _thing(players: list[dict[str, Any]], target: int, card: str) -> str:
    """What a token on ``card`` ("#<slot id>" for a countermeasure) of ``target`` disables,
    as named in :func:`_things`."""
    if not card.startswith("#"):
        return card
    ids = [slot["id"] for slot in players[target].get("countermeasures", [])]
    return f"cm{ids.index(int(card[1:]))}"


@per_game
def _things(game: Showdown) -> tuple[str, ...]:
    return ("engine", "weapon", "xenotech", *_slot_names(game), *CREW)


@per_game
def _slot_names(game: Showdown) -> tuple[str, ...]:
    return tuple(f"cm{i}" for i in range(_slots(game)))


def _slots(game: Showdown) -> int:
    return game.content.rules.countermeasure_limit


def _faces(game: Showdown) -> int:
    rules = game.content.rules
    return max(rules.attack_die, rules.teleporter_die, rules.repair_die)
