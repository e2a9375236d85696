"""The leaderboard and a rated player's page in Chromium (issue 27, item 4): after ten rated two-player games
both pages pass axe-core and fit a phone without sideways scrolling (in French too); their screenshots at
1280x900 and 390x844 go to tests/browser/artifacts/ (`40-…`)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import fast_forward, sign_up
from tests.browser.test_one_screen import NEVER, PHONE, no_sideways_scrolling, serious_violations, until

SCREEN = {"width": 1280, "height": 900}
RATED = ("lena", "marc")


def test_the_leaderboard_and_a_rated_players_page_pass_axe_and_fit_a_phone(browser: Browser, live: LiveServer) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        for name in (*RATED, "nina"):
            sign_up(page, live.url, name)
        for seed in range(1, 11):
            fast_forward(live.url, f"Rated {seed}", list(RATED), seed, until(seed, NEVER)[0])
        fast_forward(live.url, "Once", ["lena", "nina"], 11, until(11, NEVER)[0])
        ARTIFACTS.mkdir(exist_ok=True)
        problems = []
        for name, path in (("leaderboard", "/leaderboard"), ("player", "/players/lena")):
            page.set_viewport_size(SCREEN)
            page.goto(live.url + path)
            page.screenshot(path=str(ARTIFACTS / f"40-{name}-1280.png"), full_page=True)
            problems += [f"{name}: {v}" for v in serious_violations(page)]
            page.set_viewport_size(PHONE)
            page.screenshot(path=str(ARTIFACTS / f"40-{name}-390.png"), full_page=True)
            if (width := no_sideways_scrolling(page)) > PHONE["width"]:
                problems.append(f"{name}: {width} px wide on a phone")
        page.get_by_role("button", name="Français").click()  # the longest words of the three languages
        for name, path in (("leaderboard", "/leaderboard"), ("player", "/players/lena")):
            page.goto(live.url + path)
            page.screenshot(path=str(ARTIFACTS / f"40-{name}-390-fr.png"), full_page=True)
            if (width := no_sideways_scrolling(page)) > PHONE["width"]:
                problems.append(f"{name} in French: {width} px wide on a phone")
        page.get_by_role("button", name="English").click()
        assert not problems, "\n".join(problems)
        page.goto(live.url + "/leaderboard")
        expect(page.locator("#leaderboard tbody tr")).to_have_count(2)  # nina, with one rated game, is provisional
        page.get_by_role("link", name="lena").click()
        expect(page.get_by_role("img", name="The rating of lena after each rated game")).to_be_visible()
    finally:
        context.close()
