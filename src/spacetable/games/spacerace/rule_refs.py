"""Where the rules say what each spacerace event does (``Game.rule_of``).

For every event kind the game emits, the rulebook's section and the numbered rulings of
RULINGS.md that govern it."""

from __future__ import annotations

from pathlib import Path

from spacetable.engine.references import Teaching

TEACHING = Teaching(
    Path(__file__).parent,
    {
        "setup": ("Setup", (1, 2, 3)),
        "homeworld": ("Setup", (4,)),
        "design": ("Motherships", (5,)),
        "round": ("Setup", (4, 7, 34)),
        "move": ("Galactic map", (6, 8, 9)),
        "nexus": ("Nexus", (10,)),
        "encounter": ("Starways", (13, 15)),
        "treasure": ("Treasure", (13, 14, 29)),
        "battle": ("Space battles", (16, 21)),
        "initiative": ("Space battles: Movement tables", (17, 20)),
        "hit": ("Space battles: Combat tables", (18, 21)),
        "standoff": ("Standoffs", (19,)),
        "flee": ("Standoffs", (19,)),
        "roll": ("Standoffs, Planetary conquest", (3, 20, 29)),
        "victory": ("Victory!", (22, 23)),
        "capture": ("Victory! PvM", (22, 31)),
        "assimilate": ("Victory! PvP", (23, 24)),
        "destroy": ("Victory! PvP", (23, 26)),
        "defeat": ("Defeat... PvM", (25,)),
        "damage": ("Defeat... Mothership", (25, 26)),
        "rebuild": ("Defeat... Mothership", (30,)),
        "planet": ("Planets", (27, 28)),
        "eliminated": ("Objective", (32,)),
        "game_over": ("Objective", (33, 34)),
    },
)
