"""Card faces as data: loading, validating and assembling the board for one level.

``cards.toml`` beside this module holds both faces of the seven flippable cards.
:func:`build_board` checks them (a clear :class:`ContentError` for anything
wrong), applies a designer's overrides, picks a face per card and assembles one
immutable :class:`Board` that the rules read.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from spacetable.engine import ContentError
from spacetable.engine.content import load_content

CONTENT_FILE = Path(__file__).parent / "cards.toml"
CARDS = ("sky1", "sky2", "sky3", "city", "research", "base_upper", "base_lower")
SKY_TOKENS = {".", "<", ">", "M"}
ARROW_STEP = {"<": -1, ">": 1}
TRACK_SYMBOLS = {"", "+red", "dmg", "SKULL"}
ROW_LETTERS = "ABCDEF"
ROBOT = "robot"
"""What stands on a base space is (black | white | robot, value)."""
SPOT = 0
"""A ship's row while it stands on its starting spot on the mother ship card."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RulesModel(_Strict):
    columns: Annotated[int, Field(ge=2, le=9)]
    # the bounds keep a designer's typo (energy_max = 100000000) from a game that cannot be drawn
    energy_start: Annotated[int, Field(ge=0, le=99)]
    energy_max: Annotated[int, Field(ge=1, le=99)]
    green_ships: Annotated[int, Field(ge=1, le=9)]
    red_ships: Annotated[int, Field(ge=0, le=99)]
    robots: Annotated[int, Field(ge=0, le=20)]
    robot_max: Annotated[int, Field(ge=1, le=20)]
    dig_cost: Annotated[int, Field(ge=0, le=99)]
    aa_slowdown: Annotated[int, Field(ge=0, le=9)]
    dice: Annotated[list[Literal["black", "white"]], Field(max_length=9)]
    flip_order: list[str]

    @model_validator(mode="after")
    def _consistent(self) -> RulesModel:
        if self.energy_start > self.energy_max:
            raise ValueError("energy_start is above energy_max")
        if not 1 <= len(self.dice) <= self.columns:
            raise ValueError(f"between 1 and {self.columns} dice (one per column at most)")
        if sorted(self.flip_order) != sorted(CARDS):
            raise ValueError(f"flip_order must name each of {list(CARDS)} once")
        if self.green_ships > self.columns:
            raise ValueError("more green ships than starting spots (one per column)")
        return self


class SkyFace(_Strict):
    provisional: bool = False
    sky: list[str]
    mothership: list[str] = []

    @field_validator("mothership")
    @classmethod
    def _symbols(cls, track: list[str]) -> list[str]:
        for symbol in track:
            if symbol not in TRACK_SYMBOLS and not _is_step_back(symbol):
                raise ValueError(f"unknown mother ship symbol {symbol!r}; use '', exc-k, res-k, +red, dmg, SKULL")
        return track


class ResearchFace(_Strict):
    provisional: bool = False
    track: Annotated[list[Annotated[int, Field(ge=1, le=99)]], Field(min_length=1, max_length=99)]


class RoomModel(_Strict):
    spaces: Annotated[list[str], Field(min_length=1)]
    effects: Annotated[list[Literal["energy", "shoot", "research", "robot"]], Field(min_length=1)]
    mod: Annotated[int, Field(ge=-20, le=20)] = 0
    cost: Annotated[int, Field(ge=0, le=99)] = 0


class BaseFace(_Strict):
    provisional: bool = False
    rows: Annotated[list[str], Field(min_length=1)]
    aa_row: str | None = None
    excavated: list[str] = []
    dig_path: list[str] = []
    damage_spaces: Annotated[int, Field(ge=0, le=99)]
    rooms: list[RoomModel]


class SkyCard(_Strict):
    easy: SkyFace
    hard: SkyFace


class ResearchCard(_Strict):
    easy: ResearchFace
    hard: ResearchFace


class BaseCard(_Strict):
    easy: BaseFace
    hard: BaseFace


class CardsModel(_Strict):
    sky1: SkyCard
    sky2: SkyCard
    sky3: SkyCard
    city: SkyCard
    research: ResearchCard
    base_upper: BaseCard
    base_lower: BaseCard


class ContentModel(_Strict):
    rules: RulesModel
    cards: CardsModel


def _is_step_back(symbol: str) -> bool:
    return step_back(symbol, "exc") > 0 or step_back(symbol, "res") > 0


def step_back(symbol: str, kind: str) -> int:
    """How many spaces the track symbol sets ``kind`` back ('exc': the excavator, 'res': the
    research): k for 'kind-k', else 0."""
    head, _, amount = symbol.partition("-")
    return int(amount) if head == kind and amount.isdigit() else 0


# ---------------------------------------------------------------------------
# The assembled board


