"""Regression tests of the 'trust at the edges' defects: each test is named after the defect it
pins down and fails on the code before the fix.

Seats and clones, records (seats, hash chain, limits, secrets, atomic saving), states from JSON,
content and options, the command line, and the Mothership resample.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import spacetable
from random_play import advance
from showdown_helpers import apply, new_game, table
from spacetable.engine import (
    SIMULTANEOUS,
    IllegalActionError,
    OptionsError,
    Record,
    RecordError,
    Roll,
    play,
)
from spacetable.engine.record import chain_next, chain_start
from spacetable.games.mothership.game import Mothership
from spacetable.games.showdown.rules.actions import Deploy, Hack
from spacetable.games.spacerace.rules.actions import Homeworld
from spacetable.testing.conformance import RandomPlayer

# ---- clones and resamples share no mutable part -----------------------------------------------


def test_resample_legal_action_list_appended_makes_illegal_homeworld_legal_spacerace() -> None:
    game = spacetable.load("spacerace", 2)
    rng = random.Random(3)
    state = game.new_initial_state()
    advance(state, rng, lambda s: s.phase == "homeworld" and any(h >= 0 for h in s.homeworld))
    taken = next(h for h in state.homeworld if h >= 0)
    seat = state.current_player()
    mine = state.resample(seat, rng).legal_actions(seat)
    with pytest.raises(TypeError, match="cannot be changed"):
        mine.append(Homeworld(taken))
    with pytest.raises(IllegalActionError):
        state.apply_action(Homeworld(taken), seat)
    assert sorted(h for h in state.homeworld if h >= 0) == [taken]


@pytest.mark.parametrize("game_id", ["falling-skies", "spacerace", "showdown", "mothership"])
def test_clone_legal_action_list_mutation_reaches_the_original(game_id: str) -> None:
    state = spacetable.load(game_id).new_initial_state()
    rng = random.Random(1)
    advance(state, rng, lambda s: not s.is_chance_node())
    seat = state.awaiting()[0]
    before = list(state.legal_actions(seat))
    for copy in (state.clone(), state.resample(seat, rng)):
        actions = copy.legal_actions(seat)
        with pytest.raises(TypeError):
            actions.clear()
        with pytest.raises(TypeError):
            actions.pop()
        with pytest.raises(TypeError):
            actions[0] = actions[-1]
        with pytest.raises(TypeError):
            actions += actions
    assert state.legal_actions(seat) == before
    assert list(state.legal_actions(seat)) == before  # a copy to change is one call away


def test_constant_legal_action_lists_are_not_shared_spacerace_standoff() -> None:
    """Spacerace returned module-level lists (contest/flee): appending changed every game."""
    from spacetable.games.spacerace.rules import state as spacerace_state

    before = list(spacerace_state._STANDOFF_CHOICES)
    game = spacetable.load("spacerace", 2)
    state = game.new_initial_state()
    advance(state, random.Random(5), lambda s: s.phase == "standoff" or s.is_terminal())
    if state.phase == "standoff":
        with pytest.raises(TypeError):
            state.legal_actions().append(Homeworld(1))
    assert before == spacerace_state._STANDOFF_CHOICES


# ---- seats are exact ints in range -----------------------------------------------------------


def test_float_seat_at_simultaneous_decision_raised_type_error_showdown() -> None:
    state = spacetable.load("showdown", 3).new_initial_state()
    advance(state, random.Random(2), lambda s: s.current_player() == SIMULTANEOUS)
    action = state.legal_actions(0)[0]
    before = state.to_json()
    for seat in (0.0, True, False, "0", 1.5):
        with pytest.raises(IllegalActionError, match="a seat is an int"):
            state.apply_action(action, seat)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="a seat is an int"):
            state.legal_actions(seat)  # type: ignore[arg-type]
    assert state.to_json() == before


@pytest.mark.parametrize("game_id", ["falling-skies", "spacerace", "mothership"])
def test_bool_and_float_seats_passed_as_seats(game_id: str) -> None:
    state = spacetable.load(game_id).new_initial_state()
    advance(state, random.Random(4), lambda s: not s.is_chance_node())
    seat = state.awaiting()[0]
    action = state.legal_actions(seat)[0]
    for bad in (float(seat), bool(seat), str(seat)):
        with pytest.raises(IllegalActionError, match="a seat is an int"):
            state.apply_action(action, bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="no seat 7"):
        state.apply_action(action, 7)
    state.apply_action(action, seat)


# ---- records ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def showdown_record() -> Record:
    game = spacetable.load("showdown", 3)
    record = Record.start(game, ["random"] * 3)
    play(game, [RandomPlayer() for _ in range(3)], random.Random(8), record=record)
    return record


def _rows(record: Record) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = record.to_json()["actions"]
    return rows


def _with_rows(record: Record, rows: list[dict[str, Any]], **changes: Any) -> Record:
    data = {**record.to_json(), "actions": rows, **changes}
    return Record.loads(json.dumps(data))


def _replay_error(record: Record) -> str:
    with pytest.raises(RecordError) as info:
        list(record.replay())
    return str(info.value)


def test_replay_never_checked_who_moved_seat_none_at_a_decision(showdown_record: Record) -> None:
    rows = _rows(showdown_record)
    number = next(i for i, row in enumerate(rows) if row["seat"] is not None)
    rows[number] = {**rows[number], "seat": None}
    message = _replay_error(_with_rows(showdown_record, rows))
    assert f"action {number + 1} of" in message and "without its seat" in message


def test_replay_of_chance_outcome_with_a_seat_is_refused(showdown_record: Record) -> None:
    rows = _rows(showdown_record)
    rows[0] = {**rows[0], "seat": 0}
    assert "action 1 of" in _replay_error(_with_rows(showdown_record, rows))


def test_swapped_legal_action_reported_replayed_exactly_unfinished_record() -> None:
    """One legal action swapped for another replays fine: only the hash chain catches it, at its step,
    also without a final digest."""
    game = spacetable.load("falling-skies")
    rng = random.Random(4)
    record = Record.start(game, ["random"])
    state = game.new_initial_state()
    swapped = None
    while len(record.actions) < 40:
        seat = None if state.is_chance_node() else 0
        actions = state.legal_actions(seat)
        action = rng.choice(actions)
        if swapped is None and seat == 0 and len(actions) > 1:
            other = next(a for a in actions if a != action)
            swapped = (len(record.actions), game.actions.to_json(other))
        record.add(game, seat, action)
        state.apply_action(action, seat)
    assert swapped is not None
    rows = _rows(record)
    index, other_json = swapped
    rows[index] = {**rows[index], "action": other_json}
    edited = _with_rows(record, rows)
    assert edited.final_digest is None
    message = _replay_error(edited)
    assert message.startswith(f"action {index + 1} of 40") and (
        "does not match its hash" in message or "does not replay" in message
    )


def test_record_edits_are_caught_at_their_step(showdown_record: Record) -> None:
    rows = _rows(showdown_record)
    dropped = rows[:5] + rows[6:]
    assert "action" in _replay_error(_with_rows(showdown_record, dropped, final_digest=None, outcome=None))
    one_unhashed = [*rows[:3], {k: v for k, v in rows[3].items() if k != "hash"}, *rows[4:]]
    assert "action 4 of" in _replay_error(_with_rows(showdown_record, one_unhashed))
    game = spacetable.load("falling-skies", options={"level": 3})
    record = Record.start(game, ["random"])
    play(game, [RandomPlayer()], random.Random(1), record=record)
    other_level = _with_rows(record, _rows(record), options={**record.options, "level": 4})
    assert _replay_error(other_level).startswith("action 1 of")  # the chain starts from the options


def test_replay_of_an_unchanged_record_passes(showdown_record: Record) -> None:
    final = Record.loads(showdown_record.dumps()).final_state()
    assert final.is_terminal()


def test_a_record_saved_before_rows_had_hashes_still_replays_checked_by_its_digest(
    showdown_record: Record,
) -> None:
    unhashed = [{k: v for k, v in row.items() if k != "hash"} for row in _rows(showdown_record)]
    assert _with_rows(showdown_record, unhashed).final_state().is_terminal()
    edited = [*unhashed[:-1], unhashed[-2]]  # the last action repeated instead of the true last one
    assert _replay_error(_with_rows(showdown_record, edited))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, r"nests more than 32 levels"),
        ('{"format": "spacetable-record", "players": ' + "9" * 5000 + "}", r"number"),
        ('{"format": "spacetable-record", "players": 1' + "0" * 30 + "}", r"number"),
        ('{"format": "spacetable-record", "players": NaN}', r"NaN"),
        (" " * (5 * 1024 * 1024 + 1), r"more than the 5,242,880 allowed"),
    ],
    ids=["deep", "huge-int", "big-int", "nan", "oversized"],
)
def test_record_loads_crashed_on_deep_huge_or_oversized_json(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.loads(text)


def test_record_saved_from_a_human_seat_holds_every_opponents_hand(showdown_record: Record) -> None:
    game = showdown_record.game()
    shared = showdown_record.as_known_by(1)
    assert shared.known_by == 1 and shared.final_digest is None
    text = shared.dumps()
    # the copy's chain covers what it shows, a hidden action as None: no hash reveals a secret
    previous = chain_start(shared.game_id, shared.game_version, shared.players, shared.options, 1)
    for (seat, action), mark in zip(shared.actions, shared.hashes):
        previous = chain_next(previous, seat, action)
        assert mark == previous
    hidden = [i for i, (_, a) in enumerate(shared.actions) if a is None]
    assert hidden, "the deals and the other seats' secret picks are hidden"
    # seat 1's own decisions are all kept; the other seats' draft picks are hidden
    states = list(Record.loads(showdown_record.dumps()).replay())
    for i, ((seat, action), (_, full)) in enumerate(zip(shared.actions, showdown_record.actions)):
        if seat == 1:
            assert action == full
        if action is None:
            assert seat != 1
        phase = states[i].to_json()["phase"]
        if phase == "draft" and seat != 1:
            assert action is None, f"seat {seat}'s draft pick at {i} is kept"
    # the copy loads, says who it is for, and replays up to its first hidden action only
    loaded = Record.loads(text)
    assert loaded.known_by == 1
    with pytest.raises(RecordError, match=rf"action {hidden[0] + 1} of .* hidden from seat 2"):
        list(loaded.replay())
    with pytest.raises(RecordError, match="there is no seat"):
        showdown_record.as_known_by(3)
    assert game.hidden_information


def test_a_full_record_with_known_by_added_keeps_its_checks(showdown_record: Record) -> None:
    """Issue 37: adding ``"known_by"`` to a full record switched its hash chain off, so an edited
    die roll replayed without an error. The copy's chain starts from whose copy it is, so the
    full record's hashes fail at once, and without hashes a copy does not replay."""
    data = json.loads(showdown_record.dumps())
    data["known_by"] = 0
    with pytest.raises(RecordError, match=r"^action 1 of \d+ does not match its hash: the record was changed"):
        list(Record.loads(json.dumps(data)).replay())
    for row in data["actions"]:
        row.pop("hash")
    with pytest.raises(RecordError, match=r"^action 1 of \d+ has no hash: the record was changed"):
        list(Record.loads(json.dumps(data)).replay())


