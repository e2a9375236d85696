"""Failed sign-in limits (hardening issue, item 4; API.md "Additions: Sessions"): per account and per client
address, answered with 429 and `Retry-After` before any password is hashed, on /auth/token, /auth/login and the
HTML sign-in form, held in PostgreSQL so that every instance counts together."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from support import assert_error

from app.play.clocks import utc_now
from tests.web.test_pages import csrf_of

PASSWORD = "correct horse battery"
WRONG = "not the password"
PER_ACCOUNT, PER_ADDRESS = 10, 30  # the defaults (Settings.sign_in_failures_per_*)


class CountingHasher(PasswordHasher):
    """The application's real hasher, counting how often it hashes (verifying hashes too)."""

    def __init__(self, real: PasswordHasher) -> None:
        super().__init__(real.time_cost, real.memory_cost, real.parallelism, real.hash_len, real.salt_len,
                         real.encoding, real.type)
        self.calls = 0

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.calls += 1
        return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.calls += 1
        return super().verify(hash, password)


@pytest.fixture
async def hasher(app: Any, client: httpx.AsyncClient) -> CountingHasher:
    """Accounts ann and bob, then the counting hasher in place of the real one."""
    for name in ("ann", "bob"):
        r = await client.post("/api/v1/auth/register",
                              json={"username": name, "email": f"{name}@example.com", "password": PASSWORD})
        assert r.status_code == 201, r.text
    counting = CountingHasher(app.state.accounts.hasher)
    app.state.accounts.hasher = counting
    return counting


def from_address(app: Any, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 40000)), base_url="http://test")


async def sign_in(client: httpx.AsyncClient, username: str, password: str) -> httpx.Response:
    return await client.post("/api/v1/auth/token", data={"username": username, "password": password})


def assert_too_many(r: httpx.Response, window: timedelta = timedelta(minutes=15)) -> int:
    assert_error(r, 429, "too_many_attempts")
    wait = int(r.headers["retry-after"])
    assert 0 < wait <= window.total_seconds()
    return wait


async def test_the_attempt_after_the_limit_is_refused_before_hashing(
    client: httpx.AsyncClient, hasher: CountingHasher
) -> None:
    for _ in range(PER_ACCOUNT):
        assert_error(await sign_in(client, "ann", WRONG), 401, "invalid_credentials")
    assert hasher.calls == PER_ACCOUNT
    assert_too_many(await sign_in(client, "ann", WRONG))
    assert_too_many(await sign_in(client, "ann", PASSWORD))  # the right password too, while locked
    assert hasher.calls == PER_ACCOUNT


