"""``spacetable trajectories``: bot games written one row per seat decision, for offline RL.

Game ``i`` is the balance lab's game ``i`` (sim/batch.py): the same bots played by the engine's
loop with the generator seeded ``"{seed}:{i}"``, so a ``spacetable simulate`` run with the same
game, seats and seed describes the very same games. Each decision of a seat is a row (the
columns are :data:`COLUMNS`; docs/INTEROP.md, "Datasets" explains them): what the seat saw (its own
``Game.observation_tensor``, built from ``view(seat)`` alone), the codes of its legal actions (the
game's codec), the code it chose, the reward it earned by it, and whether the game ended. Where
several seats decide at once, the lowest decides first, as in ``spacetable.interop``. Chance
draws are not rows: a draw may be hidden from every seat but one (a card dealt), and the seed
replays them.

A seat's ``reward`` on a row is what it earned from that decision up to its next one (or the
end): with ``reward="win"`` its return on its last row of the game and 0 before; with
``"shaped"`` that plus the change in its ``Game.progress``, as the research environments pay it.

The folder is sharded: games ``[k*B, (k+1)*B)`` go to ``part-{k:05d}.parquet`` (B games a
shard), written to a hidden ``.part-....partial`` file renamed when its last game is in. So the
folder only ever holds whole shards (read it while it grows), any stop loses at most the shards
being written, and ``resume`` plays only the shards missing. The settings are in
``_trajectories.json`` and in each shard's metadata (key ``spacetable``); readers of
``DIR/*.parquet`` (pyarrow, duckdb) skip names starting with ``_`` or ``.``.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Future, as_completed
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, NamedTuple

from spacetable.agents import make_agent
from spacetable.engine import JSON, Game, Record, State, play
from spacetable.engine.safejson import write_atomic
from spacetable.engine.tensor import Tensor

from .batch import GameSpec, Processes
from .simulate import RunError

FORMAT = "spacetable-trajectories/1"
MANIFEST = "_trajectories.json"
META_KEY = b"spacetable"
SHARD_KEY = b"spacetable shard"
SHARD_GAMES = 50
"""Games in a shard by default."""
FLUSH_NUMBERS = 4_000_000
"""A shard's rows go to its file (a Parquet row group) once their observations hold this many numbers."""
REWARDS = ("win", "shaped")

COLUMNS = (
    "game_id",
    "players",
    "options",
    "game",
    "seed",
    "step",
    "seat",
    "bot",
    "bots",
    "observation",
    "legal",
    "action",
    "reward",
    "done",
    "seat_done",
)


