"""The balance lab's reports: the library statistics against published or hand-worked values, the
families of figures, what the runs can detect, the starting player, and `spacetable report` on
real runs (with --csv, --figure, the settings that differ, the HTML page)."""

from __future__ import annotations

import csv
import json
import math
from dataclasses import asdict
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from statsmodels.stats.multitest import multipletests
from typer.testing import CliRunner

from spacetable.cli.main import app
from spacetable.sim.report import (
    DETAIL,
    HEADLINE,
    Change,
    Figure,
    cases,
    cohens_h,
    compare,
    compare_figures,
    holm,
    p_clause,
    rate,
    sensitivity,
    shown_change,
    shown_change_interval,
    shown_p,
    summarise,
    two_proportion,
    verdict,
    welch,
)
from spacetable.sim.simulate import META_KEY, RunSettings

runner = CliRunner()


def test_two_proportion_test_and_newcombes_interval() -> None:
    # 60 wins in 100 games against 45 in 100: pooled 0.525, z = -0.15 / sqrt(0.525 * 0.475 * 2/100);
    # the chi-squared test of the table without continuity correction has p = 0.0336721.
    difference, _, _, z, p = two_proportion(60, 100, 45, 100)
    assert difference == pytest.approx(-0.15)
    assert z == pytest.approx(-2.1239770, abs=1e-6)
    assert p == pytest.approx(0.0336721, abs=1e-6)
    assert cohens_h(0.6, 0.45) == pytest.approx(-0.3015253, abs=1e-6)
    assert two_proportion(5, 10, 5, 10)[4] == pytest.approx(1.0)
    assert two_proportion(0, 10, 0, 10)[3:] == (0.0, 1.0)
    # Newcombe (1998), Statistics in Medicine 17, table II, method 10: 56/70 - 48/80 in 0.0524 to 0.3339
    # and 9/10 - 3/10 in 0.1705 to 0.8090 (here the second run minus the first).
    assert two_proportion(48, 80, 56, 70)[1:3] == pytest.approx((0.0524, 0.3339), abs=5e-5)
    assert two_proportion(3, 10, 9, 10)[1:3] == pytest.approx((0.1705, 0.8090), abs=5e-5)


def test_wilson_interval_of_a_rate() -> None:
    # Wilson (1927) for 30 of 100: (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)
    figure = rate("x", 30, 100)
    assert (figure.value, figure.n) == (0.3, 100)
    assert figure.low == pytest.approx(0.2189489, abs=1e-6)
    assert figure.high == pytest.approx(0.3958485, abs=1e-6)


def test_welch_t_test_of_two_means() -> None:
    # means 3 and 6, sample variances 2.5 and 10: se = sqrt(2.5/5 + 10/5) = sqrt(2.5), t = 3 / se,
    # Welch-Satterthwaite df = 2.5² / (0.5²/4 + 2²/4) = 5.882353; p = 2 P(T_df > t) = 0.1075312 and
    # the interval 3 ± t_0.975,df · se = -0.887742 to 6.887742.
    difference, low, high, t, p = welch((1, 2, 3, 4, 5), (2, 4, 6, 8, 10))
    assert difference == 3
    assert t == pytest.approx(3 / math.sqrt(2.5))
    assert p == pytest.approx(0.1075312, abs=1e-6)
    assert (low, high) == pytest.approx((-0.887742, 6.887742), abs=1e-6)
    assert welch((2, 2, 2), (2, 2, 2))[4] == 1.0  # no spread: no change