async def test_every_way_in_is_limited(app: Any, client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    for _ in range(PER_ACCOUNT):
        await sign_in(client, "ann", WRONG)
    assert_too_many(await client.post("/api/v1/auth/login", data={"username": "ann", "password": PASSWORD}))
    form = await client.get("/login")
    page = await client.post("/login", data={"username": "ann", "password": PASSWORD, "csrf_token": csrf_of(form.text)})
    assert page.status_code == 429 and int(page.headers["retry-after"]) > 0
    assert "Too many failed sign-ins" in page.text
    assert hasher.calls == PER_ACCOUNT


async def test_another_account_from_another_address_is_unaffected(
    app: Any, client: httpx.AsyncClient, hasher: CountingHasher
) -> None:
    for _ in range(PER_ACCOUNT + 1):
        await sign_in(client, "ann", WRONG)
    async with from_address(app, "192.0.2.7") as elsewhere:
        assert (await sign_in(elsewhere, "bob", PASSWORD)).status_code == 200


async def test_one_address_is_limited_across_account_names(
    app: Any, client: httpx.AsyncClient, hasher: CountingHasher
) -> None:
    for i in range(PER_ADDRESS):
        assert_error(await sign_in(client, f"guess{i}", WRONG), 401, "invalid_credentials")
    assert_too_many(await sign_in(client, "bob", PASSWORD))
    assert hasher.calls == PER_ADDRESS
    async with from_address(app, "2001:db8::1") as elsewhere:
        assert (await sign_in(elsewhere, "bob", PASSWORD)).status_code == 200


async def test_ipv6_addresses_are_counted_per_64_block(app: Any, hasher: CountingHasher) -> None:
    for i in range(PER_ADDRESS):
        async with from_address(app, f"2001:db8:0:1::{i + 1:x}") as client:
            await sign_in(client, f"guess{i}", WRONG)
    async with from_address(app, "2001:db8:0:1::ffff") as same_block:
        assert_too_many(await sign_in(same_block, "bob", PASSWORD))
    async with from_address(app, "2001:db8:0:2::1") as next_block:
        assert (await sign_in(next_block, "bob", PASSWORD)).status_code == 200


async def test_the_window_closes(app: Any, client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    start = utc_now()
    app.state.sign_in.clock = lambda: start
    for _ in range(PER_ACCOUNT):
        await sign_in(client, "ann", WRONG)
    wait = assert_too_many(await sign_in(client, "ann", PASSWORD))
    assert wait == 15 * 60
    app.state.sign_in.clock = lambda: start + timedelta(minutes=14, seconds=59)
    assert assert_too_many(await sign_in(client, "ann", PASSWORD)) == 1
    app.state.sign_in.clock = lambda: start + timedelta(minutes=15)
    assert (await sign_in(client, "ann", PASSWORD)).status_code == 200


async def test_a_success_resets_the_account_count(client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    for _ in range(PER_ACCOUNT - 1):
        await sign_in(client, "ann", WRONG)
    assert (await sign_in(client, "ann", PASSWORD)).status_code == 200
    for _ in range(PER_ACCOUNT):
        assert_error(await sign_in(client, "ann", WRONG), 401, "invalid_credentials")
    assert_too_many(await sign_in(client, "ann", WRONG))


async def test_a_burst_cannot_slip_past_the_limit(client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    answers = await asyncio.gather(*(sign_in(client, "ann", WRONG) for _ in range(3 * PER_ACCOUNT)))
    assert sorted(r.status_code for r in answers) == [401] * PER_ACCOUNT + [429] * (2 * PER_ACCOUNT)
    assert hasher.calls == PER_ACCOUNT




async def test_instances_count_together(client: httpx.AsyncClient, other_app: Any, hasher: CountingHasher) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=other_app), base_url="http://test") as other:
        for i in range(PER_ACCOUNT):
            await sign_in(client if i % 2 else other, "ann", WRONG)
        assert_too_many(await sign_in(client, "ann", PASSWORD))
        assert_too_many(await sign_in(other, "ann", PASSWORD))


async def test_password_changes_count_as_attempts(client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    headers = {"Authorization": f"Bearer {(await sign_in(client, 'ann', PASSWORD)).json()['access_token']}"}
    body = {"current_password": WRONG, "new_password": "a brand new password"}
    for _ in range(PER_ACCOUNT):
        assert_error(await client.post("/api/v1/auth/password", json=body, headers=headers), 403, "wrong_password")
    calls = hasher.calls
    assert_too_many(await client.post("/api/v1/auth/password", json={**body, "current_password": PASSWORD},
                                      headers=headers))
    assert hasher.calls == calls


SIGN_UPS_PER_ADDRESS = 30  # the default (Settings.sign_ups_per_address_per_hour)


def _new_account(number: int) -> dict[str, str]:
    return {"username": f"newcomer{number}", "email": f"newcomer{number}@example.com", "password": PASSWORD}


async def test_sign_ups_from_one_address_are_limited_before_any_password_is_hashed(
    app: Any, hasher: CountingHasher
) -> None:
    """Each sign-up hashes a password: CPU an attacker could buy by the thousand from one address."""
    async with from_address(app, "203.0.113.7") as crowd, from_address(app, "198.51.100.2") as other:
        for number in range(SIGN_UPS_PER_ADDRESS):
            assert (await crowd.post("/api/v1/auth/register", json=_new_account(number))).status_code == 201
        hashed = hasher.calls
        r = await crowd.post("/api/v1/auth/register", json=_new_account(SIGN_UPS_PER_ADDRESS))
        assert_error(r, 429, "too_many_sign_ups")
        assert 0 < int(r.headers["retry-after"]) <= 3600
        assert hasher.calls == hashed
        # The HTML form answers the same, on the page.
        page = await crowd.get("/signup")
        form = {**_new_account(99), "csrf_token": csrf_of(page.text)}
        r = await crowd.post("/signup", data=form)
        assert r.status_code == 429 and "Too many accounts were created from your address" in r.text
        assert hasher.calls == hashed
        # Another address is not held up, and the refused names are still free.
        assert (await other.post("/api/v1/auth/register", json=_new_account(SIGN_UPS_PER_ADDRESS))).status_code == 201
