"""A long fuzz run over every decoder of every game: the figures of benchmarks/README.md's trust table.

    python benchmarks/fuzz_soak.py --seconds 300      # per game variant

For each variant it samples states from random playouts, then until its time is up, in turns:
mutates a state's JSON and loads it (an accepted state must play on 30 actions), sends an
action from outside (a mutated or borrowed action's JSON, from a right, wrong or malformed
seat; a refusal must leave the state's JSON unchanged), every 10th turn mutates a record and
replays it, every 20th mutates the game's whole content and plays the game it loads, and asks
whether a seat's view survives a resample for it (a view that changes when only what the seat
cannot know is re-dealt shows it: a leak). It uses the suite's own fuzz targets
(``spacetable.testing.fuzz``); a crash is any exception they do not allow. Prints one table
row per variant and exits 1 if anything crashed, changed on a refusal or leaked.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from spacetable.engine import Game, Record, State, game_class, load_finite, play
from spacetable.engine.content import deep_merge, read_toml
from spacetable.testing.conformance import RandomPlayer
from spacetable.testing.fuzz import (
    MUTANT_VALUES,
    fuzz_action,
    fuzz_content,
    fuzz_record_text,
    fuzz_state,
    mutate,
    sample_states,
    view_survives_resample,
)

EXPANSION = {"neutron_stars": True, "black_holes": True, "beacons": True, "exploration": True, "objectives": "hidden"}
VARIANTS: list[tuple[str, int | None, dict[str, Any]]] = [  # --only GAME keeps one game's
    ("falling-skies", None, {}),
    ("spacerace", 3, {}),
    ("showdown", 3, {}),
    ("mothership", 2, {}),
    ("mothership", 3, EXPANSION),
    ("mothership", 1, {"level": 3}),
    ("mothership", 4, {"team_size": 2, "mode": "victory_points", "random_event": True}),
]
COLUMNS = (
    "actions tried",
    "refused",
    "changed on refusal",
    "states mutated",
    "accepted",
    "records mutated",
    "content files tried",
    "views checked",
    "leaks",
    "crashes",
)


def describe(options: dict[str, Any]) -> str:
    """A variant's options in a few words for its table row."""
    if options == EXPANSION:
        return "all modules"
    return ", ".join(f"{name}={value}" for name, value in options.items())


def content_of(game_id: str) -> dict[str, Any]:
    """The game's whole standard content, its TOML files merged (what a designer's file overrides)."""
    folder = Path(sys.modules[game_class(game_id).__module__].__file__ or "").parent / "content"
    merged: dict[str, Any] = {}
    for path in sorted(folder.glob("*.toml")):
        merged = deep_merge(merged, read_toml(path))
    return merged


def actions_of(state: State) -> list[Any]:
    """What can be done in ``state``: a seat's legal actions, or the chance outcomes."""
    if state.is_chance_node():
        return [action for action, _ in state.chance_outcomes()]
    seats = state.awaiting()
    return list(state.legal_actions(seats[0])) if seats else []


def outside_seat(game: Game, state: State, rng: random.Random) -> Any:
    """The seat to act, or one that is wrong or not a seat at all."""
    right = state.awaiting()[:1] or [None]
    return rng.choice([*right, *right, None, -1, game.players, 0.0, True, "0", rng.randrange(game.players)])


def run_variant(game_id: str, players: int | None, options: dict[str, Any], seconds: float, seed: int) -> Counter[str]:
    game = load_finite(game_id, players, options or None)  # random playouts must end
    rng = random.Random(f"soak:{game_id}:{seed}")
    states = sample_states(game, 4, seed=seed)
    record = Record.start(game, ["random"] * game.players)
    play(game, [RandomPlayer() for _ in range(game.players)], random.Random(seed), record=record)
    record_data = json.loads(record.dumps())
    content = content_of(game_id)
    counts: Counter[str] = Counter()
    end = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < end:
        turn += 1
        base = rng.choice(states)
        try:
            counts["states mutated"] += 1
            counts["accepted"] += fuzz_state(game, mutate(base.to_json(), rng), rng)
            live = [s for s in states if not s.is_terminal()] or states
            target = rng.choice(live).clone()
            donor = rng.choice(actions_of(rng.choice(states)) or [None])
            data = game.actions.to_json(donor) if donor is not None else rng.choice(MUTANT_VALUES)
            data = mutate(data, rng) if rng.random() < 0.5 else data
            counts["actions tried"] += 1
            counts["refused"] += not fuzz_action(game, target, data, outside_seat(game, target, rng))
            if turn % 10 == 0:
                counts["records mutated"] += 1
                edited = record_data
                for _ in range(rng.randint(1, 3)):
                    edited = mutate(edited, rng)
                fuzz_record_text(json.dumps(edited))
            if turn % 20 == 0:
                counts["content files tried"] += 1
                fuzz_content(game_id, game.players, mutate(content, rng))
            if game.hidden_information and not base.is_terminal():
                counts["views checked"] += 1
                counts["leaks"] += not view_survives_resample(base, rng.randrange(game.players), rng)
        except AssertionError as exc:
            key = "changed on refusal" if "changed the state" in str(exc) else "crashes"
            counts[key] += 1
            print(f"  {game_id}: {str(exc)[:150]} … {str(exc)[-150:]}", file=sys.stderr)
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="time per game variant (default 60)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="one game id (default: every variant)")
    args = parser.parse_args()
    print("| variant | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    totals: Counter[str] = Counter()
    for game_id, players, options in VARIANTS:
        if args.only and game_id != args.only:
            continue
        counts = run_variant(game_id, players, options, args.seconds, args.seed)
        totals.update(counts)
        name = game_id + (f" {players}p" if players else "") + (f" {describe(options)}" if options else "")
        print(f"| {name} | " + " | ".join(f"{counts[c]:,}" for c in COLUMNS) + " |", flush=True)
    print("| **all** | " + " | ".join(f"**{totals[c]:,}**" for c in COLUMNS) + " |")
    return 1 if totals["crashes"] or totals["changed on refusal"] or totals["leaks"] else 0


if __name__ == "__main__":
    sys.exit(main())
