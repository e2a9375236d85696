"""Sending the live notices of recorded moves to every instance's bus (`app.play.bus`), after their commits.

Why not in the recording statement: PostgreSQL serialises every transaction of a database that notified, under one
lock held from its commit until its commit record is flushed to disk. A notice sent by the recording statement held
that lock across the move's own flush, so concurrent moves committed one flush after another instead of sharing
flushes as other writes do (measured at 10 concurrent games: half of a move's time inside PostgreSQL went waiting
for that lock; with 50 games, 1.6 of the server's sessions waited for it on average).

Here a move's notice is handed over once its change is committed, and the notices go out in transactions of their
own whose commits do not wait for the disk (a notice is no data: the change it tells of is durable already). They go
in batches: every notice handed over while a batch is on its way goes in the next one, so a busy server sends a few
small transactions rather than one per move, and no move's request waits for its notice. A notice is lost only when
the server stops before sending it or its batch fails (logged); every instance's streams then learn the game's head
at their bus's next catch-up (`app.play.bus`: one statement every LIVE_CATCH_UP_SECONDS reads the heads of the games
they watch), or sooner with the game's next change.
"""

from __future__ import annotations

import asyncio
import logging

import psycopg
from sqlalchemy.exc import DBAPIError

from app.play.bus import CHANNEL, Change
from app.store.db import Database, array_literal, driver_sql, fetch_all

log = logging.getLogger(__name__)

# One transaction for a batch, committed without waiting for the flush; the notices in the order handed over.
_ANNOUNCE = driver_sql("""
    SELECT count(pg_notify(%(channel)s, n.notice))
    FROM set_config('synchronous_commit', 'off', true), unnest(CAST(%(notices)s AS text[])) AS n(notice)
""")


class Announcer:
    """The notices of this process's recorded moves, sent in order, batch after batch, by one task at a time."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._pending: list[str] = []
        self._task: asyncio.Task[None] | None = None

    def send(self, change: Change) -> None:
        """Hand over the notice of a change already committed; it goes out with the next batch."""
        self._pending.append(change.to_json())
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="announcer")

    async def settled(self) -> None:
        """Return once every notice handed over so far has been sent (or failed): before the server stops."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self.db.driver() as connection:
                    await fetch_all(connection, _ANNOUNCE, {"channel": CHANNEL, "notices": array_literal(batch)})
            except (psycopg.Error, DBAPIError):
                log.warning("%d live notices could not be sent", len(batch), exc_info=True)
