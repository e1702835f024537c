"""The terminal table at 80x24: the compact falling-skies board, the news and the menu fit, nothing wraps."""

from __future__ import annotations

from pathlib import Path

from terminal_helpers import Terminal

COLUMNS, ROWS = 80, 24


def test_a_falling_skies_game_at_80x24_fits_the_screen_and_keeps_the_news_above_the_menu(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "play", "falling-skies", "--seed", "11", rows=ROWS, columns=COLUMNS)
    screens = []
    for answer in ["1", "1", "?", "1", "1", "b", "1", "1", "1", "1"]:
        screens.append(term.prompt())
        term.send(answer)
    screens.append(term.prompt())
    term.send("q")
    term.until("(y/N)")
    term.send("y")
    term.finish()

    played = term.output[: term.output.rindex("Quit this game?")]
    too_wide = [line for line in played.split("\n") if len(line) > COLUMNS]
    assert not too_wide, too_wide  # the terminal never wraps a line
    first_steps = [s for s in screens if "Your move" in s and " FALLING SKIES " in s]
    assert len(first_steps) >= 3
    whole = 0
    for screen in first_steps:
        visible = screen.split("\n")[-ROWS:]  # what the 24 rows show at the prompt
        assert any("Σ sum" in line for line in visible)  # the board to its legend, whatever the menu's length
        board_end = max(i for i, line in enumerate(visible) if "Σ sum" in line)
        menu = max(i for i, line in enumerate(visible) if "Your move" in line)
        assert menu > board_end + 1  # the news between them
        whole += any(" FALLING SKIES " in line for line in visible)
    assert whole >= 3  # with a short menu, the whole board, the news and the menu are on screen
    news = [s for s in first_steps[1:] if "Placed" in s or "Rolled" in s or "before these" in s]
    assert news, first_steps[1]
    help_screen = term.output[term.output.index(" HELP ") :]
    assert "room B1: " in help_screen and "Energy room" in help_screen


def test_each_place_of_a_die_previews_where_the_ships_land() -> None:
    import random

    from spacetable.engine import load
    from spacetable.games.falling_skies.views.render import action_groups

    state = load("falling-skies", 1, {}).new_initial_state()
    rng = random.Random(3)
    while state.phase != "place":
        state.apply_action(state.sample_chance(rng))
    first = action_groups(state, state.legal_actions(0))
    assert first is not None
    places = action_groups(state, first[0][1])  # the second step: the places of one die
    assert places is not None and all(len(group) == 1 for _, group in places)
    for label, (action,) in places:
        after = state.clone()
        after.apply_action(action, 0)
        landed = sorted(set(after.ships) - set(state.ships))
        assert state.action_label(action).endswith(label.partition(" → ")[0])  # the space and its room
        for row, _col, red in landed:  # every ship that moved is named where it landed
            assert f"{'R' if red else 'G'} col" in label and f"row {row}" in label, (label, landed)
        assert (" → " in label) == bool(landed or after.mothership != state.mothership), label
