"""Revocable sign-ins (hardening issue, item 3; API.md "Additions: Sessions"): signing out, signing out
everywhere and changing the password end copied cookies and bearer tokens at once, in every instance; expired
sessions sign nobody in."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from support import assert_error

from app.play.clocks import utc_now
from app.settings import Settings
from tests.web.test_pages import csrf_of

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new password"
COOKIE = "carson_session"


def fresh(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


@pytest.fixture
async def ann(client: httpx.AsyncClient) -> str:
    r = await client.post("/api/v1/auth/register",
                          json={"username": "ann", "email": "ann@example.com", "password": PASSWORD})
    assert r.status_code == 201, r.text
    return "ann"


async def token(client: httpx.AsyncClient, password: str = PASSWORD) -> dict[str, str]:
    r = await client.post("/api/v1/auth/token", data={"username": "ann", "password": password})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def browser_cookie(app: Any) -> str:
    """Sign a new browser in through the API's cookie login; its session cookie."""
    async with fresh(app) as browser:
        r = await browser.post("/api/v1/auth/login", data={"username": "ann", "password": PASSWORD})
        assert r.status_code == 200, r.text
        return browser.cookies[COOKIE]


async def sign_in_by_form(browser: httpx.AsyncClient) -> None:
    """Sign in through the HTML sign-in form, as a browser does."""
    form = await browser.get("/login")
    r = await browser.post("/login", data={"username": "ann", "password": PASSWORD, "csrf_token": csrf_of(form.text)})
    assert r.status_code == 303, r.text


async def me_with_cookie(app: Any, cookie: str) -> httpx.Response:
    """`/auth/me` from another machine that copied the cookie."""
    async with fresh(app) as thief:
        thief.cookies[COOKIE] = cookie
        return await thief.get("/api/v1/auth/me")




async def test_a_copied_cookie_is_refused_after_the_browser_signs_out(app: Any, ann: str) -> None:
    async with fresh(app) as browser:
        r = await browser.post("/api/v1/auth/login", data={"username": "ann", "password": PASSWORD})
        assert r.status_code == 200
        copied = browser.cookies[COOKIE]
        assert (await me_with_cookie(app, copied)).status_code == 200
        assert (await browser.post("/api/v1/auth/logout")).status_code == 204
    assert_error(await me_with_cookie(app, copied), 401, "not_signed_in")
    async with fresh(app) as thief:
        thief.cookies[COOKIE] = copied
        page = await thief.get("/settings/notifications")
        assert page.status_code == 303 and page.headers["location"].startswith("/login")


async def test_the_sign_out_page_revokes_the_browser_session(app: Any, ann: str) -> None:
    async with fresh(app) as browser:
        await sign_in_by_form(browser)
        copied = browser.cookies[COOKIE]
        page = await browser.get("/logout")
        assert (await browser.post("/logout", data={"csrf_token": csrf_of(page.text)})).status_code == 303
    assert_error(await me_with_cookie(app, copied), 401, "not_signed_in")


async def test_a_token_is_refused_after_signing_out_with_it(client: httpx.AsyncClient, ann: str) -> None:
    first, second = await token(client), await token(client)
    assert (await client.post("/api/v1/auth/logout", headers=first)).status_code == 204
    assert_error(await client.get("/api/v1/auth/me", headers=first), 401, "invalid_token")
    assert_error(await client.post("/api/v1/auth/logout", headers=first), 401, "invalid_token")
    # Only the token the request carried is revoked.
    assert (await client.get("/api/v1/auth/me", headers=second)).status_code == 200


async def test_logout_all_revokes_every_token_and_cookie(app: Any, client: httpx.AsyncClient, ann: str) -> None:
    first, second = await token(client), await token(client)
    cookie = await browser_cookie(app)
    assert (await client.post("/api/v1/auth/logout-all", headers=first)).status_code == 204
    for headers in (first, second):
        assert_error(await client.get("/api/v1/auth/me", headers=headers), 401, "invalid_token")
    assert_error(await me_with_cookie(app, cookie), 401, "not_signed_in")
    assert (await client.get("/api/v1/auth/me", headers=await token(client))).status_code == 200


async def test_a_password_change_revokes_every_token_and_cookie(app: Any, client: httpx.AsyncClient, ann: str) -> None:
    first, second = await token(client), await token(client)
    cookie = await browser_cookie(app)
    body = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    assert (await client.post("/api/v1/auth/password", json=body, headers=first)).status_code == 204
    for headers in (first, second):
        assert_error(await client.get("/api/v1/auth/me", headers=headers), 401, "invalid_token")
    assert_error(await me_with_cookie(app, cookie), 401, "not_signed_in")
    r = await client.post("/api/v1/auth/token", data={"username": "ann", "password": PASSWORD})
    assert_error(r, 401, "invalid_credentials")
    assert (await client.get("/api/v1/auth/me", headers=await token(client, NEW_PASSWORD))).status_code == 200


