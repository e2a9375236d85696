"""Failed sign-in limits (hardening issue, item 4; Corrections item 3; API.md "Additions: Sessions"): per account
and address pair (a lock for that pair), per account (a slowdown, never a lock of the owner's right password,
and a browser with the device cookie is not held up by it) and per address (a much higher limit), answered with
429 and `Retry-After` before any password is hashed, on /auth/token, /auth/login and the HTML sign-in form, held
in PostgreSQL so that every instance counts together; X-Forwarded-For is read only from FORWARDED_ALLOW_IPS."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from conftest import live_server, settings_for
from support import assert_error

from app.main import create_app
from app.play.clocks import utc_now
from app.settings import Settings
from tests.web.test_pages import csrf_of

PASSWORD = "correct horse battery"
WRONG = "not the password"
# The defaults (Settings.sign_in_failures_per_*, sign_in_slowdown_seconds).
PER_PAIR, PER_ACCOUNT, PER_ADDRESS, SLOWDOWN = 10, 20, 100, 5
ATTACKER, OWNER = "203.0.113.9", "198.51.100.4"


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


def from_address(app: Any, address: str, **headers: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://test", headers=headers)


async def sign_in(client: httpx.AsyncClient, username: str, password: str) -> httpx.Response:
    return await client.post("/api/v1/auth/token", data={"username": username, "password": password})


def assert_too_many(r: httpx.Response, window: timedelta = timedelta(minutes=15)) -> int:
    assert_error(r, 429, "too_many_attempts")
    wait = int(r.headers["retry-after"])
    assert 0 < wait <= window.total_seconds()
    return wait


async def test_the_attempt_after_the_pair_limit_is_refused_before_hashing(
    client: httpx.AsyncClient, hasher: CountingHasher
) -> None:
    for _ in range(PER_PAIR):
        assert_error(await sign_in(client, "ann", WRONG), 401, "invalid_credentials")
    assert hasher.calls == PER_PAIR
    assert_too_many(await sign_in(client, "ann", WRONG))
    assert_too_many(await sign_in(client, "ann", PASSWORD))  # the right password too, from this address
    assert hasher.calls == PER_PAIR


async def test_the_owner_elsewhere_is_not_locked_out_by_an_attackers_failures(
    app: Any, hasher: CountingHasher
) -> None:
    """Corrections item 3: ten wrong passwords from one address made the owner's right password 429 from any
    address for 15 minutes."""
    async with from_address(app, ATTACKER) as attacker, from_address(app, OWNER) as owner:
        for _ in range(PER_PAIR):
            assert_error(await sign_in(attacker, "ann", WRONG), 401, "invalid_credentials")
        assert_too_many(await sign_in(attacker, "ann", PASSWORD))
        assert (await sign_in(owner, "ann", PASSWORD)).status_code == 200


async def _fail_from_many_addresses(app: Any, failures: int) -> None:
    """`failures` wrong passwords for ann, spread over addresses so that no pair reaches its limit."""
    for i in range(failures):
        async with from_address(app, f"192.0.2.{i // PER_PAIR + 1}") as attacker:
            assert_error(await sign_in(attacker, "ann", WRONG), 401, "invalid_credentials")


async def test_past_the_account_limit_sign_ins_slow_down_instead_of_locking(app: Any, hasher: CountingHasher) -> None:
    """OWASP's advice: per account, a slowdown rather than a lock; the owner's right password gets in within
    seconds even while an attacker keeps trying."""
    start = utc_now()
    app.state.sign_in.clock = lambda: start
    await _fail_from_many_addresses(app, PER_ACCOUNT)
    async with from_address(app, "192.0.2.200") as attacker, from_address(app, OWNER) as owner:
        assert_error(await sign_in(attacker, "ann", WRONG), 401, "invalid_credentials")  # this pace's one attempt
        calls = hasher.calls
        assert assert_too_many(await sign_in(owner, "ann", PASSWORD)) == SLOWDOWN
        assert hasher.calls == calls
        app.state.sign_in.clock = lambda: start + timedelta(seconds=SLOWDOWN)
        assert (await sign_in(owner, "ann", PASSWORD)).status_code == 200
        async with from_address(app, "192.0.2.201") as other:
            assert (await sign_in(other, "bob", PASSWORD)).status_code == 200  # another account is not slowed


async def test_a_browser_with_the_device_cookie_signs_in_despite_the_account_slowdown(
    app: Any, hasher: CountingHasher
) -> None:
    """OWASP's device cookie: a browser that signed in before is held up only by the limit of its own pair."""
    start = utc_now()
    app.state.sign_in.clock = lambda: start
    async with from_address(app, OWNER) as browser, from_address(app, OWNER) as new_browser:
        r = await browser.post("/api/v1/auth/login", data={"username": "ann", "password": PASSWORD})
        assert r.status_code == 200 and "carson_device" in r.cookies
        assert (await browser.post("/api/v1/auth/logout")).status_code == 204
        await _fail_from_many_addresses(app, PER_ACCOUNT)
        async with from_address(app, "192.0.2.200") as attacker:
            assert_error(await sign_in(attacker, "ann", WRONG), 401, "invalid_credentials")
            assert_too_many(await sign_in(attacker, "ann", WRONG))
        assert_too_many(await new_browser.post("/api/v1/auth/login", data={"username": "Ann", "password": PASSWORD}))
        r = await browser.post("/api/v1/auth/login", data={"username": "Ann", "password": PASSWORD})
        assert r.status_code == 200
        form = await browser.get("/login")
        page = await browser.post("/login", data={"username": "ann", "password": PASSWORD,
                                                  "csrf_token": csrf_of(form.text)})
        assert page.status_code == 303
        # A forged cookie is no device cookie: the account's slowdown holds it up.
        forged = {"carson_device": browser.cookies["carson_device"] + "x"}
        async with from_address(app, OWNER) as impostor:
            impostor.cookies.update(forged)
            assert_too_many(await impostor.post("/api/v1/auth/login", data={"username": "ann", "password": PASSWORD}))


