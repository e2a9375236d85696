"""Store fixtures: a Database on the clean test database, and a game row to append to."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.store.db import Database, make_engine
from app.store.tables import Game


@pytest.fixture
async def db(clean_db: str) -> AsyncIterator[Database]:
    engine = make_engine(clean_db, pool_size=5)
    yield Database(clean_db, engine, async_sessionmaker(engine, expire_on_commit=False))
    await engine.dispose()


@pytest.fixture
async def game_id(db: Database) -> int:
    async with db.session() as session:
        game = Game(name="store test", seat_count=2, variants={}, seed=12345)
        session.add(game)
        await session.commit()
        return game.id
