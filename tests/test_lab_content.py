"""The lab's input and its page: progress off a terminal, content files checked before a game is
played (size, unknown keys, cards the rules cannot play, a file that changes nothing), and
docs/LAB.md's blocks made by tools/lab_docs.py from the same seeds into the same text."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Literal, get_args, get_origin

import pytest
from rich.console import Console
from typer.testing import CliRunner

from spacetable.cli import lab
from spacetable.cli.main import app
from spacetable.cli.options import MAX_CONTENT_BYTES
from spacetable.engine import ContentError
from spacetable.engine.content import SHOWN_ERRORS
from spacetable.games.falling_skies.content import RoomModel
from spacetable.games.falling_skies.rules import rooms
from spacetable.games.showdown.content import CARD_KINDS, build_content
from spacetable.games.showdown.content import CardsModel as ShowdownCards

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def simulate(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", *args, "--out", str(tmp_path / "run.parquet")])
    return result.exit_code, result.stdout, result.stderr


def variant(tmp_path: Path, text: str) -> str:
    path = tmp_path / "variant.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_run_off_a_terminal_prints_progress_lines(tmp_path: Path) -> None:
    code, out, _ = simulate(tmp_path, "falling-skies", "--seat", "0=bot:random", "--games", "10")
    assert code == 0, out
    lines = re.findall(r"falling-skies: (\d+)/10 games \((\d+)%\) · [\d.]+ games/s · about \d+ s left", out)
    assert len(lines) >= 4  # about every tenth of the run (the first game only starts the clock)
    done = [int(d) for d, _ in lines]
    assert done == sorted(done) and done[-1] < 10
    assert "10 games of falling-skies played" in out


def test_games_arriving_together_start_the_progress_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(lab.time, "monotonic", lambda: clock[0])
    console = Console(record=True, width=200)
    line = lab.progress_lines(console, "mothership", 200)
    for done in range(1, 22):  # the first batch: 21 games back at once
        line(done)
    clock[0] += 10.0
    line(41)
    assert console.export_text().splitlines() == [
        "mothership: 21/200 games (10%)",  # no rate out of a batch that took no time
        "mothership: 41/200 games (20%) · 2.00 games/s · about 1 min left",
    ]


CARD = 'name = "Destroyer"\ncount = 2\nvalue = 1\ntext = "Destroy any ship."\n'


def test_a_card_the_rules_cannot_play_is_refused_with_the_reason(tmp_path: Path) -> None:
    new = variant(tmp_path, f'[cards.destroy_any]\ntiming = "turn"\n{CARD}')
    code, _, errors = simulate(tmp_path, "mothership", "--players", "2", "--games", "1", "--content", new)
    assert code == 2 and not (tmp_path / "run.parquet").exists()
    assert "cards.destroy_any (Destroyer): the rules have no effect of this key" in errors

    moved = variant(tmp_path, '[cards.afterburner]\ntiming = "dogfight"\n[cards.the_forks]\ntiming = "turn"\n')
    code, _, errors = simulate(tmp_path, "mothership", "--players", "2", "--games", "1", "--content", moved)
    assert code == 2
    assert "cards.afterburner (Afterburner): its timing is 'dogfight', but the rules play it at 'turn'" in errors
    assert "cards.the_forks (The Forks): its timing is 'turn', but the rules play it at 'rolled'" in errors

    module = variant(tmp_path, "[cards.recon_droid]\nmodule = 'random_event'\n")
    code, _, errors = simulate(tmp_path, "mothership", "--players", "2", "-o", "random_event=true", "--content", module)
    assert code == 2 and "only the optional rule 'exploration' plays it" in errors


def literals(annotation: object) -> set[object]:
    """The values of the ``Literal`` inside a field's type (``list[Literal[...]]``, ``Literal[...] | None``)."""
    if get_origin(annotation) is Literal:
        return set(get_args(annotation))
    return set().union(*(literals(arg) for arg in get_args(annotation)))


