"""The site's bot at its tables: a periodic check, run in every instance, that moves the seats the bot plays.

A seat is the bot's to play when its account is one of the site's bots, or when its player is absent (their clock
ran out and they have neither moved nor taken the seat back since). Each move is a command like a player's
(`BotMove` through `GameService.apply`): one move, one statement, recorded only if the game is still at the head
the bot thought from and the seat still the bot's — so two instances never move twice for one seat and head, and
everything else (log, live streams, mail) is as for a player's move.

Each game's move is a job of its own (an asyncio task), so that a game whose hard bot thinks for seconds holds up
no other: a pass starts a job for every game awaiting the bot that has none under way, and the jobs think at once
(as many as `app.play.thinking` has workers, the others waiting their turn) and are recorded as they end. Within
the check that runs forever, a move made starts the next pass at once (its game may await the bot again); a job
holds no database connection while its bot thinks (`GameService.apply`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging

from sqlalchemy import bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.types import Integer

from app.play.commands import BotMove
from app.play.service import GameService
from app.store.availability import OutageLog

log = logging.getLogger(__name__)

# The awaited seats the bot plays, the games waiting longest first, leaving out the games whose move is under way
# here; one seat per game and pass, so that one game played by bots alone cannot hold up the others.
_DUE = text(
    """
    SELECT game_id, seat FROM (
        SELECT DISTINCT ON (g.id) g.id AS game_id, s.seat, g.updated_at
        FROM games AS g
        JOIN seats AS s ON s.game_id = g.id AND s.seat = ANY(g.to_act)
        JOIN users AS u ON u.id = s.user_id
        WHERE g.status = 'active' AND (u.is_bot OR s.absent) AND NOT g.id = ANY(:busy)
        ORDER BY g.id, s.seat
    ) AS due
    ORDER BY updated_at
    LIMIT :batch
    """
).bindparams(bindparam("busy", type_=ARRAY(Integer)))
MAX_PASSES = 50  # passes in a row, each after a move, before the check pauses for its interval


class BotKeeper:
    """Moves the seats the site's bot plays, one move per game at a time, until none is awaited."""

    def __init__(self, service: GameService, batch: int = 50) -> None:
        self.service = service
        self.batch = batch
        self._jobs: dict[int, asyncio.Task[bool]] = {}  # the moves under way, by game
        self._moved = asyncio.Event()  # a job recorded a move since the check last looked
        self._outage = OutageLog(log, "bots")

    async def tick(self) -> int:
        """One pass, waited out: a move started in each game that awaits one (at most `batch` games), then every
        move under way waited for; returns how many were recorded."""
        await self._start_due()
        return sum(await asyncio.gather(*self._jobs.values()))

    async def run_once(self) -> int:
        """Passes until no seat the bot plays is awaited (or MAX_PASSES); returns the moves made."""
        moved = 0
        for _ in range(MAX_PASSES):
            made = await self.tick()
            moved += made
            if not made:
                break
            await asyncio.sleep(0)  # let the requests waiting meanwhile go first
        return moved

    async def run_forever(self, interval: float) -> None:
        """Start the due moves every `interval` seconds, and at once after each move recorded (at most MAX_PASSES
        in a row); the moves under way are cancelled when this is."""
        try:
            passes = 0
            while True:
                try:
                    await self._start_due()
                except Exception as exc:
                    if not self._outage.failed(exc):
                        log.exception("bots run failed")
                else:
                    self._outage.succeeded()
                passes = passes + 1 if await self._a_move_within(interval) else 0
                if passes >= MAX_PASSES:
                    passes = 0
                    await asyncio.sleep(interval)
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Cancel the moves under way (a move being recorded is one statement: it commits or not)."""
        jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel()
        for job in jobs:
            with contextlib.suppress(asyncio.CancelledError):
                await job

    async def _start_due(self) -> None:
        """Start a job for each game awaiting the bot (at most `batch`) whose move is not already under way."""
        async with self.service.db.reading() as session:
            due = (await session.execute(_DUE, {"batch": self.batch, "busy": list(self._jobs)})).all()
        for game_id, seat in due:
            job = asyncio.create_task(self._move(game_id, seat), name=f"bot-move-{game_id}")
            self._jobs[game_id] = job
            job.add_done_callback(functools.partial(self._ended, game_id))

    def _ended(self, game_id: int, _: asyncio.Task[bool]) -> None:
        self._jobs.pop(game_id, None)

    async def _move(self, game_id: int, seat: int) -> bool:
        """The bot's move for `seat` of `game_id`: whether it was recorded. A failure is logged (a database outage
        once), and the game's move is tried again at a later pass."""
        try:
            moved = await self.service.apply(BotMove(game_id, seat)) is not None
        except Exception as exc:
            if not self._outage.failed(exc):
                log.exception("the bot's move for seat %s of game %s failed; retrying at the next check", seat, game_id)
            return False
        if moved:
            self._moved.set()
        return moved

    async def _a_move_within(self, interval: float) -> bool:
        """Wait up to `interval` seconds for a job to record a move; whether one did."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(interval):
                await self._moved.wait()
        moved = self._moved.is_set()
        self._moved.clear()
        return moved
