"""The terminal front end: the `spacetable` command (typer + rich)."""

from .common import app
from .main import main

__all__ = ["app", "main"]
