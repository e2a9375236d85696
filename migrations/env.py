"""Alembic environment: the URL comes from the caller (`app.store.migrate`) or from the settings.

Run from the command line (`alembic upgrade head`) it reads DATABASE_URL, or starts the embedded PostgreSQL in
DATA_DIR for the duration of the command.
"""

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.store.tables import Base

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name)

target_metadata = Base.metadata


# Several replicas start at once against one database: an advisory lock lets one migrate while the others
# wait, then find nothing left to do. The lock is the transaction's (`pg_advisory_xact_lock`), taken inside the
# one transaction that runs every migration and released by its commit or rollback: behind PgBouncer in
# transaction pooling a session's lock and its unlock may run on different server connections, leaving the lock
# held on one of them for good and the next replica waiting for ever.
MIGRATION_LOCK = 7_424_211_001


def do_run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, compare_type=True)
    with context.begin_transaction():
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


async def run_async_migrations(url: str) -> None:
    # No prepared statements (psycopg's advice for PgBouncer in transaction pooling): a migration's statements run
    # once, and a statement prepared here would stay on the pooler's server connection for the next client.
    engine = create_async_engine(url, poolclass=pool.NullPool, connect_args={"prepare_threshold": None})
    async with engine.connect() as connection:
        await connection.run_sync(do_run_migrations)
    await engine.dispose()


def run_migrations_online() -> None:
    url = config.attributes.get("url")
    if url:
        asyncio.run(run_async_migrations(url))
        return
    from app.settings import Settings
    from app.store.db import resolve_url

    settings = Settings()
    url, server = resolve_url(settings.database_url, settings.data_dir)
    try:
        asyncio.run(run_async_migrations(url))
    finally:
        if server is not None:
            server.cleanup()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run them against a database")
run_migrations_online()
