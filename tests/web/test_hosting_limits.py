"""A player's tables and invitations are limited per account and per client address within a day, counted in
PostgreSQL (the issue "Corrections", item 2: 20 tables each inviting the same player sent 20 mails in 2.3 s, and
opening tables had no limit at all)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import psycopg
import pytest
from conftest import Api
from support import assert_error

from app.main import create_app
from app.play import hosting_limits, sign_in_limits
from app.play.errors import TooMany
from app.play.hosting_limits import HostingLimits
from app.settings import Settings
from app.store.db import to_libpq_url

LIMITS = {"tables_per_day": 3, "tables_per_address_per_day": 100, "invitations_per_day": 4,
          "invitations_per_address_per_day": 100}


@pytest.fixture
async def limited(settings: Settings) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    application = create_app(settings.model_copy(update=LIMITS))
    async with (
        application.router.lifespan_context(application),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://test") as c,
    ):
        yield application, c


def games(database_url: str) -> int:
    with psycopg.connect(to_libpq_url(database_url)) as conn:
        row = conn.execute("SELECT count(*) FROM games").fetchone()
    assert row is not None
    return int(row[0])


async def test_tables_a_player_opens_are_limited_a_day_with_retry_after(
    limited: tuple[Any, httpx.AsyncClient], clean_db: str
) -> None:
    app, client = limited
    api = Api(client, app)
    ann, bob = await api.player("ann"), await api.player("bob")
    for n in range(3):
        r = await client.post("/api/v1/games", json={"name": f"T{n}", "seats": 2}, headers=ann.headers)
        assert r.status_code == 201, r.text
    r = await client.post("/api/v1/games", json={"name": "one more", "seats": 2}, headers=ann.headers)
    assert_error(r, 429, "too_many_tables")
    assert 0 < int(r.headers["Retry-After"]) <= 24 * 3600
    assert games(clean_db) == 3  # nothing was made
    # Another player is counted apart; an admin is not counted at all.
    assert (await client.post("/api/v1/games", json={"name": "B", "seats": 2}, headers=bob.headers)).status_code == 201
    admin = await api.admin()
    for n in range(4):
        r = await client.post("/api/v1/games", json={"name": f"A{n}", "seats": 2}, headers=admin.headers)
        assert r.status_code == 201, r.text


async def test_invitations_are_limited_a_day_however_they_are_sent(
    limited: tuple[Any, httpx.AsyncClient], clean_db: str
) -> None:
    app, client = limited
    api = Api(client, app)
    ann = await api.player("ann")
    for name in ("bob", "cid", "dee", "eve", "fay"):
        await api.player(name)
    r = await client.post("/api/v1/games", json={"name": "T", "seats": 4, "players": ["bob", "cid", "dee"]},
                          headers=ann.headers)
    assert r.status_code == 201, r.text
    r = await client.post("/api/v1/games", json={"name": "U", "seats": 3}, headers=ann.headers)
    other = r.json()["id"]
    assert (await client.post(f"/api/v1/games/{other}/invitations", json={"username": "eve"},
                              headers=ann.headers)).status_code == 201  # the 4th invitation of the day
    r = await client.post(f"/api/v1/games/{other}/invitations", json={"username": "fay"}, headers=ann.headers)
    assert_error(r, 429, "too_many_invitations")
    assert int(r.headers["Retry-After"]) > 0
    r = await client.post("/api/v1/games", json={"name": "V", "seats": 2, "players": ["fay"]}, headers=ann.headers)
    assert_error(r, 429, "too_many_invitations")
    with psycopg.connect(to_libpq_url(clean_db)) as conn:
        assert conn.execute("SELECT count(*) FROM invitations").fetchone() == (4,)
        assert conn.execute("SELECT count(*) FROM outbox WHERE payload->>'message' = 'invitation'").fetchone() == (4,)


async def test_the_counts_hold_across_instances_and_outlive_a_sign_in(settings: Settings, clean_db: str) -> None:
    # Counted in PostgreSQL: a second server sees the first one's count. A successful sign-in tidies the sign-in
    # counts only: it must not wipe a day's count of tables.
    limits = HostingLimits(tables_per_account=2, tables_per_address=10)
    apps = [create_app(settings), create_app(settings)]
    start = datetime.now(UTC)
    async with apps[0].router.lifespan_context(apps[0]), apps[1].router.lifespan_context(apps[1]):
        for app in apps:
            async with app.state.service.db.session() as session:
                await hosting_limits.count_table(session, limits, "ann", "203.0.113.9", start)
        async with apps[0].state.service.db.session() as session:
            await sign_in_limits.succeeded(session, sign_in_limits.Limits(), "bob", "198.51.100.1",
                                           start + timedelta(hours=2))
            await session.commit()
        async with apps[1].state.service.db.session() as session:
            with pytest.raises(TooMany) as refused:
                await hosting_limits.count_table(session, limits, "ANN", "198.51.100.7", start + timedelta(hours=3))
        assert refused.value.code == "too_many_tables"
        assert 20 * 3600 <= refused.value.retry_after <= 21 * 3600
        async with apps[1].state.service.db.session() as session:  # the day is over: counting starts again
            later = start + timedelta(days=1, minutes=1)
            await hosting_limits.count_table(session, limits, "ann", "203.0.113.9", later)
