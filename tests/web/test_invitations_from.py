"""A player may refuse invitations from people they have not played with (the issue "Corrections", item 2): an
account setting, off by default, in GET/PUT /api/v1/me/notifications and on the settings page; when on, an
invitation from someone who never shared a running or finished game with them is refused with 403
`invitations_refused` (so the inviter knows), and nothing is invited or mailed."""

from __future__ import annotations

from typing import Any

import httpx
import psycopg
from conftest import Api
from support import assert_error

from app.store.db import to_libpq_url
from tests.web.test_pages import signed_in


def counts(database_url: str) -> tuple[int, int]:
    with psycopg.connect(to_libpq_url(database_url)) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM invitations), (SELECT count(*) FROM outbox WHERE kind = 'mail')"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


async def test_invitations_from_strangers_are_refused_once_the_setting_is_on(
    api: Api, client: httpx.AsyncClient, clean_db: str
) -> None:
    ann, bob = await api.player("ann"), await api.player("bob")
    prefs = (await client.get("/api/v1/me/notifications", headers=bob.headers)).json()
    assert prefs["invitations_from"] == "anyone"  # the default
    r = await client.put("/api/v1/me/notifications", headers=bob.headers, json={"invitations_from": "played_with"})
    assert r.status_code == 200 and r.json()["invitations_from"] == "played_with"
    assert r.json()["preferences"]["your_turn"] == "immediately"  # the modes are untouched

    r = await client.post("/api/v1/games", json={"name": "T", "seats": 2, "players": ["bob"]}, headers=ann.headers)
    detail = assert_error(r, 403, "invitations_refused")
    assert "bob" in detail["message"]
    r = await client.post("/api/v1/games", json={"name": "U", "seats": 2}, headers=ann.headers)
    table = r.json()["id"]
    r = await client.post(f"/api/v1/games/{table}/invitations", json={"username": "bob"}, headers=ann.headers)
    assert_error(r, 403, "invitations_refused")
    assert counts(clean_db) == (0, 0)  # nothing invited, nothing mailed

    # Once they have played together, ann's invitations are taken.
    admin = await api.admin()
    await api.started_game(admin, [ann, bob])
    r = await client.post(f"/api/v1/games/{table}/invitations", json={"username": "bob"}, headers=ann.headers)
    assert r.status_code == 201, r.text
    assert r.json()["invited"] == ["bob"]


async def test_the_setting_is_on_the_settings_page(app: Any, api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as web:
        token = await signed_in(web, "bob")
        page = await web.get("/settings/notifications")
        assert 'name="invitations_from" value="anyone" checked' in page.text
        r = await web.post("/settings/notifications", data={"csrf_token": token, "invitations_from": "played_with"})
        assert r.status_code == 200 and 'name="invitations_from" value="played_with" checked' in r.text
    r = await client.post("/api/v1/games", json={"name": "T", "seats": 2, "players": ["bob"]}, headers=ann.headers)
    assert_error(r, 403, "invitations_refused")
