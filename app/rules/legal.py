"""legal_moves(state, seat): every move the seat may submit now — the single truth about legality.

A move is a JSON object with a "type"; `decide` accepts exactly the moves listed here. One function per kind
of decision, named after the decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from app.rules.auction import CHIP_SQUARE, auction_parcel_choices, bid_amounts
from app.rules.board import parcel_xy
from app.rules.cash_limit import cash_limit
from app.rules.catalog import (
    BANKER_VP_PRICES,
    BUILDINGS,
    BUY_VP_PRICE,
    BUY_VP_SQUARES,
    CAPTAIN_COWBOY_PRICES,
    CAPTAIN_REVOLVER_PRICES,
    CHINESE_WORKER_RED_PRICE,
    CONSTRUCTION_SQUARES,
    COWBOYS_PER_PLAYER,
    INCOME_BUILDINGS,
    NO_DUEL_CHIP_SQUARES,
    PERSONALITIES,
    PROPERTY_TILES,
    PROSPECTOR_PRICE,
    SHOP,
    SHOP_EXCLUSIVE,
    SQUARES,
    sided_cards,
)
from app.rules.characters import may_place_singer_cowboy, mine_sources, prospect_sites
from app.rules.city_hall import city_hall_sites, cowboys_away
from app.rules.construction import (
    askable_players,
    build_sites,
    buildable_roads,
    has_property_tile,
    house_targets,
    owner_free_land,
    road_edges,
)
from app.rules.decisions import Decision
from app.rules.defeats import burial_options, healing_price, is_unperformed
from app.rules.duels import purchase_singles, purchase_spots
from app.rules.dynamite import dynamite_moves, plays_two_tiles, tile_pairs, with_dynamite
from app.rules.events import XY
from app.rules.flow import awaiting
from app.rules.heroes import shielded
from app.rules.income import attackable_buildings, is_attackable
from app.rules.model import Cowboy, GameState, about_parcels
from app.rules.outlaws import estate_duels, fightable, movers, rewards
from app.rules.prices import building_price, parcel_price
from app.rules.shop import basket_balance
from app.rules.supply import roads_in_supply
from app.rules.townhouses import townhouse_targets

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import ChoosePersonality, ClaimParcel, CopyCard, HealCowboy, Move, PlaceCowboy, ProspectMine

_XY: tuple[XY, ...] = tuple({"x": x, "y": y} for x, y in map(parcel_xy, range(64)))
# Placement and claim moves are listed often; these shared rows are never handed out (legal_moves returns copies).
_PLACE_ON_PARCEL: tuple[PlaceCowboy, ...] = tuple({"type": "place_cowboy", "x": p["x"], "y": p["y"]} for p in _XY)
_CLAIM_PARCEL: tuple[ClaimParcel, ...] = tuple({"type": "claim_parcel", "x": p["x"], "y": p["y"]} for p in _XY)
_PLACE_ON_SQUARE: dict[str, PlaceCowboy] = {square: {"type": "place_cowboy", "square": square} for square in SQUARES}
_CHOOSE: dict[str, tuple[ChoosePersonality, ...]] = {
    card: tuple({"type": "choose_personality", "card": card, "side": side} for side in ("yellow", "red"))
    if p.holder_chooses_side else ({"type": "choose_personality", "card": card},)
    for card, p in PERSONALITIES.items()
}


# The Newspaper Boy copies neither himself nor the Sheriff (`004` "a excepción del Sheriff").
_NOT_COPIED: Final = frozenset({"newspaper_boy", "sheriff"})
_COPY: dict[str, tuple[CopyCard, ...]] = {
    card: tuple({"type": "copy_card", "card": card, "side": side} for side in ("yellow", "red"))
    if p.holder_chooses_side else ({"type": "copy_card", "card": card},)
    for card, p in PERSONALITIES.items()
}


def _xy(index: int) -> XY:
    return _XY[index]


def _claimable(s: GameState, seat: int, reason: str) -> list[Move]:
    if not has_property_tile(s, seat):
        return []
    return [_CLAIM_PARCEL[i] for i in about_parcels(s, owner_free_land)]


def _start_parcel(s: GameState, seat: int) -> list[Move]:
    """Any owner-free parcel, mountain or centre included, river excluded (RULING B19)."""
    return _claimable(s, seat, "start")


def _personality(s: GameState, seat: int) -> list[Move]:
    """The cards not taken yet; a card whose holder chooses its side is chosen with a side (the Doctor /
    Undertaker, `001`; decision D73)."""
    taken = {p.personality for p in s.players}
    money = s.players[seat].money
    return [
        move
        for card in s.cards
        if card not in taken and money >= -PERSONALITIES[card].yellow.money  # the Newspaper Boy's $3 (D94)
        for move in _CHOOSE[card]
        # a Doctor / Undertaker a Newspaper Boy copied shows the side he named (decision D95)
        if card not in s.sides or not PERSONALITIES[card].holder_chooses_side or move["side"] == s.sides[card]
    ]


def _newspaper_boy(s: GameState, seat: int) -> list[Move]:
    """Any other card of the game but the Sheriff, taken or not (RULING X2); the Doctor / Undertaker on the side
    it shows, or, when nobody has chosen it yet, on the side the copy names (decision D95)."""
    return [
        move
        for card in s.cards
        if card not in _NOT_COPIED
        for move in _COPY[card]
        if card not in s.sides or move.get("side", s.sides[card]) == s.sides[card]
    ]


def _settler(s: GameState, seat: int) -> list[Move]:
    """An owner-free parcel at once (`000` "Settler"); with none left (or no property tile), nothing."""
    return _claimable(s, seat, "settler") or [{"type": "decline"}]


def _grocer(s: GameState, seat: int) -> list[Move]:
    """The yellow Grocer: double one type that earns money, of those the game's bag holds (RULING G16), or $8."""
    moves: list[Move] = [
        {"type": "grocer_choice", "option": "double", "building": b} for b in INCOME_BUILDINGS
        if BUILDINGS[b].expansion is None or BUILDINGS[b].expansion in s.config.expansions
    ]
    moves += [{"type": "grocer_choice", "option": "money_now"}, {"type": "grocer_choice", "option": "money_at_income"}]
    return moves


