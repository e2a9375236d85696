"""Live updates: a move on one instance reaches SSE clients of another instance through LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from conftest import live_server
from httpx_sse import aconnect_sse

from app.settings import Settings


async def _signup(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": "long enough pw"}
    assert (await client.post("/api/v1/auth/register", json=body)).status_code == 201
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": body["password"]})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def test_a_move_on_instance_a_reaches_a_stream_on_instance_b(settings: Settings) -> None:
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password"})
    async with (
        live_server(settings) as (url_a, app_a),
        live_server(settings) as (url_b, app_b),
        httpx.AsyncClient(base_url=url_a) as a,
        httpx.AsyncClient(base_url=url_b, timeout=10) as b,
    ):
        r = await a.post("/api/v1/auth/token", data={"username": "boss", "password": "boss password"})
        boss = {"Authorization": f"Bearer {r.json()['access_token']}"}
        ann, bob = await _signup(a, "ann"), await _signup(a, "bob")
        r = await a.post("/api/v1/games", json={"name": "Live", "seats": 2, "players": ["ann", "bob"]}, headers=boss)
        game = r.json()
        gid = game["id"]
        by_name = {"ann": ann, "bob": bob}
        awaited = {s["seat"]: by_name[s["username"]] for s in game["seats"]}[game["to_act"][0]]

        async def watch(
            client: httpx.AsyncClient, headers: dict[str, str], into: list[dict[str, Any]], connected: asyncio.Event
        ) -> None:
            async with aconnect_sse(client, "GET", f"/api/v1/games/{gid}/stream", headers=headers) as source:
                assert source.response.headers["content-type"].startswith("text/event-stream")
                async for event in source.aiter_sse():
                    if event.event != "turn":
                        continue
                    into.append(json.loads(event.data))
                    connected.set()
                    if len(into) == 2:
                        return

        # Bob watches on instance B, Ann on instance A, where the move is made.
        on_b: list[dict[str, Any]] = []
        on_a: list[dict[str, Any]] = []
        ready = [asyncio.Event(), asyncio.Event()]
        watchers = [
            asyncio.create_task(watch(b, bob, on_b, ready[0])),
            asyncio.create_task(watch(a, ann, on_a, ready[1])),
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), timeout=10)
        options = (await a.get(f"/api/v1/games/{gid}/moves", headers=awaited)).json()
        r = await a.post(
            f"/api/v1/games/{gid}/moves",
            json={"seq": options["seq"], "move": options["moves"][0]},
            headers=awaited,
        )
        assert r.status_code == 200, r.text
        await asyncio.wait_for(asyncio.gather(*watchers), timeout=10)
        summary = (await b.get(f"/api/v1/games/{gid}", headers=bob)).json()
        for received in (on_a, on_b):
            assert received[0]["seq"] == game["seq"] and received[0]["to_act"] == game["to_act"]
            assert received[1]["seq"] == r.json()["seq"] and received[1]["to_act"] == summary["to_act"]
            assert all(set(m) >= {"seq", "to_act"} and "seed" not in m for m in received)
        # The clients hung up: both instances drop their subscriptions.
        for _ in range(200):
            if app_a.state.bus.subscriber_count(gid) == app_b.state.bus.subscriber_count(gid) == 0:
                break
            await asyncio.sleep(0.02)
        assert app_a.state.bus.subscriber_count(gid) == app_b.state.bus.subscriber_count(gid) == 0


async def test_a_move_whose_notice_was_never_sent_reaches_the_streams_within_the_catch_up_period(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Instance A stops between a move's commit and its notice's batch (here: its announcer sends nothing): the
    streams of both instances learn of the move at their bus's next catch-up, within `live_catch_up_seconds`."""
    period = 0.5
    settings = settings.model_copy(
        update={"admin_username": "boss", "admin_password": "boss password", "live_catch_up_seconds": period}
    )
    async with (
        live_server(settings) as (url_a, app_a),
        live_server(settings) as (url_b, _),
        httpx.AsyncClient(base_url=url_a, timeout=10) as a,
        httpx.AsyncClient(base_url=url_b, timeout=10) as b,
    ):
        boss = await _boss(a)
        ann, bob = await _signup(a, "ann"), await _signup(a, "bob")
        game = (await a.post("/api/v1/games", json={"name": "Live", "seats": 2, "players": ["ann", "bob"]},
                             headers=boss)).json()
        gid = game["id"]
        awaited = {s["seat"]: {"ann": ann, "bob": bob}[s["username"]] for s in game["seats"]}[game["to_act"][0]]
        monkeypatch.setattr(app_a.state.service.announcer, "send", lambda change: None)
        async with (
            aconnect_sse(b, "GET", f"/api/v1/games/{gid}/stream", headers=bob) as on_b,
            aconnect_sse(a, "GET", f"/api/v1/games/{gid}/stream", headers=ann) as on_a,
        ):
            streams = [on_b.aiter_sse(), on_a.aiter_sse()]
            for events in streams:
                assert (await asyncio.wait_for(_next_turn(events), 10))["seq"] == game["seq"]
            options = (await a.get(f"/api/v1/games/{gid}/moves", headers=awaited)).json()
            move = {"seq": options["seq"], "move": options["moves"][0]}
            r = await a.post(f"/api/v1/games/{gid}/moves", json=move, headers=awaited)
            assert r.status_code == 200, r.text
            committed = time.monotonic()
            for events in streams:
                assert (await asyncio.wait_for(_next_turn(events), 10))["seq"] == r.json()["seq"]
            waited = time.monotonic() - committed
        assert waited <= period + 0.5, waited  # the period, and the statement and the streams' own turn


