"""hand-offs: tables that start themselves when full, invitations that expire

`games.start_when_full` is true for a table whose last seat taken starts its game (a join, an accepted
invitation, bots at creation); false leaves the start to its creator. Existing tables keep the start by their
creator they were opened with. `games.invitation_days` is how long an invitation to the table waits for its
answer (7 days for the existing ones) before it expires and its inviter is told.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("games", sa.Column("start_when_full", sa.Boolean(), server_default=sa.text("true"), nullable=False))
    op.execute("UPDATE games SET start_when_full = false WHERE status = 'open'")
    op.add_column("games", sa.Column("invitation_days", sa.Integer(), server_default=sa.text("7"), nullable=False))


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_column("games", "invitation_days")
    op.drop_column("games", "start_when_full")
