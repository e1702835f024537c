"""docs/LAB.md's studies played again and written into the page, so its figures are what its commands give.

    python tools/lab_docs.py                     # every study in full (`make lab-docs`): the page's blocks and plots
    python tools/lab_docs.py --games 4 --only showdown --page /tmp/LAB.md   # a small run, into a copy of the page
    python tools/lab_docs.py --check             # exit 1, saying what differs, when the page is not what the run gives

A study is a few ``spacetable`` commands as run from the repository's folder, its files in its own
folder under ``--dir`` (/tmp/lab: the page shows the commands as they ran there). The page's block
between ``<!-- lab-docs:NAME start -->`` and ``<!-- lab-docs:NAME end -->`` is the commands, what the
last one prints (folded) and the study's plots (copied beside the page, into lab/NAME/). The rows of a run
depend on its seeds only, so the same settings give the same blocks on any machine;
tests/test_lab_content.py checks this on a small run.
"""

from __future__ import annotations

import argparse
import difflib
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from spacetable.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "LAB.md"
LAB = ROOT / "docs" / "lab"
"""The studies' content files."""
SHOWN_DIR = Path("/tmp/lab")
"""Where the page says the runs are written (and the folder they use unless ``--dir`` says otherwise)."""
WIDTH = 100
"""The console's columns for the commands' output (its tables fit the page's code blocks)."""
LINE = 96
"""A shown command longer than this goes on over lines ending in a backslash."""


@dataclass(frozen=True)
class Study:
    """One study of the page: its commands, run in turn, and the plots the page shows."""

    name: str
    games: int
    """Games per run in the full study (all of them: about four minutes on two idle cores)."""
    commands: tuple[str, ...]
    """``spacetable`` commands with ``{games}``, ``{jobs}``, ``{dir}`` (the study's folder) and ``{lab}``
    (docs/lab) to fill; the last one's output is shown, so it plays nothing (its output has no timings)."""
    plots: tuple[str, ...] = ()
    """The PNG files of ``{dir}/plots`` the page shows, copied to lab/NAME/ beside it."""


STUDIES = (
    Study(
        "spacerace",
        120,
        (
            "simulate spacerace --players 3 --games {games} --jobs {jobs} --seed 1 --out {dir}/base.parquet",
            "simulate spacerace --players 3 --games {games} --jobs {jobs} --seed 1"
            " --content {lab}/spacerace-mothership-points-13.toml --out {dir}/points13.parquet",
            "report {dir}/base.parquet --compare {dir}/points13.parquet --plots {dir}/plots",
        ),
        ("win_rates.png", "lengths.png"),
    ),
    Study(
        "mothership",
        150,
        (
            "sweep mothership --vary deck.card_price=1,2,3,4 --players 2 --seat 0=bot:random --seat 1=bot:random"
            " --games {games} --jobs {jobs} --seed 1 --out {dir}/price",
            "sweep --report {dir}/price --plots {dir}/plots",
        ),
        ("win_rates.png", "cards_bought_total.png"),
    ),
    Study(
        "showdown",
        200,
        (
            "sweep showdown --players 3 --vary rules.start_hull=2,3,4,5 --games {games} --jobs {jobs} --seed 1"
            " --out {dir}/hull",
            "sweep --report {dir}/hull --plots {dir}/plots",
        ),
        ("win_rates.png", "game_length_rounds.png"),
    ),
)


class LabDocsError(Exception):
    """A study that cannot be run, or a page without a study's markers (one line)."""


def markers(name: str) -> tuple[str, str]:
    return f"<!-- lab-docs:{name} start -->", f"<!-- lab-docs:{name} end -->"


def shown(command: str) -> str:
    """``spacetable COMMAND`` as the page shows it: over lines of at most LINE characters where it
    can, broken before an option (never between an option and its value)."""
    chunks: list[str] = []
    for word in shlex.split(command):
        if word.startswith("--") or not chunks:
            chunks.append(shlex.quote(word))
        else:
            chunks[-1] += " " + shlex.quote(word)
    lines = ["spacetable " + chunks[0]]
    for chunk in chunks[1:]:
        if len(lines[-1]) + 1 + len(chunk) > LINE:
            lines[-1] += " \\"
            lines.append("    " + chunk)
        else:
            lines[-1] += " " + chunk
    return "\n".join(lines)


