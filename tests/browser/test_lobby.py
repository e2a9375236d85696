"""A player who is not an admin opens a table, invites a friend who accepts by clicking, both chat live, and the
game starts (issue "Lobby and community": tables by players, invitations, chat).

Screenshots of each stage are saved under tests/browser/artifacts/.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.conftest import LiveServer
from tests.browser.helpers import TIMEOUT, mark_no_reload, sign_up, was_not_reloaded


def test_a_player_opens_a_table_invites_a_friend_they_chat_and_start(
    browser: Browser, live: LiveServer, shots: Any
) -> None:
    contexts = [browser.new_context(), browser.new_context()]
    host, friend = (c.new_page() for c in contexts)
    try:
        sign_up(host, live.url, "hank")
        sign_up(friend, live.url, "iris")

        # Hank, a player, opens a table by invitation only and invites Iris.
        host.get_by_role("link", name="New game").click()
        expect(host.locator("[name=seed]")).to_have_count(0)  # the seed stays the admins'
        host.locator("[name=name]").fill("Friends table")
        host.locator("[name=seats]").select_option("2")
        host.locator("[name=players]").fill("iris")
        host.get_by_label("Only the players I invite").check()
        host.get_by_label("When I start it").check()  # so that they can chat before the start
        host.get_by_role("button", name="Create the game").click()
        expect(host.get_by_role("heading", name="Friends table")).to_be_visible()
        expect(host.locator("#invited")).to_contain_text("iris")
        expect(host.get_by_text("By invitation only")).to_be_visible()
        shots(host, "20-lobby-player-opens-a-table")

        # Iris finds the invitation in her lobby and accepts it by clicking.
        friend.goto(f"{live.url}/")
        expect(friend.locator("#invitations")).to_contain_text("hank invites you")
        shots(friend, "21-lobby-invitation")
        friend.get_by_role("button", name="Accept Friends table").click()
        expect(friend.get_by_text("2 of 2 seats taken")).to_be_visible()

        # Both chat; each sees the other's message arrive live.
        host.reload()
        expect(host.get_by_text("2 of 2 seats taken")).to_be_visible()
        mark_no_reload(host)
        mark_no_reload(friend)
        friend.get_by_label("Your message").fill("Howdy, <b>Hank</b>!")
        friend.get_by_role("button", name="Send").click()
        expect(host.locator("#chat-log")).to_contain_text("Howdy, <b>Hank</b>!", timeout=TIMEOUT)
        expect(friend.get_by_label("Your message")).to_have_value("")
        host.get_by_label("Your message").fill("Ready when you are")
        host.get_by_label("Your message").press("Enter")
        expect(friend.locator("#chat-log")).to_contain_text("Ready when you are", timeout=TIMEOUT)
        assert was_not_reloaded(host) and was_not_reloaded(friend)
        shots(friend, "22-lobby-chat-before-the-start")

        # Hank starts the game; Iris's waiting page turns into the table by itself.
        host.get_by_role("button", name="Start the game").click()
        expect(host.locator("#board")).to_be_visible(timeout=TIMEOUT)
        expect(friend.locator("#board")).to_be_visible(timeout=TIMEOUT)
        for page in (host, friend):  # the chat and the notes are tabs of the table
            page.locator("#tab-chat").click()
            expect(page.locator("#chat-log")).to_contain_text("Ready when you are")
            page.locator("#tab-notes").click()
            expect(page.locator("#notes")).to_be_visible()
        friend.get_by_label("Your notes on this game").fill("Hank likes ranches.")
        friend.get_by_role("button", name="Save my notes").click()
        expect(friend.locator("#notes-saved")).to_be_visible()
        friend.locator("#tab-chat").click()
        friend.get_by_label("Your message").fill("Good luck!")
        friend.get_by_role("button", name="Send").click()
        expect(host.locator("#chat-log")).to_contain_text("Good luck!", timeout=TIMEOUT)
        host.reload()
        expect(host.get_by_label("Your notes on this game")).to_have_value("")  # Iris's notes are hers alone
        shots(host, "23-lobby-game-started-with-chat")
    finally:
        for context in contexts:
            context.close()


def test_the_lobby_shows_a_new_table_by_itself(browser: Browser, live: LiveServer, shots: Any) -> None:
    """Issue 12 "Lobby live": a table one may join appears in an open lobby without a reload."""
    contexts = [browser.new_context(), browser.new_context()]
    watcher, opener = (c.new_page() for c in contexts)
    try:
        sign_up(watcher, live.url, "jack")
        sign_up(opener, live.url, "kate")
        watcher.goto(f"{live.url}/")
        expect(watcher.get_by_text("No game is waiting for players.")).to_be_visible()
        mark_no_reload(watcher)
        opener.get_by_role("link", name="New game").click()
        opener.locator("[name=name]").fill("Kate's table")
        opener.locator("[name=seats]").select_option("3")
        opener.get_by_role("button", name="Create the game").click()
        expect(opener.get_by_role("heading", name="Kate's table")).to_be_visible()
        expect(watcher.get_by_role("button", name="Join Kate's table")).to_be_visible(timeout=TIMEOUT)
        expect(watcher.locator("#open-games a.player-link")).to_have_text("kate")
        assert was_not_reloaded(watcher)
        shots(watcher, "24-lobby-refreshed-by-itself")
    finally:
        for context in contexts:
            context.close()
