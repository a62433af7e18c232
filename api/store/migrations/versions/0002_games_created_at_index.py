"""Index games by creation time, so an operator can list or prune old games without a scan.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ludex_games_created_at", "ludex_games", ["created_at"])


def downgrade() -> None:
    op.drop_index("ludex_games_created_at", table_name="ludex_games")
