"""The clock's calendar in Chromium (issue 26 items 5 and 6): a player opens a timed table whose clocks stop on
weekends and that forbids vacation days; the waiting page says so before anyone joins, and follows by itself
when another player joins without filling the table (it used to stay at "1 of 3"); the settings page sets the
time zone and the reminder hours. The new-game form, the waiting page and the settings page pass axe-core and
fit a phone; their screenshots at 1280x900 and 390x844 go to tests/browser/artifacts/ (`50-…`)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import TIMEOUT, mark_no_reload, sign_up, was_not_reloaded
from tests.browser.test_one_screen import PHONE, no_sideways_scrolling, serious_violations

SCREEN = {"width": 1280, "height": 900}


def _checked(page: Page, name: str) -> list[str]:
    """Screenshots of the page as it is at both sizes, and what axe-core and a phone's width find wrong."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size(SCREEN)
    page.screenshot(path=str(ARTIFACTS / f"50-{name}-1280.png"), full_page=True)
    problems = [f"{name}: {v}" for v in serious_violations(page)]
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / f"50-{name}-390.png"), full_page=True)
    if (width := no_sideways_scrolling(page)) > PHONE["width"]:
        problems.append(f"{name}: {width} px wide on a phone")
    page.set_viewport_size(SCREEN)
    return problems


def test_a_weekday_table_shows_its_clock_and_its_waiting_page_follows_a_join(
    browser: Browser, live: LiveServer
) -> None:
    contexts = [browser.new_context(), browser.new_context()]
    host, guest = (c.new_page() for c in contexts)
    try:
        sign_up(host, live.url, "olga")
        sign_up(guest, live.url, "pete")
        host.goto(f"{live.url}/games/new")
        host.locator("[name=name]").fill("Weekday table")
        host.locator("[name=seats]").select_option("3")
        host.locator("[name=move_timeout_hours]").fill("24")
        host.get_by_label("The clocks stop on weekends").check()
        host.get_by_label("No vacation days at this table").check()
        problems = _checked(host, "new-game-calendar")
        host.get_by_role("button", name="Create the game").click()
        expect(host.locator("#clock-rule")).to_have_text(
            "The clock: 24 hours a move, stops on weekends, no vacation days.")
        expect(host.get_by_text("1 of 3 seats taken")).to_be_visible()
        problems += _checked(host, "waiting-calendar")

        # Pete sees the clock in the lobby's open tables before he joins, and joins; Olga's page follows.
        mark_no_reload(host)
        guest.goto(f"{live.url}/")
        expect(guest.locator(".clock-terms")).to_contain_text("stops on weekends, no vacation days")
        guest.get_by_role("link", name="Weekday table").click()
        guest.get_by_role("button", name="Join this game").click()
        expect(guest.get_by_text("2 of 3 seats taken")).to_be_visible()
        expect(host.get_by_text("2 of 3 seats taken")).to_be_visible(timeout=TIMEOUT)
        expect(host.locator("#waiting")).to_contain_text("pete")
        assert was_not_reloaded(host)  # the seats were read again, the page stayed

        # The settings page: a time zone and one reminder.
        host.goto(f"{live.url}/settings/notifications")
        host.get_by_label("Your time zone").select_option("Europe/Paris")
        host.get_by_label("First reminder").fill("6")
        host.get_by_label("Second reminder").fill("")
        host.locator("#clock-h ~ form button[type=submit]").click()
        expect(host.get_by_text("Your clock settings are saved.")).to_be_visible()
        expect(host.get_by_label("Your time zone")).to_have_value("Europe/Paris")
        expect(host.get_by_label("First reminder")).to_have_value("6")
        problems += _checked(host, "settings-clock")
        assert not problems, "\n".join(problems)
    finally:
        for context in contexts:
            context.close()