def _money_or_vp(s: GameState, seat: int) -> list[Move]:
    return [{"type": "card_option", "option": "money"}, {"type": "card_option", "option": "vp"}]


def _captain(s: GameState, seat: int) -> list[Move]:
    p = s.players[seat]
    return [
        {"type": "hire_cowboys", "count": n}
        for n, price in CAPTAIN_COWBOY_PRICES.items()
        if price <= p.money and p.cowboys + cowboys_away(s, seat) + n <= COWBOYS_PER_PLAYER
    ]


def _captain_red(s: GameState, seat: int) -> list[Move]:
    money = s.players[seat].money
    return [{"type": "buy_revolvers", "count": n} for n, price in CAPTAIN_REVOLVER_PRICES.items() if price <= money]


def _chinese_worker_red(s: GameState, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "decline"}]
    if s.players[seat].money >= CHINESE_WORKER_RED_PRICE:
        moves += [
            {"type": "take_building", "square": c.square}
            for c, building in zip(CONSTRUCTION_SQUARES, s.construction, strict=True)
            if building is not None
        ]
    return moves


def _prospector(s: GameState, seat: int) -> list[Move]:
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


def _governor_red(s: GameState, seat: int) -> list[Move]:
    """The red Governor taxes revolvers or money (`001` "The Governor (13)", variant)."""
    return [{"type": "collect_tax", "tax": "revolvers"}, {"type": "collect_tax", "tax": "money"}]


def _auction_parcels(s: GameState, seat: int) -> list[Move]:
    """The yellow Auctioneer's parcels, one at a time, among those that could be bought (RULING G8)."""
    return [{"type": "auction_parcel", **_xy(index)} for index in auction_parcel_choices(s)]


def _auction_bid(s: GameState, seat: int) -> list[Move]:
    """Every amount the bidder may bid, as every amount is listed for the cash limit and the VP squares (decision
    D66), and the pass, which is final (RULING G8)."""
    moves: list[Move] = [{"type": "bid", "amount": amount} for amount in bid_amounts(s, seat)]
    moves.append({"type": "bid_pass"})
    return moves


