"""The compiled build (``tools/compile.py``, ``spacetable.compiled``): built wherever a
compiler is present, never run once its sources changed, and playing the very games pure Python plays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spacetable import compiled

ROOT = Path(__file__).resolve().parent.parent

FINGERPRINT = """
import json, sys
sys.path.insert(0, "benchmarks")
import same_games as same
from spacetable import compiled
import random
import spacetable
from spacetable.games.falling_skies.bots.planner import RoundPlanner
state, rng, planner, chosen = spacetable.load("falling-skies").new_initial_state(), random.Random(5), RoundPlanner(), []
while not state.is_terminal() and len(chosen) < 15:
    action = state.sample_chance(rng) if state.is_chance_node() else planner.choose(state, 0, rng)
    chosen += [] if state.is_chance_node() else [str(action)]
    state.apply_action(action)
print(json.dumps({
    "compiled": compiled.ACTIVE,
    "random": same.random_games("mothership", 4, {"round_limit": 20, **same.EVERY_MODULE}, 1),
    "greedy": same.greedy_game("mothership", 4, {"round_limit": 4}),
    "planner": chosen,
}))
"""


def fingerprint(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "SPACETABLE_PURE"}
    if pure:
        env["SPACETABLE_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", FINGERPRINT], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_the_build_exists_where_it_can_and_plays_the_games_pure_python_plays() -> None:
    if compiled.missing_tool() is None:  # `make test` built it: a build that failed must show
        assert compiled.built(), "a compiler is here but tools/compile.py left no build"
    fast, pure = fingerprint(pure=False), fingerprint(pure=True)
    assert fast["compiled"] is bool(compiled.built()) and pure["compiled"] is False
    assert len(pure["planner"]) == 15
    assert {k: v for k, v in fast.items() if k != "compiled"} == {k: v for k, v in pure.items() if k != "compiled"}


def test_a_module_edited_since_the_build_makes_every_module_load_from_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "compiled.json"
    hashes = {module: compiled.digest(module) for module in compiled.MODULES}
    monkeypatch.setattr(compiled, "MANIFEST", manifest)
    monkeypatch.setattr(compiled, "ACTIVE", compiled.ACTIVE)
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, compiled._Sources)])
    monkeypatch.delenv("SPACETABLE_PURE", raising=False)

    manifest.write_text(json.dumps(hashes))
    compiled.guard()
    assert compiled.ACTIVE and not any(isinstance(f, compiled._Sources) for f in sys.meta_path)

    hashes[compiled.MODULES[0]] = "0" * 64  # as if the file changed after it was compiled
    manifest.write_text(json.dumps(hashes))
    compiled.guard()
    assert not compiled.ACTIVE
    assert loads_sources()


def loads_sources() -> bool:
    """Whether the import system now finds every compiled module as its source, before anything else."""
    first = sys.meta_path[0]
    return isinstance(first, compiled._Sources) and all(
        (spec := first.find_spec(module, None)) is not None and spec.origin == str(compiled.source(module))
        for module in compiled.MODULES
    )


def test_a_missing_or_unreadable_manifest_means_pure_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "ACTIVE", compiled.ACTIVE)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.delenv("SPACETABLE_PURE", raising=False)
    for text in (None, "not json", "[1, 2]"):
        manifest = tmp_path / "compiled.json"
        manifest.unlink(missing_ok=True)
        if text is not None:
            manifest.write_text(text)
        monkeypatch.setattr(compiled, "MANIFEST", manifest)
        compiled.guard()
        assert not compiled.ACTIVE and loads_sources()
