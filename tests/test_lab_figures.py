"""The games' figures for the balance lab: headline totals that agree with their details, rates
that are rates, the seat that took the first turn found again by replaying the record, and a
real effect (a stronger Mining Drones tile) that the report calls significant."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spacetable.agents import make_agent
from spacetable.engine import JSON, Game, Record, State, Statistic, load, play
from spacetable.games.mothership.content import TECH_FILE
from spacetable.sim.report import compare, summarise
from spacetable.sim.simulate import simulate

Moves = list[tuple[int | None, JSON]]
FAMILIES = ("engine", "weapon", "crew", "xenotech", "countermeasure")
"""Showdown's card families (``content.family``)."""


def played(game: Game, seed: int) -> tuple[State, Moves]:
    """A finished game of random bots and its record's rows."""
    record = Record.start(game, ["random"] * game.players)
    final = play(game, [make_agent("random") for _ in range(game.players)], random.Random(seed), record=record)
    assert final.is_terminal()
    return final, record.actions


def first_turn(game: Game, moves: Moves, begun: Callable[[Any], bool]) -> int:
    """The seat to act at the first position of the replayed record where ``begun`` holds."""
    state = game.new_initial_state()
    for seat, data in moves:
        if begun(state):
            return state.current_player()
        state.apply_action(game.actions.from_json(data), seat)
    raise AssertionError("the first turn never began")


def figures_of(game: Game, seeds: range) -> list[tuple[State, Moves, dict[str, Statistic]]]:
    """Games of ``seeds`` with their figures; every game reports the same figures (a run's columns)."""
    out = [(state, moves, game.statistics(state, moves)) for state, moves in map(lambda s: played(game, s), seeds)]
    assert all(set(figures) == set(out[0][2]) for _, _, figures in out)
    return out


def total(figures: dict[str, Statistic], prefix: str, suffix: str = "") -> float:
    """The sum of the figures named ``prefix...suffix``."""
    return sum(f.value for name, f in figures.items() if name.startswith(prefix) and name.endswith(suffix))


def check_rates(figures: dict[str, Statistic]) -> None:
    """Every rate's successes are between none and all of its cases."""
    for name, figure in figures.items():
        if figure.percent:
            assert 0 <= figure.value <= figure.weight, name


def test_mothership_headline_figures_and_first_player() -> None:
    game = load("mothership", 2, {"layout": "duel", "round_limit": 10})
    content = game.content
    for state, moves, figures in figures_of(game, range(3)):
        headline = {name for name, f in figures.items() if f.headline}
        assert {"cards bought (total)", "cards played (total)", "tech tiers reached (per player)"} <= headline
        assert "resources held at the end (per player)" in headline
        assert not any(name.startswith(("bought: ", "played: ", "win rate, held")) for name in headline)
        check_rates(figures)
        bought = figures["cards bought (total)"].value
        assert bought == total(figures, "bought: ") == total(figures, "cards bought (timing: ")
        played_ = figures["cards played (total)"].value
        assert played_ == total(figures, "played: ") == total(figures, "cards played (timing: ")
        assert bought == sum(state.bought)
        for category in ("economy", "combat", "support"):  # a player climbs one branch a category at most
            picks = [figures[f"pick rate, {b.name} tree"] for b in content.branches if b.category == category]
            assert all(p.headline and p.percent and p.weight == 2 for p in picks)
            assert sum(p.value for p in picks) <= 2
        for branch in content.branches:
            win = figures[f"win rate, {branch.name} tree"]
            assert win.headline and win.weight == figures[f"pick rate, {branch.name} tree"].value
        assert figures["tech tiers reached (per player)"].value == sum(map(sum, state.tiers[:2]))
        # the seats place their fleets first (seat 1 before seat 2); a d6 then picks who starts
        first = first_turn(game, moves, lambda s: s.phase == "turn")
        assert game.first_player(state, moves) == first == state.order_rolls.index(max(state.order_rolls))


def test_mothership_modules_mark_their_totals_headline() -> None:
    options = {"layout": "duel", "round_limit": 6, "mode": "victory_points", "exploration": True}
    game = load("mothership", 2, options | {"beacons": True, "objectives": "hidden"})
    state, moves = played(game, 1)
    figures = game.statistics(state, moves)
    for name in ("victory points per player", "planets explored", "beacon cards drawn (total)"):
        assert figures[name].headline, name
    assert figures["beacon cards drawn (total)"].value == total(figures, "beacon ", ": drawn")
    completed = figures["objectives completed (total)"]
    assert completed.headline and completed.value == total(figures, "objective ", ": taken (completed)")
    check_rates(figures)


