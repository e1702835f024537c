"""``spacetable simulate``: a run of bot games saved as one Parquet row per game.

A row holds the game's index and seed, each seat's bot, share of the win, return and score,
the winners, the seat that took the first turn, the length, how it ended, and every figure of
``Game.statistics`` flattened into two columns, ``value: NAME`` and ``weight: NAME`` (a batch
figure is sum(value) / sum(weight)).
Nothing in a row depends on timing, so the same seeds give the same rows with one process,
many, or Ray. The run's settings are in the file's metadata (key ``spacetable``), so a
report knows what it reads and ``--resume`` can check that it continues the same run.

Rows are written in game order as they finish to ``RUN.parquet.partial``, which becomes
``RUN.parquet`` when the run ends or is interrupted (Ctrl-C, SIGTERM): an interrupted run keeps
its finished games and a resumed run plays the rest. (A run killed outright keeps nothing new:
the file it resumed from is untouched.)
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from spacetable.engine import JSON, Game, SpacetableError

from .batch import GameResult, GameSpec, run_games

META_KEY = b"spacetable"
FLUSH_ROWS = 200
FLUSH_SECONDS = 0.5
"""Finished rows are written at least this often (a Parquet row group each)."""
VALUE = "value: "
WEIGHT = "weight: "


class RunError(SpacetableError):
    """A run file that cannot be read, written or continued (one line for the command line)."""


@dataclass(frozen=True)
class RunSettings:
    """What decides a run's rows: the game, its options (content overrides included), seats and seed."""

    game: str
    players: int
    options: dict[str, JSON]
    seats: list[str]
    seed: int
    games: int
    percent: list[str]
    """The figures of ``Game.statistics`` that are rates (shown as percentages)."""
    headline: list[str] = field(default_factory=list)
    """The figures of ``Game.statistics`` that are headline figures (``Statistic.headline``)."""

    def same_run(self, other: RunSettings) -> bool:
        return (self.game, self.players, self.options, self.seats, self.seed) == (
            other.game,
            other.players,
            other.options,
            other.seats,
            other.seed,
        )


def row(result: GameResult, seed: int) -> dict[str, Any]:
    """One game's row (see the module's docstring); every field is a function of the seeds."""
    data: dict[str, Any] = {"game": result.index, "seed": f"{seed}:{result.index}"}
    for seat, bot in enumerate(result.seats):
        data[f"bot {seat}"] = bot
        data[f"win {seat}"] = result.share[seat]
        data[f"return {seat}"] = result.returns[seat]
        data[f"score {seat}"] = result.scores[seat] if result.scores is not None else None
    data["winners"] = result.winners
    data["first"] = result.first
    data["actions"] = result.actions
    data["rounds"] = result.rounds
    data["reason"] = result.reason
    for name, figure in sorted(result.statistics.items()):
        data[VALUE + name] = float(figure.value)
        data[WEIGHT + name] = float(figure.weight)
    return data


def read_run(path: Path) -> tuple[RunSettings, Any]:
    """A run's settings and its rows as a ``pyarrow.Table``; RunError if it is not a readable run."""
    pq = _parquet()
    if not path.is_file():
        raise RunError(f"{path}: no such file" if not path.exists() else f"{path} is not a file")
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow's errors for a truncated or foreign file are many
        raise RunError(f"{path} is not a readable Parquet file: {str(exc).splitlines()[0][:200]}") from None
    meta = (table.schema.metadata or {}).get(META_KEY)
    if meta is None:
        raise RunError(f"{path} is Parquet but not a run of `spacetable simulate` (no spacetable metadata)")
    try:
        settings = RunSettings(**json.loads(meta))
    except (TypeError, ValueError) as exc:
        raise RunError(f"{path}: its spacetable metadata is damaged ({exc})") from None
    if "game" not in table.column_names or table.column("game").to_pylist() != list(range(table.num_rows)):
        raise RunError(f"{path}: its rows are not games 0 to {table.num_rows - 1} in order")
    return settings, table


