"""Mothership's numbers and boards as data: loading and validating them.

``content/rules.toml`` holds every number of the rules (the control panel's tables,
the fleet, dice, income, loot, the board generator); ``content/layouts.toml`` the
example boards. :func:`load_content` deep-merges a designer's overrides over both,
validates them and returns one immutable :class:`Content`. Anything wrong raises a
:class:`ContentError` naming the key and the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spacetable.engine import content as engine_content

from . import language

CONTENT_DIR = Path(__file__).parent
RULES_FILE = CONTENT_DIR / "rules.toml"
LAYOUTS_FILE = CONTENT_DIR / "layouts.toml"
CARDS_FILE = CONTENT_DIR / "cards.toml"
TECH_FILE = CONTENT_DIR / "tech.toml"
ARTIFACTS_FILE = CONTENT_DIR / "artifacts.toml"
BEACONS_FILE = CONTENT_DIR / "beacons.toml"
OBJECTIVES_FILE = CONTENT_DIR / "objectives.toml"
DEFAULT_FILES = (RULES_FILE, LAYOUTS_FILE, CARDS_FILE, TECH_FILE, ARTIFACTS_FILE, BEACONS_FILE, OBJECTIVES_FILE)
"""The standard content, one table per file (no two share a key)."""
CATEGORIES = ("economy", "combat", "support")
UNITS = ("mothership", "fighter", "bomber")


DIE_SIDES = (0, 2, 4, 6, 8, 10, 12)
"""The weapon dice: none, a d2 (rolled as a d4), d4 .. d12."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Small = Annotated[int, Field(ge=0, le=12)]
Positive = Annotated[int, Field(ge=1, le=99)]
Die = Annotated[int, Field(ge=2, le=12)]


class FleetModel(_Strict):
    fighters: Annotated[int, Field(ge=0, le=5)]
    bombers: Annotated[int, Field(ge=0, le=5)]
    mothership_hp: Positive
    station_hp: Positive
    station_counter: Positive
    placement_radius: Annotated[int, Field(ge=1, le=4)]

    @model_validator(mode="after")
    def _counters(self) -> FleetModel:
        if self.fighters + self.bombers > 7:
            raise ValueError("at most 7 fighters and bombers: a fleet must fit the free ring around its station")
        if self.station_hp % self.station_counter:
            raise ValueError(
                f"station_hp {self.station_hp} is not a whole number of {self.station_counter}-HP counters"
            )
        return self


class PanelModel(_Strict):
    energy: Annotated[int, Field(ge=0, le=36)]
    start: Annotated[list[Small], Field(min_length=3, max_length=3)]
    row_length: Annotated[int, Field(ge=1, le=12)]
    engines: list[Small]
    weapons: list[Annotated[int, Field(ge=0, le=12)]]
    shields: list[Annotated[int, Field(ge=0, le=30)]]

    @model_validator(mode="after")
    def _rows(self) -> PanelModel:
        for name in ("engines", "weapons", "shields"):
            row = getattr(self, name)
            if len(row) != self.row_length + 1:
                raise ValueError(f"{name} has {len(row)} entries; it needs row_length + 1 = {self.row_length + 1}")
        wrong = sorted({d for d in self.weapons if d not in DIE_SIDES})
        if wrong:
            raise ValueError(f"weapons: {wrong} are not dice; a weapon is one of {list(DIE_SIDES)}")
        if sum(self.start) != self.energy or max(self.start) > self.row_length:
            raise ValueError(f"start {self.start} must split all {self.energy} energy, at most row_length a row")
        if self.energy > 3 * self.row_length:
            raise ValueError(f"{self.energy} energy does not fit three rows of {self.row_length}")
        return self


class CraftModel(_Strict):
    move: Small
    die: Die

    @model_validator(mode="after")
    def _a_die(self) -> CraftModel:
        if self.die not in DIE_SIDES:
            raise ValueError(f"die {self.die} is not dice; a die is one of {list(DIE_SIDES[1:])}")
        return self