@dataclass(frozen=True)
class DatasetSettings:
    """What decides a dataset's rows, and what a reader needs to use them."""

    game: str
    game_version: str
    """The rules' version (``Game.version``): a dataset is not resumed by other rules or tensors."""
    players: int
    options: dict[str, JSON]
    seats: list[str]
    seed: int
    games: int
    shard_games: int
    reward: str
    observation_shape: list[int]
    actions: int
    """The codec's size: a legal mask is ``actions`` entries, 1 at each of the row's ``legal`` codes."""
    format: str = FORMAT

    @classmethod
    def of(
        cls, game: Game, seats: Sequence[str], seed: int, games: int, shard_games: int, reward: str
    ) -> DatasetSettings:
        """The settings of a dataset of ``game``; RunError where the game cannot give one."""
        if reward not in REWARDS:
            raise RunError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if len(seats) != game.players:
            raise RunError(f"{game.id} has {game.players} seats but {len(seats)} bots were given")
        if shard_games < 1:
            raise RunError(f"a shard holds at least one game, not {shard_games}")
        try:
            shape = list(game.observation_shape())
        except NotImplementedError:
            raise RunError(f"{game.id} has no observation tensor yet: trajectories need one") from None
        if reward == "shaped" and game.progress(game.new_initial_state(), 0) is None:
            raise RunError(f"{game.id} has no progress measure (Game.progress) for the shaped reward")
        options, size = dict(game.options), game.actions.size
        return cls(
            game.id, game.version, game.players, options, list(seats), seed, games, shard_games, reward, shape, size
        )

    def dumps(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    def difference(self, other: DatasetSettings) -> str | None:
        """How ``other`` is another dataset than this one (None: the same one; ``games`` may differ)."""
        for name in ("format", "game", "game_version", "players", "seats", "seed", "reward", "shard_games", "options"):
            if getattr(self, name) != getattr(other, name):
                shown = json.dumps(getattr(self, name))
                return f"its {name.replace('_', '-')} {'are' if name.endswith('s') else 'is'} {shown[:80]}"
        return None


class Shard(NamedTuple):
    """Shard ``number`` of a dataset: games ``first`` to ``first + games - 1``."""

    number: int
    first: int
    games: int


def shards(settings: DatasetSettings) -> list[Shard]:
    """Every shard of the dataset, in order."""
    size = settings.shard_games
    return [
        Shard(k, first, min(size, settings.games - first)) for k, first in enumerate(range(0, settings.games, size))
    ]


def shard_path(folder: Path, number: int) -> Path:
    return folder / f"part-{number:05d}.parquet"


def _partial_path(folder: Path, number: int) -> Path:
    return folder / f".part-{number:05d}.parquet.partial"


@dataclass(slots=True)
class Step:
    """One decision of a game: who decided on what it saw, among which codes, and what came of it."""

    seat: int
    observation: Tensor
    legal: list[int]
    action: int
    reward: float = 0.0
    done: bool = False
    """The game ended after this decision (its last row)."""
    seat_done: bool = False
    """The seat's last decision of the game: its reward holds its return."""


def play_steps(game: Game, seats: Sequence[str], seed: int, index: int, reward: str = "win") -> list[Step]:
    """The decisions of game ``index`` of a dataset seeded ``seed`` (the lab's game ``index``)."""
    record = Record.start(game, list(seats))
    play(game, [make_agent(name) for name in seats], random.Random(f"{seed}:{index}"), record=record)
    # the rows come from the game's record, replayed: each is what its seat saw as its answer went
    # in (where seats answer at once, after the lower seats' answers), as the adapters show it
    state = game.new_initial_state()
    size = math.prod(game.observation_shape())
    steps: list[Step] = []
    latest: dict[int, tuple[Step, float]] = {}  # each seat's latest row, and what it had earned then

    def earned(seat: int) -> float:
        value = state.returns()[seat]
        return value + float(game.progress(state, seat) or 0.0) if reward == "shaped" else value

    for seat, data in record.actions:
        action = game.actions.from_json(data)
        if seat is not None:
            legal = game.actions.codes(state.legal_actions(seat))
            row = Step(seat, _observe(game, state, seat, size), legal, game.actions.encode(action))
            now = earned(seat)
            if seat in latest:
                before, then = latest[seat]
                before.reward = now - then
            latest[seat] = (row, now)
            steps.append(row)
        state.apply_action(action, seat)
    for seat, (row, then) in latest.items():
        row.reward = earned(seat) - then
        row.seat_done = True
    if steps:
        steps[-1].done = True
    return steps


def _observe(game: Game, state: State, seat: int, size: int) -> Tensor:
    tensor = game.observation_tensor(state, seat)
    if len(tensor) != size:
        raise RunError(f"{game.id}: observation_tensor gave {len(tensor)} numbers, observation_shape makes {size}")
    return tensor


def schema(settings: DatasetSettings, shard: Shard | None = None) -> Any:
    """The rows' Arrow schema, with the settings (and the shard's games) as metadata."""
    import pyarrow as pa

    text = pa.dictionary(pa.int32(), pa.string())
    meta = {META_KEY: settings.dumps().encode()}
    if shard is not None:
        meta[SHARD_KEY] = json.dumps(shard._asdict()).encode()
    kinds = {
        "game_id": text,
        "players": pa.int32(),
        "options": text,
        "game": pa.int64(),
        "seed": pa.string(),
        "step": pa.int32(),
        "seat": pa.int32(),
        "bot": text,
        "bots": pa.list_(pa.string()),
        "observation": pa.list_(pa.float32(), math.prod(settings.observation_shape)),
        "legal": pa.list_(pa.int32()),
        "action": pa.int32(),
        "reward": pa.float64(),
        "done": pa.bool_(),
        "seat_done": pa.bool_(),
    }
    return pa.schema([pa.field(name, kinds[name], nullable=False) for name in COLUMNS], metadata=meta)


def _table(settings: DatasetSettings, games: list[tuple[int, list[Step]]], kind: Any) -> Any:
    """The rows of ``games`` ((index, steps) pairs) as a ``pyarrow.Table`` of schema ``kind``."""
    import pyarrow as pa

    rows = [(index, number, s) for index, steps in games for number, s in enumerate(steps)]
    n = len(rows)

    def constant(value: str) -> Any:
        return pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), pa.array([value]))

    legal_offsets = [0]
    for _, _, s in rows:
        legal_offsets.append(legal_offsets[-1] + len(s.legal))
    numbers = [pa.array(s.observation, pa.float32()) for _, _, s in rows]
    observation_values = pa.concat_arrays(numbers) if numbers else pa.array([], pa.float32())
    columns = {
        "game_id": constant(settings.game),
        "players": pa.array([settings.players] * n, pa.int32()),
        "options": constant(json.dumps(settings.options, sort_keys=True, separators=(",", ":"))),
        "game": pa.array([index for index, _, _ in rows], pa.int64()),
        "seed": pa.array([f"{settings.seed}:{index}" for index, _, _ in rows], pa.string()),
        "step": pa.array([number for _, number, _ in rows], pa.int32()),
        "seat": pa.array([s.seat for _, _, s in rows], pa.int32()),
        "bot": pa.array([settings.seats[s.seat] for _, _, s in rows], pa.string()).dictionary_encode(),
        "bots": pa.array([settings.seats] * n, pa.list_(pa.string())),
        "observation": pa.FixedSizeListArray.from_arrays(observation_values, math.prod(settings.observation_shape)),
        "legal": pa.ListArray.from_arrays(
            pa.array(legal_offsets, pa.int32()), pa.array([c for _, _, s in rows for c in s.legal], pa.int32())
        ),
        "action": pa.array([s.action for _, _, s in rows], pa.int32()),
        "reward": pa.array([s.reward for _, _, s in rows], pa.float64()),
        "done": pa.array([s.done for _, _, s in rows], pa.bool_()),
        "seat_done": pa.array([s.seat_done for _, _, s in rows], pa.bool_()),
    }
    return pa.Table.from_arrays([columns[name] for name in COLUMNS], schema=kind)


