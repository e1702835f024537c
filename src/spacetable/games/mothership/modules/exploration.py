"""Chapter 12, planetary exploration (the option ``exploration``).

- On their own turn, a player may pay ``content.exploration_cost`` resources to explore a
  planet they hold that nobody has explored yet; no ship needs to be near it.
- Exploring turns its token over: a chance node over the artifacts not found yet (each
  equally likely). Drawing the token at that moment is the same game as tokens dealt blind
  under the planets at set-up (nobody sees a token before its planet is explored), and it
  keeps nothing hidden in the state. With more planets than tokens, a planet explored after
  the last token is found has none: it cannot be explored.
- An artifact buffs whoever holds its planet, while they hold it: a capture carries it to
  the capturer, a planet turned neutral (its owner knocked out) buffs nobody, and a planet
  taken off the board (Planet Laser Pointer) takes its artifact (found or not) with it for
  good. In team games the planet's owner alone has the buff.
- The buffs use the technology tree's effects, add up with each other and with the tree,
  and reach the rules through :func:`..rules.tech.bonus` (so, like the tree's, never a planet attack).
- The cards: Recon Droid explores a planet for free; Intergalactic Antiques Roadshow adds 1
  to its player's dogfight total for every artifact they hold (module :mod:`..rules.tactics`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event, Statistic

from ..content.language import TALLIES
from ..rules.actions import DrawArtifact, Explore
from ..rules.cards import CardRule, Target
from ..rules.hooks import Module
from ..rules.targets import decode_target, planet_code

if TYPE_CHECKING:
    from ..content import ArtifactModel
    from ..rules.state import MothershipState

MODULE = "exploration"
ARTIFACT_WORTH = 1.5
"""What an artifact held is worth to the evaluation (module :mod:`..bots.heuristic`'s units: a
resource is 0.25, a technology tier 0.6 per resource it cost). An artifact is about a tier's
+1, drawn blind: between a first tier (1.2) and a second (1.8), and well above the 3 resources
that explore a planet (0.75), so a bot explores when it can pay."""


def active(state: MothershipState) -> bool:
    return MODULE in state.game.modules


def tokens_left(state: MothershipState) -> list[int]:
    """The artifacts not found yet (their tokens still face down somewhere)."""
    found = set(state.artifacts)
    return [k for k in range(len(state.game.content.artifacts)) if k not in found]


def explorable(state: MothershipState, seat: int) -> list[int]:
    """The planets ``seat`` may explore: held by it, not explored, while a token is left."""
    if not active(state) or not tokens_left(state):
        return []
    return [p for p, owner in enumerate(state.owner) if owner == seat and state.artifacts[p] < 0]


def options(state: MothershipState, seat: int) -> list[Action]:
    """Explore, on the player's own turn (the main menu), a planet it may explore and can pay for."""
    if not active(state) or state.resources[seat] < state.game.content.exploration_cost:
        return []
    return [Explore(p) for p in explorable(state, seat)]


def explore(state: MothershipState, seat: int, planet: int, events: list[Event]) -> None:
    """Pay for exploring ``planet``; its token is drawn next (chance)."""
    cost = state.game.content.exploration_cost
    state.resources[seat] -= cost
    who = state.player_name(seat)
    events.append(Event("explore", f"{who} pays {cost} to explore the planet at {where(state, planet)}."))
    start(state, planet)


def start(state: MothershipState, planet: int) -> None:
    """The token of ``planet`` is turned over (a chance node over the tokens left)."""
    state.exploring = planet


def outcomes(state: MothershipState) -> list[tuple[Action, float]]:
    left = tokens_left(state)
    return [(DrawArtifact(k), 1 / len(left)) for k in left]


def reveal(state: MothershipState, artifact: int, events: list[Event]) -> None:
    """The token is face up: the planet is explored and its artifact buffs the planet's holder."""
    planet = state.exploring
    state.exploring = -1
    state.artifacts[planet] = artifact
    state.explorers[planet] = state.turn
    state.tallies[state.turn][TALLIES.index("planets_explored")] += 1
    found = state.game.content.artifacts[artifact]
    owner = state.owner[planet]
    holder = state.player_name(owner) if owner >= 0 else "nobody"
    events.append(
        Event(
            "explore",
            f"Under the planet at {where(state, planet)} lies artifact {artifact + 1}, {found.name} "
            f"({effect_words(found)}): {holder} holds it.",
        )
    )


# ---- what the artifacts give ----------------------------------------------------------------


def held(state: MothershipState, seat: int) -> list[int]:
    """The artifacts ``seat`` holds now (those of the explored planets it holds)."""
    if not active(state):
        return []
    owner = state.owner
    return [a for p, a in enumerate(state.peek("artifacts")) if a >= 0 and owner[p] == seat]


