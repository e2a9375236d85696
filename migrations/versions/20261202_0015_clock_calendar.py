"""clock calendar: reminders at the player's hours, weekends off, vacation days used automatically

`users.time_zone` (an IANA name, default UTC) is where a player's weekend falls; `users.reminder_hours` the hours
left on a move clock at which they are reminded (at most two, default 12 and 1). `seats.reminders_sent` counts the
reminders of the seat's current turn (read only while `seats.reminded` is set: every fresh clock clears that).
`games.pause_weekends` stops a table's clocks from Saturday 00:00 to Monday 00:00 in each player's time zone;
`games.vacations` false forbids vacation days at the table. `vacations.automatic` marks a day taken from the yearly
budget because a clock would have run out, `vacations.game_id` the game whose clock it was. `chat_messages.notice`
marks a line of the table chat that the site wrote (a vacation day used), with what it says as data.

`clock_deadline(start, hours, zone, weekends)` is when a clock started at `start` with `hours` runs out: `start +
hours`, or with `weekends` the same number of hours counted outside Saturdays and Sundays in `zone` (an unknown
zone counts as UTC, so a stale name never stops a move). `seat_deadline(moment, hours, player, weekends,
allow_vacations)` is a seat's fresh clock for `player` at `moment`: it starts after any vacation of theirs under way
(where the table allows vacations) and runs by `clock_deadline` in their time zone — one call, so the statement
that records a move stays short enough for the driver to keep it parsed.

Revision ID: 0015
Revises: 0016
Create Date: 2026-12-02 00:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = "0015"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CLOCK_DEADLINE = """
CREATE OR REPLACE FUNCTION clock_deadline(start timestamptz, hours integer, zone text, weekends boolean)
RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
DECLARE
    t timestamptz := start;
    remaining interval := make_interval(hours => hours);
    local timestamp;
    saturday timestamptz;
BEGIN
    IF NOT weekends THEN
        RETURN start + remaining;
    END IF;
    BEGIN
        PERFORM start AT TIME ZONE zone;
    EXCEPTION WHEN OTHERS THEN
        zone := 'UTC';
    END;
    LOOP
        local := t AT TIME ZONE zone;
        IF extract(isodow FROM local) >= 6 THEN  -- within the weekend: the clock resumes on Monday at 00:00
            t := (date_trunc('week', local) + interval '7 days') AT TIME ZONE zone;
            local := t AT TIME ZONE zone;
        END IF;
        saturday := (date_trunc('week', local) + interval '5 days') AT TIME ZONE zone;
        IF t + remaining <= saturday THEN
            RETURN t + remaining;
        END IF;
        remaining := remaining - (saturday - t);
        t := saturday;
    END LOOP;
END
$$
"""

SEAT_DEADLINE = """
CREATE OR REPLACE FUNCTION seat_deadline(
    moment timestamptz, hours integer, player integer, weekends boolean, allow_vacations boolean
) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT clock_deadline(
        GREATEST(moment, COALESCE((
            SELECT max(v.ends_at) FROM vacations AS v
            WHERE allow_vacations AND v.user_id = player AND v.starts_at <= moment AND v.ends_at > moment
        ), moment)),
        hours,
        (SELECT u.time_zone FROM users AS u WHERE u.id = player),
        weekends)
$$
"""


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("users", sa.Column("time_zone", sa.String(length=64), server_default="UTC", nullable=False))
    op.add_column(
        "users",
        sa.Column(
            "reminder_hours", postgresql.ARRAY(sa.Integer()), server_default=sa.text("'{12,1}'"), nullable=False
        ),
    )
    op.add_column("seats", sa.Column("reminders_sent", sa.Integer(), server_default=sa.text("0"), nullable=False))
    op.add_column("games", sa.Column("pause_weekends", sa.Boolean(), server_default=sa.text("false"), nullable=False))
    op.add_column("games", sa.Column("vacations", sa.Boolean(), server_default=sa.text("true"), nullable=False))
    op.add_column("vacations", sa.Column("automatic", sa.Boolean(), server_default=sa.text("false"), nullable=False))
    op.add_column("vacations", sa.Column("game_id", sa.Integer(), nullable=True))
    op.create_foreign_key(
        op.f("fk_vacations_game_id_games"), "vacations", "games", ["game_id"], ["id"], ondelete="SET NULL"
    )
    op.add_column("chat_messages", sa.Column("notice", postgresql.JSONB(astext_type=sa.Text()), nullable=True))
    op.execute(CLOCK_DEADLINE)
    op.execute(SEAT_DEADLINE)


def downgrade() -> None:
    """Downgrade schema."""
    op.execute("DROP FUNCTION IF EXISTS seat_deadline(timestamptz, integer, integer, boolean, boolean)")
    op.execute("DROP FUNCTION IF EXISTS clock_deadline(timestamptz, integer, text, boolean)")
    op.drop_column("chat_messages", "notice")
    op.drop_constraint(op.f("fk_vacations_game_id_games"), "vacations", type_="foreignkey")
    op.drop_column("vacations", "game_id")
    op.drop_column("vacations", "automatic")
    op.drop_column("games", "vacations")
    op.drop_column("games", "pause_weekends")
    op.drop_column("seats", "reminders_sent")
    op.drop_column("users", "reminder_hours")
    op.drop_column("users", "time_zone")
