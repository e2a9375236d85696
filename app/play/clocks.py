"""Move clocks: a deadline for every awaited seat of a game with a move timeout, a reminder when a quarter of
the time is left, the safest default move when it runs out, vacations that stop a player's clocks, and the
admin's remedy for a player who keeps running out of time.

Deadlines change in the transaction of the move that changes who is awaited (`restart`), so they can never
disagree with the log. The periodic check (`ClockKeeper.tick`) runs in every instance: a reminder is claimed
by the UPDATE that marks it sent, and a timeout locks the game row with SKIP LOCKED first, so two instances
never remind twice or move twice. Time is always passed in, never read inside.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account
from app.play.announce import announce
from app.play.errors import Conflict, Invalid, NotAllowed, NotFound
from app.store import event_store
from app.store.availability import OutageLog, is_unavailable
from app.store.db import Database
from app.store.tables import Game, Outbox, Seat, User, Vacation

if TYPE_CHECKING:
    from app.play.service import GameService

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
TIMEOUTS_BEFORE_ALERT = 3
VACATION_DAYS_PER_YEAR = 14
VACATION_NOTICE = timedelta(days=366)  # how far ahead a vacation may start (and far from the calendar's end)


def utc_now() -> datetime:
    return datetime.now(UTC)


# One statement per move. Seats that just became awaited (or that moved and are still awaited) get a fresh
# deadline, starting after any vacation under way; seats no longer awaited lose theirs; a player who moved
# by themselves has their run of timeouts reset.
_RESTART = text(
    """
    UPDATE seats AS s
    SET deadline = CASE
            WHEN s.seat = ANY(CAST(:restart AS integer[])) THEN
                GREATEST(CAST(:now AS timestamptz), COALESCE((
                    SELECT max(v.ends_at) FROM vacations AS v
                    WHERE v.user_id = s.user_id AND v.starts_at <= :now AND v.ends_at > :now
                ), CAST(:now AS timestamptz))) + make_interval(hours => g.move_timeout_hours)
            WHEN s.seat = ANY(CAST(:to_act AS integer[])) THEN s.deadline
            ELSE NULL
        END,
        reminded = CASE WHEN s.seat = ANY(CAST(:keep AS integer[])) THEN s.reminded ELSE false END,
        timeouts_in_row = CASE WHEN s.seat = :reset_seat THEN 0 ELSE s.timeouts_in_row END
    FROM games AS g
    WHERE g.id = s.game_id AND s.game_id = :game_id AND g.move_timeout_hours IS NOT NULL
      AND (s.seat = ANY(CAST(:restart AS integer[])) OR s.seat = :reset_seat
           OR (s.deadline IS NOT NULL AND NOT s.seat = ANY(CAST(:to_act AS integer[]))))
    """
)


async def restart(
    session: AsyncSession,
    game_id: int,
    *,
    was_to_act: Collection[int],
    to_act: Collection[int],
    actor: int | None,
    now: datetime,
    by_clock: bool = False,
) -> None:
    """Bring the deadlines of `game_id` in line with who is awaited now (in the caller's transaction)."""
    restarted = [seat for seat in to_act if seat not in was_to_act or seat == actor]
    kept = [seat for seat in to_act if seat not in restarted]
    await session.execute(
        _RESTART,
        {
            "game_id": game_id,
            "now": now,
            "restart": restarted,
            "to_act": list(to_act),
            "keep": kept,
            "reset_seat": None if by_clock else actor,
        },
    )


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


def mail_row(
    game_id: int | None, seq: int | None, recipient_id: int, now: datetime, message: str, **details: Any
) -> dict[str, Any]:
    """An outbox row asking the mail worker to send `message` to `recipient_id` from `now` on."""
    return {
        "game_id": game_id,
        "seq": seq,
        "next_attempt_at": now,
        "kind": "mail",
        "recipient_id": recipient_id,
        "payload": {"message": message, **details},
    }


async def record_timeout(
    session: AsyncSession, game: Game, seat: int, new_seq: int, move: dict[str, Any], now: datetime
) -> int:
    """Count the timeout of `seat` and queue its mails (the player's, and the admin's on the third in a row);
    returns how many timeouts in a row the seat has now."""
    row = (
        await session.execute(
            update(Seat)
            .where(Seat.game_id == game.id, Seat.seat == seat)
            .values(timeouts_in_row=Seat.timeouts_in_row + 1)
            .returning(Seat.user_id, Seat.timeouts_in_row)
        )
    ).one()
    user_id, count = row
    rows = [mail_row(game.id, new_seq, user_id, now, "timed_out", seat=seat, move=move, count=count)]
    if count == TIMEOUTS_BEFORE_ALERT:
        player = await session.scalar(select(User.username).where(User.id == user_id))
        admins: list[int] = (
            [game.created_by]
            if game.created_by is not None
            else list((await session.scalars(select(User.id).where(User.is_admin))).all())
        )
        rows += [
            mail_row(game.id, new_seq, admin, now, "admin_alert", seat=seat, player=player, count=count)
            for admin in admins
        ]
    await session.execute(insert(Outbox), rows)
    return int(count)


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


@dataclass(frozen=True, slots=True)
class TickResult:
    reminders: int
    timeouts: int


class ClockKeeper:
    """The periodic clock check: reminders due, then clocks run out."""

    def __init__(self, service: GameService, clock: Clock = utc_now, batch: int = 50) -> None:
        self.service = service
        self.clock = clock
        self.batch = batch

    async def tick(self, now: datetime | None = None) -> TickResult:
        now = now or self.clock()
        async with self.service.db.session() as session:
            reminders = len((await session.execute(_REMIND, {"now": now})).all())
            await session.commit()
        async with self.service.db.reading() as session:
            due = (
                await session.execute(
                    select(Seat.game_id, Seat.seat)
                    .join(Game, Game.id == Seat.game_id)
                    .where(Game.status == "active", Seat.deadline <= now, Seat.seat.is_not(None))
                    .order_by(Seat.deadline)
                    .limit(self.batch)
                )
            ).all()
        timeouts = 0
        for game_id, seat in due:
            if seat is None:
                continue
            try:
                if await self.service.time_out(game_id, seat, now) is not None:
                    timeouts += 1
            except Exception as exc:
                if is_unavailable(exc):
                    raise  # the whole check waits for the database, not each seat in turn
                log.exception("timing out seat %s of game %s failed; retrying at the next check", seat, game_id)
        return TickResult(reminders, timeouts)

    async def run_forever(self, interval: float) -> None:
        outage = OutageLog(log, "move clocks")
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not outage.failed(exc):
                    log.exception("clock check failed")
            else:
                outage.succeeded()
            await asyncio.sleep(interval)


# --- vacations and replacements -------------------------------------------------------------------------------


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
    after the start move later by the whole vacation, and clocks started during it start at its end."""
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
                f"Vacations are limited to {VACATION_DAYS_PER_YEAR} days a year; {left} are left for {start.year}.",
            )
        overlapping = await session.scalar(
            select(func.count())
            .select_from(Vacation)
            .where(Vacation.user_id == account.id, Vacation.starts_at < end, Vacation.ends_at > start)
        )
        if overlapping:
            raise Conflict("vacation_overlap", "This vacation overlaps one you already declared.")
        session.add(Vacation(user_id=account.id, starts_at=start, ends_at=end, days=days))
        await session.execute(
            update(Seat)
            .where(Seat.user_id == account.id, Seat.deadline.is_not(None), Seat.deadline > start)
            .values(deadline=Seat.deadline + (end - start))
        )
        await session.commit()
    return await vacation_summary(db, account, now)


async def replace_player(db: Database, admin: Account, game_id: int, seat: int, username: str, now: datetime) -> None:
    """Give `seat` of a running game to another user (admins only): a fresh clock, no timeouts counted, a
    `seat_replaced` event in the log (announced like any change), a mail about it to everyone seated, and a
    "your turn" mail to the newcomer if the seat is awaited."""
    if not admin.is_admin:
        raise NotAllowed("admin_only", "Only an admin may do this.")
    async with db.session() as session:
        # Locked first: two replacements take turns, a timeout skips the game meanwhile, and a move made against
        # the head this replacement moves on gets 409 stale_seq from its append.
        game = await session.scalar(select(Game).where(Game.id == game_id).with_for_update())
        if game is None:
            raise NotFound("game_not_found", f"There is no game {game_id}.")
        if game.status != "active":
            raise Conflict("game_not_active", f"This game is {game.status}; only a running game's seats change hands.")
        newcomer = await session.scalar(select(User).where(func.lower(User.username) == username.lower()))
        if newcomer is None:
            raise Invalid("unknown_player", f"There is no player called '{username}'.")
        if await session.get(Seat, (game_id, newcomer.id)) is not None:
            raise Conflict("already_seated", f"{newcomer.username} already has a seat in this game.")
        current = await session.scalar(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat))
        if current is None:
            raise NotFound("seat_not_found", f"Game {game_id} has no seat {seat}.")
        previous = await session.scalar(select(User.username).where(User.id == current.user_id))
        event = {"type": "seat_replaced", "seat": seat, "previous": previous, "username": newcomer.username}
        new_seq = await event_store.append(session, game_id, game.seq, [event])
        awaited = seat in game.to_act
        deadline = (
            now + timedelta(hours=game.move_timeout_hours) if awaited and game.move_timeout_hours is not None else None
        )
        await session.execute(
            update(Seat)
            .where(and_(Seat.game_id == game_id, Seat.seat == seat))
            .values(user_id=newcomer.id, timeouts_in_row=0, reminded=False, deadline=deadline)
        )
        seated = await session.execute(
            select(Seat.seat, Seat.user_id).where(Seat.game_id == game_id, Seat.seat.is_not(None))
        )
        # `seat` in a mail row is the recipient's own: each mail shows its reader's view of the game.
        mails = [
            mail_row(game_id, new_seq, user_id, now, "seat_replaced", seat=theirs, previous=previous,
                     username=newcomer.username)
            for theirs, user_id in seated.all()
        ]
        if awaited:
            mails.append(mail_row(game_id, new_seq, newcomer.id, now, "your_turn", seat=seat))
        await session.execute(insert(Outbox), mails)
        await announce(session, game_id, new_seq, game.status, game.to_act, from_seq=game.seq, was_to_act=game.to_act)
        await session.commit()
