"""Alembic migrations of the server's database (run at start by ``storage.migrate``)."""
