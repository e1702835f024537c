"""The observation tensor of showdown: ``view(seat)`` as numbers in [0, 1], for learners.

The layout is documented in docs/INTEROP.md too. It is worked out from the view alone, so
it holds nothing the seat may not know: behind the privacy screens other mats are all 0. It
holds all the view shows the observer alone: its mat behind the screens, its face-down
countermeasures (in its ``seats`` block), its hand and its secret burn.

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
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from spacetable.engine import CHANCE, JSON
from spacetable.engine.tensor import GLOBAL, PAIRS, SEATS, one_hot, per_game, ratio, turned

from ..content import CAPTAIN, CARD_KINDS, COUNTERMEASURES, CREW
from ..rules.actions import HULL, MAX_COMMIT, NON_COUNTERMEASURES
from ..rules.state import ALIVE, DESTROYED, FIRE_ROUND, LIFELESS, PHASES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..game import Showdown
    from ..rules.state import ShowdownState

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


def encode(game: Showdown, view: JSON, seat: int) -> npt.NDArray[np.float64]:
    """The tensor of ``view``, which is ``state.view(seat)`` of this game."""
    v: dict[str, Any] = view
    return _assemble(game, _public(game, v), v["players"][seat], seat)


def encode_shared(game: Showdown, state: ShowdownState, seat: int, shared: dict[str, Any]) -> npt.NDArray[np.float64]:
    """:func:`encode` of ``state.view(seat)``, the same numbers, with the part every seat's
    tensor has in common worked out once per state from the spectator's view and kept in
    ``shared`` (a dict kept with the unchanged state). A seat's view differs from the
    spectator's only in its own player entry (``ShowdownState.player_view``), which is
    encoded for each seat alone."""
    public = shared.get("showdown public")
    if public is None:
        public = shared["showdown public"] = _public(game, state.view(None))
    return _assemble(game, public, state.player_view(seat, seat), seat)


Piece: TypeAlias = tuple[str, str, list[float]]
"""A piece of the tensor: its name, how it turns round, its values (seats absolute)."""


class _Public(NamedTuple):
    """What every seat's tensor shares: the tensor with the seats absolute (as seat 0 would see
    it, without its hand and secret discard), and the players' entries it was made from."""

    base: npt.NDArray[np.float64]
    entries: list[dict[str, Any]]
    seats: list[list[float]]
    """each player's entry encoded (its ``seats`` piece)"""


def _public(game: Showdown, v: dict[str, Any]) -> _Public:
    import numpy as np

    players: list[dict[str, Any]] = v["players"]
    seats = [_seat(game, info) for info in players]
    values: list[float] = []
    for _, _, piece in _pieces(game, v, seats):
        values += piece
    return _Public(np.array(values), players, seats)


def _pieces(game: Showdown, v: dict[str, Any], seats: list[list[float]]) -> list[Piece]:
    """The tensor's pieces in order, seats absolute: (name, how it turns round, values); the
    observer's own pieces (``hand``, ``burn``) are left 0."""
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
    things = _things(game)
    disabled = {(t, _thing(players, t, card)) for _, _, t, card, _ in v["tokens"]}
    box = sum(c.tokens[x] for x in DISABLED_XENO)
    pieces = [
        ("head", GLOBAL, head),
        ("first", SEATS, _seat_hot(v["first"], n)),
        ("active", SEATS, _seat_hot(v["active"], n)),
        ("attacked", SEATS, [float(p in v["attacked"]) for p in range(n)]),
        ("used", GLOBAL, [float(name in v["used"]) for name in ONCE_PER_TURN]),
        ("seats", SEATS, [x for block in seats for x in block]),
        ("hand", GLOBAL, [0.0] * len(CARD_KINDS)),
        ("burn", GLOBAL, [0.0] * len(_burn_choices(game))),
        ("disabled", SEATS, [float((p, thing) in disabled) for p in range(n) for thing in things]),
        ("tokens out", SEATS, [ratio(sum(1 for t in v["tokens"] if t[0] == p), box) for p in range(n)]),
        ("boarders", PAIRS, _boarders(game, v["boarders"])),
        ("pile", GLOBAL, [ratio(v["public_pile"].get(kind, 0), c.deck.get(kind, 0)) for kind in CARD_KINDS]),
        ("winners", SEATS, [float(p in v["winners"]) for p in range(n)]),
    ]
    return pieces + _pending(game, v["pending"], players)


