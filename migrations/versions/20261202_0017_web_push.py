"""web push: the devices' push subscriptions, which kinds of notice are pushed, and the outbox's mark of the mails
already looked at for push

`push_subscriptions` holds each browser's endpoint and keys (RFC 8030/8291), `push_preferences` whether a user
wants a kind pushed (no row: the kind's default). `outbox.push_planned` is true for every row existing before this
revision (their moment has passed) and false for new ones, which the worker turns into push rows once.

Revision ID: 0017
Revises: 0019
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0017"
down_revision: str | Sequence[str] | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=2048), nullable=False),
        sa.Column("p256dh", sa.String(length=100), nullable=False),
        sa.Column("auth", sa.String(length=40), nullable=False),
        sa.Column("device", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("last_sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_push_subscriptions_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    op.create_index("ix_push_subscriptions_user_id", "push_subscriptions", ["user_id", "created_at"])
    op.create_table(
        "push_preferences",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("push", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_push_preferences_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "kind", name=op.f("pk_push_preferences")),
    )
    # Existing rows are marked planned (a constant default costs no rewrite), new ones are not.
    op.add_column("outbox", sa.Column("push_planned", sa.Boolean(), server_default=sa.text("true"), nullable=False))
    op.alter_column("outbox", "push_planned", server_default=sa.text("false"))
    op.create_index("ix_outbox_push_unplanned", "outbox", ["id"],
                    postgresql_where=sa.text("NOT push_planned AND kind IN ('mail', 'digest_item')"))


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index("ix_outbox_push_unplanned", table_name="outbox")
    op.drop_column("outbox", "push_planned")
    op.drop_table("push_preferences")
    op.drop_index("ix_push_subscriptions_user_id", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
