"""The codes of a Mothership state's plain data: phases, and what a grid space or a fleet's entry holds.

They are the state's format, so the state, its schema and every rule read them here."""

from __future__ import annotations

PHASES = ("board", "place", "order", "turn", "over")
NOWHERE = -1
"""A ship's space once destroyed (or before it is placed)."""
STATION = 15
"""The ship number a colony station has in the grid's occupant codes."""
MOVED = 10**3
"""Engine spaces "used" by a ship whose movement is over for the turn (a jump, a beacon, a black hole)."""
EMPTY = -1
"""A grid space with no unit."""
CANNON = 14
"""A guardian cannon's unit number in the grid's occupant codes (ships are 0-7, a station 15)."""
LOCKED = -1
"""A beacon token's unit while it is face down (``state.tokens``)."""