async def _boss(client: httpx.AsyncClient) -> dict[str, str]:
    r = await client.post("/api/v1/auth/token", data={"username": "boss", "password": "boss password"})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def _next_turn(events: Any) -> dict[str, Any]:
    async for event in events:
        if event.event == "turn":
            data: dict[str, Any] = json.loads(event.data)
            return data
    raise AssertionError("the stream ended")


async def test_streams_send_keep_alive_pings(settings: Settings) -> None:
    async with live_server(settings) as (url, app), httpx.AsyncClient(base_url=url, timeout=10) as client:
        headers = await _signup(client, "ann")
        await app.state.sign_in.ensure_admin("boss", "boss password", "boss@example.com")
        r = await client.post("/api/v1/auth/token", data={"username": "boss", "password": "boss password"})
        boss = {"Authorization": f"Bearer {r.json()['access_token']}"}
        gid = (await client.post("/api/v1/games", json={"name": "Quiet", "seats": 2}, headers=boss)).json()["id"]
        async with client.stream("GET", f"/api/v1/games/{gid}/stream", headers=headers) as response:
            lines = response.aiter_lines()
            comment = await asyncio.wait_for(_first_comment(lines), timeout=5)  # settings ping every second
        assert comment.startswith(":")


async def _first_comment(lines: Any) -> str:
    async for line in lines:
        if line.startswith(":"):
            return str(line)
    raise AssertionError("the stream ended without a keep-alive")


