"""Tables that start themselves (issue 26 "Start when full", API.md "Tables start themselves"): the last seat taken
of a table with `start_when_full` (the default) — a join, an accepted invitation, or bots at creation — starts the
game in that same request; a stream opened on the waiting table follows it; `false` leaves the start to the
creator, and the waiting page says so to everyone who waits."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from conftest import Api, live_server
from httpx_sse import aconnect_sse
from support import assert_error

from app.settings import Settings
from tests.web.test_pages import signed_in


async def _create(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    r = await client.post("/api/v1/games", json={"name": "Friends", "seats": 2, **body}, headers=headers)
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


async def test_an_accepted_invitation_that_fills_the_table_starts_the_game(api: Api, client: httpx.AsyncClient) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    game = await _create(client, ann.headers, seats=3, players=["bob"])
    assert game["status"] == "open" and game["start_when_full"] is True  # the default
    r = await client.post(f"/api/v1/games/{game['id']}/join", headers=cid.headers)
    assert r.json()["status"] == "open"  # a seat is still held for Bob
    r = await client.post(f"/api/v1/games/{game['id']}/join", headers=bob.headers)
    assert r.status_code == 200 and r.json()["status"] == "active", r.text
    assert sorted(s["seat"] for s in r.json()["seats"]) == [0, 1, 2] and r.json()["seq"] > 0
    shown = (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()
    assert shown["status"] == "active" and shown["to_act"] == r.json()["to_act"]
    assert (await client.get(f"/api/v1/games/{game['id']}/moves", headers=ann.headers)).status_code == 200
    assert_error(await client.post(f"/api/v1/games/{game['id']}/start", headers=ann.headers), 409, "game_started")


async def test_a_public_join_and_bots_at_creation_start_it_too(api: Api, client: httpx.AsyncClient) -> None:
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await _create(client, ann.headers)
    r = await client.post(f"/api/v1/games/{game['id']}/join", headers=bob.headers)
    assert r.json()["status"] == "active"
    assert (await _create(client, ann.headers, bots=1))["status"] == "active"


async def test_a_table_the_creator_starts_stays_open_when_full_and_says_so(
    api: Api, client: httpx.AsyncClient
) -> None:
    bob = await api.player("bob")
    await signed_in(client, "ann")
    game = await _create(client, {}, start_when_full=False, players=["bob"])
    assert game["start_when_full"] is False
    page = (await client.get(f"/games/{game['id']}")).text
    assert "You start this game: it does not start by itself when every seat is taken." in page
    r = await client.post(f"/api/v1/games/{game['id']}/join", headers=bob.headers)
    assert r.json()["status"] == "open" and len(r.json()["seats"]) == 2
    page = (await client.get(f"/games/{game['id']}", headers=bob.headers)).text
    assert "ann starts this game: it does not start by itself when every seat is taken." in page
    assert (await _create(client, {}, start_when_full=False, bots=1))["status"] == "open"
    r = await client.post(f"/api/v1/games/{game['id']}/start")
    assert r.status_code == 200 and r.json()["status"] == "active"


async def test_the_new_game_form_chooses_who_starts(api: Api, client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "ann")
    form = (await client.get("/games/new")).text
    assert 'name="start" value="full" checked' in form and 'name="start" value="creator"' in form
    for start, expected in (("full", True), ("creator", False)):
        r = await client.post("/games/new", data={"name": start, "seats": "3", "start": start, "csrf_token": token})
        assert r.status_code == 303
        game = (await client.get(f"/api/v1{r.headers['location']}")).json()
        assert game["start_when_full"] is expected
        page = (await client.get(r.headers["location"])).text
        assert ("The game starts by itself as soon as every seat is taken." in page) is expected


async def test_a_waiting_page_stream_hears_the_start_that_a_join_makes(settings: Settings) -> None:
    """The waiting page reloads into the table when its stream says the game is no longer open (static/app.js):
    the stream opened on the open table hears the start the last join made."""
    async with live_server(settings) as (url, app), httpx.AsyncClient(base_url=url, timeout=10) as client:
        api = Api(client, app)
        ann, bob = await api.player("ann"), await api.player("bob")
        game = await _create(client, ann.headers, players=["bob"])
        heard: list[dict[str, Any]] = []
        connected = asyncio.Event()

        async def watch() -> None:
            async with aconnect_sse(client, "GET", f"/api/v1/games/{game['id']}/stream", headers=ann.headers) as s:
                async for event in s.aiter_sse():
                    if event.event == "turn":
                        heard.append(json.loads(event.data))
                        connected.set()
                        if len(heard) == 2:
                            return

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(connected.wait(), timeout=10)
        started = (await client.post(f"/api/v1/games/{game['id']}/join", headers=bob.headers)).json()
        await asyncio.wait_for(watcher, timeout=10)
        assert [m["status"] for m in heard] == ["open", "active"] and heard[1]["seq"] == started["seq"]
