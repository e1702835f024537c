"""Bots at the web table: each decision within the table's cap (``--bot-seconds``), and a bot's
turn told move by move at the table's pace (``--bot-pace``), a person's moves never held by it."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import sqlite3
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

import spacetable
from server_helpers import WAIT, Server, run_coroutine, run_server, token_of
from spacetable import agents
from spacetable.agents import LeveledAgent, MCTSAgent, PlannerAgent, SearchBudget, level_budget, make_agent
from spacetable.engine import JSON
from spacetable.server import bots, create_app
from spacetable.server.hall import Tables

PACE = 0.3
CAP = 0.3
LATE = 0.2
"""How much later than the server told it a frame may be read (a frame is built when sent, and read
when the client gets to it, on two cores shared with bot workers and, in the soak, a browser): a
gap between arrivals may look that much shorter than the server's."""


def _position(game_id: str, players: int) -> tuple[JSON, int]:
    """A position of random play where a seat chooses among several actions."""
    game = spacetable.load(game_id, players)
    state, rng = game.new_initial_state(), random.Random(3)
    for _ in range(10_000):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.awaiting()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 2 and rng.random() < 0.3:
            return state.to_json(), seat
        state.apply_action(rng.choice(legal), seat)
    raise AssertionError("no position with a choice")


# ---- the cap ---------------------------------------------------------------------------------
def test_batch_levels_keep_their_budgets_and_a_cap_only_limits_seconds() -> None:
    hard, normal = level_budget("spacerace", "hard"), level_budget("spacerace", "normal")
    assert hard.seconds is not None and hard.seconds > CAP and normal.seconds is None
    uncapped = make_agent("hard")
    assert isinstance(uncapped, LeveledAgent) and uncapped.searcher("spacerace").budget == hard
    for name, budget in (("hard", hard), ("normal", normal)):
        capped = make_agent(name, CAP)
        assert isinstance(capped, LeveledAgent)
        assert capped.searcher("spacerace").budget == dataclasses.replace(budget, seconds=CAP)
    loose = make_agent("hard", 60.0)
    assert isinstance(loose, LeveledAgent) and loose.searcher("spacerace").budget == hard  # its own limit is lower
    planner = make_agent("planner", CAP)
    assert isinstance(planner, PlannerAgent) and planner._fallback.searcher("spacerace").budget.seconds == CAP
    assert type(make_agent("greedy", CAP)) is type(make_agent("greedy"))


def test_a_decision_at_the_table_is_cut_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A level whose iterations would take minutes searches for the cap at most: the budget handed
    to the search has the cap's seconds, and ``think`` returns in about that long."""
    searches: list[MCTSAgent] = []

    class Recorded(MCTSAgent):
        def __init__(self, budget: SearchBudget, name: str = "mcts") -> None:
            super().__init__(budget, name)
            searches.append(self)

    monkeypatch.setattr(agents, "level_budget", lambda game_id, level: SearchBudget(iterations=10_000_000))
    monkeypatch.setattr(agents, "MCTSAgent", Recorded)
    state_json, seat = _position("spacerace", 3)
    options = dict(spacetable.load("spacerace", 3).options)
    bots.think("spacerace", 3, options, state_json, seat, "random", "warm", CAP)  # the game built
    start = time.perf_counter()
    move = bots.think("spacerace", 3, options, state_json, seat, "hard", "s", CAP)
    elapsed = time.perf_counter() - start
    assert isinstance(move, dict) and len(searches) == 1
    budget, search = searches[0].budget, searches[0]
    assert budget.iterations == 10_000_000 and budget.seconds is not None
    assert bots.SEARCH_FLOOR <= budget.seconds <= CAP - bots.AFTER_SEARCH
    assert 1 < search.iterations_done < 10_000_000  # stopped by the clock, not the iterations
    assert elapsed < 2.5, f"a decision capped at {CAP} s took {elapsed:.2f} s"


