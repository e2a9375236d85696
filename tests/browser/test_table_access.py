"""The table for someone coming back to it and for someone without a mouse (issue 25, items 3 and 5): the other
player's moves since one's own last move are marked on the board and in the log, and the table opens on them;
every parcel, square and piece of the board has an accessible name (as Chromium computes it); the log is reached
and a move is made with Tab and Enter alone. One game, one page for every check, in the order written."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import TIMEOUT, FastForwarded, board_seq, fast_forward, sign_up

NAMES = ("kay", "lou")
SEED = 31


def moves_until_the_other_placed(seed: int) -> tuple[list[tuple[int, Move]], int]:
    """Moves of a two-player game played at random until, in round 2, the seat to act may place a cowboy, has
    placed one this game, and the move just made was the other seat's placement; with the seat to act."""
    for attempt in range(30):
        chooser = random.Random(attempt)
        state = replay(new_game(GameConfig.from_variants(2, {}), seed))
        moves: list[tuple[int, Move]] = []
        while state.status != "finished" and state.round <= 2:
            seat = to_act(state)[0]
            legal = legal_moves(state, seat)
            placed = [s for s, m in moves if m["type"] == "place_cowboy"]
            if state.round == 2 and seat in placed and moves[-1][0] != seat \
                    and moves[-1][1]["type"] == "place_cowboy" and any(m["type"] == "place_cowboy" for m in legal):
                return moves, seat
            move = chooser.choice(legal)
            _, state = play(state, seat, move, Rng(seed, state.seq))
            moves.append((seat, move))
    raise AssertionError("no game reached the stage")


