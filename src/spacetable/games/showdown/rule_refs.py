"""Where the rules say what each showdown event does (``Game.rule_of``).

For every event kind the game emits, the rulebook's section and the numbered rulings of
RULINGS.md that govern it."""

from __future__ import annotations

from pathlib import Path

from spacetable.engine.references import Teaching

TEACHING = Teaching(
    Path(__file__).parent,
    {
        "deal": ("Setup & showdown overview", (1, 3, 6)),
        "pick": ("Upgrade phase", (7, 8, 9)),
        "phase": ("Setup & showdown overview", (5, 7, 27)),
        "reveal": ("Showdown phase", (6, 24)),
        "turn": ("Turn order", (29,)),
        "attack": ("Actions: Attack", (11, 15, 16, 26)),
        "dice": ("Actions: Attack, Teleport (Combat)", (10, 13, 19)),
        "energy": ("Card/token details: Energy", (11, 12)),
        "hull": ("Card/token details: Hull", (22, 26)),
        "repair": ("Actions: Repair", (10, 13)),
        "board": ("Actions: Teleport", (18, 19, 20, 26)),
        "crew": ("Actions: Teleport (Combat)", (17, 18, 20)),
        "loot": ("Actions: Teleport (Combat)", (21,)),
        "xeno": ("Actions: Use xenotech", (25, 26)),
        "token": ("Actions: Use xenotech", (24, 25, 29)),
        "deploy": ("Free actions: Countermeasures", (26,)),
        "eliminate": ("Player elimination", (20, 22, 24)),
        "burn": ("Edge cases (the final two)", (27, 28)),
        "end": ("Player elimination", (23, 30)),
    },
)