def open_squares(s: GameState) -> tuple[str, ...]:
    """Squares a cowboy may go to this round: construction squares holding a building, buy-VP squares not yet
    blocked by the round counter (RULING B15), Ammunition unless the red Auctioneer sold its chip (decision
    D68), and all the others."""
    squares = _open_squares(s.round, s.construction)
    if s.chip_sold:
        return tuple(square for square in squares if square != CHIP_SQUARE)
    return squares


@lru_cache(maxsize=256)
def _open_squares(round_: int, construction: tuple[str | None, ...]) -> tuple[str, ...]:
    """`open_squares` from the two things it depends on, worked out once for each (placement asks at every
    decision, and both change only a few times a round)."""
    blocked = {b.square for b in BUY_VP_SQUARES if round_ >= b.first_round_blocked}
    empty = {c.square for c, b in zip(CONSTRUCTION_SQUARES, construction, strict=True) if b is None}
    return tuple(square for square in SQUARES if square not in blocked and square not in empty)


def _may_join(cowboys: tuple[Cowboy, ...], seat: int, many: bool, red_sheriff: bool) -> bool:
    """RULING B7: one cowboy per player except on Wages and Road, which take anyone, even beside the white
    cowboy, because nobody duels there (B6); elsewhere nobody joins the white cowboy (B6); the red Sheriff
    starts no duel (`000` "Sheriff", red side). The red Singer's cowboy never duels, so the others join as if it
    were absent, but its player has a cowboy there (decision D43); so does a cowboy with the yellow Singer's chip
    (RULING G9). One plain pass over the spot: placement asks this of every occupied spot at every decision."""
    if many:
        return True
    rivals = False
    for c in cowboys:
        if c.seat == seat:
            return False
        if c.singer or c.no_duel:  # the Singer's cowboys never duel: the others join as if they were absent
            continue
        if c.white:
            return False
        rivals = True
    return not rivals or not red_sheriff


def cowboy_spots(s: GameState, seat: int, squares: tuple[str, ...] | None = None) -> list[PlaceCowboy]:
    """Where `seat` may put one of its own cowboys now: a square, an owner-free parcel, the City Hall, a building
    (attack or defend) or an outlaw's parcel (`000` "Cowboy Placement", RULINGS B6, B7, G2; decision D52). The
    placement phase offers these, and the Doctor chooses among them (RULING G11)."""
    moves: list[PlaceCowboy] = []
    red_sheriff = s.holds(seat, "sheriff", "red")
    spots = s.parcel_cowboys
    here = s.squares
    moves += [
        _PLACE_ON_SQUARE[square]
        for square in (open_squares(s) if squares is None else squares)
        if square not in here or _may_join(here[square], seat, SQUARES[square].many, red_sheriff)
    ]
    moves += [  # owner-free land: to buy it
        _PLACE_ON_PARCEL[i]
        for i in about_parcels(s, owner_free_land)
        if i not in spots or _may_join(spots[i], seat, False, red_sheriff)
    ]
    # The City Hall: to occupy it, or to challenge its occupant (RULING G2); the white cowboy never (below). With an
    # outlaw on it, to fight the outlaw, as on any outlaw's parcel below (RULING G14).
    if s.city_hall is not None and not s.parcels[s.city_hall].outlaw \
            and _may_join(spots.get(s.city_hall, ()), seat, False, red_sheriff):
        moves.append(_PLACE_ON_PARCEL[s.city_hall])
    # Buildings: to attack or defend; parcels with an outlaw: to fight it, which is a duel (`001` "How to
    # Fight an Outlaw?", decision D52: the red Sheriff only on his own building).
    heroes = _heroes(s) if "big_box" in s.config.expansions else ()
    for index in (*about_parcels(s, attackable_buildings), *about_parcels(s, fightable)):
        parcel = s.parcels[index]
        if heroes and not parcel.outlaw and (seat in heroes or parcel.owner in heroes):
            continue  # the Heroes attack nobody and nobody attacks them, so nothing is to defend (RULING X5)
        defending = parcel.owner == seat and parcel.content in BUILDINGS
        if red_sheriff and not defending:
            continue  # the red Sheriff may not attack
        if _may_join(spots.get(index, ()), seat, False, red_sheriff and not defending):
            moves.append(_PLACE_ON_PARCEL[index])
    return moves


