"""The table on one screen (issue "The table on one screen, and decisions that say what is at stake"): at 1280x900
and 1440x900 the board (`#map`), the action track (`#track`) and the decision (`#decision`) are inside the first
screen, mid-game, for several kinds of decision; a finished game shows its final score (`#final-score`) there, and
every VP figure on the page is the final total. One live server and two signed-up players serve every stage;
screenshots of each stage's first screen at 1280x900 and 390x844 go to tests/browser/artifacts/ (`30-…`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.model import GameState
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import bearer, fast_forward, sign_in_admin, sign_up

NAMES = ("ona", "pete")
SCREENS = ({"width": 1280, "height": 900}, {"width": 1440, "height": 900})
PHONE = {"width": 390, "height": 844}
MIGHT = {"might_is_right": True}
GOLD = {"expansions": ["gold_and_guns"], "characters": [1, 2, 3, 4, 5, 6, 12]}


def until(seed: int, stop: Callable[[GameState, list[Move]], bool], variants: dict[str, Any] | None = None,
          tries: int = 30) -> tuple[list[tuple[int, Move]], GameState]:
    """Moves of a two-player game with `seed`, chosen at random but favouring buildings, until `stop` holds for the
    state and the legal moves of the seat to act (a `stop` that never holds plays the game to its end)."""
    for attempt in range(tries):
        chooser = random.Random(attempt)
        state = replay(new_game(GameConfig.from_variants(2, variants or {}), seed))
        moves: list[tuple[int, Move]] = []
        while state.status != "finished":
            seat = to_act(state)[0]
            legal = legal_moves(state, seat)
            if stop(state, legal):
                return moves, state
            builds = [m for m in legal if m["type"] in ("buy_building", "place_building", "buy_parcel")]
            move = chooser.choice(builds or legal)
            _, state = play(state, seat, move, Rng(seed, state.seq))
            moves.append((seat, move))
        if stop is NEVER:
            return moves, state
    raise AssertionError(f"no game with seed {seed} reached the stage")


def NEVER(state: GameState, legal: list[Move]) -> bool:
    return False


def offers(kind: str) -> Callable[[GameState, list[Move]], bool]:
    return lambda state, legal: any(m["type"] == kind for m in legal)


@dataclass
class Players:
    pages: dict[str, Page]
    base: str

    games: dict[str, int]

    def open(self, name: str, seed: int, stop: Callable[[GameState, list[Move]], bool],
             variants: dict[str, Any] | None = None) -> Page:
        """A game played through the API up to `stop`; the page of the player to act (of the first seat when the
        game is over) opens its table."""
        moves, state = until(seed, stop, variants)
        game = fast_forward(self.base, name, list(NAMES), seed, moves, variants).game
        seats = {s["seat"]: s["username"] for s in game["seats"]}
        acting = to_act(state)[0] if state.status != "finished" else 0
        page = self.pages[seats[acting]]
        page.set_viewport_size(SCREENS[0])
        page.goto(f"{self.base}/games/{game['id']}")
        expect(page.locator("#board")).to_be_attached()
        self.games[name] = game["id"]
        return page


@pytest.fixture(scope="module")
def players(browser: Browser, live: LiveServer) -> Iterator[Players]:
    contexts = [browser.new_context(), browser.new_context()]
    try:
        pages = {}
        for context, name in zip(contexts, NAMES, strict=True):
            page = context.new_page()
            page.on("dialog", lambda dialog: dialog.accept())
            sign_up(page, live.url, name)
            pages[name] = page
        yield Players(pages, live.url, {})
    finally:
        for context in contexts:
            context.close()


def first_screen(page: Page, name: str) -> None:
    """The screenshot of what the first screen shows (not the whole page)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def outside_first_screen(page: Page, selectors: tuple[str, ...]) -> list[str]:
    """The boxes among `selectors` not wholly inside the first screen of a page opened at its top, each with its
    box: every box must be there, visible, from x = 0 and y = 0 to the viewport's width and height."""
    size = page.viewport_size
    assert size is not None
    page.evaluate("window.scrollTo(0, 0)")
    wrong = []
    for selector in selectors:
        box = page.locator(selector).bounding_box() if page.locator(selector).count() == 1 else None
        if box is None or box["x"] < 0 or box["y"] < 0 or box["x"] + box["width"] > size["width"] + 0.5 \
                or box["y"] + box["height"] > size["height"] + 0.5 or box["height"] < 20:
            wrong.append(f"{selector} {box}")
    return wrong


