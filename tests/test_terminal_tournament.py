"""Ctrl-C in `spacetable tournament --jobs 2` stops it cleanly, keeping the finished games' results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from terminal_helpers import SRC


def test_ctrl_c_keeps_the_finished_games_and_writes_the_out_file(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    command = [sys.executable, "-m", "spacetable", "tournament", "--game", "falling-skies", "--agents", "random"]
    command += ["--games", "1000000", "--jobs", "2", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": SRC}
    with subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as child:
        time.sleep(4)  # started, and some games played
        os.killpg(child.pid, signal.SIGINT)  # as Ctrl-C does: to the whole process group
        stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    assert "Interrupted after" in stdout
    report = json.loads(out.read_text())
    assert report["interrupted"] is True
    assert 0 < report["games"] < 1000000
    assert sum(report["endings"].values()) == report["games"]
