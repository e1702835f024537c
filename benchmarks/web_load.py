"""Load benchmark of the web table: many concurrent tables through the real HTTP and WebSocket API.

Starts `spacetable serve` on 127.0.0.1 with `--tables-per-minute 0 --max-tables 0
--sockets-per-address 0 --log-level warning` (its limits stay out of the way: every client comes
from this one address), makes showdown tables to start every server process's bot workers
and waits until the servers are idle, then opens TABLES tables (falling-skies played by a
scripted client; showdown with one scripted client and `random` bots in the other seats) and
lets every scripted client play random legal actions for SECONDS, thinking THINK seconds (on
average, uniformly from half to one and a half times it) before each move, as a quick player does;
`--think 0` measures the most moves the server takes. A finished table is replaced by a new one.

The database is a fresh SQLite file per run by default. `--postgres` starts a throwaway
PostgreSQL cluster for the whole benchmark (Debian's newest `/usr/lib/postgresql/*/bin`, in a
temporary folder, on a free 127.0.0.1 port, fsync on; as root it runs as the `postgres` user)
and makes a fresh database in it for each run. `--db URL` uses an existing database as it is:
give it an empty one, as the server resumes the unfinished tables it finds.

`--processes N` starts N `spacetable serve` processes on N ports, all on the same PostgreSQL
database: client i creates its tables through process i mod N, and each new table's seat
connects to the next process in turn, so that moves and their updates cross processes.
`--workers N` is passed to every `spacetable serve` (N processes sharing one port, the kernel
spreading the connections). Both need PostgreSQL.

Each run prints a markdown table row on stdout (under one header line: what the README's table
takes): the client moves per second and the messages per second the clients received over the
SECONDS of play, the games finished, the latency of a move (from sending its `act` to the first
update that shows it applied) p50/p95/p99, the moves refused as stale (the seat's decision
changed or was no longer owed by the time the move arrived, as when another seat's answer closes
a window or the client read an old update under load: the client then plays on from the newer
update), the errors, the peak RSS of the server processes with their
children (bot workers, uvicorn's workers; read from /proc once a second and summed over the
process trees, so pages they share count more than once) and the CPU used by the servers,
PostgreSQL (when this script started it) and the clients, in per cent of one core. Progress, the
errors' first distinct messages, the servers' own log lines and a note when the clients
themselves were busy go to stderr. `--tables` takes several values, run in turn, each on a fresh
database.

    .venv/bin/python benchmarks/web_load.py --tables 100 --seconds 120 --think 1
    .venv/bin/python benchmarks/web_load.py --postgres --processes 2 --tables 10 100 300 1000 --seconds 120
    .venv/bin/python benchmarks/web_load.py --postgres --workers 2 --tables 100
    .venv/bin/python benchmarks/web_load.py --db postgresql+psycopg://user@127.0.0.1:5432/empty --tables 100

Every loop is bounded by a deadline; the servers and PostgreSQL listen on 127.0.0.1 only and are
stopped, and their temporary folders removed, at the end (also on Ctrl-C, SIGTERM or an error).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import itertools
import json
import os
import pwd
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import parse_qs

import httpx
import websockets

HOST = "127.0.0.1"
READY_SECONDS = 60.0
"""How long a server or PostgreSQL gets to start (a server imports the games and migrates)."""
STOP_SECONDS = 30.0
"""How long a server or PostgreSQL gets to stop before it is killed."""
SAMPLE_SECONDS = 1.0
"""How often the servers' memory and CPU are read from /proc."""
WARM_SECONDS = 60.0
"""How long the servers get to start their bot workers before the clock starts."""
WARM_IDLE = 0.3
"""Cores the servers may still use when they count as warm."""
LATE_SECONDS = 45.0
"""How long after the deadline a client may take to finish (its request's timeout is 30 s)."""
DISTINCT_ERRORS = 5
"""How many distinct error messages a run keeps (every error is counted)."""
BUSY_CLIENT = 80.0
"""Per cent of one core above which the clients' own delays show in the latencies."""
COLUMNS = [
    "db",
    "processes",
    "workers",
    "tables",
    "seconds",
    "think",
    "client moves/s",
    "messages/s",
    "games finished",
    "latency p50",
    "p95",
    "p99",
    "stale refused",
    "errors",
    "peak RSS",
    "CPU % server / db / clients",
]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    received: int = 0
    actions: int = 0
    games: int = 0
    stale: int = 0
    errors: int = 0
    distinct: dict[str, int] = field(default_factory=dict)
    """The first DISTINCT_ERRORS distinct error messages, each with how often it came."""
    opened: int = 0
    """Clients that have had their first table's first update."""
    all_open: float | None = None
    """Seconds into the play when the last client had its first table's first update."""

    def error(self, message: str) -> None:
        self.errors += 1
        message = message[:200]
        if message in self.distinct or len(self.distinct) < DISTINCT_ERRORS:
            self.distinct[message] = self.distinct.get(message, 0) + 1


