"""The periodic clock check, run in every instance: reminders due, players still away reported to the admins,
invitations left unanswered too long expired, then clocks run out — unless a vacation day of the player's yearly
budget spares them (`clocks.take_vacation_day`).

A reminder is claimed by the statement that marks it sent, and a timeout is a command like any other
(`GameService.apply`), recorded only if the game is still where the check found it: two instances never remind
twice or move twice for one clock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from app.play import clocks, invitations
from app.play.commands import TimeOut
from app.play.service import GameService
from app.store.availability import is_unavailable, run_forever
from app.store.tables import Game, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TickResult:
    reminders: int
    timeouts: int
    vacation_days: int = 0


class ClockKeeper:
    """The periodic clock check: reminders due, then clocks run out."""

    def __init__(self, service: GameService, clock: clocks.Clock = clocks.utc_now, batch: int = 50) -> None:
        self.service = service
        self.clock = clock
        self.batch = batch

    async def tick(self, now: datetime | None = None) -> TickResult:
        now = now or self.clock()
        async with self.service.db.autocommit() as session:
            reminders = await clocks.remind(session, now)
            await clocks.report_absences(session, now)
            await invitations.expire(session, now)
            due = (
                await session.execute(
                    select(Seat.game_id, Seat.seat)
                    .join(Game, Game.id == Seat.game_id)
                    .where(Game.status == "active", Seat.deadline <= now, Seat.seat.is_not(None))
                    .order_by(Seat.deadline)
                    .limit(self.batch)
                )
            ).all()
        timeouts = vacation_days = 0
        for game_id, seat in due:
            if seat is None:
                continue
            try:
                if await clocks.take_vacation_day(self.service.db, game_id, seat, now) is not None:
                    vacation_days += 1
                    log.info("game %s: seat %s took a vacation day instead of timing out", game_id, seat)
                    continue
                if await self.service.apply(TimeOut(game_id, seat, now)) is not None:
                    timeouts += 1
                    log.info("game %s: seat %s timed out; the default move was made", game_id, seat)
            except Exception as exc:
                if is_unavailable(exc):
                    raise  # the whole check waits for the database, not each seat in turn
                log.exception("timing out seat %s of game %s failed; retrying at the next check", seat, game_id)
        return TickResult(reminders, timeouts, vacation_days)

    async def run_forever(self, interval: float) -> None:
        await run_forever(self.tick, interval, log, "move clocks")
