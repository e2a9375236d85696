"""The new-game form's "Bots: N" (issue 15, "Bots at the table"): the form offers it, a table the creator and
the bots fill starts at once with the bots seated, and too many bots are refused with the reason on the form."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from app.store.tables import Game
from tests.web.test_input import _page_client


async def test_the_new_game_form_seats_bots(api: Any, client: httpx.AsyncClient) -> None:
    token = await _page_client(client, api)
    form = (await client.get("/games/new", headers={"Accept": "text/html"})).text
    assert 'name="bots"' in form and "Bots:" in form
    await api.player("ann")
    r = await client.post("/games/new", data={"name": "With bots", "seats": "3", "players": "ann", "bots": "2",
                                              "csrf_token": token})
    assert r.status_code == 303, r.text
    game_id = int(r.headers["location"].rsplit("/", 1)[1])
    summary = (await client.get(f"/api/v1/games/{game_id}", headers={"Accept": "application/json"})).json()
    assert summary["status"] == "active"
    assert sorted(s["username"] for s in summary["seats"]) == ["ann", "bot-1", "bot-2"]
    assert sorted(s["username"] for s in summary["seats"] if s["bot"]) == ["bot-1", "bot-2"]
    r = await client.post("/games/new", data={"name": "All bots", "seats": "2", "bots": "2", "csrf_token": token})
    assert r.status_code == 422 and "leaves at least one seat to a person" in r.text
    assert 'name="bots" type="number" min="0" max="5" value="2"' in r.text  # the form keeps what was asked
    r = await client.post("/games/new", data={"name": "Minus", "seats": "2", "bots": "-1", "csrf_token": token})
    assert r.status_code == 422 and "bots" in r.text


async def test_the_rules_page_says_what_absent_means(client: httpx.AsyncClient) -> None:
    page = (await client.get("/rules", headers={"Accept": "text/html"})).text
    assert 'id="bots"' in page and "played by the bot for" in page and "Take my seat back" in page


async def test_the_signup_page_keeps_the_bots_names(client: httpx.AsyncClient) -> None:
    form = (await client.get("/signup")).text
    token = form.split('name="csrf_token" value="')[1].split('"')[0]
    r = await client.post("/signup", data={"username": "bot-2", "email": "b2@example.com",
                                           "password": "long enough", "csrf_token": token})
    assert r.status_code == 422 and "belong to the site&#39;s bots" in r.text


async def test_the_new_game_form_sets_the_bots_level(api: Any, client: httpx.AsyncClient, app: Any) -> None:
    """Issue 29, API.md "Bot levels": the form offers easy, normal (chosen unless changed) and hard; the level
    chosen is the table's; an unknown one is refused on the form, which keeps what was asked."""
    token = await _page_client(client, api)
    form = (await client.get("/games/new", headers={"Accept": "text/html"})).text
    assert 'name="bot_level"' in form and '<option value="normal" selected>' in form
    assert '<option value="easy">' in form and '<option value="hard">' in form
    r = await client.post("/games/new", data={"name": "Hard bot", "seats": "2", "bots": "1", "bot_level": "hard",
                                              "csrf_token": token})
    assert r.status_code == 303, r.text
    game_id = int(r.headers["location"].rsplit("/", 1)[1])
    async with app.state.service.db.reading() as session:
        assert await session.scalar(select(Game.bot_level).where(Game.id == game_id)) == "hard"
    r = await client.post("/games/new", data={"name": "Genius", "seats": "2", "bots": "1", "bot_level": "genius",
                                              "csrf_token": token})
    assert r.status_code == 422 and "bot_level" in r.text
    assert '<option value="normal" selected>' not in r.text