class _Layout(NamedTuple):
    turned: list[npt.NDArray[np.intp]]
    """per observer: where each entry of its tensor is in ``_Public.base``"""
    offsets: dict[str, int]
    """where each piece starts"""


@per_game
def _layout(game: Showdown) -> _Layout:
    """Where the pieces are and how each observer's tensor is read from the shared one."""
    view = game.new_initial_state().view(None)
    pieces = _pieces(game, view, [_seat(game, info) for info in view["players"]])
    offsets: dict[str, int] = {}
    at = 0
    for name, _, values in pieces:
        offsets.setdefault(name, at)
        at += len(values)
    return _Layout(turned(game.players, [(len(values), turning) for _, turning, values in pieces]), offsets)


def _assemble(game: Showdown, public: _Public, own: dict[str, Any], seat: int) -> npt.NDArray[np.float64]:
    """The tensor of ``seat``: the shared one turned round to it, its own entry ``own`` (its
    ``view(seat)["players"][seat]``) in place of the shared one, and its hand and discard."""
    layout = _layout(game)
    out = public.base[layout.turned[seat]]
    entry = public.entries[seat]
    if not all(own.get(key) == entry.get(key) for key in SEAT_KEYS):
        block = _seat(game, own)
        at = layout.offsets["seats"]
        out[at : at + len(block)] = block
    at = layout.offsets["hand"]
    out[at : at + len(CARD_KINDS)] = _hand(game, own.get("hand", []))
    burn = one_hot(own.get("burn", ""), _burn_choices(game))
    at = layout.offsets["burn"]
    out[at : at + len(burn)] = burn
    return out


@per_game
def _burn_choices(game: Showdown) -> tuple[str, ...]:
    return (*NON_COUNTERMEASURES, *_slot_names(game), HULL)


def _hand(game: Showdown, hand: list[str]) -> list[float]:
    """Copies of each card kind in the hand / hand size."""
    out = [0.0] * len(CARD_KINDS)
    if hand:
        size = game.content.rules.hand_size
        for kind in hand:
            if kind in CARD_INDEX:
                out[CARD_INDEX[kind]] += 1
        out = [ratio(count, size) for count in out]
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


def _boarders(game: Showdown, boarders: list[list[Any]]) -> list[float]:
    """Per (owner, host) seat pair, seats absolute: crew aboard by type / its copies, then
    crew sabotaging / crew copies."""
    n, width = game.players, len(CREW) + 1
    out = [0.0] * (n * n * width)
    if not boarders:
        return out
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


def _pending(game: Showdown, pending: dict[str, Any] | None, players: list[dict[str, Any]]) -> list[Piece]:
    """The action in progress, as :func:`_pieces` gives pieces (all 0 when there is none)."""
    n, faces = game.players, _faces(game)
    start_size = len(PENDING_KINDS) + len(STAGES)
    if pending is None:
        zeros = [0.0] * n
        rest_size = _pending_size(game) - start_size - 3 * n - 1
        return _pending_pieces([0.0] * start_size, zeros, 0.0, zeros, zeros, [0.0] * rest_size)
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
    actor = p.get("actor")
    return _pending_pieces(
        start,
        _seat_hot(actor, n),
        float(actor == CHANCE),
        _seat_hot(p.get("attacker"), n),
        _seat_hot(p.get("target"), n),
        rest,
    )


def _pending_pieces(
    start: list[float], actor: list[float], chance: float, attacker: list[float], target: list[float], rest: list[float]
) -> list[Piece]:
    return [
        ("pending", GLOBAL, start),
        ("actor", SEATS, actor),
        ("chance acts", GLOBAL, [chance]),
        ("attacker", SEATS, attacker),
        ("target", SEATS, target),
        ("pending rest", GLOBAL, rest),
    ]


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
