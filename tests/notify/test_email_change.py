"""A new address is used only once the link mailed to it is followed, and the old address is then told of the
change (issue 12 "Accounts", hardening): a mistyped address never takes the account's mails away, and a thief who
took a browser and the password and moved the account's mail elsewhere is seen by the owner. End to end through
the outbox and the real SMTP test server."""

from __future__ import annotations

import re
from typing import Any

import httpx

from app.notify.worker import Notifier
from app.play.email_change import EmailLinks
from app.settings import Settings
from tests.notify.conftest import BASE_URL, SmtpServer, drain
from tests.notify.test_password_reset import browser
from tests.web.test_pages import csrf_of, signed_in

PASSWORD = "correct horse battery"


def link_in(mail_text: str) -> str:
    match = re.search(re.escape(BASE_URL) + r"(/settings/email/confirm/\S+)", mail_text)
    assert match, mail_text
    return match.group(1)


async def ask_for(web: httpx.AsyncClient, token: str, email: str) -> httpx.Response:
    return await web.post("/settings/email", data={"csrf_token": token, "email": email, "current_password": PASSWORD})


async def follow(client: httpx.AsyncClient, path: str) -> httpx.Response:
    """Open the link's page and press its button, as the owner of the new address does."""
    page = await client.get(path)
    if page.status_code != 200:
        return page
    assert "anna" in page.text and 'method="post"' in page.text
    return await client.post(path, data={"csrf_token": csrf_of(page.text)})


async def test_the_new_address_confirms_with_its_link_then_the_old_one_is_told(
    app: Any, notifier: Notifier, smtp: SmtpServer
) -> None:
    async with browser(app) as web:
        token = await signed_in(web, "anna")
        await drain(notifier)
        smtp.inbox.clear()
        r = await ask_for(web, token, "Anna@Mail.example")
        assert r.status_code == 200 and "We sent a link to anna@mail.example" in r.text
        assert await drain(notifier) == {"sent": 1}
        (mail,) = smtp.inbox.to("anna@mail.example")
        assert smtp.inbox.to("anna@example.com") == []
        assert mail["Subject"] == "Confirm the new address of your Carson City account"
        assert mail["List-Unsubscribe"] is None  # not a mail one can turn off
        text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        assert "anna" in text and "anna@mail.example" in text and "within 1 day" in text
        path = link_in(text)
        assert "anna@example.com" in (await web.get("/settings/notifications")).text  # nothing changed yet
        smtp.inbox.clear()
        async with browser(app) as phone:  # the link works without signing in, on another device
            done = await follow(phone, path)
        assert done.status_code == 200 and "now go to <strong>anna@mail.example</strong>" in done.text
        assert "anna@mail.example" in (await web.get("/settings/notifications")).text
        assert await drain(notifier) == {"sent": 1}
        (told,) = smtp.inbox.to("anna@example.com")
        assert told["Subject"] == "The email address of your Carson City account was changed"
        told_text = told.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        assert "anna@mail.example" in told_text and "tell an admin" in told_text
        again = await web.get(path)
        assert again.status_code == 410  # a link works once


async def test_a_link_is_void_once_the_address_changed_and_a_forged_one_never_works(
    app: Any, notifier: Notifier, smtp: SmtpServer, settings: Settings
) -> None:
    """Two links asked for one after the other: the first one followed voids the second (the address it would
    replace has changed). A link signed with another key, or for an address another account took meanwhile, is
    refused and changes nothing."""
    async with browser(app) as web:
        token = await signed_in(web, "anna")
        await drain(notifier)
        smtp.inbox.clear()
        await ask_for(web, token, "first@mail.example")
        await ask_for(web, token, "second@mail.example")
        await drain(notifier)
        first = link_in(smtp.inbox.to("first@mail.example")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
        second = link_in(smtp.inbox.to("second@mail.example")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
        assert (await follow(web, second)).status_code == 200
        assert (await follow(web, first)).status_code == 410
        forged = EmailLinks("another key entirely, 32 characters or more", BASE_URL).url(1, "x@mail.example", "y")
        assert (await web.get(forged.removeprefix(BASE_URL))).status_code == 410
        # A link whose address another account took in the meantime: 409, nothing changes.
        await ask_for(web, token, "bert@mail.example")
        await drain(notifier)
        taken = link_in(smtp.inbox.to("bert@mail.example")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
        async with browser(app) as other:
            r = await other.post("/api/v1/auth/register",
                                 json={"username": "bert", "email": "Bert@Mail.example", "password": PASSWORD})
            assert r.status_code == 201, r.text
        assert (await follow(web, taken)).status_code == 409
        assert "second@mail.example" in (await web.get("/settings/notifications")).text


async def test_the_api_asks_with_the_password_and_confirms_with_the_token(
    app: Any, notifier: Notifier, smtp: SmtpServer
) -> None:
    async with browser(app) as web:
        await signed_in(web, "anna")
        await drain(notifier)
        smtp.inbox.clear()
        r = await web.post("/api/v1/auth/email", json={"current_password": PASSWORD, "email": "a@mail.example"})
        assert r.status_code == 202, r.text
        await drain(notifier)
        path = link_in(smtp.inbox.to("a@mail.example")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
        link_token = path.rsplit("/", 1)[1]
        r = await web.post("/api/v1/auth/email/confirm", json={"token": link_token})
        assert r.status_code == 204, r.text
        r = await web.post("/api/v1/auth/email/confirm", json={"token": link_token})
        assert r.status_code == 403 and r.json()["detail"]["code"] == "invalid_email_link"
        assert "a@mail.example" in (await web.get("/settings/notifications")).text


async def test_the_same_address_in_other_letters_sends_nothing(app: Any, notifier: Notifier, smtp: SmtpServer) -> None:
    async with browser(app) as web:
        token = await signed_in(web, "anna")
        await drain(notifier)
        r = await ask_for(web, token, "ANNA@example.com")
        assert r.status_code == 200, r.text
    assert await drain(notifier) == {}
