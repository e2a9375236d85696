"""Issue 28 in Chromium: the installable site (manifest, service worker) and a push shown as a notification.

The service worker is registered by the site's own page; the push is handed to it through the DevTools protocol
(`ServiceWorker.deliverPushMessage`, the browser's side of a push service: headless Chromium has no vendor push
service to subscribe with), carrying the payload the server builds for a notice (app.notify.push_notices), and
the worker's notification is then read back with `getNotifications()`. The settings page, with a device
subscribed, passes axe-core and fits a phone; screenshots at 1280x900 and 390x844 go to tests/browser/artifacts/
(`50-…`).
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from app.notify.messages import Message, Recipient
from app.notify.push_notices import notice
from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import bearer, sign_up
from tests.browser.test_one_screen import PHONE, no_sideways_scrolling, serious_violations
from tests.notify.push_service import Browser as PushKeys

SCREEN = {"width": 1280, "height": 900}
CACHED = """async () => {
    const paths = [];
    for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
}"""
NOTIFICATIONS = """() => navigator.serviceWorker.ready
    .then((registration) => registration.getNotifications())
    .then((shown) => shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url})))"""


def registration_id(page: Page, cdp: Any) -> str:
    """The id of the page's service worker registration, as the DevTools protocol names it."""
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: found.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        ours = [r for r in found if r["scopeURL"].rstrip("/") == page.url.split("/settings")[0] and not r["isDeleted"]]
        if ours:
            return str(ours[-1]["registrationId"])
        page.wait_for_timeout(50)
    raise AssertionError(f"no service worker registration: {found}")


def shown(page: Page, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 30  # a loaded machine: the worker may have to be started for the push
    while time.monotonic() < deadline:
        notifications: list[dict[str, Any]] = page.evaluate(NOTIFICATIONS)
        if len(notifications) >= count:
            return notifications
        page.wait_for_timeout(50)
    raise AssertionError(f"fewer than {count} notifications shown: {page.evaluate(NOTIFICATIONS)}")


def test_the_site_is_installable(live: LiveServer) -> None:
    """Issue 28 item 3: the manifest (name, icons, start URL, standalone display, theme colour) and a service worker
    at the root that caches the static shell, never a page or an API answer."""
    manifest = httpx.get(f"{live.url}/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["name"] == "Carson City Online" and data["start_url"] == "/" and data["display"] == "standalone"
    assert data["theme_color"].startswith("#")
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert httpx.get(live.url + icon["src"]).status_code == 200
    worker = httpx.get(f"{live.url}/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    shell = json.loads(worker.text.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    assert shell and all(url.startswith("/static/") and "?v=" in url for url in shell)
    assert "showNotification" in worker.text and "openWindow" in worker.text


def test_a_push_is_shown_and_stacks(browser: Browser, live: LiveServer) -> None:
    """Issue 28 items 3 and 4: the service worker registered by the site's pages caches the static shell only (after
    pages were visited, its cache holds nothing but /static/ files); it gets a push (through the DevTools
    protocol) and shows it with the payload's title and the game's address; a newer turn notice replaces the one
    shown ("Your turn in 2 games"), one per tag."""
    context = browser.new_context(viewport=SCREEN)
    context.grant_permissions(["notifications"], origin=live.url)
    page = context.new_page()
    try:
        sign_up(page, live.url, "pia")
        page.goto(f"{live.url}/settings/notifications")
        cdp = context.new_cdp_session(page)
        registration = registration_id(page, cdp)
        page.goto(f"{live.url}/")  # pages and API answers pass by the worker's cache
        page.goto(f"{live.url}/settings/notifications")
        cached = page.evaluate(CACHED)
        assert cached and all(path.startswith("/static/") for path in cached), cached
        recipient = Recipient(1, "pia", "pia@example.com")
        started = notice(Message("game_started", recipient, 7, "Friday game", view={"players": []}), live.url)
        first = notice(Message("your_turn", recipient, 7, "Friday game"), live.url)
        second = notice(Message("your_turn", recipient, 8, "Saturday game"), live.url, waiting=2)
        for payload in (started, first):
            cdp.send("ServiceWorker.deliverPushMessage",
                     {"origin": live.url, "registrationId": registration, "data": json.dumps(payload)})
        notifications = shown(page, 2)
        by_tag = {n["tag"]: n for n in notifications}
        assert by_tag["game_started-7"]["title"] == "Friday game has started"
        assert by_tag["game_started-7"]["url"] == f"{live.url}/games/7"
        assert by_tag["turn"]["title"] == first["title"] and by_tag["turn"]["url"] == f"{live.url}/games/7"
        cdp.send("ServiceWorker.deliverPushMessage",
                 {"origin": live.url, "registrationId": registration, "data": json.dumps(second)})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            turns = [n for n in page.evaluate(NOTIFICATIONS) if n["tag"] == "turn"]
            if turns and turns[0]["title"] == "Your turn in 2 games":
                break
            page.wait_for_timeout(50)
        assert turns == [{"title": "Your turn in 2 games", "body": second["body"], "tag": "turn",
                          "url": f"{live.url}/next"}]
    finally:
        context.close()


def test_the_settings_page_turns_push_on_and_lists_the_devices(browser: Browser, live: LiveServer) -> None:
    """Issue 28 item 3: the button asks only when clicked and registers the worker; the devices subscribed are
    listed and can be removed. Headless Chromium has no push service to subscribe with, so the page says why it
    could not; the device is then subscribed through the API as the page would. axe-core and a phone's width on the
    page with a device listed; screenshots at 1280x900 and 390x844."""
    context = browser.new_context(viewport=SCREEN)
    context.grant_permissions(["notifications"], origin=live.url)
    page = context.new_page()
    try:
        sign_up(page, live.url, "quin")
        page.goto(f"{live.url}/settings/notifications")
        button = page.get_by_role("button", name="Turn on notifications on this device")
        expect(button).to_be_visible()
        expect(page.get_by_text("No device gets your notifications yet.")).to_be_visible()
        button.click()
        status = page.locator("#push-status")
        expect(status).not_to_be_empty(timeout=15_000)
        assert page.evaluate("() => navigator.serviceWorker.ready.then((r) => Boolean(r.active))")
        said = status.inner_text()  # headless: "... could not be turned on: Registration failed - permission denied"
        assert said.startswith(("Notifications could not be turned on: ", "Notifications are on")), said
        with httpx.Client(base_url=f"{live.url}/api/v1") as api:
            headers = {**bearer(api, "quin"), "User-Agent": page.evaluate("() => navigator.userAgent")}
            keys = PushKeys().keys()
            r = api.post("/push/subscriptions", json={"endpoint": "https://93.184.215.14/push/quin",
                                                             "keys": keys}, headers=headers)
            assert r.status_code == 201, r.text
        page.goto(f"{live.url}/settings/notifications")
        device = page.locator("ul.devices li")
        expect(device).to_have_count(1)
        expect(device).to_contain_text("Chrome, Linux")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "50-settings-push-1280.png"), full_page=True)
        problems = serious_violations(page)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(ARTIFACTS / "50-settings-push-390.png"), full_page=True)
        if (width := no_sideways_scrolling(page)) > PHONE["width"]:
            problems.append(f"{width} px wide on a phone")
        assert problems == []
        page.get_by_role("button", name="Stop notifications on Chrome, Linux").click()
        expect(page.get_by_text("That device gets no more notifications.")).to_be_visible()
        expect(page.locator("ul.devices li")).to_have_count(0)
    finally:
        context.close()
