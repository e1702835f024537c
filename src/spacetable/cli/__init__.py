"""The terminal front end: the `spacetable` command (typer + rich)."""

from .main import app, main

__all__ = ["app", "main"]
