"""invitations from players met only: an account may refuse invitations from people it never played with

`users.invitations_from_played_with` is true for an account that takes invitations only from players who shared a
running or finished game with it (app.play.invitations); false, the default for every existing account: from
anyone.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column(
        "users",
        sa.Column("invitations_from_played_with", sa.Boolean(), server_default=sa.text("false"), nullable=False),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_column("users", "invitations_from_played_with")