def test_an_edit_of_what_a_seat_s_copy_shows_is_caught() -> None:
    game = spacetable.load("falling-skies")
    record = Record.start(game, ["random"])
    play(game, [RandomPlayer()], random.Random(2), record=record)
    data = json.loads(record.as_known_by(0).dumps())
    first = data["actions"][0]["action"]
    data["actions"][0]["action"] = {**first, "value": first["value"] % 6 + 1}  # another face of the first die
    with pytest.raises(RecordError, match=r"^action 1 of \d+ does not match its hash"):
        list(Record.loads(json.dumps(data)).replay())


def test_as_known_by_keeps_everything_in_a_game_without_secrets() -> None:
    game = spacetable.load("falling-skies")
    record = Record.start(game, ["random"])
    play(game, [RandomPlayer()], random.Random(2), record=record)
    shared = record.as_known_by(0)
    assert shared.actions == record.actions
    assert Record.loads(shared.dumps()).final_state().is_terminal()


def test_record_written_non_atomically_over_the_file_being_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = spacetable.load("falling-skies")
    record = Record.start(game, ["random"])
    play(game, [RandomPlayer()], random.Random(2), record=record)
    path = tmp_path / "game.json"
    record.save(path)
    old = path.read_text()
    assert Record.loads(old).final_state().is_terminal()

    import os

    def crash(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    record.seats = ["someone else"]
    with pytest.raises(KeyboardInterrupt):
        record.save(path)
    assert path.read_text() == old  # the old file is whole
    assert list(tmp_path.iterdir()) == [path]  # and no temporary file is left behind


# ---- states from JSON -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mothership_turn() -> tuple[Any, dict[str, Any]]:
    game = spacetable.load("mothership", 4, {"round_limit": 10})
    state = game.new_initial_state()
    advance(state, random.Random(6), lambda s: s.phase == "turn" and not s.is_chance_node())
    return game, state.to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hp"].__setitem__(0, -5), r"hp\[0\]"),
        (lambda d: d["hands"].__setitem__(1, sorted(d["hands"][1] + [0] * 12)), r"action cards are not conserved"),
        (lambda d: d.__setitem__("turn", 9), r"turn: Input should be less than or equal to 3"),
        (lambda d: d.__setitem__("board_seed", 5000), r"board_seed"),
        (lambda d: d.__setitem__("resources", [10**9] * 4), r"resources\[0\]"),
        (lambda d: d.__setitem__("round", True), r"round: Input should be a valid integer"),
        (lambda d: d["deck"].__setitem__(3, 10**9), r"deck\[3\]"),
        (lambda d: d.__setitem__("pending", "x"), r"pending"),
    ],
    ids=[
        "hull-5",
        "twelve-cards",
        "turn-9-of-4",
        "seed-out-of-range",
        "count-1e9",
        "bool-round",
        "deck-1e9",
        "pending-x",
    ],
)
def test_mothership_state_from_json_accepted_what_then_crashed(
    mothership_turn: tuple[Any, dict[str, Any]], change: Any, message: str
) -> None:
    game, data = mothership_turn
    data = json.loads(json.dumps(data))
    game.state_from_json(data)  # the unchanged state loads
    change(data)
    with pytest.raises(ValueError, match=message) as info:
        game.state_from_json(data)
    assert str(info.value).startswith("mothership state: ") and "\n" not in str(info.value)


