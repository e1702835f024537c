"""``spacetable ladder``: the bot levels of a game against each other, as Elo ratings with intervals
(sim/ladder.py does the work and says how)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from spacetable.engine import SpacetableError
from spacetable.sim.ladder import default_bots, ladder_json, markdown, read_ladder, run_ladder

from .common import CliError, app, fail, guarded, progress_bar, stdout_console
from .lab import progress_lines
from .options import GameOptions, Jobs, Players, RayAddress, VariantContent, load_game


@app.command("ladder")
@guarded
def ladder_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="The game's id (see `spacetable list`).")],
    out: Annotated[
        Path, typer.Option(file_okay=False, metavar="DIR", help="The ladder's folder: a Parquet run per match.")
    ],
    games: Annotated[
        int, typer.Option(min=1, metavar="N", help="Games per pair of bots (one player: per bot and level).")
    ] = 40,
    players: Players = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME", help="A bot, weakest first, repeatable (default: every level of the game)."),
    ] = None,
    level: Annotated[
        list[int] | None, typer.Option(metavar="N", help="One player: a level of the game to play, repeatable.")
    ] = None,
    option: GameOptions = None,
    content: VariantContent = None,
    seed: Annotated[int, typer.Option(metavar="N", help="The seed; game i of each match plays with seed:i.")] = 0,
    jobs: Jobs = 1,
    ray: RayAddress = None,
    resume: Annotated[
        bool, typer.Option(help="Continue the ladder in --out: more games, or bots added; finished runs are kept.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON instead of tables.")] = False,
) -> None:
    """Play every pair of bots (seats alternating, each in every seat) and print Elo ratings with 95% intervals.

    In a one-player game: each bot's win rate at each --level, with Wilson intervals.
    """
    try:
        game = load_game(game_id, players, None, content, option, finite=True)  # bots' games must end
        bots = bot or default_bots(game)
        levels = level or ([] if game.players > 1 else [1])
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    console = stdout_console()
    progress = progress_bar(console)
    lines = None
    try:
        with progress:
            task = progress.add_task(game.id, total=None)

            def advance(done: int, total: int) -> None:
                nonlocal lines
                progress.update(task, completed=done, total=total)
                if not console.is_terminal:
                    lines = lines or progress_lines(console, game.id, total)
                    lines(done)

            kept, played = run_ladder(game, bots, games, out, seed, jobs, ray, resume, levels, on_game=advance)
        table = read_ladder(out)
    except KeyboardInterrupt:
        console.print(f"[bold]Interrupted.[/] The finished games are in {escape(str(out))}; --resume plays the rest.")
        raise typer.Exit(130) from None
    except SpacetableError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(ladder_json(table), indent=1))
        return
    again = f" after the {kept} kept" if kept else ""
    console.print(f"{played} games of {game.id} played{again}; the ladder is in {escape(str(out))}.", highlight=False)
    print(markdown(table))
