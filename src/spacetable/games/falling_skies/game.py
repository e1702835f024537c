"""The falling-skies game: options, the assembled board, and registration."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from spacetable.engine import (
    JSON,
    Action,
    Game,
    OptionsError,
    OptionSpec,
    Outcome,
    Player,
    State,
    Statistic,
    register,
)
from spacetable.engine.errors import ContentError

from . import rule_refs
from .bots.heuristic import evaluate
from .bots.planner import RoundPlanner
from .content import CARDS, build_board
from .rules.actions import action_space
from .rules.state import FallingSkiesState
from .views import report, tensor, web, web_guide, web_words

if TYPE_CHECKING:
    from spacetable.engine.tensor import Tensor


@register
class FallingSkies(Game):
    id = "falling-skies"
    name = "Under Falling Skies (9-card solo edition)"
    version = "1.0"
    teaching = rule_refs.TEACHING
    min_players = 1
    max_players = 1
    value_scale = 15.0
    option_specs: ClassVar[Mapping[str, OptionSpec]] = {
        "level": OptionSpec(
            None,
            "1 to 8: level N turns the first N-1 cards of the flip order to their hard side",
            kind=int,
            label="Level",
            group="Difficulty",
            choice_labels={None: "1, every card easy"},
        ),
        "hard": OptionSpec(
            None,
            "Instead of a level, the cards to play on their hard side",
            kind=list,
            label="Hard cards",
            group="Difficulty",
            choice_labels=dict(
                zip(CARDS, ("Sky 1", "Sky 2", "Sky 3", "City", "Research", "Base, upper", "Base, lower"), strict=True)
            ),
        ),
        "energy_room": OptionSpec(
            "gain",
            "What an energy room does with its value",
            choices=("gain", "restore"),
            label="Energy rooms",
            group="Rule choices",
            choice_labels={"gain": "Add the value to the energy", "restore": "Raise the energy to the value"},
        ),
        "content": OptionSpec(
            None,
            "Card data laid over the game's cards (content/cards.toml), as a JSON object of the TOML tables",
            kind=dict,
            label="Card data",
            group="For designers",
        ),
    }

    def __init__(self, players: int = 1, options: Mapping[str, JSON] | None = None) -> None:
        super().__init__(players, options)
        try:
            self.board = build_board(self.options["level"], self.options["hard"], self.options["content"])
        except ContentError as exc:
            raise OptionsError(str(exc)) from None
        self.actions = action_space(self.board)
        b = self.board
        dice, whites = len(b.dice), b.dice.count("white")
        per_round = (
            dice
            + whites * (dice - 1)  # rolls, and re-rolls after each white die
            + dice  # placements
            + dice
            + b.robots  # resolutions
            + b.robots  # robot placements
            + b.green_ships
            + b.red_ships  # respawns
        )
        self.max_length = per_round * b.skull_row

    @property
    def level(self) -> int:
        return self.board.level

    def describe(self) -> str:
        hard = ", ".join(self.board.hard) or "none"
        return f"{self.name}, level {self.level} (hard cards: {hard})"

    def new_initial_state(self) -> FallingSkiesState:
        return FallingSkiesState(self)

    def state_from_json(self, data: JSON) -> State:
        return FallingSkiesState.from_json(self, data)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(cast(FallingSkiesState, state))

    def progress(self, state: State, seat: int) -> float:
        """Research and survival: nine tenths for the research spaces passed (of the track), one
        tenth for the rounds survived (of the rounds until the mother ship reaches the skull row).
        Nothing is hidden in this game."""
        s, b = cast(FallingSkiesState, state), self.board
        return 0.9 * min(s.research, len(b.research)) / len(b.research) + 0.1 * min(s.round, b.skull_row) / b.skull_row

    def planner(self) -> Player:
        return RoundPlanner()

    def statistics(self, state: State, moves: Sequence[tuple[int | None, JSON]] = ()) -> dict[str, Statistic]:
        """Per finished game: research, damage, digging and the rooms used (headline figures),
        and each room's uses and win rate (``views.report``)."""
        return report.statistics(cast(FallingSkiesState, state), moves)

    def observation_shape(self) -> tuple[int, ...]:
        return tensor.shape(self)

    def observation_planes(self) -> tuple[int, tuple[int, int, int]]:
        return tensor.planes(self)

    def observation_tensor(self, state: State, seat: int) -> Tensor:
        return tensor.encode(self, state.view(seat))

    def board_svg(self, view: JSON, seat: int | None) -> str | None:
        return web.board_svg(self.board, view, seat, self.seat_names(view)[0])

    def guide(self, view: JSON, seat: int | None, actions: Sequence[Action] = ()) -> str | None:
        return web_guide.guide(self, view, seat, actions)

    def explain_outcome(self, view: JSON, outcome: Outcome, seat: int | None) -> str:
        return web_guide.explain_outcome(self, view, outcome, seat)

    def action_parts(self, action: Action) -> tuple[str, ...]:
        return web.action_parts(action)

    def glossary(self) -> dict[str, str]:
        return web_words.glossary(self.board, self.options)
