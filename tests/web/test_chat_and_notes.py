"""The table chat (contract "Chat": seated players write 1..1000 characters, everyone reads, not in the game's
log, announced on the stream, rate-limited) and private notes (read and written by their author alone)."""

from __future__ import annotations

import asyncio
import html
import json
import re
from datetime import datetime
from typing import Any

import httpx
import pytest
from conftest import Api, Player, live_server
from httpx_sse import aconnect_sse
from support import assert_error

from app.settings import Settings
from app.web import talk
from tests.web.test_pages import csrf_of


async def table(api: Api, client: httpx.AsyncClient) -> tuple[dict[str, Any], Player, Player, Player]:
    """A started game of Ann and Bob, and Cid who has no seat in it."""
    admin = await api.admin()
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    return await api.started_game(admin, [ann, bob]), ann, bob, cid


async def test_seated_players_chat_and_everyone_reads(api: Api, client: httpx.AsyncClient) -> None:
    game, ann, bob, cid = await table(api, client)
    chat = f"/api/v1/games/{game['id']}/chat"
    r = await client.post(chat, json={"text": "  Howdy, partner!  "}, headers=ann.headers)
    assert r.status_code == 201, r.text
    first = r.json()
    assert first["username"] == "ann" and first["text"] == "Howdy, partner!" and set(first) == {
        "id", "username", "text", "at", "notice", "removed"}  # removed: by an admin (issue 30, moderation)
    assert first["notice"] is None  # a player's own words; the site's notices (issue 26) carry one
    assert first["removed"] is False
    second = (await client.post(chat, json={"text": "x" * 1000}, headers=bob.headers)).json()
    messages = (await client.get(chat, headers=cid.headers)).json()["messages"]  # a spectator reads along
    assert [(m["id"], m["username"]) for m in messages] == [(first["id"], "ann"), (second["id"], "bob")]
    after = (await client.get(chat, params={"after": first["id"]}, headers=ann.headers)).json()["messages"]
    assert [m["id"] for m in after] == [second["id"]]


async def test_chat_is_not_in_the_games_log(api: Api, client: httpx.AsyncClient) -> None:
    game, ann, _, _ = await table(api, client)
    before = (await client.get(f"/api/v1/games/{game['id']}/events", headers=ann.headers)).json()["events"]
    await client.post(f"/api/v1/games/{game['id']}/chat", json={"text": "gg"}, headers=ann.headers)
    after = (await client.get(f"/api/v1/games/{game['id']}/events", headers=ann.headers)).json()["events"]
    assert after == before
    assert (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()["seq"] == game["seq"]


async def test_chat_refusals(api: Api, client: httpx.AsyncClient) -> None:
    game, ann, _, cid = await table(api, client)
    chat = f"/api/v1/games/{game['id']}/chat"
    assert_error(await client.post(chat, json={"text": "let me in"}, headers=cid.headers), 403, "no_seat")
    assert_error(await client.post("/api/v1/games/999/chat", json={"text": "hi"}, headers=ann.headers), 404)
    assert_error(await client.get("/api/v1/games/999/chat", headers=ann.headers), 404, "game_not_found")
    for text in ("", "   ", "x" * 1001):
        assert_error(await client.post(chat, json={"text": text}, headers=ann.headers), 422, "invalid_request")
    assert_error(await client.post(chat, json={"text": "a\nb"}, headers=ann.headers), 422, "control_characters")
    assert_error(await client.post(chat, json={"text": "hi"}), 401)
    assert (await client.get(chat, headers=ann.headers)).json() == {"messages": []}


async def test_chat_is_rate_limited_per_player(api: Api, client: httpx.AsyncClient) -> None:
    game, ann, bob, _ = await table(api, client)
    chat = f"/api/v1/games/{game['id']}/chat"
    for n in range(5):
        assert (await client.post(chat, json={"text": f"line {n}"}, headers=ann.headers)).status_code == 201
    r = await client.post(chat, json={"text": "one too many"}, headers=ann.headers)
    assert_error(r, 429, "too_many_messages")
    assert 1 <= int(r.headers["Retry-After"]) <= 10
    assert (await client.post(chat, json={"text": "my turn to talk"}, headers=bob.headers)).status_code == 201
    assert len((await client.get(chat, headers=ann.headers)).json()["messages"]) == 6


async def test_players_of_an_open_table_chat_before_the_start(api: Api, client: httpx.AsyncClient) -> None:
    ann, bob = await api.player("ann"), await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "Soon", "seats": 2, "players": ["bob"]}, headers=ann.headers)
    chat = f"/api/v1/games/{r.json()['id']}/chat"
    assert (await client.post(chat, json={"text": "join us!"}, headers=ann.headers)).status_code == 201
    # Bob is only invited: he reads, but writes once he sits down.
    assert_error(await client.post(chat, json={"text": "coming"}, headers=bob.headers), 403, "no_seat")
    await client.post(f"/api/v1/games/{r.json()['id']}/join", headers=bob.headers)
    assert (await client.post(chat, json={"text": "coming"}, headers=bob.headers)).status_code == 201


