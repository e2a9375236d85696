"""your data and moderation: deleted and suspended accounts, removed and reported chat messages, the admins' trail

`users.deleted_at` marks an account its owner deleted (no address, no password, named `deleted-<id>`);
`users.suspended_at` and `suspension_reason` an account an admin suspended. `chat_messages.removed_at` and
`removed_by` a message an admin removed (shown as removed). `chat_reports` holds players' reports of chat messages,
`admin_actions` every admin action: who, when, on whom or what, why.

Revision ID: 0019
Revises: 0015
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0019"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("users", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("users", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("users", sa.Column("suspension_reason", sa.String(length=500), nullable=True))
    op.add_column("chat_messages", sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("chat_messages", sa.Column("removed_by", sa.Integer(), nullable=True))
    op.create_foreign_key(
        op.f("fk_chat_messages_removed_by_users"), "chat_messages", "users", ["removed_by"], ["id"], ondelete="SET NULL"
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["message_id"], ["chat_messages.id"],
                                name=op.f("fk_chat_reports_message_id_chat_messages"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"], name=op.f("fk_chat_reports_reporter_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
    )
    op.create_index("uq_chat_reports_message_id_reporter_id", "chat_reports", ["message_id", "reporter_id"],
                    unique=True)
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("target_user_id", sa.Integer(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(["admin_id"], ["users.id"], name=op.f("fk_admin_actions_admin_id_users"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["target_user_id"], ["users.id"], name=op.f("fk_admin_actions_target_user_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
    )
    op.create_index("ix_admin_actions_created_at", "admin_actions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_admin_actions_created_at", table_name="admin_actions")
    op.drop_table("admin_actions")
    op.drop_index("uq_chat_reports_message_id_reporter_id", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_constraint(op.f("fk_chat_messages_removed_by_users"), "chat_messages", type_="foreignkey")
    op.drop_column("chat_messages", "removed_by")
    op.drop_column("chat_messages", "removed_at")
    op.drop_column("users", "suspension_reason")
    op.drop_column("users", "suspended_at")
    op.drop_column("users", "deleted_at")
