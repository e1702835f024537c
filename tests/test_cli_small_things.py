"""Small things of the command line a newcomer met at 80x24: the help, shell completion, resuming
the right game with its seed, `--record` over an existing file, an interrupted tournament's file,
and tables that keep their numbers whole at 80 columns."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from rich.console import Console
from typer.main import get_group
from typer.testing import CliRunner

import spacetable
from spacetable.agents import AGENTS
from spacetable.cli import commands, report, sweep
from spacetable.cli.main import app
from spacetable.cli.saves import LAST, SAVES_ENV, find_save
from spacetable.engine import Record, RecordError
from spacetable.sim.report import Change, Figure, shown_change_interval, shown_interval
from spacetable.sim.sweep import Point, Sweep, SweepSummary
from spacetable.sim.tournament import AgentRow, Report
from terminal_helpers import Terminal

runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Invoke the CLI (not a terminal); its exit code and output, never a traceback."""
    result = runner.invoke(app, list(args), env=env)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def flat(text: str) -> str:
    """Help text without its box and line breaks: the words as one line."""
    return " ".join(text.replace("│", " ").split())


def unfinished(path: Path, game_id: str, seed: int | None = None) -> Path:
    """An unfinished save of ``game_id`` (no action yet) with bots in every seat."""
    game = spacetable.load(game_id)
    Record.start(game, ["bot:random"] * game.players, seed=seed).save(path)
    return path


# ---- 1. the help ---------------------------------------------------------------------


def test_no_help_shows_a_type_beside_a_flag() -> None:
    names = sorted(get_group(app).commands)
    assert {"play", "tournament", "report", "sweep"} <= set(names)
    for args in [["--help"], *([name, "--help"] for name in names)]:
        code, output = run(*args, env={"COLUMNS": "200"})
        assert code == 0, args
        assert "--help" in output and "Show this message and exit." in output, args
        assert "<bool>" not in output, (args, output)


# ---- 2. shell completion -------------------------------------------------------------


def test_completion_is_shown_for_a_shell_and_completes_the_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "--install-completion" in run("--help")[1]
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")  # --show-completion SHELL
    shown = runner.invoke(app, ["--show-completion", "bash"], prog_name="spacetable")
    assert shown.exit_code == 0, shown.output
    assert "complete -o default -F _spacetable_completion spacetable" in shown.output
    assert "_SPACETABLE_COMPLETE=complete_bash" in shown.output

    asked = {"_SPACETABLE_COMPLETE": "complete_bash", "COMP_WORDS": "spacetable pl", "COMP_CWORD": "1"}
    completed = runner.invoke(app, [], env=asked, prog_name="spacetable")
    assert completed.exit_code == 0
    assert completed.output.split() == ["play"]


# ---- 3. play's help: the bots and the keys ---------------------------------------------


def test_play_help_names_every_bot_and_the_keys_at_the_table() -> None:
    code, output = run("play", "--help", env={"COLUMNS": "80"})
    assert code == 0
    text = flat(output)
    assert f"The bots: {', '.join(sorted(AGENTS))}." in text
    for keys in (
        "type to filter the moves",
        "the arrow keys and Enter, or a move's number",
        "a mouse click on a piece, then on a place",
        "Tab moves between the panels",
        "F1 shows the help",
        "Ctrl+Q leaves, and the game stays saved",
        "a number chooses, b shows the board, l the log, ? the help, q quits",
    ):
        assert keys in text, keys


# ---- 4. --resume last of the game named ------------------------------------------------


def test_resume_last_takes_the_newest_unfinished_save_of_the_game_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SAVES_ENV, str(tmp_path))
    skies = unfinished(tmp_path / "falling-skies-1.json", "falling-skies")
    duel = unfinished(tmp_path / "showdown-1.json", "showdown")
    os.utime(skies, (1_000, 1_000))  # the showdown save is the newest
    untouched = duel.read_bytes()

    assert find_save(LAST) == duel
    assert find_save(LAST, "falling-skies") == skies
    code, output = run("play", "falling-skies", "--resume", "last", "--seed", "1")
    assert code == 0, output
    assert "Resuming after 0 recorded actions" in output
    assert Record.loads(skies.read_text()).final_state().is_terminal()  # played on to its end
    assert duel.read_bytes() == untouched

    code, output = run("play", "mothership", "--resume", "last")
    assert code == 2
    assert output.strip() == f"error: there is no unfinished game of mothership in {tmp_path} to resume"


# ---- 5. the seed a game began with -----------------------------------------------------


