"""Mail addresses are checked with email-validator and normalised wherever one enters: sign-up (API and form),
a change of address, "forgot your password" (API and form) and create-admin (tests/test_cli.py). The issue
"Corrections", item 6: sign-up took `a;b…@example.com` (the invitation went to `a`), `z…@example.com>`, and
non-ASCII addresses every mail to which failed."""

from __future__ import annotations

from typing import Any

import httpx
import psycopg
import pytest
from conftest import Api
from support import assert_error

from app.store.db import to_libpq_url
from tests.web.test_pages import csrf_of, signed_in

PASSWORD = "correct horse battery"
# (address, the code it is refused with): what the loose pattern let in, and what no mail of ours can reach.
REFUSED = [
    ("a;b@example.com", "invalid_email"),
    ("z@example.com>", "invalid_email"),
    ("<z@example.com>", "invalid_email"),
    ("ann@example.com, bob@example.com", "invalid_email"),
    ('"a b"@example.com', "invalid_email"),
    ("ann@[127.0.0.1]", "invalid_email"),
    ("ann@admin.invalid", "invalid_email"),
    ("ann@localhost", "invalid_email"),
    ("ünï@example.com", "unsupported_email"),  # no SMTPUTF8 on our mail path: it could never be delivered
    ("jörg@example.com", "unsupported_email"),
]


def emails(database_url: str) -> list[str]:
    with psycopg.connect(to_libpq_url(database_url)) as conn:
        return [row[0] for row in conn.execute("SELECT email FROM users ORDER BY id")]


@pytest.mark.parametrize(("address", "code"), REFUSED)
async def test_sign_up_refuses_what_is_no_address_or_cannot_be_mailed(
    client: httpx.AsyncClient, clean_db: str, address: str, code: str
) -> None:
    r = await client.post("/api/v1/auth/register", json={"username": "ann", "email": address, "password": PASSWORD})
    assert_error(r, 422, code)
    assert emails(clean_db) == []  # nothing was created


async def test_sign_up_stores_the_normalised_address(client: httpx.AsyncClient, clean_db: str) -> None:
    body = {"username": "ann", "email": "  Ann.Smith+cc@Bücher.EXAMPLE ", "password": PASSWORD}
    assert (await client.post("/api/v1/auth/register", json=body)).status_code == 201
    assert emails(clean_db) == ["ann.smith+cc@xn--bcher-kva.example"]  # lower case, the domain in IDNA form
    again = {"username": "bob", "email": "ann.smith+cc@bücher.example", "password": PASSWORD}
    assert_error(await client.post("/api/v1/auth/register", json=again), 409, "email_taken")


async def test_the_sign_up_form_refuses_a_bad_address_with_a_message(client: httpx.AsyncClient, clean_db: str) -> None:
    page = await client.get("/signup")
    r = await client.post("/signup", data={"username": "ann", "email": "a;b@example.com", "password": PASSWORD,
                                           "csrf_token": csrf_of(page.text)})
    assert r.status_code == 422 and "Please give a valid email address." in r.text
    r = await client.post("/signup", data={"username": "ann", "email": "ünï@example.com", "password": PASSWORD,
                                           "csrf_token": csrf_of(page.text)})
    assert r.status_code == 422 and "non-ASCII letters before the @" in r.text
    assert emails(clean_db) == []


async def test_a_change_of_address_refuses_a_bad_one_before_the_password_is_tried(
    api: Api, client: httpx.AsyncClient, clean_db: str, app: Any
) -> None:
    ann = await api.player("ann")
    counts = "SELECT scope, key, failures FROM sign_in_limits ORDER BY scope, key"
    with psycopg.connect(to_libpq_url(clean_db)) as conn:
        before = conn.execute(counts).fetchall()
    for address, code in REFUSED:
        r = await client.post("/api/v1/auth/email", headers=ann.headers,
                              json={"current_password": PASSWORD, "email": address})
        assert_error(r, 422, code)
    with psycopg.connect(to_libpq_url(clean_db)) as conn:
        assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)  # no link mailed anywhere
        assert conn.execute(counts).fetchall() == before  # no password guess counted
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as web:
        token = await signed_in(web, "bea")
        r = await web.post("/settings/email", data={"csrf_token": token, "email": "z@example.com>",
                                                    "current_password": PASSWORD})
        assert r.status_code == 422 and "Please give a valid email address." in r.text
    assert emails(clean_db) == ["ann@example.com", "bea@example.com"]


async def test_forgot_password_refuses_what_cannot_be_an_address(
    api: Api, client: httpx.AsyncClient, clean_db: str
) -> None:
    await api.player("ann")
    for address, code in REFUSED:
        assert_error(await client.post("/api/v1/auth/password/forgot", json={"email": address}), 422, code)
    page = await client.get("/password/forgot")
    r = await client.post("/password/forgot", data={"email": "a;b@example.com", "csrf_token": csrf_of(page.text)})
    assert r.status_code == 422 and "Please give a valid email address." in r.text
    # A valid address in other letters still finds the account (one mail queued).
    assert (await client.post("/api/v1/auth/password/forgot", json={"email": " ANN@Example.COM"})).status_code == 202
    with psycopg.connect(to_libpq_url(clean_db)) as conn:
        assert conn.execute("SELECT count(*) FROM outbox WHERE kind = 'mail'").fetchone() == (1,)
