"""The schema as first released: games, events and the append-only triggers.

Stores created before migrations existed have exactly this schema; `api.store.migrate` stamps
them with this revision before upgrading them. The tables are spelled out (a snapshot, as
migrations must be), not taken from api/store/schema.py, which moves on with later revisions.

Revision ID: 0001
"""

import sqlalchemy as sa
from alembic import op

from api.store.schema import POSTGRES_TRIGGERS, SQLITE_TRIGGERS

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ludex_games",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("token_hashes", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ludex_events",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("ludex_games.game_id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "version", name="ludex_events_one_per_version"),
    )
    triggers = {"sqlite": SQLITE_TRIGGERS, "postgresql": POSTGRES_TRIGGERS}.get(op.get_bind().dialect.name, [])
    for ddl in triggers:
        op.execute(ddl)


def downgrade() -> None:
    op.drop_table("ludex_events")
    op.drop_table("ludex_games")