def test_the_other_games_content_names_only_what_their_rules_do() -> None:
    """Mothership's cards are checked against its rules when a game is built (above); the other
    games' content cannot name an effect their rules lack: falling-skies' room effects are the
    rules' own, and showdown's upgrade deck is its fixed card kinds (any other key is refused)."""
    assert literals(RoomModel.model_fields["effects"].annotation) == set(rooms.EFFECTS)
    assert set(ShowdownCards.model_fields) == set(CARD_KINDS)
    with pytest.raises(ContentError, match=r"cards\.teleporter: Extra inputs are not permitted"):
        build_content(4, {"cards": {"teleporter": {"3": 2}}})


def test_a_content_file_over_the_limit_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as file:
        file.truncate(50_000_000)  # 50 MB of nothing TOML could read: refused unread
    code, _, errors = simulate(tmp_path, "spacerace", "--games", "1", "--content", str(big))
    assert code == 2
    assert f"is 50,000,000 bytes, over the {MAX_CONTENT_BYTES:,}-byte limit" in errors
    assert len(errors.strip().splitlines()) <= 2


def test_junk_keys_fail_fast_with_the_first_few_named(tmp_path: Path) -> None:
    junk = variant(tmp_path, "".join(f"junk_{i} = {i}\n" for i in range(5_000)))
    code, _, errors = simulate(tmp_path, "showdown", "--games", "1", "--content", junk)
    assert code == 2
    named = re.findall(r"junk_\d+: Extra inputs are not permitted", errors)
    assert len(named) == SHOWN_ERRORS and f"... and {5_000 - SHOWN_ERRORS:,} more" in errors
    many = variant(tmp_path, "".join(f"junk_{i} = {i}\n" for i in range(50_000)))  # under the file limit
    code, _, errors = simulate(tmp_path, "showdown", "--games", "1", "--content", many)
    assert code == 2 and "bytes as JSON, more than the 256,000" in errors  # the engine's bound on options
    assert len(errors.strip().splitlines()) <= 3


@pytest.mark.parametrize(
    ("text", "why"),
    [("", "it sets nothing"), ("[rules]\ncolumns = 5\n", "each value it sets is already the default")],
)
def test_a_content_file_that_changes_nothing_says_so_and_the_run_goes_on(tmp_path: Path, text: str, why: str) -> None:
    same = variant(tmp_path, text)
    code, out, errors = simulate(tmp_path, "falling-skies", "--seat", "0=bot:random", "--games", "2", "--content", same)
    assert code == 0, out
    assert f"warning: {same} changes nothing: {why}." in " ".join(errors.split())
    assert "2 games of falling-skies played" in out


def lab_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lab_docs", ROOT / "tools" / "lab_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_lab_md_has_a_block_per_study_and_its_commands_write_outside_the_repository() -> None:
    tool = lab_docs()
    page = (ROOT / "docs" / "LAB.md").read_text(encoding="utf-8")
    for study in tool.STUDIES:
        start, end = tool.markers(study.name)
        assert page.count(start) == 1 and page.count(end) == 1 and page.index(start) < page.index(end)
    commands = "".join(re.findall(r"```sh\n(.*?)```", page, re.DOTALL))
    written = re.findall(r"--(?:out|plots|html|csv)[ =](\S+)", commands)
    inside = [path for path in written if re.match(r"(\./)?(docs|src|tests)/", path)]
    assert written and not inside, inside  # the page's own plots are copied there by tools/lab_docs.py


@pytest.mark.soak  # two studies played twice, about 10 s: CI runs it in make soak
def test_lab_docs_gives_the_same_blocks_from_the_same_settings(tmp_path: Path) -> None:
    tool = lab_docs()
    page = tmp_path / "LAB.md"
    shutil.copyfile(ROOT / "docs" / "LAB.md", page)
    small = ["--games", "2", "--jobs", "1", "--only", "showdown", "--page", str(page)]
    assert tool.main([*small, "--dir", str(tmp_path / "runs-a")]) == 0
    start, end = tool.markers("showdown")
    block = page.read_text(encoding="utf-8").split(start)[1].split(end)[0]
    command = " ".join(block.replace("\\\n", " ").split())  # as typed, without the line breaks
    assert "--games 2 --jobs 1 --seed 1 --out /tmp/lab/showdown/hull" in command
    assert "rules.start_hull" in block and str(tmp_path) not in block
    assert (tmp_path / "lab" / "showdown" / "win_rates.png").is_file()  # the plots beside the page
    assert tool.main([*small, "--dir", str(tmp_path / "runs-b"), "--check"]) == 0
