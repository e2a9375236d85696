"""Accounts through the API: register, token, cookie sign-in, and the error shape."""

from __future__ import annotations

import httpx
from support import assert_error


async def test_register_then_token_then_me(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/api/v1/auth/register",
        json={"username": "ann", "email": "ann@example.com", "password": "long enough"},
    )
    assert r.status_code == 201
    assert r.json() == {"id": 1, "username": "ann"}
    r = await client.post("/api/v1/auth/token", data={"username": "ann", "password": "long enough"})
    assert r.status_code == 200
    body = r.json()
    assert body["token_type"] == "bearer"
    r = await client.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {body['access_token']}"})
    assert r.json() == {"id": 1, "username": "ann", "is_admin": False}


async def test_register_refuses_taken_names_and_emails_in_any_case(client: httpx.AsyncClient) -> None:
    body = {"username": "Bob", "email": "bob@example.com", "password": "long enough"}
    assert (await client.post("/api/v1/auth/register", json=body)).status_code == 201
    r = await client.post("/api/v1/auth/register", json={**body, "username": "bob", "email": "x@example.com"})
    assert_error(r, 409, "username_taken")
    r = await client.post("/api/v1/auth/register", json={**body, "username": "bobby", "email": "BOB@example.com"})
    assert_error(r, 409, "email_taken")


async def test_register_validates_its_input(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/v1/auth/register", json={"username": "x", "email": "nope", "password": "short"})
    assert_error(r, 422, "invalid_request")
    r = await client.post("/api/v1/auth/register", content=b"{not json", headers={"Content-Type": "application/json"})
    assert_error(r, 400, "malformed_json")


async def test_wrong_password_and_unknown_user_get_the_same_answer(client: httpx.AsyncClient) -> None:
    await client.post(
        "/api/v1/auth/register",
        json={"username": "cid", "email": "cid@example.com", "password": "long enough"},
    )
    wrong = await client.post("/api/v1/auth/token", data={"username": "cid", "password": "wrong password"})
    unknown = await client.post("/api/v1/auth/token", data={"username": "nobody", "password": "long enough"})
    assert assert_error(wrong, 401, "invalid_credentials") == assert_error(unknown, 401, "invalid_credentials")
    assert wrong.headers["www-authenticate"] == "Bearer"


async def test_bad_tokens_and_no_credentials_are_401(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/v1/auth/me"), 401, "not_signed_in")
    r = await client.get("/api/v1/auth/me", headers={"Authorization": "Bearer forged.token.value"})
    assert_error(r, 401, "invalid_token")


async def test_browser_session_cookie_signs_in_and_out(client: httpx.AsyncClient) -> None:
    await client.post(
        "/api/v1/auth/register",
        json={"username": "dee", "email": "dee@example.com", "password": "long enough"},
    )
    r = await client.post("/api/v1/auth/login", data={"username": "dee", "password": "long enough"})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert (await client.get("/api/v1/auth/me")).json()["username"] == "dee"
    assert (await client.post("/api/v1/auth/logout")).status_code == 204
    assert_error(await client.get("/api/v1/auth/me"), 401, "not_signed_in")


async def test_passwords_are_stored_as_argon2_hashes(client: httpx.AsyncClient, app: object) -> None:
    from sqlalchemy import select

    from app.store.tables import User

    await client.post(
        "/api/v1/auth/register",
        json={"username": "eve", "email": "eve@example.com", "password": "long enough"},
    )
    async with app.state.service.db.session() as session:  # type: ignore[attr-defined]
        stored = await session.scalar(select(User.password_hash).where(User.username == "eve"))
    assert stored is not None and stored.startswith("$argon2id$") and "long enough" not in stored


async def test_unknown_routes_and_huge_bodies_keep_the_error_shape(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/v1/nothing-here"), 404, "not_found")
    huge = {"username": "a" * 200_000, "email": "x@example.com", "password": "long enough"}
    assert_error(await client.post("/api/v1/auth/register", json=huge), 413, "body_too_large")


async def test_healthz_checks_the_database(client: httpx.AsyncClient) -> None:
    r = await client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
