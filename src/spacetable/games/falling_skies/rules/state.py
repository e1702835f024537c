"""The falling-skies state: plain data and the protocol; ``dispatch`` hands actions to the chapters.

Rounds run roll -> place -> resolve -> robot -> (mother ship, automatic) -> respawn.
Every die roll is a chance node of its own (six outcomes), so a white die's
re-roll is simply more chance nodes.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from spacetable.engine import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    Event,
    Outcome,
    Roll,
    State,
    check_json_keys,
)
from spacetable.engine.schema import (
    Bool,
    DictOf,
    Int,
    Ints,
    ListOf,
    OneOf,
    Str,
    Tuple,
    per_game,
    probe,
    schema,
    validate,
)

from ..content import SPOT

if TYPE_CHECKING:
    from ..game import FallingSkies
    from . import dispatch as dispatch
else:
    dispatch = None
    """The rules' dispatch (``dispatch``) imports this module, so the package's ``__init__`` binds
    it here once both are loaded: the state imports no rule."""

PHASES = ("roll", "place", "resolve", "robot", "respawn", "over")
DECISIONS = ("place", "resolve", "robot", "respawn")
"""The phases where the player decides (the others: chance rolls, or the game is over)."""
_DIE_OUTCOMES = [(Roll(v), 1 / 6) for v in range(1, 7)]

Ship = tuple[int, int, bool]
"""(row, column, red): row 1.. is the sky, SPOT the starting spot; column 0-based."""


class FallingSkiesState(State):
    __slots__ = (
        "_warnings",
        "board",
        "columns_used",
        "damage",
        "dug",
        "energy",
        "excavator",
        "game",
        "mothership",
        "new_robots",
        "pending",
        "phase",
        "reason",
        "red_supply",
        "research",
        "result",
        "robot_supply",
        "round",
        "ships",
        "slots",
        "to_roll",
        "unplaced",
        "waiting",
    )

    def __init__(self, game: FallingSkies) -> None:
        board = game.board
        self.game = game
        self.board = board
        self._legal_cache = None
        self._warnings: dict[Action, str] | None = None
        """The warned moves of this position (``losing``), worked out when first asked."""
        self.phase = "roll"
        self.round = 1
        self.mothership = 0
        """Sky rows covered by the mother ship card (it starts above row 1)."""
        self.energy = board.energy_start
        self.damage = 0
        self.research = 0
        """Research spaces passed; reaching len(board.research) wins."""
        self.excavator = 0
        """Index of the excavator on board.dig_path."""
        self.ships: list[Ship] = [(SPOT, c, False) for c in range(board.green_ships)]
        self.waiting = [0, 0]
        """Ships on the mother ship card waiting to respawn: [green, red]."""
        self.red_supply = board.red_ships
        self.robot_supply = board.robots
        self.unplaced: list[tuple[str, int]] = []
        self.to_roll: list[str] = list(board.dice)
        self.slots: dict[str, tuple[str, int]] = {}
        """What stands on a base space: (black|white|robot, value)."""
        self.columns_used = 0
        """Bit c set: a die (not a robot) is in column c this round."""
        self.dug = False
        self.new_robots: list[int] = []
        self.pending: list[str] = []
        """Phase 2: the full rooms (by id) not yet resolved this round."""
        self.result = ""
        self.reason = ""

    # ---- protocol -----------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == "roll":
            return CHANCE
        if phase == "over":
            return TERMINAL
        return 0

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(_DIE_OUTCOMES)

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "roll":
            return [a for a, _ in _DIE_OUTCOMES]
        return dispatch.legal_actions(self)

    def _apply(self, action: Action, seat: int) -> list[Event]:
        self._warnings = None
        events: list[Event] = []
        dispatch.apply(self, action, events)
        return events

    def _why_illegal(self, action: Action, actor: int) -> str:
        return dispatch.why_illegal(self, action)

    def action_label(self, action: Action) -> str:
        return dispatch.label(self, action)

    def action_warning(self, action: Action) -> str | None:
        if self._warnings is None:
            self._warnings = dispatch.warnings(self)
        return self._warnings.get(action)

    # ---- results ------------------------------------------------------------
    def returns(self) -> list[float]:
        return [1.0 if self.result == "won" else 0.0]

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        won = self.result == "won"
        return Outcome(winners=(0,) if won else (), reason=self.reason, scores=(float(self.research),))

    def finish(self, result: str, reason: str, events: list[Event]) -> None:
        """End the game now ('won' or 'lost')."""
        self.phase = "over"
        self.result = result
        self.reason = reason
        events.append(Event("game_over", f"{self.game.seat_names()[0]} {result}: {reason}."))

    # ---- derived facts the chapters share ---------------------------------------
    def excavated(self, space: str) -> bool:
        b = self.board
        if space in b.open_at_start:
            return True
        index = b.dig_index.get(space)
        return index is not None and index <= self.excavator

    def ship_at(self, row: int, col: int) -> bool:
        return (row, col, False) in self.ships or (row, col, True) in self.ships

    def take_damage(self, events: list[Event], why: str) -> None:
        self.damage += 1
        events.append(Event("damage", f"The base takes 1 damage ({why}): {self.damage}/{self.board.lose_at_damage}."))
        if self.damage >= self.board.lose_at_damage:
            self.finish("lost", "the base was destroyed", events)

    # ---- information ----------------------------------------------------------
    def to_json(self) -> JSON:
        return {
            "phase": self.phase,
            "round": self.round,
            "mothership": self.mothership,
            "energy": self.energy,
            "damage": self.damage,
            "research": self.research,
            "excavator": self.excavator,
            "ships": [list(s) for s in self.ships],
            "waiting": list(self.waiting),
            "red_supply": self.red_supply,
            "robot_supply": self.robot_supply,
            "unplaced": [list(d) for d in self.unplaced],
            "to_roll": list(self.to_roll),
            "slots": {k: list(v) for k, v in self.slots.items()},
            "columns_used": self.columns_used,
            "dug": self.dug,
            "new_robots": list(self.new_robots),
            "pending": list(self.pending),
            "result": self.result,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, game: FallingSkies, data: JSON) -> FallingSkiesState:
        state = cls(game)
        d: dict[str, Any] = check_json_keys(data, set(state.to_json()), "falling-skies state")
        validate(_schema(game), d, "falling-skies state")
        try:
            if d["phase"] not in PHASES:
                raise ValueError(f"unknown phase {d['phase']!r}")
            for key in (
                "phase",
                "round",
                "mothership",
                "energy",
                "damage",
                "research",
                "excavator",
                "red_supply",
                "robot_supply",
                "columns_used",
                "dug",
                "result",
                "reason",
            ):
                expected = type(getattr(state, key))
                if type(d[key]) is not expected:
                    raise ValueError(f"{key} must be a {expected.__name__}")
                setattr(state, key, d[key])
            state.ships = [(int(r), int(c), bool(red)) for r, c, red in d["ships"]]
            state.waiting = [int(n) for n in d["waiting"]]
            state.unplaced = [(str(color), int(v)) for color, v in d["unplaced"]]
            state.to_roll = [str(c) for c in d["to_roll"]]
            state.slots = {str(k): (str(c), int(v)) for k, (c, v) in d["slots"].items()}
            state.new_robots = [int(v) for v in d["new_robots"]]
            state.pending = [str(r) for r in d["pending"]]
            dispatch.check(state)
        except (TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"falling-skies state: {exc}") from None
        probe(state, "falling-skies state")
        return state

    def view(self, seat: int | None) -> JSON:
        return self.to_json()  # nothing is hidden in this game: the future dice are chance

    def resample(self, seat: int, rng: random.Random) -> FallingSkiesState:
        return self.clone()

    def clone(self) -> FallingSkiesState:
        new = object.__new__(FallingSkiesState)
        new.game = self.game
        new.board = self.board
        new._legal_cache = self._legal_cache
        new._warnings = None
        new.phase = self.phase
        new.round = self.round
        new.mothership = self.mothership
        new.energy = self.energy
        new.damage = self.damage
        new.research = self.research
        new.excavator = self.excavator
        new.ships = self.ships[:]
        new.waiting = self.waiting[:]
        new.red_supply = self.red_supply
        new.robot_supply = self.robot_supply
        new.unplaced = self.unplaced[:]
        new.to_roll = self.to_roll[:]
        new.slots = self.slots.copy()
        new.columns_used = self.columns_used
        new.dug = self.dug
        new.new_robots = self.new_robots[:]
        new.pending = self.pending[:]
        new.result = self.result
        new.reason = self.reason
        return new


@per_game
def _schema(game: FallingSkies) -> type[BaseModel]:
    """The typed schema of a state's JSON: every field's type, range and length (from the board)."""
    b = game.board
    ships = b.green_ships + b.red_ships
    spaces, dice = OneOf(*b.spaces), OneOf(*sorted(set(b.dice) | {"robot"}))
    return schema(
        "FallingSkiesStateJSON",
        {
            "phase": OneOf(*PHASES),
            "round": Int(1, 10**6),
            "mothership": Int(0, b.skull_row),
            "energy": Int(0, b.energy_max),
            "damage": Int(0, b.lose_at_damage),
            "research": Int(0, len(b.research)),
            "excavator": Int(0, max(len(b.dig_path) - 1, 0)),
            "ships": ListOf(Tuple(Int(SPOT, b.sky_rows), Int(0, b.columns - 1), Bool), most=ships),
            "waiting": Ints(0, ships, length=2),
            "red_supply": Int(0, b.red_ships),
            "robot_supply": Int(0, b.robot_max),
            "unplaced": ListOf(Tuple(dice, Int(1, 6)), most=len(b.dice)),
            "to_roll": ListOf(dice, most=len(b.dice)),
            "slots": DictOf(spaces, Tuple(dice, Int(1, 6))),
            "columns_used": Int(0, 2**b.columns - 1),
            "dug": Bool,
            "new_robots": Ints(1, 6, most=b.robot_max),
            "pending": ListOf(OneOf(*b.room_of), most=len(b.rooms)),
            "result": OneOf("", "won", "lost"),
            "reason": Str,
        },
    )
