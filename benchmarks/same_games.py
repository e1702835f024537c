"""Fingerprints of every game's games, to show that a change to speed or layout keeps the same games for the same seeds.

    PYTHONPATH=src python benchmarks/same_games.py [GAME ...]

Prints one JSON line a game: for each kind of game, a hash of every legal action offered at every
decision, every action taken (chance included) and each game's final state. For Mothership, random
playouts cover the default game, every expansion module on (hidden objectives), global objectives
with beacons and random events, teams in victory points, and the solo challenge; greedy games
(one-ply search on the evaluation) cover the default game, every module, the solo challenge and
teams. The other games have random playouts at their smallest and largest table and with their
options' variants, and greedy games. Run it on both sides of a change (``git stash`` or another
checkout): equal lines mean the same games. About a minute.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

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
RANDOM: dict[str, dict[str, tuple[int, dict[str, object], int]]] = {  # game: name: (players, options, games)
    "mothership": {
        "default": (4, {"round_limit": 60}, 6),
        "modules": (4, {"round_limit": 60, **EVERY_MODULE}, 6),
        "global_beacons": (
            4,
            {"round_limit": 40, "objectives": "global", "exploration": True, "beacons": True, "random_event": True},
            6,
        ),
        "teams_vp": (4, {"round_limit": 40, "team_size": 2, "mode": "victory_points"}, 2),
        "solo": (1, {"round_limit": 40}, 2),
    },
    "falling-skies": {
        "level_1": (1, {"level": 1}, 20),
        "level_8_restore": (1, {"level": 8, "energy_room": "restore"}, 20),
    },
    "showdown": {
        "duel": (2, {"fire_round": 20}, 10),
        "four": (4, {"fire_round": 20}, 10),
        "six": (6, {"fire_round": 20}, 4),
    },
    "spacerace": {
        "two": (2, {"turn_limit": 40}, 6),
        "six_dense_all": (6, {"turn_limit": 40, "density": "dense", "fleet_moves": "all"}, 3),
        "variants": (
            3,
            {
                "turn_limit": 40,
                "combat": "single",
                "map_initiative": "roll",
                "conquest_roll": "assault",
                "encounters": "cleared",
                "last_standing": True,
            },
            6,
        ),
    },
}
GREEDY: dict[str, dict[str, tuple[int, dict[str, object]]]] = {  # game: name: (players, options), one game each
    "mothership": {
        "greedy": (4, {"round_limit": 30}),
        "greedy_modules": (4, {"round_limit": 12, **EVERY_MODULE}),
        "greedy_solo": (1, {"round_limit": 12}),
        "greedy_teams_vp": (4, {"round_limit": 12, "team_size": 2, "mode": "victory_points"}),
    },
    "falling-skies": {"greedy": (1, {"level": 3})},
    "showdown": {"greedy": (4, {"fire_round": 20})},
    "spacerace": {"greedy": (3, {"turn_limit": 30})},
}


def _final(state: State) -> bytes:
    return json.dumps(state.to_json(), sort_keys=True, default=str).encode()


def random_games(game_id: str, players: int, options: dict[str, object], games: int) -> str:
    digest = hashlib.sha256()
    game = spacetable.load(game_id, players, options)
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


def greedy_game(game_id: str, players: int, options: dict[str, object]) -> str:
    game = spacetable.load(game_id, players, options)
    final = play(game, [make_agent("greedy") for _ in range(players)], random.Random(0))
    return hashlib.sha256(_final(final)).hexdigest()[:16]


def main() -> None:
    for game_id in sys.argv[1:] or RANDOM:
        if game_id not in RANDOM:
            sys.exit(f"same_games: no game {game_id!r}; one of {', '.join(RANDOM)}")
        prints = {name: random_games(game_id, *spec) for name, spec in RANDOM[game_id].items()}
        prints.update({name: greedy_game(game_id, *spec) for name, spec in GREEDY[game_id].items()})
        print(json.dumps({game_id: prints}), flush=True)


if __name__ == "__main__":
    main()
