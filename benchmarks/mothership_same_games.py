"""Fingerprints of Mothership games, to show that speed work keeps the same games for the same seeds.

    PYTHONPATH=src python benchmarks/mothership_same_games.py

Prints one JSON line: for each kind of game, a hash of every legal action offered at every
decision, every action taken (chance included) and each game's final state. Random playouts
cover the default game, every expansion module on (hidden objectives), global objectives with
beacons and random events, teams in victory points, and the solo challenge; greedy games (one-ply
search on the evaluation) cover the default game, every module, the solo challenge and teams.
Run it on both sides of a change (``git stash`` or another checkout): equal lines mean the same
games. About half a minute.
"""

from __future__ import annotations

import hashlib
import json
import random

import spacetable
from spacetable.agents import make_agent
from spacetable.engine import State, play

EVERY_MODULE = {
    "neutron_stars": True,
    "black_holes": True,
    "beacons": True,
    "exploration": True,
    "objectives": "hidden",
}
RANDOM = {  # name: (players, options, games)
    "default": (4, {"round_limit": 60}, 6),
    "modules": (4, {"round_limit": 60, **EVERY_MODULE}, 6),
    "global_beacons": (
        4,
        {"round_limit": 40, "objectives": "global", "exploration": True, "beacons": True, "random_event": True},
        6,
    ),
    "teams_vp": (4, {"round_limit": 40, "team_size": 2, "mode": "victory_points"}, 2),
    "solo": (1, {"round_limit": 40}, 2),
}
GREEDY = {  # name: (players, options), one game each
    "greedy": (4, {"round_limit": 30}),
    "greedy_modules": (4, {"round_limit": 12, **EVERY_MODULE}),
    "greedy_solo": (1, {"round_limit": 12}),
    "greedy_teams_vp": (4, {"round_limit": 12, "team_size": 2, "mode": "victory_points"}),
}


def _final(state: State) -> bytes:
    return json.dumps(state.to_json(), sort_keys=True, default=str).encode()


def random_games(players: int, options: dict[str, object], games: int) -> str:
    digest = hashlib.sha256()
    game = spacetable.load("mothership", players, options)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
                state.apply_action(action)
            else:
                seat = state.awaiting()[0]
                legal = state.legal_actions(seat)
                digest.update(repr([str(a) for a in legal]).encode())
                action = rng.choice(legal)
                state.apply_action(action, seat)
            digest.update(str(action).encode())
        digest.update(_final(state))
    return digest.hexdigest()[:16]


def greedy_game(players: int, options: dict[str, object]) -> str:
    game = spacetable.load("mothership", players, options)
    final = play(game, [make_agent("greedy") for _ in range(players)], random.Random(0))
    return hashlib.sha256(_final(final)).hexdigest()[:16]


def main() -> None:
    prints = {name: random_games(*spec) for name, spec in RANDOM.items()}
    prints.update({name: greedy_game(*spec) for name, spec in GREEDY.items()})
    print(json.dumps(prints))


if __name__ == "__main__":
    main()