async def test_every_way_in_is_limited(app: Any, client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    for _ in range(PER_PAIR):
        await sign_in(client, "ann", WRONG)
    assert_too_many(await client.post("/api/v1/auth/login", data={"username": "ann", "password": PASSWORD}))
    form = await client.get("/login")
    page = await client.post("/login", data={"username": "ann", "password": PASSWORD, "csrf_token": csrf_of(form.text)})
    assert page.status_code == 429 and int(page.headers["retry-after"]) > 0
    assert "Too many failed sign-ins" in page.text
    assert hasher.calls == PER_PAIR


async def test_another_account_from_the_same_address_is_unaffected(
    app: Any, client: httpx.AsyncClient, hasher: CountingHasher
) -> None:
    for _ in range(PER_PAIR + 1):
        await sign_in(client, "ann", WRONG)
    assert (await sign_in(client, "bob", PASSWORD)).status_code == 200


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
    for _ in range(PER_PAIR):
        await sign_in(client, "ann", WRONG)
    wait = assert_too_many(await sign_in(client, "ann", PASSWORD))
    assert wait == 15 * 60
    app.state.sign_in.clock = lambda: start + timedelta(minutes=14, seconds=59)
    assert assert_too_many(await sign_in(client, "ann", PASSWORD)) == 1
    app.state.sign_in.clock = lambda: start + timedelta(minutes=15)
    assert (await sign_in(client, "ann", PASSWORD)).status_code == 200


async def test_a_success_resets_the_pair_count(client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    for _ in range(PER_PAIR - 1):
        await sign_in(client, "ann", WRONG)
    assert (await sign_in(client, "ann", PASSWORD)).status_code == 200
    for _ in range(PER_PAIR):
        assert_error(await sign_in(client, "ann", WRONG), 401, "invalid_credentials")
    assert_too_many(await sign_in(client, "ann", WRONG))


async def test_a_burst_cannot_slip_past_the_limit(client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    answers = await asyncio.gather(*(sign_in(client, "ann", WRONG) for _ in range(3 * PER_PAIR)))
    assert sorted(r.status_code for r in answers) == [401] * PER_PAIR + [429] * (2 * PER_PAIR)
    assert hasher.calls == PER_PAIR




async def test_instances_count_together(client: httpx.AsyncClient, other_app: Any, hasher: CountingHasher) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=other_app), base_url="http://test") as other:
        for i in range(PER_PAIR):
            await sign_in(client if i % 2 else other, "ann", WRONG)
        assert_too_many(await sign_in(client, "ann", PASSWORD))
        assert_too_many(await sign_in(other, "ann", PASSWORD))


async def test_password_changes_count_as_attempts(client: httpx.AsyncClient, hasher: CountingHasher) -> None:
    headers = {"Authorization": f"Bearer {(await sign_in(client, 'ann', PASSWORD)).json()['access_token']}"}
    body = {"current_password": WRONG, "new_password": "a brand new password"}
    for _ in range(PER_PAIR):
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


def _behind_proxy(settings: Settings, tmp_path: Path, allowed: str) -> Any:
    return create_app(settings_for(settings.database_url or "", tmp_path, forwarded_allow_ips=allowed))


async def test_x_forwarded_for_names_the_client_only_from_a_trusted_proxy(
    settings: Settings, tmp_path: Path
) -> None:
    """Corrections item 3: behind the proxies of FORWARDED_ALLOW_IPS the forwarded address is the client's, so
    the attacker's pair is locked and the owner's is not; from any other peer the header is ignored, so a client
    cannot choose its address by forging it."""
    app = _behind_proxy(settings, tmp_path, "10.88.0.0/24")
    async with app.router.lifespan_context(app):
        await (await _registered(app)).aclose()
        async with from_address(app, "10.88.0.2", **{"X-Forwarded-For": ATTACKER}) as attacker:
            for _ in range(PER_PAIR):
                assert_error(await sign_in(attacker, "ann", WRONG), 401)
            assert_too_many(await sign_in(attacker, "ann", PASSWORD))
        async with from_address(app, "10.88.0.2", **{"X-Forwarded-For": OWNER}) as owner:
            assert (await sign_in(owner, "ann", PASSWORD)).status_code == 200
        for i in range(PER_PAIR):  # a forged header from outside the proxies' network names nobody
            async with from_address(app, "192.0.2.50", **{"X-Forwarded-For": f"198.51.100.{i + 10}"}) as forger:
                assert_error(await sign_in(forger, "ann", WRONG), 401)
        async with from_address(app, "192.0.2.50", **{"X-Forwarded-For": "198.51.100.99"}) as forger:
            assert_too_many(await sign_in(forger, "ann", PASSWORD))


async def _registered(app: Any) -> httpx.AsyncClient:
    client = from_address(app, "10.88.0.3")
    r = await client.post("/api/v1/auth/register",
                          json={"username": "ann", "email": "ann@example.com", "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


async def test_the_server_trusts_no_forwarded_header_by_default(settings: Settings) -> None:
    """Without FORWARDED_ALLOW_IPS no peer is a proxy, not even a local one: uvicorn's own default trusted
    127.0.0.1, so any local client could choose its address (and so escape the limit of its pair). The account
    and address limits are set out of reach: only the pair's, and so the address it is counted under, is seen."""
    assert settings.forwarded_allow_ips == ""
    settings = settings.model_copy(update={"sign_in_failures_per_account": 1000, "sign_in_failures_per_address": 1000})
    async with live_server(settings) as (url, _), httpx.AsyncClient(base_url=url) as local:
        r = await local.post("/api/v1/auth/register",
                             json={"username": "ann", "email": "ann@example.com", "password": PASSWORD})
        assert r.status_code == 201, r.text
        for i in range(PER_PAIR):
            forged = {"X-Forwarded-For": f"198.51.100.{i + 10}"}
            assert_error(await local.post("/api/v1/auth/token", data={"username": "ann", "password": WRONG},
                                          headers=forged), 401)
        assert_too_many(await local.post("/api/v1/auth/token", data={"username": "ann", "password": PASSWORD},
                                         headers={"X-Forwarded-For": "198.51.100.99"}))
