"""Alembic environment: migrations run on the connection ``storage.migrate`` hands over.

A new revision (after changing ``storage.py``): write ``versions/NNNN_what.py`` by hand from
``script.py.mako``, or generate it with ``alembic.command.revision(config, autogenerate=True)``
on a ``Config`` built as in ``storage.migrate``.
"""

from __future__ import annotations

from alembic import context

from spacetable.server.storage import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
