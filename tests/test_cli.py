"""The command line: `migrate` and `create-admin` against DATABASE_URL."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg

from app.store.db import to_libpq_url


def run_cli(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": to_libpq_url(database_url), "PASSWORD_HASHING": "cheapest"}
    env.pop("ADMIN_PASSWORD", None)
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_migrate_and_create_admin(clean_db: str) -> None:
    assert run_cli(clean_db, "migrate").returncode == 0
    done = run_cli(clean_db, "create-admin", "root", "--password", "a long password")
    assert done.returncode == 0, done.stderr
    again = run_cli(clean_db, "create-admin", "root", "--password", "another long password")
    assert again.returncode == 0, again.stderr
    with psycopg.connect(to_libpq_url(clean_db)) as conn:
        rows = conn.execute("SELECT username, is_admin, password_hash FROM users").fetchall()
    assert [(name, admin) for name, admin, _ in rows] == [("root", True)]
    assert rows[0][2].startswith("$argon2id$")


def test_create_admin_without_a_password_or_a_terminal_refuses(clean_db: str) -> None:
    result = run_cli(clean_db, "create-admin", "root")
    assert result.returncode == 2 and "password" in result.stderr


def test_create_admin_checks_the_address_as_sign_up_does(clean_db: str) -> None:
    # The issue "Corrections", item 6: the same validation everywhere an address enters.
    assert run_cli(clean_db, "migrate").returncode == 0
    refused = run_cli(clean_db, "create-admin", "root", "--password", "a long password", "--email", "a;b@example.com")
    assert refused.returncode == 2 and "valid email address" in refused.stderr
    done = run_cli(clean_db, "create-admin", "root", "--password", "a long password", "--email", "Root@Bücher.Example")
    assert done.returncode == 0, done.stderr
    plain = run_cli(clean_db, "create-admin", "boss", "--password", "a long password")
    assert plain.returncode == 0, plain.stderr
    with psycopg.connect(to_libpq_url(clean_db)) as conn:
        rows = conn.execute("SELECT username, email FROM users ORDER BY id").fetchall()
    assert rows == [("root", "root@xn--bcher-kva.example"), ("boss", "boss@admin.invalid")]
