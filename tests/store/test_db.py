"""The embedded PostgreSQL: data survives a restart, and an owner killed by SIGKILL does not leave the server
running forever (the next owner forgets it and stops the server when done). And the compaction of statements
written for the driver, and the pooled connections' prepared statements kept past transactions that wrote nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import psutil
import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.store.db import (
    Database,
    _is_alive,
    _readable,
    array_literal,
    driver_sql,
    end_unwritten,
    fetch_all,
    make_engine,
    start_embedded,
    to_libpq_url,
    to_sqlalchemy_url,
    untyped,
)

OWNER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from app.store.db import start_embedded
    server = start_embedded(Path(sys.argv[1]))
    print(server.get_uri(), flush=True)
    time.sleep(600)
    """
)


def test_sigkilled_owner_is_forgotten_and_the_next_owner_stops_the_server(tmp_path: Path) -> None:
    pgdata = tmp_path / "pgdata"
    owner = subprocess.Popen([sys.executable, "-c", OWNER, str(pgdata)], stdout=subprocess.PIPE, text=True)
    try:
        uri = owner.stdout.readline().strip() if owner.stdout else ""
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute("CREATE TABLE kept (v int)")
            conn.execute("INSERT INTO kept VALUES (42)")
    finally:
        owner.kill()
        owner.wait(10)
    postmaster_pid = int((pgdata / "postmaster.pid").read_text().split()[0])
    assert _is_alive(postmaster_pid), "the server outlives a SIGKILLed owner (that is the pitfall)"

    server = start_embedded(pgdata)
    try:
        assert str(owner.pid) not in (pgdata / ".handle_pids.json").read_text()
        with psycopg.connect(server.get_uri()) as conn:
            assert conn.execute("SELECT v FROM kept").fetchone() == (42,)
        assert to_sqlalchemy_url(server.get_uri()).startswith("postgresql+psycopg://")
    finally:
        server.cleanup()
    assert not (pgdata / "postmaster.pid").exists()
    assert _stopped(postmaster_pid)


def _stopped(pid: int) -> bool:
    """Gone, or a zombie nobody reaped yet (this sandbox leaves those behind)."""
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


def test_driver_sql_drops_comments_and_runs_of_white_space() -> None:
    sql = """
        SELECT a,   -- the first
               b
        FROM t  WHERE x = %(x)s
    """
    assert driver_sql(sql) == "SELECT a, b FROM t WHERE x = %(x)s"


# Strings that PostgreSQL's array syntax treats specially: quotes, backslashes, braces, commas, white space, the
# word NULL, the empty string, and JSON (what the recording statement's jsonb arrays carry).
AWKWARD = [
    "plain",
    'say "hi"',
    "back\\slash",
    '\\"',
    "{braces}",
    "a,b",
    " padded ",
    "NULL",
    "null",
    "",
    "é ✓ 😀",
    '{"note": "a \\"quoted\\" word", "path": "C:\\\\x"}',
]


async def test_array_literals_read_back_as_the_arrays_psycopg_would_send(db: Database) -> None:
    """An array sent as its text form (`array_literal`, as the recording statement sends its arrays) is read by
    PostgreSQL as the same array psycopg's own adaptation of the list gives, for every element type it is used
    with: strings (and JSON), integers with NULLs, times with their offset, and the empty array."""
    now = datetime(2026, 12, 2, 9, 30, 15, 123456, tzinfo=UTC)
    cases: list[tuple[str, list[Any]]] = [
        ("varchar[]", AWKWARD),
        ("jsonb[]", ['{"a": 1}', '{"note": "say \\"hi\\" \\\\ {x}, NULL"}', "[]", '"NULL"']),
        ("integer[]", [3, None, -7, 0, 2**31 - 1]),
        ("timestamptz[]", [now, None, now.astimezone(timezone(timedelta(hours=-5)))]),
        ("integer[]", []),
    ]
    async with db.driver() as connection:
        for kind, values in cases:
            sql = (
                f"SELECT CAST(%(literal)s AS {kind}) IS NOT DISTINCT FROM CAST(%(native)s AS {kind}), "
                f"CAST(%(literal)s AS {kind})"
            )
            [(same, read)] = await fetch_all(connection, sql, {"literal": array_literal(values), "native": values})
            assert same, (kind, values, read)
            assert read == ([json.loads(v) for v in values] if kind == "jsonb[]" else values)


async def test_untyped_integers_read_back_as_sent(db: Database) -> None:
    """An integer sent as its text form (`untyped`, as the recording statement sends its integers) is read by
    PostgreSQL as the integer it is, of any size the column holds, and None as NULL."""
    async with db.driver() as connection:
        for value in (0, -7, 2**15, 2**31 - 1, None):
            [(read,)] = await fetch_all(connection, "SELECT CAST(%(n)s AS integer)", {"n": untyped(value)})
            assert read == value


def test_untyped_integers_refuse_booleans() -> None:
    """A boolean is an int to Python, but its text form is no integer's: refused, never sent."""
    with pytest.raises(TypeError):
        untyped(True)


def test_array_literals_refuse_what_they_cannot_write() -> None:
    """A boolean (an int to Python) or any other type has no text form here: refused, never guessed at."""
    refused: list[Any] = [True, 1.5, b"x", [1]]
    for value in refused:
        with pytest.raises(TypeError):
            array_literal([value])


