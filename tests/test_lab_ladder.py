"""`spacetable ladder`: every pair of bots seated alternately in every seat, Bradley-Terry ratings
with bootstrap intervals, a one-player game's win rates per level, resuming, and one-line refusals."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacetable.cli.main import app
from spacetable.engine import load_finite
from spacetable.sim.ladder import LadderSettings, bradley_terry, matches, read_ladder, run_ladder
from spacetable.sim.simulate import read_run

runner = CliRunner()


def ladder(*args: str) -> str:
    result = runner.invoke(app, ["ladder", *args])
    assert result.exit_code == 0, result.output
    return result.output


def refused(*args: str) -> str:
    result = runner.invoke(app, ["ladder", *args])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_two_bot_fit_gives_the_odds_of_the_games_with_the_prior_draw() -> None:
    # 30 games of 40 won: with half a game of draw added, 30.25 / 40.5 -> Elo 400 log10(30.25 / 10.25)
    rating = bradley_terry(2, [(1, 0, [1.0] * 30 + [0.0] * 10)])
    assert rating[0] == 0
    assert rating[1] == pytest.approx(400 * math.log10(30.25 / 10.25), abs=1e-6)
    # the same games given the other way round are the same fit
    assert bradley_terry(2, [(0, 1, [0.0] * 30 + [1.0] * 10)]) == pytest.approx(rating)


def test_a_fit_orders_three_bots_by_their_games_and_keeps_an_unbeaten_one_finite() -> None:
    games = [(0, 1, [0.0] * 8 + [1.0] * 2), (1, 2, [0.0] * 7 + [1.0] * 3), (0, 2, [0.0] * 10)]
    rating = bradley_terry(3, games)
    assert rating[0] == 0 < rating[1] < rating[2] < 2000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_pair_plays_both_seatings_so_each_bot_sits_in_every_seat_equally(players: int) -> None:
    settings = LadderSettings("showdown", players, {}, ["random", "greedy", "easy"], 10, 0, [])
    runs = matches(settings)
    assert len(runs) == 2 * 3  # three pairs, two seatings each
    for a, b in (("random", "greedy"), ("random", "easy"), ("greedy", "easy")):
        pair = [m for m in runs if set(m.seats) == {a, b}]
        assert len(pair) == 2 and all(m.games == 5 for m in pair)
        for seat in range(players):
            assert sorted(m.seats[seat] for m in pair) == sorted([a, b])  # each bot once in each seat


def test_a_ladder_rates_greedy_above_random_and_resumes_to_the_same_games(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    args = ["showdown", "--players", "2", "--bot", "random", "--bot", "greedy", "--seed", "5"]
    output = ladder(*args, "--games", "6", "--out", str(out))
    assert "6 games of showdown played" in output
    assert "| random | 0 [0, 0] | - | 6 |" in output
    ladder(*args, "--games", "10", "--out", str(out), "--resume")
    fresh = tmp_path / "fresh"
    ladder(*args, "--games", "10", "--out", str(fresh))
    for name in ("random-vs-greedy", "greedy-vs-random"):
        settings, resumed = read_run(out / f"{name}.parquet")
        assert settings.games == 5 and resumed.num_rows == 5
        assert resumed.to_pylist() == read_run(fresh / f"{name}.parquet")[1].to_pylist()
    first = read_run(out / "greedy-vs-random.parquet")[1].to_pylist()[0]
    assert (first["bot 0"], first["bot 1"]) == ("greedy", "random")
    table = read_ladder(out)
    random_row, greedy_row = table.ratings
    assert greedy_row.step == greedy_row.elo > 0 and random_row.elo == 0
    assert greedy_row.low <= greedy_row.elo <= greedy_row.high
    score, games = table.pairs["random", "greedy"]
    assert games == 10 and 0 <= score <= 10
    data = json.loads(ladder(*args, "--games", "10", "--out", str(out), "--resume", "--json"))
    assert [r["bot"] for r in data["ratings"]] == ["random", "greedy"]


def test_a_one_player_ladder_is_the_win_rate_per_level(tmp_path: Path) -> None:
    out = tmp_path / "solo"
    levels = ["--level", "1", "--level", "3"]
    output = ladder("falling-skies", "--bot", "random", *levels, "--games", "3", "--out", str(out))
    assert (
        "| random | 0.0% [0.0, 56.1] (3, score 1.33) | 0.0% [0.0, 56.1] (3, score 0.00) |" in output
    )  # research reached
    settings, rows = read_run(out / "random-level3.parquet")
    assert settings.options["level"] == 3 and rows.num_rows == 3


def test_bad_ladders_are_refused_in_one_line_and_leave_nothing(tmp_path: Path) -> None:
    out = tmp_path / "x"
    assert "unknown bot 'nobody'" in refused("showdown", "--bot", "random", "--bot", "nobody", "--out", str(out))
    assert "at least two bots" in refused("showdown", "--bot", "random", "--out", str(out))
    assert "named once" in refused("showdown", "--bot", "random", "--bot", "random", "--out", str(out))
    assert "one-player games" in refused("showdown", "--level", "2", "--out", str(out))
    assert not out.exists()
    ladder("showdown", "--players", "2", "--bot", "random", "--bot", "greedy", "--games", "2", "--out", str(out))
    assert "--resume continues" in refused("showdown", "--players", "2", "--games", "2", "--out", str(out))
    line = refused("showdown", "--players", "2", "--seed", "1", "--games", "2", "--out", str(out), "--resume")
    assert "different ladder: its seed is 0" in line
    assert "holds no ladder" in refused("showdown", "--out", str(tmp_path), "--resume")


def test_a_resumed_ladder_counts_its_kept_games_first_then_one_game_at_a_time(tmp_path: Path) -> None:
    game = load_finite("showdown", 2, {})
    run_ladder(game, ["random", "greedy"], 2, tmp_path, seed=3)
    calls: list[tuple[int, int]] = []
    kept, played = run_ladder(
        game, ["random", "greedy"], 6, tmp_path, seed=3, resume=True, on_game=lambda d, t: calls.append((d, t))
    )
    assert (kept, played) == (2, 4)
    assert calls == [(2, 6), (3, 6), (4, 6), (5, 6), (6, 6)]
