"""Stepping through a game's past in the browser (issue 14 "History"): from the live table to a past position,
back and forward with the buttons and the arrow keys, the slider and the round jumps; the game's record (export,
commitment, /fairness) beside the table.

Screenshots are saved under tests/browser/artifacts/.
"""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import ADMIN, PASSWORD, LiveServer
from tests.browser.helpers import TIMEOUT, board_seq, sign_up

SEED = 1414


def _moves(count: int) -> list[tuple[int, Move]]:
    """The first `count` moves of a random game with SEED (the server, given the same seed, rolls the same)."""
    state = replay(new_game(GameConfig.from_variants(2, {}), SEED))
    chooser = random.Random(SEED)
    moves: list[tuple[int, Move]] = []
    while len(moves) < count and state.status != "finished":
        seat = to_act(state)[0]
        move = chooser.choice(legal_moves(state, seat))
        _, state = play(state, seat, move, Rng(SEED, state.seq))
        moves.append((seat, move))
    return moves


def _game(live: LiveServer, players: list[str], moves: list[tuple[int, Move]]) -> int:
    with httpx.Client(base_url=f"{live.url}/api/v1", timeout=10) as api:
        def bearer(user: str, password: str) -> dict[str, str]:
            r = api.post("/auth/token", data={"username": user, "password": password})
            return {"Authorization": f"Bearer {r.json()['access_token']}"}

        game = api.post("/games", json={"name": "History", "seats": 2, "players": players, "seed": SEED},
                        headers=bearer(*ADMIN)).json()
        by_seat = {s["seat"]: bearer(s["username"], PASSWORD) for s in game["seats"]}
        seq = game["seq"]
        for seat, move in moves:
            r = api.post(f"/games/{game['id']}/moves", json={"seq": seq, "move": move}, headers=by_seat[seat])
            assert r.status_code == 200, r.text
            seq = r.json()["seq"]
        game_id: int = game["id"]
        return game_id


def _at(page: Page) -> int:
    match = re.search(r"[?&]at=(\d+)", page.url)
    assert match, page.url
    return int(match.group(1))


def _wait_at(page: Page, at: int) -> None:
    page.wait_for_url(re.compile(rf"[?&]at={at}$"), timeout=TIMEOUT)
    expect(page.locator("#history-at")).to_have_text(str(at))
    assert board_seq(page) == at


def test_step_back_and_forward_through_a_game(browser: Browser, live: LiveServer, shots: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        sign_up(page, live.url, "hana")
        other = browser.new_context()
        sign_up(other.new_page(), live.url, "hugo")
        other.close()
        game_id = _game(live, ["hana", "hugo"], _moves(60))
        page.goto(f"{live.url}/games/{game_id}")
        live_seq = board_seq(page)
        expect(page.locator("#seed-commitment")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
        expect(page.locator("#record")).to_contain_text("chosen by an admin")
        expect(page.locator("#export-link")).to_have_attribute("href", f"/api/v1/games/{game_id}/export")

        page.locator("#history-link").click()
        _wait_at(page, live_seq)
        expect(page.locator("#history")).to_be_visible()
        assert page.title().startswith(f"Position {live_seq} of {live_seq}")
        expect(page.locator("#decision")).to_have_count(0)  # a past position offers no choices

        page.locator("#history-back").click()
        _wait_at(page, live_seq - 1)
        page.keyboard.press("ArrowLeft")
        _wait_at(page, live_seq - 2)
        page.keyboard.press("ArrowLeft")
        _wait_at(page, live_seq - 3)
        page.keyboard.press("ArrowRight")
        _wait_at(page, live_seq - 2)
        page.locator("#history-forward").click()
        _wait_at(page, live_seq - 1)
        shots(page, "30-history-step")

        page.get_by_role("link", name="round 1").click()
        start = _at(page)
        expect(page.locator("#board .status")).to_contain_text("Round 1")
        page.locator("#history-first").click()
        _wait_at(page, 1)
        expect(page.locator("#history-back")).to_have_count(0)

        page.locator("#history-slider").fill(str(start + 5))  # sliding there and letting go
        _wait_at(page, start + 5)
        shots(page, "30-history-slider")

        page.locator("#history-live").click()
        page.wait_for_url(f"{live.url}/games/{game_id}", timeout=TIMEOUT)
        expect(page.locator("#history")).to_have_count(0)
        assert board_seq(page) == live_seq
    finally:
        context.close()