async def test_a_wrong_current_password_changes_nothing(client: httpx.AsyncClient, ann: str) -> None:
    headers = await token(client)
    body = {"current_password": "not my password", "new_password": NEW_PASSWORD}
    assert_error(await client.post("/api/v1/auth/password", json=body, headers=headers), 403, "wrong_password")
    short = {"current_password": PASSWORD, "new_password": "short"}
    assert_error(await client.post("/api/v1/auth/password", json=short, headers=headers), 422, "invalid_request")
    assert (await client.get("/api/v1/auth/me", headers=headers)).status_code == 200
    assert (await client.get("/api/v1/auth/me", headers=await token(client, PASSWORD))).status_code == 200


async def test_the_settings_page_changes_the_password_and_keeps_only_this_browser(
    app: Any, client: httpx.AsyncClient, ann: str
) -> None:
    other = await token(client)
    async with fresh(app) as browser:
        await sign_in_by_form(browser)
        before = browser.cookies[COOKIE]
        page = await browser.get("/settings/notifications")
        assert 'name="new_password"' in page.text
        r = await browser.post("/settings/password", data={
            "current_password": PASSWORD, "new_password": NEW_PASSWORD, "csrf_token": csrf_of(page.text)})
        assert r.status_code == 200 and "password is changed" in r.text
        assert (await browser.get("/api/v1/auth/me")).json()["username"] == "ann"
    assert_error(await client.get("/api/v1/auth/me", headers=other), 401, "invalid_token")
    assert_error(await me_with_cookie(app, before), 401, "not_signed_in")


async def test_the_settings_page_signs_out_everywhere(app: Any, client: httpx.AsyncClient, ann: str) -> None:
    other = await token(client)
    async with fresh(app) as browser:
        await sign_in_by_form(browser)
        page = await browser.get("/settings/notifications")
        r = await browser.post("/logout", data={"everywhere": "1", "csrf_token": csrf_of(page.text)})
        assert r.status_code == 303
        assert_error(await browser.get("/api/v1/auth/me"), 401, "not_signed_in")
    assert_error(await client.get("/api/v1/auth/me", headers=other), 401, "invalid_token")


async def test_a_revocation_counts_at_once_in_every_instance(
    app: Any, other_app: Any, client: httpx.AsyncClient, ann: str
) -> None:
    headers = await token(client)
    async with fresh(other_app) as elsewhere:
        assert (await elsewhere.get("/api/v1/auth/me", headers=headers)).status_code == 200
        assert (await client.post("/api/v1/auth/logout", headers=headers)).status_code == 204
        assert_error(await elsewhere.get("/api/v1/auth/me", headers=headers), 401, "invalid_token")


async def test_expired_sessions_sign_nobody_in(app: Any, client: httpx.AsyncClient, ann: str) -> None:
    headers = await token(client)
    cookie = await browser_cookie(app)
    settings: Settings = app.state.settings
    later = utc_now() + timedelta(hours=settings.session_max_age_hours, minutes=1)
    app.state.sign_in.clock = lambda: later
    assert_error(await me_with_cookie(app, cookie), 401, "not_signed_in")
    assert (await client.get("/api/v1/auth/me", headers=headers)).status_code == 200  # tokens live longer
    app.state.sign_in.clock = lambda: later + timedelta(hours=settings.token_max_age_hours)
    assert_error(await client.get("/api/v1/auth/me", headers=headers), 401, "invalid_token")


async def test_an_admin_password_set_by_the_settings_or_the_cli_revokes_the_old_sign_ins(
    app: Any, client: httpx.AsyncClient, ann: str
) -> None:
    """`ADMIN_PASSWORD` at start and `create-admin` set an existing account's password: a changed password signs
    out every token of the account, as a password change does; the same password again (every restart) does not."""
    old = await token(client)
    await app.state.sign_in.ensure_admin("ann", PASSWORD, "ann@example.com")
    assert (await client.get("/api/v1/auth/me", headers=old)).json()["is_admin"] is True
    await app.state.sign_in.ensure_admin("ann", NEW_PASSWORD, "ann@example.com")
    assert_error(await client.get("/api/v1/auth/me", headers=old), 401, "invalid_token")
    assert (await client.get("/api/v1/auth/me", headers=await token(client, NEW_PASSWORD))).status_code == 200
