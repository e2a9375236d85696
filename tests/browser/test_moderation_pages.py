"""The pages of issue 30 in Chromium: the settings page's "Your data" section (the export's download and the
account's deletion) and the admins' page `/admin` (reported chat messages, the audit trail) pass axe-core and fit
a phone without sideways scrolling; their screenshots at 1280x900 and 390x844 go to tests/browser/artifacts/
(`50-…`)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from tests.browser.conftest import ADMIN, ARTIFACTS, LiveServer
from tests.browser.helpers import bearer, sign_in_admin, sign_up
from tests.browser.test_one_screen import PHONE, no_sideways_scrolling, serious_violations

SCREEN = {"width": 1280, "height": 900}


def test_your_data_and_the_admin_page_pass_axe_and_fit_a_phone(browser: Browser, live: LiveServer) -> None:
    context, admin_context = browser.new_context(), browser.new_context()
    page, admin_page = context.new_page(), admin_context.new_page()
    try:
        for name in ("olga", "piet"):
            sign_up(page, live.url, name)
        with httpx.Client(base_url=live.url + "/api/v1", timeout=10) as api:
            boss = bearer(api, *ADMIN)
            game = api.post("/games", json={"name": "Talk", "seats": 2, "players": ["olga", "piet"]},
                            headers=boss).json()
            olga, piet = bearer(api, "olga"), bearer(api, "piet")
            said = api.post(f"/games/{game['id']}/chat", json={"text": "you cheat"}, headers=olga).json()
            api.post(f"/games/{game['id']}/chat/{said['id']}/report", json={"reason": "rude"}, headers=piet)
            api.post("/admin/users/olga/suspend", json={"reason": "rude in the chat"}, headers=boss)
            api.post("/admin/users/olga/unsuspend", json={"reason": "warned"}, headers=boss)
        ARTIFACTS.mkdir(exist_ok=True)
        problems = []
        page.set_viewport_size(SCREEN)
        page.goto(live.url + "/settings/notifications")
        expect(page.locator("#your-data")).to_be_visible()
        expect(page.locator("#export")).to_have_attribute("href", "/api/v1/me/export")
        shots = [("settings", page)]
        sign_in_admin(admin_page, live.url)
        admin_page.set_viewport_size(SCREEN)
        admin_page.goto(live.url + "/admin")
        expect(admin_page.locator("#reports tbody tr")).to_have_count(1)
        expect(admin_page.locator("#trail tbody tr")).to_have_count(2)
        shots.append(("admin", admin_page))
        for name, shown in shots:
            shown.set_viewport_size(SCREEN)
            shown.screenshot(path=str(ARTIFACTS / f"50-{name}-1280.png"), full_page=True)
            problems += [f"{name}: {v}" for v in serious_violations(shown)]
            shown.set_viewport_size(PHONE)
            shown.screenshot(path=str(ARTIFACTS / f"50-{name}-390.png"), full_page=True)
            if (width := no_sideways_scrolling(shown)) > PHONE["width"]:
                problems.append(f"{name}: {width} px wide on a phone")
        assert not problems, "\n".join(problems)
    finally:
        context.close()
        admin_context.close()