def test_a_rate_of_several_cases_a_game_keeps_the_more_cautious_interval_and_test() -> None:
    # 6 wins of 14 cases in 4 games: R = 3/7, residuals v - R w = 2/7, -12/7, 1/7, 9/7 over a mean
    # weight of 3.5; the game as the unit gives R ± t_0.975,3 (3.182446) · sd(residuals) / 3.5 /
    # sqrt(4), from -0.140 (kept at 0) to 0.997: wider than Wilson's 0.188 to 0.703 for 6 of 14
    figure = cases("x", [(2, 4), (0, 4), (1, 2), (3, 4)])
    assert (figure.value, figure.n, figure.successes, figure.clustered) == (3 / 7, 14, 6, True)
    residuals = [2 / 7, -12 / 7, 1 / 7, 9 / 7]
    half = 3.182446 * math.sqrt(sum(r * r for r in residuals) / 3) / 3.5 / 2
    assert (figure.low, figure.high) == pytest.approx((0.0, 3 / 7 + half), abs=1e-6)
    # 4 wins in 4 cases: the games say nothing of the spread, Wilson's interval stands
    every = cases("y", [(2, 2), (0, 0), (2, 2)])
    assert every.clustered and (every.low, every.high) == (rate("y", 4, 4).low, rate("y", 4, 4).high)
    assert not cases("z", [(1, 1), (0, 1), (0, 0)]).clustered  # one case a game at most: Wilson's
    # compared, the larger p of the two tests and the union of their intervals
    other = cases("x", [(4, 4), (3, 4), (2, 2), (4, 4)])
    change = compare_figures(figure, other)
    by_case = two_proportion(6, 14, 13, 14)
    by_game = welch(figure.values, other.values)
    assert change.p == max(by_case[4], by_game[4]) == by_game[4]
    assert (change.low, change.high) == (min(by_case[1], by_game[1]), max(by_case[2], by_game[2]))


def test_holm_steps_down_within_each_family() -> None:
    detail = Figure("f", 0.0, 0.0, 0.0, 1, False)
    top = Figure("g", 0.0, 0.0, 0.0, 1, False, headline=True)
    changes = [Change(str(p), detail, detail, 0.0, 0.0, 0.0, 0.0, p) for p in (0.01, 0.04, 0.03, 0.005)]
    # sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, 0.03 > 0.05/2: the first two only
    assert [c.significant for c in holm(changes)] == [True, False, False, True]
    # a headline p of 0.02 alone in its family passes; among the details it would not
    both = holm([*changes, Change("top", top, top, 0.0, 0.0, 0.0, 0.0, 0.02)])
    assert [c.family for c in both] == [DETAIL] * 4 + [HEADLINE]
    assert both[-1].significant


def test_p_values_and_intervals_as_text() -> None:
    assert shown_p(2.3e-280) == "< 0.001" and p_clause(2.3e-280) == "p < 0.001"
    assert (shown_p(0.0336721), p_clause(0.0336721)) == ("0.034", "p = 0.034")
    assert (shown_p(0.5), shown_p(1.0), shown_p(0.001)) == ("0.5", "1", "0.001")
    before, after = rate("r", 45, 100), rate("r", 60, 100)
    change = Change("r", before, after, 0.15, 0.0123, 0.2801, 0.3, 0.03)
    assert (shown_change(change), shown_change_interval(change)) == ("+15.0 points", "+1.2 to +28.0")


def write_run(path: Path, games: int, players: int = 2, **extra: list[Any]) -> Path:
    """A run as `spacetable simulate` writes it, with hand-made rows: seat 0 wins the even games;
    ``extra`` columns (``first``, ``value: NAME``...) and the settings' ``headline``/``percent``."""
    headline, percent = extra.pop("headline", []), extra.pop("percent", [])
    columns: dict[str, list[Any]] = {"game": list(range(games)), "seed": [f"0:{i}" for i in range(games)]}
    for s in range(players):
        columns[f"bot {s}"] = ["random"] * games
        columns[f"win {s}"] = [1.0 if i % players == s else 0.0 for i in range(games)]
    columns["winners"] = [[i % players] for i in range(games)]
    columns |= {"actions": [90 + 10 * (i % 3) for i in range(games)], "rounds": [9] * games}
    columns["reason"] = ["every rival eliminated"] * games
    columns |= extra
    settings = RunSettings("spacerace", players, {}, ["random"] * players, 0, games, percent, headline)
    table = pa.table(columns).replace_schema_metadata({META_KEY: json.dumps(asdict(settings))})
    pq.write_table(table, path)
    return path


