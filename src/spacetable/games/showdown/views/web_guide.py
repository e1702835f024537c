"""The guided table's words: the status line (``Game.guide``) and the end screen (``Game.explain_outcome``).

Both are drawn from a view alone, so they hold nothing the seat may not know. The status line
follows the rules' order of decisions: the draft behind the screens, the first player, ships on
fire, the turn, and inside an action the step waiting now (energy set aside, a reaction, a
boarder's mission, the defender, the loot, the dice). Seats are called by their captains' names,
as the board and the log call them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spacetable.engine import Action, Outcome
from spacetable.engine.words import count

from ..content import Content, card_name
from ..rules.actions import Attack, Charge, Hack, Psionics, Repair, Reprogram, Teleport

TURN_STEPS = (
    (Attack, "attack a ship"),
    (Charge, "charge the reactor"),
    (Repair, "repair the hull"),
    (Teleport, "teleport a crew member aboard a ship"),
    (Hack, "hack a card with your Hacking"),
    (Psionics, "disable a crew member with your Psionics"),
    (Reprogram, "put an AI token on a countermeasure"),
)
"""What a captain may do on their turn, in the rulebook's order, by the kind of legal move."""


def _names(view: Mapping[str, Any]) -> list[str]:
    return [str(p["captain"]) for p in view["players"]]


