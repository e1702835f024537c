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
from typing import TYPE_CHECKING, Any

from spacetable.engine import CHANCE, JSON
from spacetable.engine.tensor import one_hot, per_game, ratio

from .actions import HULL, MAX_COMMIT, NON_COUNTERMEASURES
from .content import CAPTAIN, CARD_KINDS, COUNTERMEASURES, CREW
from .state import ALIVE, DESTROYED, FIRE_ROUND, LIFELESS, PHASES

if TYPE_CHECKING:
    from .game import Showdown

STATUSES = (ALIVE, LIFELESS, DESTROYED)
ONCE_PER_TURN = ("charge", "repair", "teleport", "xenotech")
PENDING_KINDS = ("attack", "board", "repair", "xeno")
STAGES = ("roll", "react", "commit", "mode", "defend", "loot")
DISABLED_XENO = ("hacking", "psionics")
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
    c = game.content
    rules = c.rules
    n = game.players
    v: dict[str, Any] = view
    players: list[dict[str, Any]] = v["players"]
    order = [(seat + r) % n for r in range(n)]
    out = one_hot(v["phase"], PHASES)
    out += [
        ratio(v["round"], v["fire_from"]),
        float(v["round"] >= v["fire_from"]),
        ratio(v["draft_round"], rules.upgrade_rounds),
        ratio(v["deck_size"], sum(c.deck.values())),
        ratio(v["actions_left"], rules.actions_per_turn),
        ratio(v["fire_from"], FIRE_ROUND),
    ]
    out += _seat_hot(v["first"], seat, n) + _seat_hot(v["active"], seat, n)
    out += [float(p in v["attacked"]) for p in order]
    out += [float(name in v["used"]) for name in ONCE_PER_TURN]
    hull = rules.start_hull + c.dealt
    mat_copies = [c.deck.get(kind, 0) for kind in NON_COUNTERMEASURES]
    for p in order:
        info = players[p]
        mat: dict[str, int] = info.get("mat", {})
        out += one_hot(info["status"], STATUSES)
        out += [
            ratio(info["energy"], MAX_COMMIT),
            ratio(info["picks"], c.dealt),
            ratio(info["hand_size"], rules.hand_size),
            float(info["chosen"]),
            float("mat" in info),
        ]
        if mat:
            out += [ratio(mat.get(kind, 0), copies) for kind, copies in zip(NON_COUNTERMEASURES, mat_copies)]
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
    own = players[seat]
    hand: list[str] = own.get("hand", [])
    held = Counter(hand)
    out += [ratio(held[kind], rules.hand_size) for kind in CARD_KINDS]
    out += one_hot(own.get("burn", ""), (*NON_COUNTERMEASURES, *_slot_names(game), HULL))
    things = _things(game)
    disabled = {(t, _thing(players, t, card)) for _, _, t, card, _ in v["tokens"]}
    for p in order:
        out += [float((p, thing) in disabled) for thing in things]
    box = sum(c.tokens[x] for x in DISABLED_XENO)
    out += [ratio(sum(1 for t in v["tokens"] if t[0] == p), box) for p in order]
    out += _boarders(game, v["boarders"], seat)
    out += [ratio(v["public_pile"].get(kind, 0), c.deck.get(kind, 0)) for kind in CARD_KINDS]
    out += [float(p in v["winners"]) for p in order]
    return out + _pending(game, v["pending"], players, seat)


def _boarders(game: Showdown, boarders: list[list[Any]], seat: int) -> list[float]:
    """Per (owner, host) seat pair, counted from ``seat``: crew aboard by type / its copies,
    then crew sabotaging / crew copies (filled in where there are any: the rest stay 0)."""
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
            pair = ((owner - seat) % n * n + (host - seat) % n) * width
            out[pair + CREW.index(crew)] = ratio(count, deck.get(crew, 0))
    for (owner, host), count in sabotage.items():
        out[((owner - seat) % n * n + (host - seat) % n) * width + len(CREW)] = ratio(count, crew_copies)
    return out


def _seat_hot(p: int | None, seat: int, n: int) -> list[float]:
    """Seat ``p`` one-hot, counted from ``seat`` (all 0 for None or chance)."""
    return one_hot((p - seat) % n, range(n)) if p is not None and p >= 0 else [0.0] * n


def _pending(game: Showdown, pending: dict[str, Any] | None, players: list[dict[str, Any]], seat: int) -> list[float]:
    """The action in progress (all 0 when there is none)."""
    n, faces = game.players, _faces(game)
    if pending is None:
        return [0.0] * _pending_size(game)
    p: dict[str, Any] = pending
    out = one_hot(p.get("kind"), PENDING_KINDS) + one_hot(p.get("stage"), STAGES)
    out += [*_seat_hot(p.get("actor"), seat, n), float(p.get("actor") == CHANCE)]
    out += _seat_hot(p.get("attacker"), seat, n) + _seat_hot(p.get("target"), seat, n)
    for side, count, energy, bonus in (("a", "an", "ac", "ab"), ("d", "dn", "dc", "db")):
        dice: list[int] = p.get(side, [])
        out += [ratio(dice.count(face), POOL) for face in range(1, faces + 1)]
        out += [ratio(p.get(count, 0), POOL), ratio(p.get(energy, 0), MAX_COMMIT), ratio(p.get(bonus, 0), faces)]
    out += [ratio(p.get("dauto", 0), POOL), ratio(p.get("success", 0), faces), ratio(p.get("die", 0), faces)]
    out += [float(p.get("double", False)), *one_hot(p.get("side"), ("a", "d"))]
    out.append(ratio(len(p["rr"]) if "rr" in p else p.get("rerolls", 0), POOL))
    out += one_hot(p.get("crew"), CREW) + one_hot(p.get("defender"), (CAPTAIN, *CREW))
    out += one_hot(p.get("xeno"), DISABLED_XENO)
    disabled = _thing(players, p["target"], p["card"]) if p.get("kind") == "xeno" else None
    return out + one_hot(disabled, _things(game))


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
