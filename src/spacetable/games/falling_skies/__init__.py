"""Under Falling Skies, 9-card solo edition (rulebook: solo-base-defense-rulebook.txt)."""

from .game import FallingSkies

__all__ = ["FallingSkies"]
