"""A player's clock settings: the time zone their weekend falls in (for tables that pause on weekends) and the
hours left on a move clock at which they are reminded (at most two a turn, `app.play.clocks.remind`).

A time zone is one PostgreSQL knows (`pg_timezone_names`), since the database counts the weekends
(`clock_deadline`, migration 0015): a name it cannot read is refused here rather than met by a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import exists, select, text, update

from app.play.accounts import Account
from app.play.errors import Invalid
from app.store.db import Database
from app.store.tables import User

DEFAULT_TIME_ZONE = "UTC"
DEFAULT_REMINDER_HOURS = (12, 1)
MOST_REMINDERS = 2  # a turn reminds at most this often
LONGEST_REMINDER_HOURS = 24 * 7


@dataclass(frozen=True, slots=True)
class ClockSettings:
    time_zone: str
    reminder_hours: tuple[int, ...]  # largest first


async def clock_settings(db: Database, account: Account) -> ClockSettings:
    """The player's time zone and reminder hours (the defaults until they chose)."""
    async with db.reading() as session:
        row = (
            await session.execute(select(User.time_zone, User.reminder_hours).where(User.id == account.id))
        ).one_or_none()
    if row is None:
        return ClockSettings(DEFAULT_TIME_ZONE, DEFAULT_REMINDER_HOURS)
    return ClockSettings(row.time_zone, tuple(sorted(row.reminder_hours, reverse=True)))


def reminder_hours(hours: Sequence[int]) -> tuple[int, ...]:
    """The reminder hours as stored: distinct, largest first; Invalid for more than two or any outside 1..168."""
    chosen = tuple(sorted(set(hours), reverse=True))
    if len(chosen) > MOST_REMINDERS:
        raise Invalid("too_many_reminders", "At most {most} reminders a turn.", most=MOST_REMINDERS)
    if any(not 1 <= h <= LONGEST_REMINDER_HOURS for h in chosen):
        raise Invalid(
            "invalid_reminder_hours", "A reminder comes 1 to {most} hours before the clock runs out.",
            most=LONGEST_REMINDER_HOURS,
        )
    return chosen


async def save_clock_settings(
    db: Database, account: Account, time_zone: str | None, hours: Sequence[int] | None
) -> ClockSettings:
    """Change what is given (None keeps it): Invalid `unknown_time_zone`, `too_many_reminders`,
    `invalid_reminder_hours`, and nothing changed."""
    values: dict[str, object] = {}
    if hours is not None:
        values["reminder_hours"] = list(reminder_hours(hours))
    async with db.session() as session:
        if time_zone is not None:
            known = await session.scalar(
                select(exists().where(text("name = :zone")).select_from(text("pg_timezone_names"))),
                {"zone": time_zone},
            )
            if not known:
                raise Invalid(
                    "unknown_time_zone", "{zone} is no time zone we know (e.g. Europe/Paris).", zone=time_zone
                )
            values["time_zone"] = time_zone
        if values:
            await session.execute(update(User).where(User.id == account.id).values(**values))
            await session.commit()
    return await clock_settings(db, account)
