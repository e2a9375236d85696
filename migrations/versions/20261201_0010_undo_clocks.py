"""undo clocks: the move clock a seat had before its row last changed with a move

`seats.undo_deadline` and `seats.undo_reminded` keep the deadline and the reminder's mark that the recording
statement found on a seat it changed; an undo of the seat's move gives them back (app.play.record), so that a
move and its undo never restart the mover's clock. Nothing kept them before this revision, so the last move
of a running game recorded before it can no longer be taken back (`games.undo_seat` cleared): its undo would
find no clock to give back.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 23:40:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("seats", sa.Column("undo_deadline", sa.DateTime(timezone=True), nullable=True))
    op.add_column("seats", sa.Column("undo_reminded", sa.Boolean(), server_default=sa.text("false"), nullable=False))
    op.execute("UPDATE games SET undo_seat = NULL, undo_events = NULL WHERE undo_seat IS NOT NULL")


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_column("seats", "undo_reminded")
    op.drop_column("seats", "undo_deadline")
