"""The terminal front end: `spacetable list | play | replay | bench` and the falling-skies board text."""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.text import Text
from typer.testing import CliRunner

import spacetable
from spacetable.cli.main import app
from spacetable.cli.terminal import EventPrinter, TerminalPlayer, event_line
from spacetable.engine import Event, Record
from spacetable.games.falling_skies.views import render as fs_render

runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    """Invoke the CLI; whatever happens, no traceback reaches the user."""
    result = runner.invoke(app, list(args), input=stdin)
    assert "Traceback" not in result.output, result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


# ---- list -------------------------------------------------------------------------


def test_list_shows_falling_skies_with_its_options() -> None:
    result = run("list")
    assert result.exit_code == 0
    assert "falling-skies" in result.output
    assert "Under Falling Skies" in result.output
    assert "1 player" in result.output
    for option in ("level", "hard", "energy_room", "content"):
        assert option in result.output
    assert "1 to 8" in result.output  # the option's help is shown


def test_python_dash_m_runs_the_same_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spacetable", "list"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "falling-skies" in done.stdout


# ---- play: bot batches ---------------------------------------------------------------


def test_batch_of_bot_games_prints_one_summary_line(tmp_path: Path) -> None:
    path = tmp_path / "last.json"
    result = run(
        "play", "falling-skies", "--seat", "0=bot:random", "--games", "5", "--seed", "1", "--record", str(path)
    )
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("5 games"))
    assert re.search(r"seat 0 \(bot:random\): \d+\.\d% wins", line), line
    assert re.search(r"average \d+\.\d actions, \d+\.\d rounds", line), line
    assert re.search(r"\d+\.\d games/s", line), line
    assert "Rolled" not in result.output  # no per-event log in batches
    record = Record.loads(path.read_text())
    assert record.seats == ["bot:random"]
    assert record.final_state().is_terminal()