async def test_a_chat_message_is_announced_on_the_games_stream(settings: Settings) -> None:
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password"})
    async with live_server(settings) as (url, app), httpx.AsyncClient(base_url=url, timeout=10) as client:
        api = Api(client, app)
        game, ann, bob, _ = await table(api, client)
        heard: list[tuple[str, str]] = []
        connected = asyncio.Event()

        async def watch() -> None:
            async with aconnect_sse(client, "GET", f"/api/v1/games/{game['id']}/stream", headers=bob.headers) as s:
                async for event in s.aiter_sse():
                    # A keep-alive ping (an SSE comment) reaches httpx-sse as an empty "message" once an event
                    # with an id has been read: not a notice of ours, and whether one falls in between is timing.
                    if (event.event, event.data) == ("message", ""):
                        continue
                    heard.append((event.event, event.data))
                    connected.set()
                    if event.event == "chat":
                        return

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(connected.wait(), 10)
        posted = (await client.post(f"/api/v1/games/{game['id']}/chat", json={"text": "hello"},
                                    headers=ann.headers)).json()
        await asyncio.wait_for(watcher, 10)
        assert heard[-1] == ("chat", json.dumps({"id": posted["id"]}))  # the id only: the text is read by GET
        assert [e for e, _ in heard[:-1]] == ["turn"]


async def test_notes_are_read_and_written_by_their_author_alone(api: Api, client: httpx.AsyncClient) -> None:
    game, ann, bob, cid = await table(api, client)
    notes = f"/api/v1/games/{game['id']}/notes"
    assert (await client.get(notes, headers=ann.headers)).json() == {"text": "", "updated_at": None}
    text = "Bob hoards revolvers.\n\tBuy the saloon next round."
    r = await client.put(notes, json={"text": text}, headers=ann.headers)
    assert r.status_code == 200 and r.json()["text"] == text and r.json()["updated_at"]
    assert (await client.get(notes, headers=ann.headers)).json()["text"] == text
    # Another player's notes cannot be named: Bob reads his own (none), and a spectator keeps none.
    assert (await client.get(notes, headers=bob.headers)).json() == {"text": "", "updated_at": None}
    assert_error(await client.get(notes, headers=cid.headers), 403, "no_seat")
    assert_error(await client.put(notes, json={"text": "peek"}, headers=cid.headers), 403, "no_seat")
    assert_error(await client.put(notes, json={"text": "a\x00b"}, headers=ann.headers), 422, "control_characters")
    assert_error(await client.put(notes, json={"text": "x" * 10001}, headers=ann.headers), 422)
    assert_error(await client.get("/api/v1/games/999/notes", headers=ann.headers), 404)
    assert (await client.put(notes, json={"text": ""}, headers=ann.headers)).json()["text"] == ""


async def _browser(app: Any, username: str) -> tuple[httpx.AsyncClient, str]:
    page_client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    form = await page_client.get("/login")
    r = await page_client.post("/login", data={"username": username, "password": "correct horse battery",
                                               "csrf_token": csrf_of(form.text)})
    assert r.status_code == 303
    return page_client, csrf_of((await page_client.get("/")).text)


