"""OpenSpiel's information-set MCTS (ISMCTS) plays Starship Showdown against random seats.

    pip install -e '.[rl]'
    python examples/ismcts_showdown.py --games 10 --simulations 50 --seed 1

The bot is OpenSpiel's Python ``ISMCTSBot`` (its C++ bots crash on Python games). It searches
worlds re-dealt from what its seat knows (``resampler``: the others' hands and the deck dealt
again by ``state.resample``), values a leaf by the game's own evaluation
(``HeuristicEvaluator``) instead of a random rollout, and takes a different seat each game.
Chance and the other seats are uniformly random. A fair share of wins is 1/players.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from spacetable.interop.openspiel import HeuristicEvaluator, resampler  # importing it registers spacetable_<game>


def play(game: pyspiel.Game, bot: ismcts.ISMCTSBot, seat: int, rng: np.random.RandomState) -> tuple[float, int]:
    """One game with the bot at ``seat``: its return and the decisions it took."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probabilities))
        elif state.current_player() == seat:
            state.apply_action(bot.step(state))
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()[seat], decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations a decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game(f"spacetable_showdown(players={args.players})")
    rng = np.random.RandomState(args.seed)
    bot = ismcts.ISMCTSBot(
        game,
        HeuristicEvaluator(),
        uct_c=1.0,
        max_simulations=args.simulations,
        random_state=rng,
        allow_inconsistent_action_sets=True,  # worlds re-dealt differently offer different actions
    )
    bot.set_resampler(resampler(args.seed))
    start, won, decisions = time.monotonic(), 0.0, 0
    for number in range(args.games):
        share, taken = play(game, bot, number % args.players, rng)
        won, decisions = won + share, decisions + taken
        print(f"game {number + 1}: ISMCTS at seat {number % args.players} gets {share:.2f}")
    seconds = time.monotonic() - start
    print(
        f"ISMCTS ({args.simulations} simulations) against {args.players - 1} random seats: win share "
        f"{won / args.games:.2f} over {args.games} games (fair: {1 / args.players:.2f}), "
        f"{1000 * seconds / max(decisions, 1):.0f} ms a decision"
    )


if __name__ == "__main__":
    main()
