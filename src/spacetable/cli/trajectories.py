"""``spacetable trajectories``: the lab's bot games as a per-step Parquet dataset for offline RL
(sim/trajectories.py does the work; docs/INTEROP.md, "Datasets" shows the rows and how to read them)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from spacetable.engine import SpacetableError
from spacetable.sim.trajectories import REWARDS, SHARD_GAMES, write_trajectories

from .common import CliError, app, fail, guarded, progress_bar, stdout_console
from .lab import progress_lines
from .options import BotSeats, GameOptions, Players, VariantContent, load_game, parse_seats


@app.command("trajectories")
@guarded
def trajectories_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="The game's id (see `spacetable list`).")],
    out: Annotated[
        Path,
        typer.Option(metavar="DIR", help="The dataset's folder: part-00000.parquet, ... one per shard."),
    ],
    games: Annotated[int, typer.Option(min=1, metavar="N", help="Games in the dataset.")] = 100,
    players: Players = None,
    seat: BotSeats = None,
    option: GameOptions = None,
    content: VariantContent = None,
    seed: Annotated[
        int, typer.Option(metavar="N", help="The seed; game i plays with seed:i, as in `spacetable simulate`.")
    ] = 0,
    jobs: Annotated[int, typer.Option(min=1, metavar="N", help="Processes playing at once, a shard each.")] = 1,
    shard_games: Annotated[int, typer.Option(min=1, metavar="N", help="Games in each shard (file).")] = SHARD_GAMES,
    reward: Annotated[
        str,
        typer.Option(
            metavar="|".join(REWARDS), help="win: each seat's return at the end; shaped: plus its change in progress."
        ),
    ] = "win",
    resume: Annotated[
        bool, typer.Option(help="Continue the dataset in --out (same settings): play only the shards missing.")
    ] = False,
) -> None:
    """Play bot games and write every seat decision (observation, legal codes, action, reward) to Parquet.

    Game i is `spacetable simulate`'s game i with the same seats and seed. The rows: docs/INTEROP.md, "Datasets".
    """
    try:
        game = load_game(game_id, players, None, content, option, finite=True)  # bots' games must end
        bots = [who.partition(":")[2] for who in parse_seats(seat or [], game.players, batch=True)]
    except (CliError, SpacetableError) as exc:
        fail(str(exc))
    console = stdout_console()
    lines = None if console.is_terminal else progress_lines(console, game.id, games)
    progress = progress_bar(console)
    try:
        with progress:
            task = progress.add_task(game.id, total=games)

            def advance(done: int) -> None:
                progress.update(task, completed=done)
                if lines is not None:
                    lines(done)

            kept, played = write_trajectories(
                game, bots, games, out, seed, jobs, resume, shard_games, reward, on_game=advance
            )
    except KeyboardInterrupt:
        console.print(f"[bold]Interrupted.[/] The whole shards are in {escape(str(out))}; --resume plays the rest.")
        raise typer.Exit(130) from None
    again = f" after the {kept} kept" if kept else ""
    console.print(f"{played} games of {game.id} played{again}; {kept + played} games in {escape(str(out))}.")
