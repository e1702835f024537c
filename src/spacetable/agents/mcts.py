"""Monte Carlo tree search over the engine protocol, for every game.

One search serves perfect- and hidden-information games alike:

- Each iteration starts from a *determinization*: ``state.resample(seat, rng)``, a full
  state that agrees with what the bot's seat may see (for a game without hidden
  information that is the state itself). The bot never looks at the true state it was
  handed beyond what its seat's view holds, so it cannot cheat.
- Nodes are reached by actions; a child records how often it was *available* as well as
  how often it was chosen, and selection uses UCB on availability (single-observer
  information-set MCTS, Cowling, Powley and Whitehouse 2012). With perfect information
  every action of a node is always available, and this is plain UCT.
- Chance nodes are sampled with their probabilities; their children are kept per outcome.
- Rewards are vectors, one entry per seat; at each node the seat that moves maximises its
  own entry, so games of more than two players get the right credit.
- Seats deciding at once (a draft) are searched one after the other, the bot's own seat
  first at the root (a common approximation: deeper seats "see" earlier answers).
- A leaf is valued after ``rollout`` random actions: by each seat's share of the win if the
  game is over, else by the game's evaluation turned into win chances (:func:`estimate`).
- Optionally (the difficulty levels do), the root's actions are opened best one-ply value
  first and a few at a time (progressive widening), and a node is valued by its best line
  rather than the mean of every leaf below it: in a turn of many actions (Mothership's ~90),
  a small budget then deepens the greedy bot's best candidates instead of averaging random
  continuations, which the plain search does and which made more iterations no stronger.
- Budgets are iterations, seconds, or both (whichever ends first). In games without
  hidden information the subtree under the move played is kept and found again at the
  bot's next decision when the states in between are in the tree.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from spacetable.engine import CHANCE, SIMULTANEOUS, Action, State

from .greedy import one_ply_values

BACKUPS = ("mean", "best")


@dataclass(frozen=True)
class SearchBudget:
    """How hard the search thinks: a budget and how leaves are valued."""

    iterations: int | None = 1000
    """Iterations per decision (None: only the time limit)."""
    seconds: float | None = None
    """Wall-clock limit per decision (None: only the iteration count)."""
    rollout: int = 0
    """Random actions played from a new leaf before it is valued (0: value it at once)."""
    exploration: float = 0.7
    """The UCB constant, for rewards that are win chances (0 to 1)."""
    widening: float | None = None
    """Progressive widening at the root: the decision's actions are searched in the order of their
    one-ply values (the greedy bot's), best first, the first ``1 + widening * sqrt(visits)`` of
    them (None: every action at once, tried in random order)."""
    backup: str = "mean"
    """How a node is valued: ``mean``, the average of every leaf below it (plain MCTS), or
    ``best``, the value of its best child for the seat choosing there (a chance node: its
    outcomes' values weighted by how often each was drawn), so that lines through poor actions
    tried on the way do not drag a good action down (:func:`back_up_best`)."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search budget needs iterations, seconds or both")
        if (self.iterations is not None and self.iterations < 1) or (self.seconds is not None and self.seconds <= 0):
            raise ValueError(f"a search budget must be positive: {self.iterations} iterations, {self.seconds} s")
        if self.rollout < 0 or self.exploration < 0 or (self.widening is not None and self.widening < 0):
            raise ValueError("rollout, exploration and widening cannot be negative")
        if self.backup not in BACKUPS:
            raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, not {self.backup!r}")


class Node:
    """A tree node: children by action (or chance outcome), and the statistics of reaching it."""

    __slots__ = ("avail", "best", "children", "mover", "total", "visits")

    def __init__(self, mover: int, seats: int) -> None:
        self.mover = mover
        """The seat whose decision led here (CHANCE after a chance outcome)."""
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * seats
        self.best: list[float] | None = None
        """The values backed up from the best line below (``backup = "best"``; None: the means)."""

    def mean(self, seat: int) -> float:
        return self.total[seat] / self.visits if self.visits else 0.0

    def values(self) -> list[float]:
        """Every seat's value of reaching this node: the backed-up best line, else the means."""
        if self.best is not None:
            return self.best
        return [t / self.visits for t in self.total] if self.visits else [0.0] * len(self.total)


def estimate(state: State, center: float = 0.0) -> list[float]:
    """Each seat's chance of winning from here: its share of the win at the end (1, 1/k for k
    winners, 0), else the game's evaluation turned into a win chance with the game's
    ``value_scale``: a softmax over the seats, or for one seat a logistic centred on ``center``
    (the value of the position searched from, so that better than now counts above one half).

    Search maximises win chances rather than ``returns()`` so that finished and unfinished
    lines are valued on one scale in every game."""
    if state.is_terminal():
        outcome = state.outcome()
        winners = outcome.winners if outcome else ()
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(state.game.players)]
    game = state.game
    scale = game.value_scale
    values = [game.evaluate(state, seat) / scale for seat in range(game.players)]
    if game.players == 1:
        x = max(-30.0, min(30.0, values[0] - center / scale))
        return [1.0 / (1.0 + math.exp(-x))]
    top = max(values)
    weights = [math.exp(max(-30.0, v - top)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def back_up_best(path: list[Node], values: list[float]) -> None:
    """Value each node of an iteration's ``path`` below the root by its best line: the new leaf
    by ``values``, a decision node by its child of the highest value for the seat choosing there,
    a chance node by its outcomes' values weighted by how often each was drawn."""
    if len(path) < 2:
        return
    leaf = path[-1]
    if not leaf.children:
        leaf.best = values
    for node in reversed(path[1:-1]):
        children = list(node.children.values())
        if children[0].mover != CHANCE:
            node.best = max(children, key=lambda child: child.values()[child.mover]).values()
            continue
        drawn = sum(child.visits for child in children)
        weighted = [0.0] * len(values)
        for child in children:
            for i, v in enumerate(child.values()):
                weighted[i] += child.visits * v
        node.best = [w / drawn for w in weighted]


def actor(state: State, seat: int | None = None) -> int:
    """Who acts at ``state``: CHANCE, the seat to move, or (seats deciding at once) ``seat``
    if it is awaited, else the first awaited seat."""
    player = state.current_player()
    if player != SIMULTANEOUS:
        return player
    waiting = state.awaiting()
    return seat if seat is not None and seat in waiting else waiting[0]


class MCTSAgent:
    """A searching bot: information-set MCTS on determinizations (plain UCT with perfect information)."""

    def __init__(self, budget: SearchBudget, name: str = "mcts") -> None:
        self.budget = budget
        self.name = name
        self.iterations_done = 0
        """Iterations of the last decision (for benchmarks)."""
        self._kept: tuple[Node, State] | None = None
        """The subtree under the last move played and the state it starts from (tree reuse)."""
        self._center = 0.0
        self._order: list[Action] = []
        """The decision's actions, best one-ply value first (widening only)."""

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        deadline = None if self.budget.seconds is None else time.perf_counter() + self.budget.seconds
        root = self._reuse(state) or Node(seat, state.game.players)
        if self.budget.widening is not None:  # within the time budget: the table's cap holds
            values = one_ply_values(state, seat, legal)
            ranked = sorted(range(len(legal)), key=lambda i: (-values[i], rng.random()))
            self._order = [legal[i] for i in ranked]
        self._center = state.game.evaluate(state, seat) if state.game.players == 1 else 0.0
        limit = self.budget.iterations
        done = 0
        hidden = state.game.hidden_information
        while done == 0 or (
            (limit is None or done < limit) and (deadline is None or time.perf_counter() < deadline)
        ):  # at least one iteration, however short the time: a move needs a searched child
            world = state.resample(seat, rng) if hidden else state.clone()
            self._iterate(root, world, seat, rng)
            done += 1
        self.iterations_done = done
        candidates = [a for a in legal if a in root.children]
        best = max(candidates, key=lambda a: (root.children[a].visits, root.children[a].mean(seat)))
        child = root.children[best]
        if not hidden:
            after = state.clone()
            after.apply_action(best, seat)
            self._kept = (child, after)
        return best

    # ---- one iteration --------------------------------------------------------------------
    def _iterate(self, root: Node, state: State, seat: int, rng: random.Random) -> None:
        path = [root]
        node = root
        first = True
        while not state.is_terminal():
            mover = actor(state, seat if first else None)
            first = False
            if mover == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply_legal(outcome)
                child = node.children.get(outcome)
                if child is None:  # chance is not a choice: keep descending through new outcomes
                    child = node.children[outcome] = Node(CHANCE, len(root.total))
                node = child
                path.append(node)
                continue
            legal = state.legal_actions(mover)
            widened = node is root and self.budget.widening is not None
            if widened:
                legal = self._widened(legal, root.visits)
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[0] if widened else rng.choice(untried)
                for a in legal:
                    if a in node.children:
                        node.children[a].avail += 1
                child = node.children[action] = Node(mover, len(root.total))
                child.avail = 1
                state.apply_legal(action, mover)
                path.append(child)
                break
            action = self._select(node, legal, mover)
            state.apply_legal(action, mover)
            node = node.children[action]
            path.append(node)
        values = self._leaf_value(state, rng)
        for n in path:
            n.visits += 1
            total = n.total
            for i, v in enumerate(values):
                total[i] += v
        if self.budget.backup == "best":
            back_up_best(path, values)

    def _widened(self, legal: list[Action], visits: int) -> list[Action]:
        """The root's actions open to search after ``visits`` iterations, best one-ply value first
        (those of the decision's order that this determinization allows)."""
        assert self.budget.widening is not None
        allowed = 1 + int(self.budget.widening * math.sqrt(visits))
        possible = set(legal)
        opened = [a for a in self._order[:allowed] if a in possible]
        return opened or legal

    def _select(self, node: Node, legal: list[Action], mover: int) -> Action:
        c = self.budget.exploration
        best, best_score = legal[0], -math.inf
        for action in legal:
            child = node.children[action]
            child.avail += 1
            value = child.total[mover] / child.visits if child.best is None else child.best[mover]
            score = value + c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best

    def _leaf_value(self, state: State, rng: random.Random) -> list[float]:
        for _ in range(self.budget.rollout):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_legal(state.sample_chance(rng))
            else:
                mover = actor(state)
                state.apply_legal(rng.choice(state.legal_actions(mover)), mover)
        return estimate(state, self._center)

    # ---- tree reuse ---------------------------------------------------------------------------
    def _reuse(self, state: State) -> Node | None:
        """The kept subtree's node for ``state``, found among the states it can reach in a few steps."""
        kept, self._kept = self._kept, None
        if kept is None or kept[1].game is not state.game:
            return None
        target = state.to_json()
        frontier = [kept]
        for _ in range(4):
            grown: list[tuple[Node, State]] = []
            for node, at in frontier:
                if at.to_json() == target:
                    return node
                if at.is_terminal():
                    continue
                mover = actor(at)
                for action, child in node.children.items():
                    if len(grown) >= 64:
                        break
                    nxt = at.clone()
                    nxt.apply_action(action, None if mover == CHANCE else mover)
                    grown.append((child, nxt))
            frontier = grown
        return None


__all__ = ["BACKUPS", "MCTSAgent", "Node", "SearchBudget", "actor", "back_up_best", "estimate"]
