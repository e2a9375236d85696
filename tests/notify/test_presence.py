"""Who watches a game: the rows of the live streams, refreshed together while they last and removed after."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from conftest import Api
from sqlalchemy import select

from app.notify import presence
from app.play.service import GameService
from app.store.tables import Watcher
from tests.notify.conftest import now, started


async def test_watchers_outlive_their_ttl_while_watching_refreshed_together_and_leave_no_row(
    api: Api, service: GameService
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    ann, bob = (table.player(seat) for seat in sorted(table.by_seat))
    async with (
        presence.watching(service.db, table.id, ann.id, ttl=0.6) as first,
        presence.watching(service.db, table.id, bob.id, ttl=0.6) as second,
    ):
        async with service.db.reading() as session:
            inserted = dict((await session.execute(select(Watcher.id, Watcher.expires_at))).all())
        await asyncio.sleep(1.0)  # beyond the ttl: only a refresh keeps the rows in force
        async with service.db.reading() as session:
            assert await presence.is_watching(session, table.id, ann.id, now())
            assert await presence.is_watching(session, table.id, bob.id, now())
            refreshed = dict((await session.execute(select(Watcher.id, Watcher.expires_at))).all())
        assert refreshed.keys() == {first, second}
        assert all(refreshed[w] > inserted[w] for w in refreshed)
        # One statement refreshed both: they carry the same expiry.
        assert refreshed[first] == refreshed[second]
    async with service.db.reading() as session:
        assert (await session.execute(select(Watcher.id))).all() == []
        assert not await presence.is_watching(session, table.id, ann.id, now() - timedelta(seconds=1))