@dataclass(frozen=True)
class Room:
    """A room of the base: its spaces (slots), effects, modifier and energy cost."""

    id: str
    spaces: tuple[str, ...]
    effects: tuple[str, ...]
    mod: int
    cost: int

    def describe(self) -> str:
        mod = f" {self.mod:+d}" if self.mod else ""
        size = f" ({len(self.spaces)} dice, sum)" if len(self.spaces) > 1 else ""
        return f"{'+'.join(self.effects)}{mod}{size}, cost {self.cost}"


@dataclass(frozen=True)
class Board:
    """Everything the rules need to know about the cards on the table. Immutable."""

    columns: int
    sky_rows: int
    """Rows of sky between the mother ship card and the city; the city is row sky_rows + 1."""
    arrow: tuple[tuple[int, ...], ...]
    """arrow[row][col]: -1 left, +1 right, 0 none (row 1-based, col 0-based; row 0 unused)."""
    mother_icon: tuple[tuple[bool, ...], ...]
    explosion: tuple[tuple[int, ...], ...]
    """explosion[row][col]: n for an explosion space n+, 0 for none."""
    track: tuple[str, ...]
    """track[k]: the symbol the mother ship meets when it descends onto sky row k+1."""
    skull_row: int
    research: tuple[int, ...]
    energy_start: int
    energy_max: int
    lose_at_damage: int
    green_ships: int
    red_ships: int
    robots: int
    robot_max: int
    dig_cost: int
    """Energy that moving the excavator costs, whatever the distance."""
    aa_slowdown: int
    """Rows fewer that ships move when the die is on an anti-aircraft gun."""
    dice: tuple[str, ...]
    spaces: tuple[str, ...]
    """Every base space in play order of rows, A1..F5."""
    aa_spaces: frozenset[str]
    room_of: Mapping[str, Room]
    """The room a space belongs to (AA guns and tunnels are not rooms)."""
    rooms: tuple[Room, ...]
    open_at_start: frozenset[str]
    """Spaces excavated whatever the excavator does (rows open at the start)."""
    dig_path: tuple[str, ...]
    dig_index: Mapping[str, int]
    column_of: Mapping[str, int]
    level: int
    hard: tuple[str, ...]
    provisional: tuple[str, ...]


def parse_content(overrides: Mapping[str, Any] | None = None) -> ContentModel:
    """The card data (defaults with ``overrides`` deep-merged), validated."""
    return load_content(CONTENT_FILE, ContentModel, "falling-skies card data", overrides)


def flipped_cards(rules: RulesModel, level: int | None, hard: list[str] | None) -> tuple[str, ...]:
    """The cards on their hard side, from a level (1-8) or an explicit list."""
    if hard is not None:
        unknown = sorted(set(hard) - set(CARDS))
        if unknown or len(set(hard)) != len(hard):
            raise ContentError(f"hard cards must be distinct names from {list(CARDS)}; got {hard}")
        if level is not None and level != len(hard) + 1:
            raise ContentError(f"level {level} flips {level - 1} cards but {len(hard)} were named")
        return tuple(c for c in CARDS if c in hard)
    level = 1 if level is None else level
    if not 1 <= level <= len(CARDS) + 1:
        raise ContentError(f"level must be 1 to {len(CARDS) + 1}, got {level}")
    return tuple(c for c in CARDS if c in rules.flip_order[: level - 1])


