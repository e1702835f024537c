"""Where the rules say what each falling-skies event does (``Game.rule_of``).

For every event kind the game emits: the rulebook's section and the numbered rulings of
RULINGS.md that govern it."""

from __future__ import annotations

from pathlib import Path

from spacetable.engine.references import Teaching

TEACHING = Teaching(
    Path(__file__).parent,
    {
        "round": ("Game play", (4,)),
        "roll": ("Place dice and move ships", (4,)),
        "place": ("Place dice and move ships", (5, 7, 14)),
        "reroll": ("Place dice and move ships", (4, 7)),
        "discard": ("Place dice and move ships", (6,)),
        "move": ("Place dice and move ships", (7, 8, 9, 11, 14)),
        "arrow": ("Place dice and move ships", (10,)),
        "mother_icon": ("Place dice and move ships", (9, 13)),
        "hit": ("Place dice and move ships", (12,)),
        "damage": ("Place dice and move ships", (2, 12, 30)),
        "partial": ("Resolve rooms", (17,)),
        "use": ("Using rooms", (15, 16, 21)),
        "skip": ("Resolve rooms", (15, 16, 22)),
        "energy": ("Using rooms", (3, 18)),
        "shot": ("Using rooms", (20, 28)),
        "research": ("Using rooms", (19, 30)),
        "robot": ("Using rooms", (23, 24, 25, 26)),
        "dig": ("Moving the excavator", (5, 22)),
        "symbol": ("Move the mother ship", (26, 27, 28)),
        "descend": ("Move the mother ship", (13, 27, 30)),
        "obstruct": ("Move the mother ship", (13, 27)),
        "respawn": ("Respawning enemy ships", (29,)),
        "spawn": ("Respawning enemy ships", (29,)),
        "game_over": ("End of the game", (30, 31)),
    },
)
