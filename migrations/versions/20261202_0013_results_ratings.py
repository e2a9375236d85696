"""results and ratings: each finished game's places, and the ratings computed from them

`games.rated` is false for a table its creator opened unrated (default true). `game_results` holds one row per
player of a finished game, written by the statement that records the game's end (app.play.record): the seat, the
place (ties shared; a player who left the game is last), the score parts, whether the player's clock never ran
out, whether they left, and whether the game counts for ratings. `rated_games` lists the games whose results
have changed the ratings, in the order they did (`id`), and `rating_history` each player's rating after each of
them: `ratings` is the newest, kept for the leaderboard. The three are data recomputable from `game_results`
(`python -m app ratings --rebuild`).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("games", sa.Column("rated", sa.Boolean(), server_default=sa.text("true"), nullable=False))
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("score", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("on_time", sa.Boolean(), nullable=False),
        sa.Column("left_game", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_results_game_id_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_game_results_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_game_results")),
    )
    op.create_index("ix_game_results_user_id_finished_at", "game_results", ["user_id", "finished_at"])
    op.create_table(
        "rated_games",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_rated_games_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rated_games")),
        sa.UniqueConstraint("game_id", name=op.f("uq_rated_games_game_id")),
    )
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_rating_history_game_id_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_rating_history_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_rating_history")),
    )
    op.create_index("ix_rating_history_user_id", "rating_history", ["user_id"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_ratings")),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("ratings")
    op.drop_index("ix_rating_history_user_id", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_table("rated_games")
    op.drop_index("ix_game_results_user_id_finished_at", table_name="game_results")
    op.drop_table("game_results")
    op.drop_column("games", "rated")
