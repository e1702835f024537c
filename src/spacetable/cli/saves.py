"""Where terminal games are kept: one record file per game in the user's data folder.

Every game ``spacetable play`` starts (without ``--record``) is saved after every action
to ``<user data folder>/saves/<game>-<date>-<time>.json``; ``SPACETABLE_SAVES`` names
another folder (the tests use it). The record format is the engine's
:class:`~spacetable.engine.Record`, written atomically by ``Record.save``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from spacetable.engine import Record, RecordError

SAVES_ENV = "SPACETABLE_SAVES"
LAST = "last"
"""``--resume last``: the most recently saved unfinished game."""


def saves_folder() -> Path:
    """The folder of the autosaves (not created here)."""
    override = os.environ.get(SAVES_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("spacetable")) / "saves"


def new_save_path(game_id: str) -> Path:
    """A fresh file name for a new game's autosave; the folder is created."""
    folder = saves_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{game_id}-{stamp}.json"
    number = 2
    while path.exists():
        path = folder / f"{game_id}-{stamp}-{number}.json"
        number += 1
    return path


@dataclass(frozen=True)
class SavedGame:
    """What the list of saves shows of one file (read without replaying it)."""

    path: Path
    game_id: str
    seats: list[str]
    actions: int
    finished: bool
    modified: float


def read_save(path: Path) -> SavedGame | None:
    """The summary of one save, or None if the file is not a readable record."""
    try:
        record = Record.loads(path.read_bytes())
        modified = path.stat().st_mtime
    except (OSError, RecordError):
        return None
    return SavedGame(path, record.game_id, record.seats, len(record.actions), record.final_digest is not None, modified)


def list_saves() -> list[SavedGame]:
    """The saves in the folder, newest first; files that are not records are left out."""
    folder = saves_folder()
    if not folder.is_dir():
        return []
    found = (read_save(path) for path in folder.glob("*.json"))
    return sorted((save for save in found if save is not None), key=lambda s: -s.modified)


def find_save(name: str, game_id: str | None = None) -> Path:
    """The record ``--resume`` names: ``last`` (the newest unfinished save, of ``game_id`` if
    given), a number from ``spacetable saves``, or a file. LookupError (one line) when there is
    no such save."""
    if name == LAST:
        for save in list_saves():
            if not save.finished and game_id in (None, save.game_id):
                return save.path
        of = f" of {game_id}" if game_id is not None else ""
        raise LookupError(f"there is no unfinished game{of} in {saves_folder()} to resume")
    if name.isdigit() and not Path(name).exists():
        saves = list_saves()
        if not 1 <= int(name) <= len(saves):
            raise LookupError(f"there is no save number {name}: `spacetable saves` lists {len(saves)}")
        return saves[int(name) - 1].path
    return Path(name)


def starting_seed_words(seed: int | None) -> str:
    """What a resumed game's record says of the seed the game began with (``Record.seed``)."""
    if seed is None:
        return "the record does not keep the seed the game began with"
    return f"the game began with seed {seed}"


__all__ = [
    "LAST",
    "SAVES_ENV",
    "SavedGame",
    "find_save",
    "list_saves",
    "new_save_path",
    "read_save",
    "saves_folder",
    "starting_seed_words",
]
