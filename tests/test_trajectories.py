"""`spacetable trajectories`: the lab's bot games as per-step Parquet rows for offline RL. The rows
have the documented schema, replay through the engine to the same observations, legal codes and
rewards, are the lab's games, survive an interrupted run (resume gives the uninterrupted rows),
and bad input is one line with nothing written."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import spacetable
from spacetable.cli.main import app
from spacetable.engine import CHANCE, Game
from spacetable.interop.sequential import apply_code, codes_of, decider, observe
from spacetable.sim.batch import play_one
from spacetable.sim.simulate import RunError
from spacetable.sim.trajectories import COLUMNS, MANIFEST, read_trajectories, write_trajectories
from spacetable.testing.toygame import ToyPoker

runner = CliRunner()
SHOWDOWN = ["showdown", "--players", "3", "--seat", "0=bot:random", "--seat", "1=bot:random", "--seat", "2=bot:random"]
FALLING = ["falling-skies", "--seat", "0=bot:random"]


def trajectories(*args: str) -> str:
    result = runner.invoke(app, ["trajectories", *args])
    assert result.exit_code == 0, result.output
    return result.output


def rows(folder: Path) -> list[dict[str, Any]]:
    return read_trajectories(folder)[1].to_pylist()


def by_game(table_rows: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    games: dict[int, list[dict[str, Any]]] = {}
    for row in table_rows:
        games.setdefault(row["game"], []).append(row)
    return games


def test_the_files_have_the_documented_schema(tmp_path: Path) -> None:
    out = tmp_path / "data"
    trajectories(*SHOWDOWN, "--games", "5", "--shard-games", "2", "--seed", "4", "--out", str(out))
    assert sorted(p.name for p in out.iterdir()) == [
        MANIFEST,
        "part-00000.parquet",
        "part-00001.parquet",
        "part-00002.parquet",
    ]
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["seats"] == ["random"] * 3 and manifest["games"] == 5 and manifest["shard_games"] == 2
    assert manifest["observation_shape"] == [339] and manifest["actions"] == 656  # docs/INTEROP.md's table

    table = pq.read_table(out)  # the folder reads as one table: the manifest is skipped
    kinds = table.schema
    assert tuple(kinds.names) == COLUMNS
    assert kinds.field("observation").type == pa.list_(pa.float32(), 339)
    assert kinds.field("legal").type == pa.list_(pa.int32())
    assert kinds.field("action").type == pa.int32() and kinds.field("reward").type == pa.float64()
    assert kinds.field("done").type == pa.bool_() and kinds.field("seat_done").type == pa.bool_()
    assert json.loads(pq.read_schema(out / "part-00002.parquet").metadata[b"spacetable shard"]) == {
        "number": 2,
        "first": 4,
        "games": 1,
    }
    games = by_game(table.to_pylist())
    assert sorted(games) == [0, 1, 2, 3, 4]
    for index, steps in games.items():
        assert [r["step"] for r in steps] == list(range(len(steps)))
        assert [r["done"] for r in steps] == [False] * (len(steps) - 1) + [True]
        assert {r["seat"] for r in steps} == {0, 1, 2}
        for row in steps:
            assert row["game_id"] == "showdown" and row["players"] == 3 and row["seed"] == f"4:{index}"
            assert row["bots"] == ["random"] * 3 and row["bot"] == "random"
            assert row["legal"] == sorted(row["legal"]) and row["action"] in row["legal"]
            assert all(0.0 <= x <= 1.0 for x in row["observation"])
        for seat in range(3):
            finals = [r for r in steps if r["seat"] == seat and r["seat_done"]]
            assert len(finals) == 1 and finals[0] is [r for r in steps if r["seat"] == seat][-1]


def replay(game: Game, seed: str, steps: list[dict[str, Any]], shaped: bool) -> None:
    """Replay one game's rows through the engine, as the adapters present it (the lowest awaited
    seat first), with chance from the recorded seed, and check each row against the state."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    earned_then: dict[int, tuple[dict[str, Any], float]] = {}

    def earned(seat: int) -> float:
        progress = game.progress(state, seat) if shaped else 0.0
        return state.returns()[seat] + float(progress or 0.0)

    for row in steps:
        while decider(state) == CHANCE:
            state.apply_action(state.sample_chance(rng))
        seat = row["seat"]
        assert decider(state) == seat
        observation = np.asarray(row["observation"], dtype=np.float32)
        assert np.array_equal(observation, observe(state, seat).ravel())
        hidden_redealt = state.resample(seat, random.Random(row["step"]))
        assert np.array_equal(observation, observe(hidden_redealt, seat).ravel())  # nothing but the seat's view
        assert row["legal"] == codes_of(state, seat)
        if seat in earned_then:
            before, then = earned_then[seat]
            assert before["reward"] == pytest.approx(earned(seat) - then)
        earned_then[seat] = (row, earned(seat))
        rng.getrandbits(64)  # what the engine's play loop draws for each decision (engine.match.decide)
        apply_code(state, row["action"])
        assert row["done"] or not state.is_terminal()
    while not state.is_terminal():  # the row marked done was the last decision: chance may end the game
        assert decider(state) == CHANCE
        state.apply_action(state.sample_chance(rng))
    for seat, (row, then) in earned_then.items():
        assert row["seat_done"] and row["reward"] == pytest.approx(earned(seat) - then)
    if not shaped:
        assert [r["reward"] for r in steps if not r["seat_done"]] == [0.0] * (len(steps) - len(earned_then))


