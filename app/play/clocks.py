"""Move clocks: a deadline for every awaited seat of a game with a move timeout, reminders at the hours left each
player chose, the mails of a timeout, and vacations that stop a player's clocks — declared ahead, or a day at a time
when a clock would run out, from one yearly budget.

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

from sqlalchemy import func, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account
from app.play.bus import CHANNEL, ChatPosted
from app.play.errors import Conflict, Invalid
from app.play.record import Mail
from app.store.db import Database
from app.store.tables import ChatMessage, Game, Seat, User, Vacation

Clock = Callable[[], datetime]
TIMEOUTS_BEFORE_ALERT = 3
VACATION_DAYS_PER_YEAR = 21  # the yearly budget: days declared and days taken by clocks about to run out
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


# A reminder is claimed by the UPDATE that counts it: of two instances, the second finds it taken. A seat is due
# when more of its player's reminder hours have passed than it was reminded of this turn (`reminded` set by this
# statement, cleared by every fresh clock, so `reminders_sent` counts only within the turn). Hours that are not
# below the table's move timeout are never reminded of: the turn's own mail has just said as much. A check that
# comes late, past both hours, sends one reminder and counts both: never more than two a turn.
_PASSED = """(SELECT count(*) FROM unnest(u.reminder_hours) AS h
              WHERE h < g.move_timeout_hours AND s.deadline - make_interval(hours => h) <= :now)"""
_REMIND = text(
    f"""
    WITH due AS (
        UPDATE seats AS s SET reminded = true, reminders_sent = {_PASSED}
        FROM games AS g, users AS u
        WHERE g.id = s.game_id AND u.id = s.user_id AND g.status = 'active' AND g.move_timeout_hours IS NOT NULL
          AND s.deadline IS NOT NULL AND s.deadline > :now
          AND {_PASSED} > CASE WHEN s.reminded THEN s.reminders_sent ELSE 0 END
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
    """Queue the reminders due by `now` (at the hours left each player chose, `users.reminder_hours`); returns
    how many."""
    return len((await session.execute(_REMIND, {"now": now})).all())


# --- vacations -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VacationSummary:
    year: int
    days_used: int
    days_left: int
    # (starts, ends, days, automatic, game id): a day taken by a clock about to run out is `automatic`
    vacations: list[tuple[datetime, datetime, int, bool, int | None]]


def _used_in(user_id: int, year: int) -> Any:
    """The vacation days of `user_id` counted against the budget of `year` (declared and automatic alike)."""
    return select(func.coalesce(func.sum(Vacation.days), 0)).where(
        Vacation.user_id == user_id, func.extract("year", Vacation.starts_at) == year
    )


async def vacation_summary(db: Database, account: Account, now: datetime) -> VacationSummary:
    async with db.reading() as session:
        rows = (
            await session.execute(
                select(Vacation.starts_at, Vacation.ends_at, Vacation.days, Vacation.automatic, Vacation.game_id)
                .where(Vacation.user_id == account.id, func.extract("year", Vacation.starts_at) == now.year)
                .order_by(Vacation.starts_at)
            )
        ).all()
    used = sum(row.days for row in rows)
    listed = [(r.starts_at, r.ends_at, r.days, r.automatic, r.game_id) for r in rows]
    return VacationSummary(now.year, used, VACATION_DAYS_PER_YEAR - used, listed)


def _at_tables_that_allow_vacations() -> Any:
    """Seats of games whose table allows vacations (`games.vacations`): the only clocks a vacation moves."""
    return Seat.game_id.in_(select(Game.id).where(Game.vacations))


async def declare_vacation(
    db: Database, account: Account, days: int, starts_at: datetime | None, now: datetime
) -> VacationSummary:
    """Stop the player's clocks for `days` days from `starts_at` (default: now): running deadlines that fall
    after the start (and those an undo would give back) move later by the whole vacation, and clocks started
    during it start at its end — at the tables that allow vacations."""
    start = max(starts_at or now, now)
    if days < 1:
        raise Invalid("invalid_vacation", "A vacation lasts at least one day.")
    if start > now + VACATION_NOTICE:
        raise Invalid("vacation_too_far", "A vacation can be declared at most a year ahead.")
    end = start + timedelta(days=days)
    async with db.session() as session:
        # One declaration at a time per player, so two at once cannot both squeeze under the yearly limit.
        await session.execute(select(User.id).where(User.id == account.id).with_for_update())
        used = await session.scalar(_used_in(account.id, start.year))
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
                .where(
                    Seat.user_id == account.id, deadline.is_not(None), deadline > start,
                    _at_tables_that_allow_vacations(),
                )
                .values({deadline: deadline + (end - start)})
            )
        await session.commit()
    return await vacation_summary(db, account, now)