FD_SETSIZE = 1024  # the descriptors select.select() can watch: 0 to 1,023


@contextlib.contextmanager
def _descriptors_held(count: int) -> Iterator[None]:
    """`count` more open file descriptors in this process, connected sockets (the soft limit raised if needed),
    as a server holding that many live streams has."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"the hard limit of open files ({hard}) is too low")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    held = [end for _ in range((count + 1) // 2) for end in socket.socketpair()]
    try:
        yield
    finally:
        for end in held:
            end.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def test_pool_checkouts_work_past_1024_open_files(db: Database) -> None:
    """Corrections item 11: the checkout's look at an idle connection's socket must not fail once its descriptor
    number passes select()'s 1,024, and must still refuse a connection the server closed."""
    with _descriptors_held(FD_SETSIZE + 100):
        async with db.session() as session:
            assert (await session.execute(text("SELECT 1"))).scalar_one() == 1
            raw = await (await session.connection()).get_raw_connection()
            fd = raw.driver_connection.pgconn.socket  # type: ignore[union-attr]
            assert fd >= FD_SETSIZE
            backend = (await session.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        with psycopg.connect(to_libpq_url(db.url), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
        await asyncio.sleep(0.2)  # the server's goodbye reaches the pooled connection's socket
        async with db.session() as session:
            assert (await session.execute(text("SELECT pg_backend_pid()"))).scalar_one() != backend


async def _prepared_after_a_claim_that_found_nothing(db: Database, end: bool) -> int:
    """How many statements the connection of a transaction has prepared once it is back in the pool, after the
    transaction ran one statement often enough for psycopg to prepare it, found nothing to lock, and ended with
    `end_unwritten` (`end`) or as a session closed unfinished ends (ROLLBACK)."""
    async with db.session() as session:
        pooled = await (await session.connection()).get_raw_connection()
        connection = pooled.driver_connection
        assert isinstance(connection, psycopg.AsyncConnection)
        for _ in range(6):  # psycopg prepares a statement on its sixth run on a connection (prepare_threshold 5)
            await session.execute(text("SELECT 1 FROM outbox WHERE id = -1 FOR UPDATE SKIP LOCKED"))
        if end:
            await end_unwritten(session)
    cursor = await connection.execute("SELECT count(*) FROM pg_prepared_statements")
    found = await cursor.fetchone()
    await connection.rollback()
    assert found is not None
    return int(found[0])


async def test_a_transaction_that_wrote_nothing_keeps_its_connections_prepared_statements(db: Database) -> None:
    # The mail worker's runs that find nothing end this way: the move's recording statement, prepared on the same
    # pooled connection, stays prepared (psycopg forgets them all when a connection rolls back).
    assert await _prepared_after_a_claim_that_found_nothing(db, end=True) >= 1
    assert await _prepared_after_a_claim_that_found_nothing(db, end=False) == 0


async def test_a_driver_connection_is_kept_in_autocommit_for_the_next_use(db: Database) -> None:
    """`driver` hands the connection it got back idle out again, still in autocommit, without the pool: the pool
    counts it idle, not in use."""
    async with db.driver() as first:
        assert first.autocommit
        assert db.pool_use()["in_use"] == 1
    assert db.pool_use()["in_use"] == 0
    async with db.driver() as second:
        assert second is first and second.autocommit
        [(one,)] = await fetch_all(second, "SELECT 1", {})
        assert one == 1


async def test_a_failed_statement_leaves_a_kept_connection_usable(db: Database) -> None:
    """A statement PostgreSQL refuses leaves as SQLAlchemy's error; its connection, idle again in autocommit, is
    kept and serves the next use."""
    with pytest.raises(DBAPIError):
        async with db.driver() as connection:
            await fetch_all(connection, "SELECT 1 / 0", {})
    async with db.driver() as again:
        assert again is connection
        [(one,)] = await fetch_all(again, "SELECT 1", {})
        assert one == 1


async def test_a_kept_connection_the_server_closed_is_replaced_unseen(db: Database) -> None:
    """A kept connection whose backend the server ended is dropped on its next use, as the pool drops its own on
    checkout, and a new one serves the request without an error."""
    async with db.driver() as kept:
        [(pid,)] = await fetch_all(kept, "SELECT pg_backend_pid()", {})
    # The kept one, again, ended while in use from a second connection.
    async with db.driver() as other, db.session() as session:
        await session.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    for _ in range(50):  # the server's goodbye reaches the socket
        if _readable(kept.pgconn.socket):
            break
        await asyncio.sleep(0.05)
    async with db.driver() as fresh:
        assert fresh is not kept
        [(one,)] = await fetch_all(fresh, "SELECT 1", {})
        assert one == 1
    assert other is kept


async def test_closing_the_database_returns_the_kept_connections_to_the_pool(clean_db: str) -> None:
    engine = make_engine(clean_db, pool_size=2)
    database = Database(clean_db, engine, async_sessionmaker(engine, expire_on_commit=False))
    async with database.driver() as connection:
        pass
    assert engine.pool.checkedout() == 1  # type: ignore[attr-defined]
    await database.close()
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    assert connection.closed
