"""The settings page linked from every mail: mail modes per kind and vacation days, behind sign-in and CSRF."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import Api

from tests.web.test_pages import admin_client, csrf_of, signed_in


async def test_settings_need_a_sign_in(client: httpx.AsyncClient) -> None:
    r = await client.get("/settings/notifications")
    assert r.status_code == 303 and r.headers["location"].startswith("/login")


async def test_mail_modes_are_shown_and_saved(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "anna")
    page = await client.get("/settings/notifications")
    assert page.status_code == 200
    assert 'name="your_turn" value="immediately"' in page.text and "checked" in page.text
    r = await client.post("/settings/notifications", data={"csrf_token": token, "your_turn": "digest",
                                                            "game_finished": "off"})
    assert r.status_code == 200 and "saved" in r.text
    modes = (await client.get("/api/v1/me/notifications")).json()["preferences"]
    assert modes["your_turn"] == "digest" and modes["game_finished"] == "off"


async def test_only_admins_are_asked_about_the_admins_alerts(client: httpx.AsyncClient, app: Any, api: Api) -> None:
    """A player is never sent the alert about a player who keeps running out of time: the page does not offer it."""
    await signed_in(client, "anna")
    assert 'name="admin_alert"' not in (await client.get("/settings/notifications")).text
    admin, _ = await admin_client(app, api)
    try:
        page = await admin.get("/settings/notifications")
    finally:
        await admin.aclose()
    assert 'name="admin_alert"' in page.text and "A player keeps running out of time (admins)" in page.text


async def test_saving_without_the_csrf_token_changes_nothing(client: httpx.AsyncClient) -> None:
    await signed_in(client, "anna")
    r = await client.post("/settings/notifications", data={"your_turn": "off"})
    assert r.status_code == 403
    modes = (await client.get("/api/v1/me/notifications")).json()["preferences"]
    assert modes["your_turn"] == "immediately"


async def test_a_vacation_is_declared_and_counted(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "anna")
    r = await client.post("/settings/vacation", data={"csrf_token": token, "days": "3"})
    assert r.status_code == 303
    page = await client.get("/settings/notifications")
    assert "18 of 21 days left" in page.text  # issue 26 item 6: a budget of 21 days a year
    r = await client.post("/settings/vacation", data={"csrf_token": csrf_of(page.text), "days": "19"})
    assert r.status_code == 409 and 'role="alert"' in r.text


async def test_the_page_title_is_plain_text_and_each_form_appears_once(client: httpx.AsyncClient) -> None:
    """The password form once, in the page's body; the title holds only the page's name."""
    await signed_in(client, "anna")
    page = (await client.get("/settings/notifications")).text
    assert "<title>Settings — Carson City Online</title>" in page
    assert page.count('action="/settings/password"') == 1
    assert page.index("<h1>Settings</h1>") < page.index('action="/settings/password"')


async def test_a_new_email_address_is_asked_for_with_the_password_and_refused_without_it(
    client: httpx.AsyncClient,
) -> None:
    """Issue 12 "Accounts": change of e-mail from the settings page; the password confirms it, and an address
    another account has is refused."""
    token = await signed_in(client, "anna")
    other = httpx.AsyncClient(transport=client._transport, base_url="http://test")
    async with other:
        await signed_in(other, "bert")
    page = await client.get("/settings/notifications")
    assert "anna@example.com" in page.text and 'action="/settings/email"' in page.text
    wrong = await client.post("/settings/email", data={"csrf_token": token, "email": "new@example.com",
                                                       "current_password": "not my password"})
    assert wrong.status_code == 403 and "anna@example.com" in wrong.text
    taken = await client.post("/settings/email", data={"csrf_token": token, "email": "BERT@example.com",
                                                       "current_password": "correct horse battery"})
    assert taken.status_code == 409
    bad = await client.post("/settings/email", data={"csrf_token": token, "email": "no address",
                                                     "current_password": "correct horse battery"})
    assert bad.status_code == 422
    r = await client.post("/settings/email", data={"csrf_token": token, "email": "Anna@Mail.example",
                                                   "current_password": "correct horse battery"})
    assert r.status_code == 200 and "We sent a link to anna@mail.example" in r.text
    # The address changes only once the link mailed to it is followed (tests/notify/test_email_change.py).
    assert "Your mails and password resets go to <strong>anna@example.com</strong>" in (
        await client.get("/settings/notifications")).text
    same = await client.post("/settings/email", data={"csrf_token": token, "email": "ANNA@example.com",
                                                      "current_password": "correct horse battery"})
    assert same.status_code == 200 and "anna@example.com is your address already" in same.text


async def test_a_new_email_address_is_asked_for_through_the_api(client: httpx.AsyncClient) -> None:
    await signed_in(client, "anna")
    r = await client.post("/api/v1/auth/email", json={"current_password": "wrong one", "email": "a@b.example"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "wrong_password"
    r = await client.post("/api/v1/auth/email", json={"current_password": "correct horse battery",
                                                      "email": "a@b.example"})
    assert r.status_code == 202
    assert "a@b.example" not in (await client.get("/settings/notifications")).text  # not before the link
    r = await client.post("/api/v1/auth/email/confirm", json={"token": "forged"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "invalid_email_link"
