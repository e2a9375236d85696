"""bot level: how strongly the site's bot plays a table's bot seats

`games.bot_level` is the level its creator chose for the table's bot seats: `easy`, `normal` (the default, and
every table's before this revision) or `hard` (API.md "Bot levels"). A seat whose player's clock ran out is
played at `normal` whatever it says.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0018"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column(
        "games", sa.Column("bot_level", sa.String(length=8), server_default=sa.text("'normal'"), nullable=False)
    )
    op.create_check_constraint(op.f("ck_games_bot_level_known"), "games", "bot_level IN ('easy', 'normal', 'hard')")


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_constraint(op.f("ck_games_bot_level_known"), "games", type_="check")
    op.drop_column("games", "bot_level")
