"""Playing many bot games, in one process, in a pool of processes or on a Ray cluster.

Game ``i`` of a run is played with the dice and bots of the generator seeded ``"{seed}:{i}"``,
so its result depends on the seed, the game and its seats alone: not on how many processes
play the run, in which order they finish, or where a resumed run starts again.

Workers play *batches* of consecutive games and load the game once per process: a task per
game would pay for pickling, a queue round trip and (for a game with content overrides) a
validation of the content on every game, which on short games costs more than the game.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from spacetable.agents import make_agent
from spacetable.engine import JSON, Action, Game, Record, State, Statistic, load, play


@dataclass(frozen=True)
class GameSpec:
    """What a worker needs to build the game: its id, seats and options (content overrides included)."""

    game_id: str
    players: int
    options: Mapping[str, JSON]

    @classmethod
    def of(cls, game: Game) -> GameSpec:
        return cls(game.id, game.players, dict(game.options))

    def build(self) -> Game:
        """The game, built once per process for each distinct spec."""
        return _cached_game(self.game_id, self.players, json.dumps(self.options, sort_keys=True))


@cache
def _cached_game(game_id: str, players: int, options: str) -> Game:
    return load(game_id, players, json.loads(options))


@dataclass
class GameResult:
    """One game of a batch: who sat where, what each seat got, how long it took."""

    seats: list[str]
    share: list[float]
    """Each seat's share of the win (1 for a sole winner, 1/k for k winners, else 0)."""
    actions: int
    rounds: int | None
    think: list[float]
    """Seconds each seat spent choosing, and (``moves``) how many choices it made."""
    moves: list[int]
    reason: str
    scores: list[float] | None = None
    """The outcome's score of each seat (the game's own measure), when it gives one per seat."""
    index: int = 0
    winners: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    statistics: dict[str, Statistic] = field(default_factory=dict)
    """``Game.statistics`` of the final position."""
    first: int | None = None
    """The seat that took the first turn (``Game.first_player``; None in a one-player game)."""


class _Timed:
    """A player that keeps the time its bot spends choosing."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.bot = make_agent(name)
        self.seconds = 0.0
        self.moves = 0

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(state, seat, rng)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action


def play_one(game: Game, seats: Sequence[str], seed: int, index: int) -> GameResult:
    """Game ``index`` of a run seeded ``seed``, with the bots named in ``seats``."""
    timed = [_Timed(name) for name in seats]
    record = Record.start(game, list(seats))
    final = play(game, timed, random.Random(f"{seed}:{index}"), record=record)
    outcome = final.outcome()
    winners = outcome.winners if outcome else ()
    players = game.players
    rounds = getattr(final, "round", None)
    return GameResult(
        seats=list(seats),
        share=[1 / len(winners) if s in winners else 0.0 for s in range(players)],
        actions=len(record.actions),
        rounds=rounds if isinstance(rounds, int) else None,
        think=[t.seconds for t in timed],
        moves=[t.moves for t in timed],
        reason=outcome.reason if outcome else "",
        scores=list(outcome.scores) if outcome and len(outcome.scores) == players else None,
        index=index,
        winners=list(winners),
        returns=list(final.returns()),
        statistics=game.statistics(final, record.actions),
        first=game.first_player(final, record.actions),
    )


def play_batch(spec: GameSpec, seed: int, games: list[tuple[int, list[str]]]) -> list[GameResult]:
    """Play a batch of games (a top-level function, so worker processes and Ray can run it)."""
    game = spec.build()
    return [play_one(game, seats, seed, index) for index, seats in games]


MAX_BATCH = 50
"""The most games in one task (a task's results travel back together)."""


def batch_sizes(games: int, workers: int) -> list[int]:
    """Games per task, in order: a quarter of each worker's share of the games still to hand out
    (1 to MAX_BATCH), so the first tasks are large (few round trips) and the last ones small
    (the workers finish together instead of one waiting for a long last batch)."""
    sizes = []
    left = games
    while left > 0:
        size = max(1, min(MAX_BATCH, left // (4 * workers)))
        sizes.append(size)
        left -= size
    return sizes


def run_games(
    spec: GameSpec,
    seed: int,
    games: Sequence[tuple[int, list[str]]],
    jobs: int = 1,
    ray_address: str | None = None,
    note: Callable[[str], None] | None = None,
) -> Iterator[GameResult]:
    """Play ``games`` (index, seats) and yield their results in the order given.

    ``jobs`` > 1 plays them in that many processes; ``ray_address`` on a Ray cluster instead
    (``"auto"``: the one running here, else ``jobs`` processes; see ``ray_runner.join``), and
    ``note`` gets one line when Ray will cost more than it saves for this run.
    Closing the iterator early (or Ctrl-C) cancels the games not yet started.
    """
    pool: Pool | None = None
    if ray_address is not None:
        from .ray_runner import join  # ray is the optional extra `lab`

        pool, said = join(ray_address, jobs)
        if said and note:
            note(said)
    if pool is None and jobs > 1:
        pool = Processes(jobs)
    if pool is None:
        for index, seats in games:
            yield play_one(spec.build(), seats, seed, index)
        return
    tasks, start = [], 0
    for size in batch_sizes(len(games), pool.workers):
        tasks.append(list(games[start : start + size]))
        start += size
    try:
        yield from _in_order(pool, spec, seed, tasks, 4 * pool.workers)
    finally:
        pool.shutdown()


class Pool(Protocol):
    """Where batches run: a pool of processes here, or a Ray cluster."""

    workers: int

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]: ...

    def shutdown(self) -> None:
        """Stop: the batches still running are abandoned (called at the end and on Ctrl-C)."""


class Processes:
    """A pool of worker processes that leave Ctrl-C to the parent, which stops them at once
    (a ``ProcessPoolExecutor`` would wait for every running batch to end)."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool = multiprocessing.Pool(jobs, initializer=_worker_signals)

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._pool.apply_async(function, args, callback=future.set_result, error_callback=future.set_exception)
        return future

    def shutdown(self) -> None:
        self._pool.terminate()
        self._pool.join()


def _worker_signals() -> None:
    """A worker ignores Ctrl-C (the parent stops it) and dies quietly when terminated."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _in_order(
    pool: Pool, spec: GameSpec, seed: int, tasks: list[list[tuple[int, list[str]]]], ahead: int
) -> Iterator[GameResult]:
    """The tasks' results in task order, with at most ``ahead`` tasks submitted or waiting for
    an earlier one (workers keep busy while a long batch holds the line; memory stays bounded)."""
    pending: dict[int, Future[list[GameResult]]] = {}
    done: dict[int, list[GameResult]] = {}
    submitted = 0
    for position in range(len(tasks)):
        while position not in done:
            while submitted < len(tasks) and len(pending) + len(done) < ahead:
                pending[submitted] = pool.submit(play_batch, spec, seed, tasks[submitted])
                submitted += 1
            finished, _ = wait(list(pending.values()), return_when=FIRST_COMPLETED)
            for number, future in list(pending.items()):
                if future in finished:
                    done[number] = future.result()
                    del pending[number]
        yield from done.pop(position)


__all__ = [
    "MAX_BATCH",
    "GameResult",
    "GameSpec",
    "Pool",
    "Processes",
    "batch_sizes",
    "play_batch",
    "play_one",
    "run_games",
]