def test_resuming_tells_both_seeds_and_the_record_keeps_the_first(tmp_path: Path) -> None:
    save = unfinished(tmp_path / "game.json", "falling-skies", seed=456)
    code, output = run("play", "--resume", str(save), "--seed", "123")
    assert code == 0, output
    text = flat(output)
    assert "seed 123, from --seed, for the rest of the game (the game began with seed 456)" in text
    assert "seed 123 since the last resume (the game began with seed 456)" in text  # the summary
    assert Record.loads(save.read_text()).seed == 456


def test_resuming_without_a_seed_draws_one_and_an_older_record_says_it_has_none(tmp_path: Path) -> None:
    save = unfinished(tmp_path / "game.json", "falling-skies", seed=456)
    code, output = run("play", "--resume", str(save))
    assert code == 0, output
    assert "for the rest of the game (the game began with seed 456)" in flat(output)

    older = unfinished(tmp_path / "older.json", "falling-skies")
    data = json.loads(older.read_text())
    assert "seed" not in data  # as records were written before the seed was kept
    code, output = run("play", "--resume", str(older), "--seed", "7")
    assert code == 0, output
    assert "seed 7, from --seed, for the rest of the game (the record does not keep the seed" in flat(output)


def test_the_seed_field_is_optional_checked_and_kept_from_a_seats_copy(tmp_path: Path) -> None:
    game = spacetable.load("falling-skies")
    record = Record.start(game, ["bot:random"], seed=456)
    assert Record.loads(record.dumps()).seed == 456
    assert Record.loads(Record.start(game, ["bot:random"]).dumps()).seed is None
    data = record.to_json()
    data["seed"] = "456"
    with pytest.raises(RecordError, match="'seed' must be an integer"):
        Record.loads(json.dumps(data))
    assert record.as_known_by(0).seed is None  # the seed would tell a seat the hidden draws


def test_a_seed_too_large_for_the_record_is_refused(tmp_path: Path) -> None:
    code, output = run("play", "falling-skies", "--seed", str(10**16), "--record", str(tmp_path / "r.json"))
    assert code == 2
    assert output.count("\n") == 1 and "bad --seed" in output
    assert not (tmp_path / "r.json").exists()


