"""standing answers: the players' answers given ahead of time (issue 26)

`users.permission_answer` is an account's standing answer to permission requests in games without one of their
own, `users.cash_limit_answer` how its cash above the limit is given up; `standing_answers` holds a player's
answer to permission requests in one game. "ask" everywhere keeps today's behaviour.

Revision ID: 0014
Revises: 0018
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0014"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("users", sa.Column("permission_answer", sa.String(length=8), server_default="ask", nullable=False))
    op.add_column("users", sa.Column("cash_limit_answer", sa.String(length=8), server_default="ask", nullable=False))
    op.create_table(
        "standing_answers",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("permission", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_standing_answers_game_id_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_standing_answers_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_standing_answers")),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("standing_answers")
    op.drop_column("users", "cash_limit_answer")
    op.drop_column("users", "permission_answer")
