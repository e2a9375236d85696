"""A New Beginning's shop (`000` "A new beginning"; RULING V4): what a basket costs while it is filled, what
every basket buys when they are revealed together, and who places a parcel bought next."""

from __future__ import annotations

from app.rules.catalog import SHOP
from app.rules.events import Basket, ShoppingRevealed
from app.rules.model import GameState
from app.rules.supply import roads_in_supply


def basket_balance(s: GameState, seat: int) -> int:
    """Money left after the basket so far."""
    basket = s.baskets.get(seat, {})
    return s.players[seat].money - sum(SHOP[item].price * n for item, n in basket.items())


def shopping_revealed(s: GameState) -> ShoppingRevealed:
    """What every basket buys. Roads come from the common supply, in turn order; a road the supply cannot
    give is refunded (RULING B3, decision D21)."""
    supply = roads_in_supply(s)
    baskets: list[Basket] = []
    for seat in s.initial_order:
        basket = {item: n for item, n in sorted(s.baskets.get(seat, {}).items()) if n}
        roads = min(basket.get("road", 0), supply)
        supply -= roads
        refund = (basket.get("road", 0) - roads) * SHOP["road"].price
        cost = sum(SHOP[item].price * n for item, n in basket.items()) - refund
        vp = sum(SHOP[item].vp * n for item, n in basket.items())
        baskets.append({"seat": seat, "items": basket, "roads": roads, "money": -cost, "vp": vp})
    return {"type": "shopping_revealed", "baskets": baskets}


def next_picker(s: GameState, after: int | None) -> int | None:
    """The next player in turn order with a parcel pick left (RULING V4)."""
    order = s.initial_order
    start = -1 if after is None else order.index(after)
    for k in range(1, len(order) + 1):
        seat = order[(start + k) % len(order)]
        if s.players[seat].picks > 0:
            return seat
    return None
