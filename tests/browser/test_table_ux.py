"""The table as a newcomer meets it (issue "The table players would switch for"): no horizontal scrolling at
390 px in placement, construction and the final score; every action square and building explains itself to a
keyboard user; the board's roads, buildings and cowboys are distinct SVG elements with accessible names.
Screenshots of each stage at 1280 and 390 px wide go to tests/browser/artifacts/."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Browser, Page, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.catalog import BUILDINGS, TRACK_STEPS
from app.rules.model import GameState
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import LiveServer
from tests.browser.helpers import fast_forward, sign_up

NAMES = ("uma", "vic")
SEED = 31


def script(stop: Callable[[GameState, list[Move]], bool]) -> list[tuple[int, Move]]:
    """Moves of a 2-player game with SEED, chosen at random but favouring buildings, until `stop` holds for the
    state and the legal moves of the seat to act (or the game is over)."""
    chooser = random.Random(SEED)
    state = replay(new_game(GameConfig.from_variants(2, {}), SEED))
    moves: list[tuple[int, Move]] = []
    while state.status != "finished":
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        if stop(state, legal):
            break
        builds = [m for m in legal if m["type"] in ("buy_building", "place_building", "buy_parcel")]
        move = chooser.choice(builds or legal)
        _, state = play(state, seat, move, Rng(SEED, state.seq))
        moves.append((seat, move))
    return moves


@contextmanager
def table(browser: Browser, live: LiveServer, name: str, moves: list[tuple[int, Move]]) -> Iterator[list[Page]]:
    """Both players' pages on a game fast-forwarded through the API by `moves`."""
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    try:
        for page, player in zip(pages, NAMES, strict=True):
            sign_up(page, live.url, f"{player}{name}")
        game = fast_forward(live.url, name, [f"{p}{name}" for p in NAMES], SEED, moves).game
        for page in pages:
            page.goto(f"{live.url}/games/{game['id']}")
        yield pages
    finally:
        for context in contexts:
            context.close()


def fits_a_phone(page: Page, shots: Any, stage: str) -> None:
    shots(page, f"20-{stage}-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    width = page.evaluate("document.documentElement.scrollWidth")
    shots(page, f"20-{stage}-390")
    assert width <= 390, f"{stage}: the page is {width} px wide on a 390 px screen"
    page.set_viewport_size({"width": 1280, "height": 900})


def test_no_horizontal_scrolling_on_a_phone_in_any_stage(browser: Browser, live: LiveServer, shots: Any) -> None:
    stages = {
        "placement": lambda s, legal: s.step == "placement" and s.round == 2,
        "construction": lambda s, legal: any(m["type"] == "place_building" for m in legal),
        "final-score": lambda s, legal: False,
    }
    for stage, stop in stages.items():
        with table(browser, live, stage.replace("-", ""), script(stop)) as pages:
            for page in pages:
                expect(page.locator("#board")).to_be_visible()
                fits_a_phone(page, shots, f"{stage}-{NAMES[pages.index(page)]}")
            if stage == "final-score":
                expect(pages[0].locator("#score")).to_be_visible()


def test_every_square_and_building_explains_itself_to_a_keyboard(browser: Browser, live: LiveServer) -> None:
    with table(browser, live, "help", script(lambda s, legal: s.step == "placement")) as (page, _):
        for step in TRACK_STEPS:
            summary = page.locator(f"#square-{step} details.help summary")
            summary.focus()
            expect(summary).to_be_focused()
            page.keyboard.press("Enter")
            expect(page.locator(f"#square-{step} details.help p")).to_be_visible()
        # The buildings' legend and the cards are in the table's second tab, reached by the arrow keys.
        page.locator("#tab-players").focus()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#tab-cards")).to_have_attribute("aria-selected", "true")
        legend = page.locator("#legend summary")
        legend.focus()
        page.keyboard.press("Enter")
        for name in ("Ranch", "Mine", "Drugstore", "Bank", "Saloon", "Hotel", "Church", "Prison"):
            expect(page.locator("#legend dt", has_text=name)).to_be_visible()
        # The personality cards print both sides' rules on the table itself.
        expect(page.locator(".card .yellow-text").first).to_be_visible()
        expect(page.locator(".card .red-text").first).to_be_visible()


def test_the_boards_pieces_have_accessible_names(browser: Browser, live: LiveServer) -> None:
    moves = script(lambda s, legal: s.round >= 2 and s.step == "placement" and any(s.parcel_cowboys.values())
                   and any(p.content in BUILDINGS and p.owner is not None for p in s.parcels))
    with table(browser, live, "names", moves) as (page, _):
        board = page.locator("svg.map")
        assert board.get_by_role("img", name="Road between").count() >= 4  # a road is a line: no area to "see"
        contents = board.locator(".piece.content[role=img]")
        labels = [contents.nth(i).get_attribute("aria-label") or "" for i in range(contents.count())]
        assert any(label.startswith("House") for label in labels)  # Carson City's centre at least
        assert any(" of " in label and "income $" in label for label in labels), labels  # a building, its owner
        cowboys = board.locator(".piece.cowboy[role=img]")
        assert cowboys.count() >= 1
        assert all((cowboys.nth(i).get_attribute("aria-label") or "").startswith(("Cowboy of", "The white cowboy"))
                   for i in range(cowboys.count()))