def hidden_answers(page: Page) -> list[str]:
    """The decision's answer controls (buttons, lists) that are shown but not wholly in sight at the top of the
    page: outside the viewport, or scrolled out of the box that holds the decision (`.table-now` scrolls inside
    when the side column is short of height)."""
    return list(page.evaluate("""() => {
        window.scrollTo(0, 0);
        const box = document.querySelector('.table-now').getBoundingClientRect();
        const bottom = Math.min(box.bottom, window.innerHeight), right = Math.min(box.right, window.innerWidth);
        return [...document.querySelectorAll('#decision button, #decision select')]
            .filter(el => el.offsetParent !== null)
            .filter(el => { const r = el.getBoundingClientRect();
                            return r.top < box.top - 0.5 || r.bottom > bottom + 0.5 || r.left < 0
                                || r.right > right + 0.5; })
            .map(el => (el.textContent || el.name || el.tagName).trim().slice(0, 40));
    }"""))


def no_sideways_scrolling(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def check_stage(page: Page, stage: str, boxes: tuple[str, ...] = ("#map", "#track", "#decision")) -> None:
    """The three boxes inside the first screen at 1280x900 and 1440x900, with every answer of the decision in
    sight (none hidden by the decision box's own scrolling); on a phone, the decision above the board and nothing
    wider than the screen. The screenshots are taken before anything is checked."""
    problems = []
    for screen in SCREENS:
        page.set_viewport_size(screen)
        first_screen(page, f"30-{stage}-{screen['width']}")
        if screen is SCREENS[0]:
            page.screenshot(path=str(ARTIFACTS / f"30-{stage}-1280-whole.png"), full_page=True)
        problems += [f"{screen['width']}: {wrong}" for wrong in outside_first_screen(page, boxes)]
        if "#decision" in boxes:
            problems += [f"{screen['width']}: answer out of sight: {text}" for text in hidden_answers(page)]
    page.set_viewport_size(PHONE)
    first_screen(page, f"30-{stage}-390")
    width = no_sideways_scrolling(page)
    page.set_viewport_size(SCREENS[0])
    assert not problems, f"{stage}: {problems}"
    assert width <= PHONE["width"], f"{stage}: {width} px wide on a phone"


def test_placement_fits_one_screen_and_is_made_on_the_board(players: Players) -> None:
    page = players.open("Placement", 31, lambda s, legal: s.round == 2 and offers("place_cowboy")(s, legal)
                        and not offers("place_white_cowboy")(s, legal))  # the Sheriff's two colours: its own stage
    check_stage(page, "placement")
    # Every parcel and square a cowboy may go to is a spot on the board or the track, not a button of the decision.
    assert page.locator("#map .target").count() + page.locator("#track .place").count() >= 10
    assert page.locator("#decision button").count() <= 6


def test_a_personality_choice_fits_one_screen_with_its_card_texts(players: Players) -> None:
    page = players.open("Personalities", 31, offers("choose_personality"))
    check_stage(page, "personality")
    button = page.locator("#decision button.choice").first
    expect(button).to_contain_text("cash limit")


def test_a_duel_fits_one_screen_and_names_what_is_at_stake(players: Players) -> None:
    page = players.open("Duel", 5, offers("play_tile"), MIGHT)
    check_stage(page, "duel")
    stake = page.locator("#decision .stake")
    expect(stake).to_contain_text("firepower")
    for name in NAMES:
        expect(stake).to_contain_text(name)
    # The spot fought over is marked on the board (a parcel) or the track (a square), once.
    assert page.locator("#map .duel-mark").count() + page.locator("#track .track-item.duel").count() == 1


def test_the_sheriffs_white_cowboy_is_placed_on_the_board(players: Players) -> None:
    page = players.open("Sheriff", 7, offers("place_white_cowboy"))
    check_stage(page, "sheriff")
    assert page.locator("#map .target").count() >= 5
    box = page.locator("#decision").bounding_box()
    assert box is not None and box["height"] < 500, box


def test_a_build_fits_one_screen_and_says_where_it_may_go(players: Players) -> None:
    page = players.open("Build", 31, offers("place_building"))
    check_stage(page, "build")
    expect(page.locator("#decision .stake")).to_contain_text("may go")
    assert page.locator("#map .target").count() >= 1


@pytest.mark.parametrize(("seed", "parcels"), [(7, ("(3, 3)", "(4, 5)")), (5, ("(5, 6)", "(5, 7)", "(6, 4)"))])
def test_a_permission_request_fits_one_screen_with_every_answer_in_sight(
        players: Players, seed: int, parcels: tuple[str, ...]) -> None:
    """A request for a house on two parcels (seed 7) and on three (seed 5; from four on, the parcels' answers fold
    behind the board): every parcel's Allow and Refuse, and
    the stake, in sight at 1280x900 and 1440x900 without scrolling the page or the decision box."""
    page = players.open(f"Permission {len(parcels)}", seed, offers("answer_permission"))
    check_stage(page, f"permission-{len(parcels)}")
    # One row a parcel, named for assistive technology, with its two answers; no second copy of them in a list.
    for xy in parcels:
        row = page.get_by_role("group", name=f"Parcel {xy}")
        expect(row.get_by_role("button", name=f"Allow a house on parcel {xy}")).to_be_visible()
        expect(row.get_by_role("button", name=f"Refuse a house on parcel {xy}")).to_be_visible()
    assert page.locator("#decision select").count() == 0
    # The request is said once, by the stake, whose first line names the asker, the building and every parcel.
    asked = page.locator("#decision .stake li").first
    expect(asked).to_contain_text("asks to build the house of their")
    for xy in parcels:
        expect(asked).to_contain_text(xy)
    expect(page.locator("#construction-work")).to_have_count(0)
    assert not serious_violations(page)


def test_an_auction_fits_one_screen_with_its_lots_and_bids(players: Players) -> None:
    page = players.open("Auction", 12, offers("bid"), GOLD)
    check_stage(page, "auction")
    expect(page.locator("#decision .stake")).to_contain_text("Still in")


def test_the_final_score_is_in_the_first_screen_winner_first_with_totals_everywhere(players: Players) -> None:
    page = players.open("Finished", 31, NEVER)
    check_stage(page, "final-score", ("#map", "#final-score"))
    rows = page.locator("#final-score tbody tr")
    totals = [int(t) for t in page.locator("#final-score .total td").all_inner_texts()]
    assert totals == sorted(totals, reverse=True), totals  # the winner first
    assert rows.count() >= 5  # each part of the score
    # Every VP figure shown for a player is their final total.
    shown = [int(v) for v in page.locator(".player .vp").all_inner_texts()]
    assert sorted(shown, reverse=True) == totals, (shown, totals)
    winner = page.locator("#turn-status")
    expect(winner).to_contain_text("wins")


def serious_violations(page: Page) -> list[str]:
    """axe-core's violations of impact "serious" or "critical" on the page as it is now, each with its nodes."""
    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def test_every_page_passes_axe_and_fits_a_phone(players: Players, browser: Browser, live: LiveServer) -> None:
    """axe-core finds no serious or critical violation on the lobby, the new-game form, the rules, a profile, the
    settings, a live table, a finished table and a past position, nor on the pages of a visitor (the home page,
    sign-up, sign-in, a forgotten password, the fairness of the dice), the leaderboard and a table waiting for
    players; none of them scrolls
    sideways at 390 px, and each is pictured at 1280x900 and 390x844. (Runs after the stages above, whose tables
    it visits again.)"""
    page = players.pages[NAMES[0]]
    if "Placement" not in players.games:
        players.open("Placement", 31, lambda s, legal: s.round == 2 and offers("place_cowboy")(s, legal))
    if "Finished" not in players.games:
        players.open("Finished", 31, NEVER)
    with httpx.Client(base_url=f"{live.url}/api/v1", timeout=10) as api:
        waiting = api.post("/games", json={"name": "Waiting", "seats": 3}, headers=bearer(api, NAMES[1])).json()
    admin_context = browser.new_context()
    admin = admin_context.new_page()
    visitor_context = browser.new_context()
    visitor = visitor_context.new_page()
    try:
        sign_in_admin(admin, live.url)
        pages = [
            (visitor, "home", "/"),
            (visitor, "signup", "/signup?play=bot"),
            (visitor, "login", "/login"),
            (visitor, "password-forgot", "/password/forgot"),
            (visitor, "fairness", "/fairness"),
            (page, "leaderboard", "/leaderboard"),
            (page, "waiting-table", f"/games/{waiting['id']}"),
            (page, "lobby", "/"),
            (page, "rules", "/rules"),
            (page, "profile", f"/players/{NAMES[1]}"),
            (page, "settings", "/settings/notifications"),
            (page, "live-table", f"/games/{players.games['Placement']}"),
            (page, "finished-table", f"/games/{players.games['Finished']}"),
            (page, "past-position", f"/games/{players.games['Placement']}?at=12"),
            (admin, "new-game", "/games/new"),
        ]
        problems = []
        for viewer, name, path in pages:
            viewer.set_viewport_size(SCREENS[0])
            viewer.goto(live.url + path)
            problems += [f"{name}: {v}" for v in serious_violations(viewer)]
            first_screen(viewer, f"31-{name}-1280")
            viewer.set_viewport_size(PHONE)
            first_screen(viewer, f"31-{name}-390")
            if (width := no_sideways_scrolling(viewer)) > PHONE["width"]:
                problems.append(f"{name}: {width} px wide on a phone")
        assert not problems, "\n".join(problems)
    finally:
        admin_context.close()
        visitor_context.close()
        page.set_viewport_size(SCREENS[0])
