"""The event log: appends at the expected seq or not at all; the key (game_id, seq) forbids forks."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from app.store import event_store
from app.store.db import Database
from app.store.event_store import StaleSeq
from app.store.tables import Game, GameEvent


async def test_append_numbers_events_and_load_returns_them(db: Database, game_id: int) -> None:
    async with db.session() as session:
        head = await event_store.append(session, game_id, 0, [{"type": "a", "x": 1}, {"type": "b"}], actor=None)
        head = await event_store.append(session, game_id, head, [{"type": "c", "nested": {"k": [1, 2]}}], actor=1)
        await session.commit()
    assert head == 3
    async with db.session() as session:
        stored = await event_store.load(session, game_id)
        later = await event_store.load(session, game_id, after=2)
        seq = await session.scalar(select(Game.seq).where(Game.id == game_id))
    assert [(e.seq, e.event, e.actor) for e in stored] == [
        (1, {"type": "a", "x": 1}, None),
        (2, {"type": "b"}, None),
        (3, {"type": "c", "nested": {"k": [1, 2]}}, 1),
    ]
    assert [e.seq for e in later] == [3] and seq == 3


async def test_append_at_a_stale_seq_writes_nothing(db: Database, game_id: int) -> None:
    async with db.session() as session:
        await event_store.append(session, game_id, 0, [{"type": "a"}])
        await session.commit()
    for expected in (0, 2, 7):
        async with db.session() as session:
            with pytest.raises(StaleSeq):
                await event_store.append(session, game_id, expected, [{"type": "late"}])
            await session.commit()
    async with db.session() as session:
        assert [e.event["type"] for e in await event_store.load(session, game_id)] == ["a"]


async def test_concurrent_appends_at_the_same_seq_one_wins(db: Database, game_id: int) -> None:
    async def attempt(n: int) -> str:
        async with db.session() as session:
            try:
                await event_store.append(session, game_id, 0, [{"type": "move", "by": n}])
                await asyncio.sleep(0.01)  # hold the row while the others queue behind it
                await session.commit()
                return "won"
            except StaleSeq:
                return "stale"

    results = await asyncio.gather(*(attempt(n) for n in range(8)))
    assert sorted(results) == ["stale"] * 7 + ["won"]
    async with db.session() as session:
        assert [e.seq for e in await event_store.load(session, game_id)] == [1]


async def test_the_primary_key_refuses_a_second_event_at_a_seq(db: Database, game_id: int) -> None:
    async with db.session() as session:
        await event_store.append(session, game_id, 0, [{"type": "a"}])
        await session.commit()
    async with db.session() as session:
        with pytest.raises(IntegrityError):
            await session.execute(insert(GameEvent).values(game_id=game_id, seq=1, type="fork", data={}))


async def test_appending_to_a_missing_game_is_stale(db: Database) -> None:
    async with db.session() as session:
        with pytest.raises(StaleSeq):
            await event_store.append(session, 424242, 0, [{"type": "a"}])
