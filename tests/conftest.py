"""Fixtures for tests that need real components the project starts itself: a PostgreSQL server
(Debian's binaries) in a temporary directory on a loopback port, and Debian's Chromium."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_helpers import free_port
from spacetable.server import create_app

SOAK_CHECK_FILES = (
    "test_conformance.py",
    "test_mothership_play.py",
    "test_spacerace_play.py",
    "test_interop_games.py",
    "test_interop_openspiel.py",
)
SOAK_CHECK_WORDS = ("conform", "random_simulation", "tensor_is_the_view")
FUZZ_FILES = ("test_fuzz.py", "test_server_fuzz.py")
"""Their fuzz targets (the decoders', the server's; not the state machines, `make fuzz`'s) are soak checks too."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The first part of `make soak`: the conformance checks, the adapters' random games and the
    fuzz targets of these files, which SPACETABLE_SOAK=1 gives larger budgets (tests/budget.py),
    are marked `soak_check`, so that one run (`-m "soak or soak_check"`) shares both cores over
    both parts. The Mothership module files' checks (expansion, exploration, hazards, solo,
    victory points) run in `make test` only: CI's 25 minutes cannot hold their second playouts."""
    for item in items:
        name = item.path.name
        if name in FUZZ_FILES and item.name.startswith("test_fuzz"):
            item.add_marker("soak_check")
        if name not in SOAK_CHECK_FILES:
            continue
        keywords = [str(word).lower() for word in item.keywords]
        if any(word in keyword for word in SOAK_CHECK_WORDS for keyword in keywords):
            item.add_marker("soak_check")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A SQLite file for one test's tables (modules that share a server define their own)."""
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """The application on ``db``, started (its lifespan run) for one test."""
    with TestClient(create_app(f"sqlite:///{db}", bot_workers=1)) as client:
        yield client


@pytest.fixture(autouse=True)
def _saves_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """`spacetable play` saves every game; in tests, never in the user's own saves folder."""
    monkeypatch.setenv("SPACETABLE_SAVES", str(tmp_path_factory.mktemp("saves")))


def _postgres_bin() -> str | None:
    """The newest Debian PostgreSQL server's bin directory, or None where none is installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


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
    pytest.fail("running as root with neither a 'postgres' nor a 'nobody' user to run PostgreSQL as")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[tuple[str, int]]:
    """A PostgreSQL server on 127.0.0.1 for this test session: (its bin directory, its port).

    Skipped, saying why, only where Debian's PostgreSQL server binaries are absent (`make test`
    installs them when it runs as root)."""
    bindir = _postgres_bin()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)")
    prefix = _as_server_user()
    root = tempfile.mkdtemp(prefix="spacetable-pg-")
    if prefix:
        shutil.chown(root, user=prefix[2])
    data = os.path.join(root, "data")
    port = free_port()
    subprocess.run(
        [*prefix, f"{bindir}/initdb", "-D", data, "-U", "spacetable", "--auth=trust", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    server = subprocess.Popen(
        [*prefix, f"{bindir}/postgres", "-D", data, "-p", str(port), "-h", "127.0.0.1", "-k", root, "-F"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        ready = [f"{bindir}/pg_isready", "-h", "127.0.0.1", "-p", str(port)]
        while subprocess.run(ready, capture_output=True).returncode != 0:
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"PostgreSQL did not start on 127.0.0.1:{port} (exit {server.poll()})")
            time.sleep(0.1)
        yield bindir, port
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: tuple[str, int]) -> str:
    """A SQLAlchemy URL of a new, empty PostgreSQL database of its own for one test."""
    bindir, port = postgres_server
    name = f"t{uuid.uuid4().hex[:12]}"
    subprocess.run(
        [f"{bindir}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "spacetable", name],
        check=True,
        capture_output=True,
    )
    return f"postgresql+psycopg://spacetable@127.0.0.1:{port}/{name}"


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (never a browser download); skipped, saying why,
    only where no chromium is installed (`make test` installs it when it runs as root)."""
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()
