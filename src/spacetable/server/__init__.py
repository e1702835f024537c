"""The web table: ``spacetable serve`` (docs/WEB.md). ``create_app`` builds the FastAPI application."""

from .app import create_app

__all__ = ["create_app"]
