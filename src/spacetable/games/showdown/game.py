"""The showdown game: options, content for the player count, and registration."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from pydantic import BaseModel

from spacetable.engine import (
    JSON,
    Action,
    ContentError,
    Game,
    OptionsError,
    OptionSpec,
    Outcome,
    State,
    Statistic,
    register,
)

from . import rule_refs
from .bots.heuristic import evaluate
from .content import build_content
from .rules import schema
from .rules.actions import action_space
from .rules.state import ALIVE, FIRE_ROUND, ShowdownState
from .views import infostate, render, report, tensor, web, web_guide, web_words

if TYPE_CHECKING:
    from spacetable.engine.tensor import Recall, Tensor


@register
class Showdown(Game):
    id = "showdown"
    name = "Starship Showdown"
    version = "1.0"
    teaching = rule_refs.TEACHING
    min_players = 2
    max_players = 6
    default_players = 4
    value_scale = 8.0
    hidden_information = True
    returns_sum = 1.0
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "fire_round": OptionSpec(
            None,
            "Not in the rulebook: from this round on every ship burns, however many captains are left (in the "
            "rulebook ships burn once two captains are left)",
            kind=int,
            label="Every ship burns from round",
            group="House rules",
            choice_labels={None: "Off: burn once two are left"},
        ),
        "content": OptionSpec(
            None,
            "Card data laid over the game's cards (content/cards.toml), as a JSON object of the TOML tables",
            kind=dict,
            label="Card data",
            group="For designers",
        ),
    }
    finite_options: ClassVar[Mapping[str, JSON]] = {"fire_round": FIRE_ROUND}
    """Three or more captains may never fight it out: bots' batches and research burn every
    ship from round 20 (RULINGS.md, ruling 28)."""

    def __init__(self, players: int = 4, options: Mapping[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        fire = self.options["fire_round"]
        if fire is not None and not 1 <= fire <= 99:
            raise OptionsError(f"{self.id}: option fire_round={fire} must be from 1 to 99")
        self.fire_round: int | None = fire
        """The house rule's first round of fire for any number of captains (None: the rulebook's)."""
        try:
            self.content = build_content(players, self.options["content"])
        except ContentError as exc:
            raise OptionsError(str(exc)) from None
        self.actions = action_space(self.content)
        self.max_length = _max_length(self)

    def describe(self) -> str:
        duel = " (the final duel from the start)" if self.players == 2 else ""
        return f"{self.name}, {self.players} captains{duel}"

    def new_initial_state(self) -> ShowdownState:
        return ShowdownState(self)

    def state_from_json(self, data: JSON) -> State:
        return ShowdownState.from_json(self, data)

    def state_model(self) -> type[BaseModel]:
        """The typed schema a state's JSON must fit (``schema.py``); the state asks the game, so
        the state module imports none of the rules the schema's invariants use."""
        return schema.state_schema(self)

    def check_state(self, state: ShowdownState) -> None:
        """The invariants between a state's fields (``schema.check``: ValueError naming the first broken)."""
        schema.check(state)

    def label(self, state: ShowdownState, action: Action) -> str:
        """An action in words, for ``state.action_label`` (``render.action_label``)."""
        return render.action_label(state, action)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(cast(ShowdownState, state), seat)

    def progress(self, state: State, seat: int) -> float:
        """The score the game ends with, the seat's intact hull while it is alive (0 once it is
        not), over the most it can hold (start hull and every card dealt). A seat always knows
        its own hull."""
        s = cast(ShowdownState, state)
        full = self.content.rules.start_hull + self.content.dealt
        return min(s.intact[seat], full) / full if s.status[seat] == ALIVE else 0.0

    def statistics(self, state: State, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
        """Per finished game: the draft's cards played and discarded for hull, the showdown's
        attacks and boardings (headline figures), and each card's figures (``views.report``)."""
        return report.statistics(cast(ShowdownState, state), moves)

    def first_player(self, state: State, moves: Sequence[tuple[int | None, JSON]]) -> int | None:
        """The captain drawn to play first in the showdown (the draft before it is simultaneous)."""
        return cast(ShowdownState, state).first

    def observation_shape(self) -> tuple[int, ...]:
        return tensor.shape(self)

    def observation_tensor(self, state: State, seat: int) -> Tensor:
        return tensor.encode(self, state.view(seat), seat)

    def observation_tensor_shared(self, state: State, seat: int, shared: dict[str, Any]) -> Tensor:
        return tensor.encode_shared(self, cast(ShowdownState, state), seat, shared)

    def recall(self) -> Recall:
        return infostate.recall(self)

    def board_svg(self, view: JSON, seat: int | None) -> str | None:
        return web.board_svg(self.content, view, seat)

    def action_parts(self, action: Action) -> tuple[str, ...]:
        return web.action_parts(action)

    def glossary(self) -> dict[str, str]:
        return web_words.glossary(self.content, self.fire_round)

    def guide(self, view: JSON, seat: int | None, actions: Sequence[Action] = ()) -> str | None:
        return web_guide.guide(self.content, view, seat, actions)

    def seat_names(self, view: JSON | None = None) -> list[str]:
        """The captains' names, as the board and the log call the seats (the content's, not the view's)."""
        return web_guide.seat_names(self.content)

    def explain_outcome(self, view: JSON, outcome: Outcome, seat: int | None) -> str:
        return web_guide.explain_outcome(view, outcome, seat)


"""The 'How to play' page (docs/WEB.md, "Teaching the game")."""


def _max_length(game: Showdown) -> int | None:
    """A bound on the actions of any game, chance included (None for more than two captains
    without ``fire_round``: they may never fight). W, E, G, P are the deck's weapons, engines,
    gunners and pilots, L the countermeasure limit, A the actions per turn.

    Upgrade phase: a deal and a pick per card of the deck, and the first player's draw.

    Rounds. The ships burn from round 1 in a duel, else from ``fire_round`` at the latest (from
    the round after two captains are left, if sooner). Count a ship's items: its cards (crew
    away included) and hull tokens, intact or damaged. At the showdown it has at most
    ``start_hull + dealt`` (each pick plays a card, replaces one or becomes a hull token). A
    burning round takes one (a card or an intact hull token) from every ship afloat, and a ship
    with none intact is out. Repairs and damage only flip tokens; killed crew only lose cards.
    Items come only from loot (one per captain killed: at most n - 1) and from a boosted Armor
    Plating's tokens when it is spent (``armor_tokens`` per deployment; a card is deployed at
    most twice on a ship, the AI reusing each countermeasure once, and a card changes ship only
    as loot). So no ship outlives ``start_hull + dealt + gains`` burning rounds, and with one
    captain left the game is over.

    A round: a burn choice per ship, then a turn per captain of at most A actions and the end
    of the turn. The longest action is an attack or a boarding (a xenotech use is a declaration
    and the target's reaction, a repair one die and its re-rolls). An attack: the declaration,
    the attacker's energy, the target's deployments (at most L, then done), its energy, the
    dice: W per action spent attacking (a double attack spends two for one volley of 2W), at
    most 2E for the defence (Nitro Fuel), forced re-rolls by enemy saboteurs (at most G on
    the attack, P on the defence) and own re-rolls (two at most per side, one more with Adrenal
    Stim). A boarding: the declaration, deployments, the mode, the defender, the teleporter dice
    of the two ratings (one more die for a Security Drone), the Adrenal Stim re-rolls and the
    loot.
    """
    c = game.content
    n, rules = game.players, c.rules
    fire = 1 if n == 2 else game.fire_round
    if fire is None:
        return None
    copies = c.deck.get
    cards = sum(c.deck.values())
    limit = rules.countermeasure_limit
    gains = (n - 1) + 2 * rules.armor_tokens * (copies("armor_plating", 0) + n - 1)
    rounds = fire - 1 + rules.start_hull + c.dealt + gains
    top_rating = max(c.rating.values())
    steps = 4 + limit  # declaration, energy or mode, deployments and done, energy or defender
    own_rerolls = 2 * (2 + 1)  # per side: two (a double attack, Nitro Fuel), one more with the Stim
    attack = steps + 2 * copies("engine", 0) + copies("gunner", 0) + copies("pilot", 0) + own_rerolls
    boarding = steps + (2 * top_rating + 1) + 2 + 1  # the dice, the Stims' re-rolls, the loot
    per_action = max(attack, boarding)
    per_turn = rules.actions_per_turn * (per_action + copies("weapon", 0)) + 1
    return 2 * cards + 1 + rounds * (n * per_turn + n)