def test_showdown_state_from_json_pending_x_raised_attribute_error() -> None:
    game = spacetable.load("showdown", 3)
    state = game.new_initial_state()
    advance(state, random.Random(2), lambda s: s.phase == "turn")
    data = state.to_json()
    data["pending"] = "x"
    with pytest.raises(ValueError, match=r"showdown state: pending"):
        game.state_from_json(data)
    data["pending"] = None
    data["intact"] = [-3, 5, 5]
    with pytest.raises(ValueError, match=r"intact\[0\]"):
        game.state_from_json(data)


@pytest.mark.parametrize("game_id", ["falling-skies", "spacerace", "showdown", "mothership"])
def test_mutated_states_accepted_then_crashed(game_id: str) -> None:
    """A small fixed sample of one-field mutations of real states: each is refused with one ValueError
    line, or plays on for 30 actions without any other exception (tests/test_fuzz.py and `make fuzz`
    run more)."""
    from spacetable.testing.fuzz import fuzz_state, mutate, sample_states

    game = spacetable.load_finite(game_id, options={"round_limit": 10} if game_id == "mothership" else None)
    states = sample_states(game, 1, every=11)
    rng = random.Random(f"mutants:{game_id}")
    for i in range(40):
        fuzz_state(game, mutate(rng.choice(states).to_json(), rng), random.Random(i))


