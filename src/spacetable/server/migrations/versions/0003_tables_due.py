"""A restarted server rebuilds only the tables with work of their own to resume (chance, a bot's
move, a clock): ``tables.due`` (docs/WEB.md, 'Storage'). Every unfinished table is marked due
once, so that the first start after the upgrade looks at each and clears the flag where it can.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN: SQLite's batch mode would copy "tables", which the seats and actions refer to
    op.add_column("tables", sa.Column("due", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_tables_due", "tables", ["due"])
    op.execute(sa.text("UPDATE tables SET due = NOT finished"))


def downgrade() -> None:
    op.drop_index("ix_tables_due", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("due")
