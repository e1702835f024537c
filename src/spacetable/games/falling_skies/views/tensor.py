"""The observation tensor of falling-skies: the view as numbers in [0, 1], for learners.

The view is the whole state (nothing is hidden); the layout is documented in docs/INTEROP.md too.

With C columns, R sky rows (row 0 is the starting spot on the mother ship card) and S base
spaces in play order (``board.spaces``: A1, A2, ...), the flat tensor holds, in order:

==============  ===========  ===================================================================
piece           size         values
==============  ===========  ===================================================================
phase           6            one-hot: roll, place, resolve, robot, respawn, over
tracks          6            round / skull row, mother ship rows / skull row, energy / energy
                             max, damage / damage that destroys the base, research spaces
                             passed / research spaces, excavator / last index of the dig path
green ships     (R + 1) * C  1 where a green ship is, row by row from the starting spot
red ships       (R + 1) * C  1 where a red ship is
supplies        4            green and red ships waiting to respawn, red ships and robots left
                             in the supply, each over its count in the box
base            S * 4        per space: black die, white die, robot (one-hot, all 0 when empty),
                             then its value / 6 (a robot's over max(6, robot max))
excavated       S            1 where a space is dug out (a room, tunnel or gun in play)
pending rooms   S            1 on the first space of each full room still to resolve
unplaced dice   2 * 6        rolled dice not yet placed, black then white, by value 1 to 6, each
                             count over the number of dice
dice to roll    2            black and white dice still to roll, over the number of dice
columns used    C            1 where a die stands in that column this round
dug             1            1 once the excavator has moved this round
new robots      6            robots built and not yet placed, by value 1 to 6, over the robots
won             1            1 once the game is won
==============  ===========  ===================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spacetable.engine import JSON
from spacetable.engine.tensor import one_hot, ratio

from ..content import ROBOT
from ..rules.state import PHASES

if TYPE_CHECKING:
    from ..game import FallingSkies

FACES = range(1, 7)
COLORS = ("black", "white")
STANDING = (*COLORS, ROBOT)


def planes(game: FallingSkies) -> tuple[int, tuple[int, int, int]]:
    """The sky as image planes (green ships, red ships; rows from the starting spot, columns):
    where they start in the flat tensor, and their shape."""
    b = game.board
    return len(PHASES) + 6, (2, b.sky_rows + 1, b.columns)


def shape(game: FallingSkies) -> tuple[int, ...]:
    b = game.board
    cells = (b.sky_rows + 1) * b.columns
    spaces = len(b.spaces)
    faces = len(FACES)
    size = len(PHASES) + 6 + 2 * cells + 4 + spaces * (len(STANDING) + 1) + 2 * spaces
    return (size + len(COLORS) * faces + len(COLORS) + b.columns + 1 + faces + 1,)


def encode(game: FallingSkies, view: JSON) -> list[float]:
    """The tensor of ``view``, a view of this game (``state.view(seat)``)."""
    b = game.board
    v: dict[str, Any] = view
    dice = len(b.dice)
    out = one_hot(v["phase"], PHASES)
    out += [
        ratio(v["round"], b.skull_row),
        ratio(v["mothership"], b.skull_row),
        ratio(v["energy"], b.energy_max),
        ratio(v["damage"], b.lose_at_damage),
        ratio(v["research"], len(b.research)),
        ratio(v["excavator"], len(b.dig_path) - 1),
    ]
    for red in (False, True):
        cells = [0.0] * ((b.sky_rows + 1) * b.columns)
        for row, col, is_red in v["ships"]:
            if is_red == red:
                cells[row * b.columns + col] = 1.0
        out += cells
    out += [
        ratio(v["waiting"][0], b.green_ships),
        ratio(v["waiting"][1], b.red_ships),
        ratio(v["red_supply"], b.red_ships),
        ratio(v["robot_supply"], b.robots),
    ]
    top_robot = max(len(FACES), b.robot_max)
    for space in b.spaces:
        what, value = v["slots"].get(space, ("", 0))
        out += one_hot(what, STANDING)
        out.append(ratio(value, top_robot if what == ROBOT else len(FACES)))
    dug_out = b.open_at_start.union(b.dig_path[: v["excavator"] + 1])
    out += [1.0 if s in dug_out else 0.0 for s in b.spaces]
    out += [1.0 if s in v["pending"] else 0.0 for s in b.spaces]
    for color in COLORS:
        values = [value for c, value in v["unplaced"] if c == color]
        out += [ratio(values.count(face), dice) for face in FACES]
    out += [ratio(v["to_roll"].count(color), dice) for color in COLORS]
    out += [float(v["columns_used"] >> c & 1) for c in range(b.columns)]
    out.append(float(v["dug"]))
    out += [ratio(v["new_robots"].count(face), b.robots) for face in FACES]
    out.append(float(v["result"] == "won"))
    return out