def _heroes(s: GameState) -> tuple[int, ...]:
    """The seats holding the Heroes this round (RULING X5)."""
    return tuple(p.seat for p in s.players if shielded(s, p.seat))


def _no_duel_placements(s: GameState, seat: int) -> list[Move]:
    """The yellow Singer's cowboy with a "no duel" chip: on the squares of RULING G9 that are open, wherever the
    player has no cowboy yet (one per player, RULING B7), even beside the white cowboy or a duel."""
    return [
        {"type": "place_cowboy", "square": square, "no_duel": True}
        for square in open_squares(s)
        if square in NO_DUEL_CHIP_SQUARES and not any(c.seat == seat for c in s.squares.get(square, ()))
    ]


def _placement(s: GameState, seat: int) -> list[Move]:
    """Place a cowboy on a square, an owner-free parcel or a building (attack or defend), or pass
    (`000` "Cowboy Placement", RULINGS B6, B7)."""
    p = s.players[seat]
    moves: list[Move] = []
    squares = open_squares(s)
    spots = s.parcel_cowboys
    if p.cowboys > 0:
        moves += cowboy_spots(s, seat, squares)
        if p.dynamite:
            moves += with_dynamite(s, seat, moves)  # the same places with a dynamite chip (RULING G7)
        if p.no_duel_chips:
            moves += _no_duel_placements(s, seat)
    if may_place_singer_cowboy(s, seat):
        moves.append({"type": "place_singer_cowboy"})
    if s.white_cowboy and s.holds(seat, "sheriff", "yellow"):
        for square in squares:
            if not s.squares.get(square):
                moves.append({"type": "place_white_cowboy", "square": square})
        for index, parcel in enumerate(s.parcels):
            if spots.get(index):
                continue
            if (parcel.owner is None and not parcel.river and index != s.city_hall and not parcel.outlaw) or (
                parcel.owner == seat and parcel.content in BUILDINGS and is_attackable(s, index)
            ):
                xy = _XY[index]
                moves.append({"type": "place_white_cowboy", "x": xy["x"], "y": xy["y"]})
    moves.append({"type": "pass"})
    return moves


def _place_city_hall(s: GameState, seat: int) -> list[Move]:
    """The owner-free parcels the fewest roads from the supply reach (RULING G2)."""
    return [{"type": "place_city_hall", **_xy(index)} for index in city_hall_sites(s)]


def _choose_duel(s: GameState, seat: int) -> list[Move]:
    """The contested parcels, or at the estate income the outlaw fights and the contested buildings (G15)."""
    if s.step == "parcel_purchase":
        return [{"type": "resolve_duel", **_xy(index)} for index, seats in purchase_spots(s).items() if len(seats) > 1]
    return [{"type": "resolve_duel", **_xy(index)} for index in estate_duels(s)]


def _outlaw_order(s: GameState, seat: int) -> list[Move]:
    """The outlaws that would move now; the first player picks which one moves next (RULING G4)."""
    return [{"type": "move_outlaw", **_xy(index)} for index in movers(s)]


def _outlaw_reward(s: GameState, seat: int) -> list[Move]:
    """The tile's VP, or half the building's income where that means something (`001`, decision D54)."""
    return [{"type": "outlaw_reward", "reward": reward} for reward in rewards(s)]


def _doctor(s: GameState, seat: int) -> list[Move]:
    """The owner of a defeated cowboy may have the Doctor move it, for $3 (free for his own), to a place no
    cowboy holds whose turn in the resolution order has not come yet (RULING G11, decision D77), or let it go
    home."""
    moves: list[Move] = [{"type": "decline"}]
    if healing_price(s, seat) > s.players[seat].money:
        return moves
    for spot in cowboy_spots(s, seat):
        if is_unperformed(s, spot):
            heal: HealCowboy = {"type": "heal_cowboy"}
            if "square" in spot:
                heal["square"] = spot["square"]
            else:
                heal["x"], heal["y"] = spot["x"], spot["y"]
            moves.insert(-1, heal)
    return moves


