"""A New Beginning (variant, RULING V4): instead of starting parcels, everyone shops in secret with $50 and one
cowboy; the baskets are revealed together, then the parcels bought are placed in turn order, one at a time.

What a basket costs and buys is `app.rules.shop`'s; the Marksman bought there rolls in `duels.throw`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.catalog import COWBOYS_PER_PLAYER, PROPERTY_TILES, SHOP, SHOP_EXCLUSIVE
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import gain, replace, update_player
from app.rules.events import (
    Event,
    ParcelPickForfeited,
    ShopItemAdded,
    ShopItemRemoved,
    ShoppingFinished,
    ShoppingRevealed,
)
from app.rules.model import GameState
from app.rules.registry import Step, declines, handles, lists, move_handler, runs
from app.rules.rng import Rng
from app.rules.shop import basket_balance, next_picker, shopping_revealed
from app.rules.spots import claimable
from app.rules.steps import awaits, completed
from app.rules.supply import roads_in_supply

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Decline, Move, ShopAdd, ShopDone, ShopRemove


# --- the shopping ---------------------------------------------------------------------------------------------


@runs("shopping")
def _shopping_step(s: GameState) -> Step:
    """Everyone shops in secret; the baskets are revealed together (RULING V4)."""
    if not s.config.new_beginning:
        return None
    missing = tuple(p.seat for p in s.players if p.seat not in s.shopping_done)
    if missing:
        return Awaiting(Decision.SHOPPING, missing)
    return completed(s, shopping_revealed(s))


@lists(Decision.SHOPPING)
def _shopping(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Add one item, take one back, or be done (RULING V4)."""
    basket = s.baskets.get(seat, {})
    money = basket_balance(s, seat)
    p = s.players[seat]
    caps = {
        "cowboy": COWBOYS_PER_PLAYER - p.cowboys,
        "parcel": PROPERTY_TILES,
        "road": roads_in_supply(s),
    }
    moves: list[Move] = []
    for item in SHOP.values():
        have = basket.get(item.item, 0)
        cap = caps.get(item.item, item.limit)
        if cap is not None and have >= cap:
            continue
        if item.item == "marksman" and s.config.might_is_right:
            continue  # no dice to roll in Might Is Right (decision D22)
        if any(item.item in pair and any(basket.get(o, 0) for o in pair if o != item.item) for pair in SHOP_EXCLUSIVE):
            continue
        if item.price <= money:
            moves.append({"type": "shop_add", "item": item.item})
    for name, have in sorted(basket.items()):
        if have and money + SHOP[name].price >= 0:
            moves.append({"type": "shop_remove", "item": name})
    moves.append({"type": "shop_done"})
    return moves


@move_handler("shop_add")
def _shop_add(s: GameState, seat: int, move: ShopAdd, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "shop_item_added", "seat": seat, "item": move["item"]}]


@move_handler("shop_remove")
def _shop_remove(s: GameState, seat: int, move: ShopRemove, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "shop_item_removed", "seat": seat, "item": move["item"]}]


@move_handler("shop_done")
def _shop_done(s: GameState, seat: int, move: ShopDone, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "shopping_finished", "seat": seat}]


def _basket_change(s: GameState, seat: int, item: str, change: int) -> GameState:
    baskets = {k: dict(v) for k, v in s.baskets.items()}
    basket = baskets.setdefault(seat, {})
    basket[item] = basket.get(item, 0) + change
    return replace(s, baskets=baskets)


@handles("shop_item_added")
def _shop_item_added(s: GameState, e: ShopItemAdded) -> GameState:
    return _basket_change(s, e["seat"], e["item"], 1)


@handles("shop_item_removed")
def _shop_item_removed(s: GameState, e: ShopItemRemoved) -> GameState:
    return _basket_change(s, e["seat"], e["item"], -1)


@handles("shopping_finished")
def _shopping_finished(s: GameState, e: ShoppingFinished) -> GameState:
    return replace(s, shopping_done=s.shopping_done | {e["seat"]})


@handles("shopping_revealed")
def _shopping_revealed(s: GameState, e: ShoppingRevealed) -> GameState:
    for basket in e["baskets"]:
        items = basket["items"]
        s = gain(s, basket["seat"], money=basket["money"], vp=basket["vp"], roads=basket["roads"],
                 cowboys=items.get("cowboy", 0), revolvers=items.get("revolver", 0))
        s = update_player(s, basket["seat"], picks=items.get("parcel", 0), marksman=bool(items.get("marksman")))
    return replace(s, baskets={}, turn=next_picker(s, None))


# --- the parcel picks (a pick is claimed with `claim_parcel`, the base game's move) ----------------------------


@runs("parcel_picks")
def _parcel_picks_step(s: GameState) -> Step:
    """The parcels bought are placed in turn order, one at a time (RULING V4)."""
    if not s.config.new_beginning or s.turn is None:
        return None
    return awaits(Decision.PARCEL_PICK, s.turn)


@lists(Decision.PARCEL_PICK)
def _parcel_pick(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """An owner-free parcel; with none left, the pick is given up for its price."""
    return claimable(s, seat) or [{"type": "decline"}]


@declines(Decision.PARCEL_PICK)
def _forfeit_pick(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "parcel_pick_forfeited", "seat": seat, "refund": SHOP["parcel"].price}]


@handles("parcel_pick_forfeited")
def _parcel_pick_forfeited(s: GameState, e: ParcelPickForfeited) -> GameState:
    p = s.players[e["seat"]]
    s = update_player(s, e["seat"], picks=p.picks - 1, money=p.money + e["refund"])
    return replace(s, turn=next_picker(s, e["seat"]))
