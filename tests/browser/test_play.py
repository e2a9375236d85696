"""Two players in two browser contexts play by clicking; the waiting page follows live (R-ONL: the web table).

Screenshots of each stage are saved under tests/browser/artifacts/.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ARTIFACTS, LiveServer
from tests.browser.helpers import (
    TIMEOUT,
    board_seq,
    click_and_wait,
    create_game,
    fast_forward,
    is_acting,
    mark_no_reload,
    scripted_moves,
    sign_in,
    sign_in_admin,
    sign_up,
    wait_seq,
    was_not_reloaded,
)


def two_players(browser: Browser, live: LiveServer, names: tuple[str, str]) -> tuple[Any, Any, Page, Page]:
    contexts = (browser.new_context(), browser.new_context())
    pages = (contexts[0].new_page(), contexts[1].new_page())
    for page, name in zip(pages, names, strict=True):
        sign_up(page, live.url, name)
        page.on("dialog", lambda dialog: dialog.accept())  # "Pass with cowboys left?" and the like: yes
    return contexts[0], contexts[1], pages[0], pages[1]


def open_table(browser: Browser, live: LiveServer, name: str, pages: list[Page], players: list[str],
               **game: Any) -> tuple[Any, int]:
    """The admin (in a context of their own) creates a game for `players`; every page opens its table and is
    marked so that a reload would show. Returns the admin's context (to close) and the game id."""
    admin_ctx = browser.new_context()
    admin = admin_ctx.new_page()
    sign_in_admin(admin, live.url)
    game_id = create_game(admin, live.url, name, players, **game)
    for page in pages:
        page.goto(f"{live.url}/games/{game_id}")
        mark_no_reload(page)
    return admin_ctx, game_id


def actor_of(pages: list[Page]) -> tuple[Page, list[Page]]:
    acting = [p for p in pages if is_acting(p)]
    assert len(acting) == 1, "exactly one page should be awaited"
    return acting[0], [p for p in pages if p is not acting[0]]


def test_sign_up_sign_in_and_admin_form(browser: Browser, live: LiveServer, shots: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        sign_up(page, live.url, "carla")
        shots(page, "01-lobby-after-sign-up")
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("link", name="Sign in").first).to_be_visible()
        sign_in(page, live.url, "carla")
        page.goto(f"{live.url}/login")
        page.locator("input[name=username]").fill("carla")
        page.locator("input[name=password]").fill("not the password")
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("alert")).to_contain_text("wrong")
        sign_in_admin(page, live.url)
        page.goto(f"{live.url}/games/new")
        shots(page, "02-admin-new-game-form")
        page.locator("[name=name]").fill("Open table")
        page.locator("[name=seats]").select_option("3")
        page.locator("[name=sides]").select_option("vote")
        for label in ("Might Is Right", "The River", "A New Beginning"):
            page.get_by_label(label).check()
        page.get_by_role("button", name="Create the game").click()
        expect(page.get_by_role("heading", name="Open table")).to_be_visible()
        expect(page.locator(".badges")).to_contain_text("Sides by vote")
        expect(page.locator(".badges")).to_contain_text("The River")
        sign_in(page, live.url, "carla")
        expect(page.locator("#open-games")).to_contain_text("Open table")
        page.get_by_role("button", name="Join Open table").click()
        expect(page.get_by_text("Waiting for players")).to_be_visible()
    finally:
        context.close()


