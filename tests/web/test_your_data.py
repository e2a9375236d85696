"""Your data (issue 30 item 4, API.md "Your data"): `GET /api/v1/me/export` holds everything stored about the
caller; `POST /api/v1/me/delete {"password"}` deletes the account: no more sign-ins, the address, notes, mail
settings and sessions erased, the name `deleted-N` everywhere (the log's handover events included), the bot
plays its running seats, finished games stay verifiable."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import psycopg
from conftest import Api
from sqlalchemy import inspect as sa_inspect
from support import assert_error

from app.play.your_data import ERASED, KEPT
from app.store.db import to_libpq_url
from app.store.tables import Base
from app.verify import verify_export
from tests.notify.push_service import Browser
from tests.play.finishing import play_to_the_end
from tests.web.test_pages import signed_in

PASSWORD = "correct horse battery"


def test_every_column_naming_an_account_is_erased_or_kept_on_purpose() -> None:
    """A new table of personal data must say what becomes of it when its account is deleted."""
    naming = {
        f"{table.name}.{column.name}"
        for table in Base.metadata.tables.values()
        if table.name != "users"
        for column in table.columns
        for key in column.foreign_keys
        if key.target_fullname == "users.id"
    }
    said = [f"{c.class_.__tablename__}.{sa_inspect(c).key}" for c in (*ERASED, *KEPT)]
    assert len(said) == len(set(said))
    assert set(said) == naming


async def test_the_export_holds_everything_stored_about_the_caller(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    gid = game["id"]
    r = await client.post(f"/api/v1/games/{gid}/chat", json={"text": "good luck"}, headers=ann.headers)
    assert r.status_code == 201, r.text
    assert (await client.put(f"/api/v1/games/{gid}/notes", json={"text": "bob likes ranches"},
                             headers=ann.headers)).status_code == 200
    r = await client.put("/api/v1/me/notifications", json={"preferences": {"your_turn": "digest"}}, headers=ann.headers)
    assert r.status_code == 200, r.text
    device = {"endpoint": "https://93.184.215.14/push/ann", "keys": Browser().keys()}
    r = await client.post("/api/v1/push/subscriptions", json=device, headers=ann.headers)
    assert r.status_code == 201, r.text
    r = await client.put("/api/v1/me/notifications", json={"channels": {"chat": "push"}}, headers=ann.headers)
    assert r.status_code == 200, r.text
    assert (await client.get("/api/v1/me/export")).status_code == 401
    r = await client.get("/api/v1/me/export", headers=ann.headers)
    assert r.status_code == 200 and r.headers["content-disposition"] == 'attachment; filename="carson-city-ann.json"'
    data = r.json()
    assert data["account"]["username"] == "ann" and data["account"]["email"] == "ann@example.com"
    assert [g["game_id"] for g in data["games"]] == [gid]
    assert [m["text"] for m in data["chat_messages"]] == ["good luck"]
    assert [n["text"] for n in data["notes"]] == ["bob likes ranches"]
    assert data["preferences"]["notifications"] == {"your_turn": "digest", "chat": "off"}
    assert data["preferences"]["push"] == {"chat": True}
    [subscription] = data["subscriptions"]
    assert subscription["endpoint"] == device["endpoint"] and subscription["keys"] == device["keys"]
    assert "password" not in str(data) and "seed" not in str(data), "no hash, no secret of a game"
    bob_data = (await client.get("/api/v1/me/export", headers=bob.headers)).json()
    assert bob_data["chat_messages"] == [] and bob_data["notes"] == []


async def test_deleting_an_account(app: Any, api: Api, client: httpx.AsyncClient, clean_db: str) -> None:
    admin = await api.admin()
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    finished = await api.started_game(admin, [ann, bob], seed=3)
    await play_to_the_end(app.state.service, finished["id"], random.Random(3))
    running = await api.started_game(admin, [ann, bob], seed=4)
    handed = await api.started_game(admin, [bob, cid], seed=5)
    cid_seat = next(s["seat"] for s in handed["seats"] if s["username"] == "cid")
    r = await client.post(f"/api/v1/games/{handed['id']}/seats/{cid_seat}/replace", json={"username": "ann"},
                          headers=admin.headers)
    assert r.status_code in (200, 204), r.text
    await client.put(f"/api/v1/games/{running['id']}/notes", json={"text": "secret plan"}, headers=ann.headers)
    await client.post(f"/api/v1/games/{running['id']}/chat", json={"text": "hello"}, headers=ann.headers)
    r = await client.post("/api/v1/push/subscriptions", headers=ann.headers,
                          json={"endpoint": "https://93.184.215.14/push/ann", "keys": Browser().keys()})
    assert r.status_code == 201, r.text
    await client.put("/api/v1/me/notifications", json={"channels": {"chat": "both"}}, headers=ann.headers)
    r = await client.post("/api/v1/games", json={"name": "Ann's table", "seats": 3, "players": ["cid"]},
                          headers=ann.headers)
    assert r.status_code == 201, r.text

    assert_error(await client.post("/api/v1/me/delete", json={"password": "wrong one"}, headers=ann.headers),
                 403, "wrong_password")
    assert (await client.get("/api/v1/me/export", headers=ann.headers)).status_code == 200, "nothing changed"
    r = await client.post("/api/v1/me/delete", json={"password": PASSWORD}, headers=ann.headers)
    assert r.status_code == 204, r.text
    name = f"deleted-{ann.id}"

    assert_error(await client.get("/api/v1/me/export", headers=ann.headers), 401)
    r = await client.post("/api/v1/auth/token", data={"username": "ann", "password": PASSWORD})
    assert r.status_code == 401
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": PASSWORD})
    assert r.status_code == 401
    with psycopg.connect(to_libpq_url(clean_db)) as conn:
        assert conn.execute("SELECT username, email, deleted_at IS NOT NULL FROM users WHERE id = %s",
                            (ann.id,)).fetchone() == (name, None, True)
        for table in ("notes", "notification_preferences", "sessions", "watchers", "push_subscriptions",
                      "push_preferences"):
            assert conn.execute(f"SELECT count(*) FROM {table} WHERE user_id = %s", (ann.id,)).fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM game_events WHERE data::text LIKE '%%\"ann\"%%'").fetchone() == (0,)
        # The mails naming her that were queued to others (her chat message to bob, her invitation to cid, the
        # seat handed to her) go out under the new name.
        assert conn.execute("SELECT count(*) FROM outbox WHERE payload::text LIKE '%%\"ann\"%%'").fetchone() == (0,)
        renamed = conn.execute("SELECT payload ->> 'message', recipient_id FROM outbox "
                               "WHERE payload ->> 'from' = %s OR payload ->> 'by' = %s", (name, name)).fetchall()
        assert sorted(renamed) == sorted([("chat", bob.id), ("invitation", cid.id)]), renamed
    # Everywhere the name is shown: the game's seats, the chat, the handover in the log.
    summary = (await client.get(f"/api/v1/games/{running['id']}", headers=bob.headers)).json()
    assert name in [s["username"] for s in summary["seats"]] and "ann" not in str(summary)
    chat = (await client.get(f"/api/v1/games/{running['id']}/chat", headers=bob.headers)).json()
    assert [(m["username"], m["text"]) for m in chat["messages"]] == [(name, "hello")]
    events = (await client.get(f"/api/v1/games/{handed['id']}/events", headers=bob.headers)).json()["events"]
    replaced = [e["data"] for e in events if e["type"] == "seat_replaced"]
    assert replaced and replaced[0]["username"] == name
    # The bot plays the deleted account's seat in the running game.
    ann_seat = next(s["seat"] for s in summary["seats"] if s["username"] == name)
    seated = {s["seat"]: s["username"] for s in summary["seats"]}
    deadline = time.monotonic() + 15
    bot_moved = False
    while not bot_moved:
        assert time.monotonic() < deadline, "the bot did not play the deleted account's seat"
        summary = (await client.get(f"/api/v1/games/{running['id']}", headers=bob.headers)).json()
        if summary["to_act"] and seated[summary["to_act"][0]] == "bob":
            options = (await client.get(f"/api/v1/games/{running['id']}/moves", headers=bob.headers)).json()
            if options["moves"]:
                await client.post(f"/api/v1/games/{running['id']}/moves", headers=bob.headers,
                                  json={"seq": options["seq"], "move": options["moves"][0]})
        events = (await client.get(f"/api/v1/games/{running['id']}/events", headers=bob.headers)).json()["events"]
        bot_moved = any(e.get("by_bot") and e["data"].get("seat") == ann_seat for e in events)
        await asyncio.sleep(0.1)
    # The finished game still replays and verifies from its export.
    export = (await client.get(f"/api/v1/games/{finished['id']}/export", headers=bob.headers)).json()
    assert "seed matches its commitment" in verify_export(export)
    assert name in str(export) and '"ann"' not in str(export).replace("'", '"')
    # The name stays reserved.
    r = await client.post("/api/v1/auth/register",
                          json={"username": "deleted-99", "email": "x@example.com", "password": PASSWORD})
    assert_error(r, 422, "reserved_username")


async def test_the_settings_page_downloads_the_export_and_deletes_the_account(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "anna")
    page = (await client.get("/settings/notifications")).text
    assert 'href="/api/v1/me/export" download' in page and 'action="/settings/delete"' in page
    download = await client.get("/api/v1/me/export")  # with the browser's cookie
    assert download.status_code == 200 and download.json()["account"]["username"] == "anna"
    r = await client.post("/settings/delete", data={"csrf_token": token, "password": "wrong password"})
    assert r.status_code == 403 and "Your current password is not right." in r.text
    r = await client.post("/settings/delete", data={"csrf_token": "forged", "password": PASSWORD})
    assert r.status_code == 403
    r = await client.post("/settings/delete", data={"csrf_token": token, "password": PASSWORD})
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert (await client.get("/api/v1/me/export")).status_code == 401
    r = await client.post("/api/v1/auth/token", data={"username": "anna", "password": PASSWORD})
    assert r.status_code == 401
