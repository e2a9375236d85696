"""Mail about tables: an invitation is mailed (a kind of its own, on by default; not sent once answered), and a
chat message from someone else is a kind of its own, off by default, mailed when turned on — through the outbox
and the real SMTP test server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from conftest import Api

from app.notify.worker import Notifier
from tests.notify.conftest import SmtpServer, drain


async def test_an_invitation_is_mailed_with_a_link_to_the_table(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    ann = await api.player("ann")
    await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "Saturday", "seats": 2, "players": ["bob"]},
                          headers=ann.headers)
    gid = r.json()["id"]
    outcomes = await drain(notifier)
    assert outcomes == {"sent": 1}
    (mail,) = smtp.inbox.to("bob@example.com")
    assert mail["Subject"] == "You are invited to a table of Carson City"  # nothing the inviter chose
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert f"https://carson.example/games/{gid}" in text and "A player invites you to a table" in text
    assert "ann invites you to a game of Carson City: Saturday." in text
    assert smtp.inbox.to("ann@example.com") == []


async def test_an_invitation_answered_before_the_mail_goes_out_is_not_sent(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    ann, bob = await api.player("ann"), await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "Quick", "seats": 2, "players": ["bob"]},
                          headers=ann.headers)
    await client.post(f"/api/v1/games/{r.json()['id']}/decline", headers=bob.headers)
    assert await drain(notifier) == {"stale": 1}
    assert smtp.inbox.to("bob@example.com") == []


async def test_chat_mail_is_off_by_default_and_sent_once_turned_on(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    await drain(notifier)
    smtp.inbox.clear()
    chat = f"/api/v1/games/{game['id']}/chat"
    prefs = (await client.get("/api/v1/me/notifications", headers=bob.headers)).json()
    assert prefs["preferences"]["chat"] == "off" and "chat" in prefs["labels"]
    await client.post(chat, json={"text": "first words"}, headers=ann.headers)
    assert await drain(notifier) == {"off": 1}
    assert smtp.inbox.to("bob@example.com") == []

    r = await client.put("/api/v1/me/notifications", json={"preferences": {"chat": "immediately"}},
                         headers=bob.headers)
    assert r.status_code == 200
    await client.post(chat, json={"text": "Nice <b>saloon</b>!"}, headers=ann.headers)
    await client.post(chat, json={"text": "thanks"}, headers=bob.headers)  # one's own words are not mailed back
    assert (await drain(notifier)).get("sent") == 1
    (mail,) = smtp.inbox.to("bob@example.com")
    assert mail["Subject"] == "ann wrote in the chat of Test game"
    assert "Nice <b>saloon</b>!" in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    html = mail.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert "Nice &lt;b&gt;saloon&lt;/b&gt;!" in html
    assert smtp.inbox.to("ann@example.com") == []  # Ann's chat mail is still off


async def test_chat_mail_in_the_digest_names_the_game(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    await client.put("/api/v1/me/notifications", json={"preferences": {"chat": "digest"}}, headers=bob.headers)
    await drain(notifier)
    smtp.inbox.clear()
    await client.post(f"/api/v1/games/{game['id']}/chat", json={"text": "see you"}, headers=ann.headers)
    assert await drain(notifier) == {"digest": 1}
    await drain(notifier, datetime.now(UTC) + timedelta(days=1, hours=1))
    (digest,) = [m for m in smtp.inbox.to("bob@example.com") if "digest" in m["Subject"]]
    assert "ann wrote in the chat of Test game" in digest.get_body(("plain",)).get_content()  # type: ignore[union-attr]


async def test_the_subject_holds_nothing_the_inviter_chose_and_the_body_shows_the_name_as_text(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    # The issue "Corrections", item 2: "… invites you to Cheap pills at evil.example 15" was the subject.
    ann = await api.player("ann")
    await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "<b>Big</b> & cheap", "seats": 2, "players": ["bob"]},
                          headers=ann.headers)
    assert r.status_code == 201, r.text
    await drain(notifier)
    (mail,) = smtp.inbox.to("bob@example.com")
    assert "Big" not in mail["Subject"] and "ann" not in mail["Subject"]
    html = mail.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert "&lt;b&gt;Big&lt;/b&gt; &amp; cheap" in html and "<b>Big</b>" not in html


async def test_a_table_name_cannot_hold_an_address(api: Api, client: httpx.AsyncClient, notifier: Notifier) -> None:
    ann = await api.player("ann")
    await api.player("bob")
    for name in ("Cheap pills at evil.example 15", "see https://x", "www.pills", "mail me@once", "EVIL.EXAMPLE"):
        r = await client.post("/api/v1/games", json={"name": name, "seats": 2, "players": ["bob"]},
                              headers=ann.headers)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "link_in_name", (name, r.text)
    assert await drain(notifier) == {}  # nothing was made, nothing mailed
    for name in ("Game 1.5", "Mr. Smith's table", "Friday game"):
        r = await client.post("/api/v1/games", json={"name": name, "seats": 3}, headers=ann.headers)
        assert r.status_code == 201, (name, r.text)


async def test_an_invitee_gets_at_most_one_invitation_mail_an_hour_and_the_next_lists_the_others(
    api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    ann, bob = await api.player("ann"), await api.player("bob")
    ids = []
    for name in ["First", "Second", "Third", "Fourth"]:
        r = await client.post("/api/v1/games", json={"name": name, "seats": 2, "players": ["bob"]},
                              headers=ann.headers)
        ids.append(r.json()["id"])
        if name == "First":
            start = datetime.now(UTC)
            assert await drain(notifier, start) == {"sent": 1}
    # every invitation shows in the lobby at once
    listed = (await client.get("/api/v1/me/invitations", headers=bob.headers)).json()["invitations"]
    assert sorted(i["game"]["id"] for i in listed) == sorted(ids)
    assert await drain(notifier, start + timedelta(minutes=5)) == {"deferred": 3}
    assert await drain(notifier, start + timedelta(minutes=30)) == {}
    assert len(smtp.inbox.to("bob@example.com")) == 1
    await client.post(f"/api/v1/games/{ids[2]}/decline", headers=bob.headers)  # answered meanwhile: not listed
    assert await drain(notifier, start + timedelta(minutes=61)) == {"sent": 1}
    first, digest = smtp.inbox.to("bob@example.com")
    assert first["Subject"] == "You are invited to a table of Carson City"
    assert digest["Subject"] == "You are invited to 2 tables of Carson City"
    text = digest.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "Second" in text and "Fourth" in text and "Third" not in text and "First" not in text
    for gid in (ids[1], ids[3]):
        assert f"https://carson.example/games/{gid}" in text
    assert await drain(notifier, start + timedelta(hours=3)) == {}  # nothing left, nothing sent twice