def counts(values: list[float], name: str) -> dict[str, list[float]]:
    return {f"value: {name}": values, f"weight: {name}": [1.0] * len(values)}


def test_a_headline_change_is_not_drowned_by_a_hundred_details(tmp_path: Path) -> None:
    games = 60
    base = [4.0 + 2 * (i % 5) for i in range(games)]  # mean 8, the Mining Drones' cards bought per game
    details = [[float((i * k) % 4) for i in range(games)] for k in range(100)]  # the same in both runs
    runs = []
    for name, shift in (("before", 0.0), ("after", 1.5)):
        columns = counts([b + shift for b in base], "cards bought (total)")
        for k, values in enumerate(details):
            columns |= counts(values, f"bought: card {k}")
        runs.append(write_run(tmp_path / f"{name}.parquet", games, headline=["cards bought (total)"], **columns))
    before, after = summarise(runs[0]), summarise(runs[1])
    changes = compare(before, after)
    total = next(c for c in changes if c.name == "cards bought (total)")
    assert total.family == HEADLINE and 0.001 < total.p < 0.05 / 6
    assert total.significant  # Holm over the 6 headline figures
    headline = [c for c in changes if c.family == HEADLINE]
    assert [c.name for c in changes[: len(headline)]] == [c.name for c in headline]  # headline first
    assert len(headline) == 6 and len(changes) == 106
    one_family = multipletests([c.p for c in changes], alpha=0.05, method="holm")[0]
    assert not one_family[changes.index(total)]  # all 106 in one family: the change vanishes
    said = verdict(changes, before, after)
    assert said.startswith(
        "From before.parquet (60 games) to after.parquet (60 games), 1 headline figure(s) changed "
        "significantly: cards bought (total) 8.00 → 9.50 (+1.50, 95% interval +0.47 to +2.53, p = 0.0047)"
    )
    assert "(6 headline figures and 100 details compared" in said


def test_the_minimum_detectable_effect_matches_a_hand_computation(tmp_path: Path) -> None:
    run = summarise(write_run(tmp_path / "run.parquet", 60))
    said = sensitivity([run])
    assert said is not None and said.startswith("With 60 games this run can detect, against another run of 60 games,")
    # Cohen's h for 80% power at 5% two-sided with 60 games a side: (z_0.975 + z_0.8) sqrt(2/60),
    # a win rate moving up from the fair share 1/2: sin²(π/4 + h/2) - 1/2 = 24.5 points
    z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
    h = z * math.sqrt(2 / 60)
    points = math.sin(math.pi / 4 + h / 2) ** 2 - 0.5
    assert f"a change of {100 * points:.0f} points in a win rate (from the fair share, 50%)" in said
    # the game length: d times its standard deviation (90, 100, 110: 8.2); the t distribution's d is
    # a little above the normal one
    actions = float(said.split(" actions in the game length")[0].rsplit(" ", 1)[1])
    spread = math.sqrt(sum((x - 100) ** 2 for x in run.length.values) / 59)
    assert 0.99 * z * math.sqrt(2 / 60) * spread <= actions <= 1.03 * z * math.sqrt(2 / 60) * spread


