"""The site's bot at its tables: a periodic check, run in every instance, that moves the seats the bot plays.

A seat is the bot's to play when its account is one of the site's bots, or when its player is absent (their clock
ran out and they have neither moved nor taken the seat back since). Each move is a command like a player's
(`BotMove` through `GameService.apply`): one move, one statement, recorded only if the game is still where the
bot saw it and the seat still the bot's — so two instances never move twice for one seat, and everything else
(log, live streams, mail) is as for a player's move.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import text

from app.play.commands import BotMove
from app.play.service import GameService
from app.store.availability import is_unavailable, run_forever

log = logging.getLogger(__name__)

# The awaited seats the bot plays, the games waiting longest first; one seat per game and pass, so that one
# game played by bots alone cannot hold up the others.
_DUE = text(
    """
    SELECT game_id, seat FROM (
        SELECT DISTINCT ON (g.id) g.id AS game_id, s.seat, g.updated_at
        FROM games AS g
        JOIN seats AS s ON s.game_id = g.id AND s.seat = ANY(g.to_act)
        JOIN users AS u ON u.id = s.user_id
        WHERE g.status = 'active' AND (u.is_bot OR s.absent)
        ORDER BY g.id, s.seat
    ) AS due
    ORDER BY updated_at
    LIMIT :batch
    """
)
MAX_PASSES = 50  # passes in one run before the check pauses (a game of bots and an absent player runs on later)


class BotKeeper:
    """Moves the seats the site's bot plays, one move per game and pass, until none is awaited."""

    def __init__(self, service: GameService, batch: int = 50) -> None:
        self.service = service
        self.batch = batch

    async def tick(self) -> int:
        """One pass: one bot move in each game that awaits one (at most `batch` games); returns how many."""
        async with self.service.db.reading() as session:
            due = (await session.execute(_DUE, {"batch": self.batch})).all()
        moved = 0
        for game_id, seat in due:
            try:
                if await self.service.apply(BotMove(game_id, seat)) is not None:
                    moved += 1
            except Exception as exc:
                if is_unavailable(exc):
                    raise  # the whole check waits for the database, not each game in turn
                log.exception("the bot's move for seat %s of game %s failed; retrying at the next check", seat, game_id)
        return moved

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
        await run_forever(self.run_once, interval, log, "bots")
