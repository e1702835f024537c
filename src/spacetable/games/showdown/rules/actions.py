"""The actions of showdown: what captains (and chance) can do, and the codec over them."""

from __future__ import annotations

from typing import NamedTuple

from spacetable.engine import ActionSpace, Roll

from ..content import CAPTAIN, CARD_KINDS, COUNTERMEASURES, CREW, Content

HULL = "hull"
ENERGY = "energy"
NONE = ""


# ---- chance ------------------------------------------------------------------------
class Draw(NamedTuple):
    """Chance: the next card dealt from the upgrade deck is of this kind."""

    card: str
    kind: str = "draw"


class First(NamedTuple):
    """Chance: the first player of the showdown phase."""

    seat: int
    kind: str = "first"


# ---- upgrade phase (every seat at once) ----------------------------------------------
class Pick(NamedTuple):
    """Take ``card`` from your hand: ``use`` "play" puts it on your mat (``replace``: an
    earlier upgrade of that kind is discarded for it, or ""), "hull" discards it for a hull token."""

    card: str
    use: str
    replace: str
    kind: str = "pick"


# ---- the active captain's actions -----------------------------------------------------
class Attack(NamedTuple):
    """Fire weapons at ``target``; ``double`` spends both actions on one volley of twice the dice."""

    target: int
    double: bool
    kind: str = "attack"


class Charge(NamedTuple):
    """Charge Reactor: gain energy equal to your working engines."""

    kind: str = "charge"


class Repair(NamedTuple):
    """Repair Hull: roll the repair die to flip a damaged hull token back."""

    kind: str = "repair"


class Teleport(NamedTuple):
    """Send a crew member of type ``crew`` aboard ``target``'s ship."""

    target: int
    crew: str
    kind: str = "teleport"


class Hack(NamedTuple):
    """Hacking xenotech: disable one ``card`` of ``target`` ("engine", "weapon", "xenotech", "cm<i>")."""

    target: int
    card: str
    kind: str = "hack"


class Psionics(NamedTuple):
    """Psionics xenotech: disable one crew member of type ``crew`` aboard ``target``'s ship."""

    target: int
    crew: str
    kind: str = "psionics"


class Reprogram(NamedTuple):
    """Artificial Intelligence xenotech: put an AI token on your countermeasure in slot ``slot``."""

    slot: int
    kind: str = "reprogram"


class EndTurn(NamedTuple):
    """End your turn, leaving any remaining actions unused."""

    kind: str = "end_turn"


# ---- steps inside an action ------------------------------------------------------------
class Commit(NamedTuple):
    """Set aside ``energy`` tokens to raise your dice in this roll (what is not needed is lost)."""

    energy: int
    kind: str = "commit"


class Deploy(NamedTuple):
    """Reaction: flip your countermeasure in slot ``slot`` face up, ``boost``-ed for two energy."""

    slot: int
    boost: bool
    kind: str = "deploy"


class Done(NamedTuple):
    """Reaction: deploy nothing (more)."""

    kind: str = "done"


class Board(NamedTuple):
    """The boarding crew's mission: "sabotage" or "combat"."""

    mode: str
    kind: str = "board"


class Defend(NamedTuple):
    """Teleporter combat: the crew member (type, or "captain") who meets the boarder."""

    crew: str
    kind: str = "defend"


class Loot(NamedTuple):
    """After killing a captain: take one of their cards, an intact hull token or two energy."""

    item: str
    kind: str = "loot"


class Burn(NamedTuple):
    """Ships on fire: secretly discard a card of this kind, the countermeasure in slot ``cm<i>``,
    or an intact "hull" token."""

    item: str
    kind: str = "burn"


MODES = ("sabotage", "combat")
NON_COUNTERMEASURES = tuple(k for k in CARD_KINDS if k not in COUNTERMEASURES)
MAX_COMMIT = 60
"""Energy a single roll can use at most: two per die for 30 dice (a double attack of 15 weapons)."""


def slot_names(content: Content) -> tuple[str, ...]:
    """Countermeasure slots as action fields: ``cm0``, ``cm1``..."""
    return tuple(f"cm{i}" for i in range(content.rules.countermeasure_limit))


def hack_targets(content: Content) -> tuple[str, ...]:
    """What a hacking token can sit on: a kind of card, or a countermeasure slot."""
    return ("engine", "weapon", "xenotech", *slot_names(content))


def action_space(content: Content) -> ActionSpace:
    seats = range(content.players)
    slots = range(max(content.rules.countermeasure_limit, 1))
    top_die = max(content.rules.attack_die, content.rules.teleporter_die, content.rules.repair_die)
    return ActionSpace(
        (Roll, {"value": range(1, top_die + 1)}),
        (Draw, {"card": CARD_KINDS}),
        (First, {"seat": seats}),
        (Pick, {"card": CARD_KINDS, "use": ("play", HULL), "replace": (NONE, *CARD_KINDS)}),
        (Attack, {"target": seats, "double": (False, True)}),
        (Charge, {}),
        (Repair, {}),
        (Teleport, {"target": seats, "crew": CREW}),
        (Hack, {"target": seats, "card": hack_targets(content)}),
        (Psionics, {"target": seats, "crew": CREW}),
        (Reprogram, {"slot": slots}),
        (EndTurn, {}),
        (Commit, {"energy": range(MAX_COMMIT + 1)}),
        (Deploy, {"slot": slots, "boost": (False, True)}),
        (Done, {}),
        (Board, {"mode": MODES}),
        (Defend, {"crew": (CAPTAIN, *CREW)}),
        (Loot, {"item": (*CARD_KINDS, HULL, ENERGY)}),
        (Burn, {"item": (*NON_COUNTERMEASURES, *slot_names(content), HULL)}),
    )