# ---- what the long fuzz run (benchmarks/fuzz_soak.py) found: loaded, then crashed -------------

EXPANSION = {"neutron_stars": True, "black_holes": True, "beacons": True, "exploration": True, "objectives": "hidden"}


def _state_where(game_id: str, players: int, options: dict[str, Any], seed: int, until: Any) -> tuple[Any, Any]:
    game = spacetable.load(game_id, players, options or None)
    return game, advance(game.new_initial_state(), random.Random(seed), until)


def _in_a_dogfight(s: Any) -> bool:
    return s.phase == "turn" and s.pending is not None and s.pending["what"] == "dogfight"


def _showdown_rolled(s: Any) -> bool:
    return s.pending is not None and s.pending.get("stage") == "roll" and bool(s.pending.get("a"))


def _choosing(s: Any) -> bool:
    return s.phase == "turn" and s.choice is not None


def _players_turn(s: Any) -> bool:
    return s.phase == "turn" and s.pending is None and s.current_player() == s.turn == 0


def _card(key: str) -> int:
    """The index of a Mothership action card in the standard content."""
    return Mothership(2).card_index[key]


def _showdown_at(stage: str, kind: str) -> Any:
    return lambda s: s.pending is not None and s.pending.get("stage") == stage and s.pending.get("kind") == kind


