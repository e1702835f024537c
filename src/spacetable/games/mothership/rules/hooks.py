"""The named rule hooks through which an optional chapter (a module) joins the base game (the kernel).

The kernel is the base rulebook's chapters 1-11; it imports no module. A module (random events,
planetary exploration, victory points, the solo NPC, hazards, distress beacons, objectives,
guardian cannons) is one file that ends with a :class:`Module`: its name, when it is in play
(from the game's options), and the functions it hangs on the hooks below. ``plugins.py`` lists
the modules; the game picks those in play once, when it is set up, into a :class:`Hooks`
(``game.hooks``), so a game without a module never calls it. The kernel calls every function of
a hook in that list's order. docs/ARCHITECTURE.md lists the hooks with the chapter each serves.

Two kinds of hook:

- *sequence* hooks: a tuple of functions, called in turn (what the calls return is combined as
  the kernel function that calls them says: a sum, a chain, any);
- *keyed* hooks (``ACTIONS``, ``ROLLED``, ``CHOICES``, ``LABELS``, ``CARDS``, ``SCRIPTED``,
  ``EFFECTS``): a dict from a key (an action's kind, a pending roll's ``what``, a choice's
  ``what``, a card's key, a carried-out card's ``source``, a card effect's verb) to the one
  function that handles it. Two modules may not claim one key with different functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import random

    from spacetable.engine import Action, Event

    from ..content.language import Effect
    from ..game import Mothership
    from .board import Board
    from .state import MothershipState

    State = MothershipState
    Events = list[Event]

SEQUENCE = (
    "state_started",
    "chance",
    "decisions",
    "view",
    "resample",
    "board_laid",
    "fleets_placed",
    "turn_start",
    "turn_ending",
    "turn_end",
    "income",
    "powerless",
    "engines_off",
    "ship_frozen",
    "move_ended",
    "moved",
    "landing_blocked",
    "ship_held",
    "waiting_ships",
    "shields_blocked",
    "roll_bonus",
    "dogfight_bonus",
    "roll_total",
    "tree_bonus",
    "holdings",
    "ship_destroyed",
    "unit_destroyed",
    "structure_destroyed",
    "planet_changed_hands",
    "check_out",
    "knocked_out",
    "limit_winners",
    "turn_actions",
    "after_action",
    "quiet",
    "loaded",
)
"""The sequence hooks, in the order docs/ARCHITECTURE.md lists them."""
KEYED = ("actions", "rolled", "choices", "labels", "cards", "scripted", "effects")
"""The keyed hooks."""
REACTING = ("moved", "move_ended", "after_action")
"""The hooks through which a module may react to a move or to any action: a module on any of them
says, on ``quiet``, which actions it leaves alone (the greedy bot's quick values count on it)."""


@dataclass(frozen=True)
class Module:
    """An optional chapter: ``applies(game)`` says whether it is in play; ``hooks`` maps hook
    names to its function (sequence hooks) or to its dict of handlers (keyed hooks). ``term``
    names its bonus in a total's breakdown (``roll_bonus``, ``dogfight_bonus``)."""

    name: str
    applies: Callable[[Mothership], bool]
    hooks: Mapping[str, Any] = field(default_factory=dict)
    term: str = ""
    fields: tuple[str, ...] = ()
    """State fields only this module writes: while it is off they stay as a new game has them."""

    def __post_init__(self) -> None:
        unknown = set(self.hooks) - set(SEQUENCE) - set(KEYED)
        if unknown:
            raise ValueError(f"module {self.name!r}: no rule hook named {', '.join(sorted(unknown))}")
        if "quiet" not in self.hooks and any(name in self.hooks for name in REACTING):
            raise ValueError(f"module {self.name!r} reacts to actions ({', '.join(REACTING)}): it needs a quiet hook")


class Hooks:
    """The functions of the modules in play, hook by hook (empty tuples and dicts without them)."""

    state_started: tuple[Callable[[State], None], ...]
    """Chapter 1: a new game's state is made (a module fills its decks)."""
    chance: tuple[Callable[[State], list[tuple[Action, float]] | None], ...]
    """The outcomes of a module's chance node now (a draw, a flip), else None."""
    decisions: tuple[Callable[[State, int], list[Action] | None], ...]
    """The actions of a decision of a module's a seat is asked for now, else None."""
    view: tuple[Callable[[State, dict[str, Any], int | None], None], ...]
    """A seat's view: a module hides in it what the seat may not see of its part."""
    resample: tuple[Callable[[State, int, random.Random], None], ...]
    """A resample for a seat: a module re-deals, in place, what of its part the seat cannot see."""
    board_laid: tuple[Callable[[State, Board], None], ...]
    """Chapter 1: the board is on the table, the stations placed (a module lays its pieces)."""
    fleets_placed: tuple[Callable[[State], None], ...]
    """Chapter 1: every fleet is placed and the opening hands dealt."""
    turn_start: tuple[Callable[[State, int], None], ...]
    """Chapter 2: a seat's turn begins."""
    turn_ending: tuple[Callable[[State, Events], bool], ...]
    """Chapter 2: the player on turn ends it; True holds the end open (a roll comes first)."""
    turn_end: tuple[Callable[[State, int, Events], None], ...]
    """Chapter 2: a seat's turn is over (before the shields regenerate)."""
    income: tuple[Callable[[State, int, int], tuple[int, int]], ...]
    """Chapter 6: (extra resources, planets that pay) of a seat's income, from the planets that pay so far."""
    powerless: tuple[Callable[[State, int], bool], ...]
    """Chapter 4: a seat's mothership has no power (no engines, weapons or shield regeneration)."""
    engines_off: tuple[Callable[[State, int, int], bool], ...]
    """Chapter 2: a ship has no engine spaces this turn."""
    ship_frozen: tuple[Callable[[State, int, int], bool], ...]
    """Chapter 2: a ship of a seat standing on a space cannot move."""
    move_ended: tuple[Callable[[State, int, int, Events], None], ...]
    """Chapter 2: a ship's move leg ended on a space outside the asteroids."""
    moved: tuple[Callable[[State, int, int, Events], None], ...]
    """Chapter 2: a Move action is resolved (its asteroid dogfight, if any, opened)."""
    landing_blocked: tuple[Callable[[State, int], bool], ...]
    """Chapters 6.1, 2: a free open space where a card, ability or warp may not put a ship."""
    ship_held: tuple[Callable[[State, int, int], bool], ...]
    """Chapter 3: a ship that may not start a dogfight (nor fire an ability) this turn."""
    waiting_ships: tuple[Callable[[State, int], int], ...]
    """Chapter 3: bit mask of a seat's ships that must answer something before they attack or the
    turn ends."""
    shields_blocked: tuple[Callable[[State, int], bool], ...]
    """Chapters 3, 5: a seat's mothership may not use its shields now."""
    roll_bonus: tuple[tuple[str, Callable[[State, int, int], int]], ...]
    """Chapters 3, 8: (term, what a seat's unit adds to its roll in a dogfight or the asteroids)."""
    dogfight_bonus: tuple[tuple[str, Callable[[State, int, Events], int]], ...]
    """Chapter 3: (term, what a seat adds to its total once, after the tree and Overcharge)."""
    roll_total: tuple[Callable[[State, Sequence[int], int, str, Events], int], ...]
    """Chapter 3: a side's final total, from its units' spaces (a chain: each gets the last one's)."""
    tree_bonus: tuple[Callable[[State, int, str, str], int], ...]
    """Chapter 6.2: what a seat holds beside its tree that adds to an effect (for a kind of ship)."""
    holdings: tuple[Callable[[State, int, str], int], ...]
    """Chapter 6.1: how many of a module's things a seat holds (``"artifacts"``), for the cards."""
    ship_destroyed: tuple[Callable[[State, int, int], None], ...]
    """Chapter 3: a seat's ship has left the board, destroyed."""
    unit_destroyed: tuple[Callable[[State, int, int, int, Events], None], ...]
    """Chapters 3, 6: ``by``'s units destroyed a seat's unit (after the loot)."""
    structure_destroyed: tuple[Callable[[State, int, int], None], ...]
    """Chapter 3: a module's stationary unit of a seat on a space lost a dogfight."""
    planet_changed_hands: tuple[Callable[[State, int, int, int, Events], None], ...]
    """Chapter 7: a planet passed from its previous owner to a new one (-1 neutral, -2 off the board)."""
    check_out: tuple[Callable[[State, list[int], Events], bool], ...]
    """Chapter 11: seats who may have lost their station or ships; True: the module handled it
    (nobody is knocked out)."""
    knocked_out: tuple[Callable[[State, int, Events], None], ...]
    """Chapter 11: a seat is out; what of its the module kept goes."""
    limit_winners: tuple[Callable[[State], tuple[list[int], str] | None], ...]
    """Chapter 11 (the round limit, a house rule): (winners, reason) a module names (None: the
    kernel's draw among those still in)."""
    turn_actions: tuple[Callable[[State, int], list[Action]], ...]
    """Chapter 2: the actions a module adds to a player's turn."""
    after_action: tuple[Callable[[State, Events], None], ...]
    """Chapter 11: after every action (a module's win, its goals, its scripted fleet)."""
    quiet: tuple[Callable[[State, int], Callable[[Action], bool] | None], ...]
    """For the greedy bot's quick values, in a position where ``seat`` acts: which of its actions
    (moves, control panel settings, cards sold or bought) the module neither reacts to nor changes
    what the evaluation reads after (None: it may react to any; the objectives due now, which any
    action completes, are counted apart). Every module on a hook of ``REACTING`` has one."""
    loaded: tuple[Callable[[State], None], ...]
    """A state read from JSON: a module checks what no single field of its part shows (ValueError)."""
    actions: dict[str, Callable[[State, int, Action, Events], None]]
    """An action kind of the module's and what it does."""
    rolled: dict[str, Callable[[State, Events], None]]
    """A pending roll of the module's (``pending["what"]``) whose dice are all rolled."""
    choices: dict[str, Callable[[State, dict[str, Any], int, Events], None]]
    """A choice of the module's (``state.choice["what"]``) answered."""
    labels: dict[str, Callable[[State, Action], str]]
    """An action kind of the module's in words."""
    cards: dict[str, Any]
    """Chapter 6.1: the action cards of a module's chapter (a ``cards.CardRule`` by key)."""
    scripted: dict[str, Callable[[State, dict[str, Any], Events], None]]
    """A card of the module's carried out by the scripts (``state.script``, by its ``source``) is
    done: the module puts it away (``state.script`` is already None)."""
    effects: dict[str, Callable[[State, int, int, Effect, Events], None]]
    """A card effect's verb (module ``language``) that acts on the module's part of the state:
    (seat, "your ship", the parsed effect)."""

    idle_fields: tuple[str, ...] = ()
    """The state fields of the modules not in play (checked at rest when a state is loaded)."""

    def __init__(self, modules: Sequence[Module]) -> None:
        self.names = tuple(m.name for m in modules)
        for name in SEQUENCE:
            found = []
            for module in modules:
                function = module.hooks.get(name)
                if function is not None:
                    found.append((module.term, function) if name in ("roll_bonus", "dogfight_bonus") else function)
            setattr(self, name, tuple(found))
        for name in KEYED:
            merged: dict[str, Any] = {}
            for module in modules:
                for key, handler in module.hooks.get(name, {}).items():
                    if merged.setdefault(key, handler) is not handler:
                        raise ValueError(f"modules {self.names}: two handle the {name} key {key!r}")
            setattr(self, name, merged)


def chosen(modules: Sequence[Module], game: Mothership) -> Hooks:
    """The hooks of the ``modules`` that apply to ``game``, in the list's order; ``idle_fields``
    names the state fields of those that do not."""
    hooks = Hooks([m for m in modules if m.applies(game)])
    hooks.idle_fields = tuple(name for m in modules if m.name not in hooks.names for name in m.fields)
    return hooks
