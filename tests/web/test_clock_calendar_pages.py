"""The clock's calendar on the pages (issue 26 items 5 and 6): the new-game form's weekend pause and vacation
ban, the open table's clock shown before anyone joins (lobby and waiting page), the settings page's time zone and
reminder hours, and the waiting page that follows joins by itself."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from conftest import Api, live_server
from httpx_sse import aconnect_sse

from app.play.keeper import ClockKeeper
from app.settings import Settings
from tests.web.test_pages import csrf_of, signed_in


async def _new_table(client: httpx.AsyncClient, token: str, **fields: str) -> str:
    form = {"csrf_token": token, "name": "Weekday table", "seats": "3", "sides": "yellow", "access": "public",
            "start": "full", "move_timeout_hours": "24", **fields}
    r = await client.post("/games/new", data=form)
    assert r.status_code == 303, r.text
    return str(r.headers["location"])


async def test_the_new_game_form_sets_the_weekend_pause_and_forbids_vacations(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "anna")
    form = (await client.get("/games/new")).text
    assert 'name="pause_weekends"' in form and 'name="no_vacations"' in form
    where = await _new_table(client, token, pause_weekends="1", no_vacations="1")
    game = (await client.get(f"/api/v1{where}")).json()
    assert game["pause_weekends"] is True and game["vacations"] is False
    page = (await client.get(where)).text
    assert "The clock: 24 hours a move, stops on weekends, no vacation days." in page
    lobby = (await client.get("/")).text
    assert "clock: 24 hours a move, stops on weekends, no vacation days" in lobby
    plain = await _new_table(client, csrf_of(page))
    game = (await client.get(f"/api/v1{plain}")).json()
    assert game["pause_weekends"] is False and game["vacations"] is True  # the defaults
    page = (await client.get(plain)).text
    assert "The clock: 24 hours a move, vacation days allowed." in page
    assert "takes a day of its player's vacation (21 days a year) and the table is told" in page


async def test_a_table_without_a_clock_says_so(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "anna")
    where = await _new_table(client, token, move_timeout_hours="")
    assert "No move clock: nobody runs out of time." in (await client.get(where)).text


async def test_the_settings_page_sets_the_time_zone_and_the_reminder_hours(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "anna")
    page = (await client.get("/settings/notifications")).text
    assert '<option selected>UTC</option>' in page and "<option>Europe/Paris</option>" in page
    assert re.search(r'name="first"[^>]*value="12"', page) and re.search(r'name="second"[^>]*value="1"', page)
    r = await client.post("/settings/clock", data={"csrf_token": token, "time_zone": "Europe/Paris",
                                                   "first": "2", "second": ""})
    assert r.status_code == 200 and "Your clock settings are saved." in r.text
    assert (await client.get("/api/v1/me/clock")).json() == {"time_zone": "Europe/Paris", "reminder_hours": [2]}
    r = await client.post("/settings/clock", data={"csrf_token": token, "time_zone": "Nowhere/Land", "first": "3"})
    assert r.status_code == 422 and 'role="alert"' in r.text
    r = await client.post("/settings/clock", data={"csrf_token": token, "time_zone": "UTC", "first": "two"})
    assert r.status_code == 422
    r = await client.post("/settings/clock", data={"time_zone": "UTC", "first": "5"})  # no CSRF token
    assert r.status_code == 403
    assert (await client.get("/api/v1/me/clock")).json() == {"time_zone": "Europe/Paris", "reminder_hours": [2]}


async def test_a_waiting_page_stream_hears_a_join_that_does_not_fill_the_table(settings: Settings) -> None:
    """Issue 26: an open table's page was not refreshed for those waiting when someone joined without filling it.
    Its stream now says `table` on each join, leave, invitation, refusal and expiry (static/app.js reads the seats
    again)."""
    async with live_server(settings) as (url, app), httpx.AsyncClient(base_url=url, timeout=10) as client:
        api = Api(client, app)
        ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
        await api.player("dan")
        r = await client.post("/api/v1/games", json={"name": "Three", "seats": 3, "invitation_days": 1},
                              headers=ann.headers)
        game: dict[str, Any] = r.json()
        heard: list[str] = []
        connected = asyncio.Event()

        async def watch() -> None:
            async with aconnect_sse(client, "GET", f"/api/v1/games/{game['id']}/stream", headers=ann.headers) as s:
                async for event in s.aiter_sse():
                    if event.event not in ("turn", "table", "chat"):
                        continue  # a keep-alive ping on a slow run
                    heard.append(event.event)
                    if event.event == "turn":
                        assert json.loads(event.data)["status"] == "open"
                        connected.set()
                    if heard.count("table") == 5:
                        return

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(connected.wait(), timeout=10)
        assert (await client.post(f"/api/v1/games/{game['id']}/join", headers=bob.headers)).json()["status"] == "open"
        r = await client.post(f"/api/v1/games/{game['id']}/invitations", json={"username": "cid"}, headers=ann.headers)
        assert r.status_code == 201, r.text
        assert (await client.post(f"/api/v1/games/{game['id']}/decline", headers=cid.headers)).status_code == 204
        r = await client.post(f"/api/v1/games/{game['id']}/invitations", json={"username": "dan"}, headers=ann.headers)
        assert r.status_code == 201, r.text
        await ClockKeeper(app.state.service).tick(datetime.now(UTC) + timedelta(days=1, minutes=1))  # dan's expires
        await asyncio.wait_for(watcher, timeout=10)
        assert heard == ["turn", "table", "table", "table", "table", "table"]
        assert (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()["invited"] == []