class CombatModel(_Strict):
    asteroid_die: Die
    capture_total: Positive
    wingman_bonus: Small


class EconomyModel(_Strict):
    station_income: Small
    planet_income: Small
    loot_small: Small
    loot_large: Small


class BoardsModel(_Strict):
    small: Annotated[int, Field(ge=9, le=25)]
    large: Annotated[int, Field(ge=9, le=25)]

    @model_validator(mode="after")
    def _border(self) -> BoardsModel:
        if self.large - self.small not in (0, 2, 4):
            raise ValueError("the large board is the small one with an even border: large - small is 0, 2 or 4")
        return self


Span = Annotated[list[Annotated[int, Field(ge=0, le=200)]], Field(min_length=2, max_length=2)]


class GeneratorModel(_Strict):
    asteroid_tiles: Span
    field_size: Span
    home_planet_distance: Span
    attempts: Annotated[int, Field(ge=1, le=10_000)]

    @model_validator(mode="after")
    def _spans(self) -> GeneratorModel:
        for name in ("asteroid_tiles", "field_size", "home_planet_distance"):
            low, high = getattr(self, name)
            if low > high:
                raise ValueError(f"{name} [{low}, {high}]: the first number is the least")
        if self.field_size[0] < 1 or self.home_planet_distance[0] < 2:
            raise ValueError("fields have at least 1 space; a home planet is at least 2 spaces from its station")
        return self


class LayoutModel(_Strict):
    players: Annotated[int, Field(ge=1, le=6)]
    """1: a solo challenge layout (station 1, the fleet's corner F, the player's planets P)."""
    description: str = ""
    rows: Annotated[list[Annotated[str, Field(min_length=5, max_length=25)]], Field(min_length=5, max_length=25)]


