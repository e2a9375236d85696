"""Who is watching a game's page right now, recorded in PostgreSQL so that every instance's mail worker knows.

A live stream registers itself while it lasts and refreshes its row; the row also carries an expiry, so a
stream whose instance died stops counting after `ttl` seconds instead of muting its user for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import anyio
from sqlalchemy import delete, exists, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.db import Database
from app.store.tables import Watcher

log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


@contextlib.asynccontextmanager
async def watching(db: Database, game_id: int, user_id: int, *, ttl: float = 90.0) -> AsyncIterator[str]:
    """Record that `user_id` watches `game_id` until the block exits (refreshing the row every ttl/3)."""
    watcher_id = uuid.uuid4().hex
    async with db.session() as session:
        session.add(
            Watcher(id=watcher_id, game_id=game_id, user_id=user_id, expires_at=_now() + timedelta(seconds=ttl))
        )
        await session.commit()
    refresher = asyncio.create_task(_refresh(db, watcher_id, ttl), name=f"presence-{watcher_id[:8]}")
    try:
        yield watcher_id
    finally:
        refresher.cancel()
        # The stream is being cancelled (the client left); the clean-up must still reach the database.
        with anyio.CancelScope(shield=True):
            with contextlib.suppress(asyncio.CancelledError):
                await refresher
            try:
                async with db.session() as session:
                    await session.execute(delete(Watcher).where(Watcher.id == watcher_id))
                    await session.commit()
            except Exception:  # the row expires on its own
                log.warning("could not remove watcher %s; it expires by itself", watcher_id, exc_info=True)


async def _refresh(db: Database, watcher_id: str, ttl: float) -> None:
    while True:
        await asyncio.sleep(ttl / 3)
        try:
            async with db.session() as session:
                await session.execute(
                    update(Watcher).where(Watcher.id == watcher_id).values(expires_at=_now() + timedelta(seconds=ttl))
                )
                await session.commit()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not refresh watcher %s", watcher_id, exc_info=True)


async def is_watching(session: AsyncSession, game_id: int, user_id: int, now: datetime) -> bool:
    """Whether `user_id` has a live connection to `game_id`'s page on any instance."""
    query = select(exists().where(Watcher.game_id == game_id, Watcher.user_id == user_id, Watcher.expires_at > now))
    return bool(await session.scalar(query))
