"""The example tour (examples/interop_tour.py) runs to its end through all three adapters."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parent.parent / "examples" / "interop_tour.py"


def test_the_tour_plays_every_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "showdown, MCTS / ISMCTS / random: [" in out
    assert "falling-skies, MCTS: [" in out
    assert out.count(": reward ") == 5  # three PettingZoo agents, two Gymnasium episodes
    assert "cards picked after one parallel step: [1, 1, 1]" in out
    assert "falling-skies, normal: reward" in out