def test_a_new_game_keeps_the_seed_it_began_with(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, output = run("play", "falling-skies", "--seat", "0=bot:random", "--seed", "456", "--record", str(path))
    assert code == 0, output
    assert Record.loads(path.read_text()).seed == 456


# ---- 6. --record over an existing file --------------------------------------------------


def test_an_existing_record_file_is_not_replaced_off_a_terminal_without_overwrite(tmp_path: Path) -> None:
    kept = tmp_path / "notes.json"
    kept.write_text("my notes\n")
    game = ["play", "falling-skies", "--seat", "0=bot:random", "--seed", "1", "--record", str(kept)]
    code, output = run(*game)
    assert code == 2
    assert output.count("\n") == 1 and "exists: add --overwrite to replace it" in output
    assert kept.read_text() == "my notes\n"

    save = unfinished(tmp_path / "save.json", "falling-skies")  # resuming into another existing file: the same
    code, output = run("play", "--resume", str(save), "--record", str(kept))
    assert code == 2 and "--overwrite" in output
    assert kept.read_text() == "my notes\n"

    code, output = run(*game, "--overwrite")
    assert code == 0, output
    assert Record.loads(kept.read_text()).final_state().is_terminal()


@pytest.mark.parametrize(("answer", "replaced"), [("", False), ("y", True)])
def test_at_a_terminal_replacing_a_record_file_is_asked_no_by_default(
    tmp_path: Path, answer: str, replaced: bool
) -> None:
    kept = tmp_path / "notes.json"
    kept.write_text("my notes\n")
    term = Terminal(tmp_path, "play", "falling-skies", "--games", "1", "--seed", "1", "--record", str(kept))
    term.until("Replace it? (y/N): ")
    term.send(answer)
    rest = term.finish()
    if replaced:
        assert term.child.exitstatus == 0, rest
        assert Record.loads(kept.read_text()).final_state().is_terminal()
    else:
        assert term.child.exitstatus == 2, rest
        assert "is kept" in rest and "--overwrite" in rest
        assert kept.read_text() == "my notes\n"


# ---- 7. a tournament stopped before its first game ----------------------------------------


def test_a_tournament_interrupted_before_any_game_still_writes_its_out_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("spacetable.sim.tournament.run_games", interrupted)
    out = tmp_path / "results.json"
    args = ["tournament", "--game", "showdown", "--agents", "greedy,random", "--games", "5", "--out", str(out)]
    code, output = run(*args)
    assert code == 130
    assert "Interrupted after 0 of 5 games" in output
    assert f"Results saved to {out} (no game was finished" in flat(output)
    results = json.loads(out.read_text())
    assert results["interrupted"] is True and results["games"] == 0
    assert [(row["agent"], row["seat_games"]) for row in results["rows"]] == [("greedy", 0), ("random", 0)]


# ---- 8. tables at 80 columns ----------------------------------------------------------------


def narrow() -> Console:
    return Console(width=80, file=io.StringIO(), record=True, highlight=False)


def assert_fits(text: str) -> str:
    """``text``, checked: no cell cut short, no line over 80 columns."""
    assert "…" not in text, text
    assert max(len(line) for line in text.splitlines()) <= 80, text
    return text


def test_the_tournament_table_keeps_its_intervals_whole_at_80_columns() -> None:
    rows = [
        AgentRow("planner", 12_000, 6_888, 0.574, 0.5652, 0.5828, 1234.5, 1612.3, 123.25, 340.0, 11.5),
        AgentRow("greedy", 12_000, 4_500, 0.375, 0.3664, 0.3837, 2.5, 1450.1, 88.5, 340.0, 11.5),
        AgentRow("random", 12_000, 612, 0.051, 0.0472, 0.0551, 0.1, 1187.7, 3.25, 340.0, 11.5),
    ]
    console = narrow()
    commands._print_report(Report("mothership", 4, {}, 9_000, 0.25, 340.2, 11.5, {"victory": 9_000}, rows), console)
    text = assert_fits(console.export_text())
    for row in rows:
        assert f"{100 * row.ci_low:.1f}–{100 * row.ci_high:.1f}%" in text
        assert f"{row.win_rate:.1%}" in text and f"{row.ms_per_move:.1f}" in text


def test_the_report_tables_keep_their_intervals_whole_at_80_columns() -> None:
    figures = [
        Figure("seat 0 win rate (the first player to act)", 0.5741, 0.5471, 0.6012, 1200, True, headline=True),
        Figure("game length (rounds)", 11.52, 11.31, 11.79, 1200, False, headline=True),
        Figure("value: bought: Prod + value: bought: Convoy", 1234.56, 1200.12, 1270.99, 1200, False),
    ]
    console = narrow()
    console.print(report._figure_table("Headline figures", figures))
    text = assert_fits(console.export_text())
    assert all(shown_interval(f) in text for f in figures)

    changes = [
        Change(f.name, f, f, 0.0512 if f.percent else 12.34, -0.1234, 0.1456, 0.11, 0.0001, True) for f in figures
    ]
    console = narrow()
    console.print(report._change_table("Headline figures", changes))
    text = assert_fits(console.export_text())
    assert all(shown_change_interval(c) in text for c in changes)


def test_the_sweep_tables_keep_their_cells_whole_at_80_columns() -> None:
    names = ["seat 0 win rate", "seat 1 win rate", "game length (actions)", "cards played (countermeasure)"]
    values = [1, 2, 3]
    points = []
    for value in values:
        figures = {
            "seat 0 win rate": Figure("seat 0 win rate", 0.488, 0.341, 0.638, 40, True),
            "seat 1 win rate": Figure("seat 1 win rate", 0.512, 0.362, 0.659, 40, True),
            "game length (actions)": Figure("game length (actions)", 1234.56, 1200.12, 1270.99, 40, False),
            "cards played (countermeasure)": Figure("cards played (countermeasure)", 4.0, 1.35, 6.65, 40, False),
        }
        points.append(Point(value, f"rules.boost_cost={value}", 40, figures, list(figures)))
    summary = SweepSummary(
        Sweep("showdown", 2, {}, "rules.boost_cost", values, ["random", "random"], 40, 0), Path("s"), points, []
    )
    console = narrow()
    sweep._print(summary, names, None, console)
    title, tables = console.export_text().split("\n", 1)  # the title line is left to the terminal to wrap
    assert title.startswith("s: showdown")
    text = assert_fits(tables)
    for cell in ("48.8% (34.1–63.8)", "1234.56 (1200.12–1270.99)", "4.00 (1.35–6.65)"):
        assert text.count(cell) == len(values), cell


def test_the_batch_summary_and_the_saves_list_fit_80_columns(tmp_path: Path) -> None:
    code, output = run("play", "falling-skies", "--seat", "0=bot:random", "--games", "2", env={"COLUMNS": "80"})
    assert code == 0, output
    assert "figures over 2 games" in output and "…" not in output
    assert max(len(line) for line in output.splitlines() if "│" in line) <= 80

    saves = tmp_path / "saves"
    saves.mkdir()
    unfinished(saves / "falling-skies-20250101-120000-2.json", "falling-skies")
    code, output = run("saves", env={"COLUMNS": "80", SAVES_ENV: str(saves)})
    assert code == 0, output
    table = output.split("\nIn ")[0]  # the line under it, a path to copy, is not wrapped
    assert "…" not in table and max(len(line) for line in table.splitlines()) <= 80
