"""The conformance suite: what every game must do to be driven through the engine protocol.

Each check is a plain function taking a built :class:`~spacetable.engine.Game`
and raising ``AssertionError`` (with the game, the playout and the last actions
in the message) when the game breaks the protocol. A game gets the whole suite
by being registered: ``tests/test_conformance.py`` runs every check on every
game in ``spacetable.list_games()``. ``run_all(game)`` runs them all.

Every check is deterministic: playout ``i`` of seed ``s`` always takes the same
actions, so a failure names the seed and playout that reproduce it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.engine import Game

from .copies import check_clone_independence, check_json_roundtrip_and_clone, check_replay
from .hidden import check_hidden_information, check_resample_redeals, check_views_and_resample
from .playouts import Playout, RandomPlayer, assert_json, deciders, located, random_move, same_action
from .protocol import (
    check_chance,
    check_codec,
    check_illegal_actions,
    check_labels,
    check_random_playouts,
    check_returns_and_outcome,
    check_seat_strictness,
)

Check = Callable[..., None]
"""A check: ``check(game, n=..., seed=...)`` raises AssertionError naming what is wrong."""


CHECKS: dict[str, Check] = {
    check.__name__: check
    for check in (
        check_random_playouts,
        check_returns_and_outcome,
        check_json_roundtrip_and_clone,
        check_replay,
        check_illegal_actions,
        check_codec,
        check_labels,
        check_chance,
        check_views_and_resample,
        check_hidden_information,
        check_clone_independence,
        check_seat_strictness,
        check_resample_redeals,
    )
}
"""Every check, by name, each run with its default sizes."""


def run_all(game: Game, **overrides: Any) -> None:
    """Run every check on ``game`` (keyword arguments such as ``seed`` go to every check)."""
    for check in CHECKS.values():
        check(game, **overrides)


__all__ = [
    "CHECKS",
    "Check",
    "Playout",
    "RandomPlayer",
    "assert_json",
    "check_chance",
    "check_clone_independence",
    "check_codec",
    "check_hidden_information",
    "check_illegal_actions",
    "check_json_roundtrip_and_clone",
    "check_labels",
    "check_random_playouts",
    "check_replay",
    "check_resample_redeals",
    "check_returns_and_outcome",
    "check_seat_strictness",
    "check_views_and_resample",
    "deciders",
    "located",
    "random_move",
    "same_action",
]
