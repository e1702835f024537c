"""Load benchmark of the web table: many concurrent tables through the real HTTP and WebSocket API.

Starts `spacetable serve` on 127.0.0.1 with a fresh SQLite file, opens TABLES tables (falling-skies
played by a scripted client; showdown with one scripted client and bots in the other seats), and
lets every scripted client play random legal actions for SECONDS, thinking THINK seconds (on
average, uniformly from half to one and a half times it) before each move, as a quick player does;
`--think 0` measures the most moves the server takes. A finished table is replaced by a new one.
Prints the action latency (from sending a move to the update that shows it applied) p50/p99, the
messages per second the clients received, and every error. A move refused as stale (the seat's
decision changed while the client thought, as when another seat's answer closes a window) is
counted apart: the client then plays on from the newer update.

    .venv/bin/python benchmarks/web_load.py --tables 100 --seconds 120 --think 1

Every loop is bounded by the deadline; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import websockets

HOST = "127.0.0.1"


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    received: int = 0
    actions: int = 0
    games: int = 0
    stale: int = 0
    errors: list[str] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


async def _wait_ready(base: str, deadline: float) -> None:
    async with httpx.AsyncClient() as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(f"{base}/api/games")).status_code == 200:
                    return
            await asyncio.sleep(0.2)
    raise SystemExit("the server did not start within its deadline")


def _token(link: str) -> str:
    return parse_qs(link.split("#", 1)[1])["token"][0]


async def _new_table(http: httpx.AsyncClient, base: str, game: str) -> tuple[str, str]:
    """Create a table with one scripted human seat; return (table id, that seat's token)."""
    if game == "falling-skies":
        body = {"game": game, "players": 1, "options": {"level": 1}, "seats": [{"kind": "human"}]}
    else:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        body = {"game": game, "players": 4, "options": {}, "seats": seats}
    response = await http.post(f"{base}/api/tables", json=body)
    response.raise_for_status()
    data = response.json()
    return data["table"], _token(data["seats"][0]["link"])


async def _play(
    base: str, ws_base: str, game: str, deadline: float, tally: Tally, rng: random.Random, think: float
) -> None:
    """One scripted client: play random legal actions on new tables until the deadline."""
    async with httpx.AsyncClient(timeout=30) as http:
        while time.monotonic() < deadline:
            try:
                table, token = await _new_table(http, base, game)
                await _play_table(ws_base, table, token, deadline, tally, rng, think)
            except Exception as exc:  # a benchmark reports every failure and goes on
                tally.errors.append(f"{game}: {type(exc).__name__}: {exc}"[:200])
                await asyncio.sleep(0.5)


async def _play_table(
    ws_base: str, table: str, token: str, deadline: float, tally: Tally, rng: random.Random, think: float
) -> None:
    """Play one table as a quick player: think about the latest position offered, then move on
    the newest update received by then (as the browser only offers the position it shows)."""
    async with websockets.connect(f"{ws_base}/ws/{table}", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        latest: dict[str, Any] | None = None
        sent_at: float | None = None
        sent_n = -1
        decide_at: float | None = None
        while (now := time.monotonic()) < deadline:
            until = deadline if decide_at is None else min(deadline, decide_at)
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.001, until - now)))
            except TimeoutError:
                frame = None
            if frame is not None:
                tally.received += 1
                if frame.get("type") == "refused":
                    if "stale" in str(frame.get("reason")):
                        tally.stale += 1
                    else:
                        tally.errors.append(f"refused: {frame.get('reason')}"[:200])
                    sent_at, sent_n = None, -1
                elif frame.get("type") == "update":
                    if sent_at is not None and frame["n"] > sent_n:
                        tally.latencies.append(time.monotonic() - sent_at)
                        tally.actions += 1
                        sent_at = None
                    if frame.get("outcome") is not None:
                        tally.games += 1
                        return
                    latest = frame
                    if latest["actions"] and sent_at is None and decide_at is None:
                        decide_at = time.monotonic() + think * rng.uniform(0.5, 1.5)
            if decide_at is None or time.monotonic() < decide_at:
                continue
            decide_at = None
            if latest is None or not latest["actions"] or sent_at is not None or latest["n"] <= sent_n:
                continue
            choice = rng.choice(latest["actions"])
            sent_n, sent_at = latest["n"], time.monotonic()
            message = {"type": "act", "id": f"{rng.getrandbits(64):x}", "n": sent_n, "action": choice["action"]}
            await ws.send(json.dumps(message))


async def run(tables: int, seconds: float, port: int, db: Path, games: list[str], think: float) -> Tally:
    base, ws_base = f"http://{HOST}:{port}", f"ws://{HOST}:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "spacetable", "serve", "--host", HOST, "--port", str(port), "--db", f"sqlite:///{db}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    tally = Tally()
    try:
        await _wait_ready(base, time.monotonic() + 60)
        deadline = time.monotonic() + seconds
        plays = [
            _play(base, ws_base, games[i % len(games)], deadline, tally, random.Random(i), think) for i in range(tables)
        ]
        await asyncio.gather(*plays)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--games", default="falling-skies,showdown", help="the games the tables play, in turn")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client thinks before a move, on average")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        games = args.games.split(",")
        port, db = _free_port(), Path(tmp) / "load.sqlite3"
        tally = asyncio.run(run(args.tables, args.seconds, port, db, games, args.think))
        elapsed = time.monotonic() - started
    lat = sorted(tally.latencies)
    if lat:
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        print(f"action latency p50 {p50:.1f} ms, p99 {p99:.1f} ms over {len(lat)} client actions")
    print(
        f"{tally.received / elapsed:.0f} messages/s received, {tally.actions / elapsed:.1f} client actions/s, "
        f"{tally.games} games finished, {tally.stale} stale moves refused, {len(tally.errors)} errors "
        f"in {elapsed:.0f} s with {args.tables} tables"
    )
    for error in tally.errors[:20]:
        print("  error:", error)


if __name__ == "__main__":
    main()