class CardModel(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    count: Annotated[int, Field(ge=0, le=20)]
    value: Annotated[int, Field(ge=0, le=10)]
    timing: Literal["turn", "declare", "defend", "dogfight", "rolled", "lost", "any"]
    module: Literal["random_event", "exploration"] | None = None
    text: Annotated[str, Field(min_length=1, max_length=200)]


class EconomyCardsModel(_Strict):
    start_cards: Annotated[int, Field(ge=0, le=10)]
    card_price: Annotated[int, Field(ge=0, le=20)]


Buff = Literal[
    "income", "loot", "card_discount", "move", "attack", "defence", "shields", "asteroid", "planet_defence", "wingman"
]
"""The effects that add to a number of the rules (the tree's, and the artifacts')."""


class TileModel(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    effect: Buff | Literal["station_die", "overcharge", "ability"]
    amount: Annotated[int, Field(ge=0, le=12)] = 0
    units: list[Literal["mothership", "fighter", "bomber"]] = []
    dark: bool = False
    reusable: bool = False
    ability: (
        Literal["asteroid_mining", "jump_gates", "sunslayer_torpedoes", "nuclear_missile", "tractor_beam", "hangar_bay"]
        | None
    ) = None

    @model_validator(mode="after")
    def _consistent(self) -> TileModel:
        if (self.effect == "ability") != (self.ability is not None):
            raise ValueError(f"{self.name}: an ability tile names its ability, and only it")
        if self.effect == "station_die" and self.amount not in DIE_SIDES[1:]:
            raise ValueError(f"{self.name}: a station die is one of {list(DIE_SIDES[1:])}")
        return self


class BranchModel(_Strict):
    key: Annotated[str, Field(min_length=1, max_length=30)]
    category: Literal["economy", "combat", "support"]
    name: Annotated[str, Field(min_length=1, max_length=30)]
    tiers: Annotated[list[TileModel], Field(min_length=5, max_length=5)]

    @model_validator(mode="after")
    def _fifth_is_an_ability(self) -> BranchModel:
        kinds = [t.effect == "ability" for t in self.tiers]
        if kinds != [False, False, False, False, True]:
            raise ValueError(f"{self.key}: the fifth tier, and only it, is a mothership ability")
        return self


class TechModel(_Strict):
    costs: Annotated[list[Annotated[int, Field(ge=0, le=50)]], Field(min_length=5, max_length=5)]
    branches: list[BranchModel]

    @model_validator(mode="after")
    def _two_per_category(self) -> TechModel:
        for category in CATEGORIES:
            count = sum(1 for b in self.branches if b.category == category)
            if count != 2:
                raise ValueError(f"the {category} category has {count} branches; it splits into 2")
        if len({b.key for b in self.branches}) != len(self.branches):
            raise ValueError("two branches share a key")
        return self


class ArtifactModel(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    effect: Buff
    amount: Annotated[int, Field(ge=1, le=12)]
    units: list[Literal["mothership", "fighter", "bomber"]] = []
    text: Annotated[str, Field(min_length=1, max_length=200)]


class ExplorationModel(_Strict):
    cost: Annotated[int, Field(ge=0, le=20)]


class VictoryModel(_Strict):
    target: Positive
    fighter: Small
    bomber: Small
    mothership: Small
    station: Small
    planet: Small
    respawn_hp: Positive


class SoloLevelModel(_Strict):
    energy: Small
    tier: Annotated[int, Field(ge=0, le=4)]


class SoloModel(_Strict):
    levels: Annotated[list[SoloLevelModel], Field(min_length=1, max_length=20)]
    branches: Annotated[list[str], Field(min_length=3, max_length=3)]
    planets: Annotated[int, Field(ge=1, le=7)]


Words = Annotated[str, Field(min_length=1, max_length=400)]


def _check(strings: list[str], parse: Any, where: str) -> None:
    for text in strings:
        try:
            parse(text)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None


def _check_requires(requires: list[str], effects: list[str], where: str) -> None:
    unknown = sorted(set(requires) - set(language.MODULES) - set(language.ABSENT))
    if unknown:
        known = ", ".join((*language.MODULES, *language.ABSENT))
        raise ValueError(f"{where}: requires unknown modules {unknown}; known: {known}")
    if "development" in {e.split()[0] for e in effects} and "planetary_development" not in requires:
        raise ValueError(f"{where}: a development reward needs requires = ['planetary_development']")


class BeaconOptionModel(_Strict):
    text: Words
    needs: list[str] = []
    faces: Annotated[list[Annotated[int, Field(ge=1, le=12)]], Field(min_length=2, max_length=2)] | None = None
    test: str | None = None
    effects: list[str] = []
    otherwise: list[str] = []
    outcome: Words | None = None


class BeaconModel(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    count: Annotated[int, Field(ge=0, le=10)] = 1
    requires: list[str] = []
    story: Words
    decide: str | None = None
    options: Annotated[list[BeaconOptionModel], Field(min_length=2, max_length=2)]

    @model_validator(mode="after")
    def _language(self) -> BeaconModel:
        where = f"beacon {self.name!r}"
        for number, option in enumerate(self.options, 1):
            at = f"{where}, option {number}"
            _check(option.needs, language.parse_need, at)
            _check(option.effects + option.otherwise, language.parse_effect, at)
            if option.test is not None:
                _check([option.test], language.parse_test, at)
            if option.otherwise and option.test is None:
                raise ValueError(f"{at}: 'otherwise' is what a failed test does; it needs a test")
            if (option.faces is None) != (self.decide is None):
                raise ValueError(f"{at}: the options have faces exactly when the card has decide = 'dN'")
            _check_requires(self.requires, option.effects + option.otherwise, at)
        if self.decide is not None:
            sides = language.parse_die(self.decide)
            covered = sorted(f for o in self.options if o.faces for f in range(o.faces[0], o.faces[1] + 1))
            if covered != list(range(1, sides + 1)):
                raise ValueError(f"{where}: the options' faces must share out 1 to {sides}, each face once")
            if any(o.needs for o in self.options):
                raise ValueError(f"{where}: when the die decides, the options have no requirements")
        return self


class ObjectiveModel(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    count: Annotated[int, Field(ge=0, le=10)] = 1
    requires: list[str] = []
    text: Words
    goal: Annotated[list[str], Field(min_length=1, max_length=4)]
    rewards: Annotated[list[Annotated[list[str], Field(min_length=1, max_length=4)]], Field(min_length=2, max_length=2)]

    @model_validator(mode="after")
    def _language(self) -> ObjectiveModel:
        where = f"objective {self.name!r}"
        _check(self.goal, language.parse_need, where)
        for number, group in enumerate(self.rewards, 1):
            _check(group, language.parse_effect, f"{where}, rewards {number}")
            kinds = {language.parse_effect(e).verb for e in group}
            if kinds - set(language.OBJECTIVE_REWARDS):
                raise ValueError(
                    f"{where}, rewards {number}: an objective rewards with {', '.join(language.OBJECTIVE_REWARDS)}"
                )
            _check_requires(self.requires, group, where)
        if any(language.parse_need(g).quantity == "near" for g in self.goal):
            raise ValueError(f"{where}: a goal is the player's, not a ship's (no 'near')")
        return self


class HazardsModel(_Strict):
    neutron_stars: Annotated[int, Field(ge=0, le=6)]
    black_holes: Annotated[int, Field(ge=0, le=6)]
    tile: Annotated[int, Field(ge=1, le=3)]
    station_gap: Annotated[int, Field(ge=2, le=8)]
    black_hole_die: Die
    warp_faces: Annotated[int, Field(ge=0, le=12)]


class BeaconsModel(_Strict):
    per_player: Annotated[int, Field(ge=2, le=6)]
    distance: Span
    units: Annotated[list[Annotated[int, Field(ge=0, le=20)]], Field(min_length=3, max_length=3)]

    @model_validator(mode="after")
    def _even(self) -> BeaconsModel:
        if self.per_player % 2:
            raise ValueError("per_player: half the tokens are face up and half locked, so an even number")
        if not sum(self.units):
            raise ValueError("units: the token pool needs at least one unit")
        return self


class ObjectivesModel(_Strict):
    per_player: Annotated[int, Field(ge=1, le=4)]
    replace_cost: Small


class CannonsModel(_Strict):
    die: Die


class ContentModel(_Strict):
    fleet: FleetModel
    control_panel: PanelModel
    fighter: CraftModel
    bomber: CraftModel
    combat: CombatModel
    economy: EconomyModel
    boards: BoardsModel
    generator: GeneratorModel
    layouts: dict[str, LayoutModel]
    cards: dict[str, CardModel]
    deck: EconomyCardsModel
    tech: TechModel
    artifacts: Annotated[list[ArtifactModel], Field(min_length=1, max_length=20)]
    exploration: ExplorationModel
    victory: VictoryModel
    solo: SoloModel
    hazards: HazardsModel
    beacon_tokens: BeaconsModel
    objective_cards: ObjectivesModel
    cannons: CannonsModel
    beacons: dict[str, BeaconModel]
    objectives: dict[str, ObjectiveModel]

    @model_validator(mode="after")
    def _solo(self) -> ContentModel:
        keys = {b.key: b.category for b in self.tech.branches}
        for category, key in zip(CATEGORIES, self.solo.branches):
            if keys.get(key) != category:
                raise ValueError(f"solo.branches: {key!r} is not a branch of the {category} category")
        for name, layout in self.layouts.items():
            if layout.players != 1:
                continue
            if len(layout.rows) != self.boards.small:
                raise ValueError(
                    f"layout {name!r}: a solo layout is the small board, {self.boards.small} spaces a side"
                )
            planets = "".join(layout.rows).count("P")
            if planets != self.solo.planets:
                raise ValueError(
                    f"layout {name!r}: a solo layout has the player's {self.solo.planets} planets, not {planets}"
                )
        return self


@dataclass(frozen=True)
class Card:
    """One kind of action card: ``key`` is its name in content/cards.toml."""

    key: str
    name: str
    count: int
    value: int
    timing: str
    module: str | None
    text: str


@dataclass(frozen=True)
class Content:
    """Everything the rules read from data (the pydantic model, flattened for speed)."""

    fighters: int
    bombers: int
    mothership_hp: int
    station_hp: int
    station_counter: int
    placement_radius: int
    energy: int
    start_energy: tuple[int, int, int]
    row_length: int
    engines: tuple[int, ...]
    weapons: tuple[int, ...]
    shields: tuple[int, ...]
    fighter_move: int
    fighter_die: int
    bomber_move: int
    bomber_die: int
    asteroid_die: int
    capture_total: int
    wingman_bonus: int
    station_income: int
    planet_income: int
    loot_small: int
    loot_large: int
    small_board: int
    large_board: int
    generator: GeneratorModel
    layouts: Mapping[str, LayoutModel]
    cards: tuple[Card, ...]
    """Every kind of action card; a card in a hand or the deck is an index into this tuple."""
    start_cards: int
    card_price: int
    tech_costs: tuple[int, ...]
    branches: tuple[BranchModel, ...]
    """The technology tree's six branches, in category order (two per category)."""
    artifacts: tuple[ArtifactModel, ...]
    """The artifact cards, numbered from 0 here (their tokens from 1)."""
    exploration_cost: int
    victory: VictoryModel
    solo: SoloModel
    hazards: HazardsModel
    beacon_tokens: BeaconsModel
    objective_cards: ObjectivesModel
    cannons: CannonsModel
    beacons: tuple[tuple[str, BeaconModel], ...]
    """The distress beacon cards as (key, card); a card in the deck is an index into this tuple."""
    objectives: tuple[tuple[str, ObjectiveModel], ...]
    """The objective cards as (key, card)."""

    @property
    def ships(self) -> int:
        """Ships per fleet: the mothership, then the fighters, then the bombers."""
        return 1 + self.fighters + self.bombers


def load_content(overrides: Mapping[str, Any] | None = None) -> Content:
    """The standard rules and layouts with ``overrides`` deep-merged and validated (ContentError otherwise)."""
    model = engine_content.load_content(DEFAULT_FILES, ContentModel, "mothership content", overrides)
    panel = model.control_panel
    return Content(
        fighters=model.fleet.fighters,
        bombers=model.fleet.bombers,
        mothership_hp=model.fleet.mothership_hp,
        station_hp=model.fleet.station_hp,
        station_counter=model.fleet.station_counter,
        placement_radius=model.fleet.placement_radius,
        energy=panel.energy,
        start_energy=(panel.start[0], panel.start[1], panel.start[2]),
        row_length=panel.row_length,
        engines=tuple(panel.engines),
        weapons=tuple(panel.weapons),
        shields=tuple(panel.shields),
        fighter_move=model.fighter.move,
        fighter_die=model.fighter.die,
        bomber_move=model.bomber.move,
        bomber_die=model.bomber.die,
        asteroid_die=model.combat.asteroid_die,
        capture_total=model.combat.capture_total,
        wingman_bonus=model.combat.wingman_bonus,
        station_income=model.economy.station_income,
        planet_income=model.economy.planet_income,
        loot_small=model.economy.loot_small,
        loot_large=model.economy.loot_large,
        small_board=model.boards.small,
        large_board=model.boards.large,
        generator=model.generator,
        layouts=dict(model.layouts),
        cards=tuple(Card(key, c.name, c.count, c.value, c.timing, c.module, c.text) for key, c in model.cards.items()),
        start_cards=model.deck.start_cards,
        card_price=model.deck.card_price,
        tech_costs=tuple(model.tech.costs),
        branches=tuple(sorted(model.tech.branches, key=lambda b: CATEGORIES.index(b.category))),
        artifacts=tuple(model.artifacts),
        exploration_cost=model.exploration.cost,
        victory=model.victory,
        solo=model.solo,
        hazards=model.hazards,
        beacon_tokens=model.beacon_tokens,
        objective_cards=model.objective_cards,
        cannons=model.cannons,
        beacons=tuple(model.beacons.items()),
        objectives=tuple(model.objectives.items()),
    )
