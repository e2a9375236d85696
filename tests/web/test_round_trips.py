"""What a move costs on the wire to PostgreSQL, and that the pool's connections stay sound without a ping on every
checkout: the server talks to the database through a proxy that counts round trips (each time the server speaks
after the database has answered), and a restart of PostgreSQL while the server sits idle fails no request. Each
test has its own PostgreSQL, so stopping it touches no other test."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Api
from sqlalchemy.engine import make_url

from tests.web.conftest import app_on, stop


class WireCounter:
    """A Unix-socket proxy in front of PostgreSQL that counts the round trips of the connections through it."""

    def __init__(self, target: str, directory: Path) -> None:
        self.target = target
        self.path = directory / ".s.PGSQL.5432"
        self.round_trips = 0
        self._server: asyncio.AbstractServer | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> WireCounter:
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.path))
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.close()
        await self._server.wait_closed()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_unix_connection(self.target)
        self._writers += [client_writer, server_writer]
        last = ["server"]  # who spoke last on this connection

        async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, side: str) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await reader.read(65536):
                    if side == "client" and last[0] != "client":
                        self.round_trips += 1
                    last[0] = side
                    writer.write(data)
                    await writer.drain()
            writer.close()

        await asyncio.gather(
            pump(client_reader, server_writer, "client"), pump(server_reader, client_writer, "server")
        )


def _socket_of(url: str) -> str:
    """The Unix socket of the PostgreSQL at `url` (the embedded server's kind of URL)."""
    parsed = make_url(url)
    return f"{parsed.query['host']}/.s.PGSQL.{parsed.port or 5432}"


@pytest.fixture
async def counted(own_server: Any, tmp_path: Path) -> AsyncIterator[tuple[Any, WireCounter]]:
    """An app whose every database connection goes through a WireCounter."""
    (tmp_path / "proxy").mkdir()
    async with (
        WireCounter(_socket_of(own_server.get_uri()), tmp_path / "proxy") as counter,
        app_on(f"postgresql://postgres:@/postgres?host={tmp_path / 'proxy'}", tmp_path) as application,
    ):
        yield application, counter


async def test_a_move_costs_one_round_trip(counted: tuple[Any, WireCounter]) -> None:
    """The one statement that checks the sign-in and records the move, the server holding the game's state, the
    player's seat and the sign-in's owner from listing the moves (in autocommit: no BEGIN, no COMMIT, no ping of
    the pooled connection)."""
    application, counter = counted
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as client:
        api = Api(client, application)
        admin = await api.admin()
        ann, bob = await api.player("ann"), await api.player("bob")
        game = await api.started_game(admin, [ann, bob], seed=5)
        seats = api.seated(game, [ann, bob])
        costs = []
        for _ in range(14):  # the first ones also prepare the statements on the connection
            summary = (await client.get(f"/api/v1/games/{game['id']}", headers=admin.headers)).json()
            who = seats[summary["to_act"][0]]
            options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=who.headers)).json()
            body = {"seq": options["seq"], "move": options["moves"][0]}
            before = counter.round_trips
            r = await client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=who.headers)
            assert r.status_code == 200, r.text
            costs.append(counter.round_trips - before)
    assert costs[-4:] == [1, 1, 1, 1], costs


async def test_a_restart_of_postgresql_while_the_server_is_idle_costs_no_request(
    own_server: Any, tmp_path: Path
) -> None:
    """The pool's connections die with the restart; the next requests get fresh ones, none fails (the server
    notices a closed connection at checkout, without a round trip: app.store.db)."""
    async with (
        app_on(own_server.get_uri(), tmp_path) as application,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as client,
    ):
        api = Api(client, application)
        ann = await api.player("ann")
        await asyncio.gather(*(client.get("/api/v1/games", headers=ann.headers) for _ in range(5)))
        await asyncio.to_thread(stop, own_server)
        await asyncio.to_thread(own_server.ensure_postgres_running)
        for _ in range(5):
            r = await client.get("/api/v1/games", headers=ann.headers)
            assert r.status_code == 200, r.text
