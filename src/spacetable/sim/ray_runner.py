"""Batches of games as Ray tasks (the optional extra `lab`: ``pip install 'spacetable[lab]'``).

A run never starts a Ray cluster: ``--ray auto`` joins the one running here, ``--ray ADDRESS``
the one named. Starting a local cluster costs 5 to 12 s on a 2-core machine and brings no CPU
that ``--jobs`` does not, so ``auto`` without a cluster plays with ``--jobs`` local processes
(benchmarks/README.md has the figures; docs/LAB.md says when Ray pays).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import Any

from spacetable.engine import SpacetableError


class RayPool:
    """A pool with ``submit`` and ``shutdown`` like a process pool's, whose tasks run on a Ray
    cluster this process has joined (``join``). Ray starts the run's worker processes once and
    gives them every task; each builds the game once (``GameSpec.build``)."""

    def __init__(self, ray: Any, address: str) -> None:
        self._ray = ray
        self.address = address
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(_call)
        self._tasks: list[Any] = []

    def submit(self, function: Any, *args: Any) -> Future[Any]:
        task = self._remote.remote(function, *args)
        self._tasks.append(task)
        future: Future[Any] = task.future()
        return future

    def shutdown(self) -> None:
        """Cancel the tasks still running. The connection stays, with its warm workers, for this
        process's next run (a sweep's next value); Ray closes it when the process exits."""
        if self._tasks:
            _, running = self._ray.wait(self._tasks, num_returns=len(self._tasks), timeout=0)
            for task in running:
                self._ray.cancel(task, force=True)
        self._tasks.clear()


def join(address: str, jobs: int) -> tuple[RayPool | None, str | None]:
    """The pool of the cluster at ``address``, and a one-line note when Ray will cost more than
    it saves for this run; (None, note) when ``address`` is ``"auto"`` and no cluster runs here,
    for the caller to play with ``jobs`` local processes instead.

    ``"auto"``: the cluster this process already joined, else the one ``ray.init(address="auto")``
    finds (``RAY_ADDRESS``, the latest ``ray start`` on this machine, any Ray instance running here).
    Anything else is a cluster's address (``ray://head:10001`` or ``head:6379``); failing to join
    it is a SpacetableError.
    """
    try:
        import ray
    except ImportError:
        raise SpacetableError("--ray needs Ray: pip install 'spacetable[lab]'") from None
    if not ray.is_initialized():
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if address == "auto" and isinstance(exc, ConnectionError):
                who = "this process plays" if jobs == 1 else f"{jobs} local processes (--jobs {jobs}) play"
                return None, (
                    f"--ray auto joined no cluster ({first.split('. ')[0].rstrip('.')}), so {who} the games: "
                    "a local cluster would add seconds of start-up and no CPU "
                    "(`ray start --head` keeps one for later runs)."
                )
            raise SpacetableError(f"cannot join the Ray cluster at {address!r}: {first}") from None
    pool = RayPool(ray, address)
    note = None
    if pool.workers <= jobs:
        note = (
            f"--ray: the cluster has {pool.workers} CPU{'s' if pool.workers > 1 else ''}, no more than --jobs {jobs} "
            "gives here, so Ray costs this run its workers' start-up (seconds) and saves nothing."
        )
    return pool, note


def _call(function: Any, *args: Any) -> Any:
    return function(*args)


__all__ = ["RayPool", "join"]
