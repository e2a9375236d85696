"""Mail through a real SMTP exchange (issue "Asynchronous play", part 5): the app sends to an aiosmtpd server
on a free local port, and the tests read what arrived."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import httpx
from conftest import Api

from app.notify.worker import Notifier
from app.play.service import GameService
from tests.notify.conftest import BASE_URL, SmtpServer, Table, drain, now, started


def _became_awaited(seat: int):  # type: ignore[no-untyped-def]
    return lambda before, after: seat not in before and seat in after


async def test_a_move_that_makes_it_bobs_turn_sends_bob_exactly_one_mail_with_the_link(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    await drain(notifier)
    started_mails = smtp.inbox.to("bob@example.com")
    assert len(started_mails) == 1
    assert started_mails[0]["Subject"] in ("Test game has started", "Test game has started: you play first")
    smtp.inbox.clear()
    first = (await table.to_act())[0]
    other = 1 - first
    await table.play_until(_became_awaited(other))
    outcomes = await drain(notifier)
    assert outcomes == {"sent": 1}
    mails = smtp.inbox.to(f"{table.player(other).username}@example.com")
    assert len(mails) == 1 and len(smtp.inbox.mails) == 1
    mail = mails[0]
    assert mail["Subject"].startswith("Your turn in Test game: ")
    link = f"{BASE_URL}/games/{table.id}"
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    html = mail.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert link in text and f'href="{link}"' in html
    assert mail["Message-ID"].startswith("<carson-mail-") and mail["Message-ID"].endswith("@carson.example>")
    assert mail["List-Unsubscribe"].startswith(f"<{BASE_URL}/unsubscribe/")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/unsubscribe/" in text
    # Nothing more to send: a second run delivers nothing twice.
    assert await drain(notifier) == {}
    assert len(smtp.inbox.mails) == 1


async def test_a_permission_request_mails_the_parcels_owner(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=5)
    chooser = random.Random(5)

    def choose(moves: list[dict[str, Any]]) -> dict[str, Any]:
        asks = [m for m in moves if m["type"] == "ask_permission"]
        # Players who answer no purchase ahead: the moves of the game this seed was chosen for.
        return asks[0] if asks else chooser.choice([m for m in moves if not m.get("buy")])

    for _ in range(200):
        if (await table.positions.view(None, table.id))["awaiting"] == "permission":
            break
        await table.play((await table.to_act())[0], choose)
    else:
        raise AssertionError("no permission request arose")
    owner = (await table.to_act())[0]
    smtp.inbox.clear()
    view = await table.positions.view(None, table.id)
    builder = view["construction_work"]["seat"]
    # Earlier "your turn" mails are stale by now or were sent; what matters is the owner's request mail.
    await drain(notifier)
    owner_mails = [
        m
        for m in smtp.inbox.to(f"{table.player(owner).username}@example.com")
        if "asks to build a house" in m["Subject"]
    ]
    assert len(owner_mails) == 1
    mail = owner_mails[0]
    assert mail["Subject"] == f"{table.player(builder).username} asks to build a house on your parcel in Test game"
    assert f"{BASE_URL}/games/{table.id}" in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]


async def test_a_finished_game_mails_everyone_the_scores(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, players = await started(api, service, ["ann", "bob", "cid"], seed=11)
    await drain(notifier)
    smtp.inbox.clear()
    for _ in range(1000):
        to_act = await table.to_act()
        if not to_act:
            break
        await table.play(to_act[0], lambda moves: moves[0])
    summary = await table.positions.summary(table.id)
    assert summary.status == "finished"
    outcomes = await drain(notifier)
    assert outcomes.get("sent") == 3, outcomes  # the "your turn" mails of the game are stale by now
    view = await table.positions.view(None, table.id)
    winner = view["players"][view["winner"]]["username"]
    for player in players:
        (mail,) = smtp.inbox.to(f"{player.username}@example.com")
        assert mail["Subject"] == f"Test game is over: {winner} wins"
        text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        for p in view["players"]:
            assert f"{p['username']}: {p['score']['total']} VP" in text


async def test_smtp_down_the_move_succeeds_and_the_mail_arrives_when_smtp_is_back(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    await drain(notifier)
    smtp.inbox.clear()
    smtp.stop()
    bob_seat = next(seat for seat, p in table.by_seat.items() if p.username == "bob")
    while True:  # moves through the API while the mail server is down: every one succeeds
        mover = table.player((await table.to_act())[0])
        options = (await client.get(f"/api/v1/games/{table.id}/moves", headers=mover.headers)).json()
        r = await client.post(
            f"/api/v1/games/{table.id}/moves",
            json={"seq": options["seq"], "move": options["moves"][0]},
            headers=mover.headers,
        )
        assert r.status_code == 200, r.text
        if mover.username == "ann" and bob_seat in await table.to_act():
            break
    t0 = now()
    outcomes = await drain(notifier, t0)
    assert outcomes["retry"] >= 1 and "sent" not in outcomes
    smtp.start()
    assert await drain(notifier, t0 + timedelta(seconds=5)) == {}  # still backing off
    assert (await drain(notifier, t0 + timedelta(seconds=31)))["sent"] >= 1
    (mail,) = smtp.inbox.to("bob@example.com")
    assert mail["Subject"].startswith("Your turn in Test game")


async def test_two_workers_never_send_the_same_mail_twice(
    api: Api, service: GameService, notifier: Notifier, mail_settings: object, smtp: SmtpServer
) -> None:
    admin = await api.admin()
    players = [await api.player(f"player{i}") for i in range(5)]
    for i in range(6):
        await api.started_game(admin, players[: 2 + i % 4], seed=i)
    from app.main import notifier_for

    other = notifier_for(mail_settings, service)  # type: ignore[arg-type]
    t = now()
    results = await asyncio.gather(*(n.run_once(t) for n in (notifier, other, notifier_for(mail_settings, service))))  # type: ignore[arg-type]
    results += [await notifier.run_once(t)]
    sent = sum(r.sent for r in results)
    expected = sum(2 + i % 4 for i in range(6))  # one "game started" mail per seat
    ids = [m["Message-ID"] for _, m in smtp.inbox.mails]
    assert sent == expected == len(ids) == len(set(ids))


async def test_digest_mode_sends_one_mail_with_all_pending_games(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    r = await client.put(
        "/api/v1/me/notifications",
        json={"preferences": {"your_turn": "digest", "game_started": "digest"}},
        headers=bob.headers,
    )
    assert r.status_code == 200 and r.json()["preferences"]["your_turn"] == "digest"
    tables = []
    for seed in (3, 4):
        game = await api.started_game(admin, [ann, bob], seed=seed, name=f"Game {seed}")
        tables.append(Table(service, api.app.state.positions, game, [ann, bob]))
    for table in tables:
        bob_seat = next(s for s, p in table.by_seat.items() if p is bob)
        if bob_seat not in await table.to_act():
            await table.play_until(_became_awaited(bob_seat))
    t = now()
    await drain(notifier, t)
    assert smtp.inbox.to("bob@example.com") == []
    assert len(smtp.inbox.to("ann@example.com")) == 2  # Ann's mails go out immediately
    await drain(notifier, t + timedelta(days=1))
    (digest,) = smtp.inbox.to("bob@example.com")
    assert digest["Subject"] == "Your Carson City digest: 2 games, 2 waiting for you"
    text = digest.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    for table in tables:
        assert f"{BASE_URL}/games/{table.id}" in text
    assert await drain(notifier, t + timedelta(days=1)) == {}
