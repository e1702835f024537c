"""A bot that plans the rest of its turn before it acts: a beam search over its own decisions.

Where a turn is many decisions in a row (Mothership: set the control panel, move, attack, buy),
the greedy bot takes the best next step alone and never sees a move that pays only with the
attack it makes possible. :class:`TurnPlanner` looks down the seat's own consecutive decisions
instead: from the position it keeps the ``width`` best lines found so far, extends each by
every legal action valued as the greedy bot values it (:func:`~spacetable.agents.greedy.one_ply_values`:
the game's quick values where it tells them, else the evaluation after the action, a roll's
outcomes averaged with their exact odds), and stops a line where the turn leaves the seat or a
die decides (it cannot know the outcome, so the line is valued by its average). It plays the
first action of the best line seen at any depth, and plans again at its next decision, when the
dice have spoken.

Game-agnostic: it needs only the engine protocol and ``Game.evaluate``. It plans on the
resample it is handed (the seat's knowledge only) and draws only ties from its own generator.
"""

from __future__ import annotations

import random

from spacetable.engine import Action, State

from .greedy import one_ply_values

Line = tuple[Action, ...]
"""The seat's decisions in a row, from the position planned on."""
TIE = 1e-9
"""Values closer than this are equal; ties among first actions are broken at random."""
TRIED = 4
"""Lines tried per place in the next beam (a line that hands the turn on or rolls ends there)."""


class TurnPlanner:
    """Beam search over the seat's own decisions to the end of its turn.

    ``width`` lines are kept at each depth, ``depth`` decisions ahead at most; a line ends where
    another seat acts, a chance node (a roll, a draw) comes, or the game ends."""

    name = "planner"

    def __init__(self, width: int = 4, depth: int = 8) -> None:
        if width < 1 or depth < 1:
            raise ValueError(f"a turn planner needs a width and depth of at least 1, not {width} and {depth}")
        self.width = width
        self.depth = depth

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        return self.plan(state, seat, rng, legal)[1][0]

    def plan(
        self, state: State, seat: int, rng: random.Random, legal: list[Action] | None = None
    ) -> tuple[float, Line]:
        """The best line found from ``state`` for ``seat`` (on turn) and its value: ``seat``'s
        evaluation where the line ends, a roll's outcomes averaged."""
        best_value = float("-inf")
        best_line: Line = ()
        beam: list[tuple[State, Line]] = [(state, ())]
        for depth in range(self.depth):
            scored = []
            for node, line in beam:
                actions = legal if depth == 0 and legal is not None else node.legal_actions(seat)
                for action, value in zip(actions, one_ply_values(node, seat, actions)):
                    scored.append((-value, rng.random(), node, (*line, action)))
            scored.sort(key=lambda entry: entry[:2])
            if -scored[0][0] > best_value + TIE:
                best_value, best_line = -scored[0][0], scored[0][3]
            if depth + 1 == self.depth:
                break
            beam = self._extend(scored, seat)
            if not beam:
                break
        return best_value, best_line

    def _extend(self, scored: list[tuple[float, float, State, Line]], seat: int) -> list[tuple[State, Line]]:
        """The next beam: of the ``TRIED * width`` best-valued lines, those after which ``seat``
        decides again, at most ``width``, one per set of actions (moves made in another order
        lead, as a rule, to the same position)."""
        beam: list[tuple[State, Line]] = []
        seen: set[frozenset[Action]] = set()
        for _, _, node, line in scored[: TRIED * self.width]:
            key = frozenset(line)
            if key in seen:
                continue
            seen.add(key)
            child = node.clone()
            child.apply_legal(line[-1], seat)
            if child.is_terminal() or child.is_chance_node() or child.current_player() != seat:
                continue
            beam.append((child, line))
            if len(beam) == self.width:
                break
        return beam