def _undertaker(s: GameState, seat: int) -> list[Move]:
    """$2 to the Undertaker or 1 VP for a defeated cowboy (`001`); with neither, nothing (decision D79)."""
    options = burial_options(s, seat)
    moves: list[Move] = [{"type": "pay_undertaker", "pay": pay} for pay in options]
    return moves or [{"type": "decline"}]


def _buy_parcel(s: GameState, seat: int) -> list[Move]:
    money = s.players[seat].money
    tile = has_property_tile(s, seat)
    moves: list[Move] = []
    for index in purchase_singles(s, seat):
        if tile and parcel_price(s, index) <= money:
            moves.append({"type": "buy_parcel", **_xy(index)})
        moves.append({"type": "decline_parcel", **_xy(index)})
    return moves


def _buy_building(s: GameState, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "decline"}]
    if building_price(s, seat, s.step) <= s.players[seat].money:
        moves.insert(0, {"type": "buy_building"})
    return moves


def _construct(s: GameState, seat: int) -> list[Move]:
    work = s.work
    assert work is not None
    moves: list[Move] = [
        {"type": "place_road", "x1": e[0], "y1": e[1], "x2": e[2], "y2": e[3]} for e in road_edges(s, seat)
    ]
    moves += [{"type": "ask_permission", "seat": other} for other in askable_players(s, work)]
    if work.parcel is not None:
        targets = house_targets(s, seat, work.granted)
        moves += [{"type": "place_house", **_xy(i)} for i in targets]
        moves += [{"type": "place_townhouse", **_xy(i)} for i in townhouse_targets(s, seat, work.granted)]
        return moves
    candidates = [work.building] if work.building is not None else sorted(set(s.players[seat].buildings))
    for building in candidates:
        moves += [
            {"type": "place_building", "building": building, **_xy(i)}
            for i in build_sites(s, seat, building, work.granted)
        ]
    moves.append({"type": "keep_building"})
    return moves


def _permission(s: GameState, seat: int) -> list[Move]:
    assert s.work is not None and s.work.request is not None
    moves: list[Move] = []
    for index in s.work.request.open:
        moves.append({"type": "answer_permission", **_xy(index), "grant": True})
        moves.append({"type": "answer_permission", **_xy(index), "grant": False})
    moves.append({"type": "deny_remaining"})
    return moves


