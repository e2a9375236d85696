"""Password reset by mail, end to end through the outbox and the real SMTP test server: "Forgot your password?"
answers the same for any address, mails a signed link that works once and expires, and setting the new password
signs out every other browser and token of the account. Requests are rate-limited."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import httpx
from conftest import Api

from app.notify.messages import KINDS
from app.notify.worker import Notifier
from app.play.password_reset import LINK_LIFETIME, REQUEST_LIMITS, ResetLinks
from app.settings import Settings
from tests.notify.conftest import BASE_URL, SmtpServer, drain
from tests.web.test_pages import csrf_of

FORGOT = "/password/forgot"


def browser(app: Any) -> httpx.AsyncClient:
    """A browser on the site's own https address (the session cookie is Secure there)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL)


async def ask(client: httpx.AsyncClient, email: str) -> httpx.Response:
    page = await client.get(FORGOT)
    return await client.post(FORGOT, data={"email": email, "csrf_token": csrf_of(page.text)})


def link_in(mail_text: str) -> str:
    match = re.search(re.escape(BASE_URL) + r"(/password/reset/\S+)", mail_text)
    assert match, mail_text
    return match.group(1)


async def set_password(client: httpx.AsyncClient, path: str, password: str) -> httpx.Response:
    page = await client.get(path)
    assert page.status_code == 200, page.text
    return await client.post(path, data={"new_password": password, "csrf_token": csrf_of(page.text)})


async def test_a_reset_link_is_mailed_sets_the_password_once_and_signs_out_everywhere(
    app: Any, api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    web = browser(app)
    ann = await api.player("ann")  # a bearer token: one of the sign-ins the reset must end
    assert (await client.get("/api/v1/auth/me", headers=ann.headers)).status_code == 200
    assert 'href="/password/forgot"' in (await web.get("/login")).text

    r = await ask(web, "ANN@example.com")
    assert r.status_code == 200 and "If an account has this address" in r.text
    assert await drain(notifier) == {"sent": 1}
    (mail,) = smtp.inbox.to("ann@example.com")
    assert mail["Subject"] == "Set a new password for Carson City Online"
    assert mail["List-Unsubscribe"] is None  # not a mail one can turn off
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    path = link_in(text)

    async with browser(app) as other:
        r = await set_password(other, path, "a brand new secret")
        assert r.status_code == 303 and r.headers["location"] == "/"
        assert (await other.get("/api/v1/auth/me")).json()["username"] == "ann"  # this browser is signed in
    assert (await client.get("/api/v1/auth/me", headers=ann.headers)).status_code == 401  # the token is revoked
    assert (await api.token("ann", "a brand new secret"))["Authorization"].startswith("Bearer ")

    again = await web.get(path)  # single use: the new password's hash voids the link
    assert again.status_code == 410 and "expired or was already used" in again.text


async def test_a_reset_link_is_void_once_the_accounts_address_changed(
    app: Any, api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    # The issue "Corrections", item 8: a link mailed to the old address still worked after the change.
    web = browser(app)
    ann = await api.player("ann")
    await ask(web, "ann@example.com")
    await drain(notifier)
    path = link_in(smtp.inbox.to("ann@example.com")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
    assert (await web.get(path)).status_code == 200  # good until the address changes

    r = await client.post("/api/v1/auth/email", headers=ann.headers,
                          json={"current_password": "correct horse battery", "email": "ann@elsewhere.example"})
    assert r.status_code == 202, r.text
    await drain(notifier)
    confirm = re.search(r"/settings/email/confirm/(\S+)",
                        smtp.inbox.to("ann@elsewhere.example")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
    assert confirm
    assert (await client.post("/api/v1/auth/email/confirm", json={"token": confirm.group(1)})).status_code == 204

    assert (await web.get(path)).status_code == 410
    body = {"token": path.rsplit("/", 1)[1], "new_password": "a password set from the old mailbox"}
    r = await client.post("/api/v1/auth/password/reset", json=body)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "invalid_reset_link"
    assert (await api.token("ann", "correct horse battery"))["Authorization"].startswith("Bearer ")


async def test_the_answer_is_the_same_for_an_unknown_address_and_no_mail_is_sent(
    app: Any, api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    web = browser(app)
    await api.player("ann")
    known, unknown = await ask(web, "ann@example.com"), await ask(web, "nobody@example.com")
    assert known.status_code == unknown.status_code == 200

    def body(r: httpx.Response) -> str:
        return re.sub(r'name="csrf_token" value="[^"]+"', "", r.text)

    assert body(known) == body(unknown)
    await drain(notifier)
    assert smtp.inbox.to("nobody@example.com") == [] and len(smtp.inbox.to("ann@example.com")) == 1


async def test_the_reset_mail_is_sent_even_with_every_mail_turned_off(
    app: Any, api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    web = browser(app)
    ann = await api.player("ann")
    r = await client.put("/api/v1/me/notifications", json={"preferences": dict.fromkeys(KINDS, "off")},
                         headers=ann.headers)
    assert r.status_code == 200, r.text
    await ask(web, "ann@example.com")
    assert await drain(notifier) == {"sent": 1}


async def test_an_expired_or_forged_link_sets_nothing(
    app: Any, api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer, mail_settings: Settings
) -> None:
    web = browser(app)
    await api.player("ann")
    await ask(web, "ann@example.com")
    await drain(notifier)
    path = link_in(smtp.inbox.to("ann@example.com")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
    token = path.rsplit("/", 1)[1]
    # A character of the signature that is wholly significant (the last one of base64 holds padding bits too,
    # so changing it may change nothing), turned into a different one.
    forged = token[:-5] + ("A" if token[-5] != "A" else "B") + token[-4:]
    assert (await web.get(f"/password/reset/{forged}")).status_code == 410

    assert ResetLinks(mail_settings.signing_key(), BASE_URL).read(token) is not None
    expired = ResetLinks(mail_settings.signing_key(), BASE_URL, lifetime=timedelta(seconds=-1))
    assert expired.read(token) is None and timedelta(hours=1) == LINK_LIFETIME
    other_key = ResetLinks("another signing key of enough length", BASE_URL)
    assert other_key.read(token) is None


async def test_reset_requests_are_rate_limited_per_address_asked_for(
    app: Any, api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    web = browser(app)
    await api.player("ann")
    for _ in range(REQUEST_LIMITS.per_account):
        assert (await ask(web, "ann@example.com")).status_code == 200
    r = await ask(web, "ann@example.com")
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert await drain(notifier) == {"sent": REQUEST_LIMITS.per_account}
    # sign-ins are counted apart: asking for mails locks nobody out
    assert (await api.token("ann", "correct horse battery"))["Authorization"].startswith("Bearer ")


async def test_the_reset_through_the_api(
    app: Any, api: Api, client: httpx.AsyncClient, notifier: Notifier, smtp: SmtpServer
) -> None:
    await api.player("ann")
    for email in ("ann@example.com", "nobody@example.com"):
        assert (await client.post("/api/v1/auth/password/forgot", json={"email": email})).status_code == 202
    assert await drain(notifier) == {"sent": 1}
    path = link_in(smtp.inbox.to("ann@example.com")[0].get_body(("plain",)).get_content())  # type: ignore[union-attr]
    body = {"token": path.rsplit("/", 1)[1], "new_password": "another secret"}
    assert (await client.post("/api/v1/auth/password/reset", json=body)).status_code == 204
    r = await client.post("/api/v1/auth/password/reset", json=body)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "invalid_reset_link"
    assert (await api.token("ann", "another secret"))["Authorization"].startswith("Bearer ")
