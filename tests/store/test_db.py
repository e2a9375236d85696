"""The embedded PostgreSQL: data survives a restart, and an owner killed by SIGKILL does not leave the server
running forever (the next owner forgets it and stops the server when done). And the compaction of statements
written for the driver."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import psutil
import psycopg

from app.store.db import _is_alive, driver_sql, start_embedded, to_sqlalchemy_url

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

