"""The clock's calendar in Chromium (issue 26 items 5 and 6): a player opens a timed table whose clocks stop on
weekends and that forbids vacation days; the waiting page says so before anyone joins, and follows by itself
when another player joins without filling the table (it used to stay at "1 of 3"); the settings page sets the
time zone and the reminder hours; a vacation day a clock takes shows in the table chat as it happens. The
new-game form, the waiting page, the settings page and the table with the notice pass axe-core and fit a phone;
their screenshots at 1280x900 and 390x844 go to tests/browser/artifacts/ (`50-…`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from datetime import datetime, timedelta
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from app.play import clocks
from app.store.db import open_database
from tests.browser.conftest import ADMIN, ARTIFACTS, LiveServer
from tests.browser.helpers import TIMEOUT, bearer, mark_no_reload, sign_in, sign_up, was_not_reloaded
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


def _take_vacation_day(url: str, data_dir: Path, game_id: int, seat: int, when: datetime) -> None:
    """What the clock check does when the seat's clock is due at `when`, from this test's own connection: the
    notice reaches the live server as any other instance's would (LISTEN/NOTIFY)."""

    async def take() -> None:
        db = open_database(url, data_dir)
        try:
            assert await clocks.take_vacation_day(db, game_id, seat, when) is not None
        finally:
            await db.close()

    # Playwright's sync API keeps an event loop running in this thread: the coroutine runs in a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, take()).result(timeout=30)


def test_a_vacation_day_is_told_in_the_table_chat_as_it_happens(
    browser: Browser, live: LiveServer, tmp_path: Path
) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        for name in ("quin", "rosa"):
            sign_up(page, live.url, name)
        with httpx.Client(base_url=f"{live.url}/api/v1", timeout=10) as api:
            body = {"name": "Vacation table", "seats": 2, "players": ["quin", "rosa"], "move_timeout_hours": 24}
            game = api.post("/games", json=body, headers=bearer(api, *ADMIN)).json()
        (seat,) = game["to_act"]
        (deadline,) = [datetime.fromisoformat(d["deadline"]) for d in game["deadlines"]]
        watcher = next(s["username"] for s in game["seats"] if s["seat"] != seat)
        player = next(s["username"] for s in game["seats"] if s["seat"] == seat)
        sign_in(page, live.url, watcher)
        page.goto(f"{live.url}/games/{game['id']}")
        mark_no_reload(page)
        _take_vacation_day(live.app.state.settings.database_url, tmp_path, game["id"], seat,
                           deadline + timedelta(minutes=1))
        notice = page.locator("#chat-log .chat-notice")
        expect(notice).to_contain_text(f"{player} takes a vacation day: their clock stands still until",
                                       timeout=TIMEOUT)
        expect(notice).to_contain_text("(20 vacation days left this year)")
        assert was_not_reloaded(page)
        page.get_by_role("tab", name="Table chat").click()
        expect(notice).to_be_visible()
        problems = _checked(page, "table-vacation-notice")
        assert not problems, "\n".join(problems)
    finally:
        context.close()
