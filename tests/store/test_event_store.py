"""The event log: events read back as written, in order; the key (game_id, seq) forbids forks. (Appends, with
their optimistic concurrency, are `app.play.record`'s: tests/play/test_record.py.)"""

from __future__ import annotations

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from app.store import event_store
from app.store.db import Database
from app.store.tables import Game, GameEvent
from tests.store.conftest import put_events


async def test_load_returns_the_events_in_order(db: Database, game_id: int) -> None:
    await put_events(db, game_id, [{"type": "a", "x": 1}, {"type": "b"}])
    head = await put_events(db, game_id, [{"type": "c", "nested": {"k": [1, 2]}}])
    async with db.session() as session:
        stored = await event_store.load(session, game_id)
        later = await event_store.load(session, game_id, after=2)
        seq = await session.scalar(select(Game.seq).where(Game.id == game_id))
    assert [(e.seq, e.event) for e in stored] == [
        (1, {"type": "a", "x": 1}),
        (2, {"type": "b"}),
        (3, {"type": "c", "nested": {"k": [1, 2]}}),
    ]
    assert [e.seq for e in later] == [3] and seq == head == 3


async def test_the_primary_key_refuses_a_second_event_at_a_seq(db: Database, game_id: int) -> None:
    await put_events(db, game_id, [{"type": "a"}])
    async with db.session() as session:
        with pytest.raises(IntegrityError):
            await session.execute(insert(GameEvent).values(game_id=game_id, seq=1, type="fork", data={}))