@dataclass
class Result:
    tables: int
    seconds: float
    """The play's length: what the clients count (moves, messages) stops with it."""
    elapsed: float
    """Seconds from the clients' start until the last one stopped (the CPU's time base)."""
    tally: Tally
    peak_rss: int
    """Bytes, the most the server processes and their children held at one sample."""
    cpu: dict[str, float | None]
    """Per cent of one core over the play, by "server", "db" (None when not ours) and "clients"."""
    logs: dict[str, list[str]]
    """Each server's log lines (its warnings and errors) up to the end of the play, by server."""


# ---- processes ----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _tail(log: Path, lines: int = 15) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a process this script started in a session of its own: ``sig`` to it, SIGKILL to its
    whole group if it has not exited within STOP_SECONDS; then SIGTERM to what is left of the group."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, sig)
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=STOP_SECONDS)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)  # a child left behind (a bot worker), if any


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"


def _start_server(db_url: str, workers: int, log: Path) -> Server:
    port = _free_port()
    command = [
        *(sys.executable, "-m", "spacetable", "serve", "--host", HOST, "--port", str(port), "--db", db_url),
        *("--workers", str(workers), "--tables-per-minute", "0", "--max-tables", "0", "--sockets-per-address", "0"),
        *("--log-level", "warning"),
    ]
    with log.open("wb") as out:  # a file, not a pipe nobody reads: a full pipe would stop the server
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return Server(process, port, log)


def _wait_ready(server: Server) -> None:
    """Wait until the server answers /readyz (its database migrated), within READY_SECONDS."""
    deadline = time.monotonic() + READY_SECONDS
    with httpx.Client(timeout=5) as http:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise SystemExit(
                    f"the server on port {server.port} exited ({server.process.returncode}):\n{_tail(server.log)}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if http.get(f"{server.base}/readyz").status_code == 200:
                    return
            time.sleep(0.2)
    raise SystemExit(f"the server on port {server.port} was not ready within {READY_SECONDS:g} s:\n{_tail(server.log)}")


@contextlib.contextmanager
def _servers(db_url: str, processes: int, workers: int, folder: Path) -> Iterator[list[Server]]:
    """Start ``processes`` servers on ``db_url``, one after the other (the first migrates a fresh
    database alone), each ready before the next starts; stop them all at the end."""
    servers: list[Server] = []
    try:
        for i in range(processes):
            servers.append(_start_server(db_url, workers, folder / f"server{i}.log"))
            _wait_ready(servers[-1])
        _warm(servers, workers)
        yield servers
    finally:
        for server in servers:
            _stop(server.process)


def _warm(servers: list[Server], workers: int) -> None:
    """Start the servers' bot workers before the clock does: a server process spawns them (seconds
    of imports each) when its first table with a bot seat is made. Make showdown tables (a person's
    seat never taken, bots that play until its turn): one per server, or with `--workers` four per
    worker, each on a new connection, as the kernel, not this script, picks the worker that takes
    it; then wait until the servers have used less than WARM_IDLE of a core for two seconds in a
    row, WARM_SECONDS at most."""
    started = time.monotonic()
    with httpx.Client(timeout=30, headers={"Connection": "close"}) as http:
        for server in servers:
            for _ in range(1 if workers == 1 else 4 * workers):
                http.post(f"{server.base}/api/tables", json=_table_request("showdown")).raise_for_status()
    roots = [server.process.pid for server in servers]
    before, quiet = _tree_cpu(roots), 0
    while quiet < 2 and time.monotonic() < started + WARM_SECONDS:
        time.sleep(1)
        now = _tree_cpu(roots)
        quiet = quiet + 1 if now - before < WARM_IDLE else 0
        before = now
    count = len(_tree(roots, _processes()))
    print(f"  servers ready and warm in {time.monotonic() - started:.1f} s, {count} processes", file=sys.stderr)


@dataclass
class Cluster:
    """A throwaway PostgreSQL cluster: its bin directory, port, folder and how to run its tools."""

    bindir: str
    port: int
    root: Path
    prefix: list[str]
    process: subprocess.Popen[bytes]

    def createdb(self, name: str) -> str:
        """A new, empty database; its SQLAlchemy URL."""
        command = [*self.prefix, f"{self.bindir}/createdb", "-h", HOST, "-p", str(self.port), "-U", "spacetable", name]
        _run(command, self.root)
        return f"postgresql+psycopg://spacetable@{HOST}:{self.port}/{name}"


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, timeout=READY_SECONDS)
    if done.returncode != 0:
        output = (done.stdout + done.stderr).decode(errors="replace").strip()
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{output}")


