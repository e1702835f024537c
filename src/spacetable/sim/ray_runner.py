"""Batches of games as Ray tasks (the optional extra `lab`: ``pip install 'spacetable[lab]'``)."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from spacetable.engine import SpacetableError


class RayPool:
    """A pool with ``submit`` and ``shutdown`` like a process pool's, whose tasks run on a Ray cluster.

    ``address``: ``"auto"`` joins the cluster running on this machine or, if there is none,
    starts a local one with ``cpus`` CPUs; anything else is the address of a cluster to join
    (``ray://head:10001`` or ``head:6379``).
    """

    def __init__(self, address: str, cpus: int) -> None:
        try:
            import ray
        except ImportError:
            raise SpacetableError("--ray needs Ray: pip install 'spacetable[lab]'") from None
        self._ray: Any = ray
        self._started = not ray.is_initialized()
        if self._started:
            try:
                if address == "auto":
                    ray.init(num_cpus=cpus if cpus > 1 else None, include_dashboard=False, log_to_driver=False)
                else:
                    ray.init(address=address, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise SpacetableError(f"cannot join the Ray cluster at {address!r}: {first}") from None
        self.workers = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(_call)
        self._tasks: list[Any] = []

    def submit(self, function: Any, *args: Any) -> Future[Any]:
        task = self._remote.remote(function, *args)
        self._tasks.append(task)
        future: Future[Any] = task.future()
        return future

    def shutdown(self) -> None:
        """Cancel the tasks still running; disconnect from the cluster if this pool connected
        (a local cluster it started stops with it)."""
        if self._tasks:
            _, running = self._ray.wait(self._tasks, num_returns=len(self._tasks), timeout=0)
            for task in running:
                self._ray.cancel(task, force=True)
        self._tasks.clear()
        if self._started:
            self._ray.shutdown()


def _call(function: Any, *args: Any) -> Any:
    return function(*args)


__all__ = ["RayPool"]
