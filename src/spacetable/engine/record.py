"""Game records: what saves, replays, bug reports and the server's storage are made of.

A record is the game id and version, the player count, the options, who sat
where, and every action in order (chance outcomes included) with the seat that
took it (None for chance). Replaying it gives the same states.

Integrity: every action row carries a hash that covers the previous row's hash and
the row itself (the first covers the game, its version, the players and the
options), so an edited, swapped, dropped or inserted action is caught at its own
step, in finished and unfinished records alike; the final state's digest and the
outcome are checked at the end. The hashes catch accidents and casual edits, not a
forger who recomputes them (there is no secret key). A record with no hash on any row
(written before rows had them) still replays, checked by its final digest only.

Secrets: a record holds every chance outcome (every deal, every hidden draw) and
every secret choice, so it is for the table's owner (a server, a local save), never
for a player. :meth:`Record.as_known_by` makes the copy a seat may see.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from .actions import Action
from .errors import IllegalActionError, OptionsError, RecordError
from .protocol import JSON, Game, State, seat_words
from .registry import load
from .safejson import check_plain, read_json, write_atomic

FORMAT = "spacetable-record"
FORMAT_VERSION = 1

MAX_ACTIONS = 200_000
"""More actions than any game lasts (Mothership's max_length is below this)."""
SAMPLED_ALTERNATIVES = 64
"""``as_known_by`` compares an action with at most this many others of its node."""


def _canonical(value: JSON) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def chain_start(
    game_id: str, game_version: str, players: int, options: dict[str, JSON], known_by: int | None = None
) -> str:
    """The hash before the first action: it covers what the game is (seats are names, not covered)
    and, for a seat's copy, whose copy it is, so that no full record's chain passes for a copy's."""
    head: dict[str, JSON] = {"game": game_id, "game_version": game_version, "players": players, "options": options}
    if known_by is not None:
        head["known_by"] = known_by
    return hashlib.sha256(b"spacetable-record\0" + _canonical(head)).hexdigest()[:32]


def chain_next(previous: str, seat: int | None, action: JSON) -> str:
    """The hash of one action row: it covers the previous hash, the seat and the action."""
    row = _canonical({"seat": seat, "action": action})
    return hashlib.sha256(previous.encode() + b"\0" + row).hexdigest()[:32]


@dataclass
class Record:
    game_id: str
    game_version: str
    players: int
    options: dict[str, JSON]
    seats: list[str]
    actions: list[tuple[int | None, JSON]] = field(default_factory=list)
    """(seat that acted, or None for chance; the action's JSON form, or None where hidden)."""
    final_digest: str | None = None
    outcome: dict[str, JSON] | None = None
    hashes: list[str | None] = field(default_factory=list)
    """One per action, as written (``add`` computes it, ``loads`` reads it; ``replay`` checks it)."""
    known_by: int | None = None
    """None: the full record. A seat: the copy of :meth:`as_known_by`, with the actions that seat
    could not see as None, hashed as the copy reads (a hidden action as None) and without the final
    digest (which would let the seat search out what was hidden); it does not replay past its first
    hidden action."""
    seed: int | None = None
    """The seed of the dice and bots the game began with, where its player keeps one (``spacetable
    play``), to tell on resuming; optional (older records have none), not covered by the hashes (as
    the seats are not), and never in a seat's copy (it would tell the hidden draws)."""

    @classmethod
    def start(cls, game: Game, seats: list[str], seed: int | None = None) -> Record:
        return cls(game.id, game.version, game.players, dict(game.options), list(seats), seed=seed)

    def add(self, game: Game, seat: int | None, action: Action) -> None:
        data = game.actions.to_json(action)
        self._fill_hashes()
        previous = self.hashes[-1] if self.hashes else self._start()
        self.actions.append((seat, data))
        self.hashes.append(None if previous is None else chain_next(previous, seat, data))

    def _start(self) -> str:
        return chain_start(self.game_id, self.game_version, self.players, self.options, self.known_by)

    def _fill_hashes(self) -> None:
        """Hashes for actions appended to ``actions`` directly (not through ``add``)."""
        if len(self.hashes) >= len(self.actions):
            del self.hashes[len(self.actions) :]
            self.hashes += [None] * (len(self.actions) - len(self.hashes))
            return
        previous = self.hashes[-1] if self.hashes else self._start()
        for seat, data in self.actions[len(self.hashes) :]:
            previous = None if previous is None else chain_next(previous, seat, data)
            self.hashes.append(previous)

    def finish(self, state: State) -> None:
        self.final_digest = state.digest()
        outcome = state.outcome()
        self.outcome = outcome.to_json() if outcome else None

    def to_json(self) -> dict[str, JSON]:
        self._fill_hashes()
        data: dict[str, JSON] = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game_id,
            "game_version": self.game_version,
            "players": self.players,
            "options": self.options,
            "seats": self.seats,
            "actions": [
                {"seat": s, "action": a} if h is None else {"seat": s, "action": a, "hash": h}
                for (s, a), h in zip(self.actions, self.hashes)
            ],
            "final_digest": self.final_digest,
            "outcome": self.outcome,
        }
        if self.known_by is not None:
            data["known_by"] = self.known_by
        if self.seed is not None:
            data["seed"] = self.seed
        return data

    def dumps(self) -> str:
        """The record as JSON text, one action to a line: readable, and written by the C encoder
        (an ``indent`` would switch to the pure-Python one, several times slower), so that a game
        can be saved after every action."""
        data = self.to_json()
        actions = data.pop("actions")
        assert isinstance(actions, list)
        head = json.dumps(data)
        rows = ",\n".join(json.dumps(row) for row in actions)
        return f'{head[:-1]}, "actions": [\n{rows}\n]}}'

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to ``path`` atomically: a crash or Ctrl-C mid-write leaves the old file
        whole (temporary file in the same folder, then ``os.replace``). OSError on failure."""
        write_atomic(path, self.dumps() + "\n")

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Parse a record; a corrupt, foreign or oversized file raises RecordError naming the problem.

        Limits: 5 MB of text, 32 levels of nesting, integers within ±10¹⁵, no NaN or
        Infinity, at most MAX_ACTIONS actions.
        """
        try:
            data = read_json(text)
        except ValueError as exc:
            raise RecordError(f"not a spacetable record: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("not a spacetable record: the 'format' field is missing or different")
        if data.get("format_version") != FORMAT_VERSION:
            raise RecordError(
                f"record format version {data.get('format_version')!r:.20} is not supported "
                f"(this spacetable reads version {FORMAT_VERSION})"
            )
        expected = {"game": str, "game_version": str, "players": int, "options": dict, "seats": list, "actions": list}
        for key, kind in expected.items():
            if type(data.get(key)) is not kind:
                raise RecordError(f"corrupt record: '{key}' must be a {kind.__name__}, got {data.get(key)!r:.60}")
        if len(data["actions"]) > MAX_ACTIONS:
            raise RecordError(f"corrupt record: {len(data['actions']):,} actions, more than any game lasts")
        if not all(type(name) is str for name in data["seats"]):
            raise RecordError("corrupt record: 'seats' must be a list of strings")
        known_by = data.get("known_by")
        if known_by is not None and type(known_by) is not int:
            raise RecordError(f"corrupt record: 'known_by' must be a seat number, got {known_by!r:.20}")
        seed = data.get("seed")
        if seed is not None and type(seed) is not int:
            raise RecordError(f"corrupt record: 'seed' must be an integer, got {seed!r:.20}")
        digest, outcome = data.get("final_digest"), data.get("outcome")
        if digest is not None and type(digest) is not str:
            raise RecordError(f"corrupt record: 'final_digest' must be a string, got {digest!r:.40}")
        if outcome is not None and type(outcome) is not dict:
            raise RecordError(f"corrupt record: 'outcome' must be an object, got {outcome!r:.40}")
        try:
            actions: list[tuple[int | None, JSON]] = []
            hashes: list[str | None] = []
            for row in data["actions"]:
                actions.append((row["seat"], row["action"]))
                mark = row.get("hash")
                if (mark is not None and type(mark) is not str) or not set(row) <= {"seat", "action", "hash"}:
                    raise RecordError(f"corrupt record: an action row has unexpected fields: {row!r:.80}")
                hashes.append(mark)
            record = cls(
                game_id=data["game"],
                game_version=data["game_version"],
                players=data["players"],
                options=data["options"],
                seats=data["seats"],
                actions=actions,
                final_digest=digest,
                outcome=outcome,
                hashes=hashes,
                known_by=known_by,
                seed=seed,
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise RecordError(f"corrupt record: a required field is missing or mistyped ({exc!r})") from None
        return record

    def game(self) -> Game:
        try:
            check_plain(self.options, "the options")
            game = load(self.game_id, self.players, self.options)
        except (OptionsError, ValueError) as exc:
            flat = " ".join(line.strip() for line in str(exc).splitlines())
            raise RecordError(f"the record's game cannot be set up: {flat}") from None
        if game.version != self.game_version:
            raise RecordError(
                f"the record was made with {self.game_id} version {self.game_version}; "
                f"this spacetable has version {game.version}"
            )
        return game

    def replay(self) -> Iterator[State]:
        """Yield the initial state and the state after every action.

        Raises RecordError at the first action that does not apply (a chance outcome must
        have seat None, a decision the seat that took it), whose hash does not match,
        and at the end if the final state or outcome differs from the one recorded.
        """
        game = self.game()
        state = game.new_initial_state()
        yield state
        total = len(self.actions)
        self._fill_hashes()
        # a full record written before rows had hashes (none at all) replays, checked by its digest
        # only; a seat's copy always has its chain (a full record with `known_by` added has none)
        chained = self.known_by is not None or not (self.hashes and all(mark is None for mark in self.hashes))
        previous = self._start()
        for number, (seat, data) in enumerate(self.actions, start=1):
            where = f"action {number} of {total}"
            if data is None:
                reader = "its reader" if self.known_by is None else f"seat {self.known_by + 1}"
                raise RecordError(f"{where} is hidden from {reader} in this copy of the record: it replays no further")
            try:
                action = game.actions.from_json(data)
                if seat is None and not state.is_chance_node() and not state.is_terminal():
                    raise IllegalActionError(
                        f"a decision is recorded without its seat; waiting for {seat_words(state.awaiting())}"
                    )
                state.apply_action(action, seat)
            except IllegalActionError as exc:
                raise RecordError(f"{where} does not replay: {exc}") from None
            if chained:
                previous = chain_next(previous, seat, data)
                mark = self.hashes[number - 1] if number <= len(self.hashes) else None
                if mark != previous:
                    what = "has no hash" if mark is None else "does not match its hash"
                    raise RecordError(f"{where} {what}: the record was changed after it was written")
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

    # ---- sharing ------------------------------------------------------------------------
    def as_known_by(self, seat: int) -> Record:
        """The copy of this record that ``seat`` may see: every action whose result the seat saw,
        the others (a card dealt to another seat, a secret pick, a face-down draw) as None.

        An action is kept when the seat took it, or when nothing else that could have happened
        at that point would have left the seat with the same view and the same events (so the
        seat could tell it apart; up to SAMPLED_ALTERNATIVES others are compared). In a game
        without hidden information everything is kept. The copy has its own hash chain over what
        it holds (a hidden action hashed as None: a hash of the hidden die roll would be found by
        trying the six faces), so an edit of what it shows is caught; it has no final digest and
        replays only up to its first hidden action; the outcome is public and kept. RecordError
        if the record does not replay.
        """
        if self.known_by is not None:
            raise RecordError(f"this record is already the copy known by seat {self.known_by + 1}")
        game = self.game()
        if type(seat) is not int or not 0 <= seat < game.players:
            raise RecordError(
                f"there is no seat index {seat!r} in this {game.players}-seat game (indices 0 to {game.players - 1})"
            )
        kept: list[tuple[int | None, JSON]] = []
        rng = random.Random(f"as_known_by:{seat}")
        hidden = game.hidden_information
        states = self.replay()
        state = next(states).clone()
        for actor, data in self.actions:
            action = game.actions.from_json(data)
            visible = not hidden or actor == seat or _distinguishable(state, action, actor, seat, rng)
            kept.append((actor, data if visible else None))
            state = next(states).clone()
        for _ in states:  # the end checks (digest, outcome)
            pass
        copy = Record(self.game_id, self.game_version, self.players, dict(self.options), list(self.seats), kept)
        copy.outcome = self.outcome
        copy.known_by = seat
        copy._fill_hashes()
        return copy


def _distinguishable(state: State, action: Action, actor: int | None, seat: int, rng: random.Random) -> bool:
    """Would ``seat`` see a difference between ``action`` and every other action possible here?"""
    others = [a for a in state.legal_actions(actor) if a != action]  # None at a chance node: its outcomes
    if len(others) > SAMPLED_ALTERNATIVES:
        others = rng.sample(others, SAMPLED_ALTERNATIVES)
    real = state.clone()
    events = [e for e in real.apply_action(action, actor) if e.visible_to(seat)]
    view = real.view(seat)
    for other in others:
        alt = state.clone()
        alt_events = [e for e in alt.apply_action(other, actor) if e.visible_to(seat)]
        if alt_events == events and alt.view(seat) == view:
            return False
    return True


__all__ = ["FORMAT", "FORMAT_VERSION", "Record", "chain_next", "chain_start"]