def test_the_starting_players_win_rate_comes_from_the_first_column(tmp_path: Path) -> None:
    games, players = 40, 3
    first = [i % players for i in range(games)]
    # a game in four is a draw; the starter wins the odd games, the next seat the other decided ones
    winners = [[] if i % 4 == 0 else [first[i] if i % 2 else (first[i] + 1) % players] for i in range(games)]
    wins = {f"win {s}": [1.0 if s in w else 0.0 for w in winners] for s in range(players)}
    path = write_run(tmp_path / "run.parquet", games, players, first=first, winners=winners, **wins)
    run = summarise(path)
    assert run.first_player is not None
    figure = run.first_player.figure
    assert (figure.successes, figure.n, run.first_player.fair) == (20, 30, 1 / 3)
    # the exact two-sided binomial test: the outcomes no likelier than 20 of 30 at p = 1/3
    pmf = [math.comb(30, k) * (1 / 3) ** k * (2 / 3) ** (30 - k) for k in range(31)]
    assert run.first_player.p == pytest.approx(sum(q for q in pmf if q <= pmf[20] * (1 + 1e-7)))
    result = runner.invoke(app, ["report", str(path)])
    assert result.exit_code == 0, result.output
    assert "The starting player won 66.7% (95% interval" in " ".join(result.output.split())

    for name, column in (("none", [None] * games), ("missing", None)):
        extra = {"first": column} if column else {}
        quiet = write_run(tmp_path / f"{name}.parquet", games, **extra)
        assert summarise(quiet).first_player is None
        result = runner.invoke(app, ["report", str(quiet)])
        assert result.exit_code == 0, result.output
        assert "starting player" not in result.output