def simulate(
    game: Game,
    seats: list[str],
    games: int,
    out: Path,
    seed: int = 0,
    jobs: int = 1,
    ray_address: str | None = None,
    resume: bool = False,
    on_game: Callable[[int], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> tuple[int, int]:
    """Play games ``0..games-1`` into ``out`` (see the module docstring); ``resume`` keeps the
    rows ``out`` has (which must be the same run) and plays the rest. ``ray_address``: see
    ``batch.run_games``; ``note`` (default: a line on stderr) is told when Ray will cost this run
    more than it saves, and what plays the games then.

    ``on_game(done)`` is called after each game with the number finished, old ones included.
    Returns (games kept from before, games played now). KeyboardInterrupt propagates after the
    finished rows are saved.
    """
    pq = _parquet()
    settings = RunSettings(game.id, game.players, dict(game.options), list(seats), seed, games, [])
    kept = None
    if resume:
        before, kept = read_run(out)
        if not before.same_run(settings):
            difference = _difference(before, settings)
            raise RunError(f"{out} is a different run: {difference}; resume it with its own settings")
    elif out.exists():
        raise RunError(f"{out} exists: --resume continues that run, or choose another --out")
    start = kept.num_rows if kept is not None else 0
    if on_game and start:
        on_game(start)
    if start >= games:
        return start, 0
    partial = out.with_name(out.name + ".partial")
    writer: Any = None
    schema: Any = None
    buffer: list[dict[str, Any]] = []
    percent: set[str] = set()
    headline: set[str] = set()
    played = 0
    flushed = time.monotonic()

    def flush() -> None:
        nonlocal writer, schema, flushed
        flushed = time.monotonic()
        if not buffer:
            return
        if writer is None:
            schema = _schema(kept, buffer, settings, percent, headline)
            writer = pq.ParquetWriter(partial, schema)
            if kept is not None:
                writer.write_table(kept.cast(schema))
        rows = _table(buffer, schema)
        buffer.clear()  # before the write: a Ctrl-C between the two loses these rows (replayed on resume)
        writer.write_table(rows)  # rather than writing them twice from the ``finally`` below

    todo = [(i, list(seats)) for i in range(start, games)]
    try:
        with _sigterm_as_interrupt():
            for result in run_games(GameSpec.of(game), seed, todo, jobs, ray_address, note or _on_stderr):
                buffer.append(row(result, seed))
                percent |= {name for name, figure in result.statistics.items() if figure.percent}
                headline |= {name for name, figure in result.statistics.items() if figure.headline}
                played += 1
                if len(buffer) >= FLUSH_ROWS or time.monotonic() - flushed >= FLUSH_SECONDS:
                    flush()
                if on_game:
                    on_game(start + played)
    finally:
        flush()
        if writer is not None:
            writer.close()
            os.replace(partial, out)
    return start, played


def _schema(kept: Any, rows: list[dict[str, Any]], settings: RunSettings, percent: set[str], headline: set[str]) -> Any:
    """The run's columns: those of the rows kept (a resumed run), else of the first rows written."""
    import pyarrow as pa

    if kept is not None:  # the kept columns, with this run's settings (its --games may be larger)
        old = json.loads(kept.schema.metadata[META_KEY])
        meta = asdict(settings) | {
            "percent": sorted(percent | set(old.get("percent", []))),
            "headline": sorted(headline | set(old.get("headline", []))),
        }
        return kept.schema.with_metadata({META_KEY: json.dumps(meta, sort_keys=True).encode()})
    fields = []
    for name in rows[0]:
        if name == "winners":
            kind = pa.list_(pa.int32())
        elif name in ("game", "actions", "rounds", "first"):
            kind = pa.int64()
        elif name in ("seed", "reason") or name.startswith("bot "):
            kind = pa.string()
        else:
            kind = pa.float64()
        fields.append(pa.field(name, kind))
    meta = asdict(settings) | {"percent": sorted(percent), "headline": sorted(headline)}
    return pa.schema(fields, metadata={META_KEY: json.dumps(meta, sort_keys=True).encode()})


def _table(rows: list[dict[str, Any]], schema: Any) -> Any:
    import pyarrow as pa

    unknown = {name for r in rows for name in r} - set(schema.names)
    if unknown:
        raise RunError(f"the game reported figures its first games did not ({', '.join(sorted(unknown))[:200]})")
    return pa.Table.from_pylist(rows, schema=schema)


def _difference(before: RunSettings, now: RunSettings) -> str:
    for name in ("game", "players", "seats", "seed", "options"):
        if getattr(before, name) != getattr(now, name):
            shown = json.dumps(getattr(before, name))
            return f"its {name} {'are' if name.endswith('s') else 'is'} {shown[:80]}"
    return "its settings differ"


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM ends the run as Ctrl-C does, saving the finished rows (main thread only)."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _on_stderr(line: str) -> None:
    print(f"note: {line}", file=sys.stderr, flush=True)


def _parquet() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise RunError("runs are Parquet files: pip install 'spacetable[lab]' (pyarrow)") from None
    return pq


def seat_count(columns: Sequence[str]) -> int:
    """How many seats a run's columns describe."""
    return sum(1 for name in columns if name.startswith("bot "))


__all__ = ["META_KEY", "VALUE", "WEIGHT", "RunError", "RunSettings", "read_run", "row", "seat_count", "simulate"]
