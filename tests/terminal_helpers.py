"""Drive `spacetable play` in a pseudo-terminal of a given size, as a person at the keyboard would."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pexpect

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = "q quit): "
SRC = str(Path(__file__).resolve().parents[1] / "src")


def _ctrl_c_as_at_a_terminal() -> None:
    """The child's Ctrl-C is a KeyboardInterrupt even where the suite itself ignores SIGINT (a shell
    ignores it in what it starts in the background, and Python then installs no handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def plain(text: str) -> str:
    """Terminal output without colour codes and carriage returns."""
    return ANSI.sub("", text)


class Terminal:
    """One `spacetable` process in a pty of ``rows`` x ``columns``, its saves in ``saves``."""

    def __init__(self, saves: Path, *args: str, rows: int = 24, columns: int = 80) -> None:
        env = {
            **os.environ,
            "SPACETABLE_SAVES": str(saves),
            "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "TERM": "xterm-256color",
        }
        for name in ("COLUMNS", "LINES", "NO_COLOR"):
            env.pop(name, None)
        if args[:1] == ("play",) and "--full-screen" not in args:  # the line-by-line table, read as text
            args = ("play", "--line", *args[1:])
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "spacetable", *(a for a in args if a != "--full-screen")],
            env=env,
            dimensions=(rows, columns),
            encoding="utf-8",
            timeout=30,
            preexec_fn=_ctrl_c_as_at_a_terminal,
        )
        self.output = ""
        """Everything shown so far, as plain text."""

    def until(self, text: str) -> str:
        """Wait for ``text``; return the plain output since the previous wait, up to and including it."""
        self.child.expect_exact(text)
        shown = plain(self.child.before + self.child.after)
        self.output += shown
        return shown

    def prompt(self) -> str:
        """Wait for the next menu prompt; the screen text that led to it."""
        return self.until(PROMPT)

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def finish(self) -> str:
        """Wait for the process to end; the rest of its output."""
        self.child.expect(pexpect.EOF)
        rest = plain(self.child.before)
        self.output += rest
        self.child.close()
        return rest

    def kill(self) -> None:
        """SIGKILL, as a crash or a closed terminal window would."""
        self.child.kill(9)
        self.child.close(force=True)
