"""The Mothership game: options, content, the board, and registration."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, cast

from spacetable.engine import (
    JSON,
    Action,
    ContentError,
    Game,
    OptionsError,
    OptionSpec,
    Outcome,
    Requires,
    State,
    Statistic,
    check_json_keys,
    register,
)
from spacetable.engine.schema import probe, validate

from . import length, rule_refs
from .bots.heuristic import evaluate, quick_values
from .content import CATEGORIES, Content, language, load_content
from .modules import MODULES as PLUGINS
from .modules import beacons, hazards
from .rules import cards, schema, tactics, turns
from .rules.actions import BOARD_SEEDS, DrawBoard, Move, SetEnergy, action_space
from .rules.board import Board, generate, parse_layout
from .rules.hooks import Hooks, chosen
from .rules.state import JSON_KEYS, MothershipState
from .rules.targets import BOMBER, FIGHTER, MOTHERSHIP
from .rules.turns import ROUND_LIMIT
from .views import infostate, report, tensor, web, web_guide, web_words

if TYPE_CHECKING:
    from spacetable.engine.tensor import Recall, Tensor

KILL_TALLIES = ("fighters_destroyed", "bombers_destroyed", "motherships_destroyed")
"""The tallies of enemy ships a fleet destroyed (``language.TALLIES``)."""
MODES = ("auto", "standard", "victory_points", "solo")
MODULES = ("random_event", "exploration", "neutron_stars", "black_holes", "beacons", "objectives")
"""The options that switch a module on (their names are the modules' names in content data)."""
EXPANSION = ("neutron_stars", "black_holes", "beacons", "objectives")
EXPANSION_PLAYERS = Requires(None, "players", (2, 3, 4, 5, 6), "the expansion's modules are for 2 to 6 players")
LAYOUTS = (
    ("duel", 2),
    ("triangle", 3),
    ("crossroads", 4),
    ("belt", 4),
    ("pentagon", 5),
    ("hexarchy", 6),
    ("solo_outpost", 1),
    ("solo_belt", 1),
)
"""The layouts of content/layouts.toml and their player counts, for the option's words and checks."""


@register
class Mothership(Game):
    id = "mothership"
    name = "Mothership"
    version = "0.1"
    teaching = rule_refs.TEACHING
    min_players = 1
    """One player is the solo challenge (chapter 14) against the scripted NPC fleet."""
    max_players = 6
    default_players = 4
    value_scale = 12.0
    """About a fighter and a half of fleet worth (heuristic units) is a clear edge."""
    hidden_information = True
    returns_sum = None
    """Winners share 1; a solo challenge lost (or a standard game where the last fleets fall
    together) gives everyone 0, so the sum is not constant."""
    finite_options: ClassVar[Mapping[str, JSON]] = {"round_limit": ROUND_LIMIT}
    """The rulebook has no round limit and a game can stall (fleets that never meet); bots'
    batches and research stop after 60 rounds (RULINGS.md, ruling 24)."""
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "mode": OptionSpec(
            "auto",
            "Standard: the last fleet standing wins. Victory points: the first to the target wins. Solo: one "
            "player against the enemy NPC fleet. The usual: solo for one player, else standard",
            choices=MODES,
            label="Mode",
            group="Game mode",
            choice_labels={
                "auto": "Usual for the player count",
                "standard": "Standard: last fleet standing",
                "victory_points": "Victory points (chapter 13)",
                "solo": "Solo challenge (chapter 14)",
            },
            requires=(
                Requires(("solo",), "players", (1,), "the solo challenge is for one player"),
                Requires(
                    ("standard", "victory_points"),
                    "players",
                    (2, 3, 4, 5, 6),
                    "the standard and victory points modes are for 2 to 6 players",
                ),
            ),
        ),
        "team_size": OptionSpec(
            1,
            "Everyone for themselves, or teams of 2 or 3 that sit alternately, never attack each other and win "
            "together",
            choices=(1, 2, 3),
            kind=int,
            label="Teams",
            group="Game mode",
            choice_labels={1: "Free-for-all", 2: "Teams of 2", 3: "Teams of 3"},
            requires=(
                Requires((2,), "players", (4, 6), "teams of 2 need 4 or 6 players"),
                Requires((3,), "players", (6,), "teams of 3 need 6 players"),
            ),
        ),
        "level": OptionSpec(
            1,
            "The solo challenge's level, from 1 (easiest) to 9 (hardest): it sets the NPC fleet's control panel "
            "and technology",
            kind=int,
            label="Solo level",
            group="Game mode",
            requires=(Requires(None, "players", (1,), "a level is for the solo challenge (one player)"),),
        ),
        "victory_target": OptionSpec(
            None,
            "The victory points that win in the victory points mode",
            kind=int,
            label="Points to win",
            group="Game mode",
            choice_labels={None: "10, the rulebook's"},
            requires=(Requires(None, "mode", ("victory_points",), "a points target is for the victory points mode"),),
        ),
        "layout": OptionSpec(
            "random",
            "A fair board generated at random, the rulebook's example layout for the number of players, "
            "or one of the named layouts, each drawn for a set number of players",
            kind=str,
            label="Board layout",
            group="Board",
            choice_labels={
                "random": "Random, fair to everyone",
                "example": "The rulebook's example",
                **{name: f"{name.replace('_', ' ').capitalize()} ({n} player{'s' * (n > 1)})" for name, n in LAYOUTS},
            },
            requires=tuple(
                Requires(
                    (name,), "players", (n,), f"the {name.replace('_', ' ')} layout is for {n} player{'s' * (n > 1)}"
                )
                for name, n in LAYOUTS
            ),
        ),
        "board": OptionSpec(
            "auto",
            "The size of a generated board: the small board has stations for 4 players, the large one for 6",
            choices=("auto", "small", "large"),
            label="Board size",
            group="Board",
            choice_labels={
                "auto": "Fits the player count",
                "small": "Small (the 4-player board)",
                "large": "Large (the whole 6-player board)",
            },
            requires=(Requires(("small",), "players", (1, 2, 3, 4), "a small board has stations for 4 players"),),
        ),
        "extra_planets": OptionSpec(
            False,
            "Two more planets, at fair distances from every player",
            kind=bool,
            label="Extra planets",
            group="Board",
        ),
        "exploration": OptionSpec(
            False,
            "Chapter 12: explore the planets you hold for artifacts, which help whoever holds the planet",
            kind=bool,
            label="Planetary exploration",
            group="Optional rules",
        ),
        "random_event": OptionSpec(
            False,
            "Chapter 15: the Random Event cards and the event die",
            kind=bool,
            label="Random events",
            group="Optional rules",
        ),
        "neutron_stars": OptionSpec(
            False,
            "Impassable stars: a dogfight beside one is halved, and a mothership beside one has no shields",
            kind=bool,
            label="Expansion: neutron stars",
            group="Expansion modules",
            requires=(EXPANSION_PLAYERS,),
        ),
        "black_holes": OptionSpec(
            False,
            "Entering one rolls a d12: the ship warps elsewhere or takes damage; ships beside one are pulled in",
            kind=bool,
            label="Expansion: black holes",
            group="Expansion modules",
            requires=(EXPANSION_PLAYERS,),
        ),
        "beacons": OptionSpec(
            False,
            "Distress beacon tokens on the board: a ship that answers one draws a story card with two choices",
            kind=bool,
            label="Expansion: distress beacons",
            group="Expansion modules",
            requires=(EXPANSION_PLAYERS,),
        ),
        "objectives": OptionSpec(
            "off",
            "Tasks that earn rewards: two secret ones for each player, or as many face up as players for "
            "everyone, taken by the first to complete one. They need planetary exploration",
            choices=("off", "hidden", "global"),
            label="Expansion: objectives",
            group="Expansion modules",
            choice_labels={"off": "Off", "hidden": "Hidden: two secret ones each", "global": "Global: face up for all"},
            requires=(
                EXPANSION_PLAYERS,
                Requires(("hidden", "global"), "exploration", (True,), "objectives need planetary exploration"),
            ),
        ),
        "round_limit": OptionSpec(
            None,
            "Not in the rulebook: the game stops after this many rounds, a draw among those still in (in victory "
            "points the most points win; in the solo challenge the player loses)",
            kind=int,
            label="Round limit",
            group="House rules",
            choice_labels={None: "Off: play until someone wins"},
        ),
        "first_seat": OptionSpec(
            None,
            "Not in the rulebook: this player starts instead of rolling the d6 (to measure the first player's edge)",
            kind=int,
            label="First player",
            group="House rules",
            choice_labels={None: "Roll the d6, as in the rulebook"},
            seat=True,
        ),
        "content": OptionSpec(
            None,
            "Data laid over the game's rules and layouts (content/rules.toml and content/layouts.toml), as a JSON "
            "object of the TOML tables",
            kind=dict,
            label="Game data",
            group="For designers",
        ),
    }

    def __init__(self, players: int = 4, options: Mapping[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        opts = self.options
        try:
            self.content: Content = load_content(opts["content"])
        except ContentError as exc:
            raise OptionsError(str(exc)) from None
        c = self.content
        self.mode: str = opts["mode"] if opts["mode"] != "auto" else ("solo" if players == 1 else "standard")
        """'standard', 'victory_points' or 'solo' (the option ``mode`` with 'auto' resolved)."""
        self._check_mode(players)
        self.fleets = players + 1 if self.mode == "solo" else players
        """Fleets on the board: the seats', and in the solo challenge the NPC's after them."""
        self.npc: int = players if self.mode == "solo" else -1
        """The NPC fleet's number (solo challenge), else -1."""
        self.victory_target: int = opts["victory_target"] or c.victory.target
        size = opts["team_size"]  # 4 or 6 players for teams of 2, 6 for teams of 3: its ``requires``
        self.teams = players // size if size > 1 else self.fleets
        """Seat ``s`` plays for team ``s % teams`` (teams sit alternately)."""
        limit = opts["round_limit"]
        if limit is not None and limit < 1:
            raise OptionsError(f"{self.id}: option round_limit={limit} must be at least 1")
        self.round_limit: int | None = limit
        """The house rule's last round (None: the rulebook's game, which goes on until it is won)."""
        first = opts["first_seat"]
        if first is not None and not 0 <= first < players:
            raise OptionsError(f"{self.id}: option first_seat={first} must be a seat, 0 to {players - 1}")
        self.ship_kinds = (MOTHERSHIP,) + (FIGHTER,) * c.fighters + (BOMBER,) * c.bombers
        self.ship_names = (
            "Mothership",
            *(f"Fighter {i + 1}" for i in range(c.fighters)),
            *(f"Bomber {i + 1}" for i in range(c.bombers)),
        )
        self.ship_moves = (0,) + (c.fighter_move,) * c.fighters + (c.bomber_move,) * c.bombers
        self.ship_dice = (0,) + (c.fighter_die,) * c.fighters + (c.bomber_die,) * c.bombers
        splits = [
            (e, w, c.energy - e - w)
            for e in range(c.row_length + 1)
            for w in range(c.row_length + 1)
            if 0 <= c.energy - e - w <= c.row_length
        ]
        self.energy_actions = tuple(SetEnergy(*split) for split in splits)
        """Every split of the mothership's energy, as the action that sets it (built once)."""
        self.energy_menus: dict[tuple[int, ...], tuple[SetEnergy, ...]] = {
            split: tuple(a for a in self.energy_actions if a[:3] != split) for split in splits
        }
        """By the split set now: the others, the actions a turn offers (``movement.energy_options``)."""
        self.tree_bonuses: dict[tuple[int | str, ...], int] = {}
        """What a place on the technology tree adds to an effect, by (the branch of each category,
        the tiers up each, effect, unit) in one flat tuple, remembered as asked (module :mod:`.rules.tech`)."""
        self.branch_categories = tuple(CATEGORIES.index(b.category) for b in c.branches)
        """Each branch's category, by the branch's index (module :mod:`.rules.tech` asks at every decision)."""
        self.charge_tiers = tuple(next((t for t, tile in enumerate(b.tiers) if tile.reusable), -1) for b in c.branches)
        """Each branch's first tier with a reusable tile (an Overcharge), by branch index; -1 none."""
        self.modules: frozenset[str] = frozenset(m for m in MODULES if opts[m] not in (False, "off"))
        """The optional rules in play: their cards are in the decks and playable."""
        self.hooks: Hooks = chosen(PLUGINS, self)
        """The rule hooks of the modules in play (``hooks.py``), chosen once."""
        self._check_cards()
        if opts["objectives"] == "hidden":
            length.objective_chain(self)  # refuses a content whose claims could go on without end
        self.card_index = {card.key: i for i, card in enumerate(c.cards)}
        self.layout_board = self._layout_board()
        if self.layout_board is not None:
            self.size = self.layout_board.size
        else:
            large = opts["board"] == "large" or (opts["board"] == "auto" and players > 4)
            self.size = c.large_board if large else c.small_board
        self.board_outcomes: list[tuple[Action, float]] = [(DrawBoard(s), 1 / BOARD_SEEDS) for s in range(BOARD_SEEDS)]
        if self.mode == "solo" and self.layout_board is None:  # a solo layout, drawn at random
            solos = self.solo_layouts()
            if not solos:
                raise OptionsError(f"{self.id}: the content has no solo layout (players = 1) to draw")
            for name in solos:  # each is checked now, not when the dice draw it mid-game
                try:
                    parse_layout(name, self.content.layouts[name], opts["extra_planets"])
                except ContentError as exc:
                    raise OptionsError(f"{self.id}: solo layout {name!r}: {exc}") from None
            self.board_outcomes = [(DrawBoard(s), 1 / len(solos)) for s in range(len(solos))]
        self.worths: tuple[Board | None, dict[tuple[Any, ...], tuple[dict[tuple[Any, ...], float], dict[int, Any]]]]
        self.worths = (None, {})
        """The greedy evaluation's memory on one board (module :mod:`.bots.heuristic`): by the position's
        shared inputs, each fleet's worth by its own inputs, and each fleet's outlook."""
        self.moves = tuple(tuple(Move(ship, cell) for cell in range(self.size**2)) for ship in range(c.ships))
        """``moves[ship][cell]``: every move action, built once (a turn offers dozens)."""
        self.board_for = lru_cache(maxsize=64)(self._board_for)
        self.actions = action_space(
            self.fleets,
            c.ships,
            self.size,
            c.row_length,
            len(c.cards),
            len(c.artifacts),
            len(c.beacons),
            len(c.objectives),
        )
        self.max_length = length.bound_length(self)

    @classmethod
    def usual_players(cls, options: Mapping[str, JSON] | None = None) -> int:
        """One seat for the solo challenge, else four."""
        return 1 if (options or {}).get("mode") == "solo" else super().usual_players(options)

    def _check_mode(self, players: int) -> None:
        opts = self.options
        if self.mode == "solo" and (opts["team_size"] != 1 or opts["first_seat"] not in (None, 0)):
            raise OptionsError(f"{self.id}: the solo challenge has no teams, and its player starts")
        if not 1 <= opts["level"] <= len(self.content.solo.levels):
            raise OptionsError(f"{self.id}: option level={opts['level']} must be 1 to {len(self.content.solo.levels)}")
        target = opts["victory_target"]
        if target is not None and target < 1:
            raise OptionsError(f"{self.id}: option victory_target={target} must be at least 1")

    def _check_cards(self) -> None:
        """OptionsError naming each action card of the deck that the rules could never play (it
        would be bought, never played). A card's key names its effect and its timing the moment it
        is played; the effects are the rules' own: ``cards.RULES`` and the ``cards`` hook of the
        modules in play (the player's turn), ``tactics`` (a dogfight, a roll, a lost defence) and
        Noooooooooooo! (cancelling a card at any moment)."""
        moments: dict[str, Collection[str]] = {
            "turn": cards.RULES.keys() | self.hooks.cards.keys(),
            **dict.fromkeys(sorted(tactics.SIDE_TIMINGS[0] | tactics.SIDE_TIMINGS[1]), tactics.EFFECTS.keys()),
            "rolled": tactics.REROLLS.keys(),
            "lost": tactics.ANSWERS,
            "any": {cards.NOOOO},
        }
        optional = {key: module.name for module in PLUGINS for key in module.hooks.get("cards", {})}
        problems = []
        for card in self.content.cards:
            if (card.module is not None and card.module not in self.modules) or card.key in moments[card.timing]:
                continue
            timings = " or ".join(repr(timing) for timing, keys in moments.items() if card.key in keys)
            if timings:
                why = f"its timing is {card.timing!r}, but the rules play it at {timings}"
            elif card.key in optional:
                why = f"only the optional rule {optional[card.key]!r} plays it, and that rule is off in this game"
            else:
                why = (
                    "the rules have no effect of this key (a card's key names its effect: a new card needs its "
                    "effect written in the rules; a variant may change a card's name, text, count or value)"
                )
            problems.append(f"  cards.{card.key} ({card.name}): {why}")
        if problems:
            raise OptionsError(
                "mothership content has cards the rules cannot play (they would be bought, never played):\n"
                + "\n".join(problems)
            )

    def solo_layouts(self) -> list[str]:
        """The names of the solo challenge's layouts (one player), in content order."""
        return [name for name, layout in self.content.layouts.items() if layout.players == 1]

    def _layout_board(self) -> Board | None:
        name = self.options["layout"]
        if name == "random":
            return None
        layouts = self.content.layouts
        if name == "example":
            fitting = [n for n, layout in layouts.items() if layout.players == self.players]
            if not fitting:
                raise OptionsError(f"{self.id}: no example layout for {self.players} players")
            name = fitting[0]
        layout = layouts.get(name)
        if layout is None:
            raise OptionsError(f"{self.id}: option layout={name!r}: layouts are random, example, {', '.join(layouts)}")
        if layout.players != self.players:
            raise OptionsError(f"{self.id}: layout {name!r} is for {layout.players} players, not {self.players}")
        try:
            kept = "".join(mark for module, mark in hazards.MARKS.items() if module in self.modules)
            return self._furnish(parse_layout(name, layout, self.options["extra_planets"], kept))
        except ContentError as exc:
            raise OptionsError(str(exc)) from None

    def _board_for(self, seed: int) -> Board:
        """The board of a game: the layout's, or the generated board of ``seed``."""
        if self.layout_board is not None:
            return self.layout_board
        if self.mode == "solo":
            name = self.solo_layouts()[seed]
            return parse_layout(name, self.content.layouts[name], self.options["extra_planets"])
        return self._furnish(generate(seed, self.players, self.size, self.content, self.options["extra_planets"]))

    def _furnish(self, board: Board) -> Board:
        """``board`` with the expansion's pieces of the modules in play: hazards, then beacon tokens."""
        neutron, black = "neutron_stars" in self.modules, "black_holes" in self.modules
        if neutron or black:
            board = hazards.furnish(board, self.content, neutron, black)
        if "beacons" in self.modules:
            board = beacons.furnish(board, self.content, self.players)
        return board

    def describe(self) -> str:
        board = self.layout_board.name if self.layout_board else f"a generated {self.size}x{self.size} board"
        if self.mode == "solo" and not self.layout_board:
            board = f"one of the solo layouts ({', '.join(self.solo_layouts())})"
        teams = f", teams of {self.options['team_size']}" if self.options["team_size"] > 1 else ""
        mode = {
            "standard": "",
            "victory_points": f", first to {self.victory_target} victory points",
            "solo": f", the solo challenge at level {self.options['level']}",
        }[self.mode]
        explore = ", with planetary exploration" if self.options["exploration"] else ""
        expansion = [m.replace("_", " ") for m in EXPANSION if m in self.modules]
        if expansion:
            objectives = self.options["objectives"]
            expansion = [f"{objectives} objectives" if m == "objectives" else m for m in expansion]
            explore += (", " if explore else ", with ") + ", ".join(expansion)
        who = "1 player" if self.players == 1 else f"{self.players} players"
        return f"{self.name}, {who} on {board}{teams}{mode}{explore}"

    def new_initial_state(self) -> MothershipState:
        return MothershipState(self)

    def state_from_json(self, data: JSON) -> State:
        """The state ``data`` describes, checked field by field against the game's schema
        (:mod:`.rules.schema`), then against the invariants between fields and the rules' first
        questions; ValueError naming the first field or invariant broken."""
        what = "mothership state"
        check_json_keys(data, JSON_KEYS, what)
        validate(schema.state_schema(self), data, what)
        try:
            state = MothershipState.from_fields(self, data)
            schema.check(state)
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from None
        probe(state, what)
        return state

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(cast(MothershipState, state), seat)

    def quick_values(self, state: State, seat: int, actions: Sequence[Action]) -> list[float | None] | None:
        return quick_values(cast(MothershipState, state), seat, actions)

    def progress(self, state: State, seat: int) -> float:
        """The solo challenge: half for the NPC's ships destroyed (of its fleet), half for the
        colony station's HP left. Victory points: the points over the target. Otherwise the
        score the game ends with, the seat's standing (hull, station HP, ships, planets: see
        ``turns.standing``) over the most it can be. All of it is public."""
        s, c = cast(MothershipState, state), self.content
        if self.mode == "solo":
            kills = sum(s.tallies[seat][language.TALLIES.index(name)] for name in KILL_TALLIES)
            return 0.5 * min(kills, c.ships) / c.ships + 0.5 * s.station_hp[seat] / c.station_hp
        if self.mode == "victory_points":
            return min(s.points[seat], self.victory_target) / self.victory_target
        most = c.mothership_hp + c.station_hp + 2 * c.ships + 3 * len(s.owner)
        return min(turns.standing(s, seat), most) / most

    def statistics(self, state: State, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
        """Per finished game: cards bought and played, tech branches picked and their win rates,
        tiers and resources (headline figures), and each card's figures (``views.report``)."""
        return report.statistics(cast(MothershipState, state), moves)

    def first_player(self, state: State, moves: Sequence[tuple[int | None, JSON]]) -> int | None:
        """The seat whose turn began round 1: the highest d6 (or option ``first_seat``), not the
        first to place a fleet. None in the solo challenge."""
        return cast(MothershipState, state).first if self.players > 1 else None

    def board_svg(self, view: JSON, seat: int | None) -> str | None:
        return web.board_svg(self, view, seat)

    def action_parts(self, action: Action) -> tuple[str, ...]:
        return web.action_parts(self, action)

    def guide(self, view: JSON, seat: int | None, actions: Sequence[Action] = ()) -> str | None:
        return web_guide.guide(self, view, seat, actions)

    def explain_outcome(self, view: JSON, outcome: Outcome, seat: int | None) -> str:
        return web_guide.explain_outcome(self, view, outcome, seat)

    def glossary(self) -> dict[str, str]:
        return web_words.glossary(self)

    def observation_shape(self) -> tuple[int, ...]:
        return tensor.shape(self)

    def observation_planes(self) -> tuple[int, tuple[int, int, int]]:
        return tensor.planes_offset(self), tensor.planes_shape(self)

    def observation_tensor(self, state: State, seat: int) -> Tensor:
        return tensor.encode(self, state.view(seat), seat)

    def observation_tensor_shared(self, state: State, seat: int, shared: dict[str, Any]) -> Tensor:
        return tensor.encode_shared(self, state, seat, shared)

    def recall(self) -> Recall:
        return infostate.recall(self)
