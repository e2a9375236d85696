"""Shared fixtures: a real PostgreSQL for the whole session, a clean database per test, app builders.

The server is the embedded one (started in a temporary directory and always stopped and deleted at the end),
or the one named by TEST_DATABASE_URL. Tests then truncate every table instead of recreating the schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import warnings
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest
import uvicorn
from psycopg import sql

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from app.commands import uvicorn_options
    from app.main import create_app
    from app.settings import Settings
    from app.store import migrate
    from app.store.db import start_embedded, to_libpq_url, to_sqlalchemy_url

TABLES = "users, games, seats, game_events, outbox, sessions, sign_in_limits"
TEST_SECRET = "test-secret-key-not-for-production-0123456789"


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated PostgreSQL for the session: TEST_DATABASE_URL, or an embedded server in a temp dir."""
    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        url = to_sqlalchemy_url(_database_of_this_worker(given))
        migrate.upgrade(url)
        yield url
        return
    server = start_embedded(tmp_path_factory.mktemp("pg") / "pgdata", delete_on_cleanup=True)
    try:
        url = to_sqlalchemy_url(server.get_uri())
        migrate.upgrade(url)
        yield url
    finally:
        server.cleanup()


def _database_of_this_worker(url: str) -> str:
    """Give each pytest-xdist worker a database of its own beside the given one, so that one worker's truncation
    never empties the tables under another's test; without workers the given database is used as it is."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    parts = urlsplit(to_libpq_url(url))
    name = f"{parts.path.lstrip('/') or 'postgres'}_{worker}"
    with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


@pytest.fixture
def clean_db(database_url: str) -> str:
    """The session's database with every table emptied (ids restart at 1)."""
    with psycopg.connect(to_libpq_url(database_url), autocommit=True) as conn:
        conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    return database_url


def settings_for(database_url: str, data_dir: Path, **overrides: Any) -> Settings:
    """Settings of a test server on `database_url`: the test secret, the cheapest hashing, no migration at start,
    nothing read from the environment's .env file."""
    values: dict[str, Any] = {
        "environment": "test",
        "database_url": database_url,
        "data_dir": data_dir,
        "secret_key": TEST_SECRET,
        "password_hashing": "cheapest",
        "migrate_on_start": False,
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
def settings(clean_db: str, tmp_path: Path) -> Settings:
    return settings_for(clean_db, tmp_path, sse_ping_seconds=1)


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[Any]:
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def other_app(settings: Settings) -> AsyncIterator[Any]:
    """A second instance of the server on the same database, as when several run behind a load balancer."""
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        yield c


@dataclass
class Player:
    """A signed-up account and its bearer header."""

    id: int
    username: str
    headers: dict[str, str]


class Api:
    """Builders for the common steps of API tests."""

    def __init__(self, client: httpx.AsyncClient, app: Any) -> None:
        self.client = client
        self.app = app

    async def player(self, username: str, password: str = "correct horse battery") -> Player:
        r = await self.client.post(
            "/api/v1/auth/register",
            json={"username": username, "email": f"{username}@example.com", "password": password},
        )
        assert r.status_code == 201, r.text
        return Player(r.json()["id"], username, await self.token(username, password))

    async def admin(self, username: str = "admin", password: str = "admin password") -> Player:
        account = await self.app.state.sign_in.ensure_admin(username, password, f"{username}@example.com")
        return Player(account.id, username, await self.token(username, password))

    async def token(self, username: str, password: str) -> dict[str, str]:
        r = await self.client.post("/api/v1/auth/token", data={"username": username, "password": password})
        assert r.status_code == 200, r.text
        return {"Authorization": f"Bearer {r.json()['access_token']}"}

    async def started_game(self, admin: Player, players: list[Player], **extra: Any) -> dict[str, Any]:
        body = {"name": "Test game", "seats": len(players), "players": [p.username for p in players], **extra}
        r = await self.client.post("/api/v1/games", json=body, headers=admin.headers)
        assert r.status_code == 201, r.text
        assert r.json()["status"] == "active"
        game: dict[str, Any] = r.json()
        return game

    def seated(self, game: dict[str, Any], players: list[Player]) -> dict[int, Player]:
        """Players by seat index."""
        by_name = {p.username: p for p in players}
        return {s["seat"]: by_name[s["username"]] for s in game["seats"]}


@pytest.fixture
def api(client: httpx.AsyncClient, app: Any) -> Api:
    return Api(client, app)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def live_server(settings: Settings) -> AsyncIterator[tuple[str, Any]]:
    """A real uvicorn serving a fresh app instance on a free port (ASGITransport buffers SSE streams)."""
    application = create_app(settings)
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=free_port(),
        log_level="warning",
        timeout_graceful_shutdown=2,
        **uvicorn_options(settings),  # as `python -m app serve` runs it
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(500):
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
        assert server.started, "the live server did not start"
        yield f"http://127.0.0.1:{config.port}", application
    finally:
        server.should_exit = True
        await task