def write_shard(
    game: Game, settings: DatasetSettings, folder: Path, shard: Shard, on_game: Callable[[], None] | None = None
) -> int:
    """Play the shard's games into its file (whole or not at all); returns its games."""
    pq = _parquet()
    kind = schema(settings, shard)
    partial = _partial_path(folder, shard.number)
    size = math.prod(settings.observation_shape)
    try:
        with pq.ParquetWriter(partial, kind) as writer:
            buffered: list[tuple[int, list[Step]]] = []
            for index in range(shard.first, shard.first + shard.games):
                buffered.append((index, play_steps(game, settings.seats, settings.seed, index, settings.reward)))
                if sum(len(steps) for _, steps in buffered) * size >= FLUSH_NUMBERS:
                    writer.write_table(_table(settings, buffered, kind))
                    buffered.clear()
                if on_game is not None:
                    on_game()
            if buffered:
                writer.write_table(_table(settings, buffered, kind))
        os.replace(partial, shard_path(folder, shard.number))
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return shard.games


def _write_shard_in_worker(spec: GameSpec, settings: DatasetSettings, folder: Path, shard: Shard) -> int:
    """:func:`write_shard` in a worker process, which builds the game from its spec."""
    return write_shard(spec.build(), settings, folder, shard)


def read_settings(folder: Path) -> DatasetSettings:
    """The settings of the dataset in ``folder``; RunError if it holds none."""
    manifest = folder / MANIFEST
    if not folder.is_dir():
        raise RunError(f"{folder}: no such folder" if not folder.exists() else f"{folder} is not a folder")
    if not manifest.is_file():
        raise RunError(f"{folder} is not a dataset of `spacetable trajectories` (it has no {MANIFEST})")
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        settings = DatasetSettings(**{f.name: data[f.name] for f in fields(DatasetSettings)})
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError) as exc:
        raise RunError(f"{manifest} is damaged: {str(exc).splitlines()[0][:120]}") from None
    if settings.format != FORMAT:
        raise RunError(f"{manifest} is of format {settings.format!r:.40}; this spacetable writes {FORMAT}")
    return settings


def read_trajectories(folder: Path) -> tuple[DatasetSettings, Any]:
    """A dataset's settings and its rows so far (the whole shards, in game order) as a ``pyarrow.Table``."""
    pq = _parquet()
    import pyarrow as pa

    settings = read_settings(folder)
    paths = [shard_path(folder, s.number) for s in shards(settings) if shard_path(folder, s.number).exists()]
    if not paths:
        return settings, schema(settings).empty_table()
    return settings, pa.concat_tables([pq.read_table(path) for path in paths])


