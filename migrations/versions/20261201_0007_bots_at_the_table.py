"""bots at the table: the site's bot accounts, seats the bot plays for an absent player, moves the bot made

`users.is_bot` marks the site's bot accounts (`bot-1`, `bot-2`, ...), which have no mail address: `users.email`
may be NULL. `seats.absent` is set when a seat's clock runs out and cleared when its player moves or takes the seat
back; while it is set the bot plays the seat. `game_events.by_bot` marks a move the bot made for an absent player.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 13:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("users", sa.Column("is_bot", sa.Boolean(), server_default=sa.text("false"), nullable=False))
    op.alter_column("users", "email", existing_type=sa.String(length=254), nullable=True)
    op.add_column("seats", sa.Column("absent", sa.Boolean(), server_default=sa.text("false"), nullable=False))
    op.add_column("game_events", sa.Column("by_bot", sa.Boolean(), server_default=sa.text("false"), nullable=False))


def downgrade() -> None:
    """Downgrade schema: the bot accounts go (with their seats), since an account needs an address again."""
    op.drop_column("game_events", "by_bot")
    op.drop_column("seats", "absent")
    op.execute("DELETE FROM users WHERE is_bot")
    op.alter_column("users", "email", existing_type=sa.String(length=254), nullable=False)
    op.drop_column("users", "is_bot")
