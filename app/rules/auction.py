"""The Auctioneer's auctions (`001` "The Auctioneer (12)", RULING G8; decisions D65-D70): what is auctioned, who
may bid and how much, whose bid comes next, and what the last bidder pays and takes.

The lot's terms are a catalog row (`AUCTION_LOTS`), so the yellow parcels and the red 3-guns chip share every
rule here; the auction lives in `GameState.auction` from the card's choice to its settlement, all within the
choice of the personalities.
"""

from __future__ import annotations

from app.rules.board import parcel_xy
from app.rules.catalog import AUCTION_LOTS, AUCTION_MIN_BID, PROPERTY_TILES
from app.rules.construction import owner_free_land, parcels_owned
from app.rules.events import AuctionClosed, AuctionOpened
from app.rules.model import Auction, GameState, about_parcels

CHIP_SQUARE = "ammunition"  # where the 3-guns chip is otherwise won (RULING B14)


def auction_opened(s: GameState, seat: int, lot: str) -> AuctionOpened | None:
    """The auction the card opens at once: as many parcels as its lot names, or fewer when fewer could be bought
    (decision D67); with none to auction, none is opened."""
    wanted = AUCTION_LOTS[lot].parcels
    size = min(wanted, len(auction_parcel_choices(s)))
    if wanted and not size:
        return None
    return {"type": "auction_opened", "seat": seat, "lot": lot, "size": size}


def auction_parcel_choices(s: GameState) -> tuple[int, ...]:
    """Parcels the Auctioneer may put an auction chip on: those that could be bought — owner-free land off the
    river, without an outlaw, not the City Hall's (RULING G8) — and not already chosen."""
    chosen = s.auction.parcels if s.auction is not None else ()
    return tuple(i for i in about_parcels(s, owner_free_land) if i not in chosen)


def high_bid(a: Auction) -> tuple[int, int] | None:
    """The highest bid so far, (seat, amount): each bid exceeds the one before, so it is the last."""
    return a.bids[-1] if a.bids else None


def bid_amounts(s: GameState, seat: int) -> range:
    """What `seat` may bid now: more than the last bid (at least the opening bid, decision D66), at most the
    money they have (RULING G8); nothing for a player with fewer property tiles left than the lot's parcels
    (RULING G8, added 2026-12-01)."""
    a = s.auction
    assert a is not None
    if PROPERTY_TILES - parcels_owned(s, seat) < a.size:
        return range(0)
    high = high_bid(a)
    lowest = high[1] + 1 if high is not None else AUCTION_MIN_BID
    return range(lowest, s.players[seat].money + 1)


def next_bidder(a: Auction, after: int, players: int) -> int | None:
    """Whose bid comes after `after`: the next player in seat order who has not passed (RULING G8: "a pass is
    final"); None when the bidding is over — only the high bidder is left, or everybody passed."""
    high = high_bid(a)
    for k in range(1, players + 1):
        seat = (after + k) % players
        if seat not in a.passed:
            return None if high is not None and seat == high[0] else seat
    return None


def auction_closed(s: GameState) -> AuctionClosed:
    """The settlement once the bidding is over: the last bidder pays the bid, half rounded down to the bank and
    half rounded up to the Auctioneer when the lot says so, else all of it to the Auctioneer (RULING G8); the
    Auctioneer winning keeps his own share. Nobody bid: nothing happens."""
    a = s.auction
    assert a is not None and a.turn is None
    high = high_bid(a)
    winner, amount = high if high is not None else (None, 0)
    bank = amount // 2 if AUCTION_LOTS[a.lot].bank_half else 0
    return {
        "type": "auction_closed", "seat": a.seat, "lot": a.lot, "winner": winner, "amount": amount,
        "bank": bank, "auctioneer_gets": amount - bank,
        "parcels": [{"x": x, "y": y} for x, y in map(parcel_xy, a.parcels)],
    }
