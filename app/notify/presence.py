"""Who is watching a game's page right now, recorded in PostgreSQL so that every instance's mail worker knows.

A live stream registers itself while it lasts; its row carries an expiry, so a stream whose instance died stops
counting after `ttl` seconds instead of muting its user for ever. The rows of one instance are refreshed
together, by one statement every ttl/3 (`_Refresher`): a server holding a thousand streams refreshes them with
one statement, not with a thousand transactions that would crowd the pool and the event loop (measured: a third
of the server's time while 1,000 streams were open).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
import weakref
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import anyio
from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.db import Database, fetch_all
from app.store.tables import Watcher

log = logging.getLogger(__name__)

_INSERT = "INSERT INTO watchers (id, game_id, user_id, expires_at) VALUES (%(id)s, %(game)s, %(user)s, %(expires)s)"
_DELETE = "DELETE FROM watchers WHERE id = %(id)s"
_REFRESH = "UPDATE watchers SET expires_at = %(expires)s WHERE id = ANY(%(ids)s)"


def _now() -> datetime:
    return datetime.now(UTC)


class _Refresher:
    """The watcher rows this process holds with one `ttl`, and the one task that refreshes them all every ttl/3
    while there are any."""

    def __init__(self, db: Database, ttl: float) -> None:
        self.db = db
        self.ttl = ttl
        self.ids: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def add(self, watcher_id: str) -> None:
        self.ids.add(watcher_id)
        if self._task is None or self._task.done() or self._task.get_loop() is not asyncio.get_running_loop():
            self._task = asyncio.create_task(self._run(), name="presence-refresh")

    def discard(self, watcher_id: str) -> None:
        self.ids.discard(watcher_id)
        if not self.ids and self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while self.ids:
            await asyncio.sleep(self.ttl / 3)
            try:
                async with self.db.driver() as connection:
                    await fetch_all(
                        connection, _REFRESH, {"expires": _now() + timedelta(seconds=self.ttl), "ids": list(self.ids)}
                    )
            except Exception:  # the rows expire by themselves; the next round tries again
                log.warning("could not refresh %d watchers", len(self.ids), exc_info=True)


# Per database (one per process, tests aside; by id, forgotten with the database) and ttl: its refresher.
_refreshers: dict[int, dict[float, _Refresher]] = {}


def _refresher(db: Database, ttl: float) -> _Refresher:
    if id(db) not in _refreshers:
        _refreshers[id(db)] = {}
        weakref.finalize(db, _refreshers.pop, id(db), None)
    by_ttl = _refreshers[id(db)]
    if ttl not in by_ttl:
        by_ttl[ttl] = _Refresher(db, ttl)
    return by_ttl[ttl]


@contextlib.asynccontextmanager
async def watching(db: Database, game_id: int, user_id: int, *, ttl: float = 90.0) -> AsyncIterator[str]:
    """Record that `user_id` watches `game_id` until the block exits (its row refreshed every ttl/3 with this
    process's others)."""
    watcher_id = uuid.uuid4().hex
    async with db.driver() as connection:
        await fetch_all(
            connection,
            _INSERT,
            {"id": watcher_id, "game": game_id, "user": user_id, "expires": _now() + timedelta(seconds=ttl)},
        )
    refresher = _refresher(db, ttl)
    refresher.add(watcher_id)
    try:
        yield watcher_id
    finally:
        refresher.discard(watcher_id)
        # The stream is being cancelled (the client left); the clean-up must still reach the database.
        with anyio.CancelScope(shield=True):
            try:
                async with db.driver() as connection:
                    await fetch_all(connection, _DELETE, {"id": watcher_id})
            except Exception:  # the row expires on its own
                log.warning("could not remove watcher %s; it expires by itself", watcher_id, exc_info=True)


async def is_watching(session: AsyncSession, game_id: int, user_id: int, now: datetime) -> bool:
    """Whether `user_id` has a live connection to `game_id`'s page on any instance."""
    query = select(exists().where(Watcher.game_id == game_id, Watcher.user_id == user_id, Watcher.expires_at > now))
    return bool(await session.scalar(query))
