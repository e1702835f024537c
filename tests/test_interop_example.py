"""The examples run: the tour (examples/interop_tour.py) through all three adapters, and OpenSpiel's
ISMCTS on showdown (examples/ismcts_showdown.py). The training example needs the train extra
(tests/test_interop_sb3.py)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"
EXAMPLE = EXAMPLES / "interop_tour.py"


def test_the_tour_plays_every_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "showdown, MCTS / ISMCTS / random: [" in out
    assert "falling-skies, MCTS: [" in out
    assert out.count(": reward ") == 5  # three PettingZoo agents, two Gymnasium episodes
    assert "cards picked after one parallel step: [1, 1, 1]" in out
    assert "falling-skies, normal: reward" in out


def test_ismcts_plays_showdown_against_random_seats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["ismcts_showdown.py", "--players", "2", "--games", "1", "--simulations", "4"])
    runpy.run_path(str(EXAMPLES / "ismcts_showdown.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "game 1: ISMCTS at seat 0 gets" in out
    assert "ISMCTS (4 simulations) against 1 random seats: win share" in out
