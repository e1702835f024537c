"""The words of the falling-skies web board: the glossary, and the texts of rooms and track symbols."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..content import Board, Room


def signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def _effects(room: Room) -> str:
    return " and ".join(room.effects)


# ---- the words (glossary and titles) ------------------------------------------------


def room_text(room: Room, cost_unit: str = "energy") -> str:
    """What a room does, from its content data: effects, modifier, cost and spaces."""
    value = "the die" if len(room.spaces) == 1 else f"the sum of the dice on {' and '.join(room.spaces)}"
    mod = f" {signed(room.mod)}" if room.mod else ""
    return f"{_effects(room).capitalize()} room: works with {value}{mod}, and using it costs {room.cost} {cost_unit}."


def symbol_text(symbol: str) -> str:
    """What a mother ship track symbol does when the card descends onto its row."""
    if symbol.startswith("exc-"):
        return f"When the mother ship comes down onto this row, the excavator goes back {symbol[4:]} space(s)."
    if symbol.startswith("res-"):
        return f"When the mother ship comes down onto this row, the research marker goes back {symbol[4:]} space(s)."
    if symbol == "+red":
        return "When the mother ship comes down onto this row, a red ship from the reserve boards it."
    if symbol == "dmg":
        return "When the mother ship comes down onto this row, its bombardment deals 1 damage to the base."
    if symbol == "SKULL":
        return "If the mother ship comes down onto this row, the base is lost."
    return "Nothing happens when the mother ship comes down onto this row."


def glossary(board: Board, options: Mapping[str, Any]) -> dict[str, str]:
    """Every room, effect, symbol, piece and track of the board, in one sentence each."""
    gain = options.get("energy_room", "gain") == "gain"
    words = {
        "energy": (
            f"An energy room adds its value to the energy, up to {board.energy_max}."
            if gain
            else f"An energy room raises the energy to its value, up to {board.energy_max}."
        ),
        "shoot": "A shoot room shoots down every ship standing on an explosion whose number is at most its value.",
        "research": "A research room moves the research marker on as long as its value pays the next spaces' numbers.",
        "robot": (
            f"A robot room builds a robot die with its value (at most {board.robot_max}), "
            "put on a free excavated room after phase 2."
        ),
        "anti-aircraft gun": (
            f"A die here moves the ships of its column {board.aa_slowdown} row(s) fewer, needs no energy, "
            "and leaves before phase 2."
        ),
        "tunnel": "A space in no room: dug through on the way, it takes no die once excavated.",
        "unexcavated": (
            f"Once a round a die may go here to dig: with {board.dig_cost} energy and a value at least "
            "the route's length, the excavator moves here."
        ),
        "excavator": "Every space of the route up to the excavator is excavated, open for dice.",
        "arrow": "A ship ending its move here shifts one column the way the arrow points, if that space is free.",
        "mother ship icon": "A ship ending its move here brings the mother ship down one row at once, skipping "
        "that row's symbol.",
        "explosion": "A ship standing here can be shot down by a shoot room whose value is at least the number.",
        "mother ship": (
            f"The card comes down one row each round; at row {board.skull_row} (the skull) the base is lost. "
            "Ships waiting on it respawn on its starting spots."
        ),
        "mother ship track": "The symbols at the left of the sky rows take effect as the mother ship comes down.",
        "starting spot": "A waiting ship respawns here, above a column with no ship in the sky when there is one.",
        "green ship": "An enemy ship: shot down or reaching the city, it goes back onto the mother ship.",
        "red ship": "A reinforcement: shot down, it returns to the reserve; reaching the city, to the mother ship.",
        "city": "A ship moving past the last sky row reaches the city: the base takes 1 damage.",
        "black die": "A die to place: the ships of its column move down by its value.",
        "white die": "A die to place: the ships of its column move down by its value, then the unplaced dice re-roll.",
        "robot die": "A robot works its room every round without moving ships, losing a pip each time.",
        "research track": (
            f"{len(board.research)} spaces, each needing that much research value; reaching the last wins."
        ),
        "energy track": (
            f"Energy, {board.energy_start} at the start and at most {board.energy_max}, pays for rooms and digging."
        ),
        "damage track": f"The base is destroyed at {board.lose_at_damage} damage.",
        "round": "A round: roll and place the dice, resolve the rooms, then the mother ship comes down.",
    }
    for symbol in dict.fromkeys(board.track):
        if symbol:
            words[symbol] = symbol_text(symbol)
    for room in board.rooms:
        words[f"room {room.id}"] = room_text(room)
    return words