def _shards_to_write(settings: DatasetSettings, folder: Path, resume: bool) -> list[Shard]:
    """The shards a run must write into ``folder``; RunError, with nothing written, where the folder
    is not one it may write (an existing folder without ``resume``, another dataset with it)."""
    if folder.exists() and not folder.is_dir():
        raise RunError(f"--out {folder} is a file, not a folder")
    if not resume:
        if folder.exists() and any(folder.iterdir()):
            raise RunError(f"{folder} exists: --resume continues that dataset, or choose another --out")
        if not folder.resolve().parent.is_dir():
            raise RunError(f"--out {folder}: the folder {folder.parent} does not exist")
        return shards(settings)
    before = read_settings(folder)
    difference = before.difference(settings)
    if difference is not None:
        raise RunError(f"{folder} is a different dataset: {difference}; resume it with its own settings")
    if settings.games < before.games:
        raise RunError(f"{folder} has --games {before.games}: resume it with that many games or more")
    todo = []
    for shard in shards(settings):
        path = shard_path(folder, shard.number)
        if not path.exists() or _shard_of(path) != shard:  # a last shard that had fewer games is played again
            todo.append(shard)
    return todo


def _shard_of(path: Path) -> Shard:
    try:
        meta = _parquet().read_schema(path).metadata or {}
        return Shard(**json.loads(meta[SHARD_KEY]))
    except Exception as exc:  # pyarrow's errors for a truncated or foreign file are many
        raise RunError(f"{path} is not a shard of this dataset ({str(exc).splitlines()[0][:120]}): remove it") from None


def write_trajectories(
    game: Game,
    seats: Sequence[str],
    games: int,
    folder: Path,
    seed: int = 0,
    jobs: int = 1,
    resume: bool = False,
    shard_games: int = SHARD_GAMES,
    reward: str = "win",
    on_game: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Write games ``0..games-1`` of ``game`` with the bots named in ``seats`` into ``folder`` (see
    the module's docstring), in ``jobs`` processes; ``resume`` keeps the whole shards a dataset of
    the same settings has there and plays the rest.

    ``on_game(done)`` is told the games finished, old ones included: after each game with one
    job, after each shard with more. Returns (games kept from before, games played now).
    Nothing is written where the settings or the folder are wrong (RunError). An exception
    (Ctrl-C among them) leaves the finished shards and removes the unfinished ones.
    """
    _parquet()
    settings = DatasetSettings.of(game, seats, seed, games, shard_games, reward)
    todo = _shards_to_write(settings, folder, resume)
    kept = games - sum(shard.games for shard in todo)
    folder.mkdir(exist_ok=True)
    for stale in folder.glob(".part-*.parquet.partial"):  # left by a run killed outright
        stale.unlink()
    write_atomic(folder / MANIFEST, settings.dumps() + "\n")
    done = kept
    if on_game is not None and kept:
        on_game(done)

    def one_game() -> None:
        nonlocal done
        done += 1
        if on_game is not None:
            on_game(done)

    if jobs == 1 or len(todo) <= 1:
        for shard in todo:
            write_shard(game, settings, folder, shard, one_game)
        return kept, games - kept
    pool = Processes(min(jobs, len(todo)))
    try:
        spec = GameSpec.of(game)
        futures: list[Future[int]] = [pool.submit(_write_shard_in_worker, spec, settings, folder, s) for s in todo]
        for future in as_completed(futures):
            done += future.result()
            if on_game is not None:
                on_game(done)
    finally:
        pool.shutdown()  # the workers still writing are stopped: their unfinished shards go
        for partial in folder.glob(".part-*.parquet.partial"):
            partial.unlink()
    return kept, games - kept


def _parquet() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise RunError("trajectories are Parquet files: pip install 'spacetable[lab]' (pyarrow)") from None
    return pq


__all__ = [
    "COLUMNS",
    "MANIFEST",
    "REWARDS",
    "SHARD_GAMES",
    "DatasetSettings",
    "Shard",
    "Step",
    "play_steps",
    "read_settings",
    "read_trajectories",
    "schema",
    "shard_path",
    "shards",
    "write_shard",
    "write_trajectories",
]
