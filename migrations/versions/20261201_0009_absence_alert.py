"""absence alert: when the admins are to be told that a seat's player is still away

`seats.absence_alert_at` is set when a seat's clock runs out and its player becomes absent (the site's bot then
plays the seat at once, so the seat never runs out of time again): two more move clocks later the admins hear that
the player has not come back, as they used to after three timeouts in a row. Cleared when the player comes back,
when the seat changes hands, and when the alert is sent. NULL for every existing seat.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 14:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("seats", sa.Column("absence_alert_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_seats_absence_alert_at"), "seats", ["absence_alert_at"], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index(op.f("ix_seats_absence_alert_at"), table_name="seats")
    op.drop_column("seats", "absence_alert_at")
