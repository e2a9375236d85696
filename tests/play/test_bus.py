"""The bus: a notice queued in a transaction reaches every instance on commit, never on rollback."""

from __future__ import annotations

import asyncio

import psycopg
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.play.bus import CHANNEL, Bus, Change, ChatPosted, SignInsEnded, TableChanged, notice_from_json
from app.store.db import make_engine, to_libpq_url


async def test_commit_reaches_other_instances_and_rollback_does_not(clean_db: str) -> None:
    a, b = Bus(to_libpq_url(clean_db)), Bus(to_libpq_url(clean_db))
    await a.start()
    await b.start()
    engine = make_engine(clean_db)
    sessions = async_sessionmaker(engine)
    try:
        async with a.subscribe(7) as on_a, b.subscribe(7) as on_b, b.subscribe(8) as other_game:
            async with sessions() as session:
                await session.execute(select(func.pg_notify(CHANNEL, Change(7, 3, (1,), "active").to_json())))
                await session.rollback()
            async with sessions() as session:
                await session.execute(select(func.pg_notify(CHANNEL, Change(7, 4, (0, 1), "active").to_json())))
                await session.execute(text("SELECT 1"))
                await session.commit()
            for queue in (on_a, on_b):
                change = await asyncio.wait_for(queue.get(), timeout=5)
                assert change == Change(7, 4, (0, 1), "active")
                assert queue.empty()
            assert other_game.empty()
        assert a.subscriber_count(7) == b.subscriber_count(7) == 0
    finally:
        await engine.dispose()
        await a.stop()
        await b.stop()


async def test_a_slow_subscriber_keeps_the_newest_notice() -> None:
    bus = Bus("postgresql://unused", queue_size=2)
    async with bus.subscribe(1) as queue:
        for seq in range(1, 6):
            bus.deliver(Change(1, seq, (0,), "active"))
        assert [queue.get_nowait().seq for _ in range(2)] == [4, 5]


async def test_after_a_lost_connection_subscribers_get_the_current_head(clean_db: str) -> None:
    """Notices sent while the connection was down are lost, a seat's handover among them: the subscribers get
    the current head, marked as one after which who sits where must be read again, and the hearers of gaps (the
    game service, which then forgets who it remembers at each seat) are told."""
    bus = Bus(to_libpq_url(clean_db))
    gaps: list[str] = []
    bus.hear(lambda change: None, lambda: gaps.append("gap"))
    await bus.start()
    try:
        with psycopg.connect(to_libpq_url(clean_db), autocommit=True) as conn:
            gid = conn.execute(
                "INSERT INTO games (name, seat_count, variants, seed)"
                " VALUES ('g', 2, '{}', decode(repeat('00', 32), 'hex')) RETURNING id"
            ).fetchone()[0]  # type: ignore[index]
            async with bus.subscribe(gid) as queue:
                killed = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                    (bus.name,),
                ).fetchall()
                assert killed == [(True,)]
                # This change is announced while nobody listens: its notice is lost.
                conn.execute("UPDATE games SET seq = 5, to_act = '{1}', status = 'active' WHERE id = %s", (gid,))
                change = await asyncio.wait_for(queue.get(), timeout=10)
                assert change == Change(gid, 5, (1,), "active", resync=True)
                assert isinstance(change, Change) and change.reseats
                assert gaps == ["gap"]
    finally:
        await bus.stop()


async def test_after_a_lost_connection_the_chat_and_an_open_tables_seats_are_read_again(clean_db: str) -> None:
    """A chat message and a change of an open table's seats are announced by the transactions that make them, so
    only a lost connection loses their notices: after the reconnect the streams of a game whose chat holds a
    message newer than any the bus heard of are told to read the chat again, those of an open table to read its
    seats again; a game whose newest message was heard, or that has no chat, gets its head alone."""
    bus = Bus(to_libpq_url(clean_db))
    await bus.start()
    try:
        with psycopg.connect(to_libpq_url(clean_db), autocommit=True) as conn:
            user = conn.execute(
                "INSERT INTO users (username, email, password_hash) VALUES ('ann', 'ann@example.com', 'x') RETURNING id"
            ).fetchone()[0]  # type: ignore[index]

            def game(status: str) -> int:
                found = conn.execute(
                    "INSERT INTO games (name, seat_count, variants, seed, status)"
                    " VALUES ('g', 2, '{}', decode(repeat('00', 32), 'hex'), %s) RETURNING id",
                    (status,),
                ).fetchone()
                assert found is not None
                return int(found[0])

            def chat(game_id: int) -> int:
                found = conn.execute(
                    "INSERT INTO chat_messages (game_id, user_id, text) VALUES (%s, %s, 'hi') RETURNING id",
                    (game_id, user),
                ).fetchone()
                assert found is not None
                return int(found[0])

            missed, heard, quiet = game("open"), game("active"), game("active")
            async with bus.subscribe(missed) as on_missed, bus.subscribe(heard) as on_heard, \
                    bus.subscribe(quiet) as on_quiet:
                bus.deliver(ChatPosted(missed, chat(missed)))  # heard, as its notice would be
                bus.deliver(ChatPosted(heard, chat(heard)))
                for queue in (on_missed, on_heard):
                    queue.get_nowait()
                killed = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                    (bus.name,),
                ).fetchall()
                assert killed == [(True,)]
                newest = chat(missed)  # written while nobody listens: its notice (none sent here) is lost
                first = await asyncio.wait_for(on_missed.get(), timeout=10)
                assert isinstance(first, Change) and first.resync
                assert [on_missed.get_nowait(), on_missed.get_nowait()] == [TableChanged(missed),
                                                                          ChatPosted(missed, newest)]
                for queue in (on_heard, on_quiet):
                    change = await asyncio.wait_for(queue.get(), timeout=10)
                    assert isinstance(change, Change) and change.resync
                await asyncio.sleep(0.1)
                assert on_missed.empty() and on_heard.empty() and on_quiet.empty()
    finally:
        await bus.stop()


def test_a_chat_notice_names_the_message_and_a_change_stays_a_change() -> None:
    """Both kinds of notice share the channel: each payload reads back as what was sent."""
    posted = ChatPosted(7, 42)
    assert notice_from_json(posted.to_json()) == posted
    change = Change(7, 3, (0, 1), "active", only=1)
    assert notice_from_json(change.to_json()) == change


async def test_a_revoked_sign_in_reaches_only_its_streams_and_is_never_the_notice_a_full_queue_drops() -> None:
    bus = Bus("postgresql://unused", queue_size=2)
    async with (
        bus.subscribe(7) as mine,
        bus.subscribe(7) as other,
        bus.watch_sign_in(1, "key-a", mine),
        bus.watch_sign_in(1, "key-b", other),
    ):
        bus.deliver(SignInsEnded(1, "key-a"))
        for seq in (2, 3, 4):
            bus.deliver(Change(7, seq, (0,), "active"))
        kept = [mine.get_nowait() for _ in range(mine.qsize())]
        assert SignInsEnded(1, "key-a") in kept
        assert all(not isinstance(n, SignInsEnded) for n in [other.get_nowait() for _ in range(other.qsize())])
        bus.deliver(SignInsEnded(1))  # every sign-in of user 1
        assert other.get_nowait() == SignInsEnded(1)
        assert notice_from_json(SignInsEnded(1, "k").to_json()) == SignInsEnded(1, "k")
