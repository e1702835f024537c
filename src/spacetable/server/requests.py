"""A new table's request (its game, seats and clock) checked, and the links it is answered with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spacetable.agents import AGENTS
from spacetable.engine import Game, SpacetableError, game_class, load, load_finite

from .errors import Refused, one_line

MAX_CLOCK = 7 * 24 * 3600


@dataclass(frozen=True)
class SeatSpec:
    kind: str
    level: str | None = None


@dataclass(frozen=True)
class TableSpec:
    """A checked request for a new table, with its game built."""

    game: Game
    seats: tuple[SeatSpec, ...]
    clock: int | None = None

    @classmethod
    def parse(cls, body: object) -> TableSpec:
        """Check ``{game, players, options, seats, clock?}``; Refused names the first problem."""
        if not isinstance(body, dict):
            raise Refused("the request must be a JSON object {game, players, options, seats}")
        unknown = set(body) - {"game", "players", "options", "seats", "clock"}
        if unknown:
            raise Refused(f"unknown field(s) {sorted(unknown)}; fields: game, players, options, seats, clock")
        game_id, players, options = body.get("game"), body.get("players"), body.get("options", {})
        if not isinstance(game_id, str):
            raise Refused("'game' must be a game id (see /api/games)")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise Refused("'options' must be a JSON object of option names and values")
        seats = body.get("seats")
        bots_only = (
            isinstance(seats, list)
            and bool(seats)
            and all(isinstance(s, dict) and s.get("kind") == "bot" for s in seats)
        )
        try:
            if players is None:
                players = game_class(game_id).usual_players(options)
            # a table of bots alone must end: the game's finite_options (round limits) fill the options unset
            game = (load_finite if bots_only else load)(game_id, players, options)
        except (SpacetableError, ValueError, TypeError) as exc:  # content validation raises pydantic's ValueError
            raise Refused(one_line(str(exc))) from None
        if not isinstance(seats, list) or len(seats) != game.players:
            raise Refused(f"'seats' must be a list of {game.players} seat(s), one per player")
        clock = body.get("clock")
        if clock is not None and (type(clock) is not int or not 1 <= clock <= MAX_CLOCK):
            raise Refused(f"'clock' must be null or whole seconds per decision from 1 to {MAX_CLOCK}")
        return cls(game, tuple(_seat_spec(s, i) for i, s in enumerate(seats)), clock)


def _seat_spec(data: object, seat: int) -> SeatSpec:
    bots = ", ".join(sorted(AGENTS))
    if isinstance(data, dict) and data.get("kind") == "human" and set(data) == {"kind"}:
        return SeatSpec("human")
    if isinstance(data, dict) and data.get("kind") == "bot" and set(data) == {"kind", "level"}:
        level = data["level"]
        if level not in AGENTS:
            raise Refused(f"seat {seat}: unknown bot level {level!r}; levels: {bots}")
        return SeatSpec("bot", level)
    raise Refused(f'seat {seat} must be {{"kind": "human"}} or {{"kind": "bot", "level": one of {bots}}}')


@dataclass(frozen=True)
class Created:
    """A new table and its links (each human seat's holds the seat's token: shown once, stored hashed)."""

    table: str
    seats: list[dict[str, Any]]

    def link(self, seat: int | None) -> str:
        """The link of ``seat`` if it is a human seat, else the spectators'."""
        links = {s["seat"]: s["link"] for s in self.seats if s["link"]}
        return links.get(seat) or self.spectate

    @property
    def spectate(self) -> str:
        return f"/t/{self.table}"

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "seats": self.seats, "spectate": self.spectate}
