"""The balance lab's sweeps: `spacetable sweep` plays one run per value with the same seeds, resumes
an interrupted sweep, refuses bad input in one line, and marks the values that meet a target."""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from spacetable.cli.main import app
from spacetable.engine import load_finite
from spacetable.sim.report import Figure
from spacetable.sim.simulate import read_run
from spacetable.sim.sweep import (
    Point,
    Sweep,
    SweepError,
    SweepSummary,
    choose_target,
    figure_names,
    findings,
    judge,
    parse_band,
    parse_values,
    run_sweep,
    summarise_sweep,
)
from spacetable.sim.sweep_report import table

runner = CliRunner()
DUEL = ["showdown", "--players", "2", "--seat", "0=bot:random", "--seat", "1=bot:random"]
"""Showdown between two random bots: about 40 games a second."""


def sweep(*args: str) -> str:
    result = runner.invoke(app, ["sweep", *args])
    assert result.exit_code == 0, result.output
    return result.output


def rows(path: Path) -> list[dict[str, object]]:
    return pq.read_table(path).to_pylist()


def test_a_sweep_over_a_price_with_three_values_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "boost"
    files = ["--csv", str(tmp_path / "boost.csv"), "--plots", str(tmp_path / "plots")]
    files += ["--html", str(tmp_path / "b.html")]
    output = sweep(*DUEL, "--vary", "rules.boost_cost=1..3", "--games", "6", "--seed", "5", "--out", str(out), *files)

    assert sorted(p.name for p in out.iterdir()) == [f"rules.boost_cost={v}.parquet" for v in (1, 2, 3)] + [
        "sweep.json"
    ]
    for value in (1, 2, 3):  # each run is the price laid over the content, its games seeded as every other's
        settings, run = read_run(out / f"rules.boost_cost={value}.parquet")
        assert settings.options["content"] == {"rules": {"boost_cost": value}}
        assert run.column("seed").to_pylist() == [f"5:{i}" for i in range(6)]

    summary = summarise_sweep(out)
    header, lines = table(summary, ["seat 0 win rate"], choose_target(2, [], None))
    assert header == ["rules.boost_cost", "games", "target", "seat 0 win rate"]
    assert [line[:2] for line in lines] == [["1", "6"], ["2", "6"], ["3", "6"]]
    printed = [line.split()[:2] for line in output.splitlines() if line.strip()[:2] in ("1 ", "2 ", "3 ")]
    assert printed[:3] == [["1", "6"], ["2", "6"], ["3", "6"]]  # the first table: value, games, ...
    assert "Target: every seat's win rate within 2 points of the fair share (50.0%)." in output
    assert "These runs cannot tell which values meet the target" in output  # not with 6 games
    # 6 games a side: Cohen's h = (1.96 + 0.84) * sqrt(2 / 6) = 1.62, beyond the fair share's 50 points
    assert "With 6 games per value, two values must differ by about 50 points in a win rate (from 50%)" in output

    with (tmp_path / "boost.csv").open(encoding="utf-8") as file:
        figures = list(csv.DictReader(file))
    assert list(figures[0]) == ["value", "figure", "estimate", "low", "high", "n"]
    assert {(f["value"], f["figure"]) for f in figures} >= {
        (v, n) for v in "123" for n in ("seat 0 win rate", "seat 1 win rate", "game length (actions)")
    }
    assert all(float(f["low"]) <= float(f["estimate"]) <= float(f["high"]) for f in figures)

    plots = sorted((tmp_path / "plots").iterdir())
    assert tmp_path / "plots" / "win_rates.png" in plots and tmp_path / "plots" / "game_length_actions.png" in plots
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in plots)
    page = (tmp_path / "b.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == len(plots) and page.count("<tr><td>") == 3

    assert sweep("--report", str(out)) in output  # the report alone says the same


def test_an_interrupted_sweep_resumes_to_the_rows_of_one_played_at_once(tmp_path: Path) -> None:
    game = load_finite("showdown", 2)
    whole = Sweep.of(game, ["random", "random"], "rules.start_hull", [2, 3, 4], 5, 1)
    run_sweep(whole, tmp_path / "whole")

    calls: list[int] = []

    def stop_in_the_second_run(done: int) -> None:
        calls.append(done)
        if len(calls) == 3 + 2:
            raise KeyboardInterrupt

    started = Sweep.of(game, ["random", "random"], "rules.start_hull", [2, 3, 4], 3, 1)
    with pytest.raises(KeyboardInterrupt):  # the first run with 3 games, then 2 of the second's
        run_sweep(started, tmp_path / "cut", on_game=stop_in_the_second_run)
    summary = summarise_sweep(tmp_path / "cut")
    assert [p.games for p in summary.points] == [3, 2] and summary.missing == ["rules.start_hull=4"]

    result = runner.invoke(app, ["sweep", *DUEL, "--vary", "rules.start_hull=2..4", "--out", str(tmp_path / "cut")])
    assert result.exit_code == 2 and "holds a sweep: --resume continues it" in result.output
    other = ["--vary", "rules.boost_cost=2..4", "--seed", "1", "--out", str(tmp_path / "cut"), "--resume"]
    result = runner.invoke(app, ["sweep", *DUEL, *other])
    assert result.exit_code == 2 and 'holds another sweep: its key is "rules.start_hull"' in result.output

    (tmp_path / "cut" / "rules.start_hull=2.parquet").unlink()  # a lost run is played again
    args = ["--vary", "rules.start_hull=2..4", "--games", "5", "--seed", "1", "--out", str(tmp_path / "cut")]
    output = sweep(*DUEL, *args, "--resume")  # more games than it started with
    assert "rules.start_hull=3: 3 games played after the 2 kept" in output
    for value in (2, 3, 4):
        name = f"rules.start_hull={value}.parquet"
        assert rows(tmp_path / "cut" / name) == rows(tmp_path / "whole" / name)
    assert summarise_sweep(tmp_path / "cut").sweep.games == 5


def test_a_game_option_can_be_swept_and_figures_named(tmp_path: Path) -> None:
    out = tmp_path / "fire"
    sweep(*DUEL, "--vary", "option:fire_round=3,20", "--games", "2", "--out", str(out))
    assert read_run(out / "option_fire_round=3.parquet")[0].options["fire_round"] == 3
    assert read_run(out / "option_fire_round=20.parquet")[0].options["fire_round"] == 20
    result = runner.invoke(app, ["sweep", "--report", str(out), "--figure", "game length rounds"])
    assert result.exit_code == 2 and "did you mean 'game length (rounds)'" in result.output
    summary = summarise_sweep(out)
    named = next(n for n in summary.points[0].figures if n not in summary.points[0].headline)
    assert figure_names(summary, [named]) == [*summary.points[0].headline, named]
    wide = runner.invoke(app, ["sweep", "--report", str(out), "--figure", named], env={"COLUMNS": "300"})
    assert wide.exit_code == 0 and named in wide.output  # a narrower console folds the column's name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "rules.nosuch=1,2"], "--vary rules.nosuch=1: showdown content is invalid: rules.nosuch"),
        (["--vary", "rules.boost_cost=1,x"], "--vary rules.boost_cost=x: showdown content is invalid"),
        (["--vary", "rules.boost_cost=5..2"], "bad range '5..2'"),
        (["--vary", "rules.boost_cost=1..x"], "bad range '1..x': write LOW..HIGH"),
        (["--vary", "rules.boost_cost=1..3:0"], "STEP must be above 0"),
        (["--vary", "rules.boost_cost=1..1000"], "more than 100"),
        (["--vary", "rules.boost_cost="], "an empty value"),
        (["--vary", "rules.boost_cost=1,2,"], "an empty value"),
        (["--vary", "rules.boost_cost=1,1.0"], "1 is given twice"),
        (["--vary", "boost_cost"], "write KEY=VALUES"),
        (["--vary", "option:nosuch=1,2"], "unknown option(s) ['nosuch']"),
        (["--vary", "option:content=1"], "vary one content key instead"),
        (["--vary", "rules.boost_cost=1,2", "--target", "seat 0 win rate=40..60%"], "bad --target"),
        (["--vary", "rules.boost_cost=1,2", "--out", "{d}/no/sweep"], "does not exist"),
        (["--vary", "rules.boost_cost=1,2", "--out", "{d}/file"], "is a file"),
        (["--vary", "rules.boost_cost=1,2", "--resume"], "holds no sweep"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "file").write_text("")
    given = [a.format(d=tmp_path) for a in args]
    out = [] if "--out" in given else ["--out", str(tmp_path / "sweep")]
    result = runner.invoke(app, ["sweep", *DUEL, "--games", "2", *given, *out])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--report", "{d}"], "holds no sweep (no sweep.json)"),
        (["showdown", "--report", "{d}"], "give it without GAME"),
        (["showdown", "--vary", "rules.boost_cost=1,2"], "name the GAME, --vary KEY=VALUES and --out DIR"),
        (
            ["falling-skies", "--vary", "rules.energy_start=1,2", "--fair-within", "2", "--out", "{d}/s"],
            "no fair share",
        ),
    ],
)
def test_a_sweep_needs_its_settings_or_a_sweep_to_report(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sweep", *(a.format(d=tmp_path) for a in args)])
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_values_are_lists_ranges_or_both() -> None:
    assert parse_values("1,2,3") == [1, 2, 3]
    assert parse_values("2..5") == [2, 3, 4, 5]
    assert parse_values("2..7:2") == [2, 4, 6]
    assert parse_values("0.5..2:0.5") == [0.5, 1, 1.5, 2]  # a whole number is an int
    assert parse_values("0.1..0.3:0.1") == [0.1, 0.2, 0.3]  # no 0.30000000000000004, and the end included
    assert parse_values(" -1..1 , 10") == [-1, 0, 1, 10]
    assert parse_values("2.0,2.5") == [2, 2.5]
    assert parse_values("true,false") == [True, False]
    assert parse_values('duel,"a b"') == ["duel", "a b"]
    with pytest.raises(SweepError, match="given twice"):
        parse_values("1..3,2")
    with pytest.raises(SweepError, match="must be finite"):
        parse_values("inf")


def summary_of(*seats: tuple[float, float, float]) -> SweepSummary:
    """A sweep of a 2-player game over 1, 2, 3..., 1,000 games each, seat 0's win rate at each value
    given as (estimate, low, high) and seat 1's its complement."""
    values = list(range(1, len(seats) + 1))
    sweep = Sweep("showdown", 2, {}, "rules.boost_cost", values, ["greedy", "greedy"], 1000, 0)
    points = []
    for value, (rate, low, high) in zip(values, seats):
        figures = {
            "seat 0 win rate": Figure("seat 0 win rate", rate, low, high, 1000, True),
            "seat 1 win rate": Figure("seat 1 win rate", 1 - rate, 1 - high, 1 - low, 1000, True),
        }
        points.append(Point(value, f"rules.boost_cost={value}", 1000, figures, list(figures)))
    return SweepSummary(sweep, Path("sweep"), points, [])


def test_the_target_marks_the_values_whose_estimates_and_intervals_lie_in_the_band() -> None:
    summary = summary_of((0.56, 0.52, 0.60), (0.505, 0.485, 0.515), (0.49, 0.46, 0.52))
    target = choose_target(2, [], None)
    assert target is not None and [(b.low, b.high) for b in target.bands] == [(0.48, 0.52)] * 2
    verdicts = [judge(p, target) for p in summary.points]
    assert [(v.met, v.sure) for v in verdicts] == [(False, False), (True, True), (True, False)]
    assert verdicts[0].worst == "seat 0 win rate 56.0%, 4.0 points outside"
    assert [row[2] for row in table(summary, [], target)[1]] == ["", "met", "met?"]
    said = findings(summary, target)
    assert said[1] == (
        "Met (estimates inside) at rules.boost_cost 2 and 3; surely (whole 95% intervals inside) at rules.boost_cost 2."
    )
    # the widest interval, ±4 points at 1, is twice the band's width: 1,000 × 2² games would narrow it
    assert said[2] == (
        "Some 95% intervals are wider than their bands (the widest: seat 0 win rate at rules.boost_cost=1, "
        "±4.0 points against ±2.0 points); about 4,000 games per value would narrow them to the bands."
    )

    far = summary_of((0.60, 0.59, 0.61), (0.55, 0.54, 0.56))
    said = findings(far, target)
    assert said[1] == "Met by no value; the nearest is rules.boost_cost=2 (seat 0 win rate 55.0%, 3.0 points outside)."
    assert said[2].startswith("Every 95% interval is narrower than its band (the widest: ")


def test_targets_are_a_fair_band_by_default_or_the_bands_named() -> None:
    assert choose_target(1, [], None) is None  # one player: no fair share
    band = parse_band("seat 0 win rate=40%..60%")
    assert (band.figure, band.low, band.high, band.percent) == ("seat 0 win rate", 0.4, 0.6, True)
    solo = choose_target(1, [band], None)
    assert solo is not None and solo.words == "seat 0 win rate between 40.0% and 60.0%"
    rounds = parse_band("game length (rounds)=8..12.5")
    assert (rounds.low, rounds.high, rounds.percent) == (8, 12.5, False)
    both = choose_target(3, [rounds], 1)
    assert both is not None and len(both.bands) == 4
    assert both.words.startswith("every seat's win rate within 1 points of the fair share (33.3%); game length")
    for bad in ("seat 0 win rate", "x=1..", "x=2..1", "x=40%..0.6", "=1..2"):
        with pytest.raises(SweepError, match="--target"):
            parse_band(bad)