def build_board(
    level: int | None = None, hard: list[str] | None = None, overrides: Mapping[str, Any] | None = None
) -> Board:
    """Assemble and check the board for a level; raises ContentError naming any problem."""
    content = parse_content(overrides)
    rules = content.rules
    flipped = flipped_cards(rules, level, hard)

    def face(name: str) -> Any:
        card = getattr(content.cards, name)
        return card.hard if name in flipped else card.easy

    faces = {name: face(name) for name in CARDS}
    provisional = tuple(name for name, f in faces.items() if f.provisional)
    cols = rules.columns

    # --- sky and mother ship track
    arrow: list[tuple[int, ...]] = [()]
    icon: list[tuple[bool, ...]] = [()]
    explosion: list[tuple[int, ...]] = [()]
    track: list[str] = []
    for name in ("sky1", "sky2", "sky3", "city"):
        sky_face: SkyFace = faces[name]
        if name != "city" and len(sky_face.mothership) != len(sky_face.sky):
            raise ContentError(f"{name}: {len(sky_face.sky)} sky rows but {len(sky_face.mothership)} track symbols")
        if name == "city" and sky_face.mothership:
            raise ContentError("city: the city card has no mother ship track")
        track += sky_face.mothership
        for r, text in enumerate(sky_face.sky, start=1):
            cells = text.split()
            where = f"{name} row {r}"
            if len(cells) != cols:
                raise ContentError(f"{where}: {len(cells)} cells, expected {cols}: {text!r}")
            for c, cell in enumerate(cells):
                if not (cell in SKY_TOKENS or (cell.isdigit() and int(cell) >= 1)):
                    raise ContentError(f"{where}: unknown cell {cell!r}; use . < > M or a number")
                if not 0 <= c + ARROW_STEP.get(cell, 0) < cols:
                    raise ContentError(f"{where}: the arrow in column {c + 1} points off the sky")
            arrow.append(tuple(ARROW_STEP.get(cell, 0) for cell in cells))
            icon.append(tuple(cell == "M" for cell in cells))
            explosion.append(tuple(int(cell) if cell.isdigit() else 0 for cell in cells))
    if track.count("SKULL") != 1:
        raise ContentError(f"the mother ship track needs exactly one SKULL, found {track.count('SKULL')}")
    skull_row = track.index("SKULL") + 1

    # --- base
    upper: BaseFace = faces["base_upper"]
    lower: BaseFace = faces["base_lower"]
    rows = upper.rows + lower.rows
    if rows != list(ROW_LETTERS[: len(rows)]):
        raise ContentError(f"base rows must run A, B, C... from the upper card down; got {rows}")
    spaces = tuple(f"{row}{c}" for row in rows for c in range(1, cols + 1))
    aa_spaces = frozenset(f"{upper.aa_row}{c}" for c in range(1, cols + 1)) if upper.aa_row else frozenset()
    if lower.aa_row or (upper.aa_row and upper.aa_row not in upper.rows):
        raise ContentError("aa_row must name a row of the upper base card")
    rooms: list[Room] = []
    room_of: dict[str, Room] = {}
    for card_name, base in (("base_upper", upper), ("base_lower", lower)):
        for model in base.rooms:
            where = f"{card_name} room {model.spaces}"
            for s in model.spaces:
                if s not in spaces or s[0] not in base.rows:
                    raise ContentError(f"{where}: space {s} is not on this card")
                if s in room_of or s in aa_spaces:
                    raise ContentError(f"{where}: space {s} is already used")
            cols_used = sorted(int(s[1:]) for s in model.spaces)
            if len({s[0] for s in model.spaces}) != 1 or cols_used != list(range(cols_used[0], cols_used[-1] + 1)):
                raise ContentError(f"{where}: a room's spaces must be side by side in one row")
            room = Room(min(model.spaces), tuple(sorted(model.spaces)), tuple(model.effects), model.mod, model.cost)
            rooms.append(room)
            room_of.update((s, room) for s in room.spaces)
    open_rows = set(upper.excavated) | set(lower.excavated)
    open_at_start = frozenset(s for s in spaces if s[0] in open_rows)
    dig_path = tuple(upper.dig_path + lower.dig_path)
    if not dig_path:
        raise ContentError("the dig path is empty: the excavator needs a start space")
    if len(set(dig_path)) != len(dig_path) or not set(dig_path) <= set(spaces):
        raise ContentError(f"the dig path must name distinct base spaces; got {list(dig_path)}")
    closed = set(spaces) - open_at_start - {dig_path[0]}
    if not closed <= set(dig_path):
        raise ContentError(f"spaces {sorted(closed - set(dig_path))} can never be excavated: add them to dig_path")
    for a, b in itertools.pairwise(dig_path):
        if abs(ROW_LETTERS.index(a[0]) - ROW_LETTERS.index(b[0])) + abs(int(a[1:]) - int(b[1:])) != 1:
            raise ContentError(f"the dig path jumps from {a} to {b}: consecutive spaces must be neighbours")
    research_face: ResearchFace = faces["research"]
    lose_at = upper.damage_spaces + lower.damage_spaces + 1
    return Board(
        columns=cols,
        sky_rows=len(arrow) - 1,
        arrow=tuple(arrow),
        mother_icon=tuple(icon),
        explosion=tuple(explosion),
        track=tuple(track),
        skull_row=skull_row,
        research=tuple(research_face.track),
        energy_start=rules.energy_start,
        energy_max=rules.energy_max,
        lose_at_damage=lose_at,
        green_ships=rules.green_ships,
        red_ships=rules.red_ships,
        robots=rules.robots,
        robot_max=rules.robot_max,
        dig_cost=rules.dig_cost,
        aa_slowdown=rules.aa_slowdown,
        dice=tuple(rules.dice),
        spaces=spaces,
        aa_spaces=aa_spaces,
        room_of=room_of,
        rooms=tuple(rooms),
        open_at_start=open_at_start,
        dig_path=dig_path,
        dig_index={s: i for i, s in enumerate(dig_path)},
        column_of={s: int(s[1:]) - 1 for s in spaces},
        level=len(flipped) + 1,
        hard=flipped,
        provisional=provisional,
    )
