"""The words of Mothership's web table: the glossary and the hover texts, from the content data.

Every text is built from :class:`..content.Content` (names, numbers, card texts), so a designer's
override (option ``content``) explains itself. :func:`terms` names each thing once: the same key
is a glossary entry and the ``data-term`` of the elements that show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from spacetable.engine.words import article

from ..content import CATEGORIES, ArtifactModel, BeaconModel, Card, Content, ObjectiveModel, TileModel

if TYPE_CHECKING:
    from ..game import Mothership

TIMING = {
    "turn": "on your own turn",
    "declare": "when you declare a dogfight, before rolling",
    "defend": "when your ship or planet is attacked, before rolling",
    "dogfight": "by either side of a dogfight, before rolling",
    "rolled": "after your own ship rolls",
    "lost": "when you lose a dogfight as the defender",
    "any": "at any moment a card is played, on anyone's turn",
}
UNIT_WORDS = {"mothership": "the mothership", "fighter": "fighters", "bomber": "bombers"}
EFFECT_WORDS = {
    "income": "resources at the end of each of your turns",
    "loot": "loot for each unit you destroy",
    "card_discount": "off the price of an action card",
    "move": "engine spaces",
    "attack": "to attack rolls",
    "defence": "to defence rolls",
    "shields": "shield points",
    "asteroid": "to rolls against asteroid fields",
    "planet_defence": "needed to capture your planets",
    "wingman": "per wingman",
}
ABILITY_WORDS = {
    "asteroid_mining": "Ability: the mothership in or next to an asteroid field gathers {amount} resources "
    "(uses its attack).",
    "jump_gates": "Ability: ships next to one of your stations or planets may jump beside another one this turn.",
    "sunslayer_torpedoes": "Ability: the mothership attacks a ship, station or planet up to {amount} spaces away; "
    "the defender only rolls to avoid the damage.",
    "nuclear_missile": "Ability: the mothership attacks any enemy ship or station on the board, +{amount} to its roll.",
    "tractor_beam": "Ability: an enemy ship up to {amount} spaces away cannot move until its owner's next turn "
    "is over.",
    "hangar_bay": "Ability: a destroyed fighter or bomber is launched again beside the mothership.",
}


def tile_words(tile: TileModel) -> str:
    """What one technology tile does, in a sentence."""
    if tile.effect == "ability":
        return ABILITY_WORDS.get(tile.ability or "", "A mothership ability.").format(amount=tile.amount)
    if tile.effect == "station_die":
        return f"Your colony station rolls a d{tile.amount} when it is attacked."
    if tile.effect == "overcharge":
        return f"+{tile.amount} on your next roll; bought again each time, one roll each."
    words = f"+{tile.amount} {EFFECT_WORDS.get(tile.effect, tile.effect.replace('_', ' '))}"
    if tile.units and len(tile.units) < len(UNIT_WORDS):
        words += " for " + " and ".join(UNIT_WORDS[u] for u in tile.units)
    if tile.dark:
        words += " (dark: does not stack with a higher dark tile of the same kind)"
    return words + "."


def artifact_words(artifact: ArtifactModel) -> str:
    return f"{artifact.text} Works while you hold its planet."


def card_words(card: Card) -> str:
    timing = TIMING.get(card.timing, card.timing)
    needs = f" Needs the {card.module.replace('_', ' ')} rule." if card.module else ""
    return f"{card.text} Played {timing}; sells for {card.value}.{needs}"


def beacon_words(model: BeaconModel) -> str:
    options = " / ".join(f"{n}. {o.text}" for n, o in enumerate(model.options, 1))
    return f"Distress beacon card. {model.story} Options: {options}"


def objective_words(model: ObjectiveModel) -> str:
    rewards = " or ".join(", ".join(group) for group in model.rewards)
    return f"Objective: {model.text} Reward: {rewards}."


@dataclass(frozen=True)
class Terms:
    """The glossary key of each named thing of a game's content."""

    cards: tuple[str, ...]
    branches: tuple[str, ...]
    tiles: tuple[tuple[str, ...], ...]
    artifacts: tuple[str, ...]
    beacons: tuple[str, ...]
    objectives: tuple[str, ...]


def _unique(name: str, kind: str, taken: set[str]) -> str:
    key = name if name not in taken else f"{name} ({kind})"
    n = 2
    while key in taken:
        key, n = f"{name} ({kind} {n})", n + 1
    taken.add(key)
    return key


def terms(content: Content) -> Terms:
    taken = set(BASE_TERMS)
    cards = tuple(_unique(c.name, "card", taken) for c in content.cards)
    branches = tuple(_unique(f"{b.name} branch", "branch", taken) for b in content.branches)
    tiles = tuple(tuple(_unique(t.name, "tech", taken) for t in b.tiers) for b in content.branches)
    artifacts = tuple(_unique(a.name, "artifact", taken) for a in content.artifacts)
    beacons = tuple(_unique(m.name, "beacon card", taken) for _, m in content.beacons)
    objectives = tuple(_unique(m.name, "objective", taken) for _, m in content.objectives)
    return Terms(cards, branches, tiles, artifacts, beacons, objectives)


BASE_TERMS = (
    "mothership",
    "fighter",
    "bomber",
    "colony station",
    "guardian cannon",
    "planet",
    "neutral planet",
    "removed planet",
    "empty space",
    "asteroid field",
    "neutron star",
    "black hole",
    "beacon token",
    "locked beacon token",
    "fleet corner",
    "engines",
    "weapons",
    "shields",
    "hull",
    "resources",
    "victory points",
    "action deck",
    "sell",
    "action card",
    "overcharge",
    "dogfight",
    "die",
    "choice",
    "objectives",
    "artifact",
    "coordinates",
    "turn",
    "risky",
    "out",
    "team",
    "NPC fleet",
    "odds",
    "pass",
    "set-up",
    "technology",
)