@dataclass(frozen=True, slots=True)
class VacationDay:
    """A vacation day a clock about to run out took from its player's budget."""

    user_id: int
    starts_at: datetime
    ends_at: datetime
    days_left: int  # of the year's budget, after this day
    games: tuple[int, ...]  # the games whose clocks it moved (announced at each table)


VACATION_DAY = timedelta(days=1)
VACATION_NOTICE_KIND = "vacation_day"  # `chat_messages.notice` of the line that announces one


async def take_vacation_day(db: Database, game_id: int, seat: int, now: datetime) -> VacationDay | None:
    """Spare `seat` of `game_id` the timeout its clock is due for by taking a day of its player's yearly budget:
    the day starts where the clock ran out, and like any vacation it moves every clock of the player that runs
    out from then on, at the tables that allow vacations, by a day (so one day covers every game it finds). Each
    table whose clock moved hears of it in its chat (`chat_messages.notice`, announced on its stream). None, and
    nothing written, when the table forbids vacations, the seat's player is a bot or absent, the clock no longer
    runs out by `now`, or the budget of the year is spent: the clock then runs out as always."""
    async with db.session() as session:
        found = (
            await session.execute(
                select(Seat.user_id, Seat.deadline)
                .join(Game, Game.id == Seat.game_id)
                .join(User, User.id == Seat.user_id)
                .where(
                    Seat.game_id == game_id, Seat.seat == seat, Game.status == "active", Game.vacations,
                    Seat.deadline <= now, Seat.absent.is_(False), User.is_bot.is_(False),
                )
            )
        ).one_or_none()
        if found is None or found.deadline is None:
            return None
        user_id, start = found.user_id, found.deadline
        # One day at a time per player (and checked again under the lock: another instance may have taken it).
        await session.execute(select(User.id).where(User.id == user_id).with_for_update())
        if await session.scalar(select(Seat.deadline).where(Seat.game_id == game_id, Seat.seat == seat)) != start:
            return None
        used = int(await session.scalar(_used_in(user_id, start.year)) or 0)
        if used + 1 > VACATION_DAYS_PER_YEAR:
            return None
        end = start + VACATION_DAY
        session.add(Vacation(user_id=user_id, starts_at=start, ends_at=end, days=1, automatic=True, game_id=game_id))
        moved = list(
            (
                await session.scalars(
                    update(Seat)
                    .where(
                        Seat.user_id == user_id, Seat.deadline.is_not(None), Seat.deadline >= start,
                        _at_tables_that_allow_vacations(),
                    )
                    .values(deadline=Seat.deadline + VACATION_DAY)
                    .returning(Seat.game_id)
                )
            ).all()
        )
        await session.execute(
            update(Seat)
            .where(
                Seat.user_id == user_id, Seat.undo_deadline.is_not(None), Seat.undo_deadline >= start,
                _at_tables_that_allow_vacations(),
            )
            .values(undo_deadline=Seat.undo_deadline + VACATION_DAY)
        )
        day = VacationDay(user_id, start, end, VACATION_DAYS_PER_YEAR - used - 1, tuple(sorted(set(moved))))
        await _announce(session, day)
        await session.commit()
    return day


async def _announce(session: AsyncSession, day: VacationDay) -> None:
    """Write the line that tells each table of `day` in its chat, and announce it on the table's stream."""
    username = await session.scalar(select(User.username).where(User.id == day.user_id))
    notice = {"kind": VACATION_NOTICE_KIND, "until": day.ends_at.isoformat(), "days_left": day.days_left}
    said = (
        f"{username} takes a vacation day: their clock stands still until "
        f"{day.ends_at:%Y-%m-%d %H:%M} UTC ({day.days_left} vacation days left this year)."
    )
    for game_id in day.games:
        message_id = await session.scalar(
            insert(ChatMessage)
            .values(game_id=game_id, user_id=day.user_id, text=said, notice=notice)
            .returning(ChatMessage.id)
        )
        if message_id is not None:
            await session.execute(
                text("SELECT pg_notify(:channel, :notice)"),
                {"channel": CHANNEL, "notice": ChatPosted(game_id, message_id).to_json()},
            )
