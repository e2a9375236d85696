"""a table's reputation requirement, and the leaderboard's index

`games.max_timeout_percent`: only players whose clock ran out in at most this share of their games (in %) may
join the table; NULL lets anyone join (app.play.reputation). `ix_ratings_leaderboard`: the ranked players (10
rated games or more) by openskill's ordinal, mu - 3 sigma, best first — the leaderboard's order
(app.play.standing), so the database sorts and cuts it without reading every rating.

Revision ID: 0016
Revises: 0013
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0016"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("games", sa.Column("max_timeout_percent", sa.Integer(), nullable=True))
    op.create_index("ix_ratings_leaderboard", "ratings", [sa.text("(mu - 3 * sigma) DESC")],
                    postgresql_where=sa.text("games >= 10"))


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index("ix_ratings_leaderboard", table_name="ratings", postgresql_where=sa.text("games >= 10"))
    op.drop_column("games", "max_timeout_percent")