def spacetable(command: str) -> str:
    """What ``spacetable COMMAND`` prints on stdout (run in this process, its output captured; a
    line on stderr says when it is done); LabDocsError with the end of its output if it fails."""
    started = time.monotonic()
    result = CliRunner().invoke(app, shlex.split(command), env={"COLUMNS": str(WIDTH)})
    if result.exit_code != 0:
        raise LabDocsError(f"`spacetable {command}` failed (exit {result.exit_code}): {result.output[-600:].strip()}")
    print(f"lab-docs: {time.monotonic() - started:.0f} s  spacetable {command}", file=sys.stderr, flush=True)
    return result.stdout


def run(study: Study, games: int, jobs: int, folder: Path) -> tuple[str, Path]:
    """Play ``study`` in ``folder`` (emptied first): the page's block, and where its plots are."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    settings = {"games": games, "jobs": jobs}
    output = ""
    for command in study.commands:
        output = spacetable(command.format(dir=shlex.quote(str(folder)), lab=shlex.quote(str(LAB)), **settings))
    there = SHOWN_DIR / study.name
    printed = "\n".join(line.rstrip() for line in output.replace(str(folder), str(there)).strip("\n").splitlines())
    commands = "\n".join(shown(command.format(dir=there, lab="docs/lab", **settings)) for command in study.commands)
    output_block = f"<details><summary>What the last command prints</summary>\n\n```text\n{printed}\n```\n\n</details>"
    images = "\n".join(f"![{study.name}: {plot}](lab/{study.name}/{plot})" for plot in study.plots)
    parts = [f"```sh\n{commands}\n```", output_block, *([images] if images else [])]
    return "\n\n".join(parts) + "\n", folder / "plots"


def replace(page: str, name: str, block: str) -> str:
    """``page`` with ``block`` between the study's markers (LabDocsError if it has no such markers)."""
    start, end = markers(name)
    if page.count(start) != 1 or page.count(end) != 1 or page.index(start) > page.index(end):
        raise LabDocsError(f"the page has no single pair of markers {start} ... {end}")
    head, rest = page.split(start, 1)
    return f"{head}{start}\n{block}{end}{rest.split(end, 1)[1]}"


def copy_plots(study: Study, plots: Path, page: Path) -> None:
    """The study's plots beside ``page`` (in lab/NAME/, replacing what was there)."""
    target = page.parent / "lab" / study.name
    missing = [plot for plot in study.plots if not (plots / plot).is_file()]
    if missing:
        raise LabDocsError(f"{study.name}: the commands drew no {', '.join(missing)}")
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for plot in study.plots:
        shutil.copyfile(plots / plot, target / plot)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, metavar="N", help="games per run (default: each study's full count)")
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="processes playing at once (default 2)")
    parser.add_argument("--only", action="append", choices=[s.name for s in STUDIES], help="this study (repeatable)")
    parser.add_argument("--dir", type=Path, default=SHOWN_DIR, help=f"the studies' folders go here ({SHOWN_DIR})")
    parser.add_argument("--page", type=Path, default=PAGE, help="the page to write or check (docs/LAB.md)")
    parser.add_argument("--check", action="store_true", help="compare the page's blocks with the run; change nothing")
    args = parser.parse_args(argv)
    studies = [s for s in STUDIES if not args.only or s.name in args.only]
    try:
        for study in studies:  # the markers are there before anything is played
            replace(args.page.read_text(encoding="utf-8"), study.name, "")
        runs = [(study, *run(study, args.games or study.games, args.jobs, args.dir / study.name)) for study in studies]
        page = args.page.read_text(encoding="utf-8")  # read once the runs are done: edits made meanwhile stay
        updated = page
        for study, block, _ in runs:
            updated = replace(updated, study.name, block)
        if args.check:
            return _compare(page, updated, args.page)
        for study, _, drawn in runs:  # once every study has run: the page and its plots change together
            copy_plots(study, drawn, args.page)
        args.page.write_text(updated, encoding="utf-8")
    except (LabDocsError, OSError) as exc:
        print(f"lab-docs: {exc}", file=sys.stderr)
        return 1
    return 0


def _compare(page: str, updated: str, path: Path) -> int:
    """0 if the page is what the run gives; else 1, with the first differences and a line saying so."""
    if updated == page:
        return 0
    diff = difflib.unified_diff(page.splitlines(), updated.splitlines(), str(path), "the run", n=0, lineterm="")
    print("\n".join(list(diff)[:40]))
    print(f"lab-docs: {path.name}'s blocks differ from what their commands give: run make lab-docs")
    return 1


if __name__ == "__main__":
    sys.exit(main())