def simulate(tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / f"{name}.parquet"
    result = runner.invoke(app, ["simulate", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two short SpaceRace runs: random against random, then seat 1 greedy (it should win far more)
    with 13 mothership points (a content override)."""
    folder = tmp_path_factory.mktemp("runs")
    (folder / "points.toml").write_text("[rules]\nmothership_points = 13\n")
    common = ["spacerace", "--players", "2", "-o", "turn_limit=8", "--seat", "0=bot:random"]
    before = simulate(folder, "random", *common, "--games", "30", "--seat", "1=bot:random")
    after = simulate(
        folder, "greedy", *common, "--games", "30", "--seat", "1=bot:greedy", "--content", str(folder / "points.toml")
    )
    return before, after


def test_report_of_one_run(runs: tuple[Path, Path]) -> None:
    result = runner.invoke(app, ["report", str(runs[1])])
    assert result.exit_code == 0, result.output
    table = pq.read_table(runs[1]).to_pydict()
    lines = result.output.splitlines()

    def line(name: str) -> str:
        return next(line for line in lines if line.strip().startswith(name))

    assert f"{sum(table['win 1']) / 30:.1%}" in line("seat 1 win rate")
    assert f"{sum(table['actions']) / 30:.2f}" in line("game length (actions)")
    assert "content.rules.mothership_points = 13" in line("Overrides:")
    assert "The starting player won" in result.output
    assert "How the games ended" in result.output
    assert "With 30 games this run can detect, against another run of 30 games, a change of" in result.output


def test_report_compares_two_runs_and_says_what_changed(runs: tuple[Path, Path], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(runs[0]), "--compare", str(runs[1]), "--html", str(page)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "headline figure(s) changed significantly" in text
    assert "seat 1 win rate" in text.split("changed significantly")[1]  # greedy wins far more often
    assert "With 30 games a side this comparison can detect a change of" in text
    lines = result.output.splitlines()
    assert any(line.split() == ["seat", "1", "random", "greedy"] for line in lines)  # what differs
    assert any(line.split() == ["content.rules.mothership_points", "default", "13"] for line in lines)
    html = page.read_text()
    assert html.count("src='data:image/png;base64,") >= 3  # win rates, rate changes, lengths
    assert "http" not in html.replace("http-equiv", "")  # nothing fetched from elsewhere
    assert "changed significantly" in html
    assert "<td>content.rules.mothership_points<td>default<td>13</tr>" in html
    assert html.index("class='verdict'") < html.index("What differs") < html.index("Headline figures")
    assert html.index("Headline figures") < html.index("<img") < html.index("<details>")


def test_csv_has_every_figure_and_change(runs: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "figures.csv"
    result = runner.invoke(app, ["report", str(runs[0]), "--compare", str(runs[1]), "--csv", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    figures = [r for r in rows if r["row"] == "figure"]
    changes = {r["figure"]: r for r in rows if r["row"] == "change"}
    assert {r["run"] for r in figures} == {"random.parquet", "greedy.parquet"}
    table = pq.read_table(runs[1]).to_pydict()
    seat = next(r for r in figures if r["run"] == "greedy.parquet" and r["figure"] == "seat 1 win rate")
    assert float(seat["value"]) == pytest.approx(sum(table["win 1"]) / 30, abs=1e-6)
    assert (seat["family"], seat["kind"], seat["n"]) == ("headline", "rate", "30")
    assert float(seat["low"]) < float(seat["value"]) < float(seat["high"])
    change = changes["seat 1 win rate"]
    assert change["significant"] == "true" and change["family"] == "headline"
    assert float(change["low"]) < float(change["value"]) < float(change["high"])
    assert float(change["value"]) == pytest.approx(float(change["after"]) - float(change["before"]), abs=1e-5)
    assert 0 < float(change["p"]) < 0.05
    assert {"game length (actions)", "game length (rounds)"} <= changes.keys()


def test_a_designers_own_figure(runs: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "figures.csv"
    own = ["--figure", "long game=actions > 30", "--figure", 'seat 1 points="score 1" * 2']
    result = runner.invoke(app, ["report", str(runs[0]), "--compare", str(runs[1]), *own, "--csv", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    table = pq.read_table(runs[0]).to_pydict()
    long = next(r for r in rows if r["run"] == "random.parquet" and r["figure"] == "long game")
    assert float(long["value"]) == pytest.approx(sum(a > 30 for a in table["actions"]) / 30, abs=1e-6)
    assert long["family"] == "headline" and long["kind"] == "mean"
    assert any(r["row"] == "change" and r["figure"] == "seat 1 points" for r in rows)
    assert "long game" in result.output


@pytest.mark.parametrize(
    ("figure", "message"),
    [
        ('cards="value: bought: Nothing" + 1', "--figure 'cards': Binder Error: Referenced column"),
        ("total=sum(actions)", "--figure 'total' gives 1 value(s) for 30 games"),
        ("name=reason", "--figure 'name': Conversion Error"),
        ("x=actions +", "--figure 'x': Parser Error"),
        ("just a name", "bad --figure 'just a name': write NAME=EXPR"),
        ("seat 0 win rate=actions", "--figure 'seat 0 win rate': the run already has a figure of that name"),
        ("x=(SELECT count(*) FROM read_csv('/etc/passwd'))", "--figure 'x': Permission Error"),
    ],
)
def test_a_bad_figure_is_one_line_and_writes_nothing(
    runs: tuple[Path, Path], tmp_path: Path, figure: str, message: str
) -> None:
    out = tmp_path / "figures.csv"
    result = runner.invoke(app, ["report", str(runs[0]), "--figure", figure, "--csv", str(out)])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_report_bad_input_is_one_line(runs: tuple[Path, Path], tmp_path: Path) -> None:
    other = simulate(tmp_path, "fs", "falling-skies", "--seat", "0=bot:random", "--games", "2")
    pq.write_table(pa.table({"x": [1]}), tmp_path / "foreign.parquet")
    (tmp_path / "file").write_text("")
    cases = [
        (["report", str(tmp_path / "missing.parquet")], "no such file"),
        (["report", str(runs[0]), "--compare", str(other)], "compare runs of one game"),
        (["report", str(tmp_path / "foreign.parquet")], "not a run of `spacetable simulate`"),
        (["report", str(runs[0]), "--html", str(tmp_path / "no" / "r.html")], "does not exist"),
        (["report", str(runs[0]), "--csv", str(tmp_path / "no" / "r.csv")], "does not exist"),
        (["report", str(runs[0]), "--plots", str(tmp_path / "file")], "is a file, not a folder"),
        (["report", str(runs[0]), "--figure", "a=1", "--figure", "a=2"], "--figure 'a' is given twice"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert message in result.output
        assert len(result.output.strip().splitlines()) == 1
