"""A change of address is told at the old address (issue 12 "Accounts", hardening): a thief who took a browser
and the password and moved the account's mail elsewhere is seen by the owner. Through the outbox and the real SMTP
test server."""

from __future__ import annotations

from typing import Any

from app.notify.worker import Notifier
from tests.notify.conftest import SmtpServer, drain
from tests.notify.test_password_reset import browser
from tests.web.test_pages import signed_in


async def test_the_old_address_is_told_of_the_new_one_and_the_new_one_hears_nothing(
    app: Any, notifier: Notifier, smtp: SmtpServer
) -> None:
    async with browser(app) as web:
        token = await signed_in(web, "anna")
        await drain(notifier)
        smtp.inbox.clear()
        r = await web.post("/settings/email", data={"csrf_token": token, "email": "Anna@Mail.example",
                                                    "current_password": "correct horse battery"})
        assert r.status_code == 200, r.text
    assert await drain(notifier) == {"sent": 1}
    (mail,) = smtp.inbox.to("anna@example.com")
    assert smtp.inbox.to("anna@mail.example") == []
    assert mail["Subject"] == "The email address of your Carson City account was changed"
    assert mail["List-Unsubscribe"] is None  # not a mail one can turn off
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "anna@mail.example" in text and "tell an admin" in text


async def test_the_same_address_in_other_letters_sends_nothing(app: Any, notifier: Notifier, smtp: SmtpServer) -> None:
    async with browser(app) as web:
        token = await signed_in(web, "anna")
        await drain(notifier)
        r = await web.post("/settings/email", data={"csrf_token": token, "email": "ANNA@example.com",
                                                    "current_password": "correct horse battery"})
        assert r.status_code == 200, r.text
    assert await drain(notifier) == {}