def test_two_players_play_the_opening_by_clicking(browser: Browser, live: LiveServer, shots: Any) -> None:
    ctx_a, ctx_b, anna, bert = two_players(browser, live, ("anna", "bert"))
    pages = [anna, bert]
    admin_ctx, _ = open_table(browser, live, "Opening", pages, ["anna", "bert"], seed=11)
    try:
        for page in pages:
            expect(page.locator("#board")).to_be_visible()
        shots(anna, "03-opening-start-anna")

        # Starting parcels: A, B, B, A — each by clicking a highlighted parcel on the board.
        for n in range(4):
            actor, others = actor_of(pages)
            expect(actor.locator("#turn-status")).to_contain_text("Your turn")
            expect(others[0].locator("#turn-status")).to_contain_text("Waiting for")
            seq = click_and_wait(actor, actor.locator("svg .target[role=button]").nth(5 + 9 * n), others)
            assert board_seq(others[0]) == seq
        shots(anna, "04-starting-parcels-anna")
        assert anna.locator("#board .parcel.owned").count() == 4

        # The waiting player saw the other's move and then "Your turn", without a reload.
        actor, others = actor_of(pages)
        expect(actor.locator("#turn-status")).to_contain_text("Your turn")
        expect(actor).to_have_title("▶ Your turn — Opening — Carson City")
        assert all(was_not_reloaded(p) for p in pages)

        # Personalities: the Banker and the Mercenary need no further decision.
        for card in ("Banker", "Mercenary"):
            actor, others = actor_of(pages)
            click_and_wait(actor, actor.get_by_role("button", name=f"Choose the {card}"), others)
        shots(bert, "05-personalities-bert")

        # A few placements, each by clicking a board parcel or a square's "Place here".
        for n in range(4):
            actor, others = actor_of(pages)
            expect(actor.locator("#decision")).to_contain_text("place a cowboy or pass")
            if n % 2:
                target = actor.get_by_role("button", name="Place a cowboy on Wages")
            else:
                target = actor.locator("svg .target[role=button]").nth(3 + 7 * n)
            click_and_wait(actor, target, others)
        shots(anna, "06-placements-anna")
        shots(bert, "06-placements-bert")
        expect(anna.locator(".log")).to_contain_text("places a cowboy on Wages")
        expect(anna.locator("#square-wages .meeple-inline")).to_have_count(2)
        assert all(was_not_reloaded(p) for p in pages)
    finally:
        for ctx in (ctx_a, ctx_b, admin_ctx):
            ctx.close()


def test_ones_own_move_replaces_the_board_once(browser: Browser, live: LiveServer) -> None:
    """The answer to a move brings the mover's board; the live stream, which announces the same move (often
    before that answer), fetches nothing more for it on the mover's page — a second replacement of the board
    could swallow the player's next click. The other page follows by fetching the board."""
    ctx_a, ctx_b, xena, yuri = two_players(browser, live, ("xena", "yuri"))
    pages = [xena, yuri]
    admin_ctx, game_id = open_table(browser, live, "Once", pages, ["xena", "yuri"], seed=11)
    board_gets: dict[int, int] = {id(p): 0 for p in pages}

    def counted(page: Page) -> Any:
        def on_request(request: Any) -> None:
            if request.method == "GET" and request.url.split("?")[0].endswith(f"/games/{game_id}"):
                board_gets[id(page)] += 1
        return on_request

    try:
        for page in pages:
            expect(page.locator("#board")).to_be_visible()
            page.on("request", counted(page))
        for n in range(4):  # the starting parcels, each clicked on the board
            actor, others = actor_of(pages)
            before = {key: value for key, value in board_gets.items()}
            click_and_wait(actor, actor.locator("svg .target[role=button]").nth(5 + 9 * n), others)
            actor.wait_for_timeout(400)  # time for a late stream message to fetch the board, were it to
            assert board_gets[id(actor)] == before[id(actor)], f"move {n}: the mover's board was fetched again"
            assert board_gets[id(others[0])] > before[id(others[0])]
        assert all(was_not_reloaded(p) for p in pages)
    finally:
        for ctx in (ctx_a, ctx_b, admin_ctx):
            ctx.close()


def test_stale_click_shows_a_message(browser: Browser, live: LiveServer, shots: Any) -> None:
    ctx_a, ctx_b, dora, emil = two_players(browser, live, ("dora", "emil"))
    pages = [dora, emil]
    admin_ctx, game_id = open_table(browser, live, "Stale", pages, ["dora", "emil"], seed=5)
    try:
        actor, _ = actor_of(pages)
        # A second tab of the acting player, cut off from the live stream, keeps the old board.
        stale = actor.context.new_page()
        stale.route("**/stream", lambda route: route.abort())
        stale.goto(f"{live.url}/games/{game_id}")
        old = board_seq(stale)
        actor.locator("svg .target[role=button]").first.click()
        actor.wait_for_function("old => document.getElementById('board').dataset.seq !== String(old)", arg=old)
        stale.locator("svg .target[role=button]").nth(10).click()
        expect(stale.locator("#notice")).to_contain_text("The game moved on", timeout=TIMEOUT)
        assert board_seq(stale) == board_seq(actor)  # the fresh board replaced the stale one
        expect(stale.locator("#turn-status")).to_contain_text("Waiting for")
        shots(stale, "07-stale-click-message")
    finally:
        for ctx in (ctx_a, ctx_b, admin_ctx):
            ctx.close()


