"""PgBouncer in transaction pooling (issue 30, API.md "PgBouncer"): two instances, started one after the other on a
fresh database, migrate and serve through Debian's pgbouncer, and two players play a game through them while
each watches it on a live stream of the other instance.

What this catches (each seen from outside before the fix): psycopg's prepared statements colliding on the
pooler's shared server connections (500 `prepared statement "_pg3_0" already exists`), a LISTEN made through the
pooler that hears nothing, and a session-level migration lock whose unlock ran on another server connection, so
that the second instance waited for ever at start.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from conftest import live_server, settings_for
from httpx_sse import aconnect_sse
from pooler import fill_pool, pgbouncer, require_pgbouncer
from psycopg import sql
from sqlalchemy.engine import make_url

from app.store.db import to_libpq_url

MOVES = 60


@pytest.fixture
def fresh_database(database_url: str) -> Iterator[tuple[str, str]]:
    """A new, empty database on the test server (name, direct URL), dropped afterwards."""
    require_pgbouncer()
    name = f"pooled_{uuid.uuid4().hex[:8]}"
    admin = to_libpq_url(database_url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield name, make_url(database_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


async def _signup(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": "long enough pw"}
    r = await client.post("/api/v1/auth/register", json=body)
    assert r.status_code == 201, r.text
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": body["password"]})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def test_two_instances_behind_pgbouncer_migrate_and_play_a_game_with_live_streams(
    fresh_database: tuple[str, str], tmp_path: Path
) -> None:
    name, direct = fresh_database
    with pgbouncer(direct) as pooler:
        fill_pool(pooler.format(dbname=name))
        settings = settings_for(
            pooler.format(dbname=name),
            tmp_path,
            listen_database_url=direct,
            database_prepared_statements=False,
            migrate_on_start=True,
            sse_ping_seconds=1,
            admin_username="boss",
            admin_password="boss password",
        )
        # The second instance starts once the first has started (and migrated), through the same pooler.
        async with (
            asyncio.timeout(60),
            live_server(settings) as (url_a, _),
            live_server(settings) as (url_b, _),
            httpx.AsyncClient(base_url=url_a, timeout=10) as a,
            httpx.AsyncClient(base_url=url_b, timeout=10) as b,
        ):
            r = await a.post("/api/v1/auth/token", data={"username": "boss", "password": "boss password"})
            boss = {"Authorization": f"Bearer {r.json()['access_token']}"}
            ann, bob = await _signup(a, "ann"), await _signup(b, "bob")
            body = {"name": "Pooled", "seats": 2, "players": ["ann", "bob"], "seed": 5}
            r = await a.post("/api/v1/games", json=body, headers=boss)
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            made: list[int] = []
            heard: dict[str, set[int]] = {"ann": set(), "bob": set()}

            async def play(who: str, headers: dict[str, str], watch: httpx.AsyncClient,
                           move_on: httpx.AsyncClient) -> None:
                """Watch the game on one instance's stream, move on the other's API."""
                url = f"/api/v1/games/{gid}/stream?moves=true"
                async with aconnect_sse(watch, "GET", url, headers=headers) as source:
                    async for event in source.aiter_sse():
                        if event.event != "turn":
                            continue
                        turn = json.loads(event.data)
                        heard[who].add(turn["seq"])
                        if turn["status"] == "finished" or len(made) >= MOVES:
                            return
                        if not turn["moves"]:
                            continue
                        move = {"seq": turn["seq"], "move": turn["moves"][len(made) % len(turn["moves"])]}
                        r = await move_on.post(f"/api/v1/games/{gid}/moves", json=move, headers=headers)
                        if r.status_code == 200:
                            made.append(r.json()["seq"])
                        else:  # only a race between two awaited seats may refuse a move from the stream
                            assert r.status_code == 409, r.text

            await asyncio.gather(play("ann", ann, b, a), play("bob", bob, a, b))
            assert len(made) >= MOVES
            # Each stream heard moves made on the other instance (the LISTEN reaches the server itself).
            assert len(heard["ann"]) > MOVES // 4 and len(heard["bob"]) > MOVES // 4
            summary = (await b.get(f"/api/v1/games/{gid}", headers=bob)).json()
            assert summary["seq"] >= max(made)
        with psycopg.connect(to_libpq_url(direct)) as conn:
            # No advisory lock outlived the instances on the pooler's server connections (a session lock leaked
            # there is what made the second instance wait).
            locks = conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").fetchone()
            assert locks == (0,)
            assert conn.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