@pytest.fixture(scope="module")
def seated(browser: Browser, live: LiveServer) -> Iterator[tuple[Page, str, FastForwarded]]:
    """The acting player's table, opened after the other player's placement; the other player's name; the game."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in NAMES]
    try:
        pages = {}
        for context, name in zip(contexts, NAMES, strict=True):
            pages[name] = context.new_page()
            sign_up(pages[name], live.url, name)
        moves, acting = moves_until_the_other_placed(SEED)
        forwarded = fast_forward(live.url, "Access", list(NAMES), SEED, moves)
        game = forwarded.game
        username = next(s["username"] for s in game["seats"] if s["seat"] == acting)
        page = pages[username]
        page.goto(f"{live.url}/games/{game['id']}")
        expect(page.locator("#board")).to_be_attached()
        yield page, next(n for n in NAMES if n != username), forwarded
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def table(seated: tuple[Page, str, FastForwarded]) -> Page:
    return seated[0]


def test_the_other_players_moves_since_mine_are_marked_and_the_table_opens_on_them(
        seated: tuple[Page, str, FastForwarded]) -> None:
    table, other, _ = seated
    since = table.locator("#since")
    expect(since).to_be_visible()
    expect(since).to_contain_text(f"Since your last move: moves by {other}")
    # Marked on the board or the track: a placement is a parcel's or a square's.
    assert table.locator("#map .changed-mark").count() + table.locator("#track .track-item.changed").count() >= 1
    # The table opens on the log, whose newest lines are the marked ones under their heading.
    expect(table.locator("#tab-log")).to_have_attribute("aria-selected", "true")
    expect(table.locator("#panel-log")).to_be_visible()
    expect(table.locator("#since-log")).to_be_visible()
    assert table.locator(".log li.since").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    table.screenshot(path=str(ARTIFACTS / "32-since-your-last-move-1280.png"))
    table.set_viewport_size({"width": 390, "height": 844})
    table.screenshot(path=str(ARTIFACTS / "32-since-your-last-move-390.png"))
    assert int(table.evaluate("document.documentElement.scrollWidth")) <= 390
    table.set_viewport_size({"width": 1280, "height": 900})


def accessible_names(page: Page, selector: str) -> list[tuple[str, str]]:
    """(element's id or tag, accessible name) of every element matching `selector`, as Chromium's accessibility
    tree names them (the DevTools protocol), not as the markup suggests."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        found = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
        names = []
        for node in found:
            described: dict[str, Any] = cdp.send("DOM.describeNode", {"nodeId": node})["node"]
            attributes = described.get("attributes", [])
            ident = dict(zip(attributes[::2], attributes[1::2], strict=True)).get("id") or described["nodeName"]
            tree = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"]
            names.append((ident, str(tree[0].get("name", {}).get("value", "")).strip()))
        return names
    finally:
        cdp.detach()


def test_every_parcel_square_and_piece_of_the_board_has_an_accessible_name(table: Page) -> None:
    parcels = accessible_names(table, "#map .parcel")
    assert len(parcels) == 64
    pieces = accessible_names(table, "#map .piece, #track .meeple-inline, #map .target")
    assert len(pieces) >= 10  # the mountains, the centre's house, the cowboys placed, the spots a cowboy may go
    squares = accessible_names(table, "#track .track-item")
    assert len(squares) >= 10
    unnamed = [ident for ident, name in parcels + pieces + squares if not name]
    assert not unnamed, unnamed
    assert all(name.startswith("Parcel (") for _, name in parcels), parcels[:3]


def test_axe_finds_nothing_serious_on_the_marked_table(table: Page) -> None:
    results = Axe().run(table)
    serious = [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert not serious, serious


def test_a_chat_message_marks_the_chat_tab_until_it_is_opened(seated: tuple[Page, str, FastForwarded],
                                                               live: LiveServer) -> None:
    table, other, game = seated
    mark = table.locator("#tab-chat .unread")
    expect(mark).to_be_hidden()
    expect(table.locator("#tab-chat")).to_have_attribute("aria-selected", "false")
    seat = next(s for s, name in game.names.items() if name == other)
    r = httpx.post(f"{live.url}/api/v1/games/{game.id}/chat", json={"text": "Your move, partner"},
                   headers=game.headers[seat], timeout=10)
    assert r.status_code in (200, 201), r.text
    expect(mark).to_be_visible(timeout=TIMEOUT)
    expect(table.locator("#tab-chat")).to_contain_text("(new messages)")
    table.locator("#tab-chat").click()
    expect(mark).to_be_hidden()
    expect(table.locator("#chat-log")).to_contain_text("Your move, partner")


def tab_to(page: Page, matches: str, limit: int = 250) -> int:
    """Press Tab until the focused element matches the CSS selector `matches`; the presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", matches):
            return presses
    raise AssertionError(f"{matches} not reached in {limit} presses of Tab")


def test_the_log_is_reached_with_the_keyboard(table: Page) -> None:
    table.goto(table.url)
    tab_to(table, "#since a")
    table.keyboard.press("Enter")
    expect(table.locator(".log")).to_be_focused()
    # And without the heading's link: Tab alone reaches the log of the open tab.
    table.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    tab_to(table, "ol.log")


def test_a_move_is_made_with_tab_and_enter_alone(table: Page) -> None:
    table.goto(table.url)
    before = board_seq(table)
    tab_to(table, "#map .target[role=button], #track button.place")
    label = table.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label, "the focused spot says which move it makes"
    table.keyboard.press("Enter")
    table.wait_for_function("old => document.getElementById('board')?.dataset.seq !== String(old)", arg=before,
                            timeout=TIMEOUT)
    assert board_seq(table) > before
    expect(table.locator("#since")).to_have_count(0)  # the viewer has just moved: nothing is new to them


def test_a_visitor_plays_against_the_bot_from_the_home_page(browser: Browser, live: LiveServer) -> None:
    """The front door (issue 25, item 6): "Play against the bot now", the sign-up form, and the visitor sits at a
    started table whose other seat is the site's bot."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(live.url)
        expect(page.locator("#map")).to_be_visible()
        page.get_by_role("link", name="Play against the bot now").click()
        page.get_by_label("Username").fill("visitor")
        page.get_by_label("Email").fill("visitor@example.com")
        page.get_by_label("Password").fill("correct horse battery")
        page.get_by_role("button", name="Sign up and play").click()
        expect(page.locator("#board")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#panel-players")).to_contain_text("bot-")
        expect(page.locator("h1")).to_have_text("visitor against the bot")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "33-against-the-bot-1280.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(ARTIFACTS / "33-against-the-bot-390.png"))
        assert int(page.evaluate("document.documentElement.scrollWidth")) <= 390
    finally:
        context.close()
