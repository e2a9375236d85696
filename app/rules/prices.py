"""Prices (`000` "Parcel purchase", "Building construction", "Chinese worker", "Hints"): what a parcel and a
construction square's building cost now, and what a player's cowboys stand to buy."""

from __future__ import annotations

from typing import Final

from app.rules.board import NEIGHBOURS
from app.rules.catalog import CONSTRUCTION_PRICE, PERSONALITIES
from app.rules.model import GameState


def parcel_price(s: GameState, index: int) -> int:
    """$1 plus $1 per building, house or mountain on the parcel or around it, diagonals included
    (`000` "Parcel purchase"); at most a card's cap (the red Indian, `parcel_price_cap`)."""
    parcels = s.parcels
    price = 1 + (parcels[index].content is not None)
    for n in NEIGHBOURS[index]:  # a plain loop: a comprehension is a function made at every call, dearer here
        if parcels[n].content is not None:
            price += 1
    cap = s.memo["price_cap"] if "price_cap" in s.memo else parcel_price_cap(s)  # its memo read here
    return price if cap is None else min(price, cap)


def parcel_price_cap(s: GameState) -> int | None:
    """The lowest cap a card of this game puts on every parcel's price, on the side it shows: the red Indian's $3
    "regardless of any modifiers" holds for the whole game, whoever holds the card this round (`001` "The Indian
    (8)", RULING G10, decision D40). Memoised per state."""
    if "price_cap" in s.memo:
        cap: int | None = s.memo["price_cap"]
        return cap
    cap = None
    for (card, colour), limit in _PRICE_CAPS.items():  # a plain loop over one or two sides, asked at every price
        if card in s.cards and s.sides.get(card) == colour and (cap is None or limit < cap):
            cap = limit
    s.memo["price_cap"] = cap
    return cap


# The card sides that cap a parcel's price: a state looks at these few, not at every card of its game.
_PRICE_CAPS: Final = {
    (card, colour): side.parcel_price_cap
    for card, p in PERSONALITIES.items()
    for colour, side in (("yellow", p.yellow), ("red", p.red))
    if side.parcel_price_cap is not None
}


def building_price(s: GameState, seat: int, square: str) -> int:
    """The square's price; the (yellow) Chinese Worker pays half, rounded up (`000` "Chinese worker")."""
    price = CONSTRUCTION_PRICE[square]
    return (price + 1) // 2 if s.holds(seat, "chinese_worker", "yellow") else price


def placement_cost(s: GameState, seat: int) -> int:
    """What the parcels and buildings under `seat`'s cowboys would cost them now (`000` "Hints": the sum
    shown during cowboy placement)."""
    parcels = sum(
        parcel_price(s, index)
        for index, cowboys in s.parcel_cowboys.items()
        if index != s.city_hall and s.parcels[index].owner is None and not s.parcels[index].outlaw
        and any(c.seat == seat for c in cowboys)
    )
    buildings = sum(
        building_price(s, seat, square)
        for square in CONSTRUCTION_PRICE
        if any(c.seat == seat for c in s.squares.get(square, ()))
    )
    return parcels + buildings
