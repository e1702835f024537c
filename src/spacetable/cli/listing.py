"""The ``list`` command: every game with its player counts and the options ``play`` accepts."""

from __future__ import annotations

import json

from rich.markup import escape
from rich.table import Table

from spacetable.engine import list_games

from .common import app, guarded, stdout_console


@app.command("list")
@guarded
def list_command() -> None:
    """List the games: id, name, players, and the options `play` accepts."""
    console = stdout_console()
    for cls in list_games():
        span = str(cls.min_players) if cls.min_players == cls.max_players else f"{cls.min_players}-{cls.max_players}"
        usual = f" (usually {cls.default_players})" if cls.default_players else ""
        console.print(
            f"[bold cyan]{escape(cls.id)}[/]  {escape(cls.name)}  [dim]·[/] {span} player{'s' if span != '1' else ''}"
            + usual
        )
        if not cls.option_specs:
            console.print("  [dim]no options[/]")
            continue
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("  option", style="bold", no_wrap=True)
        table.add_column("default", no_wrap=True)
        table.add_column("what it does")
        for name, spec in cls.option_specs.items():
            help_text = spec.help + (f" (one of {', '.join(map(str, spec.choices))})" if spec.choices else "")
            table.add_row(f"  {escape(name)}", escape(json.dumps(spec.default)), escape(help_text))
        console.print(table)
    console.print(
        "[dim]Set options with --option KEY=VALUE (`level`: --level N, `mode`: --mode M, "
        "`content`: --content FILE.toml).[/]"
    )
