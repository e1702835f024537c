"""A new table's request (its game, seats and clock) checked, and the links it is answered with."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from spacetable.agents import AGENTS
from spacetable.engine import Game, Record, SpacetableError, game_class, load, load_finite

from .errors import Refused, one_line

MAX_CLOCK = 7 * 24 * 3600


@dataclass(frozen=True)
class SeatSpec:
    kind: str
    level: str | None = None


@dataclass(frozen=True)
class TableSpec:
    """A checked request for a new table, with its game built; ``start``: the actions (seat, JSON)
    of the record it begins from, which replay (empty: a new game)."""

    game: Game
    seats: tuple[SeatSpec, ...]
    clock: int | None = None
    start: tuple[tuple[int | None, dict[str, Any]], ...] = ()

    @classmethod
    def parse(cls, body: object) -> TableSpec:
        """Check ``{game, players, options, seats, clock?, start?}``; Refused names the first problem."""
        if not isinstance(body, dict):
            raise Refused("the request must be a JSON object {game, players, options, seats}")
        unknown = set(body) - {"game", "players", "options", "seats", "clock", "start"}
        if unknown:
            raise Refused(f"unknown field(s) {sorted(unknown)}; fields: game, players, options, seats, clock, start")
        if body.get("start") is not None:
            return cls._from_record(body)
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
        return cls(game, _seat_specs(body, game), _clock(body))

    @classmethod
    def _from_record(cls, body: dict[str, Any]) -> TableSpec:
        """A table that begins where the record ``body["start"]`` ends: its game, players and
        options are the record's (``game``, ``players`` and ``options`` given beside it must agree)."""
        try:
            record = Record.loads(json.dumps(body["start"]))
            game = record.game()
            final = record.final_state()  # every action applies, the hashes and the digest match
        except (SpacetableError, ValueError, TypeError) as exc:
            raise Refused(one_line(f"'start': {exc}")) from None
        if final.is_terminal():
            raise Refused("'start': the record's game is over, so there is nothing left to play")
        given = {"game": game.id, "players": game.players}
        for field, value in given.items():
            if body.get(field) is not None and body[field] != value:
                raise Refused(f"'{field}' is {body[field]!r:.40} but the record's is {value!r}; leave it out or agree")
        options = body.get("options") or {}
        if not isinstance(options, dict) or any(game.options.get(k, object()) != v for k, v in options.items()):
            raise Refused("'options' must agree with the record's options (or be left out): they come from the record")
        rows = tuple((seat, game.actions.to_json(game.actions.from_json(data))) for seat, data in record.actions)
        return cls(game, _seat_specs(body, game), _clock(body), rows)


def _seat_specs(body: dict[str, Any], game: Game) -> tuple[SeatSpec, ...]:
    seats = body.get("seats")
    if not isinstance(seats, list) or len(seats) != game.players:
        raise Refused(f"'seats' must be a list of {game.players} seat(s), one per player")
    return tuple(_seat_spec(s, i) for i, s in enumerate(seats))


def _clock(body: dict[str, Any]) -> int | None:
    clock = body.get("clock")
    if clock is not None and (type(clock) is not int or not 1 <= clock <= MAX_CLOCK):
        raise Refused(f"'clock' must be null or whole seconds per decision from 1 to {MAX_CLOCK}")
    return clock


def _seat_spec(data: object, seat: int) -> SeatSpec:
    bots = ", ".join(sorted(AGENTS))
    if isinstance(data, dict) and data.get("kind") == "human" and set(data) == {"kind"}:
        return SeatSpec("human")
    if isinstance(data, dict) and data.get("kind") == "bot" and set(data) == {"kind", "level"}:
        level = data["level"]
        if level not in AGENTS:
            raise Refused(f"seat {seat + 1}: unknown bot level {level!r}; levels: {bots}")
        return SeatSpec("bot", level)
    raise Refused(f'seat {seat + 1} must be {{"kind": "human"}} or {{"kind": "bot", "level": one of {bots}}}')


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