def _join(words: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def guide(content: Content, view: Mapping[str, Any], seat: int | None, actions: Sequence[Action] = ()) -> str:
    """The status line for ``seat`` (None: a spectator) at ``view``, where ``actions`` are its legal moves."""
    phase = view["phase"]
    names = _names(view)
    rules = content.rules
    if phase == "deal":
        return f"Upgrade round {view['draft_round']} of {rules.upgrade_rounds}: the cards are being dealt"
    if phase == "draft":
        return f"Upgrade round {view['draft_round']} of {rules.upgrade_rounds}: " + _draft(view, seat, names)
    if phase == "first":
        return "The privacy screens come down: chance decides who plays first"
    if phase == "fire":
        return f"Round {view['round']}, the ships are on fire: " + _fire(view, seat, names)
    if phase == "over":
        winners = [names[p] for p in view["winners"]] or ["nobody"]
        verb = "wins" if len(winners) == 1 else "win"
        return f"Game over: {_join(winners)} {verb} ({view['reason']})"
    pending = view["pending"]
    line = _turn(view, seat, names, actions) if pending is None else _step(content, view, pending, seat, names)
    return f"Round {view['round']} · {line}"


def _waiting(view: Mapping[str, Any], names: list[str]) -> list[str]:
    """The captains still to choose, in the draft or while the ships burn."""
    return [names[p] for p, info in enumerate(view["players"]) if info["status"] == "alive" and not info["chosen"]]


def _draft(view: Mapping[str, Any], seat: int | None, names: list[str]) -> str:
    step = 1 if view["draft_round"] % 2 else -1
    way = "clockwise" if step == 1 else "counter-clockwise"
    waiting = _waiting(view, names)
    if seat is not None and names[seat] in waiting:
        to = names[(seat + step) % len(names)]
        return (
            f"pick a card from your hand and install it on your mat or scrap it for +1 hull; "
            f"the rest of your hand then passes {way} to {to}"
        )
    if seat is not None:
        return f"you have picked; waiting for {_join(waiting)} to pick" if waiting else "the hands pass"
    return f"waiting for {_join(waiting)} to pick a card behind their screens" if waiting else "the hands pass"


def _fire(view: Mapping[str, Any], seat: int | None, names: list[str]) -> str:
    waiting = _waiting(view, names)
    if seat is not None and names[seat] in waiting:
        return "choose in secret what your ship burns: a card aboard or an intact hull token"
    if seat is not None and view["players"][seat]["status"] == "alive":
        return f"you have chosen; waiting for {_join(waiting)}"
    return f"waiting for {_join(waiting)} to choose what to burn"


def _turn(view: Mapping[str, Any], seat: int | None, names: list[str], actions: Sequence[Action]) -> str:
    a = int(view["active"])
    left = count(int(view["actions_left"]), "action")
    if seat != a:
        return f"waiting for {names[a]} to take an action ({left} left)"
    steps = [words for kind, words in TURN_STEPS if any(isinstance(x, kind) for x in actions)]
    return f"your turn, {left} left: " + (f"{', '.join(steps)}, or end your turn" if steps else "end your turn")


def _whose(names: list[str], p: int, seat: int | None) -> str:
    """A captain's, at the start of a sentence: ``Leela's``, or ``Your`` for the viewer."""
    return "Your" if p == seat else f"{names[p]}'s"


def _what(view: Mapping[str, Any], pending: Mapping[str, Any], seat: int | None, names: list[str]) -> str:
    """The action in progress, from the viewer's side: "Leela attacks you", "Your Pilot boards Han's ship"."""
    kind = pending["kind"]
    if kind == "repair":
        return f"{_whose(names, int(view['active']), seat)} repair"
    a, t = int(pending["attacker"]), int(pending["target"])
    target = "you" if t == seat else names[t]
    ship = "your ship" if t == seat else f"{names[t]}'s ship"
    if kind == "attack":
        how = "double attack" if pending["double"] else "attack"
        if a == seat:
            return f"Your {how} on {target}"
        return f"{names[a]}'s double attack on {target}" if pending["double"] else f"{names[a]} attacks {target}"
    if kind == "board":
        return f"{_whose(names, a, seat)} {card_name(pending['crew'])} boards {ship}"
    key = str(pending["card"])
    aim = "a countermeasure" if key.startswith("#") else "xenotech" if key == "xenotech" else card_name(key)
    whose = "your" if t == seat else f"{names[t]}'s"
    return f"{_whose(names, a, seat)} {card_name(pending['xeno'])} aims at {whose} {aim}"


REACT_HINTS = {
    "attack": "Nitro Fuel doubles your defence dice, Armor Plating takes hits first",
    "board": "Energy Shields stop boarders, a Security Drone adds a die",
    "xeno": "a Frequency Scrambler stops it",
}
"""What helps against each kind of action, said when the target may react."""


def _step(
    content: Content, view: Mapping[str, Any], pending: Mapping[str, Any], seat: int | None, names: list[str]
) -> str:
    """A step inside an action: what it waits for, and from whom."""
    what = _what(view, pending, seat, names)
    stage = pending["stage"]
    actor = int(pending["actor"])
    if stage == "roll":
        dice = {"attack": "the dice are rolled", "board": "the teleporter dice are rolled"}
        rules = content.rules
        repair = f"the repair die is rolled ({rules.repair_success} or more patches a hull token)"
        return f"{what}: {dice.get(pending['kind'], repair)}"
    if actor != seat:
        waits = {
            "commit": "to set energy aside for the roll",
            "react": "to deploy countermeasures or not",
            "mode": "to choose sabotage or a fight",
            "defend": "to choose who meets the boarder",
            "loot": "to choose the loot",
        }
        return f"{what}: waiting for {names[actor]} {waits[stage]}"
    me = view["players"][seat]
    if stage == "commit":
        role = "attack" if pending["side"] == "a" else "defence"
        return (
            f"{what}: set energy aside for your {role} (you have {me['energy']}); "
            "after the roll each token adds +1 to a die"
        )
    if stage == "react":
        boost = content.rules.boost_cost
        return (
            f"{what}: deploy a face-down countermeasure ({REACT_HINTS[pending['kind']]}; "
            f"a boost costs {boost} energy), or deploy nothing"
        )
    if stage == "mode":
        return f"{what}: choose its mission, sabotage or a fight with the crew"
    if stage == "defend":
        return f"{what}: choose who meets the boarder, your captain or a crew member at home"
    energy = content.rules.loot_energy
    return (
        f"{names[int(pending['target'])]}'s captain is dead: choose your loot, one of the ship's cards, "
        f"an intact hull token or {energy} energy"
    )


def explain_outcome(view: Mapping[str, Any], outcome: Outcome, seat: int | None) -> str:
    """The end screen's words for ``seat`` (None: a spectator): who won and how, and what the
    scores and places count."""
    names = _names(view)
    winners = list(outcome.winners)
    players = view["players"]
    scores = outcome.scores
    meaning = (
        "Each score counts the intact hull tokens a captain still had at the end (0 for a captain who is out); "
        "places follow the order in which the captains fell."
    )
    if seat is not None and seat in winners:
        others = [names[p] for p in winners if p != seat]
        if others:
            first = f"You share the win with {_join(others)}: {outcome.reason}."
        else:
            hull = count(int(scores[seat]), "intact hull token") if scores else "your ship"
            first = f"You won: {outcome.reason}, with {hull} left."
        return f"{first} {meaning}"
    won = _join([names[p] for p in winners]) if winners else "Nobody"
    verb = "wins" if len(winners) == 1 else "win"
    first = f"{won} {verb}: {outcome.reason}."
    if seat is not None:
        fate = {"lifeless": "your captain was killed", "destroyed": "your ship was wrecked"}
        how = fate.get(str(players[seat]["status"]), "you are out")
        place = f", placing {_ordinal(outcome.ranks[seat])} of {len(names)}" if outcome.ranks else ""
        first = f"You lost: {how}{place}. {first}"
    return f"{first} {meaning}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def seat_names(content: Content) -> list[str]:
    """Each seat's captain, as the board and the log call them."""
    return [captain.name for captain in content.captains[: content.players]]


__all__ = ["explain_outcome", "guide", "seat_names"]