def glossary(game: Mothership) -> dict[str, str]:
    """Every unit, terrain, symbol, card, tech tier, artifact, beacon card and objective, one
    sentence (or two) each, from the content data."""
    c = game.content
    t = terms(c)
    die = f"d{c.fighter_die}"
    words = {
        "mothership": (
            f"The flagship: {c.mothership_hp} hull points, shields and a weapon die set on its control panel, "
            "moves its engine spaces. Destroyed, it pays its killer "
            f"{c.loot_large} resources."
        ),
        "fighter": (
            f"Moves {c.fighter_move} spaces and rolls a {die}. It can only hit a mothership's shields, and is "
            f"destroyed by one lost dogfight ({c.loot_small} resource of loot)."
        ),
        "bomber": (
            f"Moves {c.bomber_move} spaces and rolls a d{c.bomber_die}. It attacks motherships, stations and "
            "planets, never fighters or bombers."
        ),
        "colony station": (
            f"Your home: {c.station_hp} hull points in counters of {c.station_counter}, {c.station_income} "
            "resource a turn. A ship of yours beside it guards it; lose it and your whole fleet is lost."
        ),
        "guardian cannon": (
            f"A fixed defence won from cards: it never moves or attacks, blocks enemy ships, guards and "
            f"defends with a d{c.cannons.die}."
        ),
        "planet": (
            f"Captured by a planet attack totalling {c.capture_total} or more; its holder gets "
            f"{c.planet_income} resource a turn."
        ),
        "neutral planet": f"Nobody holds it yet: a planet attack of {c.capture_total} or more takes it.",
        "removed planet": "A planet taken off the board by a card: empty space now.",
        "empty space": "Open space: ships move through it freely (one unit a space).",
        "asteroid field": (
            f"Risky: entering it ends the move and starts a dogfight with the asteroids' d{c.asteroid_die}; "
            "once won, a ship moves inside freely."
        ),
        "neutron star": (
            "Impassable. A dogfight beside it has its totals halved, and a mothership beside it cannot use its shields."
        ),
        "black hole": (
            f"Risky: a unit entering it is attacked by a d{c.hazards.black_hole_die}; "
            f"{c.hazards.warp_faces} or less warps it anywhere, more is that much damage. Ships beside one are "
            "pulled in."
        ),
        "beacon token": (
            "A distress beacon: a unit of the type it shows that ends its move here may answer it and draw a "
            "beacon card."
        ),
        "locked beacon token": "A locked beacon: it turns face up once no face-up token is left.",
        "fleet corner": "Solo set-up: your ships start within reach of this corner.",
        "engines": "Energy in the engines: how many spaces the mothership moves (the row's value).",
        "weapons": "Energy in the weapons: the mothership's attack die.",
        "shields": "Energy in the shields: points that soak up damage before the hull, back each turn.",
        "hull": f"The mothership's hull points (at most {c.mothership_hp}); at 0 it is destroyed.",
        "resources": "What you spend on action cards, technology and exploring; others see only yours.",
        "victory points": f"Victory points mode: the first to {game.victory_target} on their own turn wins.",
        "action deck": f"Face-down action cards; buy the top one for {c.card_price} resources.",
        "sell": "Sell a card from your hand for its resale value.",
        "action card": "A card played for its effect at the time it names, or sold.",
        "overcharge": "Overcharges held: each adds to your next roll.",
        "dogfight": "A fight: each side rolls its dice and the higher total wins; on a tie nobody is hurt.",
        "die": "A die of the dogfight: its sides and, once rolled, its face.",
        "choice": "The rules ask a player to choose one of these.",
        "objectives": "Objective cards: complete the task, then claim one of its two rewards on your turn.",
        "artifact": "Found by exploring a planet; it helps whoever holds that planet.",
        "coordinates": "Columns are letters, rows numbers: C4 is column C, row 4.",
        "turn": "Set energy, move and attack with each ship, then collect resources and end the turn.",
        "risky": "Moving here can cost a dogfight or damage.",
        "out": "This player has lost their fleet (or station) and is out of the game.",
        "team": "Teammates share victory; their ships guard and wing for each other.",
        "NPC fleet": "Solo challenge: the scripted enemy fleet, moved by the rules.",
        "odds": "The chance of each result, counted exactly over every face of the dice still to roll, with the "
        "bonuses known now; cards played before the roll can change it.",
        "pass": "Let the moment go by: the rules then ask the next player, or roll the dice.",
        "set-up": "Before the first turn every player places their fighters and bombers round their colony station.",
        "technology": "Buy tiers of one branch per category, cheapest first; each tile helps from then on.",
    }
    for key, card in zip(t.cards, c.cards):
        words[key] = card_words(card)
    for key, tiles, branch in zip(t.branches, t.tiles, c.branches):
        category = CATEGORIES.index(branch.category)
        words[key] = (
            f"{article(CATEGORIES[category]).capitalize()} branch of the technology tree: "
            + ", then ".join(tile.name for tile in branch.tiers)
            + ". One branch per category; tiers are bought in order."
        )
        for tier, (tile_key, tile) in enumerate(zip(tiles, branch.tiers)):
            words[tile_key] = f"Tier {tier + 1} of {branch.name} (cost {c.tech_costs[tier]}): {tile_words(tile)}"
    for key, artifact in zip(t.artifacts, c.artifacts):
        words[key] = f"Artifact: {artifact_words(artifact)}"
    for key, (_, beacon) in zip(t.beacons, c.beacons):
        words[key] = beacon_words(beacon)
    for key, (_, objective) in zip(t.objectives, c.objectives):
        words[key] = objective_words(objective)
    return words