def _postgres_bin() -> str:
    """The newest Debian PostgreSQL server's bin directory."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise SystemExit("--postgres: no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)")
    return os.path.dirname(found[-1])


def _as_server_user() -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the 'postgres' (or 'nobody') user."""
    if os.geteuid() != 0:
        return []
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"]
    raise SystemExit("--postgres: running as root with neither a 'postgres' nor a 'nobody' user to run it as")


@contextlib.contextmanager
def _postgres() -> Iterator[Cluster]:
    """Start a PostgreSQL cluster in a temporary folder on a free 127.0.0.1 port (fsync on, trust
    authentication for the user `spacetable`); stop it and remove the folder at the end."""
    bindir, prefix = _postgres_bin(), _as_server_user()
    root = Path(tempfile.mkdtemp(prefix="spacetable-load-pg-"))
    try:
        if prefix:
            shutil.chown(root, user=prefix[2])
        data = root / "data"
        _run([*prefix, f"{bindir}/initdb", "-D", str(data), "-U", "spacetable", "--auth=trust", "-E", "UTF8"], root)
        port = _free_port()
        log = root / "postgres.log"
        command = [
            *(*prefix, f"{bindir}/postgres", "-D", str(data), "-p", str(port), "-h", HOST, "-k", str(root)),
            *("-c", "synchronous_commit=on", "-c", "max_connections=300"),
        ]
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=root,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + READY_SECONDS
            ready = [f"{bindir}/pg_isready", "-h", HOST, "-p", str(port)]
            while subprocess.run(ready, capture_output=True, timeout=READY_SECONDS).returncode != 0:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"PostgreSQL did not start on {HOST}:{port}:\n{_tail(log)}")
                time.sleep(0.1)
            yield Cluster(bindir, port, root, prefix, process)
        finally:
            _stop_postgres(process, data)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _stop_postgres(process: subprocess.Popen[bytes], data: Path) -> None:
    """A fast shutdown (SIGINT to the postmaster, whose pid is the first line of postmaster.pid;
    `runuser` exits with it), then what `_stop` does if that does not end it."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        os.kill(int((data / "postmaster.pid").read_text().split()[0]), signal.SIGINT)
    _stop(process, signal.SIGINT)


# ---- what the processes use ----------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, float]]:
    """Every process's (parent pid, CPU seconds used) from /proc/<pid>/stat."""
    found: dict[int, tuple[int, float]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        found[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
    return found


def _tree(roots: list[int], processes: dict[int, tuple[int, float]]) -> set[int]:
    """The roots and all their descendants."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    tree: set[int] = set()
    todo = [pid for pid in roots if pid in processes]
    while todo:
        pid = todo.pop()
        if pid not in tree:
            tree.add(pid)
            todo.extend(children.get(pid, ()))
    return tree


def _tree_cpu(roots: list[int]) -> float:
    """CPU seconds used by the processes now in the roots' trees."""
    processes = _processes()
    return sum(processes[pid][1] for pid in _tree(roots, processes))


def _rss(pid: int) -> int:
    """The process's resident memory in bytes (VmRSS), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Sampler(threading.Thread):
    """Once a second: the RSS summed over the servers' process trees (its peak kept) and the CPU
    seconds of every process in each group's tree (the servers', PostgreSQL's)."""

    def __init__(self, groups: dict[str, list[int]]) -> None:
        super().__init__(daemon=True)
        self.groups = groups
        self.peak_rss = 0
        self.first: dict[int, float] = {}
        self.last: dict[str, dict[int, float]] = {name: {} for name in groups}
        self._done = threading.Event()
        self.sample(first=True)

    def sample(self, first: bool = False) -> None:
        processes = _processes()
        for name, roots in self.groups.items():
            tree = _tree(roots, processes)
            for pid in tree:
                self.last[name][pid] = processes[pid][1]
                if first:
                    self.first[pid] = processes[pid][1]
            if name == "server":
                self.peak_rss = max(self.peak_rss, sum(_rss(pid) for pid in tree))

    def cpu(self, name: str) -> float:
        """CPU seconds the group used since the first sample (a process started since: all of it)."""
        return sum(seconds - self.first.get(pid, 0.0) for pid, seconds in self.last[name].items())

    def run(self) -> None:
        while not self._done.wait(SAMPLE_SECONDS):
            self.sample()

    def finish(self) -> None:
        self._done.set()
        self.join(timeout=STOP_SECONDS)
        self.sample()


def _client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---- the clients ----------------------------------------------------------------------


def _token(link: str) -> str:
    return parse_qs(link.split("#", 1)[1])["token"][0]


def _table_request(game: str) -> dict[str, Any]:
    """A new table's request: falling-skies solo, or showdown with three `random` bots."""
    if game == "falling-skies":
        return {"game": game, "players": 1, "options": {"level": 1}, "seats": [{"kind": "human"}]}
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
    return {"game": game, "players": 4, "options": {}, "seats": seats}


async def _new_table(http: httpx.AsyncClient, base: str, game: str) -> tuple[str, str]:
    """Create a table with one scripted human seat; return (table id, that seat's token)."""
    response = await http.post(f"{base}/api/tables", json=_table_request(game))
    response.raise_for_status()
    data = response.json()
    return data["table"], _token(data["seats"][0]["link"])


@dataclass
class Client:
    """One scripted client: ``base`` is the server it makes its tables through, ``seat_bases``
    the servers its tables' seats connect to, in turn with every other client's (``turns``);
    ``started`` is when the play began, for ``tables`` clients in all."""

    base: str
    seat_bases: list[str]
    turns: Iterator[int]
    game: str
    deadline: float
    think: float
    rng: random.Random
    started: float
    tables: int
    opened: bool = False


async def _play(http: httpx.AsyncClient, client: Client, tally: Tally) -> None:
    """One scripted client: play random legal actions on new tables until the deadline."""
    while time.monotonic() < client.deadline:
        try:
            table, token = await _new_table(http, client.base, client.game)
            ws_base = "ws" + client.seat_bases[next(client.turns) % len(client.seat_bases)].removeprefix("http")
            await _play_table(ws_base, table, token, client, tally)
        except Exception as exc:  # a benchmark reports every failure and goes on
            tally.error(f"{client.game}: {type(exc).__name__}: {exc}")
            await asyncio.sleep(min(0.5, max(0.0, client.deadline - time.monotonic())))


async def _play_table(ws_base: str, table: str, token: str, client: Client, tally: Tally) -> None:
    """Play one table as a quick player: think about the latest position offered, then move on
    the newest update received by then (as the browser only offers the position it shows)."""
    deadline, rng = client.deadline, client.rng
    async with websockets.connect(f"{ws_base}/ws/{table}", max_size=2**24, open_timeout=30) as ws:
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
                    reason = str(frame.get("reason"))
                    if "stale" in reason or "owes no decision now" in reason:  # the position moved on
                        tally.stale += 1
                    else:
                        tally.error(f"refused: {frame.get('reason')}")
                    sent_at, sent_n = None, -1
                elif frame.get("type") == "update":
                    if not client.opened:
                        client.opened, tally.opened = True, tally.opened + 1
                        if tally.opened == client.tables:
                            tally.all_open = time.monotonic() - client.started
                    if sent_at is not None and frame["n"] > sent_n:
                        tally.latencies.append(time.monotonic() - sent_at)
                        tally.actions += 1
                        sent_at = None
                    if frame.get("outcome") is not None:
                        tally.games += 1
                        return
                    latest = frame
                    if latest["actions"] and sent_at is None and decide_at is None:
                        decide_at = time.monotonic() + client.think * rng.uniform(0.5, 1.5)
            if decide_at is None or time.monotonic() < decide_at:
                continue
            decide_at = None
            if latest is None or not latest["actions"] or sent_at is not None or latest["n"] <= sent_n:
                continue
            choice = rng.choice(latest["actions"])
            sent_n, sent_at = latest["n"], time.monotonic()
            message = {"type": "act", "id": f"{rng.getrandbits(64):x}", "n": sent_n, "action": choice["action"]}
            await ws.send(json.dumps(message))


async def _play_all(bases: list[str], tables: int, seconds: float, games: list[str], think: float) -> Tally:
    """TABLES scripted clients until the deadline: client i creates its tables through server
    i mod N; the seats connect to the servers in turn."""
    tally = Tally()
    turns = itertools.count()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        started = time.monotonic()
        deadline = started + seconds
        clients = [
            Client(
                base=bases[i % len(bases)],
                seat_bases=bases,
                turns=turns,
                game=games[i % len(games)],
                deadline=deadline,
                think=think,
                rng=random.Random(i),
                started=started,
                tables=tables,
            )
            for i in range(tables)
        ]
        await asyncio.gather(*(_bounded(http, client, tally) for client in clients))
    return tally


async def _bounded(http: httpx.AsyncClient, client: Client, tally: Tally) -> None:
    """A client stopped LATE_SECONDS after the deadline if it has not stopped by then (a request or
    a socket's closing handshake the server does not answer)."""
    try:
        async with asyncio.timeout(client.deadline - time.monotonic() + LATE_SECONDS):
            await _play(http, client, tally)
    except TimeoutError:
        tally.error(f"{client.game}: a client was still waiting for the server {LATE_SECONDS:g} s after the end")


# ---- a run, and the report ------------------------------------------------------------


def _measure(
    db_url: str, tables: int, args: argparse.Namespace, folder: Path, db_pid: int | None, games: list[str]
) -> Result:
    with _servers(db_url, args.processes, args.workers, folder) as servers:
        groups = {"server": [server.process.pid for server in servers]}
        if db_pid is not None:
            groups["db"] = [db_pid]
        sampler = Sampler(groups)
        sampler.start()
        started, client_cpu = time.monotonic(), _client_cpu()
        try:
            tally = asyncio.run(_play_all([s.base for s in servers], tables, args.seconds, games, args.think))
        finally:
            sampler.finish()
        elapsed, client_cpu = time.monotonic() - started, _client_cpu() - client_cpu
        for server in servers:
            if server.process.poll() is not None:
                tally.error(f"the server on port {server.port} exited ({server.process.returncode}) during the run")
        logs = {server.log.stem: _log_lines(server.log) for server in servers}  # not what stopping them adds
    cpu: dict[str, float | None] = {
        "server": 100 * sampler.cpu("server") / elapsed,
        "db": 100 * sampler.cpu("db") / elapsed if db_pid is not None else None,
        "clients": 100 * client_cpu / elapsed,
    }
    return Result(tables, args.seconds, elapsed, tally, sampler.peak_rss, cpu, logs)


def _log_lines(log: Path) -> list[str]:
    lines = log.read_text(errors="replace").splitlines()
    return [line for line in lines if line.strip() and not line.startswith(("Tables are stored", "The lobby"))]


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:,.1f} ms"


def _row(result: Result, db: str, args: argparse.Namespace) -> str:
    tally, seconds = result.tally, result.seconds
    lat = tally.latencies
    cut: list[float | None] = [None, None, None]
    if len(lat) >= 2:
        q = statistics.quantiles(lat, n=100, method="inclusive")
        cut = [q[49], q[94], q[98]]
    elif lat:
        cut = [lat[0]] * 3
    cpu = " / ".join("-" if v is None else f"{v:.0f}" for v in result.cpu.values())
    cells = [
        db,
        str(args.processes),
        str(args.workers),
        f"{result.tables:,}",
        f"{seconds:g}",
        f"{args.think:g}",
        f"{tally.actions / seconds:,.1f}",
        f"{tally.received / seconds:,.0f}",
        f"{tally.games:,}",
        *(_ms(c) for c in cut),
        f"{tally.stale:,}",
        f"{tally.errors:,}",
        f"{result.peak_rss / 2**20:,.0f} MiB",
        cpu,
    ]
    return "| " + " | ".join(cells) + " |"


def _details(result: Result) -> None:
    """What does not fit the row, on stderr: the errors' distinct messages, the servers' warnings,
    a note when the clients were busy enough to delay what they measured."""
    say = sys.stderr
    tally, late = result.tally, result.elapsed - result.seconds
    print(f"  {len(tally.latencies):,} moves timed; the clients stopped {late:.1f} s after the end of play", file=say)
    if tally.all_open is not None:
        print(
            f"  all {result.tables:,} tables were open (a first update) {tally.all_open:.1f} s into the play", file=say
        )
    else:
        print(f"  only {tally.opened:,} of {result.tables:,} tables were ever open (a first update)", file=say)
    for message, count in result.tally.distinct.items():
        print(f"  error ({count}x): {message}", file=say)
    if result.tally.errors > sum(result.tally.distinct.values()):
        print(f"  ... and {result.tally.errors - sum(result.tally.distinct.values())} more errors", file=say)
    for name, lines in result.logs.items():
        if lines:
            distinct = dict.fromkeys(re.sub(r" at 0x[0-9a-f]+", "", line)[:300] for line in lines)
            print(f"  {name}: {len(lines)} log lines, {len(distinct)} distinct; the first:", file=say)
            for line in list(distinct)[:DISTINCT_ERRORS]:
                print(f"    {line}", file=say)
    clients = result.cpu["clients"]
    if clients is not None and clients > BUSY_CLIENT:
        print(f"  note: the clients used {clients:.0f}% of a core: their own delays are in the latencies", file=say)


def _raise_open_files(tables: int) -> None:
    """Each client holds a WebSocket and an HTTP connection, the servers (our children) as many:
    raise the soft limit of open files to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        soft = want
    if soft != resource.RLIM_INFINITY and soft < 2 * tables + 200:
        print(f"warning: {soft} open files allowed, {tables} tables need about {2 * tables + 200}", file=sys.stderr)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the run the way Ctrl-C does: everything is cleaned up


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[100], help="tables at once; several: a run each")
    parser.add_argument("--seconds", type=float, default=120.0, help="seconds of play per run")
    parser.add_argument("--games", default="falling-skies,showdown", help="the games the tables play, in turn")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client thinks before a move, on average")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", metavar="URL", help="an existing (empty) database, e.g. postgresql+psycopg://...")
    where.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL cluster for the runs")
    parser.add_argument("--processes", type=int, default=1, help="spacetable serve processes on as many ports")
    parser.add_argument("--workers", type=int, default=1, help="passed to each spacetable serve as --workers")
    args = parser.parse_args()
    if min(args.tables) < 1 or args.seconds <= 0 or args.think < 0 or args.processes < 1 or args.workers < 1:
        parser.error("--tables, --seconds, --processes and --workers must be positive, --think not negative")
    postgres = args.postgres or (args.db or "").startswith("postgresql")
    if (args.processes > 1 or args.workers > 1) and not postgres:
        parser.error(
            "--processes or --workers above 1 need PostgreSQL (--postgres, or --db postgresql+psycopg://...): "
            "a SQLite file serves one process"
        )
    if args.db and len(args.tables) > 1:
        parser.error("--db takes one --tables value: each run needs a fresh database (--postgres makes them)")
    return args


def main() -> None:
    args = _arguments()
    games = args.games.split(",")
    signal.signal(signal.SIGTERM, _interrupt)
    _raise_open_files(max(args.tables))
    kind = "PostgreSQL" if args.postgres or (args.db or "").startswith("postgresql") else "SQLite"
    header = "| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS)
    printed = False
    try:
        with contextlib.ExitStack() as stack:  # stops the servers (in _measure), then PostgreSQL, then removes
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="spacetable-load-")))
            cluster = stack.enter_context(_postgres()) if args.postgres else None
            for index, tables in enumerate(args.tables):
                run_folder = folder / f"run{index}"
                run_folder.mkdir()
                if cluster is not None:
                    db_url = cluster.createdb(f"load{index}")
                elif args.db:
                    db_url = args.db
                else:
                    db_url = f"sqlite:///{run_folder / 'load.sqlite3'}"
                print(f"run {index + 1} of {len(args.tables)}: {tables} tables, {args.seconds:g} s", file=sys.stderr)
                db_pid = cluster.process.pid if cluster is not None else None
                result = _measure(db_url, tables, args, run_folder, db_pid, games)
                _details(result)
                if not printed:
                    print(header, flush=True)
                    printed = True
                print(_row(result, kind, args), flush=True)
    except KeyboardInterrupt:
        print("interrupted: the servers and PostgreSQL are stopped, their folders removed", file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