def bonus(state: MothershipState, seat: int, effect: str, unit: str = "") -> int:
    """What ``seat``'s artifacts add to ``effect`` (for ``unit``, a kind of ship, where it matters)."""
    if seat < 0:
        return 0
    models, total = state.game.content.artifacts, 0
    for artifact, holder in zip(state.peek("artifacts"), state.owner):  # asked for every ship's move: one pass
        if artifact >= 0 and holder == seat:
            found = models[artifact]
            if found.effect == effect and (not found.units or unit in found.units):
                total += found.amount
    return total


def count(state: MothershipState, seat: int) -> int:
    """How many artifacts ``seat`` holds (Intergalactic Antiques Roadshow adds one per artifact)."""
    return len(held(state, seat))


def worth(state: MothershipState, seat: int) -> float:
    """The artifacts ``seat`` holds, for the evaluation; a token being turned over on one of its
    planets counts as the artifact it will be."""
    if not active(state):
        return 0.0
    artifacts = len(held(state, seat))
    if state.exploring >= 0 and state.owner[state.exploring] == seat:
        artifacts += 1
    return ARTIFACT_WORTH * artifacts


# ---- words ------------------------------------------------------------------------------------

_UNIT_WORDS = {"mothership": "the mothership", "fighter": "fighters", "bomber": "bombers"}


def effect_words(artifact: ArtifactModel) -> str:
    """A short reading of an artifact's buff: ``+1 move for fighters and bombers``."""
    words = f"+{artifact.amount} {artifact.effect.replace('_', ' ')}"
    units = artifact.units
    if units and len(units) < len(_UNIT_WORDS):
        words += " for " + " and ".join(_UNIT_WORDS[u] for u in units)
    elif units:
        words += " for every ship"
    return words


def where(state: MothershipState, planet: int) -> str:
    board = state.board
    assert board is not None
    return board.name_of(board.planets[planet])


def describe(state: MothershipState) -> list[str]:
    """One line per explored planet: where, the artifact, who holds it."""
    if state.board is None or not active(state):
        return []
    artifacts = state.game.content.artifacts
    lines = []
    for p, a in enumerate(state.artifacts):
        if a < 0:
            continue
        owner = state.owner[p]
        if owner == -2:
            holder = "lost with its planet"
        elif owner < 0:
            holder = "held by nobody"
        else:
            holder = f"held by {state.player_name(owner)}"
        lines.append(f"artifact at {where(state, p)}: {artifacts[a].name} ({effect_words(artifacts[a])}), {holder}")
    return lines


def statistics(state: MothershipState) -> dict[str, Statistic]:
    """For designers' reports (option exploration): planets explored a game (a headline figure),
    and the win rate of the player who found each artifact (ties share a win)."""
    if not active(state):
        return {}
    share = 1 / len(state.winners) if state.winners else 0.0
    figures = {"planets explored": Statistic(sum(1 for a in state.artifacts if a >= 0), 1, headline=True)}
    for index, artifact in enumerate(state.game.content.artifacts):
        finders = [state.explorers[p] for p, a in enumerate(state.artifacts) if a == index]
        wins = sum(share for s in finders if s in state.winners)
        figures[f"win rate, finder of {artifact.name}"] = Statistic(wins, len(finders), percent=True)
    return figures


# ---- the rule hooks ---------------------------------------------------------------------------


def _recon_targets(state: MothershipState, seat: int) -> list[Target]:
    """Recon Droid: a planet the player may explore, for free."""
    return [(planet_code(state, p), 0) for p in explorable(state, seat)]


def _recon_droid(state: MothershipState, seat: int, unit: int, _spot: int, events: list[Event]) -> None:
    planet = decode_target(state, unit)[2]
    events.append(Event("explore", f"A recon droid explores the planet at {where(state, planet)}."))
    start(state, planet)


def _holdings(state: MothershipState, seat: int, thing: str) -> int:
    return count(state, seat) if thing == "artifacts" else 0


def _label(state: MothershipState, action: Action) -> str:
    board = state.board
    assert board is not None
    if isinstance(action, Explore) and action.planet < len(board.planets):
        cost = state.game.content.exploration_cost
        return f"explore the planet at {board.name_of(board.planets[action.planet])} for {cost} resources"
    if isinstance(action, DrawArtifact) and action.artifact < len(state.game.content.artifacts):
        return f"artifact: {state.game.content.artifacts[action.artifact].name}"
    return repr(action)


PLUGIN = Module(
    MODULE,
    lambda game: MODULE in game.modules,
    {
        "chance": lambda state: outcomes(state) if state.exploring >= 0 else None,
        "tree_bonus": bonus,
        "holdings": _holdings,
        "turn_actions": options,
        "actions": {
            "explore": lambda state, seat, action, events: explore(state, seat, action[0], events),
            "draw_artifact": lambda state, seat, action, events: reveal(state, action[0], events),
        },
        "labels": {"explore": _label, "draw_artifact": _label},
        "cards": {"recon_droid": CardRule(_recon_targets, _recon_droid)},
    },
    fields=("exploring",),
)
"""Chapter 12 (option ``exploration``)."""
