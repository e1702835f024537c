"""The game-agnostic engine: protocol, actions and codec, chance, records, the play loop."""

from .actions import Action, ActionSpace, Roll
from .errors import (
    ContentError,
    IllegalActionError,
    MalformedActionError,
    OptionsError,
    RecordError,
    SpacetableError,
)
from .match import Player, decide, play, random_playout, step
from .protocol import (
    CHANCE,
    JSON,
    NO_ACTIONS,
    SIMULTANEOUS,
    TERMINAL,
    ActionList,
    Event,
    Game,
    OptionSpec,
    Outcome,
    Requires,
    State,
    Statistic,
    check_json_keys,
    check_seat,
)
from .record import Record
from .registry import game_class, list_games, load, load_finite, register

__all__ = [
    "CHANCE",
    "JSON",
    "NO_ACTIONS",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "ActionList",
    "ActionSpace",
    "ContentError",
    "Event",
    "Game",
    "IllegalActionError",
    "MalformedActionError",
    "OptionSpec",
    "OptionsError",
    "Outcome",
    "Player",
    "Record",
    "RecordError",
    "Requires",
    "Roll",
    "SpacetableError",
    "State",
    "Statistic",
    "check_json_keys",
    "check_seat",
    "decide",
    "game_class",
    "list_games",
    "load",
    "load_finite",
    "play",
    "random_playout",
    "register",
    "step",
]
