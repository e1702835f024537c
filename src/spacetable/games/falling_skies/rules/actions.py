"""The actions of falling-skies: what the player (and chance) can do."""

from __future__ import annotations

from typing import NamedTuple

from spacetable.engine import ActionSpace, Roll

from ..content import Board


class Place(NamedTuple):
    """Phase 1: put the rolled die (color, value) on a base space."""

    color: str
    value: int
    space: str
    kind: str = "place"


class Resolve(NamedTuple):
    """Phase 2: resolve a room (named by its first space), paying its cost (use) or not.

    ``take`` names the placed robot to rebuild when a robot room is used (allowed whether
    or not a blue die is left in the supply); "" takes a blue die from the supply.
    """

    room: str
    use: bool
    take: str
    kind: str = "resolve"


class Dig(NamedTuple):
    """Phase 2: resolve the digging die on ``space``: pay one energy and move the excavator, or not."""

    space: str
    use: bool
    kind: str = "dig"


class PlaceRobot(NamedTuple):
    """After phase 2: put the newly built robot on an excavated room."""

    space: str
    kind: str = "place_robot"


class Spawn(NamedTuple):
    """Phase 3: put a waiting ship on the starting spot above ``column`` (1-based)."""

    column: int
    red: bool
    kind: str = "spawn"


def action_space(board: Board) -> ActionSpace:
    spaces = board.spaces
    return ActionSpace(
        (Roll, {"value": range(1, 7)}),
        (Place, {"color": ("black", "white"), "value": range(1, 7), "space": spaces}),
        (Resolve, {"room": spaces, "use": (False, True), "take": ("", *spaces)}),
        (Dig, {"space": spaces, "use": (False, True)}),
        (PlaceRobot, {"space": spaces}),
        (Spawn, {"column": range(1, board.columns + 1), "red": (False, True)}),
    )