@pytest.mark.parametrize("players", [2, 4])
def test_showdown_draft_figures_and_first_player(players: int) -> None:
    game = load("showdown", players, {"fire_round": 4})
    dealt = players * game.content.dealt
    for state, moves, figures in figures_of(game, range(3)):
        check_rates(figures)
        played_ = figures["cards played (total)"]
        families = sum(figures[f"cards played ({f})"].value for f in FAMILIES)
        assert played_.headline and played_.value == total(figures, "played: ") == families
        hull = figures["picks discarded for hull tokens"]
        assert hull.headline and hull.percent and hull.weight == dealt
        assert hull.value == total(figures, "discarded for hull: ") == dealt - played_.value
        assert figures["attacks (total)"].value == sum(1 for s, a in moves if s is not None and a["kind"] == "attack")
        for name, figure in figures.items():
            if name.startswith("win rate, played "):
                assert not figure.headline and figure.weight <= players
        # the draft is simultaneous: the first turn is the showdown's, its first captain drawn
        first = first_turn(game, moves, lambda s: s.phase == "turn")
        assert game.first_player(state, moves) == first == state.first


def test_spacerace_figures_and_first_player() -> None:
    game = load("spacerace", 3, {"turn_limit": 15})
    points = game.content.mothership_points
    for state, moves, figures in figures_of(game, range(3)):
        check_rates(figures)
        draws = figures["treasure cards drawn (total)"]
        assert draws.headline and draws.value == total(figures, "drawn: ")
        assert draws.value == sum(1 for s, a in moves if s is None and a["kind"] == "draw_treasure")
        assert figures["spaceship encounters (total)"].value == total(figures, "encountered: ")
        design = [figures[f"mothership design: {x} (per player)"] for x in "DMA"]
        assert all(f.headline for f in design) and sum(f.value for f in design) == 3 * points
        chosen = [f for name, f in figures.items() if name.startswith("win rate, mothership design [")]
        assert sum(f.weight for f in chosen) == 3 and sum(f.value for f in chosen) == pytest.approx(1)
        # homeworlds are chosen in the order of the d6, and the last to choose starts
        first = first_turn(game, moves, lambda s: s.phase == "move")
        assert game.first_player(state, moves) == first == state.order[-1]
        assert first != next(seat for seat, _ in moves if seat is not None)


def test_falling_skies_room_figures() -> None:
    game = load("falling-skies", 1)
    rooms = {room: f"room {room.id} ({'+'.join(room.effects)})" for room in game.board.rooms}
    for state, moves, figures in figures_of(game, range(3)):
        check_rates(figures)
        used = figures["rooms used (total)"]
        assert used.headline and used.value == total(figures, "used: room ")
        resolved = sum(1 for _, a in moves if a["kind"] == "resolve")
        assert figures["rooms skipped"].weight == resolved
        shoot = sum(figures[f"used: {name}"].value for room, name in rooms.items() if "shoot" in room.effects)
        assert figures["rooms used (shoot)"].value == shoot
        assert figures["research spaces passed"].value == state.research
        won = float(state.result == "won")
        for name in rooms.values():
            rate = figures[f"win rate, used {name}"]
            assert not rate.headline and rate.weight == (figures[f"used: {name}"].value > 0) and rate.value == won
        assert game.first_player(state, moves) is None


@pytest.mark.soak  # two lab runs, about 6 s: CI runs it in make soak
def test_a_stronger_mining_drones_tile_changes_the_cards_bought(tmp_path: Path) -> None:
    """The designer's case: Mining Drones paying far more income must show in the headline total
    of cards bought, however many per-card figures the runs also compare."""
    with TECH_FILE.open("rb") as file:
        tech = tomllib.load(file)["tech"]  # an override replaces the branches' array whole
    drones = next(t for b in tech["branches"] for t in b["tiers"] if t["name"] == "Mining Drones")
    drones["amount"] = 12
    runs = []
    for name, content in (("before", None), ("after", {"tech": tech})):
        game = load("mothership", 2, {"layout": "duel", "round_limit": 10, "content": content})
        simulate(game, ["random", "random"], 25, tmp_path / f"{name}.parquet", seed=5)
        runs.append(summarise(tmp_path / f"{name}.parquet"))
    change = next(c for c in compare(*runs) if c.name == "cards bought (total)")
    assert change.after.value > change.before.value
    assert change.significant, change
