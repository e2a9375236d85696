"""Cross-site requests (hardening issue, item 6): unsafe requests that carry the session cookie, and sign-ins,
are refused when their Origin (or Referer) is another site's; bearer-token requests are not affected. The
session cookie is Secure whenever BASE_URL is https."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from support import assert_error

from app.main import create_app
from app.settings import Settings
from tests.web.test_pages import csrf_of

PASSWORD = "correct horse battery"
EVIL = "https://evil.example"
CREDENTIALS = {"username": "ann", "password": PASSWORD}


@pytest.fixture
async def ann(client: httpx.AsyncClient) -> dict[str, str]:
    """Account ann, and a bearer header for it."""
    r = await client.post("/api/v1/auth/register", json={**CREDENTIALS, "email": "ann@example.com"})
    assert r.status_code == 201, r.text
    r = await client.post("/api/v1/auth/token", data=CREDENTIALS)
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


@pytest.mark.parametrize("header", [{"Origin": EVIL}, {"Referer": f"{EVIL}/page"}, {"Origin": "null"}])
async def test_a_cross_site_login_is_refused(client: httpx.AsyncClient, ann: Any, header: dict[str, str]) -> None:
    r = await client.post("/api/v1/auth/login", data=CREDENTIALS, headers=header)
    assert_error(r, 403, "cross_site_request")
    assert "set-cookie" not in r.headers
    assert_error(await client.get("/api/v1/auth/me"), 401, "not_signed_in")


@pytest.mark.parametrize("header", [
    {"Origin": "http://test"},  # the request's own host
    {"Origin": "http://127.0.0.1:8000"},  # BASE_URL's origin
    {"Referer": "http://test/login"},
    {},  # no browser: neither header
])
async def test_a_login_from_our_own_site_is_accepted(client: httpx.AsyncClient, ann: Any,
                                                     header: dict[str, str]) -> None:
    r = await client.post("/api/v1/auth/login", data=CREDENTIALS, headers=header)
    assert r.status_code == 200, r.text


async def test_the_sign_in_form_refuses_another_site(client: httpx.AsyncClient, ann: Any) -> None:
    form = await client.get("/login")
    r = await client.post("/login", data={**CREDENTIALS, "csrf_token": csrf_of(form.text)}, headers={"Origin": EVIL})
    assert_error(r, 403, "cross_site_request")
    assert "Signed in" not in (await client.get("/")).text


async def test_cookie_authenticated_unsafe_calls_from_another_site_are_refused(
    client: httpx.AsyncClient, ann: Any
) -> None:
    assert (await client.post("/api/v1/auth/login", data=CREDENTIALS)).status_code == 200
    r = await client.put("/api/v1/me/notifications", json={"preferences": {"your_turn": "off"}},
                         headers={"Origin": EVIL})
    assert_error(r, 403, "cross_site_request")
    assert_error(await client.post("/api/v1/auth/logout-all", headers={"Referer": EVIL}), 403, "cross_site_request")
    assert (await client.get("/api/v1/me/notifications")).json()["preferences"].get("your_turn") != "off"
    assert (await client.get("/api/v1/auth/me")).status_code == 200
    # The same calls from our own pages go through.
    r = await client.put("/api/v1/me/notifications", json={"preferences": {"your_turn": "off"}},
                         headers={"Origin": "http://test"})
    assert r.status_code == 200, r.text


async def test_bearer_requests_are_not_affected(client: httpx.AsyncClient, ann: dict[str, str]) -> None:
    r = await client.put("/api/v1/me/notifications", json={"preferences": {"your_turn": "off"}},
                         headers={**ann, "Origin": EVIL})
    assert r.status_code == 200, r.text


async def _login_cookie(settings: Settings) -> str:
    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client,
    ):
        await client.post("/api/v1/auth/register", json={**CREDENTIALS, "email": "ann@example.com"})
        r = await client.post("/api/v1/auth/login", data=CREDENTIALS)
        assert r.status_code == 200, r.text
        return r.headers["set-cookie"].lower()


async def test_the_session_cookie_is_secure_when_the_site_is_https(settings: Settings) -> None:
    cookie = await _login_cookie(settings.model_copy(update={"base_url": "https://carson.example"}))
    assert "; secure" in cookie


async def test_the_session_cookie_is_not_secure_on_a_plain_http_site(settings: Settings) -> None:
    cookie = await _login_cookie(settings.model_copy(update={"base_url": "http://127.0.0.1:8000"}))
    assert "; secure" not in cookie and "httponly" in cookie
