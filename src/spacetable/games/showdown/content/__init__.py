"""The upgrade deck, the captains and the rules' numbers, as validated content data.

``content/cards.toml`` holds the defaults; :func:`build_content` merges a
designer's overrides, validates everything (a clear :class:`ContentError`
otherwise) and returns one immutable :class:`Content` for a player count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spacetable.engine import ContentError
from spacetable.engine.content import load_content

CONTENT_FILE = Path(__file__).parent / "cards.toml"

ENGINE = "engine"
WEAPON = "weapon"
CAPTAIN = "captain"
CREW = ("engineer", "gunner", "pilot", "cryo")
"""The crew a captain can hire (the captain is not an upgrade card)."""
XENOTECH = ("ai", "hacking", "psionics")
COUNTERMEASURES = (
    "adrenal_stim",
    "armor_plating",
    "energy_shields",
    "frequency_scrambler",
    "nitro_fuel",
    "security_drone",
)
CARD_KINDS = (ENGINE, WEAPON, *CREW, *XENOTECH, *COUNTERMEASURES)
"""Every kind of upgrade card, in the order menus and views list them."""
MARKS = (3, 4, 5, 6)
"""Player-count marks: a game of N players uses the cards marked N or lower."""

NAMES = {
    ENGINE: "Engine",
    WEAPON: "Weapon",
    CAPTAIN: "Captain",
    "engineer": "Engineer",
    "gunner": "Gunner",
    "pilot": "Pilot",
    "cryo": "Cryo-Crew",
    "ai": "Artificial Intelligence",
    "hacking": "Hacking",
    "psionics": "Psionics",
    "adrenal_stim": "Adrenal Stim",
    "armor_plating": "Armor Plating",
    "energy_shields": "Energy Shields",
    "frequency_scrambler": "Frequency Scrambler",
    "nitro_fuel": "Nitro Fuel",
    "security_drone": "Security Drone",
}


def card_name(kind: str) -> str:
    """The printed name of a card kind (or of "captain")."""
    return NAMES.get(kind, kind)


def family(kind: str) -> str:
    """engine, weapon, crew, xenotech or countermeasure."""
    if kind in CREW or kind == CAPTAIN:
        return "crew"
    if kind in XENOTECH:
        return "xenotech"
    if kind in COUNTERMEASURES:
        return "countermeasure"
    return kind


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Count = Annotated[int, Field(ge=0, le=99)]
Positive = Annotated[int, Field(ge=1, le=99)]
"""Bounded: a count of 10**9 is a typo, and the rules loop over counts."""


class RulesModel(_Strict):
    start_hull: Positive
    start_energy: Count
    energy_per_turn: Count
    hand_size: Positive
    upgrade_rounds: Positive
    actions_per_turn: Positive
    xenotech_cost: Count
    boost_cost: Count
    xenotech_limit: Count
    countermeasure_limit: Count
    attack_die: Annotated[int, Field(ge=2, le=20)]
    attack_success: Positive
    teleporter_die: Annotated[int, Field(ge=2, le=20)]
    teleporter_success: Positive
    repair_die: Annotated[int, Field(ge=2, le=20)]
    repair_success: Positive
    energy_per_failed_attack_die: Count
    armor_tokens: Count
    loot_energy: Count

    @model_validator(mode="after")
    def _reachable(self) -> RulesModel:
        for die in ("attack", "teleporter", "repair"):
            if getattr(self, f"{die}_success") > getattr(self, f"{die}_die"):
                raise ValueError(f"{die}_success is above the highest face of the {die} die")
        return self


class TokensModel(_Strict):
    hacking: Count
    ai: Count
    psionics: Count


class CrewModel(_Strict):
    captain: Count
    engineer: Count
    gunner: Count
    pilot: Count
    cryo: Count


MarkCounts = dict[Literal["3", "4", "5", "6"], Count]


class CardsModel(_Strict):
    engine: MarkCounts = {}
    weapon: MarkCounts = {}
    engineer: MarkCounts = {}
    gunner: MarkCounts = {}
    pilot: MarkCounts = {}
    cryo: MarkCounts = {}
    ai: MarkCounts = {}
    hacking: MarkCounts = {}
    psionics: MarkCounts = {}
    adrenal_stim: MarkCounts = {}
    armor_plating: MarkCounts = {}
    energy_shields: MarkCounts = {}
    frequency_scrambler: MarkCounts = {}
    nitro_fuel: MarkCounts = {}
    security_drone: MarkCounts = {}


class CaptainModel(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=20)]
    color: str
    ability: Literal["none"] = "none"


class ContentModel(_Strict):
    rules: RulesModel
    tokens: TokensModel
    crew: CrewModel
    cards: CardsModel
    captains: Annotated[list[CaptainModel], Field(min_length=6)]


@dataclass(frozen=True)
class Content:
    """What the rules read for one game: the deck for its player count and every number."""

    players: int
    deck: Mapping[str, int]
    """Copies of each card kind in this player count's deck (kinds with none left out)."""
    rules: RulesModel
    tokens: Mapping[str, int]
    rating: Mapping[str, int]
    """Teleporter combat rating by crew type, the captain included."""
    captains: tuple[CaptainModel, ...]

    @property
    def dealt(self) -> int:
        """Cards each player receives over the whole upgrade phase."""
        return self.rules.hand_size * self.rules.upgrade_rounds


def build_content(players: int, overrides: Mapping[str, Any] | None = None) -> Content:
    """The content for ``players`` seats; raises ContentError if the deck cannot deal every hand.

    Two players (the final duel from the start) use the cards marked 3.
    """
    model = load_content(CONTENT_FILE, ContentModel, "showdown content", overrides)
    mark = max(players, MARKS[0])
    deck = {}
    for kind in CARD_KINDS:
        copies = sum(n for m, n in getattr(model.cards, kind).items() if int(m) <= mark)
        if copies:
            deck[kind] = copies
    needed = model.rules.hand_size * model.rules.upgrade_rounds * players
    if sum(deck.values()) < needed:
        raise ContentError(
            f"showdown content: the deck for {players} players has {sum(deck.values())} cards, "
            f"but {model.rules.upgrade_rounds} rounds of {model.rules.hand_size} cards per player need {needed}"
        )
    return Content(
        players=players,
        deck=deck,
        rules=model.rules,
        tokens=model.tokens.model_dump(),
        rating=model.crew.model_dump(),
        captains=tuple(model.captains),
    )