async def _token(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": "long enough pw"})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def test_a_stream_ends_on_every_instance_when_its_sign_in_is_revoked(settings: Settings) -> None:
    """Signing out (one sign-in, then everywhere) on instance A ends the streams it opened on instance B at once:
    a browser that signed out hears nothing more of the table."""
    async with (
        live_server(settings) as (url_a, app_a),
        live_server(settings) as (url_b, _),
        httpx.AsyncClient(base_url=url_a, timeout=10) as a,
        httpx.AsyncClient(base_url=url_b, timeout=10) as b,
    ):
        first = await _signup(a, "ann")
        second = await _token(a, "ann")
        await app_a.state.sign_in.ensure_admin("boss", "boss password", "boss@example.com")
        r = await a.post("/api/v1/auth/token", data={"username": "boss", "password": "boss password"})
        boss = {"Authorization": f"Bearer {r.json()['access_token']}"}
        gid = (await a.post("/api/v1/games", json={"name": "Watched", "seats": 2}, headers=boss)).json()["id"]

        async def watch(headers: dict[str, str], opened: asyncio.Event) -> int:
            """Follow the stream until the server ends it; returns the events received."""
            received = 0
            async with aconnect_sse(b, "GET", f"/api/v1/games/{gid}/stream", headers=headers) as source:
                async for event in source.aiter_sse():
                    received += event.event == "turn"
                    opened.set()
            return received

        opened = [asyncio.Event(), asyncio.Event()]
        streams = [asyncio.create_task(watch(first, opened[0])), asyncio.create_task(watch(second, opened[1]))]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), timeout=10)

        assert (await a.post("/api/v1/auth/logout", headers=first)).status_code == 204
        assert await asyncio.wait_for(streams[0], timeout=5) == 1
        await asyncio.sleep(0.3)
        assert not streams[1].done(), "the other sign-in's stream goes on"

        assert (await a.post("/api/v1/auth/logout-all", headers=second)).status_code == 204
        assert await asyncio.wait_for(streams[1], timeout=5) == 1
        # And a revoked token cannot open a new one.
        r = await b.get(f"/api/v1/games/{gid}/stream", headers=second)
        assert r.status_code == 401


async def test_a_stream_with_moves_hands_each_seat_its_options_so_a_client_plays_by_it_alone(
    settings: Settings,
) -> None:
    """`?moves=true` (API docs of the stream): each `turn` event carries what GET .../moves answers at that seq —
    the awaited seat's moves, an empty list for a seat not awaited — so a client plays with one request per move.
    Two clients play 60 moves of a game this way, each checking the event against GET .../moves."""
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password"})
    async with live_server(settings) as (url, _), httpx.AsyncClient(base_url=url, timeout=10) as client:
        boss = await _token_of(client, "boss", "boss password")
        ann, bob = await _signup(client, "ann"), await _signup(client, "bob")
        body = {"name": "By the stream", "seats": 2, "players": ["ann", "bob"], "seed": 11}
        game = (await client.post("/api/v1/games", json=body, headers=boss)).json()
        gid = game["id"]
        moves_made: list[int] = []
        compared: list[bool] = []

        async def play(headers: dict[str, str]) -> None:
            url = f"/api/v1/games/{gid}/stream?moves=true"
            async with aconnect_sse(client, "GET", url, headers=headers) as source:
                async for event in source.aiter_sse():
                    if event.event != "turn":
                        continue
                    turn = json.loads(event.data)
                    if turn["status"] == "finished" or len(moves_made) >= 60:
                        return
                    asked = (await client.get(f"/api/v1/games/{gid}/moves", headers=headers)).json()
                    if asked["seq"] == turn["seq"]:  # nobody moved in between: both answers are of one head
                        compared.append(asked["moves"] == turn["moves"])
                    if not turn["moves"]:
                        continue
                    move = {"seq": turn["seq"], "move": turn["moves"][len(moves_made) % len(turn["moves"])]}
                    r = await client.post(f"/api/v1/games/{gid}/moves", json=move, headers=headers)
                    if r.status_code == 200:
                        moves_made.append(r.json()["seq"])
                    else:  # only a race between two awaited seats may refuse a move taken from the stream
                        assert r.status_code == 409, r.text

        await asyncio.wait_for(asyncio.gather(play(ann), play(bob)), timeout=60)
        assert len(moves_made) >= 60
        assert len(compared) >= 60 and all(compared)


async def _token_of(client: httpx.AsyncClient, name: str, password: str) -> dict[str, str]:
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": password})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}