async def test_the_table_page_has_an_escaped_chat_and_ones_own_notes(app: Any, api: Api,
                                                                      client: httpx.AsyncClient) -> None:
    game, ann, bob, _ = await table(api, client)
    await client.put(f"/api/v1/games/{game['id']}/notes", json={"text": "Ann's secret plan"}, headers=ann.headers)
    browser, token = await _browser(app, "bob")
    try:
        r = await browser.post(f"/games/{game['id']}/chat", headers={"HX-Request": "true"},
                               data={"text": "<script>alert(1)</script>", "csrf_token": token})
        assert r.status_code == 200 and 'id="chat-log"' in r.text and "<html" not in r.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text and "<script>alert" not in r.text
        page = (await browser.get(f"/games/{game['id']}")).text
        assert 'id="chat-form"' in page and 'sse-swap="turn,chat"' in page
        assert "&lt;script&gt;" in page and 'id="notes"' in page
        assert "Ann's secret plan" not in page and "Ann&#39;s secret plan" not in page
        saved = await browser.post(f"/games/{game['id']}/notes", headers={"HX-Request": "true"},
                                   data={"text": "Bob's own plan", "csrf_token": token})
        assert 'id="notes-saved"' in saved.text
        assert (await client.get(f"/api/v1/games/{game['id']}/notes", headers=bob.headers)).json()["text"] == \
            "Bob's own plan"
        log = await browser.get(f"/games/{game['id']}/chat")
        assert log.status_code == 200 and log.text.count("<li data-id=") == 1
        bad = await browser.post(f"/games/{game['id']}/chat", data={"text": "", "csrf_token": token},
                                 headers={"HX-Request": "true"})
        assert 'id="chat-error"' in bad.text
    finally:
        await browser.aclose()


async def test_a_spectator_reads_the_chat_but_has_no_field_and_no_notes(app: Any, api: Api,
                                                                         client: httpx.AsyncClient) -> None:
    game, ann, _, _ = await table(api, client)
    await client.post(f"/api/v1/games/{game['id']}/chat", json={"text": "good luck"}, headers=ann.headers)
    browser, token = await _browser(app, "cid")
    try:
        page = (await browser.get(f"/games/{game['id']}")).text
        assert "good luck" in page and 'id="chat-form"' not in page and 'id="notes"' not in page
        r = await browser.post(f"/games/{game['id']}/chat", data={"text": "hi", "csrf_token": token})
        assert r.status_code == 403
    finally:
        await browser.aclose()


async def test_the_table_page_shows_the_chats_newest_messages_and_ones_notes_from_its_one_read(
    app: Any, api: Api, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table page reads the chat and the notes in its summary's statement (`Positions.table`): the newest
    messages the table shows, oldest first, each at the time the chat's own read gives, and one's own notes as
    written (an open table's waiting page too)."""
    monkeypatch.setattr(talk, "CHAT_SHOWN", 2)
    game, ann, bob, _ = await table(api, client)
    chat = f"/api/v1/games/{game['id']}/chat"
    for who, text in ((ann, "first words"), (bob, "second words"), (ann, "third words")):
        assert (await client.post(chat, json={"text": text}, headers=who.headers)).status_code == 201
    await client.put(f"/api/v1/games/{game['id']}/notes", json={"text": "Ann's own plan"}, headers=ann.headers)
    newest = (await client.get(chat, headers=ann.headers)).json()["messages"][-2:]
    browser, _ = await _browser(app, "ann")
    try:
        page = html.unescape((await browser.get(f"/games/{game['id']}")).text)
        shown = re.findall(r'<li data-id="(\d+)"><strong>(\w+)</strong> <time class="muted" datetime="([^"]+)"',
                           page)
        assert [(int(i), name, datetime.fromisoformat(at)) for i, name, at in shown] == [
            (m["id"], m["username"], datetime.fromisoformat(m["at"])) for m in newest]
        assert "first words" not in page and page.index("second words") < page.index("third words")
        assert "Ann's own plan</textarea>" in page
        waiting = await client.post("/api/v1/games", json={"name": "Later", "seats": 3}, headers=ann.headers)
        assert waiting.status_code == 201, waiting.text
        wait_chat = f"/api/v1/games/{waiting.json()['id']}/chat"
        assert (await client.post(wait_chat, json={"text": "who joins?"}, headers=ann.headers)).status_code == 201
        lobby = html.unescape((await browser.get(f"/games/{waiting.json()['id']}")).text)
        assert 'id="waiting"' in lobby and "who joins?" in lobby and "></textarea>" in lobby
    finally:
        await browser.aclose()
