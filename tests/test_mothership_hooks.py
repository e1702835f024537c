"""The kernel and its modules (issue 22): a game calls only the modules its options switch on,
and a new module joins through the rule hooks alone (hooks.py, plugins.py)."""

from __future__ import annotations

import pytest

import spacetable
from mothership_helpers import new_game, play, position
from spacetable.games.mothership import modules as plugins
from spacetable.games.mothership.rules import hooks
from spacetable.games.mothership.rules.actions import EndTurn
from spacetable.games.mothership.rules.hooks import Hooks, Module, chosen

EVERY_MODULE = {
    "random_event": True,
    "exploration": True,
    "neutron_stars": True,
    "black_holes": True,
    "beacons": True,
    "objectives": "hidden",
}


def test_a_base_game_has_no_module_on_any_hook() -> None:
    game = new_game()
    assert game.hooks.names == ()
    for name in hooks.SEQUENCE:
        assert getattr(game.hooks, name) == ()
    for name in hooks.KEYED:
        assert getattr(game.hooks, name) == {}


def test_the_options_choose_the_modules_once_in_the_list_order() -> None:
    assert new_game(random_event=True).hooks.names == ("random_events",)
    assert new_game(black_holes=True).hooks.names == ("hazards",)
    every = new_game(**EVERY_MODULE).hooks
    assert every.names == ("random_events", "exploration", "hazards", "cannons", "beacons", "objectives", "scripts")
    assert new_game(mode="victory_points").hooks.names == ("victory",)
    assert spacetable.load("mothership", 1, {"mode": "solo"}).hooks.names == ("npc",)
    listed = [m.name for m in plugins.MODULES]
    assert len(set(listed)) == len(listed)


def test_a_module_plugs_in_without_a_kernel_change() -> None:
    """A module of a test's own: +2 income a turn through the ``income`` hook."""
    game = new_game()
    state = position({(0, 0): "C3", (1, 0): "I9"}, game=game)
    windfall = Module("windfall", lambda g: True, {"income": lambda state, seat, planets: (2, planets)})
    before = state.resources[0]
    play(state, EndTurn())
    plain = state.resources[0] - before
    game.hooks = chosen([windfall], game)
    state = position({(0, 0): "C3", (1, 0): "I9"}, game=game)
    before = state.resources[0]
    play(state, EndTurn())
    assert state.resources[0] - before == plain + 2


def test_a_module_naming_no_hook_or_claiming_a_taken_key_is_refused() -> None:
    with pytest.raises(ValueError, match="no rule hook named incomes"):
        Module("typo", lambda g: True, {"incomes": lambda state, seat, planets: (0, planets)})
    first = Module("a", lambda g: True, {"rolled": {"storm": lambda state, events: None}})
    second = Module("b", lambda g: True, {"rolled": {"storm": lambda state, events: None}})
    with pytest.raises(ValueError, match="two handle the rolled key 'storm'"):
        Hooks([first, second])
