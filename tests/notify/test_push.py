"""Issue 28 "Web push": the site's VAPID key, the devices' subscriptions (safe endpoints, five an account), and
every notice that is mailed pushed too, through the outbox, to a push service started here on loopback that
checks the VAPID signature and decrypts what it receives (tests/notify/push_service.py).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from conftest import Api, Player

from app.main import notifier_for
from app.notify import push_endpoints
from app.notify.messages import KINDS, Message, Recipient, subject_of
from app.notify.push_notices import TTL, URGENCY
from app.notify.push_sender import MAX_TTL, PushSender, Subscription
from app.notify.worker import Notifier
from app.play.errors import Invalid
from app.play.service import GameService
from app.settings import Settings
from app.store.db import to_libpq_url
from tests.notify.conftest import SmtpServer, Table, drain, now
from tests.notify.push_service import Browser, PushService, self_signed

PUBLIC_ENDPOINT = "https://93.184.215.14/push/abc"  # an address literal on the public internet: no lookup needed


@pytest.fixture
def mail_settings(mail_settings: Settings) -> Settings:
    """The mail tests' settings, with push endpoints on loopback allowed (the push service runs there)."""
    return mail_settings.model_copy(update={"push_allow_private_endpoints": True})


@pytest.fixture
async def push_service() -> AsyncIterator[PushService]:
    service = PushService()
    async with service.running():
        yield service


async def subscribe(api: Api, player: Player, endpoint: str, browser: Browser | None = None) -> httpx.Response:
    keys = (browser or Browser()).keys()
    return await api.client.post("/api/v1/push/subscriptions", json={"endpoint": endpoint, "keys": keys},
                                 headers={**player.headers, "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156"})


async def subscribed(api: Api, push: PushService, player: Player) -> Browser:
    endpoint, browser = push.browser(player.username)
    r = await subscribe(api, player, endpoint, browser)
    assert r.status_code == 201, r.text
    return browser


