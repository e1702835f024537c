"""Every terminal game is saved as it goes: a killed or quit game resumes where it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacetable.cli.main import app
from spacetable.engine import Record
from terminal_helpers import Terminal, plain

HEADER = " FALLING SKIES "
LEGEND_END = "Σ sum"


def last_board(output: str) -> str:
    """The last (compact) falling-skies board in the output, from its header to its legend."""
    board = output[output.rindex(HEADER) :]
    return board[: board.index(LEGEND_END)]


def the_save(folder: Path) -> Path:
    files = sorted(folder.glob("*.json"))
    assert len(files) == 1, files
    return files[0]


def test_a_killed_game_resumes_from_its_autosave_with_no_action_lost(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "play", "falling-skies", "--seed", "3")
    for _ in range(6):
        term.prompt()
        term.send("1")
    term.prompt()
    before_kill = last_board(term.output)
    term.kill()

    record = Record.loads(the_save(tmp_path).read_text())
    assert not record.final_state().is_terminal()
    assert sum(1 for seat, _ in record.actions if seat == 0) >= 3  # the human's choices are in it

    again = Terminal(tmp_path, "play", "--resume", "last")
    again.prompt()
    assert f"Resuming after {len(record.actions)} recorded actions" in again.output
    assert last_board(again.output) == before_kill
    again.send("q")
    again.until("(y/N)")
    again.send("y")
    again.finish()


def test_quit_says_where_the_game_is_and_resume_last_continues_it(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "play", "falling-skies", "--seed", "5")
    for _ in range(3):
        term.prompt()
        term.send("1")
    term.prompt()
    board = last_board(term.output)
    term.send("q")
    term.until("(y/N)")
    term.send("y")
    said = term.finish()
    save = the_save(tmp_path)
    assert f"Game saved to {save} " in said, said
    assert "spacetable play --resume last" in said
    actions = len(Record.loads(save.read_text()).actions)

    again = Terminal(tmp_path, "play", "--resume", "last")
    again.prompt()
    assert last_board(again.output) == board
    again.send("1")
    again.prompt()
    again.send("1")
    again.prompt()
    again.send("q")
    again.until("(y/N)")
    again.send("y")
    again.finish()
    assert the_save(tmp_path) == save  # the same game, in the same file
    assert len(Record.loads(save.read_text()).actions) > actions


runner = CliRunner()


def test_saves_lists_the_games_and_resume_takes_their_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPACETABLE_SAVES", str(tmp_path))
    empty = runner.invoke(app, ["saves"])
    assert empty.exit_code == 0 and "No saved games" in empty.output
    refused = runner.invoke(app, ["play", "--resume", "last"])
    assert refused.exit_code == 2 and "no unfinished game" in refused.output

    watched = runner.invoke(app, ["play", "falling-skies", "--seat", "0=bot:random", "--seed", "2"])
    assert watched.exit_code == 0, watched.output
    left = runner.invoke(app, ["play", "falling-skies", "--seed", "2"], input="q\ny\n")
    assert left.exit_code == 0, left.output

    listing = runner.invoke(app, ["saves"], env={"COLUMNS": "200"})
    assert listing.exit_code == 0, listing.output
    rows = [line.split() for line in listing.output.splitlines() if line.strip()[:1].isdigit()]
    assert [row[:2] for row in rows] == [["1", "falling-skies"], ["2", "falling-skies"]]
    assert rows[0][3] == "unfinished" and rows[1][3] == "finished"  # newest first
    assert rows[1][6] == "bot:random"

    missing = runner.invoke(app, ["play", "--resume", "3"])
    assert missing.exit_code == 2 and "no save number 3" in missing.output
    finished = runner.invoke(app, ["play", "--resume", "2"])
    assert finished.exit_code == 2 and "that game is over" in finished.output
    resumed = runner.invoke(app, ["play", "--resume", "1"], input="q\ny\n")
    assert resumed.exit_code == 0 and "Resuming after" in resumed.output


def test_a_finished_game_offers_another_with_a_new_seed_and_a_new_save(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "play", "falling-skies", "--seed", "5")
    while term.child.expect(["q quit\\): ", "Play again with a new seed\\? \\(y/N\\): "]) == 0:
        term.send("1")
    summary = plain(term.child.before)
    assert "The game is over" in summary and "seed     5" in summary
    term.send("y")
    term.prompt()  # a new game, at its first choice
    term.send("q")
    term.until("(y/N)")
    term.send("y")
    term.finish()
    records = [Record.loads(path.read_text()) for path in tmp_path.glob("*.json")]
    assert sorted(record.final_digest is not None for record in records) == [False, True]  # two games, one over
