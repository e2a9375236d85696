"""Move clocks: a deadline for every awaited seat of a game with a move timeout, a reminder when a quarter of
the time is left, the mails of a timeout, and vacations that stop a player's clocks.

Deadlines change in the very statement that records a change of the log (`app.play.record`), so they can never
disagree with it; the periodic check that reminds and times out is `app.play.keeper.ClockKeeper`. A reminder is
claimed by the UPDATE that marks it sent, so two instances never remind twice. Time is always passed in, never
read inside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account
from app.play.errors import Conflict, Invalid
from app.play.record import Mail
from app.store.db import Database
from app.store.tables import Seat, User, Vacation

Clock = Callable[[], datetime]
TIMEOUTS_BEFORE_ALERT = 3
VACATION_DAYS_PER_YEAR = 14
VACATION_NOTICE = timedelta(days=366)  # how far ahead a vacation may start (and far from the calendar's end)


def utc_now() -> datetime:
    return datetime.now(UTC)


async def deadlines(session: AsyncSession, game_ids: Sequence[int]) -> dict[int, dict[int, datetime]]:
    """The running deadlines of each game, by seat."""
    if not game_ids:
        return {}
    rows = await session.execute(
        select(Seat.game_id, Seat.seat, Seat.deadline).where(Seat.game_id.in_(game_ids), Seat.deadline.is_not(None))
    )
    found: dict[int, dict[int, datetime]] = {}
    for game_id, seat, deadline in rows.all():
        if seat is not None and deadline is not None:
            found.setdefault(game_id, {})[seat] = deadline
    return found


async def timeout_mails(
    session: AsyncSession,
    created_by: int | None,
    user_id: int,
    player: str,
    seat: int,
    move: dict[str, Any],
    count: int,
    by_bot: bool = False,
) -> list[Mail]:
    """The mails of the `count`-th timeout in a row of `seat` (played by `user_id`, called `player`), whose `move`
    the site's bot chose (`by_bot`) or the safest default: the player's, and on the third in a row an alert to
    the game's creator if an admin created it (a player's table: every admin, who alone may hand the seat to
    someone else)."""
    mails = [Mail(user_id, "timed_out", {"seat": seat, "move": move, "count": count, "by_bot": by_bot})]
    if count == TIMEOUTS_BEFORE_ALERT:
        by_admin = created_by is not None and bool(
            await session.scalar(select(User.is_admin).where(User.id == created_by))
        )
        admins = (
            [created_by]
            if by_admin and created_by is not None
            else list((await session.scalars(select(User.id).where(User.is_admin))).all())
        )
        mails += [Mail(admin, "admin_alert", {"seat": seat, "player": player, "count": count}) for admin in admins]
    return mails


# A reminder is claimed by the UPDATE that marks it sent: of two instances, the second finds it taken.
_REMIND = text(
    """
    WITH due AS (
        UPDATE seats AS s SET reminded = true
        FROM games AS g
        WHERE g.id = s.game_id AND g.status = 'active' AND g.move_timeout_hours IS NOT NULL
          AND s.deadline IS NOT NULL AND NOT s.reminded AND s.deadline > :now
          AND s.deadline - make_interval(mins => g.move_timeout_hours * 15) <= :now
        RETURNING s.game_id, g.seq, s.user_id, s.seat, s.deadline
    )
    INSERT INTO outbox (game_id, seq, kind, recipient_id, next_attempt_at, payload)
    SELECT game_id, seq, 'mail', user_id, :now, jsonb_build_object(
        'message', 'reminder', 'seat', seat, 'deadline', deadline,
        'hours_left', EXTRACT(EPOCH FROM deadline - :now) / 3600)
    FROM due
    RETURNING id
    """
)


# An absence alert is claimed by the UPDATE that clears it: of two instances, the second finds it taken. Told to
# the game's creator if an admin created it, else to every admin (as the third timeout in a row used to be: an
# absent seat never runs out of time again, the bot plays it at once).
_REPORT_ABSENCES = text(
    """
    WITH due AS (
        UPDATE seats AS s SET absence_alert_at = NULL
        FROM games AS g
        WHERE g.id = s.game_id AND s.absence_alert_at <= :now
        RETURNING s.game_id, g.seq, s.seat, s.user_id, g.created_by, g.move_timeout_hours,
                  s.absent AND g.status = 'active' AS away
    )
    INSERT INTO outbox (game_id, seq, kind, recipient_id, next_attempt_at, payload)
    SELECT d.game_id, d.seq, 'mail', a.id, :now, jsonb_build_object(
        'message', 'admin_alert', 'seat', d.seat, 'player', p.username, 'away', true,
        'hours', 2 * d.move_timeout_hours)
    FROM due AS d
    JOIN users AS p ON p.id = d.user_id
    JOIN users AS a ON a.is_admin AND (a.id = d.created_by OR NOT EXISTS (
        SELECT FROM users AS c WHERE c.id = d.created_by AND c.is_admin))
    WHERE d.away
    RETURNING id
    """
)


async def report_absences(session: AsyncSession, now: datetime) -> int:
    """Queue the admins' mails about players still away two move clocks after their clock ran out (the bot plays
    their seats meanwhile; an admin may give such a seat to someone else); returns how many mails."""
    return len((await session.execute(_REPORT_ABSENCES, {"now": now})).all())


async def remind(session: AsyncSession, now: datetime) -> int:
    """Queue the reminders due by `now` (a quarter of the time left); returns how many."""
    return len((await session.execute(_REMIND, {"now": now})).all())


# --- vacations -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VacationSummary:
    year: int
    days_used: int
    days_left: int
    vacations: list[tuple[datetime, datetime, int]]


async def vacation_summary(db: Database, account: Account, now: datetime) -> VacationSummary:
    async with db.reading() as session:
        rows = (
            await session.execute(
                select(Vacation.starts_at, Vacation.ends_at, Vacation.days)
                .where(Vacation.user_id == account.id, func.extract("year", Vacation.starts_at) == now.year)
                .order_by(Vacation.starts_at)
            )
        ).all()
    used = sum(days for _, _, days in rows)
    return VacationSummary(
        now.year, used, VACATION_DAYS_PER_YEAR - used, [(start, end, days) for start, end, days in rows]
    )


async def declare_vacation(
    db: Database, account: Account, days: int, starts_at: datetime | None, now: datetime
) -> VacationSummary:
    """Stop the player's clocks for `days` days from `starts_at` (default: now): running deadlines that fall
    after the start (and those an undo would give back) move later by the whole vacation, and clocks started
    during it start at its end."""
    start = max(starts_at or now, now)
    if days < 1:
        raise Invalid("invalid_vacation", "A vacation lasts at least one day.")
    if start > now + VACATION_NOTICE:
        raise Invalid("vacation_too_far", "A vacation can be declared at most a year ahead.")
    end = start + timedelta(days=days)
    async with db.session() as session:
        # One declaration at a time per player, so two at once cannot both squeeze under the yearly limit.
        await session.execute(select(User.id).where(User.id == account.id).with_for_update())
        used = await session.scalar(
            select(func.coalesce(func.sum(Vacation.days), 0)).where(
                Vacation.user_id == account.id, func.extract("year", Vacation.starts_at) == start.year
            )
        )
        if (used or 0) + days > VACATION_DAYS_PER_YEAR:
            left = VACATION_DAYS_PER_YEAR - (used or 0)
            raise Conflict(
                "vacation_limit",
                "Vacations are limited to {limit} days a year; {left} are left for {year}.",
                limit=VACATION_DAYS_PER_YEAR, left=left, year=start.year,
            )
        overlapping = await session.scalar(
            select(func.count())
            .select_from(Vacation)
            .where(Vacation.user_id == account.id, Vacation.starts_at < end, Vacation.ends_at > start)
        )
        if overlapping:
            raise Conflict("vacation_overlap", "This vacation overlaps one you already declared.")
        session.add(Vacation(user_id=account.id, starts_at=start, ends_at=end, days=days))
        # So do the clocks an undo would give back (`Seat.undo_deadline`): a move and its undo give no more
        # time than the move found, and no less either.
        for deadline in (Seat.deadline, Seat.undo_deadline):
            await session.execute(
                update(Seat)
                .where(Seat.user_id == account.id, deadline.is_not(None), deadline > start)
                .values({deadline: deadline + (end - start)})
            )
        await session.commit()
    return await vacation_summary(db, account, now)
