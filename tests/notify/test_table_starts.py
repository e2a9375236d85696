"""The start a full table makes is mailed (issue 26 "Start when full"): every seated player who is not a bot is
mailed `game_started`, as their preferences say — through the outbox and the real SMTP test server."""

from __future__ import annotations

import httpx
from conftest import Api

from app.notify.worker import Notifier
from tests.notify.conftest import SmtpServer, drain


def subjects(smtp: SmtpServer, address: str) -> list[str]:
    return [str(mail["Subject"]) for mail in smtp.inbox.to(address)]


async def test_the_join_that_fills_a_table_mails_its_players_the_start(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    r = await client.post("/api/v1/games", json={"name": "Sunday", "seats": 3, "players": ["bob", "cid"]},
                          headers=ann.headers)
    gid = r.json()["id"]
    r = await client.put("/api/v1/me/notifications", json={"preferences": {"game_started": "off"}},
                         headers=cid.headers)
    assert r.status_code == 200
    await drain(notifier)
    smtp.inbox.clear()
    await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers)
    assert (await client.post(f"/api/v1/games/{gid}/join", headers=bob.headers)).json()["status"] == "active"
    await drain(notifier)
    for address in ("ann@example.com", "bob@example.com"):
        (subject,) = subjects(smtp, address)
        assert subject.startswith("Sunday has started"), subject
    assert subjects(smtp, "cid@example.com") == []  # cid turned the start's mail off


async def test_a_table_its_creator_fills_with_bots_mails_only_the_creator(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    ann = await api.player("ann")
    r = await client.post("/api/v1/games", json={"name": "Practice", "seats": 3, "bots": 2}, headers=ann.headers)
    assert r.json()["status"] == "active"
    outcomes = await drain(notifier)
    (subject,) = subjects(smtp, "ann@example.com")
    assert subject.startswith("Practice has started") and outcomes.get("sent") == 1
