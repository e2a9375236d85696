"""Debian's PgBouncer, started by a test in front of the test PostgreSQL, in transaction pooling.

The binary comes from Debian's `pgbouncer` package (`./run.sh test` installs it as root, as it installs chromium);
without it the tests that need it are skipped with a message saying so.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from conftest import free_port
from psycopg.conninfo import conninfo_to_dict

from app.store.db import to_libpq_url

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def require_pgbouncer() -> str:
    """The path of the pgbouncer binary, or skip the calling test with what to install."""
    if not os.access(PGBOUNCER, os.X_OK):
        pytest.skip("pgbouncer is not installed: `apt-get install pgbouncer` (./run.sh test does it as root)")
    return PGBOUNCER


@contextlib.contextmanager
def pgbouncer(server_url: str, *, pool_size: int = 3) -> Iterator[str]:
    """Run PgBouncer in transaction pooling in front of the server of `server_url` until the block exits; yield
    a libpq URL of the pooler for the same user, with `{dbname}` left to fill in (any database is forwarded).

    The pool is small (`pool_size` server connections a database) and used in turn, so that clients' transactions
    really share server connections, as they do in production: whatever session state a client relies on shows
    up as a failure here (see `fill_pool`)."""
    binary = require_pgbouncer()
    server = conninfo_to_dict(to_libpq_url(server_url))
    user = str(server.get("user") or "postgres")
    password = str(server.get("password") or "")
    target = {"host": server.get("host") or "127.0.0.1", "port": server.get("port") or "5432", "user": user}
    if password:
        target["password"] = password
    port = free_port()
    # Readable by the unprivileged user pgbouncer switches to when started as root (it refuses to run as root).
    directory = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
    directory.chmod(0o755)
    (directory / "users.txt").write_text(f'"{user}" ""\n')
    lines = [
        "[databases]",
        "* = " + " ".join(f"{key}={value}" for key, value in target.items()),
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        f"listen_port = {port}",
        "unix_socket_dir =",
        "auth_type = trust",
        f"auth_file = {directory / 'users.txt'}",
        "pool_mode = transaction",
        f"default_pool_size = {pool_size}",
        "max_client_conn = 500",
        # Idle server connections are handed out in turn rather than the last one used first, so that a
        # client's consecutive transactions land on different server connections, as they do under load.
        "server_round_robin = 1",
    ]
    if os.geteuid() == 0:
        lines.append(f"user = {_unprivileged_user()}")
    config = directory / "pgbouncer.ini"
    config.write_text("\n".join(lines) + "\n")
    for path in directory.iterdir():
        path.chmod(0o644)
    log = (directory / "pgbouncer.log").open("wb")
    process = subprocess.Popen([binary, str(config)], stdout=log, stderr=subprocess.STDOUT)
    url = f"postgresql://{quote(user)}@127.0.0.1:{port}/{{dbname}}"
    try:
        _wait_until_it_answers(process, url.format(dbname=server.get("dbname") or "postgres"), directory)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.rmtree(directory, ignore_errors=True)


def _unprivileged_user() -> str:
    """Whom pgbouncer runs as when started as root: the embedded PostgreSQL's owner, the one user besides root
    that may open the socket inside its data directory (0700), or else `nobody`."""
    try:
        pwd.getpwnam("embedded_postgres")
    except KeyError:
        return "nobody"
    return "embedded_postgres"


def _wait_until_it_answers(process: subprocess.Popen[bytes], url: str, directory: Path) -> None:
    deadline = time.monotonic() + 10
    while True:
        if process.poll() is not None:
            raise RuntimeError("pgbouncer exited: " + (directory / "pgbouncer.log").read_text())
        try:
            with psycopg.connect(url, connect_timeout=2, prepare_threshold=None) as conn:
                conn.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def fill_pool(url: str, size: int = 3) -> None:
    """Open `size` server connections in the pooler's pool of `url`'s database (by as many transactions at
    once), so that the next transactions of one client are spread over them."""
    connections = [psycopg.connect(url, prepare_threshold=None) for _ in range(size)]
    try:
        for conn in connections:
            conn.execute("SELECT 1")  # each holds its transaction, hence its own server connection
        for conn in connections:
            conn.commit()  # back to the pool clean (a server connection left in a transaction is closed)
    finally:
        for conn in connections:
            conn.close()
