"""The SpaceRace game: options, content, the map's shape, and registration."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, cast

from spacetable.engine import JSON, Action, Game, OptionsError, OptionSpec, Outcome, State, Statistic, register
from spacetable.engine.errors import ContentError

from . import rule_refs
from .bots.heuristic import Heuristic
from .content import load_content
from .rules import reading
from .rules.actions import Design, DrawShip, DrawTreasure, LayStarway, action_space
from .rules.mapgen import build_galaxy
from .rules.planets import planet_count
from .rules.setup import design_splits
from .rules.state import PLAYER_NAMES, SpaceRaceState
from .rules.turns import BATCH_ROUNDS
from .views import report, tensor, web, web_guide, web_words

if TYPE_CHECKING:
    from spacetable.engine.tensor import Tensor

ARM_PLANETS = range(1, 5)
EXTRA_PLANETS = range(0, 7)
NEXUS_DELAY = range(0, 4)


class LengthParts(NamedTuple):
    """The most actions a part of a game can take (``SpaceRace.length_parts``)."""

    setup: int
    battle: int
    move: int
    turn: int


@register
class SpaceRace(Game):
    id = "spacerace"
    name = "SpaceRace"
    version = "1.0"
    teaching = rule_refs.TEACHING
    min_players = 2
    max_players = 6
    default_players = 3
    value_scale = 10.0
    """One planet (heuristic.PLANET) is a clear edge."""
    returns_range = (-1.0, 1.0)
    finite_options: ClassVar[Mapping[str, JSON]] = {"turn_limit": BATCH_ROUNDS}
    """The rulebook's race ends only when someone holds every planet, which random or timid play
    may never do: bots' batches and research stop after 40 rounds (RULINGS.md)."""
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "arm_planets": OptionSpec(
            2,
            "Planets along each player's arm, the one next to the Nexus included: 1 to 4",
            kind=int,
            label="Planets per arm",
            group="Galaxy",
        ),
        "extra_planets": OptionSpec(
            1,
            "More planets, each joined to the Nexus by a starway of its own: 0 to 6",
            kind=int,
            label="Extra planets",
            group="Galaxy",
        ),
        "density": OptionSpec(
            "standard",
            "How many encounters the starway deck holds (a deck of your own game data may be named too)",
            kind=str,
            label="Starway deck",
            group="Galaxy",
            choice_labels={
                "sparse": "Sparse: few encounters",
                "standard": "Standard",
                "dense": "Dense: many encounters",
            },
        ),
        "turn_limit": OptionSpec(
            None,
            "Not in the rulebook: the game ends after this many rounds, won by the most planets, then fleet "
            "strength (the rulebook's race goes on until someone takes every planet)",
            kind=int,
            label="Round limit",
            group="House rules",
            choice_labels={None: "Off: race to take every planet"},
        ),
        "fleet_moves": OptionSpec(
            "one",
            "How many ships a player moves in a turn",
            choices=("one", "all"),
            label="Ships moved per turn",
            group="Rule choices",
            choice_labels={"one": "One ship", "all": "Each ship once"},
        ),
        "nexus_delay": OptionSpec(
            1,
            "Turns a ship waits at the Nexus after stopping there: 0 to 3",
            kind=int,
            label="Wait at the Nexus",
            group="Rule choices",
        ),
        "combat": OptionSpec(
            "exchange",
            "What a failed first strike leads to",
            choices=("exchange", "single"),
            label="Combat",
            group="Rule choices",
            choice_labels={"exchange": "A strike back (an exchange)", "single": "A lost battle (a single strike)"},
        ),
        "map_initiative": OptionSpec(
            "player",
            "Who strikes first when a player's ship and a map ship have equal M",
            choices=("player", "roll"),
            label="First strike against map ships",
            group="Rule choices",
            choice_labels={"player": "The player", "roll": "A d6 each decides"},
        ),
        "conquest_roll": OptionSpec(
            "always",
            "When taking a planet gives a roll for treasure",
            choices=("always", "assault"),
            label="Conquest roll",
            group="Rule choices",
            choice_labels={"always": "On every planet taken", "assault": "Only after a planetary assault"},
        ),
        "encounters": OptionSpec(
            "permanent",
            "Whether the [T] and [S] tiles of the starways act on every visit or only once",
            choices=("permanent", "cleared"),
            label="Encounter tiles",
            group="Rule choices",
            choice_labels={"permanent": "Stay for every visit", "cleared": "Cleared once used"},
        ),
        "last_standing": OptionSpec(
            False,
            "Not in the rulebook: a player left alone after every rival is out wins at once (in the rulebook the "
            "survivor must still take every planet)",
            kind=bool,
            label="Last player standing wins",
            group="House rules",
        ),
        "content": OptionSpec(
            None,
            "Data laid over the game's decks and rules (content/decks.toml and content/rules.toml), as a JSON "
            "object of the TOML tables",
            kind=dict,
            label="Game data",
            group="For designers",
        ),
    }

    def __init__(self, players: int = 3, options: Mapping[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        opts = self.options
        _check_range(opts, "arm_planets", ARM_PLANETS)
        _check_range(opts, "extra_planets", EXTRA_PLANETS)
        _check_range(opts, "nexus_delay", NEXUS_DELAY)
        if opts["turn_limit"] is not None and opts["turn_limit"] < 1:
            raise OptionsError(f"{self.id}: option turn_limit={opts['turn_limit']} must be at least 1")
        try:
            self.content = load_content(opts["content"])
        except ContentError as exc:
            raise OptionsError(str(exc)) from None
        decks = self.content.starway_decks
        if opts["density"] not in decks:
            raise OptionsError(
                f"{self.id}: option density={opts['density']!r} names no starway deck; decks: {', '.join(decks)}"
            )
        self.starway_patterns, self.starway_counts = decks[opts["density"]]
        self.galaxy = build_galaxy(
            players, opts["arm_planets"], opts["extra_planets"], self.content.starway_tiles, self.content.planet_names
        )
        if len(self.galaxy.starways) > sum(self.starway_counts):
            raise OptionsError(
                f"{self.id}: the map needs {len(self.galaxy.starways)} starway cards but the "
                f"{opts['density']!r} deck has {sum(self.starway_counts)}"
            )
        self.design_actions: list[Action] = [
            Design(*split) for split in design_splits(self.content.mothership_points, self.content.mothership_minimum)
        ]
        self.lay_actions: tuple[Action, ...] = tuple(LayStarway(c) for c in range(len(self.starway_counts)))
        self.draw_ship_actions: tuple[Action, ...] = tuple(DrawShip(c) for c in range(len(self.content.ships)))
        self.draw_treasure_actions: tuple[Action, ...] = tuple(
            DrawTreasure(c) for c in range(len(self.content.treasure))
        )
        self.actions = action_space(self.content, self.galaxy, opts["density"])
        self.max_length = self._bound_length()
        self.heuristic = Heuristic(self)

    def _bound_length(self) -> int | None:
        """Actions of the longest possible game (chance included): the set-up, then every
        turn the turn limit allows at its most (:meth:`length_parts`). None without a turn
        limit: the race goes on until someone holds every planet."""
        rounds: int | None = self.options["turn_limit"]
        if rounds is None:
            return None
        parts = self.length_parts()
        return parts.setup + rounds * self.players * parts.turn

    def length_parts(self) -> LengthParts:
        """The most actions each part of a game can take, from the turn structure (the tests
        check each part on random games):

        - set-up: a chance node per starway card, then an order roll, a homeworld and a
          design per player (a roll never repeats a face rolled before);
        - a battle: 5. Between players: the initiative dice (2) only on equal M, and then no
          one may flee, so the standoff goes to the dice (2); else the choice to flee or
          fight (1) and the dice (2); then the winner's choice to assimilate (1). Against a
          map ship: the same without the last choice, and its card drawn (1);
        - a move: the move, a battle with each ship on the space it enters (a space holds one
          player's ships, at most ``fleet_limit``; a lost battle ends the move), then the
          space: an [S] card and its battle (5), a [T] draw (1), or a planet taken: the
          conquest roll and its draws (1 + the most ``conquest_treasure``);
        - a turn: the rebuild roll, then a move (which ends the turn) or the end of the turn;
          with ``fleet_moves = "all"`` each ship at the turn's start moves at most once, then
          the end of the turn. A round has a turn per seat at most, and the limit stops the
          game after ``turn_limit`` rounds.
        """
        c = self.content
        battle = 5
        space = max(battle, 1, 1 + max(c.conquest_treasure))
        move = 1 + c.fleet_limit * battle + space
        turn = 1 + (c.fleet_limit * move + 1 if self.options["fleet_moves"] == "all" else move)
        setup = len(self.galaxy.starways) + 3 * self.players
        return LengthParts(setup, battle, move, turn)

    def describe(self) -> str:
        o = self.options
        planets = len(self.galaxy.planets)
        rounds = f", {o['turn_limit']} rounds" if o["turn_limit"] is not None else ""
        return f"{self.name}, {self.players} players, {planets} planets, {o['density']} starways{rounds}"

    def new_initial_state(self) -> SpaceRaceState:
        return SpaceRaceState(self)

    def state_from_json(self, data: JSON) -> State:
        return reading.state_from_json(self, data)

    def evaluate(self, state: State, seat: int) -> float:
        return self.heuristic.evaluate(cast(SpaceRaceState, state), seat)

    def progress(self, state: State, seat: int) -> float:
        """The score the game ends with: the planets the seat holds, over the planets of the
        map. Nothing is hidden in this game."""
        return planet_count(cast(SpaceRaceState, state), seat) / len(self.galaxy.planets)

    def statistics(self, state: State, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
        """Per finished game: planets, ships, designs, draws and battle choices (headline
        figures), and each design's and card's figures (``views.report``)."""
        return report.statistics(cast(SpaceRaceState, state), moves)

    def first_player(self, state: State, moves: Sequence[tuple[int | None, JSON]]) -> int | None:
        """The seat whose turn began round 1: the last to choose a homeworld, not the first."""
        return cast(SpaceRaceState, state).starter

    def observation_shape(self) -> tuple[int, ...]:
        return tensor.shape(self)

    def observation_tensor(self, state: State, seat: int) -> Tensor:
        return tensor.encode(self, state.view(seat), seat)

    def observation_tensor_shared(self, state: State, seat: int, shared: dict[str, Any]) -> Tensor:
        return tensor.encode_shared(self, state, seat, shared)

    def board_svg(self, view: JSON, seat: int | None) -> str | None:
        return web.board_svg(self.galaxy, self.content, self.options, view, seat)

    def action_parts(self, action: Action) -> tuple[str, ...]:
        return web.action_parts(self.galaxy, action)

    def glossary(self) -> dict[str, str]:
        return web_words.glossary(self.content, self.options)

    def seat_names(self, view: JSON | None = None) -> list[str]:
        """The seats' colours, as the board, the log and the players' panel call them."""
        return list(PLAYER_NAMES[: self.players])

    def guide(self, view: JSON, seat: int | None, actions: Sequence[Action] = ()) -> str | None:
        return web_guide.guide(self, view, seat, actions)

    def explain_outcome(self, view: JSON, outcome: Outcome, seat: int | None) -> str:
        return web_guide.explain_outcome(self, view, outcome, seat)


def _check_range(options: Mapping[str, JSON], name: str, allowed: range) -> None:
    if options[name] not in allowed:
        raise OptionsError(f"spacerace: option {name}={options[name]!r} must be from {allowed[0]} to {allowed[-1]}")
