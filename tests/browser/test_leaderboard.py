"""The leaderboard, a rated player's page and the open tables' seat lists in Chromium (issue 27, items 3 and 4):
after ten rated two-player games the leaderboard and the player page, the new-game form (rated or not, the
reputation asked), the lobby's invitations and open tables and a waiting table, each showing its seated
players' reputation and the table's requirement, pass axe-core and fit a phone without sideways scrolling (in
French too); their screenshots at 1280x900 and 390x844 go to tests/browser/artifacts/ (`40-…`)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import bearer, fast_forward, sign_in, sign_up
from tests.browser.test_one_screen import NEVER, PHONE, no_sideways_scrolling, serious_violations, until

SCREEN = {"width": 1280, "height": 900}
RATED = ("lena", "marc")


def test_the_leaderboard_a_rated_players_page_and_the_open_tables_pass_axe_and_fit_a_phone(
    browser: Browser, live: LiveServer
) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        for name in (*RATED, "nina"):
            sign_up(page, live.url, name)
        for seed in range(1, 11):
            fast_forward(live.url, f"Rated {seed}", list(RATED), seed, until(seed, NEVER)[0])
        fast_forward(live.url, "Once", ["lena", "nina"], 11, until(11, NEVER)[0])
        with httpx.Client(base_url=f"{live.url}/api/v1", timeout=10) as api:
            invited = api.post("/games", headers=bearer(api, "lena"), json={
                "name": "Reliable players only", "seats": 4, "players": ["marc"], "max_timeout_percent": 10}).json()
            assert api.post(f"/games/{invited['id']}/join", headers=bearer(api, "nina")).status_code == 200
            api.post("/games", headers=bearer(api, "nina"), json={"name": "Friday", "seats": 3, "bots": 1,
                                                                  "max_timeout_percent": 25, "rated": False})
        sign_in(page, live.url, "marc")
        ARTIFACTS.mkdir(exist_ok=True)
        problems = []
        pages = (("leaderboard", "/leaderboard"), ("player", "/players/lena"), ("lobby-tables", "/"),
                 ("waiting-table", f"/games/{invited['id']}"), ("new-game-reputation", "/games/new"))
        for name, path in pages:
            page.set_viewport_size(SCREEN)
            page.goto(live.url + path)
            page.screenshot(path=str(ARTIFACTS / f"40-{name}-1280.png"), full_page=True)
            problems += [f"{name}: {v}" for v in serious_violations(page)]
            page.set_viewport_size(PHONE)
            page.screenshot(path=str(ARTIFACTS / f"40-{name}-390.png"), full_page=True)
            if (width := no_sideways_scrolling(page)) > PHONE["width"]:
                problems.append(f"{name}: {width} px wide on a phone")
        page.get_by_role("button", name="Français").click()  # the longest words of the three languages
        for name, path in pages:
            page.goto(live.url + path)
            page.screenshot(path=str(ARTIFACTS / f"40-{name}-390-fr.png"), full_page=True)
            if (width := no_sideways_scrolling(page)) > PHONE["width"]:
                problems.append(f"{name} in French: {width} px wide on a phone")
        page.get_by_role("button", name="English").click()
        assert not problems, "\n".join(problems)
        page.goto(live.url + "/")
        expect(page.locator("#invitations")).to_contain_text(
            "lena (11 games finished · 0 abandoned · 0 clocks run out)")
        expect(page.locator("#open-games")).to_contain_text(
            "Joins players whose clock ran out in at most 25 % of their games")
        page.goto(live.url + "/leaderboard")
        expect(page.locator("#leaderboard tbody tr")).to_have_count(2)  # nina, with one rated game, is provisional
        page.get_by_role("link", name="lena").click()
        expect(page.get_by_role("img", name="The rating of lena after each rated game")).to_be_visible()
    finally:
        context.close()
