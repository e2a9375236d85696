"""A bot seat moves by itself within seconds (issue 15, API.md "Bots"): the server's own background job plays it,
with nothing run by hand; a human playing against it only ever waits for a moment."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Api, settings_for

from app.settings import Settings


@pytest.fixture
def settings(clean_db: str, tmp_path: Path) -> Settings:
    return settings_for(clean_db, tmp_path, bot_poll_seconds=0.2)


async def test_the_bot_moves_by_itself_within_seconds(api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    r = await client.post("/api/v1/games", json={"name": "Ann vs the bot", "seats": 2, "bots": 1},
                          headers=ann.headers)
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    mine = next(s["seat"] for s in game["seats"] if s["username"] == "ann")
    waits: list[float] = []
    for _ in range(12):  # a dozen of ann's turns, each followed by the bot's
        started = time.monotonic()
        while True:
            summary = (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()
            if mine in summary["to_act"] or summary["status"] == "finished":
                break
            assert time.monotonic() - started < 5, "the bot did not move by itself within seconds"
            await asyncio.sleep(0.05)
        waits.append(time.monotonic() - started)
        if summary["status"] == "finished":
            break
        options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=ann.headers)).json()
        r = await client.post(f"/api/v1/games/{game['id']}/moves",
                              json={"seq": options["seq"], "move": options["moves"][0]}, headers=ann.headers)
        assert r.status_code == 200, r.text
    events = (await client.get(f"/api/v1/games/{game['id']}/events", headers=ann.headers)).json()["events"]
    bot_seat = 1 - mine
    assert any(e["data"].get("seat") == bot_seat for e in events), "the bot has played"
    assert max(waits) < 5