@pytest.mark.parametrize(
    ("game_id", "players", "options", "until", "change", "message"),
    [
        ("mothership", 3, EXPANSION, lambda s: s.phase == "turn", lambda d: d.update(flipping=9), "flipping"),
        ("mothership", 3, EXPANSION, lambda s: s.phase == "turn", lambda d: d.update(event_roll=[12]), "event_roll"),
        ("mothership", 3, EXPANSION, lambda s: s.phase == "turn", lambda d: d.update(exploring=99), "exploring"),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"].update(rolls=[1, 2, 3, 4, 5, 6, 1, 2]), "rolls"),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"].update(what="x"), "pending.what"),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"].update(asker=None), "pending.asker"),
        (
            "mothership",
            3,
            {},
            lambda s: s.phase == "turn",
            lambda d: d.update(effects=[["x", 0, 0, 0, "end", 0]]),
            "effects",
        ),
        ("showdown", 3, {}, _showdown_at("roll", "attack"), lambda d: d["pending"].update(at=["a", 7]), "pending.at"),
        ("showdown", 3, {}, _showdown_at("roll", "attack"), lambda d: d["pending"].update(die=11), "pending.die"),
        (
            "showdown",
            3,
            {},
            _showdown_at("roll", "attack"),
            lambda d: d["pending"].update(success=0),
            "succeeding on 0",
        ),
        ("showdown", 3, {}, _showdown_at("roll", "attack"), lambda d: d["pending"].update(stage=""), "pending.stage"),
        ("showdown", 3, {}, _showdown_at("roll", "attack"), lambda d: d["pending"].update(stage="loot"), "no stage"),
        (
            "showdown",
            3,
            {},
            _showdown_at("mode", "board"),
            lambda d: d["pending"].update(crew="pilot", target=0),
            "boarder",
        ),
        ("showdown", 3, {}, lambda s: s.phase == "turn", lambda d: d["burns"].__setitem__(1, "x"), "burns"),
        ("mothership", 3, {}, lambda s: s.phase == "turn", lambda d: d.update(reward=[0]), "reward"),
        ("mothership", 2, {}, lambda s: s.phase == "turn", lambda d: d.update(stations=[]), "stations"),
        ("mothership", 2, {}, lambda s: s.phase == "turn", lambda d: d["tiers"][1].__setitem__(2, 5), "tiers"),
        ("mothership", 3, EXPANSION, lambda s: s.phase == "turn", lambda d: d.update(artifacts=[]), "artifacts"),
        ("mothership", 1, {}, lambda s: s.phase == "turn", lambda d: d["resources"].__setitem__(1, 1000), "NPC"),
        (
            "mothership",
            1,
            {},
            _players_turn,
            lambda d: d.update(turn=1),
            "seat 1 is to act",
        ),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"]["dice"].__setitem__(0, 99), "pending.dice"),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"].update(ships=[]), "0 ships"),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"].update(target=1000), "names no unit"),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"].update(rolls=[0]), "rolls"),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d["pending"].update(dice=[]), "rolls 0 dice"),
        (  # a roll-again card (The Forks) waits out its cancel window before any die is rolled
            "mothership",
            3,
            {},
            lambda s: _in_a_dogfight(s) and s.pending["asker"] == 0 and not s.pending["rolls"],
            lambda d: d.update(playing=[d["pending"]["seat"], _card("the_forks"), 0, 0], cancel=[(d["turn"] + 1) % 3]),
            "not a card the side asked",
        ),
        ("mothership", 3, {}, _in_a_dogfight, lambda d: d.update(trading=[(d["turn"] + 1) % 3]), "trading"),
        (
            "mothership",
            3,
            {},
            lambda s: s.phase == "turn",
            lambda d: d.update(playing=[0, 1000, 0, 0], cancel=[1]),
            "playing",
        ),
        (
            "mothership",
            4,
            {"mode": "victory_points"},
            lambda s: bool(s.respawns),
            lambda d: d["respawns"][0].__setitem__(1, 9),
            "respawns",
        ),
        ("mothership", 2, {}, lambda s: s.phase == "turn", lambda d: d.update(cancel=[1]), "cancel"),
        ("mothership", 4, {}, lambda s: s.phase == "turn", lambda d: d.update(steal=[0]), "steal"),
        ("mothership", 4, {}, lambda s: s.phase == "turn", lambda d: d.update(steal=[1, 1]), "blind steal"),
        ("mothership", 2, {}, lambda s: s.phase == "turn", lambda d: d.update(objective_draws=[1]), "objective_draws"),
        ("mothership", 3, {}, lambda s: s.phase == "board", lambda d: d["pos"][2].__setitem__(5, 0), "pos"),
        ("mothership", 3, {}, lambda s: s.phase == "order", lambda d: d.update(phase="place"), "still place"),
        ("mothership", 2, {}, lambda s: s.phase == "turn", lambda d: d["stations"].reverse(), "stations"),
        ("mothership", 3, EXPANSION, lambda s: s.phase == "turn", lambda d: d.update(beacon_draw=[1]), "beacon_draw"),
        ("mothership", 3, EXPANSION, _choosing, lambda d: d["choice"]["options"].__setitem__(0, -1), "choice.options"),
        ("showdown", 3, {}, _showdown_at("roll", "attack"), lambda d: d["pending"].update(at=[]), "at names no die"),
        ("showdown", 3, {}, _showdown_rolled, lambda d: d["pending"].update(an=0), "more than its an"),
        ("showdown", 3, {}, _showdown_at("commit", "attack"), lambda d: d["pending"].update(actor=-1), "actor -1"),
        ("showdown", 3, {}, lambda s: s.phase == "draft", lambda d: d.update(draft_round=0), "draft_round"),
        (
            "showdown",
            3,
            {},
            lambda s: s.phase == "deal" and s.draft_round == 2,
            lambda d: d.update(draft_round=1),
            "too few to deal",
        ),
        ("showdown", 3, {}, lambda s: s.phase == "draft", lambda d: d.update(picked=[True] * 3), "nobody is to act"),
        ("showdown", 3, {}, lambda s: s.phase == "turn", lambda d: d["intact"].__setitem__(0, 0), "not destroyed"),
        ("showdown", 4, {}, lambda s: bool(s.boarders), lambda d: d["boarders"][0].__setitem__(1, ""), "boarders"),
        ("showdown", 4, {}, lambda s: bool(s.boarders), lambda d: d["boarders"].append(d["boarders"][0]), "aboard"),
        ("spacerace", 3, {}, lambda s: s.phase == "rebuild", lambda d: d.update(rebuilding=[False] * 3), "rebuild"),
        ("falling-skies", 1, {}, lambda s: s.phase == "place", lambda d: d.update(mothership=12), "mother ship"),
        ("falling-skies", 1, {}, lambda s: s.phase == "roll", lambda d: d.update(to_roll=[]), "no die is left"),
        ("falling-skies", 1, {}, lambda s: s.phase == "place", lambda d: d["ships"][0].__setitem__(0, 16), "ships"),
        ("falling-skies", 1, {}, lambda s: s.phase == "place", lambda d: d.update(phase="robot"), "no new robot"),
        ("falling-skies", 1, {}, lambda s: s.phase == "place", lambda d: d.update(pending=["B5"]), "pending room B5"),
    ],
)
def test_states_the_long_fuzz_run_found_loaded_then_crashed(
    game_id: str, players: int, options: dict[str, Any], until: Any, change: Any, message: str
) -> None:
    game, state = _state_where(game_id, players, options, 3, until)
    data = json.loads(json.dumps(state.to_json()))
    game.state_from_json(data)  # the unchanged state loads
    change(data)
    with pytest.raises(ValueError, match=message) as info:
        game.state_from_json(data)
    assert "\n" not in str(info.value)


