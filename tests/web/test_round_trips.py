"""What a move costs on the wire to PostgreSQL, and that the pool's connections stay sound without a ping on every
checkout: the server talks to the database through a proxy that counts round trips (each time the server speaks
after the database has answered), and a restart of PostgreSQL while the server sits idle fails no request. Each
test has its own PostgreSQL, so stopping it touches no other test."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Api
from wire import WireCounter, socket_of

from tests.web.conftest import app_on, stop
from tests.web.test_next_game import awaiting, moves_until_not_awaited


@pytest.fixture
async def counted(own_server: Any, tmp_path: Path) -> AsyncIterator[tuple[Any, WireCounter]]:
    """An app whose every database connection goes through a WireCounter."""
    (tmp_path / "proxy").mkdir()
    async with (
        WireCounter(socket_of(own_server.get_uri()), tmp_path / "proxy") as counter,
        app_on(f"postgresql://postgres:@/postgres?host={tmp_path / 'proxy'}", tmp_path) as application,
    ):
        yield application, counter


async def test_a_move_costs_one_round_trip(counted: tuple[Any, WireCounter]) -> None:
    """The one statement that checks the sign-in and records the move, the server holding the game's state, the
    player's seat and the sign-in's owner from listing the moves (in autocommit: no BEGIN, no COMMIT, no ping of
    the pooled connection). The move's live notice goes apart, after the answer (`app.play.announcer`): held
    here while the move is counted, then sent and counted on its own — one round trip for the batch."""
    application, counter = counted
    announcer = application.state.service.announcer
    held: list[Any] = []
    send = announcer.send
    announcer.send = held.append
    notices = []
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as client:
        api = Api(client, application)
        admin = await api.admin()
        ann, bob = await api.player("ann"), await api.player("bob")
        game = await api.started_game(admin, [ann, bob], seed=5)
        seats = api.seated(game, [ann, bob])
        costs, answered = [], []
        for _ in range(14):  # the first ones also prepare the statements on the connection
            summary = (await client.get(f"/api/v1/games/{game['id']}", headers=admin.headers)).json()
            who = seats[summary["to_act"][0]]
            options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=who.headers)).json()
            body = {"seq": options["seq"], "move": options["moves"][0]}
            before = counter.round_trips
            r = await client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=who.headers)
            assert r.status_code == 200, r.text
            costs.append(counter.round_trips - before)
            before = counter.round_trips
            for change in held:
                send(change)
            await announcer.settled()
            notices.append((len(held), counter.round_trips - before))
            held.clear()
            after = (await client.get(f"/api/v1/games/{game['id']}/state", headers=who.headers)).json()
            answered.append(after["awaiting"] in ("cash_limit", "permission"))
    # A move that brings the game to a decision its players may have answered in their settings (the cash limit,
    # a permission request) reads their answers first, on the whole path: the sign-in, the head, the answers and
    # the record (issue 26).
    assert [cost for cost, read in zip(costs, answered, strict=True) if read] == [4], (costs, answered)
    assert [cost for cost, read in zip(costs, answered, strict=True) if not read][-4:] == [1, 1, 1, 1], costs
    assert notices[-4:] == [(1, 1)] * 4, notices  # each move's notice, one round trip once its statement is prepared


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


# The statements one read of a running table costs on a warm cache (the server showed that table just before), as
# PostgreSQL is asked for them: the table page and its board partial (a move's answer and the live refresh), the
# state, the moves. The board is the sign-in lookup, the table's one read (its summary) and the log; the whole page
# reads the chat's newest messages and the viewer's notes in the summary's statement, and both count the viewer's
# other games awaiting them there too (the "Next game (N waiting)" link).
READ_LIMITS = {"table page": 3, "board partial": 3, "state": 2, "moves": 1}


async def test_a_tables_reads_cost_few_statements(counted: tuple[Any, WireCounter]) -> None:
    """Each read of a running table asks PostgreSQL for a handful of statements, counted on the wire: the table
    page and its board partial read the game once (`Positions.table`), not the summary three times over."""
    application, counter = counted
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as client:
        api = Api(client, application)
        admin = await api.admin()
        ann, bob = await api.player("ann"), await api.player("bob")
        game = await api.started_game(admin, [ann, bob], seed=5)
        who = api.seated(game, [ann, bob])[game["to_act"][0]]
        reads = {
            "table page": (f"/games/{game['id']}", {}),
            "board partial": (f"/games/{game['id']}", {"HX-Request": "true"}),
            "state": (f"/api/v1/games/{game['id']}/state", {}),
            "moves": (f"/api/v1/games/{game['id']}/moves", {}),
        }
        costs: dict[str, list[int]] = {name: [] for name in reads}
        for _ in range(8):  # the first ones also prepare the statements on the connection and warm the cache
            for name, (url, extra) in reads.items():
                before = counter.statements
                r = await client.get(url, headers={**who.headers, **extra})
                assert r.status_code == 200, r.text
                costs[name].append(counter.statements - before)
    warm = {name: max(spent[-3:]) for name, spent in costs.items()}
    assert all(warm[name] <= limit for name, limit in READ_LIMITS.items()), costs


async def test_the_next_game_link_costs_no_statement(counted: tuple[Any, WireCounter]) -> None:
    """The table page of a player who has moved, offering "Next game (1 waiting)", asks no more statements than
    any table page: the count of the player's other games awaiting them is read in the summary's statement."""
    application, counter = counted
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as client:
        api = Api(client, application)
        admin = await api.admin()
        ann, bob = await api.player("ann"), await api.player("bob")
        here = await awaiting(api, admin, ann, bob)
        await moves_until_not_awaited(client, here["id"], ann)
        await awaiting(api, admin, ann, bob)
        costs = []
        for _ in range(8):  # the first ones also prepare the statements on the connection and warm the cache
            before = counter.statements
            r = await client.get(f"/games/{here['id']}", headers=ann.headers)
            assert r.status_code == 200 and "Next game (1 waiting)" in r.text, r.text
            costs.append(counter.statements - before)
    assert max(costs[-3:]) <= READ_LIMITS["table page"], costs
