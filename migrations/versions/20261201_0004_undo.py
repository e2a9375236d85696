"""the last move a player may take back

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 09:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("games", sa.Column("undo_seat", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("undo_events", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_column("games", "undo_events")
    op.drop_column("games", "undo_seat")
