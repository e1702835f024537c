"""The balance lab's runs: `spacetable simulate` gives the same rows however it is played,
keeps what finished when interrupted, resumes, and refuses bad input in one line."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from spacetable.cli.main import app
from spacetable.sim.batch import MAX_BATCH, batch_sizes
from spacetable.sim.simulate import META_KEY, read_run

runner = CliRunner()


def simulate(*args: str) -> str:
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return result.output


def rows(path: Path) -> list[dict[str, object]]:
    return pq.read_table(path).to_pylist()


GAME = ["spacerace", "--players", "2", "--seat", "0=bot:random", "--seat", "1=bot:random", "--seed", "7"]


@pytest.mark.soak  # CI's ten minutes: `make soak` runs it (a Ray cluster started: 5 to 30 s)
def test_the_same_seeds_give_the_same_rows_with_one_process_two_and_ray(tmp_path: Path) -> None:
    import ray  # the extra `lab`, which make test installs

    game = [*GAME, "--games", "24"]
    simulate(*game, "--out", str(tmp_path / "one.parquet"))
    simulate(*game, "--jobs", "2", "--out", str(tmp_path / "two.parquet"))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)  # a running cluster, which auto joins
    try:
        output = simulate(*game, "--ray", "auto", "--jobs", "2", "--out", str(tmp_path / "ray.parquet"))
    finally:
        ray.shutdown()
    assert "the cluster has 2 CPUs, no more than --jobs 2" in output
    one = rows(tmp_path / "one.parquet")
    assert [r["game"] for r in one] == list(range(24))
    assert {r["winners"][0] for r in one if r["winners"]} == {0, 1}  # both seats win some: the rows vary
    assert rows(tmp_path / "two.parquet") == one
    assert rows(tmp_path / "ray.parquet") == one


class FakeRay:
    """The calls ray_runner makes, each task played at once in this process: a running cluster
    of ``cpus`` CPUs, or (``cpus`` None) none to join."""

    def __init__(self, cpus: int | None) -> None:
        self.cpus = cpus
        self.tasks = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, address: str, **options: object) -> None:
        if self.cpus is None:
            raise ConnectionError("Could not find any running Ray instance. Please specify one to connect to.")

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus or 0)}

    def remote(self, function: Callable[..., object]) -> SimpleNamespace:
        return SimpleNamespace(remote=lambda *args: self._run(function, args))

    def _run(self, function: Callable[..., object], args: tuple[object, ...]) -> SimpleNamespace:
        self.tasks += 1
        done: Future[object] = Future()
        done.set_result(function(*args))
        return SimpleNamespace(future=lambda: done)

    def wait(self, tasks: list[object], num_returns: int, timeout: float) -> tuple[list[object], list[object]]:
        return tasks, []


@pytest.mark.parametrize(
    ("cpus", "note"),
    [
        (None, "--ray auto joined no cluster (Could not find any running Ray instance), so 2 local processes"),
        (3, None),  # more CPUs than --jobs: no note
        (2, "--ray: the cluster has 2 CPUs, no more than --jobs 2 gives here"),
    ],
)
def test_ray_auto_joins_the_running_cluster_else_plays_with_jobs_and_the_rows_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cpus: int | None, note: str | None
) -> None:
    fake = FakeRay(cpus)
    monkeypatch.setitem(sys.modules, "ray", fake)
    game = [*GAME, "--games", "30"]
    simulate(*game, "--out", str(tmp_path / "one.parquet"))
    output = simulate(*game, "--ray", "auto", "--jobs", "2", "--out", str(tmp_path / "ray.parquet"))
    assert rows(tmp_path / "ray.parquet") == rows(tmp_path / "one.parquet")  # game i is game i
    assert fake.tasks == (len(batch_sizes(30, cpus)) if cpus else 0)
    notes = [line for line in output.splitlines() if line.startswith("note:")]
    assert len(notes) == (note is not None) and all(note in line for line in notes)


def test_a_cluster_that_cannot_be_joined_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", FakeRay(None))
    result = runner.invoke(app, ["simulate", *GAME, "--ray", "head:6379", "--out", str(tmp_path / "x.parquet")])
    assert result.exit_code == 2, result.output
    assert "cannot join the Ray cluster at 'head:6379': Could not find" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "x.parquet").exists()


def test_batches_are_large_first_and_single_games_last() -> None:
    for games, workers in [(1, 1), (7, 2), (1000, 2), (100_000, 64)]:
        sizes = batch_sizes(games, workers)
        assert sum(sizes) == games and sizes == sorted(sizes, reverse=True)
        assert max(sizes) <= MAX_BATCH and sizes[-1] == 1
    assert batch_sizes(1000, 2)[:12] == [MAX_BATCH] * 12


def test_mothership_rows_carry_the_games_own_figures(tmp_path: Path) -> None:
    out = tmp_path / "m.parquet"
    simulate(
        "mothership",
        "--players",
        "2",
        "--seat",
        "0=bot:random",
        "--seat",
        "1=bot:random",
        "--games",
        "2",
        "--out",
        str(out),
    )
    settings, table = read_run(out)
    assert settings.game == "mothership" and settings.seats == ["random", "random"]
    names = table.column_names
    bought = [n for n in names if n.startswith("value: bought: ")]
    assert bought and all(n.replace("value: ", "weight: ", 1) in names for n in bought)
    assert any(n.startswith("value: win rate, ") for n in names)
    assert all(n in settings.percent for n in (n[len("value: ") :] for n in names if n.startswith("value: win rate")))
    for r in table.to_pylist():  # every card bought counts once, and the winner's share is whole
        assert sum(r[n] for n in bought) > 0
        assert r["win 0"] + r["win 1"] == 1.0


@pytest.mark.soak  # a run stopped and resumed, about 13 s: CI runs it in make soak
def test_an_interrupted_run_keeps_its_rows_and_resume_completes_it(tmp_path: Path) -> None:
    game = ["falling-skies", "--seat", "0=bot:random", "--seed", "3", "--games", "400"]
    out = tmp_path / "run.parquet"
    started = subprocess.Popen(  # two processes, resumed with one: the rows do not depend on it
        [sys.executable, "-m", "spacetable", "simulate", *game, "--jobs", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    partial = tmp_path / "run.parquet.partial"
    deadline = time.monotonic() + 60
    while not partial.exists() and started.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    started.send_signal(signal.SIGINT)
    output, errors = started.communicate(timeout=60)
    assert started.returncode == 130, (output, errors)
    assert "--resume" in output and "Traceback" not in errors
    kept = rows(out)
    assert 0 < len(kept) < 400
    assert not partial.exists()

    result = runner.invoke(app, ["simulate", *game, "--out", str(out)])
    assert result.exit_code == 2 and "--resume" in result.output  # never overwrites a run
    simulate(*game, "--out", str(out), "--resume")
    simulate(*game, "--out", str(tmp_path / "whole.parquet"))
    assert rows(out) == rows(tmp_path / "whole.parquet")


def test_resume_refuses_another_runs_settings_and_changes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run.parquet"
    simulate("falling-skies", "--seat", "0=bot:random", "--games", "3", "--out", str(out))
    before = out.read_bytes()
    result = runner.invoke(app, ["simulate", "falling-skies", "--games", "5", "--out", str(out), "--resume"])
    assert result.exit_code == 2
    assert 'different run: its seats are ["random"]' in result.output
    result = runner.invoke(app, ["simulate", "spacerace", "--games", "5", "--out", str(out), "--resume"])
    assert 'different run: its game is "falling-skies"' in result.output
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchgame", "--out", "{d}/x.parquet"], "unknown game"),
        (["falling-skies", "--seat", "0=bot:nobody", "--out", "{d}/x.parquet"], "unknown bot 'nobody'"),
        (["falling-skies", "--out", "{d}/no/x.parquet"], "does not exist"),
        (["falling-skies", "--out", "{d}/missing.parquet", "--resume"], "no such file"),
        (["falling-skies", "--content", "{d}/none.toml", "--out", "{d}/x.parquet"], "cannot read the content file"),
        (["falling-skies", "--out", "{d}/foreign.parquet", "--resume"], "not a run of `spacetable simulate`"),
        (["falling-skies", "--out", "{d}/junk.parquet", "--resume"], "not a readable Parquet file"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    import pyarrow as pa

    pq.write_table(pa.table({"x": [1]}), tmp_path / "foreign.parquet")
    (tmp_path / "junk.parquet").write_text("not parquet")
    result = runner.invoke(app, ["simulate", *(a.format(d=tmp_path) for a in args)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_run_metadata_names_the_settings(tmp_path: Path) -> None:
    out = tmp_path / "run.parquet"
    simulate(
        "falling-skies", "--seat", "0=bot:random", "--games", "2", "--seed", "11", "-o", "level=3", "--out", str(out)
    )
    meta = pq.read_schema(out).metadata[META_KEY].decode()
    assert '"seed": 11' in meta and '"level": 3' in meta and '"games": 2' in meta
