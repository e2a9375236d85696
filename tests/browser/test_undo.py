"""Undo and confirmations at the table, by clicking (issue "The table players would switch for", item 4;
`../shared/API.md` "Undo"; decisions D83-D86): a placement taken back with the Undo button, the other page
following live; a pass with cowboys left asks first, and nothing is sent when the question is declined.

Screenshots under tests/browser/artifacts/.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Browser, Dialog, Page, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import LiveServer
from tests.browser.helpers import (
    TIMEOUT,
    board_seq,
    click_and_wait,
    fast_forward,
    is_acting,
    scripted_moves,
    sign_up,
    wait_seq,
)

SEED = 11


def _at_placement(browser: Browser, live: LiveServer, names: tuple[str, str]) -> tuple[list[Any], Page, Page, str]:
    """Two players at the first placement of a game fast-forwarded through the API; returns the contexts, the
    awaited player's page, the other's, and the awaited player's name."""
    moves, _ = scripted_moves(2, SEED, "place_cowboy")
    contexts = [browser.new_context(), browser.new_context()]
    pages = [context.new_page() for context in contexts]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, live.url, name)
    game = fast_forward(live.url, "Undo", list(names), SEED, moves).game
    for page in pages:
        page.goto(f"{live.url}/games/{game['id']}")
    actor = next(p for p in pages if is_acting(p))
    return contexts, actor, next(p for p in pages if p is not actor), names[pages.index(actor)]


def test_a_placement_is_taken_back_with_the_undo_button(browser: Browser, live: LiveServer, shots: Any) -> None:
    contexts, actor, other, name = _at_placement(browser, live, ("una", "ned"))
    try:
        expect(actor.locator("#undo")).to_have_count(0)
        start = board_seq(actor)
        actor.locator("#square-wages a.place").click()  # the Sheriff's two cowboys: the square, then which one
        click_and_wait(actor, actor.get_by_role("button", name="Place a cowboy on Wages"), [other])
        expect(actor.locator("#square-wages .sq-cowboys .meeple-inline")).to_have_count(1)
        expect(other.locator("#undo")).to_have_count(0)
        undo = actor.get_by_role("button", name="Undo my last move")
        expect(undo).to_be_visible()
        shots(actor, "20-undo-button-after-a-placement")
        seq = click_and_wait(actor, undo, [other])
        assert seq == start + 2  # the placement and the undo, both in the log
        for page in (actor, other):
            expect(page.locator("#square-wages .sq-cowboys .meeple-inline")).to_have_count(0)
            expect(page.locator(".log")).to_contain_text(f"{name} takes back their move")
        expect(actor.locator("#turn-status")).to_contain_text("Your turn")
        expect(actor.locator("#undo")).to_have_count(0)
        shots(other, "21-after-undo-other-player")
    finally:
        for context in contexts:
            context.close()


def test_a_pass_with_cowboys_left_asks_first(browser: Browser, live: LiveServer, shots: Any) -> None:
    contexts, actor, other, name = _at_placement(browser, live, ("pia", "max"))
    try:
        asked: list[str] = []

        def decline(dialog: Dialog) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        actor.once("dialog", decline)
        start = board_seq(actor)
        passing = actor.get_by_role("button", name="Pass (no more cowboys this round)")
        passing.click()
        expect(actor.locator("#board")).to_have_attribute("data-seq", str(start))
        actor.wait_for_timeout(300)  # a request, had one been sent, would have changed the board by now
        assert board_seq(actor) == start
        assert len(asked) == 1 and "cowboys in reserve" in asked[0] and "Pass" in asked[0]
        expect(actor.locator("#turn-status")).to_contain_text("Your turn")

        actor.once("dialog", lambda dialog: dialog.accept())
        passing.click()
        actor.wait_for_function("old => document.getElementById('board').dataset.seq !== String(old)", arg=start,
                                timeout=TIMEOUT)
        wait_seq(other, board_seq(actor))
        expect(other.locator(".log")).to_contain_text(f"{name} passes")
        shots(actor, "22-pass-confirmed")
    finally:
        for context in contexts:
            context.close()


def _to_a_pass_that_rolls(seed: int) -> tuple[list[tuple[int, Move]], int] | None:
    """Moves of a 2-player game up to a pass after which a duel is fought at once (the last pass ends the
    placement and the track resolves its first square, a duel: a die is rolled), and the passing seat."""
    chooser = random.Random(seed)
    state = replay(new_game(GameConfig.from_variants(2, {}), seed))
    moves: list[tuple[int, Move]] = []
    while state.status != "finished" and state.round < 3:
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        if {"type": "pass"} in legal and state.players[seat].cowboys == 0:
            produced, _ = play(state, seat, {"type": "pass"}, Rng(seed, state.seq))
            if any(e["type"] == "duel_fought" for e in produced):
                return moves, seat
        squares = [m for m in legal if m["type"] == "place_cowboy" and m.get("square") in ("ammunition", "three_roads")]
        move = chooser.choice(squares or legal)
        _, state = play(state, seat, move, Rng(seed, state.seq))
        moves.append((seat, move))
    return None


def test_no_undo_after_a_move_that_rolled_a_die(browser: Browser, live: LiveServer, shots: Any) -> None:
    """Decision D84 (API.md "Undo": nothing random may be taken back): a pass after which a duel's die was rolled
    offers no Undo button, and the undo asked anyway is refused with 409 `undo_not_allowed`."""
    seed, (moves, passer) = next((s, f) for s in range(1, 200) if (f := _to_a_pass_that_rolls(s)) is not None)
    names = ("ola", "pim")
    contexts = [browser.new_context(), browser.new_context()]
    pages = [context.new_page() for context in contexts]
    try:
        for page, name in zip(pages, names, strict=True):
            sign_up(page, live.url, name)
        played = fast_forward(live.url, "Rolled", list(names), seed, moves)
        actor = pages[names.index(played.names[passer])]
        other = pages[1 - names.index(played.names[passer])]
        for page in pages:
            page.goto(f"{live.url}/games/{played.id}")
        click_and_wait(actor, actor.get_by_role("button", name="Pass"), [other])
        expect(actor.locator(".log")).to_contain_text("won the duel")
        expect(actor.locator("#undo")).to_have_count(0)
        r = httpx.post(f"{live.url}/api/v1/games/{played.id}/undo", json={"seq": board_seq(actor)},
                       headers=played.headers[passer], timeout=10)
        assert r.status_code == 409 and r.json()["detail"]["code"] == "undo_not_allowed"
    finally:
        for context in contexts:
            context.close()
