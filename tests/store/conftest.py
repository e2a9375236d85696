"""Store fixtures: a Database on the clean test database, a game row, and a way to put events in its log."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.rules.fairness import seed_bytes
from app.store.db import Database, make_engine
from app.store.tables import Game, GameEvent


@pytest.fixture
async def db(clean_db: str) -> AsyncIterator[Database]:
    engine = make_engine(clean_db, pool_size=5)
    database = Database(clean_db, engine, async_sessionmaker(engine, expire_on_commit=False))
    yield database
    await database.close()


@pytest.fixture
async def game_id(db: Database) -> int:
    async with db.session() as session:
        game = Game(name="store test", seat_count=2, variants={}, seed=seed_bytes(12345))
        session.add(game)
        await session.commit()
        return game.id


async def put_events(db: Database, game_id: int, events: Sequence[dict[str, Any]]) -> int:
    """Append `events` to the game's log with plain inserts (the store's tests stay below the play layer, whose
    `app.play.record` appends in the server); returns the new head."""
    async with db.session() as session:
        head = await session.scalar(select(Game.seq).where(Game.id == game_id).with_for_update())
        assert head is not None
        rows = [
            {"game_id": game_id, "seq": head + n, "type": e["type"], "data": {k: e[k] for k in e if k != "type"}}
            for n, e in enumerate(events, start=1)
        ]
        await session.execute(insert(GameEvent), rows)
        await session.execute(update(Game).where(Game.id == game_id).values(seq=head + len(events)))
        await session.commit()
    return head + len(events)