def test_permission_request_asked_and_answered(browser: Browser, live: LiveServer, shots: Any) -> None:
    seed = 5
    moves, _ = scripted_moves(2, seed, "ask_permission")
    ctx_a, ctx_b, fred, gina = two_players(browser, live, ("fred", "gina"))
    try:
        # fast-forward through the API to the first permission request
        game = fast_forward(live.url, "Permission", ["fred", "gina"], seed, moves).game
        pages = [fred, gina]
        for page in pages:
            page.goto(f"{live.url}/games/{game['id']}")
        builder, (owner,) = actor_of(pages)
        asks = builder.locator("svg .target[role=button]", has=builder.locator("text.ask"))
        expect(asks.first).to_be_visible()
        shots(builder, "08-permission-builder-sees-question-marks")
        took = builder.locator("#board").get_attribute("data-render-ms")
        (ARTIFACTS / "render-ms.txt").write_text(f"table render (round 3, {board_seq(builder)} events): {took} ms\n")
        click_and_wait(builder, asks.first, [owner])
        expect(owner.locator("#turn-status")).to_contain_text("answer a request to build a house")
        # The request is said by the decision's stake (the line of the construction work would repeat it).
        expect(owner.locator("#decision .stake")).to_contain_text("asks to build the house of their")
        shots(owner, "09-permission-request-received")
        owner.goto(f"{live.url}/")
        expect(owner.locator("#my-games")).to_contain_text("answer a request to build a house")
        owner.go_back()
        allow = owner.get_by_role("button", name="Allow a house on").first
        label = allow.inner_text()
        click_and_wait(owner, allow, [builder])
        expect(builder.locator(".log")).to_contain_text("allows a house on")
        while owner.get_by_role("button", name="Refuse all remaining parcels").count():
            click_and_wait(owner, owner.get_by_role("button", name="Refuse all remaining parcels"), [builder])
        expect(builder.locator("#turn-status")).to_contain_text("Your turn")
        expect(builder.locator("#construction-work")).to_contain_text("Granted")
        shots(builder, "10-permission-granted")
        assert label.startswith("Allow a house on parcel")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_might_is_right_opening_with_secret_tiles(browser: Browser, live: LiveServer, shots: Any) -> None:
    ctx_a, ctx_b, hana, ivan = two_players(browser, live, ("hana", "ivan"))
    pages = [hana, ivan]
    admin_ctx, _ = open_table(browser, live, "Might", pages, ["hana", "ivan"], seed=21, might_is_right=True)
    try:
        for page in pages:
            expect(page.locator(".badges")).to_contain_text("Might Is Right")
        for n in range(4):  # by keyboard: each board spot is a focusable button
            actor, others = actor_of(pages)
            spot = actor.locator("svg .target[role=button]").nth(2 + 11 * n)
            click_and_wait(actor, spot, others, key="Enter" if n % 2 else " ")
        for card in ("Banker", "Mercenary"):
            actor, others = actor_of(pages)
            click_and_wait(actor, actor.get_by_role("button", name=f"Choose the {card}"), others)
        # Both place a cowboy on the same free parcel, then pass: the parcel purchase needs a duel.
        actor, others = actor_of(pages)
        spot = actor.locator("svg .target[role=button]").nth(20).get_attribute("data-target")
        click_and_wait(actor, actor.locator(f'svg .target[data-target="{spot}"]'), others)
        actor, others = actor_of(pages)
        click_and_wait(actor, actor.locator(f'svg .target[data-target="{spot}"]'), others)
        for _ in range(2):
            actor, others = actor_of(pages)
            click_and_wait(actor, actor.get_by_role("button", name="Pass (no more cowboys this round)"), others)
        # The secret, simultaneous tile choice: both are awaited at once.
        for page in pages:
            expect(page.locator("#turn-status")).to_contain_text("choose a duel tile")
        shots(hana, "11-might-is-right-tile-choice-hana")
        before = board_seq(hana)
        hana.get_by_role("button", name="Play tile 4").click()
        wait_seq(ivan, before + 1)
        wait_seq(hana, before + 1)
        hana_seat = hana.locator("#board").get_attribute("data-viewer")
        expect(ivan.locator(f"#player-{hana_seat}")).to_contain_text("tile chosen")
        expect(ivan.locator(f"#player-{hana_seat}")).to_contain_text("6 in hand")  # the value stays secret
        expect(ivan.locator(".log")).to_contain_text("has chosen a duel tile (secret)")
        expect(hana.locator(".log")).to_contain_text("plays tile 4")
        shots(ivan, "12-might-is-right-other-chose-secretly")
        click_and_wait(ivan, ivan.get_by_role("button", name="Play tile 5"), [hana])
        expect(hana.locator(".log")).to_contain_text("won the duel for parcel")
        expect(hana.locator(".log")).to_contain_text("tile + firepower")
        expect(hana.locator("#board")).to_contain_text("Used duel tiles: 2")  # a count only (RULING V2)
        shots(hana, "13-might-is-right-duel-revealed")
        assert all(was_not_reloaded(p) for p in pages)
    finally:
        for ctx in (ctx_a, ctx_b, admin_ctx):
            ctx.close()


