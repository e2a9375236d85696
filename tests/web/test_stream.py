"""Live updates: a move on one instance reaches SSE clients of another instance through LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from conftest import live_server
from httpx_sse import aconnect_sse

from app.web.settings import Settings


async def _signup(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": "long enough pw"}
    assert (await client.post("/api/v1/auth/register", json=body)).status_code == 201
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": body["password"]})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def test_a_move_on_instance_a_reaches_a_stream_on_instance_b(settings: Settings) -> None:
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password"})
    async with (
        live_server(settings) as (url_a, _),
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

        received: list[dict[str, Any]] = []
        connected = asyncio.Event()

        async def watch() -> None:
            async with aconnect_sse(b, "GET", f"/api/v1/games/{gid}/stream", headers=bob) as source:
                assert source.response.headers["content-type"].startswith("text/event-stream")
                async for event in source.aiter_sse():
                    if event.event != "turn":
                        continue
                    received.append(json.loads(event.data))
                    connected.set()
                    if len(received) == 2:
                        return

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(connected.wait(), timeout=10)
        options = (await a.get(f"/api/v1/games/{gid}/moves", headers=awaited)).json()
        r = await a.post(
            f"/api/v1/games/{gid}/moves",
            json={"seq": options["seq"], "move": options["moves"][0]},
            headers=awaited,
        )
        assert r.status_code == 200, r.text
        await asyncio.wait_for(watcher, timeout=10)
        assert received[0]["seq"] == game["seq"] and received[0]["to_act"] == game["to_act"]
        assert received[1]["seq"] == r.json()["seq"]
        summary = (await b.get(f"/api/v1/games/{gid}", headers=bob)).json()
        assert received[1]["to_act"] == summary["to_act"]
        assert all(set(m) >= {"seq", "to_act"} and "seed" not in m for m in received)
        # The client hung up: instance B drops its subscription.
        for _ in range(200):
            if app_b.state.bus.subscriber_count(gid) == 0:
                break
            await asyncio.sleep(0.02)
        assert app_b.state.bus.subscriber_count(gid) == 0
