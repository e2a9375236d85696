"""moves per minute: an index for the cap's count

A move checks its seat's moves-per-minute cap by counting the seat's recent events in the game (`app.play.record`,
`app.play.head`). Without an index on (game_id, actor, created_at) that count read every event of the game, so a
move cost more the longer its game ran; with it, the count reads the seat's last minute of events only.

Revision ID: 0020
Revises: 0014
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0020"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_index(
        "ix_game_events_game_id_actor_created_at", "game_events", ["game_id", "actor", "created_at"], unique=False
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index("ix_game_events_game_id_actor_created_at", table_name="game_events")
