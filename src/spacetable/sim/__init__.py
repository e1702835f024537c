"""Batch runs of bot games and their reports (tournaments)."""
