"""The settings page linked from every mail: mail modes per kind and vacation days, behind sign-in and CSRF."""

from __future__ import annotations

import httpx

from tests.web.test_pages import csrf_of, signed_in


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
    assert "11 of 14 days left" in page.text
    r = await client.post("/settings/vacation", data={"csrf_token": csrf_of(page.text), "days": "12"})
    assert r.status_code == 409 and 'role="alert"' in r.text


async def test_the_page_title_is_plain_text_and_each_form_appears_once(client: httpx.AsyncClient) -> None:
    """The password form once, in the page's body; the title holds only the page's name."""
    await signed_in(client, "anna")
    page = (await client.get("/settings/notifications")).text
    assert "<title>Settings — Carson City Online</title>" in page
    assert page.count('action="/settings/password"') == 1
    assert page.index("<h1>Settings</h1>") < page.index('action="/settings/password"')
