"""provably fair seeds: 32-byte seeds, their published commitment, and whether an admin chose them

Every game's seed becomes 32 bytes. A game created before has an integer seed (0 .. 2**63 - 1); its bytes are
that integer big-endian, zero-padded to 32 bytes (`app.rules.fairness`), so the random generator is keyed with the
same number as before and its log replays unchanged: no event is rewritten. Its commitment is the SHA-256 of those
bytes, a column the database computes from the seed (so it is fixed with the seed and can never disagree with it).
Whether an admin chose an old game's seed was never recorded: old games count as not chosen.

The downgrade keeps the last 8 bytes, which is exact for every seed an integer could hold (the older games and
admin-chosen seeds) and not for a random 32-byte seed.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 12:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.alter_column(
        "games", "seed", type_=sa.LargeBinary(), existing_nullable=False,
        postgresql_using="decode(lpad(to_hex(seed), 64, '0'), 'hex')",
    )
    op.create_check_constraint(op.f("ck_games_seed_bytes"), "games", "octet_length(seed) = 32")
    op.add_column(
        "games",
        sa.Column(
            "seed_commitment", sa.String(length=64), sa.Computed("encode(sha256(seed), 'hex')", persisted=True),
            nullable=False,
        ),
    )
    op.add_column("games", sa.Column("seed_chosen", sa.Boolean(), server_default=sa.text("false"), nullable=False))


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_column("games", "seed_chosen")
    op.drop_column("games", "seed_commitment")
    op.drop_constraint(op.f("ck_games_seed_bytes"), "games", type_="check")
    op.alter_column(
        "games", "seed", type_=sa.BigInteger(), existing_nullable=False,
        postgresql_using="('x' || encode(substring(seed from 25 for 8), 'hex'))::bit(64)::bigint",
    )
