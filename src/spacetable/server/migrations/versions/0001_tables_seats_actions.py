"""The first schema: tables, seats and actions (docs/WEB.md, 'Storage').

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("game_version", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("outcome", sa.JSON, nullable=True),
        sa.Column("rematch_of", sa.String(16), sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("clock", sa.Integer, nullable=True),
    )
    op.create_index("ix_tables_finished", "tables", ["finished"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_tables_finished", "tables")
    op.drop_table("tables")
