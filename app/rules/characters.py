"""The Gold & Guns characters (`001` "New Characters", "The Indian"; RULINGS G1, G10, G12): what the cards do that
the base game's rules do not already read from their catalog row; and what any card gives and does the moment it
is chosen or copied (`card_gains`, `on_choosing`).

Each rule reads a field of the holder's side (`catalog.Side`), never the card's name, so a side is switched on or
off in the catalog alone. The dice are rolled with the generator of the decision and written into the event.
"""

from __future__ import annotations

from app.rules.auction import auction_opened
from app.rules.board import PARCELS_AT, Edge, parcel_index, parcel_xy, reached_parcels
from app.rules.catalog import (
    BUILDINGS,
    CONSTRUCTION_SQUARES,
    GOVERNOR_TAX_MONEY_STEP,
    GOVERNOR_TAX_PER_ITEM,
    PERSONALITIES,
    PROPERTY_TILES,
    Side,
)
from app.rules.construction import parcels_owned
from app.rules.dynamite import chips_received
from app.rules.events import CardFlipped, CardGains, Event, IndianParcelsTaken, SingerGambled, TaxPayment
from app.rules.model import GameState, Parcel, about_parcels, about_roads
from app.rules.rng import Rng
from app.rules.supply import roads_in_supply

MINE = "mine"
GAMBLING = "gambling_income"
INNER = frozenset(parcel_index(x, y) for x in range(2, 8) for y in range(2, 8))  # what two dice address (B1)


def card_gains(s: GameState, side: Side) -> CardGains:
    """What a side gives at once, written into the event of its choice or its copy."""
    gains: CardGains = {}
    if side.money:
        gains["money"] = side.money
    if side.roads:
        gains["roads"] = min(side.roads, roads_in_supply(s))  # a gain beyond the supply is lost (RULING B3)
    if chips := chips_received(s, side):  # the red Prospector's and Gunsmith's dynamite (RULING G7)
        gains["dynamite"] = chips
    if side.no_duel_chips:
        gains["no_duel_chips"] = side.no_duel_chips
    if side.horses:  # Big Box's Cowboy: a horse into the reserve (RULING X6)
        gains["horses"] = side.horses
    return gains


def on_choosing(s: GameState, seat: int, card: str, side: Side, rng: Rng) -> list[Event]:
    """What a card does by itself the moment it is chosen, beyond what it gives (`card_gains`)."""
    events: list[Event] = []
    if side.parcels_by_dice:
        taken = indian_parcels(s, seat, side.parcels_by_dice, rng)
        if taken["parcels"]:
            events.append(taken)
    if side.flips_without_mine and not mine_sources(s):
        flipped: CardFlipped = {"type": "card_flipped", "seat": seat, "card": card, "side": "red"}
        if chips := chips_received(s, PERSONALITIES[card].red):  # the red side's chips, at once (decision D58)
            flipped["dynamite"] = chips
        events.append(flipped)
    if side.auction:  # the Auctioneer (RULING G8): the auction opens at once
        opened = auction_opened(s, seat, side.auction)
        if opened is not None:
            events.append(opened)
    return events


# --- the Indian (R-GG-17, R-GG-18) ------------------------------------------------------------------------------