@pytest.mark.parametrize(
    ("args", "shaped"),
    [
        ([*SHOWDOWN, "--games", "4"], False),  # hidden cards, seats deciding at once (the draft)
        ([*FALLING, "--games", "3", "--reward", "shaped", "-o", "level=2"], True),
        (["showdown", "--players", "2", "--seat", "1=bot:random", "--games", "2", "--reward", "shaped"], True),
    ],
)
def test_rows_replay_through_the_engine_to_the_same_observations_codes_and_rewards(
    tmp_path: Path, args: list[str], shaped: bool
) -> None:
    out = tmp_path / "data"
    trajectories(*args, "--seed", "9", "--out", str(out))
    settings, table = read_trajectories(out)
    game = spacetable.load_finite(settings.game, settings.players, settings.options)
    for steps in by_game(table.to_pylist()).values():
        replay(game, steps[0]["seed"], steps, shaped)


def test_game_i_is_the_labs_game_i(tmp_path: Path) -> None:
    """The same seed and bots give the games `spacetable simulate` plays: each seat's decisions
    and return match the lab's game (sim/batch.py's play_one) of the same index."""
    out = tmp_path / "data"
    trajectories(*SHOWDOWN, "--games", "6", "--seed", "2", "--out", str(out))
    settings, table = read_trajectories(out)
    game = spacetable.load_finite("showdown", 3, settings.options)
    winners = set()
    for index, steps in by_game(table.to_pylist()).items():
        lab = play_one(game, ["random"] * 3, 2, index)
        assert [sum(1 for r in steps if r["seat"] == seat) for seat in range(3)] == lab.moves
        assert [next(r["reward"] for r in steps if r["seat"] == s and r["seat_done"]) for s in range(3)] == lab.returns
        winners |= set(lab.winners)
    assert len(winners) > 1  # the games differ: the comparison is not of one game six times


def test_an_interrupted_run_resumes_to_the_rows_of_an_uninterrupted_one(tmp_path: Path) -> None:
    settings = ["--games", "9", "--shard-games", "2", "--seed", "5"]
    whole = tmp_path / "whole"
    trajectories(*SHOWDOWN, *settings, "--out", str(whole))
    expected = rows(whole)

    out = tmp_path / "data"
    game = spacetable.load_finite("showdown", 3, {})

    def stop_after_five(done: int) -> None:
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_trajectories(game, ["random"] * 3, 9, out, seed=5, shard_games=2, on_game=stop_after_five)
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "part-00000.parquet", "part-00001.parquet"]
    assert rows(out) == [r for r in expected if r["game"] < 4]  # the whole shards, readable as they are

    assert "5 games of showdown played after the 4 kept" in trajectories(
        *SHOWDOWN, *settings, "--out", str(out), "--resume"
    )
    assert rows(out) == expected

    (out / "part-00001.parquet").unlink()  # as if killed outright: a shard missing, one half written
    (out / ".part-00004.parquet.partial").write_bytes(b"half a shard")
    output = trajectories(*SHOWDOWN, *settings, "--out", str(out), "--resume", "--jobs", "2")
    assert "2 games of showdown played after the 7 kept" in output
    assert rows(out) == expected and not list(out.glob(".*"))


def test_resume_with_more_games_plays_the_short_last_shard_again(tmp_path: Path) -> None:
    settings = ["--shard-games", "3", "--seed", "1"]
    trajectories(*FALLING, *settings, "--games", "7", "--out", str(tmp_path / "whole"))
    out = tmp_path / "data"
    trajectories(*FALLING, *settings, "--games", "4", "--out", str(out))
    assert "4 games of falling-skies played after the 3 kept" in trajectories(
        *FALLING, *settings, "--games", "7", "--out", str(out), "--resume"
    )
    assert rows(out) == rows(tmp_path / "whole")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*FALLING, "--out", "{d}/old"], "exists: --resume continues that dataset"),
        ([*FALLING, "--out", "{d}/missing", "--resume"], "no such folder"),
        ([*FALLING, "--out", "{d}/plain", "--resume"], "is not a dataset of `spacetable trajectories`"),
        (["falling-skies", "--out", "{d}/old", "--resume"], 'different dataset: its seats are ["random"]'),
        ([*FALLING, "--out", "{d}/old", "--resume", "--reward", "shaped"], 'different dataset: its reward is "win"'),
        ([*FALLING, "--games", "1", "--out", "{d}/old", "--resume"], "has --games 2: resume it with that many"),
        ([*FALLING, "--games", "2", "--out", "{d}/older", "--resume"], 'different dataset: its game-version is "0.1"'),
        ([*FALLING, "--out", "{d}/no/data"], "does not exist"),
        ([*FALLING, "--out", "{d}/file.txt"], "is a file, not a folder"),
        ([*FALLING, "--reward", "points", "--out", "{d}/new"], "reward must be one of win, shaped"),
        (["nosuchgame", "--out", "{d}/new"], "unknown game"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    trajectories(*FALLING, "--games", "2", "--out", str(tmp_path / "old"))
    shutil.copytree(tmp_path / "old", tmp_path / "older")  # as written by older rules
    manifest = json.loads((tmp_path / "older" / MANIFEST).read_text())
    (tmp_path / "older" / MANIFEST).write_text(json.dumps(manifest | {"game_version": "0.1"}))
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "notes.txt").write_text("not a dataset")
    (tmp_path / "file.txt").write_text("a file")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = runner.invoke(app, ["trajectories", *(a.format(d=tmp_path) for a in args)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_a_game_without_an_observation_tensor_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="toy-poker has no observation tensor yet: trajectories need one"):
        write_trajectories(ToyPoker(), ["random", "random"], 2, tmp_path / "data")
    assert not (tmp_path / "data").exists()
