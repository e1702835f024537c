"""Where the rules say what each mothership event does (``Game.rule_of``).

For every event kind the game emits, the rulebook's chapter (the base rulebook's, or the
expansion's) and the numbered rulings of RULINGS.md that govern it."""

from __future__ import annotations

from pathlib import Path

from spacetable.engine.references import Teaching

TEACHING = Teaching(
    Path(__file__).parent,
    {
        "setup": ("1.1 Board balance", (3, 4, 5)),
        "place": ("1. Setup", (6,)),
        "roll": ("3. Combat", (7, 16, 17)),
        "round": ("2. Your turn / Movement", (7, 24)),
        "energy": ("4. Control Panel", (8, 9)),
        "move": ("2. Your turn / Movement", (11, 33, 82, 85)),
        "asteroid": ("8. Asteroids", (12, 13)),
        "attack": ("3. Combat", (14, 15, 17, 19)),
        "miss": ("3. Combat", (14, 43)),
        "damage": ("3. Combat", (13, 15, 18, 83)),
        "capture": ("7. Planets", (21, 32, 42)),
        "income": ("6. Resources", (22,)),
        "loot": ("6. Resources", (20, 22)),
        "out": ("11. End Game", (23, 62)),
        "game_over": ("11. End Game", (24, 57, 64, 74)),
        "buy": ("6.1 Action Cards", (26, 30)),
        "sell": ("6.1 Action Cards", (26,)),
        "cards": ("6.1 Action Cards", (27, 28, 29)),
        "card": ("6.1 Action Cards", (31, 33, 34, 35, 36)),
        "tech": ("6.2 Technology Tree", (40, 41, 43, 44)),
        "explore": ("12. Planetary Exploration", (45, 46, 52)),
        "points": ("13. Victory Points", (55, 56)),
        "respawn": ("13. Victory Points", (59, 60, 61)),
        "npc": ("14. Solo Challenge Mode", (70, 71, 72)),
        "turn": ("14. Solo Challenge Mode", (65, 68)),
        "hazard": ("Expansion: Neutron Stars, Black Holes", (79, 81, 82, 85)),
        "beacon": ("Expansion: Distress Beacons", (91, 92, 93, 95, 96)),
        "objective": ("Expansion: Objectives", (98, 99, 100, 101)),
        "reward": ("Expansion: Objectives", (99, 102)),
        "cannon": ("Expansion: Module Specific Cards", (103,)),
    },
)
