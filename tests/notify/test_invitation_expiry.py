"""Invitations expire (issue 26 "Start when full"): an invitation unanswered for the days its table's creator chose
(default 7) expires at the clock check, its seat is free again, and its inviter is mailed — through the outbox and
the real SMTP test server."""

from __future__ import annotations

from datetime import timedelta

import httpx
from conftest import Api

from app.notify.worker import Notifier
from app.play.keeper import ClockKeeper
from app.play.service import GameService
from tests.notify.conftest import SmtpServer, drain, now


async def test_an_unanswered_invitation_expires_and_its_inviter_is_told(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    r = await client.post("/api/v1/games", json={"name": "Weekend", "seats": 3, "players": ["bob", "cid"],
                                                 "invitation_days": 2}, headers=ann.headers)
    game = r.json()
    assert game["invitation_days"] == 2
    await client.post(f"/api/v1/games/{game['id']}/join", headers=cid.headers)
    await drain(notifier)
    smtp.inbox.clear()
    keeper = ClockKeeper(service)
    await keeper.tick(now() + timedelta(days=1, hours=23))
    assert (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()["invited"] == ["bob"]
    await keeper.tick(now() + timedelta(days=2, minutes=1))
    shown = (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()
    assert shown["invited"] == [] and shown["status"] == "open"
    assert (await client.get("/api/v1/me/invitations", headers=bob.headers)).json() == {"invitations": []}
    assert (await drain(notifier)).get("sent") == 1
    (mail,) = smtp.inbox.to("ann@example.com")
    assert mail["Subject"] == "bob did not answer your invitation to Weekend"
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "was not answered within 2 days, so it expired" in text and f"/games/{game['id']}" in text
    assert smtp.inbox.to("bob@example.com") == [] and smtp.inbox.to("cid@example.com") == []
    # The seat it held is free: a stranger takes it, and that last seat starts the game.
    dan = await api.player("dan")
    assert (await client.post(f"/api/v1/games/{game['id']}/join", headers=dan.headers)).json()["status"] == "active"


async def test_invitations_wait_seven_days_unless_the_creator_chose(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    ann = await api.player("ann")
    await api.player("bob")
    game = (await client.post("/api/v1/games", json={"name": "Slow", "seats": 2, "players": ["bob"]},
                              headers=ann.headers)).json()
    assert game["invitation_days"] == 7
    await ClockKeeper(service).tick(now() + timedelta(days=6, hours=23))
    assert (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).json()["invited"] == ["bob"]
    r = await client.post("/api/v1/games", json={"name": "Never", "seats": 2, "invitation_days": 0},
                          headers=ann.headers)
    assert r.status_code == 422
