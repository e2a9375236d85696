"""The Auctioneer's auctions (Gold & Guns, `001` "The Auctioneer (12)"; RULING G8): the card opens an auction the
moment it is chosen, within the choice of the personalities: the Auctioneer chooses the parcels one by one, then
the players bid in seat order until all but one have passed, then the settlement.

The lot, the amounts, whose bid is next and the settlement are `app.rules.auction`'s; the auction is opened by
the card (`characters.on_choosing`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.auction import auction_closed, auction_parcel_choices, bid_amounts, next_bidder
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import gain, index_of, replace, set_parcel
from app.rules.events import AuctionClosed, AuctionOpened, AuctionParcelChosen, BidMade, BidPassed, Event
from app.rules.model import Auction, GameState
from app.rules.registry import Step, handles, lists, move_handler
from app.rules.rng import Rng
from app.rules.spots import xy
from app.rules.steps import at_once, awaits

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import AuctionParcel, Bid, BidPass, Move


def auction_step(s: GameState) -> Step:
    """The auction under way (decision D65): the parcels first, then one bidder at a time, then the settlement;
    the flow asks this while `auction` is set."""
    a = s.auction
    assert a is not None
    if len(a.parcels) < a.size:
        return awaits(Decision.AUCTION_PARCELS, a.seat)
    if a.turn is not None:
        return awaits(Decision.AUCTION_BID, a.turn)
    return at_once(auction_closed(s))


@handles("auction_opened")
def _auction_opened(s: GameState, e: AuctionOpened) -> GameState:
    """The chip's bidding starts at once with the Auctioneer; parcels are chosen first."""
    turn = None if e["size"] else e["seat"]
    return replace(s, auction=Auction(e["seat"], e["lot"], size=e["size"], turn=turn))


# --- the parcels ----------------------------------------------------------------------------------------------


@lists(Decision.AUCTION_PARCELS)
def _auction_parcels(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The Auctioneer's parcels, one at a time, among those that could be bought (RULING G8)."""
    return [{"type": "auction_parcel", **xy(index)} for index in auction_parcel_choices(s)]


@move_handler("auction_parcel")
def _auction_parcel(s: GameState, seat: int, move: AuctionParcel, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "auction_parcel_chosen", "seat": seat, "x": move["x"], "y": move["y"]}]


@handles("auction_parcel_chosen")
def _auction_parcel_chosen(s: GameState, e: AuctionParcelChosen) -> GameState:
    """With the last parcel chosen, the bidding starts with the Auctioneer."""
    a = s.auction
    assert a is not None
    parcels = (*a.parcels, index_of(e))
    return replace(s, auction=replace(a, parcels=parcels, turn=a.seat if len(parcels) == a.size else None))


# --- the bids -------------------------------------------------------------------------------------------------


@lists(Decision.AUCTION_BID)
def _auction_bid(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Every amount the bidder may bid, as every amount is listed for the cash limit and the VP squares (decision
    D66), and the pass, which is final (RULING G8)."""
    moves: list[Move] = [{"type": "bid", "amount": amount} for amount in bid_amounts(s, seat)]
    moves.append({"type": "bid_pass"})
    return moves


@move_handler("bid")
def _bid(s: GameState, seat: int, move: Bid, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "bid_made", "seat": seat, "amount": move["amount"]}]


@move_handler("bid_pass")
def _bid_pass(s: GameState, seat: int, move: BidPass, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "bid_passed", "seat": seat}]


@handles("bid_made")
def _bid_made(s: GameState, e: BidMade) -> GameState:
    a = s.auction
    assert a is not None
    a = replace(a, bids=(*a.bids, (e["seat"], e["amount"])))
    return replace(s, auction=replace(a, turn=next_bidder(a, e["seat"], len(s.players))))


@handles("bid_passed")
def _bid_passed(s: GameState, e: BidPassed) -> GameState:
    a = s.auction
    assert a is not None
    a = replace(a, passed=a.passed | {e["seat"]})
    return replace(s, auction=replace(a, turn=next_bidder(a, e["seat"], len(s.players))))


# --- the settlement -------------------------------------------------------------------------------------------


@handles("auction_closed")
def _auction_closed(s: GameState, e: AuctionClosed) -> GameState:
    """The winner pays the bid and the Auctioneer receives his share (so the Auctioneer winning pays only the
    bank's part); the winner takes the parcels, or the 3-guns chip, which leaves Ammunition (decision D68)."""
    s = replace(s, auction=None)
    winner = e["winner"]
    if winner is None:
        return s
    s = gain(gain(s, winner, money=-e["amount"]), e["seat"], money=e["auctioneer_gets"])
    for spot in e["parcels"]:
        s = set_parcel(s, index_of(spot), owner=winner)
    if e["lot"] == "chip":
        s = replace(s, chip_holder=winner, chip_sold=True)
    return s
