"""A designer's own per-game figure (``spacetable report --figure NAME=EXPR``): a duckdb SQL
expression evaluated on each row of a run, e.g. ``"value: bought: Prod" + "value: played: Prod"``.

The expression sees the run's columns only (quoted where they hold spaces): the connection is
in memory and may read no file.
"""

from __future__ import annotations

from typing import Any

from .simulate import RunError


def per_game(table: Any, name: str, expression: str) -> list[float | None]:
    """``expression`` on each row of ``table`` (a run's ``pyarrow.Table``), in the rows' order, as
    numbers (a NULL stays None); RunError naming the figure, with duckdb's first line, if it is not
    one number per game."""
    try:
        import duckdb
    except ImportError:
        raise RunError("--figure needs duckdb: pip install 'spacetable[lab]'") from None
    query = f"SELECT CAST(({expression}) AS DOUBLE) FROM run"
    connection = duckdb.connect()
    try:
        connection.register("run", table)
        connection.execute("SET enable_external_access = false")
        if len(connection.extract_statements(query)) != 1:
            raise RunError(f"--figure {name!r}: write one expression, not statements")
        rows = connection.execute(query).fetchall()  # duckdb keeps the rows' order without ORDER BY
    except duckdb.Error as exc:
        raise RunError(f"--figure {name!r}: {str(exc).splitlines()[0]}") from None
    finally:
        connection.close()
    if len(rows) != table.num_rows:
        raise RunError(
            f"--figure {name!r} gives {len(rows)} value(s) for {table.num_rows} games: write a per-game expression"
        )
    return [row[0] for row in rows]


__all__ = ["per_game"]
