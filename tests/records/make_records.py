"""Write the Mothership records that tests/test_mothership_records.py replays.

They were made on main before issue 22 split Mothership into a kernel and modules, so a replay
that still reaches each recorded final digest shows the split changed no rule. Run from the
repository root: `PYTHONPATH=src python tests/records/make_records.py` (only to add a record;
rewriting the existing ones would lose what they check).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from spacetable.engine import Record, load

HERE = Path(__file__).parent
GAMES: dict[str, tuple[int, dict[str, object], int]] = {
    # name: (players, options, seed of the random play)
    "mothership_all_modules": (
        4,
        {
            "random_event": True,
            "exploration": True,
            "neutron_stars": True,
            "black_holes": True,
            "beacons": True,
            "objectives": "global",
            "round_limit": 25,
        },
        1,
    ),
    "mothership_hidden_objectives": (
        3,
        {"exploration": True, "objectives": "hidden", "beacons": True, "round_limit": 20},
        2,
    ),
    "mothership_solo": (1, {"mode": "solo", "level": 5, "random_event": True}, 11),
    "mothership_teams": (4, {"team_size": 2, "round_limit": 25}, 4),
    "mothership_victory_points": (
        4,
        {"mode": "victory_points", "exploration": True, "black_holes": True, "round_limit": 25},
        5,
    ),
}


def play(players: int, options: dict[str, object], seed: int) -> Record:
    game = load("mothership", players, options)
    rng = random.Random(seed)
    record = Record.start(game, [f"seat {s}" for s in range(players)])
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            seat, action = None, state.sample_chance(rng)
        else:
            seat = state.awaiting()[0]
            action = rng.choice(state.legal_actions(seat))
        record.add(game, seat, action)
        state.apply_action(action, seat)
    record.finish(state)
    return record


def main(names: list[str]) -> None:
    for name in names or list(GAMES):
        record = play(*GAMES[name])
        record.save(HERE / f"{name}.json")
        print(f"{name}: {len(record.actions)} actions, digest {record.final_digest}")


if __name__ == "__main__":
    main(sys.argv[1:])
