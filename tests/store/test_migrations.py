"""Migrations: every one reverses, and together they build exactly the tables the models declare."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from alembic import command
from sqlalchemy.engine import make_url

from app.store import migrate
from app.store.db import to_libpq_url


@pytest.fixture
def scratch_url(database_url: str) -> Iterator[str]:
    """A fresh, empty database on the test server, dropped afterwards."""
    admin = to_libpq_url(database_url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS migration_check")
        conn.execute("CREATE DATABASE migration_check")
    try:
        yield make_url(database_url).set(database="migration_check").render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS migration_check WITH (FORCE)")


def test_upgrade_downgrade_upgrade_and_models_match(scratch_url: str) -> None:
    migrate.upgrade(scratch_url)
    migrate.downgrade(scratch_url, "base")
    migrate.upgrade(scratch_url)
    command.check(migrate.alembic_config(scratch_url))  # raises if the models drifted from the migrations