SAFE_CHOICES = ("Pass", "Leave", "Keep the building", "Refuse all", "Buy no", "Decline")


def _click_a_choice(actor: Page, others: list[Page], rnd: random.Random) -> None:
    """Play one decision by clicking, like a bold player: mostly a move from a list (places cowboys, buys,
    builds) or a bold button, now and then the safest button (pass, leave, keep, refuse)."""
    decision = actor.locator("#decision")
    buttons = decision.locator("button[name=move]:visible")  # a folded board spot's buttons wait for its click
    labels = buttons.all_inner_texts()
    safe = [i for i, label in enumerate(labels) if label.startswith(SAFE_CHOICES)]
    bold = [i for i in range(len(labels)) if i not in safe]
    lists = decision.locator("form.choices:has(select)")
    if lists.count() and (not labels or rnd.random() < 0.7):
        form = lists.nth(rnd.randrange(lists.count()))
        options = form.locator("option")
        form.locator("select").select_option(index=rnd.randrange(options.count()))
        click_and_wait(actor, form.get_by_role("button", name="Confirm"), others)
    elif bold and (not safe or rnd.random() < 0.85):
        click_and_wait(actor, buttons.nth(rnd.choice(bold)), others)
    else:
        click_and_wait(actor, buttons.nth(rnd.choice(safe)), others)


def _click_to_the_end(pages: list[Page], rnd: random.Random, most: int) -> None:
    """Every decision a click by whoever is awaited, until the final score shows (in at most `most` clicks)."""
    for _ in range(most):
        if pages[0].locator("#score").count():
            return
        actor, others = actor_of(pages)
        _click_a_choice(actor, others, rnd)
    assert pages[0].locator("#score").count(), "the game should end"


def test_two_players_play_a_complete_game_by_clicking(browser: Browser, live: LiveServer, shots: Any) -> None:
    """A whole game in two browser contexts, every decision a click, each page following the other live, until
    both show the final score and the same winner (issue "Play in the browser": a complete game)."""
    ctx_a, ctx_b, ann, ben = two_players(browser, live, ("ann", "ben"))
    pages = [ann, ben]
    admin_ctx, _ = open_table(browser, live, "Whole game", pages, ["ann", "ben"], seed=5)
    try:
        _click_to_the_end(pages, random.Random(5), 400)
        shots(ann, "14-complete-game-final-score")
        for page in pages:
            expect(page.locator("#score")).to_contain_text("Final score")
            expect(page.locator("#score th.winner")).to_have_count(1)
        assert ann.locator("#score th.winner").inner_text() == ben.locator("#score th.winner").inner_text()
        assert all(was_not_reloaded(p) for p in pages)
    finally:
        for ctx in (ctx_a, ctx_b, admin_ctx):
            ctx.close()


def test_a_complete_game_with_both_expansions_by_clicking(browser: Browser, live: LiveServer, shots: Any) -> None:
    """Gold & Guns and the Outlaws on the admin's form, 7 characters drawn at random, the whole game played by
    clicking to the final score (issue "Gold & Guns and the Outlaws": "played to its end in the browser")."""
    ctx_a, ctx_b, gus, hal = two_players(browser, live, ("gus", "hal"))
    pages = [gus, hal]
    admin_ctx, _ = open_table(browser, live, "Gold and outlaws", pages, ["gus", "hal"], seed=8, sides="random",
                              expansions=("gold_and_guns", "outlaws"))
    try:
        expect(gus.locator(".badges")).to_contain_text("Gold & Guns")
        _click_to_the_end(pages, random.Random(8), 600)
        shots(gus, "19-both-expansions-final-score")
        for page in pages:
            expect(page.locator("#score th.winner")).to_have_count(1)
        assert all(was_not_reloaded(p) for p in pages)
    finally:
        for ctx in (ctx_a, ctx_b, admin_ctx):
            ctx.close()