def _buy_vp(s: GameState, seat: int) -> list[Move]:
    price = BUY_VP_PRICE[s.step]
    return [{"type": "buy_vp", "count": n} for n in range(s.players[seat].money // price + 1)]


def _banker_vp(s: GameState, seat: int) -> list[Move]:
    money = s.players[seat].money
    return [{"type": "banker_vp", "vp": vp} for vp, price in BANKER_VP_PRICES.items() if price <= money]


def _cash_limit(s: GameState, seat: int) -> list[Move]:
    """Give up at least the excess, at most everything (`000` "End of Round")."""
    money = s.players[seat].money
    limit = cash_limit(s, seat)
    assert limit is not None
    return [{"type": "give_up_money", "amount": amount} for amount in range(money - limit, money + 1)]


def _vote(s: GameState, seat: int) -> list[Move]:
    """One small move per card: yellow or red (RULING V1)."""
    voted = s.votes.get(seat, {})
    return [
        {"type": "vote_side", "card": card, "side": side}
        for card in sided_cards(s.cards)
        if card not in voted
        for side in ("yellow", "red")
    ]


def _duel_tile(s: GameState, seat: int) -> list[Move]:
    """Might Is Right: play one tile of one's hand (RULING V2), two with a dynamite chip (RULING G7)."""
    waiting = awaiting(s)
    if waiting is not None and plays_two_tiles(s, seat, waiting.target):
        return tile_pairs(s.players[seat].tiles)
    return [{"type": "play_tile", "tile": tile} for tile in sorted(set(s.players[seat].tiles))]


def _reroll(s: GameState, seat: int) -> list[Move]:
    """The red Gunsmith: roll again, or keep the roll (`001` "The Gunsmith (10)", variant)."""
    return [{"type": "reroll"}, {"type": "keep_roll"}]


def _shopping(s: GameState, seat: int) -> list[Move]:
    """A New Beginning: add one item, take one back, or be done (RULING V4)."""
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


def _parcel_pick(s: GameState, seat: int) -> list[Move]:
    return _claimable(s, seat, "pick") or [{"type": "decline"}]


def _horse(s: GameState, seat: int) -> list[Move]:
    """Big Box, at Wages (RULING X6): a horse for $4 instead of one cowboy's $4, or the wages as usual."""
    return [{"type": "buy_horse"}, {"type": "decline"}]


def _final_roads(s: GameState, seat: int) -> list[Move]:
    """The River's final road phase (RULING V9): place roads one at a time, or stop."""
    moves: list[Move] = [
        {"type": "place_road", "x1": e[0], "y1": e[1], "x2": e[2], "y2": e[3]} for e in buildable_roads(s, seat)
    ]
    moves.append({"type": "finish_roads"})
    return moves


MOVES_BY_KIND: dict[Decision, Callable[[GameState, int], list[Move]]] = {
    Decision.VOTE: _vote,
    Decision.DUEL_TILE: _duel_tile,
    Decision.SHOPPING: _shopping,
    Decision.PARCEL_PICK: _parcel_pick,
    Decision.FINAL_ROADS: _final_roads,
    Decision.PLACE_CITY_HALL: _place_city_hall,
    Decision.START_PARCEL: _start_parcel,
    Decision.OUTLAW_ORDER: _outlaw_order,
    Decision.OUTLAW_REWARD: _outlaw_reward,
    Decision.DOCTOR: _doctor,
    Decision.UNDERTAKER: _undertaker,
    Decision.PERSONALITY: _personality,
    Decision.NEWSPAPER_BOY: _newspaper_boy,
    Decision.SETTLER: _settler,
    Decision.GROCER: _grocer,
    Decision.CAPTAIN: _captain,
    Decision.CHINESE_WORKER_RED: _chinese_worker_red,
    Decision.SETTLER_RED: _money_or_vp,
    Decision.GROCER_RED: _money_or_vp,
    Decision.CAPTAIN_RED: _captain_red,
    Decision.PROSPECTOR: _prospector,
    Decision.GOVERNOR_RED: _governor_red,
    Decision.AUCTION_PARCELS: _auction_parcels,
    Decision.AUCTION_BID: _auction_bid,
    Decision.PLACEMENT: _placement,
    Decision.CHOOSE_DUEL: _choose_duel,
    Decision.BUY_PARCEL: _buy_parcel,
    Decision.BUY_BUILDING: _buy_building,
    Decision.CONSTRUCT: _construct,
    Decision.PERMISSION: _permission,
    Decision.BUY_VP: _buy_vp,
    Decision.BANKER_VP: _banker_vp,
    Decision.CASH_LIMIT: _cash_limit,
    Decision.REROLL: _reroll,
    Decision.DYNAMITE: dynamite_moves,
    Decision.HORSE: _horse,
}


def legal_moves(s: GameState, seat: int) -> list[dict[str, Any]]:
    """Every move `seat` may submit now, as JSON objects the caller may keep and change (copies); empty when
    nothing is awaited from that seat."""
    moves: Sequence[Mapping[str, Any]] = legal_moves_view(s, seat)
    return list(map(dict, moves))


def legal_moves_view(s: GameState, seat: int) -> list[Move]:
    """`legal_moves` without the defensive copies, for the core's own read-only use (memoised per state)."""
    key = ("legal", seat)
    if key not in s.memo:
        waiting = awaiting(s)
        s.memo[key] = MOVES_BY_KIND[waiting.kind](s, seat) if waiting and seat in waiting.seats else []
    result: list[Move] = s.memo[key]
    return result


def is_legal(s: GameState, seat: int, move: Mapping[str, Any]) -> bool:
    """Whether `move` is one of `legal_moves(s, seat)`, value for value and type for type (so `true` is not `1`
    and `1.0` is not `1`): the test `decide` applies, so the two never disagree."""
    candidates: Sequence[Mapping[str, Any]] = legal_moves_view(s, seat)
    try:
        candidate = candidates[candidates.index(move)]
    except ValueError:
        return False
    return all([type(move[k]) is type(v) for k, v in candidate.items()])  # a list: one call, not one per field
