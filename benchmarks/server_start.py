"""How long a restarted `spacetable serve` takes to be ready with many stored tables.

Stores one falling-skies table (its set-up played, waiting for its player) through the
application, copies it TABLES times in the database (`storage.copy_table`), then starts
`spacetable serve` on 127.0.0.1 and times, ROUNDS times, from the process's start until `/readyz`
answers 200 and until a socket to one of the copies is sent its first update (the table rebuilt
when first touched). The server is stopped after each round.

    .venv/bin/python benchmarks/server_start.py --tables 0 1000 10000
    .venv/bin/python benchmarks/server_start.py --tables 10000 --db postgresql+psycopg://user@127.0.0.1/db
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import websockets
from fastapi.testclient import TestClient

from spacetable.server import create_app
from spacetable.server.storage import Storage, copy_table

HOST = "127.0.0.1"
FALLING = {"game": "falling-skies", "players": 1, "options": {}, "seats": [{"kind": "human"}]}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _one_table(url: str) -> str:
    """A falling-skies table stored on ``url`` and waiting for its player; its id."""
    with TestClient(create_app(url, tables_per_minute=None, max_tables=None)) as client:
        created = client.post("/api/tables", json=FALLING).json()
        token = parse_qs(created["seats"][0]["link"].split("#", 1)[1])["token"][0]
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": None})
            while not ws.receive_json().get("actions"):
                pass
        table: str = created["table"]
        return table


async def _first_update(port: int, table: str, deadline: float) -> None:
    async with websockets.connect(f"ws://{HOST}:{port}/ws/{table}", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
        while time.monotonic() < deadline:
            if json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))["type"] == "update":
                return


def _round(url: str, table: str) -> tuple[float, float]:
    """Seconds from starting `spacetable serve` to /readyz 200, and to a copy's first update."""
    port = _free_port()
    command = [sys.executable, "-m", "spacetable", "serve", "--host", HOST, "--port", str(port), "--db", url]
    start = time.monotonic()
    deadline = start + 120
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://{HOST}:{port}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.02)
        else:
            raise SystemExit("the server was not ready within 120 s")
        ready = time.monotonic() - start
        asyncio.run(_first_update(port, table, deadline))
        return ready, time.monotonic() - start
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[0, 1000, 10000], help="stored tables per run")
    parser.add_argument("--rounds", type=int, default=3, help="restarts timed per run (the median is shown)")
    parser.add_argument("--db", help="an empty database URL to use (default: a new SQLite file per run)")
    args = parser.parse_args()
    print("| stored tables | ready (median) | a copy's first update (median) |")
    print("|---|---|---|")
    for count in args.tables:
        with tempfile.TemporaryDirectory() as folder:
            url = args.db or f"sqlite:///{Path(folder) / 'tables.sqlite3'}"
            table = _one_table(url)
            storage = Storage(url)
            try:
                copies = copy_table(storage, table, count, prefix=f"b{count}x") if count else [table]
            finally:
                storage.close()
            times = [_round(url, copies[-1]) for _ in range(args.rounds)]
            ready = statistics.median(t[0] for t in times)
            touched = statistics.median(t[1] for t in times)
            print(f"| {count:,} | {ready:.2f} s | {touched:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
