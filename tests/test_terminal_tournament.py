"""Ctrl-C in `spacetable tournament --jobs 2` stops it cleanly, keeping the finished games' results."""

from __future__ import annotations

import json
from pathlib import Path

from terminal_helpers import Terminal


def test_ctrl_c_keeps_the_finished_games_and_writes_the_out_file(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    games = 100_000
    terminal = Terminal(
        tmp_path,
        *("tournament", "--game", "falling-skies", "--agents", "random", "--jobs", "2"),
        *("--games", str(games), "--out", str(out)),
        columns=120,
    )
    terminal.child.expect(rf"[1-9][0-9]*/{games}", timeout=120)  # the progress bar: games finished
    terminal.child.sendintr()  # Ctrl-C at the keyboard: to the whole foreground process group
    rest = terminal.finish()
    assert terminal.child.exitstatus == 130, rest
    assert "Traceback" not in rest and "Interrupted after" in rest, rest
    report = json.loads(out.read_text())
    assert report["interrupted"] is True
    assert 0 < report["games"] < games
    assert sum(report["endings"].values()) == report["games"]