def _owner_free_empty_land(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """Owner-free land without content and without an outlaw (RULINGS G4, G10): where the Indian's parcels and the
    Prospector's mine may go."""
    return tuple(
        i
        for i, parcel in enumerate(parcels)
        if parcel.owner is None and parcel.content is None and not parcel.river and not parcel.outlaw
    )


def _dice_land(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """Parcels the Indian's dice may give: on the inner 6 x 6 the dice address (RULING B1), owner-free, land, and
    without content and without an outlaw (RULING G10)."""
    return tuple(i for i in _owner_free_empty_land(parcels) if i in INNER)


def indian_parcels(s: GameState, seat: int, count: int, rng: Rng) -> IndianParcelsTaken:
    """`count` parcels by dice (white die d -> column d + 1, black die d -> row d + 1), each rolled again until it
    is one the Indian may take (RULING G10). As many as the holder has property tiles for and as exist: when none
    is left the dice stop (decision D41), so the rolls always end."""
    free = set(about_parcels(s, _dice_land))
    count = min(count, PROPERTY_TILES - parcels_owned(s, seat))
    taken: list[int] = []
    dice: list[list[int]] = []
    while len(taken) < count and free:
        white, black = rng.die(), rng.die()
        dice.append([white, black])
        index = parcel_index(white + 1, black + 1)
        if index in free:
            free.discard(index)
            taken.append(index)
    return {"type": "indian_parcels_taken", "seat": seat,
            "parcels": [{"x": x, "y": y} for x, y in map(parcel_xy, taken)], "dice": dice}


# --- the Prospector (R-GG-4) ------------------------------------------------------------------------------------


def mine_sources(s: GameState) -> list[str | None]:
    """Where the Prospector's mine may come from: the construction squares holding a mine, the holder's choice
    among them; with none there, the bag (None) if it still holds one (`001` "The Prospector (9)")."""
    squares: list[str | None] = [
        c.square for c, building in zip(CONSTRUCTION_SQUARES, s.construction, strict=True) if building == MINE
    ]
    if squares:
        return squares
    return [None] if s.bag.get(MINE, 0) > 0 else []


def prospect_sites(s: GameState) -> tuple[int, ...]:
    """Where the Prospector may build the mine: any owner-free, empty land parcel; a mine needs no road (RULING
    B11)."""
    return about_parcels(s, _owner_free_empty_land)


MINE_REVOLVERS = BUILDINGS[MINE].revolvers  # taken when the mine is placed (RULING B11)


# --- the Governor (R-GG-13, R-GG-14) ----------------------------------------------------------------------------


def road_vp(s: GameState, seat: int, road: Edge, pieces: int) -> int:
    """The yellow Governor's VP for a road just placed: 1 per road piece (2 for a bridge) when the road reaches a
    land parcel no road reached before (`001` "The Governor (13)", RULINGS G12, B3)."""
    side = s.side(seat)
    if side is None or not side.road_vp:
        return 0
    before = about_roads(s, reached_parcels)
    new = {i for point in ((road[0], road[1]), (road[2], road[3])) for i in PARCELS_AT[point] if i not in before}
    if not any(not s.parcels[i].river for i in new):
        return 0
    return side.road_vp * pieces


def tax_payments(s: GameState, seat: int, tax: str) -> list[TaxPayment]:
    """The red Governor's tax on every other player: $1 per revolver chip (the Mercenary's firepower is no chip)
    or $1 per full or started $10 (RULING G12); nobody pays more than they have (decision D42)."""
    payments: list[TaxPayment] = []
    for p in s.players:
        if p.seat == seat:
            continue
        due = GOVERNOR_TAX_PER_ITEM * (p.revolvers if tax == "revolvers" else -(-p.money // GOVERNOR_TAX_MONEY_STEP))
        payments.append({"seat": p.seat, "amount": min(due, p.money)})
    return payments


# --- the Singer (R-GG-10) ---------------------------------------------------------------------------------------


def singer_cowboy_on(s: GameState, square: str) -> int | None:
    """The seat whose red Singer's cowboy stands on `square`, if one does."""
    return next((c.seat for c in s.squares.get(square, ()) if c.singer), None)


def may_place_singer_cowboy(s: GameState, seat: int) -> bool:
    """The red Singer places the cowboy from the general reserve once a round, on Gambling income, where they
    have no cowboy of their own (one cowboy per player on a square, RULING B7; decision D43)."""
    if not s.singer_cowboy:  # nobody holds the red Singer, or its cowboy is placed
        return False
    side = s.side(seat)
    return side is not None and side.lucky_cowboy and not any(c.seat == seat for c in s.squares.get(GAMBLING, ()))


def singer_gambles(seat: int, rng: Rng) -> SingerGambled:
    """The Singer's cowboy wins the product of two dice, $1 to $36 (`001` "The Singer (11)", variant)."""
    dice = [rng.die(), rng.die()]
    return {"type": "singer_gambled", "seat": seat, "dice": dice, "amount": dice[0] * dice[1]}
