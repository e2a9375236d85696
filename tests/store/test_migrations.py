"""Migrations: every one reverses, and together they build exactly the tables the models declare."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from alembic import command
from sqlalchemy.engine import make_url

from app.rules.fairness import commitment, seed_bytes, seed_number
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


def test_an_old_integer_seed_becomes_its_32_bytes_with_its_commitment(scratch_url: str) -> None:
    """Issue 14: existing games keep working. Migration 0006 turns an integer seed into its canonical 32 bytes
    (`app.rules.fairness`: the same generator key, so the log replays unchanged), computes its commitment and
    marks it not chosen; the downgrade gives the integer back."""
    migrate.upgrade(scratch_url, "0003")
    old_seed = 2**63 - 2
    with psycopg.connect(to_libpq_url(scratch_url), autocommit=True) as conn:
        conn.execute("INSERT INTO games (name, seat_count, variants, seed) VALUES ('old', 2, '{}', %s)", (old_seed,))
    migrate.upgrade(scratch_url)
    with psycopg.connect(to_libpq_url(scratch_url), autocommit=True) as conn:
        row = conn.execute("SELECT seed, seed_commitment, seed_chosen FROM games").fetchone()
        assert row is not None
        seed, committed, chosen = row
        assert bytes(seed) == seed_bytes(old_seed) and seed_number(bytes(seed)) == old_seed
        assert committed == commitment(seed_bytes(old_seed)) and chosen is False
        with pytest.raises(psycopg.errors.CheckViolation):
            conn.execute("INSERT INTO games (name, seat_count, variants, seed) VALUES ('short', 2, '{}', '\\x01')")
    migrate.downgrade(scratch_url, "0003")
    with psycopg.connect(to_libpq_url(scratch_url), autocommit=True) as conn:
        assert conn.execute("SELECT seed FROM games").fetchone() == (old_seed,)
