"""An auction played by clicking (issue "Gold & Guns and the Outlaws", Tests; R-GG-11, RULING G8): a game with
Gold & Guns is fast-forwarded through the API to the choice of cards; the player who takes the Auctioneer clicks
the card, puts the two auction chips on the board, opens the bidding; the other player passes; the log and the
board of both pages say who took the parcels and what was paid."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser, Page, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import LiveServer
from tests.browser.helpers import click_and_wait, fast_forward, sign_up

VARIANTS = {"expansions": ["gold_and_guns"], "characters": [1, 2, 3, 4, 5, 6, 12]}
NAMES = ("rosa", "sam")
SEED = 12


def to_the_auctioneer() -> tuple[list[tuple[int, Move]], int]:
    """Moves up to the first time a seat may take the Auctioneer, and that seat."""
    chooser = random.Random(SEED)
    state = replay(new_game(GameConfig.from_variants(2, VARIANTS), SEED))
    moves: list[tuple[int, Move]] = []
    while True:
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        if {"type": "choose_personality", "card": "auctioneer"} in legal:
            return moves, seat
        move = chooser.choice([m for m in legal if m.get("card") != "auctioneer"] or legal)
        _, state = play(state, seat, move, Rng(SEED, state.seq))
        moves.append((seat, move))


def choose(page: Page, others: list[Page], name: str) -> None:
    """Click the decision's button `name`, or pick it from the decision's list and confirm."""
    button = page.locator("#decision button", has_text=name)
    if button.count():
        click_and_wait(page, button.first, others)
        return
    select = page.locator("#decision select").first
    option = select.locator("option", has_text=name).first
    select.select_option(value=option.get_attribute("value"))
    click_and_wait(page, page.locator("#decision button", has_text="Confirm").first, others)


def test_an_auction_by_clicking(browser: Browser, live: LiveServer, shots: Any) -> None:
    moves, auctioneer_seat = to_the_auctioneer()
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    try:
        for page, name in zip(pages, NAMES, strict=True):
            page.on("dialog", lambda dialog: dialog.accept())
            sign_up(page, live.url, name)
        played = fast_forward(live.url, "Auction", list(NAMES), SEED, moves, VARIANTS)
        game, name_of = played.game, played.names
        auctioneer = pages[NAMES.index(name_of[auctioneer_seat])]
        bidder = pages[1 - NAMES.index(name_of[auctioneer_seat])]
        for page in pages:
            page.goto(f"{live.url}/games/{game['id']}")
        choose(auctioneer, [bidder], "Choose the Auctioneer")
        chips = []
        for _ in range(2):  # the two parcels, clicked on the board
            spot = auctioneer.locator("svg .target[role=button]").first
            chips.append(spot.get_attribute("data-target"))
            click_and_wait(auctioneer, spot, [bidder])
        expect(bidder.locator("svg .piece.auction-chip")).to_have_count(2)
        shots(auctioneer, "17-auction-chips-placed")
        choose(auctioneer, [bidder], "Bid $3")
        expect(bidder.locator("#auction")).to_contain_text("High bid: " + name_of[auctioneer_seat] + " $3")
        expect(bidder.locator("#turn-status")).to_contain_text("Your turn")
        shots(bidder, "18-auction-bidding")
        choose(bidder, [auctioneer], "Pass")
        for page in pages:
            expect(page.locator(".log")).to_contain_text("wins the auction for $3")
        owner = f"Property of {name_of[auctioneer_seat]}"
        for chip in chips:
            x, y = chip.removeprefix("p").split("-")
            expect(bidder.locator(f"#parcel-{x}-{y} .piece.property")).to_have_attribute("aria-label", owner)
    finally:
        for context in contexts:
            context.close()
