"""The lobby and the new-game form for players (no browser): every player opens a table from the form (the seed
field is the admins'), the lobby lists invitations with accept and decline, one's open tables with leave, start
for the creator, and public tables with free seats."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from conftest import Api

from app.main import create_app
from app.settings import Settings
from tests.web.test_pages import csrf_of, signed_in


async def test_a_player_opens_a_table_from_the_form(client: httpx.AsyncClient, api: Api) -> None:
    await api.player("bert")
    token = await signed_in(client, "anna")
    form = (await client.get("/games/new")).text
    assert 'name="seed"' not in form and 'value="invitation"' in form and 'href="/games/new"' in form
    r = await client.post("/games/new", data={"name": "Anna's table", "seats": "3", "players": "bert",
                                              "access": "invitation", "csrf_token": token})
    assert r.status_code == 303, r.text
    page = (await client.get(r.headers["location"])).text
    assert "By invitation only" in page and "Invited: bert" in page
    assert "Start the game" not in page  # one player is not enough
    assert "Leave this table" in page and 'id="chat-form"' in page
    r = await client.post("/games/new", data={"name": "Rigged", "seats": "2", "seed": "3", "csrf_token": token})
    assert r.status_code == 403 and "seed" in r.text


async def test_the_lobby_shows_invitations_tables_to_join_and_ones_own(client: httpx.AsyncClient, api: Api) -> None:
    cid = await api.player("cid")
    bert = await api.player("bert")
    token = await signed_in(client, "anna")
    r = await client.post("/api/v1/games", json={"name": "Cid's", "seats": 3, "players": ["anna"]},
                          headers=cid.headers)
    invited_to = r.json()["id"]
    await client.post("/api/v1/games", json={"name": "Bert's public", "seats": 2}, headers=bert.headers)
    await client.post("/api/v1/games", json={"name": "Bert's private", "seats": 2, "public": False},
                      headers=bert.headers)
    lobby = (await client.get("/")).text
    invitations = lobby.split('id="invitations"')[1].split("</ul>")[0]
    assert "Cid&#39;s" in invitations and "cid invites you" in invitations
    assert "Decline Cid&#39;s" in invitations and "Accept Cid&#39;s" in invitations
    joinable = lobby.split('id="open-games"')[1].split("</ul>")[0]
    assert "Bert&#39;s public" in joinable and "private" not in joinable and "Cid" not in joinable
    r = await client.post(f"/games/{invited_to}/join", data={"csrf_token": token})
    assert r.status_code == 303
    lobby = (await client.get("/")).text
    assert 'id="invitations"' not in lobby
    mine = lobby.split('id="my-games"')[1].split("</ul>")[0]
    assert "Leave Cid&#39;s" in mine and "Start Cid&#39;s" not in mine  # Cid opened it: Cid starts it
    r = await client.post(f"/games/{invited_to}/leave", data={"csrf_token": token})
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert 'id="my-games"' not in (await client.get("/")).text


async def test_the_creator_starts_from_the_lobby(client: httpx.AsyncClient, api: Api) -> None:
    bert = await api.player("bert")
    token = await signed_in(client, "anna")
    await client.post("/games/new", data={"name": "Ours", "seats": "2", "start": "creator", "csrf_token": token})
    summary = (await client.get("/api/v1/games", headers=bert.headers)).json()["data"][0]
    await client.post(f"/api/v1/games/{summary['id']}/join", headers=bert.headers)
    mine = (await client.get("/")).text.split('id="my-games"')[1]
    assert "Start Ours" in mine
    r = await client.post(f"/games/{summary['id']}/start", data={"csrf_token": token})
    assert r.status_code == 303
    assert 'id="board"' in (await client.get(r.headers["location"])).text
    r = await client.post(f"/games/{summary['id']}/leave", data={"csrf_token": token})
    assert r.status_code == 409


@pytest.fixture
async def admins_only(settings: Settings) -> AsyncIterator[tuple[httpx.AsyncClient, Any]]:
    application = create_app(settings.model_copy(update={"players_create_games": False}))
    async with (
        application.router.lifespan_context(application),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as c,
    ):
        yield c, application


async def test_without_players_create_games_the_form_is_the_admins(
    admins_only: tuple[httpx.AsyncClient, Any],
) -> None:
    client, _ = admins_only
    token = await signed_in(client, "anna")
    assert 'href="/games/new"' not in (await client.get("/")).text
    assert (await client.get("/games/new")).status_code == 403
    r = await client.post("/games/new", data={"name": "Mine", "seats": "2", "csrf_token": token})
    assert r.status_code == 403 and csrf_of(r.text)