def test_the_pool_hands_its_cap_to_every_decision(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[float | None] = []

    def fake(*args: Any) -> dict[str, Any]:
        seen.append(args[-1])
        return {}

    monkeypatch.setattr(bots, "think", fake)
    game = spacetable.load("spacerace", 2)
    for cap in (CAP, None):
        pool = bots.BotPool(1, cap)
        pool._executor.shutdown()
        pool._executor = ThreadPoolExecutor(1)  # type: ignore[assignment]  # the patched think runs here
        run_coroutine(pool.choose(game, game.new_initial_state().to_json(), 0, "hard", "s"))
        pool.close()
    assert seen == [CAP, None]
    with pytest.raises(ValueError, match="positive"):
        bots.BotPool(1, 0.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", bot_workers=1)) as client:
        hall: Tables = client.app.state.tables  # type: ignore[attr-defined]
        assert (hall.bots.seconds, hall.bot_pace) == (bots.TABLE_SECONDS, 0.0)  # embedded: capped, not paced


def test_a_worker_warmed_at_the_start_decides_within_the_cap() -> None:
    """A worker's first decision would import the package (seconds); the server starts its
    workers with ``warm()``, so that the first decision at a table costs no more than the next."""
    pool = bots.BotPool(1, CAP)
    try:
        for future in pool.warm():
            future.result(timeout=4 * WAIT)
        state_json, seat = _position("mothership", 4)
        game = spacetable.load("mothership", 4)
        start = time.perf_counter()
        move = run_coroutine(pool.choose(game, state_json, seat, "hard", "s"))
        elapsed = time.perf_counter() - start
    finally:
        pool.close()
    assert isinstance(move, dict) and elapsed < 2.5, f"a warmed worker's first decision took {elapsed:.2f} s"


# ---- the pace ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    """``spacetable serve --bot-pace 0.3 --bot-seconds 0.3`` and its database file."""
    db = tmp_path_factory.mktemp("paced") / "tables.sqlite3"
    with run_server(f"sqlite:///{db}", bot_pace=PACE, bot_seconds=CAP) as running:
        yield running, db


def _new_table(server: Server, game: str, seats: list[dict[str, str]]) -> dict[str, Any]:
    body = {"game": game, "players": len(seats), "seats": seats}
    created: dict[str, Any] = httpx.post(f"{server.url}/api/tables", json=body, timeout=WAIT).json()
    return created


def _hello(ws: ClientConnection, token: str | None = None, since: int | None = None) -> None:
    ws.send(json.dumps({"type": "hello", "token": token, "since": since}))


def _told(ws: ClientConnection, moves: int) -> list[tuple[float, int]]:
    """(arrival time, n) of the next ``moves`` updates with a new ``n``."""
    seen: list[tuple[float, int]] = []
    while len(seen) < moves:
        frame = json.loads(ws.recv(timeout=WAIT))
        if frame["type"] == "update" and (not seen or frame["n"] > seen[-1][1]):
            seen.append((time.monotonic(), frame["n"]))
            if frame["outcome"] is not None:
                break
    return seen


def _paced(times: list[float]) -> None:
    """Consecutive ``times`` at least the pace apart, as far as arrival times can tell: a frame
    read late makes the next gap look short, never the span of several."""
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(gaps) >= 5, gaps
    assert min(gaps) >= PACE - LATE, gaps
    assert times[-1] - times[0] >= len(gaps) * PACE - LATE, gaps


@pytest.mark.soak  # a paced game of bots, about 11 s: CI runs it in make soak
def test_a_table_of_bots_tells_their_moves_at_the_pace(server: tuple[Server, Path]) -> None:
    """Through ``spacetable serve --bot-pace``: every bot move is told at least the pace after the one
    before, the pace overlapping the thinking rather than added to it; a client gone and back
    changes nothing."""
    running, _ = server
    table = _new_table(running, "spacerace", [{"kind": "bot", "level": "random"}] * 2)["table"]
    with connect(f"{running.ws_url}/ws/{table}") as ws:
        _hello(ws)
        first = _told(ws, 7)
    with connect(f"{running.ws_url}/ws/{table}") as ws:
        _hello(ws, since=first[-1][1])
        second = _told(ws, 7)
    assert second[-1][1] > first[-1][1]
    for told in (first[1:], second[1:]):  # each list's first update is the position on joining
        _paced([t for t, _ in told])
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(told)]
        assert statistics.median(gaps) < PACE + 0.5, gaps


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_searching_bots_at_the_table_keep_the_cap(server: tuple[Server, Path]) -> None:
    """Mothership's hard bots search for seconds a decision uncapped (benchmarks/README.md); under
    ``--bot-seconds 0.3`` every move comes within the cap and a margin, and still at the pace."""
    running, _ = server
    table = _new_table(running, "mothership", [{"kind": "bot", "level": "hard"}] * 4)["table"]
    with connect(f"{running.ws_url}/ws/{table}") as ws:
        _hello(ws)
        told = _told(ws, 11)
    times = [t for t, _ in told[3:]]  # past the workers' first decisions (the game built)
    _paced(times)
    assert max(b - a for a, b in itertools.pairwise(times)) < 2.5


@pytest.mark.soak  # CI's ten minutes: make soak runs it
def test_a_persons_moves_are_not_held_by_the_bots_pace(server: tuple[Server, Path]) -> None:
    """In Showdown's draft every seat picks at once: the person's pick is told at once, while the
    three bots' picks are told the pace apart."""
    running, db = server
    seats = [{"kind": "human"}, *[{"kind": "bot", "level": "random"}] * 3]
    created = _new_table(running, "showdown", seats)
    table = created["table"]

    def movers() -> dict[int, int | None]:
        with sqlite3.connect(db) as con:
            return dict(con.execute("SELECT number, seat FROM actions WHERE table_id = ?", (table,)).fetchall())

    told: list[tuple[float, int]] = []
    with connect(f"{running.ws_url}/ws/{table}") as ws:
        _hello(ws, token_of(created["seats"][0]["link"]))
        picks = 0
        acted = -1
        while picks < 4:
            frame = json.loads(ws.recv(timeout=WAIT))
            assert frame["type"] != "refused", frame
            if frame["type"] != "update":
                continue
            told.append((time.monotonic(), frame["n"]))
            seats_of = movers()
            mine = acted >= 0 and any(seats_of.get(k) == 0 for k in range(acted + 1, frame["n"] + 1))
            if frame["actions"] and (acted < 0 or mine):
                action = frame["actions"][0]["action"]
                ws.send(json.dumps({"type": "act", "id": f"m{picks}", "n": frame["n"], "action": action}))
                acted, picks = frame["n"], picks + 1
    seats_of = movers()

    def mover(n: int) -> int | None:
        return next((seats_of[k] for k in range(n, 0, -1) if seats_of[k] is not None), None)

    by_bots = [t for t, n in told if mover(n) not in (None, 0)]
    by_person = [t for t, n in told if mover(n) == 0]
    _paced(by_bots)
    after = [t - max(b for b in by_bots if b < t) for t in by_person if any(b < t for b in by_bots)]
    assert after and min(after) < PACE  # the person's pick is told at once, not after the pace
