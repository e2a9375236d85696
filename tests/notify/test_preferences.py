"""Preferences, the one-click unsubscribe link, the open game page and the hourly limit on "your turn" mails."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import httpx
import httpx_sse
from conftest import Api, live_server
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.notify import presence
from app.notify.preferences import UnsubscribeLinks
from app.notify.worker import Notifier
from app.play.service import GameService
from tests.notify.conftest import BASE_URL, SmtpServer, drain, now, started


def _became_awaited(seat: int):  # type: ignore[no-untyped-def]
    return lambda before, after: seat not in before and seat in after


def _path(url: str) -> str:
    assert url.startswith(BASE_URL)
    return url[len(BASE_URL) :]


async def test_the_unsubscribe_link_works_without_signing_in_and_cannot_be_forged(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    await drain(notifier)
    (mail,) = smtp.inbox.to("bob@example.com")
    link = _path(mail["List-Unsubscribe"].strip("<>"))
    assert link in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    page = await client.get(link)  # no credentials at all
    assert page.status_code == 200 and "Unsubscribe" in page.text and "bob" in page.text
    done = await client.post(link, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and 'id="unsubscribed"' in done.text
    bob = next(p for p in table.by_seat.values() if p.username == "bob")
    prefs = (await client.get("/api/v1/me/notifications", headers=bob.headers)).json()["preferences"]
    assert prefs["game_started"] == "off" and prefs["your_turn"] == "immediately"

    token = link.rsplit("/", 1)[1]
    forged = [
        # an altered signature: a wholly significant character (base64's last one holds padding bits too)
        token[:-5] + ("A" if token[-5] != "A" else "B") + token[-4:],
        UnsubscribeLinks("some other secret key", BASE_URL).token(bob.id, "your_turn"),  # signed with another key
        "not-a-token",
    ]
    ann = next(p for p in table.by_seat.values() if p.username == "ann")
    for bad in forged:
        for method in (client.get, client.post):
            r = await method(f"/unsubscribe/{bad}")
            assert r.status_code == 422 and r.json()["detail"]["code"] == "invalid_unsubscribe_link"
    prefs = (await client.get("/api/v1/me/notifications", headers=ann.headers)).json()["preferences"]
    assert prefs == {**dict.fromkeys(prefs, "immediately"), "chat": "off"}  # Ann's defaults, untouched


async def test_the_unsubscribe_headers_arrive_as_one_url_in_angle_brackets_and_its_post_needs_no_sign_in(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    # RFC 2369: List-Unsubscribe is `<URL>`; RFC 8058: with List-Unsubscribe-Post, a POST of
    # `List-Unsubscribe=One-Click` to that URL unsubscribes, with no cookie, token or page in between.
    await started(api, service, ["ann", "bob"], seed=3)
    await drain(notifier)
    assert len(smtp.inbox.raw) == 2
    for raw in smtp.inbox.raw:
        head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
        lines = head.split("\r\n")
        (unsubscribe,) = [line for line in lines if line.lower().startswith("list-unsubscribe:")]
        (one_click,) = [line for line in lines if line.lower().startswith("list-unsubscribe-post:")]
        assert re.fullmatch(rf"List-Unsubscribe: <{re.escape(BASE_URL)}/unsubscribe/[A-Za-z0-9_.-]+>", unsubscribe)
        assert one_click == "List-Unsubscribe-Post: List-Unsubscribe=One-Click"
        assert "=?" not in unsubscribe
        url = unsubscribe.split(": ", 1)[1][1:-1]
        done = await client.post(
            _path(url), content=b"List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert done.status_code == 200
    bob = await api.token("bob", "correct horse battery")
    prefs = (await client.get("/api/v1/me/notifications", headers=bob)).json()["preferences"]
    assert prefs["game_started"] == "off"


async def test_an_unsubscribed_kind_is_not_sent_and_all_kinds_can_be_turned_off(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, players = await started(api, service, ["ann", "bob"], seed=3)
    ann = players[0]
    await drain(notifier)
    (mail,) = smtp.inbox.to("bob@example.com")
    r = await client.post(_path(mail["List-Unsubscribe"].strip("<>")), data={"scope": "all"})
    assert r.status_code == 200
    smtp.inbox.clear()
    bob_seat = next(s for s, p in table.by_seat.items() if p.username == "bob")
    await table.play_until(_became_awaited(bob_seat))
    outcomes = await drain(notifier)
    assert outcomes.get("off", 0) >= 1 and smtp.inbox.to("bob@example.com") == []
    r = await client.put("/api/v1/me/notifications", json={"preferences": {"nonsense": "off"}}, headers=ann.headers)
    assert r.status_code == 422


async def test_no_turn_mail_while_the_player_watches_the_game_and_at_most_one_an_hour(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    await drain(notifier)
    smtp.inbox.clear()
    bob_seat = next(s for s, p in table.by_seat.items() if p.username == "bob")
    bob = table.player(bob_seat)
    async with presence.watching(service.db, table.id, bob.id):
        await table.play_until(_became_awaited(bob_seat))
        assert (await drain(notifier)).get("watching") == 1
    assert smtp.inbox.to("bob@example.com") == []
    t = now()
    await table.play_until(lambda before, after: bob_seat in before and bob_seat not in after)
    await table.play_until(_became_awaited(bob_seat))
    await drain(notifier, t)
    assert len(smtp.inbox.to("bob@example.com")) == 1
    await table.play_until(lambda before, after: bob_seat in before and bob_seat not in after)
    await table.play_until(_became_awaited(bob_seat))
    outcomes = await drain(notifier, t + timedelta(minutes=30))
    assert outcomes.get("throttled") == 1 and len(smtp.inbox.to("bob@example.com")) == 1
    await table.play_until(lambda before, after: bob_seat in before and bob_seat not in after)
    await table.play_until(_became_awaited(bob_seat))
    await drain(notifier, t + timedelta(minutes=61))
    assert len(smtp.inbox.to("bob@example.com")) == 2


async def _watchers(session: AsyncSession) -> str:
    """Every watcher row, for the message of a failed presence check (which row is there, if any, tells why)."""
    rows = (await session.execute(text("SELECT game_id, user_id, expires_at, now() FROM watchers"))).all()
    return f"watchers (game, user, expires, database's now): {[tuple(row) for row in rows]}"


async def test_the_live_stream_records_presence_across_instances(
    api: Api, service: GameService, mail_settings: object
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    bob = next(p for p in table.by_seat.values() if p.username == "bob")
    stream = f"/api/v1/games/{table.id}/stream"
    async with (
        live_server(mail_settings) as (url, _),  # type: ignore[arg-type]
        httpx.AsyncClient(base_url=url, timeout=10) as http,
        httpx_sse.aconnect_sse(http, "GET", stream, headers=bob.headers) as source,
    ):
        # The events' iterator is held until the check is done: left behind by a `break`, it would be finalised at
        # once, closing the connection, and the server would end the stream (and remove its row) under the check.
        events = source.aiter_sse()
        await anext(events)
        async with service.db.reading() as session:
            assert await presence.is_watching(session, table.id, bob.id, now()), await _watchers(session)
        await events.aclose()
    async with service.db.reading() as session:
        for _ in range(50):
            if not await presence.is_watching(session, table.id, bob.id, now()):
                break
            await asyncio.sleep(0.05)
        assert not await presence.is_watching(session, table.id, bob.id, now())