def rows(settings: Settings, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(to_libpq_url(str(settings.database_url))) as conn:
        return conn.execute(query).fetchall()


# --- pushing ------------------------------------------------------------------------------------------------------


async def test_every_mailed_game_notice_is_pushed_encrypted_and_signed(
    api: Api, service: GameService, notifier: Notifier, push_service: PushService, smtp: SmtpServer
) -> None:
    """API.md "Web push": the game's start, then "your turn", each pushed to the player's device: RFC 8291
    aes128gcm (decrypted by the push service), a VAPID JWT it verified against the site's key (RFC 8292), a TTL of
    at most 12 h, an Urgency, a Topic per game; the payload says what the mail's subject says."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    await subscribed(api, push_service, ann)
    await subscribed(api, push_service, bob)
    key = (await api.client.get("/api/v1/push/key")).json()["public_key"]
    game = await api.started_game(admin, [ann, bob])
    outcomes = await drain(notifier)
    assert outcomes.get("push:sent") == 2 and outcomes.get("sent") == 2, outcomes
    for name in ("ann", "bob"):
        [push] = push_service.to(name)
        assert push.vapid_key == key
        assert push.payload["game_id"] == game["id"] and push.payload["url"] == f"https://carson.example/games/{game['id']}"
        assert push.payload["kind"] == "game_started"
        mails = smtp.inbox.to(f"{name}@example.com")
        assert push.payload["title"] == mails[0]["Subject"]
        assert 0 < int(push.headers["ttl"]) <= MAX_TTL == 43200
        assert push.headers["urgency"] == "normal" and push.headers["topic"] == f"game-{game['id']}"
    table = Table(service, api.app.state.positions, game, [ann, bob])
    first = (await table.to_act())[0]
    await table.play_until(lambda before, after: bool(after) and after != before)
    await drain(notifier)
    awaited = {s: p for s, p in table.by_seat.items() if s in await table.to_act()}
    for seat, player in awaited.items():
        last = push_service.to(player.username)[-1]
        assert last.payload["kind"] in ("your_turn", "permission"), (first, seat, last.payload)
        assert last.payload["tag"] == "turn"


async def test_a_gone_subscription_is_deleted(
    api: Api, notifier: Notifier, push_service: PushService, mail_settings: Settings
) -> None:
    """RFC 8030 section 7.3: 404 or 410 means the subscription expired: it is deleted, never retried."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    await subscribed(api, push_service, ann)
    push_service.respond("ann", 410)
    await api.started_game(admin, [ann, bob])
    outcomes = await drain(notifier)
    assert outcomes.get("push:gone") == 1
    assert rows(mail_settings, "SELECT count(*) FROM push_subscriptions") == [(0,)]
    assert push_service.to("ann") == []


async def test_a_failing_push_service_is_retried_with_back_off_and_blocks_nobody(
    api: Api, notifier: Notifier, push_service: PushService, mail_settings: Settings
) -> None:
    """Issue 28: other failures retry with back-off through the outbox, like mail, and never block other
    notices: ann's service answers 500 twice, bob's push and both mails go at once."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    await subscribed(api, push_service, ann)
    await subscribed(api, push_service, bob)
    push_service.respond("ann", 500, times=2)
    start = now()
    await api.started_game(admin, [ann, bob])
    outcomes = await drain(notifier, start)
    assert outcomes.get("push:retry") == 1 and outcomes.get("push:sent") == 1 and outcomes.get("sent") == 2
    assert len(push_service.to("bob")) == 1 and push_service.to("ann") == []
    [(attempts, due, error)] = rows(mail_settings, "SELECT attempts, next_attempt_at, last_error FROM outbox "
                                                   "WHERE kind = 'push' AND sent_at IS NULL")
    assert attempts == 1 and "500" in error and (due - start).total_seconds() == pytest.approx(30, abs=1)
    later = due
    await drain(notifier, later)
    assert push_service.refused == ["ann", "ann"]
    [(attempts, due, _)] = rows(mail_settings, "SELECT attempts, next_attempt_at, last_error FROM outbox "
                                               "WHERE kind = 'push' AND sent_at IS NULL")
    assert attempts == 2 and (due - later).total_seconds() == pytest.approx(60, abs=1)
    outcomes = await drain(notifier, due)
    assert outcomes.get("push:sent") == 1 and len(push_service.to("ann")) == 1


async def test_a_push_service_that_does_not_answer_delays_no_other_notice(
    api: Api, notifier: Notifier, push_service: PushService
) -> None:
    """Issue 28 "never block other notices": ann's push service does not answer for 30 s; after the sender's
    timeout (1 s here) her push waits for a retry, while bob's push and both mails went at once."""
    assert notifier.push is not None
    notifier.push.sender.timeout = 1.0
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    await subscribed(api, push_service, ann)
    await subscribed(api, push_service, bob)
    push_service.delays["ann"] = 30
    await api.started_game(admin, [ann, bob])
    began = time.monotonic()
    outcomes = await drain(notifier)
    assert time.monotonic() - began < 8
    assert outcomes.get("push:retry") == 1 and outcomes.get("push:sent") == 1 and outcomes.get("sent") == 2
    assert len(push_service.to("bob")) == 1


async def test_a_turn_no_longer_awaited_is_not_pushed(
    api: Api, service: GameService, notifier: Notifier, push_service: PushService
) -> None:
    """As for the mail: a "your turn" whose decision was made before the push went out is settled stale."""
    assert notifier.push is not None
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    await subscribed(api, push_service, ann)
    await subscribed(api, push_service, bob)
    game = await api.started_game(admin, [ann, bob])
    await drain(notifier)
    table = Table(service, api.app.state.positions, game, [ann, bob])
    await table.play_until(lambda before, after: bool(after) and after != before)
    moment = now()
    await notifier.plan_changes(moment)
    assert await notifier.push.plan(moment) >= 1
    awaited = (await table.to_act())[0]
    # The awaited player moves (until another seat is awaited) before the push is sent.
    await table.play_until(lambda _before, after: awaited not in after)
    outcomes = await notifier.push.deliver(now())
    assert "stale" in outcomes and "sent" not in outcomes
    assert [p for p in push_service.received if p.payload["kind"] != "game_started"] == []


async def test_a_redirect_is_not_followed(api: Api, notifier: Notifier, push_service: PushService) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    await subscribed(api, push_service, ann)
    await subscribed(api, push_service, bob)
    push_service.respond("ann", 307, headers={"Location": f"{push_service.origin}/push/bob"})
    await api.started_game(admin, [ann, bob])
    outcomes = await drain(notifier)
    assert outcomes.get("push:failed") == 1 and outcomes.get("push:sent") == 1
    assert len(push_service.to("bob")) == 1  # only its own push: the redirect was not followed


async def test_each_kind_goes_by_the_channels_chosen(
    api: Api, notifier: Notifier, push_service: PushService, smtp: SmtpServer
) -> None:
    """Issue 28: each kind's channels chosen in the settings (mail, push, both, none)."""
    admin = await api.admin()
    players = [await api.player(name) for name in ("ann", "bob", "cid", "dan")]
    for player, channel in zip(players, ("mail", "push", "both", "none"), strict=True):
        await subscribed(api, push_service, player)
        r = await api.client.put("/api/v1/me/notifications", json={"channels": {"game_started": channel}},
                                 headers=player.headers)
        assert r.status_code == 200 and r.json()["channels"]["game_started"] == channel, r.text
    await api.started_game(admin, players)
    await drain(notifier)
    got = {p.username: (bool(smtp.inbox.to(f"{p.username}@example.com")), bool(push_service.to(p.username)))
           for p in players}
    assert got == {"ann": (True, False), "bob": (False, True), "cid": (True, True), "dan": (False, False)}


async def test_several_games_waiting_stack_into_one_notice(
    api: Api, service: GameService, notifier: Notifier, push_service: PushService
) -> None:
    """Issue 28: several games waiting stack into one notice ("Your turn in 2 games"), which opens /next."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    await subscribed(api, push_service, ann)
    games = [await api.started_game(admin, [ann, bob]) for _ in range(2)]
    await drain(notifier)
    tables = [Table(service, api.app.state.positions, game, [ann, bob]) for game in games]
    for table in tables:  # play each game until it awaits ann
        ann_seat = next(s for s, p in table.by_seat.items() if p.username == "ann")
        await table.play_until(lambda _before, after, seat=ann_seat: seat in after)
    await drain(notifier)
    turns = [p.payload for p in push_service.to("ann") if p.payload["kind"] in ("your_turn", "permission")]
    assert turns, push_service.to("ann")
    assert turns[-1]["title"] == "Your turn in 2 games" and turns[-1]["waiting"] == 2
    assert turns[-1]["url"] == "https://carson.example/next" and turns[-1]["tag"] == "turn"


# --- the sender on its own ----------------------------------------------------------------------------------------


def test_every_kind_has_an_urgency_and_a_ttl_within_12_hours() -> None:
    assert set(URGENCY) == set(KINDS) == set(TTL)
    assert all(0 < ttl <= MAX_TTL for ttl in TTL.values())


async def test_an_endpoint_is_checked_again_when_sending(mail_settings: Settings, push_service: PushService) -> None:
    """Safe endpoints are checked again at send time: a subscription on loopback, stored while that was allowed,
    is not reached by a sender that refuses private addresses."""
    endpoint, browser = push_service.browser("ann")
    key = str(mail_settings.vapid_key())
    strict = PushSender(key, "mailto:admin@carson.example")
    subscription = Subscription(1, endpoint, **browser.keys())
    delivery = await strict.send(subscription, b"{}", topic="game-1", ttl=60, urgency="normal", now=now())
    assert delivery.outcome == "unsafe" and push_service.received == []


async def test_the_sender_connects_to_the_address_it_checked(
    mail_settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No second name lookup: the endpoint's name resolves once (here only through the check's resolver, which
    answers loopback for push.example.test); the connection goes to that address, over TLS with the endpoint's name
    as the server name (the certificate is for that name), and with that name as Host."""
    host = "push.example.test"
    cert, key_file, trust = self_signed(tmp_path, host)
    service = PushService(scheme="https", host=host)
    lookups: list[str] = []

    async def resolver(name: str, port: int) -> list[str]:
        lookups.append(name)
        return ["127.0.0.1"] if name == host else []

    monkeypatch.setattr(push_endpoints, "lookup", resolver)
    async with service.running(tls=(cert, key_file)):
        endpoint, browser = service.browser("ann")
        sender = PushSender(str(mail_settings.vapid_key()), "mailto:admin@carson.example", allow_private=True,
                            tls=trust)
        delivery = await sender.send(Subscription(1, endpoint, **browser.keys()), b'{"title": "hello"}',
                                     topic="game-1", ttl=60, urgency="high", now=now())
    assert delivery.outcome == "sent", delivery
    assert lookups == [host]
    [push] = service.received
    assert push.payload == {"title": "hello"} and push.headers["host"] == f"{host}:{service.port}"
    assert push.claims["aud"] == f"https://{host}:{service.port}" and push.headers["urgency"] == "high"


async def test_a_public_address_passes_the_check() -> None:
    target = await push_endpoints.resolve(PUBLIC_ENDPOINT, allow_private=False)
    assert target.address == "93.184.215.14" and target.origin == "https://93.184.215.14"
    with pytest.raises(Invalid):
        await push_endpoints.resolve("https://192.168.1.1/x", allow_private=False)


def test_the_payload_says_what_the_mail_subject_says() -> None:
    """Issue 28 "Nothing secret in a payload (it is the same as the mail's words)"."""
    from app.notify.push_notices import notice

    message = Message("invitation", Recipient(1, "ann", "ann@example.com"), 7, "Secret table name",
                      details={"by": "bob"})
    payload = notice(message, "https://carson.example")
    assert payload["title"] == subject_of(message) and "Secret" not in payload["title"]


async def test_the_worker_is_built_with_the_push_sender(mail_settings: Settings, service: GameService) -> None:
    assert notifier_for(mail_settings, service).push is not None
