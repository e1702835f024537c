"""The figures of docs/INTEROP.md that the code decides, written into the page from the code.

    python tools/interop_figures.py            # rewrite the block in docs/INTEROP.md
    python tools/interop_figures.py --check    # exit 1 (naming the first difference) if it is stale

The block between the two markers holds:

- per game and seat count: the flat action codes, the factored steps (values per step x steps),
  the observation tensor's size, and the legal actions per decision (median and most) over
  seeded uniformly random games at the adapters' finite options;
- every Gymnasium id as registered (`max_episode_steps`, the default action space);
- every OpenSpiel game at its default parameters, as its game string prints;
- the research a random agent and the greedy bot reach in falling-skies, the yardsticks the
  training examples are read against.

`tests/test_interop_figures.py` builds the block and compares it to the page, so a registered
value that moves without the page failing a test cannot happen.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "INTEROP.md"
BEGIN = "<!-- interop figures: begin (tools/interop_figures.py writes this block) -->"
END = "<!-- interop figures: end -->"

SEATS = {"falling-skies": (1,), "showdown": (2, 4, 6), "spacerace": (2, 4, 6), "mothership": (1, 2, 4, 6)}
"""The seat counts tabled per game (every registered game must be here)."""
GAMES = 5
"""Random games per row for the legal-action counts (seeds 0 to 4)."""
ROUND_LIMITS = {"mothership": {"round_limit": 10}, "spacerace": {"turn_limit": 15}}
"""Shorter random games where the game allows it (as the interop tests play them): the counts
are per decision, and a decision's actions do not depend on the limit."""


def legal_counts(game_id: str, players: int) -> list[int]:
    """The number of legal actions at every decision of ``GAMES`` seeded random games."""
    from spacetable.engine import CHANCE, State, random_playout
    from spacetable.interop.sequential import load_game

    game = load_game(game_id, players, ROUND_LIMITS.get(game_id, {}))
    counts: list[int] = []

    def count(state: State) -> None:
        if not state.is_terminal() and state.current_player() != CHANCE:
            counts.append(len(state.legal_actions(state.awaiting()[0])))

    for seed in range(GAMES):
        state = game.new_initial_state()
        count(state)
        random_playout(state, random.Random(seed), game.bounded_length(), count)
    return counts


def spaces_table() -> list[str]:
    import math

    from spacetable.engine import list_games
    from spacetable.interop.factored import FactoredCodec
    from spacetable.interop.sequential import load_game

    rows = [
        "| game | seats | action codes | factored steps (values x steps) | observation "
        "| legal actions per decision: median, most |",
        "|---|---|---|---|---|---|",
    ]
    registered = {game_class.id for game_class in list_games()}
    if missing := registered - SEATS.keys():
        raise SystemExit(f"tools/interop_figures.py: add {sorted(missing)} to SEATS")
    for game_id, seat_counts in SEATS.items():
        for players in seat_counts:
            game = load_game(game_id, players, {})
            codec = FactoredCodec(game)
            counts = legal_counts(game_id, players)
            rows.append(
                f"| {game_id} | {players} | {game.actions.size:,} | {codec.width} x {codec.depth} "
                f"| {math.prod(game.observation_shape()):,} | {statistics.median(counts):g}, {max(counts):,} |"
            )
    return rows


def gymnasium_table() -> list[str]:
    """The solo games' ids (``spacetable/SelfPlay-v0``, which needs a game, is not one)."""
    import gymnasium

    from spacetable.engine import list_games
    from spacetable.interop.gymnasium import env_id

    rows = ["| Gymnasium id | max_episode_steps | action space (default) |", "|---|---|---|"]
    for name in sorted(env_id(game_class.id) for game_class in list_games() if game_class.min_players == 1):
        env = gymnasium.make(name)
        rows.append(f"| `{name}` | {env.spec.max_episode_steps:,} | `{env.action_space}` |")
        env.close()
    return rows


def openspiel_table() -> list[str]:
    import pyspiel

    from spacetable.engine import list_games
    from spacetable.interop.openspiel import spiel_name

    rows = ["| OpenSpiel game at its defaults | distinct actions | max game length |", "|---|---|---|"]
    for game_class in list_games():
        game = pyspiel.load_game(spiel_name(game_class.id))
        rows.append(f"| `{game}` | {game.num_distinct_actions():,} | {game.max_game_length():,} |")
    return rows


BASELINE_GAMES = 20
"""Games per agent in the baselines' row (seeds 0 to 19)."""


def baselines_table() -> list[str]:
    """Research spaces reached in falling-skies (level 1) through the Gymnasium id by a
    uniformly random masked agent and by spacetable's greedy bot: the yardsticks for training."""
    import random

    import gymnasium
    import numpy as np

    import spacetable.interop.gymnasium  # noqa: F401  (registers the ids)
    from spacetable.agents import make_agent
    from spacetable.interop.sequential import choose_code

    env = gymnasium.make("spacetable/FallingSkies-v0", level=1)
    rng, bot_rng, greedy = np.random.default_rng(0), random.Random(0), make_agent("greedy")
    agents = {
        "uniformly random (masked)": lambda info: int(rng.choice(np.flatnonzero(info["action_mask"]))),
        "greedy bot": lambda info: choose_code(env.unwrapped.engine_state, 0, greedy, bot_rng),
    }
    rows = [
        f"| falling-skies, level 1, {BASELINE_GAMES} games | research reached (of 14), average | wins |",
        "|---|---|---|",
    ]
    for name, choose in agents.items():
        scores, wins = [], 0
        for seed in range(BASELINE_GAMES):
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                _, reward, terminated, truncated, info = env.step(choose(info))
                done = terminated or truncated
            scores.append(env.unwrapped.engine_state.outcome().scores[0])
            wins += reward > 0
        rows.append(f"| {name} | {statistics.mean(scores):.2f} | {wins} |")
    return rows


def block() -> str:
    """The generated block, markers included."""
    parts = [spaces_table(), gymnasium_table(), openspiel_table(), baselines_table()]
    return "\n".join([BEGIN, *("\n".join(part) + "\n" for part in parts), END])


def current(page: str) -> str:
    """The block as the page has it."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{PAGE}: the markers of the generated block are missing")
    return page[start : end + len(END)]


def first_difference(made: str, kept: str) -> str | None:
    """None when the two blocks agree, else the first line that differs, as the code makes it."""
    made_lines, kept_lines = made.splitlines(), kept.splitlines()
    for n, line in enumerate(made_lines):
        if n >= len(kept_lines) or kept_lines[n] != line:
            return f"the page has {kept_lines[n] if n < len(kept_lines) else 'nothing'!r} where the code gives {line!r}"
    return (
        None if len(made_lines) == len(kept_lines) else f"the page has extra lines from {kept_lines[len(made_lines)]!r}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if the page is stale")
    args = parser.parse_args()
    page = PAGE.read_text()
    made, kept = block(), current(page)
    if args.check:
        if stale := first_difference(made, kept):
            print(f"docs/INTEROP.md is stale: {stale}; run tools/interop_figures.py")
            return 1
        return 0
    PAGE.write_text(page.replace(kept, made))
    print(f"wrote the figures into {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
