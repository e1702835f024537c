"""Game records: what saves, replays, bug reports and the server's storage are made of.

A record is the game id and version, the player count, the options, who sat
where, and every action in order (chance outcomes included). Replaying it gives
the same states; the final state's digest catches any divergence.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

from .actions import Action
from .errors import IllegalActionError, OptionsError, RecordError
from .protocol import JSON, Game, State
from .registry import load

FORMAT = "spacetable-record"
FORMAT_VERSION = 1


@dataclass
class Record:
    game_id: str
    game_version: str
    players: int
    options: dict[str, JSON]
    seats: list[str]
    actions: list[tuple[int | None, JSON]] = field(default_factory=list)
    """(seat that acted, or None for chance; the action's JSON form)."""
    final_digest: str | None = None
    outcome: dict[str, JSON] | None = None

    @classmethod
    def start(cls, game: Game, seats: list[str]) -> Record:
        return cls(game.id, game.version, game.players, dict(game.options), list(seats))

    def add(self, game: Game, seat: int | None, action: Action) -> None:
        self.actions.append((seat, game.actions.to_json(action)))

    def finish(self, state: State) -> None:
        self.final_digest = state.digest()
        outcome = state.outcome()
        self.outcome = outcome.to_json() if outcome else None

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game_id,
            "game_version": self.game_version,
            "players": self.players,
            "options": self.options,
            "seats": self.seats,
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "final_digest": self.final_digest,
            "outcome": self.outcome,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> Record:
        """Parse a record; a corrupt or foreign file raises RecordError naming the problem."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a spacetable record: the file is not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("not a spacetable record: the 'format' field is missing or different")
        if data.get("format_version") != FORMAT_VERSION:
            raise RecordError(
                f"record format version {data.get('format_version')!r} is not supported "
                f"(this spacetable reads version {FORMAT_VERSION})"
            )
        expected = {"game": str, "game_version": str, "players": int, "options": dict, "seats": list, "actions": list}
        for key, kind in expected.items():
            if type(data.get(key)) is not kind:
                raise RecordError(f"corrupt record: '{key}' must be a {kind.__name__}, got {data.get(key)!r:.60}")
        try:
            actions = [(a["seat"], a["action"]) for a in data["actions"]]
            record = cls(
                game_id=data["game"],
                game_version=data["game_version"],
                players=data["players"],
                options=data["options"],
                seats=data["seats"],
                actions=actions,
                final_digest=data.get("final_digest"),
                outcome=data.get("outcome"),
            )
        except (KeyError, TypeError) as exc:
            raise RecordError(f"corrupt record: a required field is missing or mistyped ({exc!r})") from None
        return record

    def game(self) -> Game:
        try:
            game = load(self.game_id, self.players, self.options)
        except OptionsError as exc:
            raise RecordError(f"the record's game cannot be set up: {exc}") from None
        if game.version != self.game_version:
            raise RecordError(
                f"the record was made with {self.game_id} version {self.game_version}; "
                f"this spacetable has version {game.version}"
            )
        return game

    def replay(self) -> Iterator[State]:
        """Yield the initial state and the state after every action.

        Raises RecordError at the first action that does not apply, and at the
        end if the final state differs from the one recorded.
        """
        game = self.game()
        state = game.new_initial_state()
        yield state
        for number, (seat, data) in enumerate(self.actions, start=1):
            try:
                action = game.actions.from_json(data)
                state.apply_action(action, seat)
            except IllegalActionError as exc:
                raise RecordError(f"action {number} of {len(self.actions)} does not replay: {exc}") from None
            yield state
        if self.final_digest is not None and state.digest() != self.final_digest:
            raise RecordError(
                f"the replay ends in a different position than recorded "
                f"(digest {state.digest()} instead of {self.final_digest})"
            )
        recorded = self.outcome
        outcome = state.outcome()
        if recorded is not None and (outcome is None or outcome.to_json() != recorded):
            raise RecordError(f"the replay's outcome {outcome} differs from the recorded {recorded}")

    def final_state(self) -> State:
        """Replay to the end and return the final state (RecordError on any mismatch)."""
        *_, final = self.replay()
        return final