def test_a_mothership_state_with_a_guardian_cannon_round_trips() -> None:
    """A deployed cannon stands on the grid as its fleet's unit 14: the check took it for a ship
    off the fleet and refused every such state of a real game."""
    from spacetable.games.mothership.modules import cannons

    game, state = _state_where("mothership", 3, EXPANSION, 4, lambda s: s.phase == "turn" and s.pending is None)
    seat = state.turn
    cannons.deploy(state, seat, cannons.spaces(state, seat)[0], [])
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()


# ---- the command line -------------------------------------------------------------------------


def _cli(*args: str, stdin: str | None = None) -> Any:
    from typer.testing import CliRunner

    from spacetable.cli.main import app

    result = CliRunner().invoke(app, list(args), input=stdin)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def _one_line_error(result: Any, *words: str) -> None:
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.output
    for word in words:
        assert word in result.output, result.output


@pytest.mark.parametrize(
    ("text", "word"),
    [("[" * 50_000 + "]" * 50_000, "nests"), ('{"format": 1' + "0" * 5000 + "}", "number")],
    ids=["deeply-nested", "huge-number"],
)
def test_cli_printed_tracebacks_on_deep_or_huge_record_json(tmp_path: Path, text: str, word: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    for args in (("replay", str(path)), ("play", "falling-skies", "--resume", str(path))):
        result = _cli(*args)
        assert result.exit_code == 2
        _one_line_error(result, word)


def _saved_game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = _cli("play", "spacerace", "--seed", "3", "--record", str(path), stdin="q\ny\n")
    assert result.exit_code == 0 and path.exists(), result.output
    return path


@pytest.mark.parametrize(
    ("seats", "word"),
    [
        (["bot:nosuch", "human", "bot:random"], "neither human nor a known bot"),
        (["human"] * 5, "5 seat"),
        (["human"], "1 seat"),
    ],
    ids=["bot-nosuch", "five-seats", "too-few"],
)
def test_cli_resume_with_bad_seats_printed_tracebacks(tmp_path: Path, seats: list[str], word: str) -> None:
    path = _saved_game(tmp_path)
    data = json.loads(path.read_text())
    data["seats"] = seats
    path.write_text(json.dumps(data))
    result = _cli("play", "spacerace", "--resume", str(path))
    assert result.exit_code == 2
    _one_line_error(result, word)


@pytest.mark.parametrize(
    ("game_id", "option", "word"),
    [
        ("spacerace", "nexus_delay=null", "cannot be null"),
        ("mothership", "level=null", "cannot be null"),
        ("spacerace", "turn_limit=1000000000", "sane bound"),
        ("spacerace", "turn_limit=" + "[" * 20 + "]" * 20, "nests"),
    ],
    ids=["nexus-delay-null", "level-null", "turn-limit-1e9", "nested-option"],
)
def test_cli_options_given_as_null_skipped_the_type_check(game_id: str, option: str, word: str) -> None:
    result = _cli("play", game_id, "--games", "1", "-o", option)
    assert result.exit_code == 2
    _one_line_error(result, word)


def test_play_saves_the_record_after_every_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record was written only at the end: a crash mid-game lost it. Now every action is saved,
    atomically, so the file always holds a record that replays."""
    from spacetable.engine import match

    path = tmp_path / "game.json"
    calls = {"n": 0}
    real_step = match.step

    def crashing_step(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 30:
            raise RuntimeError("the power went out")
        return real_step(*args, **kwargs)

    monkeypatch.setattr(match, "step", crashing_step)
    result = _cli("play", "falling-skies", "--seat", "0=bot:random", "--seed", "1", "--record", str(path))
    assert result.exit_code == 3
    _one_line_error(result, "internal error", "the power went out")
    saved = Record.loads(path.read_text())
    assert len(saved.actions) == 29
    assert len(list(saved.replay())) == 30


def test_play_games_lost_its_summary_when_a_game_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    cli_main = importlib.import_module("spacetable.cli.main")
    real_play = cli_main.play
    calls = {"n": 0}

    def flaky_play(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise IndexError("a bug in the rules")
        return real_play(*args, **kwargs)

    monkeypatch.setattr(cli_main, "play", flaky_play)
    result = _cli("play", "falling-skies", "--games", "3", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "Game 2 failed with seed" in result.output and "IndexError: a bug in the rules" in result.output
    assert "2 games of falling-skies" in result.output and "1 failed" in result.output


# ---- Mothership: Replicator's secret d4 ------------------------------------------------------------


def test_mothership_resample_kept_the_true_resources_after_replicators_secret_d4() -> None:
    game = spacetable.load("mothership", 2, {"round_limit": 10})
    state = game.new_initial_state()
    advance(state, random.Random(6), lambda s: s.phase == "turn" and not s.is_chance_node())
    from spacetable.games.mothership.rules import cards

    state.pending = {"what": "replicator", "seat": 1, "ships": [], "target": -1, "dice": [4], "rolls": [3]}
    state.resources[1] = before = 60  # rich: every re-roll leaves the same trade options (RULINGS 35)
    cards.replicate(state, [])
    assert state.resources[1] == before + 3 and state.secret[1] == [1, 3]
    assert state.view(0)["secret"][1] == [1, None] and state.view(1)["secret"][1] == [1, 3]
    seen = {state.resample(0, random.Random(i)).resources[1] for i in range(40)}
    assert seen == {before + 1, before + 2, before + 3, before + 4}  # re-rolled, not the true count
    assert {state.resample(1, random.Random(i)).resources[1] for i in range(10)} == {before + 3}
    loaded = game.state_from_json(state.to_json())
    assert loaded.to_json() == state.to_json()


def test_mothership_resample_kept_which_card_kinds_others_bought() -> None:
    """Cards are bought blind and seen by their buyer only; the count of each kind bought (kept
    for reports) told a resample's reader what the others had drawn."""
    game = spacetable.load("mothership", 2, {"round_limit": 20})
    state = advance(game.new_initial_state(), random.Random(3), lambda s: sum(s.bought_kinds) > 0)
    assert state.view(0)["bought_kinds"] is None
    assert not any(state.resample(0, random.Random(1)).bought_kinds)


# ---- content and options checked at load ---------------------------------------------------------


def test_falling_skies_energy_max_1e8_passed_validation() -> None:
    from spacetable.engine import ContentError

    with pytest.raises((ContentError, OptionsError), match="energy_max"):
        spacetable.load("falling-skies", options={"content": {"rules": {"energy_max": 10**8}}})


def test_showdown_card_counts_of_1e9_passed_validation() -> None:
    from spacetable.engine import ContentError

    with pytest.raises((ContentError, OptionsError), match="engine"):
        spacetable.load("showdown", 3, {"content": {"cards": {"engine": {"3": 10**9}}}})


def test_mothership_small_board_with_five_players_failed_at_the_first_chance_node() -> None:
    from spacetable.engine import OptionsError

    for players in (5, 6):
        with pytest.raises(OptionsError, match="small board"):
            spacetable.load("mothership", players, {"board": "small"})
    spacetable.load("mothership", 4, {"board": "small"})


def test_mothership_solo_layout_without_its_fleet_failed_mid_game() -> None:
    from spacetable.engine import OptionsError

    game = spacetable.load("mothership", 1, {"mode": "solo"})
    layout = game.content.layouts["solo_belt"]
    broken = [row.replace("F", ".") for row in layout.rows]
    with pytest.raises(OptionsError, match=r"solo layout 'solo_belt'.*F"):
        spacetable.load("mothership", 1, {"mode": "solo", "content": {"layouts": {"solo_belt": {"rows": broken}}}})


def test_record_with_a_content_override_of_1e9_hull_exhausted_memory_on_replay(showdown_record: Record) -> None:
    data = showdown_record.to_json()
    data["options"] = {"content": {"rules": {"start_hull": 10**9}}}
    text = json.dumps(data)
    assert len(text) < 200_000
    record = Record.loads(text)
    with pytest.raises(RecordError, match=r"cannot be set up: .*start_hull"):
        list(record.replay())


def test_showdown_clone_shared_the_reroll_queue_lists_of_pending() -> None:
    """Found by check_clone_independence at 4 and 6 seats: the clone copied ``pending`` one level
    deep, so a re-roll queue entry ([side, why]) was one list in both states."""
    state = spacetable.load("showdown", 3).new_initial_state()
    advance(state, random.Random(2), lambda s: s.phase == "turn")
    state.pending = {"actor": 0, "kind": "attack", "stage": "roll", "rr": [["a", "forced"]], "a": [3]}
    for copy in (state.clone(), state.resample(1, random.Random(0))):
        assert copy.pending is not None
        copy.pending["rr"][0].append("mutated")
        copy.view(0)["pending"]["rr"][0].append("mutated")
    assert state.pending["rr"] == [["a", "forced"]]


def test_a_hacking_token_a_boosted_scrambler_reflected_onto_its_owner_loads() -> None:
    """The reflected token lies on its owner's own ship (the rules put it there), and loads."""
    state = table(
        [{"engine": 1}, {"hacking": 1, "engine": 2}, {}],
        cms=[["frequency_scrambler"], [], []],
        energy=[2, 4, 0],
        active=1,
        game=new_game(3),
    )
    apply(state, Hack(0, "engine"), Deploy(0, True))
    assert [(t.owner, t.target) for t in state.tokens] == [(1, 1)]
    placed = Counter(state.pile) + Counter(k for mat in state.mats for k, n in mat.items() for _ in range(n))
    placed += Counter(s.card for slots in state.cms for s in slots)
    state.deck = dict(Counter(state.content.deck) - placed)  # the cards no ship holds, to conserve them
    loaded = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.tokens == state.tokens


def test_a_pending_xenotech_names_what_it_can_disable() -> None:
    """A mutated state waiting on a hack of nothing ("") loaded, then broke when a boosted
    Frequency Scrambler looked for the attacker's card of the same kind (long fuzz run, seed 4)."""
    game, state = _state_where("showdown", 3, {}, 21, _showdown_at("react", "xeno"))
    data = json.loads(json.dumps(state.to_json()))
    game.state_from_json(data)
    data["pending"].update(xeno="hacking", card="")
    with pytest.raises(ValueError, match="cannot disable"):
        game.state_from_json(data)


def test_a_falling_skies_state_with_one_die_too_many_to_roll_is_refused() -> None:
    """Issue 37: an extra die in ``to_roll`` was accepted and led to a state the loader refused."""
    game = spacetable.load("falling-skies")
    state = game.new_initial_state()
    state.apply_action(Roll(4))
    state.apply_action(Roll(2))  # two dice rolled, three to roll
    data = state.to_json()
    assert game.state_from_json(data).to_json() == data and len(data["to_roll"]) == 3
    for extra in ("black", "white"):
        bad = {**data, "to_roll": [*data["to_roll"], extra]}
        with pytest.raises(
            ValueError, match=r"^falling-skies state: 4 dice to roll and 2 to place: more than the round's 5"
        ):
            game.state_from_json(bad)


def test_a_spacerace_content_override_with_thousands_of_starways_is_refused_in_one_line() -> None:
    """Issue 37: 30,000 starway cards made a record over the 5 MB ``Record.loads`` reads (34 s to
    load); options that large are refused when the game is set up, before the content is read."""
    deck = [{"tiles": "T...", "count": 1}] * 30_000
    with pytest.raises(OptionsError, match=r"^spacerace: the options are [\d,]+ bytes as JSON, more than the 256,000"):
        spacetable.load("spacerace", 2, {"content": {"starways": {"sparse": deck}}})
    small = spacetable.load("spacerace", 2, {"content": {"starways": {"sparse": deck[:50]}}})
    assert small.options["content"] == {"starways": {"sparse": deck[:50]}}


def first_mothership_state(seed: int, wanted: Any) -> dict[str, Any]:
    """The JSON of the first position of a random two-player game (seed ``seed``) where ``wanted``."""
    state = spacetable.load("mothership", 2).new_initial_state()
    rng = random.Random(seed)
    while not wanted(state):
        assert not state.is_terminal(), "the game ended before the position"
        seat = None if state.is_chance_node() else state.awaiting()[0]
        action = state.sample_chance(rng) if seat is None else rng.choice(state.legal_actions(seat))
        state.apply_action(action, seat)
    return state.to_json()


@pytest.mark.parametrize(
    ("seed", "wanted", "change", "message"),
    [
        (0, lambda s: s.playing and s.pending is None, lambda d: d["playing"].__setitem__(1, 0), r"not a turn card"),
        (1, lambda s: s.playing and s.pending is None, lambda d: d["playing"].__setitem__(2, -1), r"not a turn card"),
        (37, lambda s: s.playing and s.pending, lambda d: d["playing"].__setitem__(1, 1), r"not a card the side"),
        (0, lambda s: s.pending and s.pending["what"] == "asteroid", lambda d: d["pending"].pop("passes"), "passes"),
        (0, lambda s: s.pending and s.pending["what"] == "dogfight", lambda d: d["pending"].pop("mods"), "lacks mods"),
        (
            0,
            lambda s: s.pending and s.pending.get("stage") == "lost",
            lambda d: d["pending"].pop("result"),
            "lacks result",
        ),
        (
            0,
            lambda s: s.pending and s.pending.get("stage") == "rolled" and s.pending["what"] == "asteroid",
            lambda d: d["pending"].pop("stage"),
            "lacks stage",
        ),
    ],
    ids=["turn-card-0", "turn-card-target", "dogfight-card", "no-passes", "no-mods", "no-result", "no-stage"],
)
def test_a_mothership_pending_roll_or_waiting_card_that_crashed_a_later_move_is_refused(
    seed: int, wanted: Any, change: Any, message: str
) -> None:
    """Issue 37: a ``pending`` without ``mods`` (or another part its stage needs), or ``playing``
    naming a card that cannot be played there, loaded and crashed on a later legal move."""
    game = spacetable.load("mothership", 2)
    data = first_mothership_state(seed, wanted)
    game.state_from_json(data)
    change(data)
    with pytest.raises(ValueError, match=message) as info:
        game.state_from_json(data)
    assert str(info.value).startswith("mothership state: ") and "\n" not in str(info.value)