def test_batch_with_the_same_seed_plays_the_same_games(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        result = run(
            "play", "falling-skies", "--seat", "0=bot:random", "--games", "3", "--seed", "9", "--record", str(path)
        )
        assert result.exit_code == 0, result.output
    assert a.read_text() == b.read_text()


def test_unnamed_seats_are_greedy_bots_in_a_batch(tmp_path: Path) -> None:
    result = run("play", "falling-skies", "--games", "1", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "seat 0 (bot:greedy)" in result.output


def test_level_and_content_reach_the_game(tmp_path: Path) -> None:
    content = tmp_path / "cards.toml"
    content.write_text("[rules]\nenergy_start = 5\n")
    path = tmp_path / "r.json"
    result = run(
        "play", "falling-skies", "--games", "1", "--seat", "0=bot:random", "--level", "3",
        "--content", str(content), "--record", str(path), "--seed", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = Record.loads(path.read_text())
    assert record.options["level"] == 3
    assert record.options["content"] == {"rules": {"energy_start": 5}}
    assert record.game().new_initial_state().to_json()["energy"] == 5


# ---- play: errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "0=bot:nope"], "bots: easy, greedy, hard, normal, planner, random"),
        (["--seat", "0=robot"], "SEAT=human or SEAT=bot:NAME"),
        (["--seat", "3=human"], "seats 0 to 0"),
        (["--seat", "0=human", "--seat", "0=bot:random"], "named twice"),
        (["--seat", "0=human", "--games", "2"], "a human seat cannot play a batch"),
        (["--level", "99"], "level must be 1 to 8, got 99"),
        (["--content", "/no/such/cards.toml"], "cannot read the content file"),
        (["--players", "3"], "played by 1 player, not 3"),
        (["--record", "/no/such/folder/r.json"], "does not exist"),
    ],
)
def test_bad_play_arguments_exit_2_with_one_clear_message(args: list[str], message: str) -> None:
    result = run("play", "falling-skies", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "error:" in result.output


def test_bad_toml_and_bad_card_data_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("rules = [\n")
    result = run("play", "falling-skies", "--content", str(broken))
    assert result.exit_code == 2
    assert "is not valid TOML" in result.output
    invalid = tmp_path / "invalid.toml"
    invalid.write_text("[rules]\nenergy_start = 99\n")
    result = run("play", "falling-skies", "--content", str(invalid), "--games", "1")
    assert result.exit_code == 2
    assert "energy_start is above energy_max" in result.output


def test_unknown_game_exits_2() -> None:
    result = run("play", "chess")
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output


# ---- play: the human at the prompt ------------------------------------------------------


def test_bad_input_gets_a_message_and_a_new_prompt(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    result = run("play", "falling-skies", "--seed", "1", "--record", str(path), stdin="abc\n99\n\nb\n?\n1\n1\nq\ny\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'abc' is neither a number nor a place" in out
    assert "99 is not on the menu" in out
    assert "Type the number of your choice" in out
    assert out.count("UNDER FALLING SKIES") >= 3  # first board, `b` reprint, board after the first move
    assert " HELP " in out
    assert "Placed the" in out  # the chosen die was placed and logged
    assert "Quit this game?" in out
    assert "Game left" in out
    record = Record.loads(path.read_text())  # the record so far is saved on quit
    assert record.seats == ["human"]
    assert record.final_digest is None
    kinds = [a["kind"] for _, a in record.actions]
    assert kinds[:5] == ["roll"] * 5 and "place" in kinds
    final = record.final_state()
    assert not final.is_terminal()


def test_quit_can_be_cancelled_and_end_of_input_quits_cleanly() -> None:
    result = run("play", "falling-skies", "--seed", "1", stdin="q\nn\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Quit this game?") == 2
    assert "Game left: the input ended" in result.output


def test_a_whole_human_game_records_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("play", "falling-skies", "--seed", "5", "--record", str(path), stdin="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert re.search(r"You (won|lost): ", result.output)
    assert "Rolled a" in result.output  # dice are logged as they are rolled
    record = Record.loads(path.read_text())
    assert record.final_digest is not None
    summary = result.output[result.output.index("The game is over") :]
    assert re.search(r"result\s+you (won|lost)", summary), summary
    assert re.search(r"seed\s+5\s", summary) and re.search(rf"actions\s+{len(record.actions)}\s", summary)
    assert str(path) in summary

    replay = run("replay", str(path))
    assert replay.exit_code == 0, replay.output
    assert "UNDER FALLING SKIES" in replay.output and "BASE" in replay.output
    assert "game over" in replay.output
    assert f"{len(record.actions)} actions, replayed exactly" in replay.output

    listed = run("replay", "--actions", str(path))
    assert listed.exit_code == 0
    assert re.search(r"^\s+1\s+chance: roll \d", listed.output, re.M)
    assert "place " in listed.output


def test_a_watched_bot_game_logs_events_and_shows_the_final_board() -> None:
    result = run("play", "falling-skies", "--seat", "0=bot:greedy", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Rolled a" in result.output and "Round 2 begins" in result.output
    assert re.search(r"You (won|lost): ", result.output)
    assert "game over" in result.output


class _OneAction:
    """A stand-in state with a single legal action."""

    def legal_actions(self, seat: int) -> list[str]:
        return ["only"]

    def action_label(self, action: str) -> str:
        return f"the {action} move"


def test_a_single_legal_action_is_applied_without_a_prompt() -> None:
    from rich.console import Console

    console = Console(record=True, width=100)

    def no_input(prompt: str) -> str:
        raise AssertionError("no prompt expected")

    player = TerminalPlayer(console, lambda s, seat: "board", read=no_input)
    assert player.choose(_OneAction(), 0, random.Random(0)) == "only"  # type: ignore[arg-type]
    assert "your only choice: the only move" in console.export_text()


def test_events_are_filtered_by_seat_and_styled_by_kind() -> None:
    from rich.console import Console

    console = Console(record=True, width=100)
    printer = EventPrinter(console, 0)
    printer(None, [Event("damage", "hit [hard]"), Event("secret", "for seat 1", to=(1,))])  # type: ignore[arg-type]
    text = console.export_text()
    assert "hit [hard]" in text  # brackets are escaped, not read as markup
    assert "for seat 1" not in text
    assert event_line(Event("damage", "x")).startswith("  [bold red]")
    assert event_line(Event("shot", "x")).startswith("  [green]")


# ---- replay: errors ---------------------------------------------------------------------


def _finished_record(tmp_path: Path) -> tuple[Path, dict]:
    path = tmp_path / "bot.json"
    result = run(
        "play", "falling-skies", "--seat", "0=bot:random", "--games", "1", "--seed", "7", "--record", str(path)
    )
    assert result.exit_code == 0, result.output
    return path, json.loads(path.read_text())


def test_replay_of_a_non_json_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("this is not a record")
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert "not valid JSON" in result.output


def test_replay_of_foreign_json_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"name": "some other program", "version": 3}))
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert "not a spacetable record" in result.output


def test_replay_of_another_games_record_exits_2(tmp_path: Path) -> None:
    path, data = _finished_record(tmp_path)
    data["game"] = "chess"
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output


def test_replay_of_a_missing_file_exits_2(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nothing.json"))
    assert result.exit_code == 2
    assert "cannot read" in result.output


@pytest.mark.parametrize("bad_value", [7, [1]])
def test_a_tampered_action_does_not_replay_exit_1(tmp_path: Path, bad_value: object) -> None:
    path, data = _finished_record(tmp_path)
    data["actions"][3]["action"]["value"] = bad_value  # the 4th die roll
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 1, result.output
    assert "does not replay" in result.output


def test_a_tampered_final_digest_exits_1(tmp_path: Path) -> None:
    path, data = _finished_record(tmp_path)
    data["final_digest"] = "0" * 16
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "different position than recorded" in result.output


# ---- resume ----------------------------------------------------------------------------------


def test_a_quit_game_resumes_from_its_record_and_the_record_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    quit_early = run("play", "falling-skies", "--seed", "3", "--record", str(path), stdin="q\ny\n")
    assert quit_early.exit_code == 0, quit_early.output
    saved = Record.loads(path.read_text())
    assert saved.outcome is None and len(saved.actions) == 5  # the five dice rolled, nothing placed
    resumed = run("play", "falling-skies", "--resume", str(path), "--seat", "0=bot:greedy", "--seed", "4")
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming after 5 recorded actions" in resumed.output
    finished = Record.loads(path.read_text())
    assert finished.actions[:5] == saved.actions and finished.outcome is not None
    assert finished.final_state().is_terminal()


def test_resuming_a_finished_game_or_another_games_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    assert run("play", "falling-skies", "--seat", "0=bot:random", "--seed", "1", "--record", str(path)).exit_code == 0
    over = run("play", "falling-skies", "--resume", str(path))
    assert over.exit_code == 2 and "that game is over" in over.output
    other = run("play", "showdown", "--resume", str(path))
    assert other.exit_code == 2 and "is a record of falling-skies, not showdown" in other.output


# ---- bench ---------------------------------------------------------------------------------


def test_bench_measures_a_game_and_prints_its_figures() -> None:
    result = run("bench", "falling-skies", "--seconds", "0.2")
    assert result.exit_code == 0, result.output
    for measure in ("decisions/s", "games/s", "clone µs", "to_json µs", "mcts it/s", "slowest move ms"):
        assert measure in result.output
    assert "falling-skies" in result.output


def test_bench_of_an_unknown_game_is_a_clear_error() -> None:
    result = run("bench", "nope")
    assert result.exit_code == 2
    assert "unknown game 'nope'" in result.output


# ---- the falling-skies board -----------------------------------------------------------------


def test_render_draws_the_whole_initial_board() -> None:
    state = spacetable.load("falling-skies").new_initial_state()
    text = plain(fs_render.render(state))
    lines = text.splitlines()
    assert len(lines) <= 46
    assert max(len(line) for line in lines) <= 100
    assert "MOTHER" in text and "CITY" in text and "BASE" in text
    assert text.count("AA gun -1") == 5
    assert "SKULL 12" in text  # the mother ship track, at the left of its row
    assert "◆exc" in text  # the excavator on its start space
    mother = next(line for line in lines if line.startswith("MOTHER"))
    assert mother.count("G") == 5  # five green ships on the starting spots
    assert "[2]" in text  # energy starts at 2
    assert "RESEARCH ▶3  1  4" in text
    assert "sum of 2 dice" in text and "sum of 3 dice" in text  # joined rooms


def test_render_shows_ships_dice_and_covered_rows_mid_game() -> None:
    game = spacetable.load("falling-skies")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.round < 3 or state.phase != "place" or len(state.unplaced) > 3:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    text = plain(fs_render.render(state))
    covered = [line for line in text.splitlines() if "░░░░░░░░░░░░░░░░░░░░" in line and "┊" not in line]
    assert len(covered) == state.mothership
    in_sky = sum(1 for row, _, _ in state.ships if row > 0)
    sky = [line for line in text.splitlines() if "┊" in line]
    assert sum(line.count("G") + line.count("R") for line in sky) == in_sky
    for space, (color, value) in state.slots.items():
        assert plain(fs_render.die_text(color, value)) in text, space
    assert f"round {state.round}" in text


def test_every_position_of_random_games_renders_as_valid_markup() -> None:
    for level in (1, 8):
        game = spacetable.load("falling-skies", options={"level": level})
        rng = random.Random(level)
        for _ in range(3):
            state = game.new_initial_state()
            while True:
                text = plain(fs_render.render(state))  # raises on broken markup
                assert max(len(line) for line in text.splitlines()) <= 100
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    state.apply_action(state.sample_chance(rng))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            assert "game over" in text


@pytest.mark.parametrize("game_id", [cls.id for cls in spacetable.list_games()])
def test_game_renderers_do_not_import_rich(game_id: str) -> None:
    """Games know only the engine: markup is plain text, the CLI owns rich."""
    package = Path(spacetable.__file__).parent / "games" / game_id.replace("-", "_")
    tree = ast.parse((package / "views" / "render.py").read_text())
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not any(name.split(".")[0] in ("rich", "typer") for name in imported), imported


def test_placements_are_grouped_by_die_for_the_menu() -> None:
    game = spacetable.load("falling-skies")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.phase != "place":
        state.apply_action(state.sample_chance(rng))
    groups = fs_render.action_groups(state, state.legal_actions())
    assert groups is not None
    assert sum(len(g) for _, g in groups) == len(state.legal_actions())
    assert len(groups) == len(set(state.unplaced))
    assert all(re.fullmatch(r"(black|white) \d \(\d+ spaces?\)", label) for label, _ in groups)


def test_game_options_on_the_command_line() -> None:
    args = ["--games", "2", "--seed", "1", "-o", "turn_limit=3", "--option", "fleet_moves=all"]
    result = run("play", "spacerace", *args)
    assert result.exit_code == 0, result.output
    assert "How the games ended:" in result.output
    bad = run("play", "spacerace", "--games", "1", "-o", "turn_limit")
    assert bad.exit_code == 2 and "write KEY=VALUE" in bad.output
    wrong = run("play", "spacerace", "--games", "1", "-o", "fleet_moves=some")
    assert wrong.exit_code == 2 and "fleet_moves='some' must be one of" in wrong.output
