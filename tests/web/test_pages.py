"""The HTML pages without a browser: forms with CSRF tokens, the lobby, the admin's form, the table and moves."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import httpx

from tests.conftest import Api


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


async def signed_in(client: httpx.AsyncClient, username: str, password: str = "correct horse battery") -> str:
    page = await client.get("/signup")
    r = await client.post("/signup", data={"username": username, "email": f"{username}@example.com",
                                           "password": password, "csrf_token": csrf_of(page.text)})
    assert r.status_code == 303, r.text
    return csrf_of((await client.get("/")).text)


async def admin_client(app: Any, api: Api) -> tuple[httpx.AsyncClient, str]:
    await api.admin("boss", "boss password")
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    page = await client.get("/login")
    r = await client.post("/login", data={"username": "boss", "password": "boss password",
                                          "csrf_token": csrf_of(page.text)})
    assert r.status_code == 303
    return client, csrf_of((await client.get("/")).text)


async def test_signup_signs_in_and_shows_the_lobby(client: httpx.AsyncClient) -> None:
    await signed_in(client, "anna")
    lobby = await client.get("/")
    assert "Signed in as <strong>anna</strong>" in lobby.text
    assert "My games" in lobby.text


async def test_forms_without_the_csrf_token_are_refused(client: httpx.AsyncClient) -> None:
    await client.get("/signup")
    r = await client.post("/signup", data={"username": "anna", "email": "a@example.com", "password": "x" * 10})
    assert r.status_code == 403
    r = await client.post("/signup", data={"username": "anna", "email": "a@example.com", "password": "x" * 10,
                                           "csrf_token": "forged"})
    assert r.status_code == 403
    assert "Signed in" not in (await client.get("/")).text


async def test_wrong_password_shows_a_message(client: httpx.AsyncClient) -> None:
    await signed_in(client, "anna")
    token = csrf_of((await client.get("/")).text)
    await client.post("/logout", data={"csrf_token": token})
    page = await client.get("/login")
    r = await client.post("/login", data={"username": "anna", "password": "wrong password!",
                                          "csrf_token": csrf_of(page.text)})
    assert r.status_code == 401
    assert "wrong" in r.text


async def test_session_cookie_is_httponly_and_samesite(client: httpx.AsyncClient) -> None:
    page = await client.get("/signup")
    cookie = page.headers.get("set-cookie", "")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()


async def test_admin_form_creates_a_game_with_every_variant(app: Any, api: Api, client: httpx.AsyncClient) -> None:
    await api.player("anna")
    await api.player("bert")
    admin, token = await admin_client(app, api)
    try:
        form = await admin.get("/games/new")
        for name in ("might_is_right", "river", "new_beginning", "seed", "move_timeout_hours", "players"):
            assert f'name="{name}"' in form.text
        for side in ("yellow", "red", "random", "vote"):
            assert f'value="{side}"' in form.text
        r = await admin.post("/games/new", data={
            "name": "All variants", "seats": "2", "sides": "vote", "might_is_right": "1", "river": "1",
            "new_beginning": "1", "players": "anna, bert", "seed": "7", "move_timeout_hours": "48",
            "csrf_token": token})
        assert r.status_code == 303, r.text
        game = (await admin.get(r.headers["location"])).text
        for badge in ("Sides by vote", "Might Is Right", "The River", "A New Beginning"):
            assert badge in game
        assert 'class="parcel river' in game
        bad = await admin.post("/games/new", data={"name": "x", "seats": "2", "players": "anna nobody",
                                                    "csrf_token": token})
        assert bad.status_code == 422 and "nobody" in bad.text
    finally:
        await admin.aclose()


async def test_player_sees_exactly_the_legal_moves_and_plays_one(app: Any, api: Api, client: httpx.AsyncClient) -> None:
    anna = await api.player("anna")
    bert = await api.player("bert")
    boss = await api.admin()
    game = await api.started_game(boss, [anna, bert], seed=3)
    seats = api.seated(game, [anna, bert])
    first = next(s for s in seats if s in game["to_act"])
    player = seats[first]
    token = csrf_of((await client.get("/login")).text)
    await client.post("/login", data={"username": player.username, "password": "correct horse battery",
                                      "csrf_token": token})
    page = await client.get(f"/games/{game['id']}")
    assert page.status_code == 200
    assert 'id="board"' in page.text and f'data-seq="{game["seq"]}"' in page.text
    assert "Your turn" in page.text
    legal = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=player.headers)).json()["moves"]
    options = re.findall(r'<option value="([^"]+)"', page.text)
    offered = sorted(html.unescape(v) for v in options)
    assert offered == sorted(json.dumps(m, separators=(",", ":"), sort_keys=True) for m in legal)
    token = csrf_of(page.text)
    move = json.dumps(legal[0])
    r = await client.post(f"/games/{game['id']}/moves", data={"seq": str(game["seq"]), "move": move,
                                                               "csrf_token": token})
    assert r.status_code == 303
    stale = await client.post(f"/games/{game['id']}/moves", data={"seq": str(game["seq"]), "move": move,
                                                                   "csrf_token": token},
                              headers={"HX-Request": "true"})
    assert stale.status_code == 200
    assert 'id="board"' in stale.text and "<html" not in stale.text
    assert "moved on" in stale.text or "not your turn" in stale.text.lower()


async def test_pages_carry_a_content_security_policy(client: httpx.AsyncClient) -> None:
    """Scripts only from this site (no inline script), so injected markup cannot run code."""
    page = await client.get("/login")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in page.text
