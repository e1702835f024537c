"""tools/fit_falling_skies_value.py: the weights it fits come back from games of known odds, it
reads the positions a recording holds, and bad input gets one line and no fit."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from falling_skies_helpers import new_game, position
from spacetable.games.falling_skies.bots import heuristic

TOOL = Path(__file__).resolve().parent.parent / "tools" / "fit_falling_skies_value.py"
_spec = importlib.util.spec_from_file_location("fit_falling_skies_value", TOOL)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def test_the_fit_recovers_the_weights_of_known_odds() -> None:
    rng = np.random.default_rng(1)
    rows = np.column_stack([np.ones(20_000), rng.normal(size=(20_000, 2))])
    truth = np.array([-0.5, 1.5, -2.0])
    won = (rng.random(20_000) < 1 / (1 + np.exp(-(rows @ truth)))).astype(float)
    assert np.abs(tool.fit(rows, won) - truth).max() < 0.1


def _record(path: Path, won: bool, *states: object) -> None:
    with path.open("a") as file:
        file.write(json.dumps({"level": 1, "seed": 1, "won": won, "research": 0, "states": list(states)}) + "\n")


def test_positions_are_read_with_their_games_result(tmp_path: Path) -> None:
    recording = tmp_path / "games.jsonl"
    calm, crowded = position(research=6), position(damage=4, ships=[[15, c, False] for c in range(5)])
    _record(recording, True, calm.to_json())
    _record(recording, False, calm.to_json(), crowded.to_json())
    rows, won, today = tool.positions([recording])
    assert rows == [heuristic.features(calm), heuristic.features(calm), heuristic.features(crowded)]
    assert won == [1.0, 0.0, 0.0]
    assert today[2] == heuristic.static_value(crowded) / heuristic.WIN


def test_the_tool_says_in_one_line_what_it_cannot_fit(tmp_path: Path) -> None:
    only_won = tmp_path / "won.jsonl"
    _record(only_won, True, new_game().new_initial_state().to_json())
    garbled = tmp_path / "garbled.jsonl"
    _record(garbled, True, new_game().new_initial_state().to_json())
    _record(garbled, False, {"phase": "teatime"})
    for args, message in (
        ([str(only_won)], "fit needs positions from both won and lost games"),
        ([str(tmp_path / "missing.jsonl")], f"no such file: {tmp_path / 'missing.jsonl'}"),
        ([str(garbled)], f"{garbled}:2: not a recorded game ("),
    ):
        done = subprocess.run([sys.executable, str(TOOL), "fit", *args], capture_output=True, text=True, check=False)
        said = done.stderr.strip()
        assert done.returncode != 0 and not done.stdout and "\n" not in said and said.startswith(message), said
