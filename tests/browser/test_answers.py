"""The answers ahead in Chromium (issue 26, items 2 and 3): the settings' "Answers ahead" and a game's own page,
linked from its table, pass axe-core and fit a phone without sideways scrolling; a placement on an owner-free
parcel offers its purchase answered ahead. Screenshots at 1280x900 and 390x844 go to tests/browser/artifacts/
(`50-…`)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import fast_forward, sign_up
from tests.browser.test_one_screen import PHONE, no_sideways_scrolling, offers, serious_violations, until

SCREEN = {"width": 1280, "height": 900}


def test_the_answers_ahead_pass_axe_fit_a_phone_and_save(browser: Browser, live: LiveServer) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        for name in ("olga", "piet"):
            sign_up(page, live.url, name)  # piet stays signed in
        moves, _ = until(41, offers("place_cowboy"))
        game = fast_forward(live.url, "Answers", ["olga", "piet"], 41, moves).game
        table = f"/games/{game['id']}"
        page.goto(live.url + table)
        page.locator("#answers-link").click()
        expect(page).to_have_url(f"{live.url}{table}/answers")
        page.get_by_label("When someone asks to build a house on your parcel").select_option("allow")
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".notice")).to_contain_text("Your answer is saved.")
        ARTIFACTS.mkdir(exist_ok=True)
        problems = []
        for name, path in (("game-answers", f"{table}/answers"), ("settings", "/settings/notifications#answers-h")):
            page.set_viewport_size(SCREEN)
            page.goto(live.url + path)
            page.screenshot(path=str(ARTIFACTS / f"50-{name}-1280.png"), full_page=True)
            problems += [f"{name}: {v}" for v in serious_violations(page)]
            page.set_viewport_size(PHONE)
            page.screenshot(path=str(ARTIFACTS / f"50-{name}-390.png"), full_page=True)
            if (width := no_sideways_scrolling(page)) > PHONE["width"]:
                problems.append(f"{name}: {width} px wide on a phone")
        assert not problems, "\n".join(problems)
        page.set_viewport_size(SCREEN)
        page.get_by_label("Money above your cash limit at the end of a round").select_option("least")
        page.locator("#answers-h").locator("xpath=..").get_by_role("button", name="Save").click()
        expect(page.locator(".notice")).to_contain_text("Your answers are saved.")
        page.goto(live.url + table)
        page.screenshot(path=str(ARTIFACTS / "50-table-1280.png"))
    finally:
        context.close()
