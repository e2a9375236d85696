"""The front door (issue 25, item 6): the signed-out home page says what the site is and shows a board, and
"Play against the bot now" leads through the sign-up form to a started table against the site's bot; a signed-in
player opens one from the lobby. Nothing else is opened on the way: bad or missing tokens change nothing."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.i18n import LANGUAGES
from app.main import create_app
from app.rules.config import EXPANSION_NAMES, MAX_PLAYERS
from app.settings import Settings
from tests.web.test_pages import csrf_of, signed_in


async def test_the_home_page_says_what_the_site_is_and_shows_a_board(client: httpx.AsyncClient) -> None:
    page = html.unescape((await client.get("/")).text)
    for name in EXPANSION_NAMES.values():
        assert name in page, name
    for name in ("Might Is Right", "The River", "A New Beginning", "Bots", "Fair dice", 'href="/fairness"'):
        assert name in page, name
    assert f"up to {MAX_PLAYERS} players" in page
    assert f"In {len(LANGUAGES)} languages" in page and all(name in page for name in LANGUAGES.values())
    assert '<svg id="map"' in page and page.count('class="parcel') == 64
    assert 'class="piece content' in page  # a game under way: buildings stand on it
    assert 'href="/signup?play=bot"' in page and "Play against the bot now" in page


async def test_play_against_the_bot_signs_up_and_opens_a_started_table_against_the_bot(
        client: httpx.AsyncClient) -> None:
    assert (await client.get("/play/bot")).headers["location"] == "/signup?play=bot"
    form = await client.get("/signup?play=bot")
    assert 'name="play" value="bot"' in form.text
    r = await client.post("/signup", data={"username": "newcomer", "email": "n@example.com",
                                           "password": "correct horse battery", "play": "bot",
                                           "csrf_token": csrf_of(form.text)})
    assert r.status_code == 303 and r.headers["location"].startswith("/games/")
    game_id = int(r.headers["location"].rsplit("/", 1)[1])
    game = (await client.get(f"/api/v1/games/{game_id}")).json()
    assert game["status"] == "active"
    assert sorted(s["username"].startswith("bot-") for s in game["seats"]) == [False, True]
    table = (await client.get(r.headers["location"])).text
    assert 'id="board"' in table and 'id="map"' in table


async def test_a_signed_in_player_opens_a_table_against_the_bot_from_the_lobby(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "regular")
    lobby = (await client.get("/")).text
    assert 'action="/play/bot"' in lobby
    assert (await client.post("/play/bot", data={"csrf_token": "forged"})).status_code == 403
    assert "regular against the bot" not in (await client.get("/")).text  # the refused request opened nothing
    r = await client.post("/play/bot", data={"csrf_token": token})
    assert r.status_code == 303 and r.headers["location"].startswith("/games/")
    assert "regular against the bot" in (await client.get("/")).text


async def test_an_unknown_next_step_of_the_sign_up_is_ignored(client: httpx.AsyncClient) -> None:
    form = await client.get("/signup?play=https://elsewhere.example")
    assert 'name="play"' not in form.text
    r = await client.post("/signup", data={"username": "plain", "email": "p@example.com",
                                           "password": "correct horse battery", "play": "//elsewhere.example",
                                           "csrf_token": csrf_of(form.text)})
    assert r.status_code == 303 and r.headers["location"] == "/"


@pytest.fixture
async def admins_only(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    application: Any = create_app(settings.model_copy(update={"players_create_games": False}))
    async with (
        application.router.lifespan_context(application),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as c,
    ):
        yield c


async def test_where_only_admins_open_tables_nobody_is_offered_the_bot(admins_only: httpx.AsyncClient) -> None:
    assert "/signup?play=bot" not in (await admins_only.get("/")).text
    token = await signed_in(admins_only, "anna")
    assert 'action="/play/bot"' not in (await admins_only.get("/")).text
    r = await admins_only.post("/play/bot", data={"csrf_token": token})
    assert r.status_code == 403 and "admin" in r.text
