"""The balance lab's reports: the statistics against values worked out independently (scipy gave
the reference figures once; the test does not need it), and `spacetable report` on real runs."""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from spacetable.cli.main import app
from spacetable.sim.report import Change, Figure, cohens_h, holm, rate, two_proportion, welch

runner = CliRunner()


def test_two_proportion_test_of_a_fixed_table() -> None:
    # 60 wins in 100 games against 45 in 100: pooled 0.525, z = -0.15 / sqrt(0.525 * 0.475 * 2/100).
    # scipy.stats.chi2_contingency([[60, 40], [45, 55]], correction=False) gives p = 0.0336721.
    difference, z, p = two_proportion(60, 100, 45, 100)
    assert difference == pytest.approx(-0.15)
    assert z == pytest.approx(-2.1239770, abs=1e-6)
    assert p == pytest.approx(0.0336721, abs=1e-6)
    assert cohens_h(0.6, 0.45) == pytest.approx(-0.3015253, abs=1e-6)
    assert two_proportion(5, 10, 5, 10)[2] == pytest.approx(1.0)


def test_wilson_interval_of_a_rate() -> None:
    # scipy.stats.binomtest(30, 100).proportion_ci(method="wilson"): 0.2189489 to 0.3958485
    figure = rate("x", 30, 100)
    assert (figure.value, figure.n) == (0.3, 100)
    assert figure.low == pytest.approx(0.2189489, abs=1e-6)
    assert figure.high == pytest.approx(0.3958485, abs=1e-6)


def test_welch_test_of_two_means() -> None:
    # means 3 and 6, sample variances 2.5 and 10: se = sqrt(2.5/5 + 10/5) = sqrt(2.5); z = 3 / se
    difference, z, p = welch((1, 2, 3, 4, 5), (2, 4, 6, 8, 10))
    assert difference == 3
    assert z == pytest.approx(3 / math.sqrt(2.5))
    assert p == pytest.approx(0.0577796, abs=1e-6)


def test_holm_correction_steps_down_and_stops_at_the_first_failure() -> None:
    figure = Figure("f", 0.0, 0.0, 0.0, 1, False)
    changes = [Change(str(p), figure, figure, 0.0, 0.0, p) for p in (0.01, 0.04, 0.03, 0.005)]
    # sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, 0.03 > 0.05/2: the first two only
    assert [c.significant for c in holm(changes)] == [True, False, False, True]


def simulate(tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / f"{name}.parquet"
    result = runner.invoke(app, ["simulate", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two SpaceRace runs: random against random, then seat 1 greedy (it should win far more)."""
    folder = tmp_path_factory.mktemp("runs")
    common = ["spacerace", "--players", "2", "--games", "30", "--seat", "0=bot:random"]
    before = simulate(folder, "random", *common, "--seat", "1=bot:random")
    after = simulate(folder, "greedy", *common, "--seat", "1=bot:greedy")
    return before, after


def test_report_of_one_run(runs: tuple[Path, Path]) -> None:
    result = runner.invoke(app, ["report", str(runs[0])])
    assert result.exit_code == 0, result.output
    table = pq.read_table(runs[0]).to_pydict()
    lines = result.output.splitlines()

    def line(name: str) -> str:
        return next(line for line in lines if line.strip().startswith(name))

    assert f"{sum(table['win 1']) / 30:.1%}" in line("seat 1 win rate")
    assert f"{sum(table['actions']) / 30:.2f}" in line("game length (actions)")
    assert "First-player advantage" in result.output
    assert "How the games ended" in result.output


def test_report_compares_two_runs_and_says_what_changed(runs: tuple[Path, Path], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(runs[0]), "--compare", str(runs[1]), "--html", str(page)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "changed significantly" in text
    assert "seat 1 win rate" in text.split("changed significantly")[1]  # greedy wins far more often
    html = page.read_text()
    assert html.count("src='data:image/png;base64,") >= 2  # win rates and lengths, inside the page
    assert "http" not in html.replace("http-equiv", "")  # nothing fetched from elsewhere
    assert "changed significantly" in html


def test_report_bad_input_is_one_line(runs: tuple[Path, Path], tmp_path: Path) -> None:
    other = simulate(tmp_path, "fs", "falling-skies", "--seat", "0=bot:random", "--games", "2")
    pq.write_table(pa.table({"x": [1]}), tmp_path / "foreign.parquet")
    cases = [
        (["report", str(tmp_path / "missing.parquet")], "no such file"),
        (["report", str(runs[0]), "--compare", str(other)], "compare runs of one game"),
        (["report", str(tmp_path / "foreign.parquet")], "not a run of `spacetable simulate`"),
        (["report", str(runs[0]), "--html", str(tmp_path / "no" / "r.html")], "does not exist"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert message in result.output
        assert len(result.output.strip().splitlines()) == 1
