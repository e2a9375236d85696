"""Moderation (issue 30 item 5, API.md "Moderation"): admins suspend and unsuspend accounts (403
`account_suspended` on sign-ins and requests, the bot plays the running seats, the player told by real mail),
remove chat messages (shown as removed to everyone), and see players' reports on the admin page; every action is
in the audit trail with who, when and why."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import Api
from support import assert_error

from app.notify.worker import Notifier
from app.play.bot_keeper import BotKeeper
from app.play.service import GameService
from tests.notify.conftest import SmtpServer, drain

PASSWORD = "correct horse battery"


async def test_suspending_an_account(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=2)
    seated = api.seated(game, [ann, bob])
    ann_seat = next(seat for seat, p in seated.items() if p.username == "ann")
    await drain(notifier)
    smtp.inbox.clear()

    url = "/api/v1/admin/users/ann/suspend"
    assert_error(await client.post(url, json={"reason": "abuse"}, headers=bob.headers), 403, "admin_only")
    assert_error(await client.post(url, json={"reason": ""}, headers=admin.headers), 422)
    assert_error(await client.post("/api/v1/admin/users/nobody/suspend", json={"reason": "x"},
                                   headers=admin.headers), 404, "player_not_found")
    assert_error(await client.post("/api/v1/admin/users/admin/suspend", json={"reason": "x"},
                                   headers=admin.headers), 403, "cannot_suspend_admin")
    assert (await client.get("/api/v1/me/export", headers=ann.headers)).status_code == 200, "nothing changed"
    r = await client.post(url, json={"reason": "insults in the chat of game 1"}, headers=admin.headers)
    assert r.status_code == 200 and r.json() == {"username": "ann", "status": "suspended"}
    assert_error(await client.post(url, json={"reason": "again"}, headers=admin.headers), 409, "already_suspended")

    # Requests with her token and new sign-ins are refused as suspended (a wrong password stays a wrong password).
    assert_error(await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers), 403, "account_suspended")
    r = await client.post("/api/v1/auth/token", data={"username": "ann", "password": PASSWORD})
    assert_error(r, 403, "account_suspended")
    assert_error(await client.post("/api/v1/auth/token", data={"username": "ann", "password": "wrong password"}),
                 401, "invalid_credentials")
    # She is told by mail, with the reason.
    await drain(notifier)
    mails = smtp.inbox.to("ann@example.com")
    assert [m["Subject"] for m in mails] == ["Your Carson City account is suspended"]
    assert "insults in the chat of game 1" in mails[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    # The bot plays her seat: run its job until her seat has been played for.
    keeper = BotKeeper(service)
    for _ in range(20):
        summary = (await client.get(f"/api/v1/games/{game['id']}", headers=bob.headers)).json()
        if ann_seat in summary["to_act"]:
            assert await keeper.run_once() >= 1
            break
        options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=bob.headers)).json()
        await client.post(f"/api/v1/games/{game['id']}/moves", headers=bob.headers,
                          json={"seq": options["seq"], "move": options["moves"][0]})
    events = (await client.get(f"/api/v1/games/{game['id']}/events", headers=bob.headers)).json()["events"]
    assert any(e.get("by_bot") and e["data"].get("seat") == ann_seat for e in events)

    r = await client.post("/api/v1/admin/users/ann/unsuspend", json={"reason": "apologised"}, headers=admin.headers)
    assert r.status_code == 200 and r.json()["status"] == "active"
    assert (await client.get(f"/api/v1/games/{game['id']}", headers=ann.headers)).status_code == 200
    assert_error(await client.post("/api/v1/admin/users/ann/unsuspend", headers=admin.headers), 409, "not_suspended")
    trail = (await client.get("/admin", headers=admin.headers)).text
    assert "insults in the chat of game 1" in trail and "apologised" in trail


async def test_removing_and_reporting_chat_messages(api: Api, client: httpx.AsyncClient, app: Any) -> None:
    admin = await api.admin()
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    game = await api.started_game(admin, [ann, bob], seed=2)
    gid = game["id"]
    chat = f"/api/v1/games/{gid}/chat"
    said = (await client.post(chat, json={"text": "you are an idiot"}, headers=ann.headers)).json()
    kept = (await client.post(f"/api/v1/games/{gid}/chat", json={"text": "good game"}, headers=ann.headers)).json()
    report = f"/api/v1/games/{gid}/chat/{said['id']}/report"
    assert_error(await client.post(report, json={"reason": "rude"}, headers=cid.headers), 403, "no_seat")
    assert (await client.post(report, json={"reason": "rude to me"}, headers=bob.headers)).status_code == 202
    assert (await client.post(report, json={"reason": "rude to me"}, headers=bob.headers)).status_code == 202
    assert_error(await client.post(f"/api/v1/games/{gid}/chat/999999/report", json={"reason": "x"},
                                   headers=bob.headers), 404, "message_not_found")
    page = await client.get("/admin", headers=admin.headers)
    assert page.status_code == 200
    assert page.text.count("rude to me") == 1 and "you are an idiot" in page.text
    assert (await client.get("/admin", headers=bob.headers)).status_code == 403

    remove = f"/api/v1/games/{gid}/chat/{said['id']}"
    assert_error(await client.delete(remove, headers=bob.headers), 403, "admin_only")
    r = await client.request("DELETE", remove, json={"reason": "insult"}, headers=admin.headers)
    assert r.status_code == 204, r.text
    for viewer in (ann, bob):
        messages = (await client.get(f"/api/v1/games/{gid}/chat", headers=viewer.headers)).json()["messages"]
        assert [(m["id"], m["text"], m["removed"]) for m in messages] == [
            (said["id"], "", True), (kept["id"], "good game", False)
        ]
    table = (await client.get(f"/games/{gid}", headers=bob.headers)).text
    assert "you are an idiot" not in table
    trail = (await client.get("/admin", headers=admin.headers)).text
    assert "remove_message" in trail and "insult" in trail
