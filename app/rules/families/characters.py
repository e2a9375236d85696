"""The Gold & Guns characters' own moves and events (`001` "New Characters"; RULINGS G1, G9, G10, G12, G17): the
yellow Prospector's mine, the red Governor's tax, the red Singer's cowboy and its gamble, the Indian's parcels by
dice, and a card turned to its other side.

What the cards compute (the Indian's dice, the mine's sources and sites, the Governor's road VP and tax) is
`app.rules.characters`'s; what a card does the moment it is chosen, `characters.on_choosing`. The yellow Singer's
"no duel" chips are placed with the base game's move (`legal`) and act first on their square (`flow`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.board import parcel_xy
from app.rules.catalog import CONSTRUCTION_INDEX, PERSONALITIES, PROSPECTOR_PRICE
from app.rules.characters import (
    GAMBLING,
    MINE_REVOLVERS,
    mine_sources,
    prospect_sites,
    singer_cowboy_on,
    singer_gambles,
    tax_payments,
)
from app.rules.construction import has_property_tile
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import add_dynamite, evolve, gain, index_of, replace, set_parcel
from app.rules.events import (
    CardFlipped,
    Event,
    IndianParcelsTaken,
    MineProspected,
    SingerGambled,
    TaxCollected,
)
from app.rules.model import GameState
from app.rules.registry import Step, declines, handles, lists, move_handler
from app.rules.rng import Rng
from app.rules.supply import refill_event

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import CollectTax, Decline, Move, PlaceSingerCowboy, ProspectMine

# --- the Indian (R-GG-17, R-GG-18) and a card turned over ---------------------------------------------------------


@handles("indian_parcels_taken")
def _indian_parcels_taken(s: GameState, e: IndianParcelsTaken) -> GameState:
    for spot in e["parcels"]:
        s = set_parcel(s, index_of(spot), owner=e["seat"])
    return s


@handles("card_flipped")
def _card_flipped(s: GameState, e: CardFlipped) -> GameState:
    """The card shows its other side for the rest of the game; its holder is asked what that side asks, if
    anything."""
    s = replace(s, sides={**s.sides, e["card"]: e["side"]})
    if "dynamite" in e:
        s = add_dynamite(s, e["seat"], e["dynamite"])
    side = PERSONALITIES[e["card"]].side(e["side"])
    return replace(s, card_decision=e["seat"] if side.decision else None)


# --- the Prospector (R-GG-4) -------------------------------------------------------------------------------------


@lists(Decision.PROSPECTOR)
def _prospector(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The yellow Prospector: pay $10 for a mine (a construction square's, else the bag's) and build it on an
    owner-free parcel, which the holder may not decline (RULING G17, decision D44); without $10, a property tile
    or a parcel for it, nothing happens: the only move, declining, is played at once (D1)."""
    moves: list[Move] = []
    if s.players[seat].money < PROSPECTOR_PRICE or not has_property_tile(s, seat):
        return [{"type": "decline"}]
    for square in mine_sources(s):
        for index in prospect_sites(s):
            x, y = parcel_xy(index)
            move: ProspectMine = {"type": "prospect_mine", "x": x, "y": y}
            if square is not None:
                move["square"] = square
            moves.append(move)
    return moves or [{"type": "decline"}]


@move_handler("prospect_mine")
def _prospect_mine(s: GameState, seat: int, move: ProspectMine, rng: Rng, kind: Decision) -> list[Event]:
    """The yellow Prospector's mine; taken from a square, the others slide and one is drawn, as for the red
    Chinese Worker (decision D14)."""
    event: MineProspected = {"type": "mine_prospected", "seat": seat, "x": move["x"], "y": move["y"],
                             "price": PROSPECTOR_PRICE, "revolvers": MINE_REVOLVERS}
    if "square" not in move:
        return [event]
    event["square"] = move["square"]
    return [event, refill_event(evolve(s, event), rng)]


@declines(Decision.PROSPECTOR)
def _no_mine(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "card_decision_declined", "seat": seat}]


@handles("mine_prospected")
def _mine_prospected(s: GameState, e: MineProspected) -> GameState:
    """The mine leaves its square (or the bag) for an owner-free parcel, which becomes the Prospector's."""
    if "square" in e:
        construction = list(s.construction)
        construction[CONSTRUCTION_INDEX[e["square"]]] = None
        s = replace(s, construction=tuple(construction))
    else:
        s = replace(s, bag={**s.bag, "mine": s.bag["mine"] - 1})
    s = set_parcel(s, index_of(e), owner=e["seat"], content="mine")
    s = gain(s, e["seat"], money=-e["price"], revolvers=e["revolvers"])
    return replace(s, card_decision=None)


# --- the Governor (R-GG-13, R-GG-14; his road VP is the road's, `families.construction`) ------------------------


@lists(Decision.GOVERNOR_RED)
def _governor_red(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The red Governor taxes revolvers or money (`001` "The Governor (13)", variant)."""
    return [{"type": "collect_tax", "tax": "revolvers"}, {"type": "collect_tax", "tax": "money"}]


@move_handler("collect_tax")
def _collect_tax(s: GameState, seat: int, move: CollectTax, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "tax_collected", "seat": seat, "tax": move["tax"], "payments": tax_payments(s, seat, move["tax"])}]


@handles("tax_collected")
def _tax_collected(s: GameState, e: TaxCollected) -> GameState:
    for pay in e["payments"]:
        s = gain(s, pay["seat"], money=-pay["amount"])
    s = gain(s, e["seat"], money=sum(pay["amount"] for pay in e["payments"]))
    return replace(s, card_decision=None)


# --- the red Singer (R-GG-10) ------------------------------------------------------------------------------------


@move_handler("place_singer_cowboy")
def _place_singer_cowboy(s: GameState, seat: int, move: PlaceSingerCowboy, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "cowboy_placed", "seat": seat, "white": False, "square": GAMBLING, "singer": True}]


def singer_step(s: GameState) -> Step:
    """At Gambling income, the red Singer's cowboy acts first and never duels (`001` "The Singer (11)", decision
    D43); None when it is not there, and the square is resolved as usual."""
    singer = singer_cowboy_on(s, GAMBLING)
    if singer is None:
        return None
    return lambda rng: [singer_gambles(singer, rng)]


@handles("singer_gambled")
def _singer_gambled(s: GameState, e: SingerGambled) -> GameState:
    """The Singer's cowboy has acted; the other cowboys on Gambling income are resolved after it."""
    squares = dict(s.squares)
    squares[GAMBLING] = tuple(c for c in squares[GAMBLING] if not c.singer)
    return replace(gain(s, e["seat"], money=e["amount"]), squares=squares)
