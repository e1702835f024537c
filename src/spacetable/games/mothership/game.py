"""The Mothership game: options, content, the board, and registration."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, cast

from spacetable.engine import (
    JSON,
    Action,
    ContentError,
    Game,
    OptionsError,
    OptionSpec,
    State,
    Statistic,
    check_json_keys,
    register,
)
from spacetable.engine.schema import probe, validate

from . import rule_refs
from .bots.heuristic import evaluate
from .content import CATEGORIES, Content, language, load_content
from .modules import MODULES as PLUGINS
from .modules import beacons, hazards, scripts
from .rules import cards, schema, tech, turns
from .rules.actions import BOARD_SEEDS, DrawBoard, Move, SetEnergy, action_space
from .rules.board import MAX_EXTRA, MAX_PLANETS, Board, generate, parse_layout
from .rules.decks import lacking
from .rules.hooks import Hooks, chosen
from .rules.state import JSON_KEYS, MothershipState
from .rules.targets import BOMBER, FIGHTER, MOTHERSHIP
from .rules.turns import ROUND_LIMIT
from .views import report, tensor, web, web_words

if TYPE_CHECKING:
    from spacetable.engine.tensor import Tensor

KILL_TALLIES = ("fighters_destroyed", "bombers_destroyed", "motherships_destroyed")
"""The tallies of enemy ships a fleet destroyed (``language.TALLIES``)."""
MODES = ("auto", "standard", "victory_points", "solo")
MODULES = ("random_event", "exploration", "neutron_stars", "black_holes", "beacons", "objectives")
"""The options that switch a module on (their names are the modules' names in content data)."""
EXPANSION = ("neutron_stars", "black_holes", "beacons", "objectives")


LEG_ACTIONS = 5
"""The most actions one leg of a move takes: the move, and into an asteroid field its two dice
and one pass of the mover in each card window (before and after the roll); cards played there
are counted with the cards."""

ASKING_EFFECTS = frozenset(scripts.CHOICES) - {"option", "group", "artifact"}
"""The card language's effects that ask their player one choice each (``scripts.CHOICES``): a
repair's place, a cannon's space, a branch, a warp's space, a strike's target; never a die (a
strike harms without one). Not a beacon's option or an objective's group (once a card), nor
``artifact``, whose choice and draw are counted with the token it turns over
(:meth:`Mothership._artifact_length`)."""

ATTACK_ACTIONS = 7
"""The most actions of one attack beyond one die per attacking ship: its declaration, the
defender's die (a ship's, Station Guns' or a guardian cannon's: at most one), and five passes
(``tactics._next``: a window ends after two passes in a row, or one when the other side is not
asked, and the losing defender's answers end at its first pass; each card played lets one more
pass in, counted with the cards): two before the roll, two after it, one for the answers. A
planet attack takes fewer (no defender's die, no window after the roll or for answers) plus its
capture's two (the reward's choice, the draw or steal): ships + 4."""


def _drawn(effects: list[str]) -> int:
    """The objective cards a list of effects draws."""
    return sum(e.amount for e in map(language.parse_effect, effects) if e.verb == "objectives")


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
        "layout": OptionSpec(
            "random",
            "the board: 'random' (a fair generated board), 'example' (the first example layout for the "
            "player count) or a layout's name from content/layouts.toml",
            kind=str,
        ),
        "board": OptionSpec(
            "auto",
            "generated board size: 'small' (the 4-player board), 'large' (the whole 6-player board) or "
            "'auto' (small up to 4 players)",
            choices=("auto", "small", "large"),
        ),
        "extra_planets": OptionSpec(False, "two extra planets, fair distances from everyone", kind=bool),
        "random_event": OptionSpec(False, "the optional Random Event cards and event die (chapter 15)", kind=bool),
        "team_size": OptionSpec(1, "players per team: 1 (free for all), 2 or 3 (teams seated alternately)", kind=int),
        "round_limit": OptionSpec(
            None,
            "house rule: rounds before the game stops (default: none, as in the rulebook): a draw among those "
            "still in; in victory points the most points win; in the solo challenge the player loses",
            kind=int,
        ),
        "first_seat": OptionSpec(
            None, "the seat that starts, instead of the d6 roll (to measure the first player's edge)", kind=int
        ),
        "mode": OptionSpec(
            "auto",
            "the game: 'standard' (last standing), 'victory_points' (chapter 13: points, ships respawn), "
            "'solo' (chapter 14: one player against the NPC fleet) or 'auto' (solo for one player, else standard)",
            choices=MODES,
        ),
        "level": OptionSpec(1, "the solo challenge's level, 1 (easiest) to 9: the NPC's panel and tech", kind=int),
        "victory_target": OptionSpec(
            None, "victory points that win (mode victory_points; default: content, 10)", kind=int
        ),
        "exploration": OptionSpec(
            False, "planetary exploration (chapter 12): explore held planets for artifacts", kind=bool
        ),
        "neutron_stars": OptionSpec(
            False, "the expansion's neutron stars: impassable; dogfights beside one are halved, shields off", kind=bool
        ),
        "black_holes": OptionSpec(
            False,
            "the expansion's black holes: a d12 on entering (warp or damage); ships beside one are pulled in",
            kind=bool,
        ),
        "beacons": OptionSpec(
            False, "the expansion's distress beacons: tokens that draw story cards with two options", kind=bool
        ),
        "objectives": OptionSpec(
            "off",
            "the expansion's objectives (needs exploration): 'hidden' (two secret ones each), 'global' (as "
            "many face up as players, first to complete takes it) or 'off'",
            choices=("off", "hidden", "global"),
        ),
        "content": OptionSpec(
            None, "data overriding content/rules.toml and content/layouts.toml (a parsed TOML table)", kind=dict
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
        size = opts["team_size"]
        if size not in (1, 2, 3) or players % size or (size > 1 and players // size < 2):
            raise OptionsError(
                f"{self.id}: option team_size={size!r}: teams of 2 or 3 need a multiple of that many players "
                "and at least two teams"
            )
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
        the tiers up each, effect, unit) in one flat tuple, remembered as asked (module :mod:`.tech`)."""
        self.branch_categories = tuple(CATEGORIES.index(b.category) for b in c.branches)
        """Each branch's category, by the branch's index (module :mod:`.tech` asks at every decision)."""
        self.charge_tiers = tuple(next((t for t, tile in enumerate(b.tiers) if tile.reusable), -1) for b in c.branches)
        """Each branch's first tier with a reusable tile (an Overcharge), by branch index; -1 none."""
        self.modules: frozenset[str] = frozenset(m for m in MODULES if opts[m] not in (False, "off"))
        """The optional rules in play: their cards are in the decks and playable."""
        self.hooks: Hooks = chosen(PLUGINS, self)
        """The rule hooks of the modules in play (``hooks.py``), chosen once."""
        if opts["objectives"] == "hidden":
            self._objective_chain()  # refuses a content whose claims could go on without end
        self.card_index = {card.key: i for i, card in enumerate(c.cards)}
        self.layout_board = self._layout_board()
        if self.layout_board is not None:
            self.size = self.layout_board.size
        else:
            if opts["board"] == "small" and players > 4:
                raise OptionsError(
                    f"{self.id}: a small board has stations for 4 players, not {players}; use board=large or auto"
                )
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
        """The greedy evaluation's memory on one board (module :mod:`.heuristic`): by the position's
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
        self.max_length = self._bound_length()

    @classmethod
    def usual_players(cls, options: Mapping[str, JSON] | None = None) -> int:
        """One seat for the solo challenge, else four."""
        return 1 if (options or {}).get("mode") == "solo" else super().usual_players(options)

    def _check_mode(self, players: int) -> None:
        opts = self.options
        if (self.mode == "solo") != (players == 1):
            raise OptionsError(f"{self.id}: the solo challenge (mode solo) is for one player, other modes for 2 to 6")
        if self.mode == "solo" and (opts["team_size"] != 1 or opts["first_seat"] not in (None, 0)):
            raise OptionsError(f"{self.id}: the solo challenge has no teams, and its player starts")
        if not 1 <= opts["level"] <= len(self.content.solo.levels):
            raise OptionsError(f"{self.id}: option level={opts['level']} must be 1 to {len(self.content.solo.levels)}")
        if opts["level"] != 1 and self.mode != "solo":
            raise OptionsError(f"{self.id}: option level is the solo challenge's (mode solo)")
        expansion = [m for m in EXPANSION if opts[m] not in (False, "off")]
        if expansion and self.mode == "solo":
            raise OptionsError(f"{self.id}: the expansion's modules ({', '.join(expansion)}) are for 2 to 6 players")
        if opts["objectives"] != "off" and not opts["exploration"]:
            raise OptionsError(f"{self.id}: objectives need planetary exploration (option exploration=true)")
        target = opts["victory_target"]
        if target is not None and (target < 1 or self.mode != "victory_points"):
            raise OptionsError(f"{self.id}: option victory_target={target} needs mode victory_points and is at least 1")

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

    def _bound_length(self) -> int | None:
        """Actions of the longest possible game, chance included (docs/INTEROP.md, "Length
        bounds"): the set-up, the action cards' part and the expansion's set-up once, then
        ``round_limit + 1`` rounds of a turn per fleet (:meth:`_turn_length`). None without a
        round limit: a game may go on.

        Set-up: the board, one placement per ship, one roll per player. Mode victory_points
        knocks nobody out, so every fleet plays every round up to the limit (as assumed here).
        Once a game: the action cards (:meth:`_card_length`), what resources pay for
        (:meth:`_paid_length`) and the explorations (:meth:`_artifact_length`).
        """
        if self.round_limit is None:
            return None
        c = self.content
        setup = 1 + self.fleets * c.ships + self.fleets
        setup_objectives, _ = self._expansion_length()
        rounds = self.round_limit + 1
        once = self._card_length() + self._paid_length() + self._artifact_length()
        turns = sum(self._turn_length(seat) for seat in range(self.fleets))
        return setup + setup_objectives + once + rounds * turns

    def _turn_length(self, seat: int) -> int:
        """The most actions of one turn of ``seat``, beyond what the action cards, purchases and
        explorations add (counted once a game):

        - one energy split (``movement.set_energy`` locks the panel for the turn);
        - ``LEG_ACTIONS`` per engine space its ships can have (:meth:`_turn_spaces`): a leg
          costs at least one space (``movement._search`` starts at one), and one into an
          asteroid field is the move, the two dice and the one pass each window before and
          after the roll asks of the mover (the asteroids' side is never asked);
        - at most one attack per ship, ships + ``ATTACK_ACTIONS`` each (:data:`ATTACK_ACTIONS`),
          so ``(1 + ATTACK_ACTIONS)`` per ship (``state.attacked`` is cleared only when a turn
          begins; an ability uses the mothership's attack phase, and a ship the Hangar Bay
          launches has used its own);
        - with Jump Gates in the tree (a player's; the NPC buys nothing), one jump per friendly
          ship, its own and its teammates' (the ``jumped`` mark lasts the turn);
        - the end of the turn and one pass per other player in the trading window;
        - with black holes, each ship once in a turn (the pull's choice, the roll, where it warps
          out) and once at its end (the roll, the warp); the beacons' and objectives' part
          (:meth:`_expansion_length`). Artifacts ask nothing: the explorations that find them are
          counted once a game (:meth:`_artifact_length`).

        Ships come back by rule at a turn's end (no action), never during the turn they could
        act in (the Hangar Bay's launch is marked as moved and attacked)."""
        c = self.content
        player = seat != self.npc
        length = 1 + LEG_ACTIONS * sum(self._turn_spaces(player)) + (1 + ATTACK_ACTIONS) * c.ships
        gates = any(t.ability == "jump_gates" for b in c.branches for t in b.tiers)
        length += self.options["team_size"] * c.ships if gates and player else 0
        length += self.fleets
        length += 5 * c.ships if "black_holes" in self.modules else 0
        return length + self._expansion_length()[1]

    def _artifact_length(self) -> int:
        """The explorations of a game, with planetary exploration: each artifact token is turned
        over once (``exploration.reveal``; a found one is never hidden again) and an exploration
        starts only while a token is left (``exploration.explorable``) and is drawn at once, so
        each token takes at most two actions: what starts it (an Explore bought, an ``artifact``
        reward's choice of planet, Recon Droid's target) and its draw. An artifact itself asks
        nothing: it only adds to the tree's effects (``exploration.bonus``)."""
        return 2 * len(self.content.artifacts) if "exploration" in self.modules else 0

    def _turn_spaces(self, tech_held: bool = True) -> list[int]:
        """The most engine spaces each ship can have in a turn without action cards: its printed
        move (the mothership's highest engine setting), then (``tech_held``; the solo challenge's
        NPC buys nothing) the best tech branch of each category with every tier bought and, with
        planetary exploration, every artifact (each is one card, so one player may hold them all)."""
        spaces = [max(self.content.engines), *self.ship_moves[1:]]
        if not tech_held:
            return spaces
        return [move + self._most_bonus("move", unit) for move, unit in zip(spaces, self.ship_kinds)]

    def _most_bonus(self, effect: str, unit: str = "") -> int:
        """The most a player's tiers and artifacts can add to ``effect`` for ``unit``: the best
        branch of each category with every tier bought, and every artifact in play."""
        c = self.content
        total = 0
        for category in CATEGORIES:
            branches = [i for i, branch in enumerate(c.branches) if branch.category == category]
            total += max(
                (tech.tree_bonus(c.branches, (i,), (tech.TOP_TIER,), effect, unit) for i in branches), default=0
            )
        artifacts = c.artifacts if "exploration" in self.modules else ()
        return total + sum(a.amount for a in artifacts if a.effect == effect and (not a.units or unit in a.units))

    def _paid_length(self) -> int:
        """The most actions a game's resources can pay for, beyond the action cards' part (which
        counts every buy): tiers, Overcharges (bought again any number of times), explorations
        and objective replacements each cost at least the least of their prices, and every
        resource a game gives is counted: per turn the income (the station, every planet a board
        can hold, a random event's planet bonus, the best income tiers and artifacts), the loot of
        every unit and station on the board (units come back only at a turn's end), Asteroid
        Mining once (it uses the attack phase), a beacon's and every objective's resource rewards
        and kept salvage; once a game every card's sale value and each Replicator's d4."""
        c = self.content
        planets = MAX_PLANETS + MAX_EXTRA
        income = c.station_income + c.planet_income * planets + self._most_bonus("income")
        income += planets if "random_event" in self.modules else 0  # (planets // 2) doubled
        loot = max(c.loot_small, c.loot_large) + self._most_bonus("loot")
        mining = max((t.amount for b in c.branches for t in b.tiers if t.ability == "asteroid_mining"), default=0)
        own_turn = income + mining + self._expansion_resources()  # the NPC's turns give nothing
        per_round = self.players * own_turn + self.fleets * self.fleets * (c.ships + 1) * loot
        copies = [card for card in c.cards if card.module is None or card.module in self.modules]
        once = sum(card.count * (card.value + (4 if card.key == "replicator" else 0)) for card in copies)
        assert self.round_limit is not None
        gained = (self.round_limit + 1) * per_round + once
        prices = [*c.tech_costs, c.exploration_cost]
        if "objectives" in self.modules:
            prices.append(c.objective_cards.replace_cost)
        return gained // max(1, min(prices))

    def _expansion_resources(self) -> int:
        """The resources the beacons and objectives can give in one turn: one beacon's best option
        (its rewards or, failing its test, its ``otherwise``, and the salvage it keeps), and the
        best group of each claim a turn makes (:meth:`_objective_turn`). A guardian cannon a
        reward deploys is counted with its loot (a fighter's and the best loot bonus), paid once
        when it is destroyed (it never comes back, ``combat.hit``)."""
        c = self.content
        cannon = c.loot_small + self._most_bonus("loot")

        def gains(effects: list[str]) -> int:
            total = 0
            for effect in map(language.parse_effect, effects):
                if effect.verb == "resources" or (effect.verb, effect.word) == ("keep", "salvage"):
                    total += effect.amount
                elif effect.verb == "cannon":
                    total += cannon
            return total

        total = 0
        if "beacons" in self.modules:
            total += max(max(gains(o.effects), gains(o.otherwise)) for _, m in c.beacons for o in m.options)
        if "objectives" in self.modules:
            best = max(gains(group) for _, m in c.objectives for group in m.rewards)
            total += self._objective_turn()[1] * best
        return max(0, total)

    def _card_length(self) -> int:
        """Actions the action cards add over a whole game, beyond a turn's part. The deck never
        refills (played and sold cards stay in the discard pile), so each copy is drawn (after a
        buy, a capture or the deal) once, bought at most once, and leaves a hand once: sold, or
        played with every other player's answer to it (Noooooooooooo!, itself a card), then what
        its effect sets off, at most :meth:`_card_effect_length`. Stealing moves a card between
        hands, and each steal is a card's effect (Surprise Attack) or a capture's reward (an
        attack's part). The engine spaces cards add are spent once each, ``LEG_ACTIONS`` a leg:
        Afterburner's, Convoy's for each escort, Ninja Rope's after an attack, and Punch It!,
        which doubles a ship's spaces: at most the most a ship has (:meth:`_turn_spaces`) plus
        every Afterburner and Convoy (one ship gets one Convoy's), doubled once per copy (Ninja
        Rope is played on a ship that attacked, Punch It! on one that has not, so the rope's
        spaces are never doubled)."""
        c = self.content
        copies = {card.key: card.count for card in c.cards if card.module is None or card.module in self.modules}
        handling = sum(copies.values()) * (2 + self.fleets + self._card_effect_length(copies))
        afterburner = cards.AFTERBURNER_SPACES * copies.get("afterburner", 0)
        convoy = cards.CONVOY_SPACES * copies.get("convoy", 0)
        rope = cards.ROPE_SPACES * copies.get("ninja_rope", 0)
        boosts = afterburner + (c.ships - 1) * convoy + rope
        doubled = (max(self._turn_spaces()) + afterburner + convoy) * ((1 << copies.get("punch_it", 0)) - 1)
        return handling + LEG_ACTIONS * (boosts + doubled)

    def _card_effect_length(self, copies: dict[str, int]) -> int:
        """The most actions one played card's effect sets off, over the cards in the deck: a
        dogfight card lets one more pass into its window and a re-roll card rolls its die again
        (2); Railguns is a bomber's attack (the bomber's die, the defender's, the windows'
        passes); Friendly Negotiations captures (the reward's choice and its draw or steal); a
        Random Event rolls and its player chooses (2); Replicator's d4, Surprise Attack's steal
        and Recon Droid's artifact are one. Draws (Pick Up Two, Free Samples!) are counted as
        the copies drawn."""
        c = self.content
        timings = {card.key: card.timing for card in c.cards}
        each = {"railguns": ATTACK_ACTIONS, "friendly_negotiations": 2, "random_event": 2}
        each |= dict.fromkeys(("replicator", "surprise_attack", "recon_droid"), 1)
        return max(
            (each.get(key, 2 if timings[key] != "turn" else 0) for key, count in copies.items() if count), default=0
        )

    def _expansion_length(self) -> tuple[int, int]:
        """Actions the beacons and objectives add: at set-up (the objectives dealt, the tokens to
        flip later) and per turn. A draw discards the cards it cannot use (a module not in play,
        no option open) until one it can: the deck is turned over from the discard pile only when
        empty, and only while a usable card is left in one of them, so a draw takes at most every
        card of the deck twice. A turn has one beacon (the activation, its draws, the option,
        two dice, then its effects or, failing its test, its ``otherwise``: each draw, one
        choice per :data:`ASKING_EFFECTS`), one replacement (spacetable's limit, RULINGS.md) and
        the objective draws and claims of :meth:`_objective_turn` (a claim: the group, each
        effect's choice and action card draws; its objective draws are among the turn's)."""
        c = self.content
        draw_beacon = 2 * sum(m.count for _, m in c.beacons)
        draw_objective = 2 * sum(m.count for _, m in c.objectives)

        def cost(effects: list[str], objectives: bool = True) -> int:
            total = 0
            for text in effects:
                effect = language.parse_effect(text)
                if effect.verb == "cards" or (objectives and effect.verb == "objectives"):
                    total += effect.amount * (draw_objective if effect.verb == "objectives" else 1)
                elif effect.verb in ASKING_EFFECTS:
                    total += 1
            return total

        setup = per_turn = 0
        if "beacons" in self.modules:
            card = max(max(cost(o.effects), cost(o.otherwise)) for _, m in c.beacons for o in m.options)
            per_turn += 1 + draw_beacon + 1 + 2 + card
            setup += self.players * c.beacon_tokens.per_player
        if "objectives" in self.modules:
            claim = max(cost(group, objectives=False) for _, m in c.objectives for group in m.rewards)
            draws, claims = self._objective_turn()
            per_turn += 1 + draws * draw_objective + claims * (1 + claim)
            setup += self.players * c.objective_cards.per_player * draw_objective
        return setup, per_turn

    def _objective_turn(self) -> tuple[int, int]:
        """The most objective cards one player's turn draws, and the most claims it makes.

        Global objectives: no replacement, and a reward's draws are discarded, so a turn draws
        none and claims at most the face-up row (one card per player). Hidden: claims are at
        most the cards held (at most every copy) plus the turn's draws, which are the
        replacement's one, one beacon option's and the claims' whose group draws objectives:
        at most one copy drawing one (:meth:`_objective_chain`), claimed at most 3 times a
        turn: held, and drawn back once by the replacement and once by the beacon's draws; its
        own draw is made after the deck took its pile back without it (``objectives.owe``)."""
        copies = sum(m.count for _, m in self.content.objectives)
        if self.options["objectives"] == "global":
            return 0, min(copies, self.players)
        beacon = 0
        if "beacons" in self.modules:
            beacon = max(
                max(_drawn(o.effects), _drawn(o.otherwise)) for _, m in self.content.beacons for o in m.options
            )
        draws = 1 + beacon + 3 * self._objective_chain()
        return draws, copies + draws

    def _objective_chain(self) -> int:
        """How many objective cards a claim's group may draw, 0 or 1, with hidden objectives.

        OptionsError if more than one copy dealt in this game has a group that draws objectives,
        or one draws more: goals count deeds since the game began, so once met they stay met,
        and two such copies would claim, turn the deck over and draw each other back without
        end in one turn."""
        chain = [
            (key, m)
            for key, m in self.content.objectives
            if m.count and any(map(_drawn, m.rewards)) and not lacking(self, m.requires)
        ]
        most = max((_drawn(group) for _, m in chain for group in m.rewards), default=0)
        if sum(m.count for _, m in chain) > 1 or most > 1:
            raise OptionsError(
                f"{self.id}: objectives {', '.join(key for key, _ in chain)}: at most one copy of one objective "
                "may reward with 'objectives 1' (more could be claimed again and again in one turn)"
            )
        return most

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
        (:mod:`.schema`), then against the invariants between fields and the rules' first
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
        """Per finished game: the cards of each kind bought and played, the win rate of the
        players who played each card (from ``moves``) and who held it at the end, and each tech
        branch's win rate among the players who climbed it."""
        return report.statistics(cast(MothershipState, state), moves)

    def board_svg(self, view: JSON, seat: int | None) -> str | None:
        return web.board_svg(self, view, seat)

    def action_parts(self, action: Action) -> tuple[str, ...]:
        return web.action_parts(self, action)

    def glossary(self) -> dict[str, str]:
        return web_words.glossary(self)

    def observation_shape(self) -> tuple[int, ...]:
        return tensor.shape(self)

    def observation_planes(self) -> tuple[int, tuple[int, int, int]]:
        return tensor.planes_offset(self), tensor.planes_shape(self)

    def observation_tensor(self, state: State, seat: int) -> Tensor:
        return tensor.encode(self, state.view(seat), seat)
