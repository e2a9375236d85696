"""Building (`000` "Building construction"; RULINGS B4, B11, B12): a building bought on a construction square (or
taken by the red Chinese Worker, or built from the reserve after the squares) is built at once — roads first,
permission asked of a parcel's owner for the house, the building, then its house (a school three; with Gold & Guns
a townhouse instead, RULINGS G6, G19; with The River a road over water is a bridge, RULING V3) — or kept in
reserve. While a construction is under way, nothing else happens.

Where a building, a house, a road may go and whom the builder may ask are `app.rules.construction`'s (and
`townhouses`, `sites`); the prices `prices`'; the yellow Governor's VP for a road `characters.road_vp`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.board import parcel_index
from app.rules.catalog import BRIDGE_ROADS, BUILDINGS, CONSTRUCTION_INDEX
from app.rules.characters import road_vp
from app.rules.construction import (
    askable_players,
    build_sites,
    house_targets,
    houses_to_place,
    is_bridge,
    needs_house,
    permission_parcels,
    road_edges,
)
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import building_to_player, clear_square, gain, index_of, replace, set_parcel, update_player
from app.rules.events import (
    BuildingBought,
    BuildingKept,
    BuildingPlaced,
    BuildingPurchaseDeclined,
    ConstructionStarted,
    Event,
    HousePlaced,
    PermissionAnswered,
    PermissionAsked,
    PermissionDeniedRest,
    RoadPlaced,
    TownhousePlaced,
)
from app.rules.model import Construction, GameState, PermissionRequest
from app.rules.prices import building_price
from app.rules.registry import Step, declines, handles, lists, move_handler, runs
from app.rules.rng import Rng
from app.rules.spots import xy
from app.rules.steps import at_once, awaits
from app.rules.townhouses import townhouse_targets

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import (
        AnswerPermission,
        AskPermission,
        BuyBuilding,
        Decline,
        DenyRemaining,
        KeepBuilding,
        Move,
        PlaceBuilding,
        PlaceHouse,
        PlaceRoad,
        PlaceTownhouse,
    )


# --- a building bought on a construction square (the square's step is the action track's, `flow`) ---------------


@lists(Decision.BUY_BUILDING)
def _buy_building(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    moves: list[Move] = [{"type": "decline"}]
    if building_price(s, seat, s.step) <= s.players[seat].money:
        moves.insert(0, {"type": "buy_building"})
    return moves


@move_handler("buy_building")
def _buy(s: GameState, seat: int, move: BuyBuilding, rng: Rng, kind: Decision) -> list[Event]:
    square = s.step
    building = s.construction[CONSTRUCTION_INDEX[square]]
    assert building is not None  # a square without a building is not open to cowboys
    price = building_price(s, seat, square)
    return [{"type": "building_bought", "seat": seat, "square": square, "building": building, "price": price}]


@declines(Decision.BUY_BUILDING)
def _not_bought(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "building_purchase_declined", "seat": seat, "square": s.step}]


@handles("building_bought")
def _building_bought(s: GameState, e: BuildingBought) -> GameState:
    return clear_square(building_to_player(s, e, source="square"), e["square"])


@handles("building_purchase_declined")
def _building_purchase_declined(s: GameState, e: BuildingPurchaseDeclined) -> GameState:
    return clear_square(s, e["square"])


# --- building from the reserve --------------------------------------------------------------------------------


@runs("build_from_reserve")
def _build_from_reserve(s: GameState) -> Step:
    for seat in s.placement_order:
        if seat not in s.reserve_done and s.players[seat].buildings:
            return at_once({"type": "construction_started", "seat": seat})
    return None


@handles("construction_started")
def _construction_started(s: GameState, e: ConstructionStarted) -> GameState:
    return replace(s, work=Construction(e["seat"], "reserve", None))


# --- the construction under way -------------------------------------------------------------------------------


def construction_step(s: GameState) -> Step:
    """The builder decides, or first the owner asked for permission; the flow asks this while `work` is set."""
    assert s.work is not None
    if s.work.request is not None:
        return awaits(Decision.PERMISSION, s.work.request.asked)
    return awaits(Decision.CONSTRUCT, s.work.seat)


@lists(Decision.CONSTRUCT)
def _construct(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    work = s.work
    assert work is not None
    moves: list[Move] = [
        {"type": "place_road", "x1": e[0], "y1": e[1], "x2": e[2], "y2": e[3]} for e in road_edges(s, seat)
    ]
    moves += [{"type": "ask_permission", "seat": other} for other in askable_players(s, work)]
    if work.parcel is not None:
        targets = house_targets(s, seat, work.granted)
        moves += [{"type": "place_house", **xy(i)} for i in targets]
        moves += [{"type": "place_townhouse", **xy(i)} for i in townhouse_targets(s, seat, work.granted)]
        return moves
    candidates = [work.building] if work.building is not None else sorted(set(s.players[seat].buildings))
    for building in candidates:
        moves += [
            {"type": "place_building", "building": building, **xy(i)}
            for i in build_sites(s, seat, building, work.granted)
        ]
    moves.append({"type": "keep_building"})
    return moves


@move_handler("place_road")
def _place_road(s: GameState, seat: int, move: PlaceRoad, rng: Rng, kind: Decision) -> list[Event]:
    """A road of the construction, or of The River's final road phase (`families.river`)."""
    event: RoadPlaced = {"type": "road_placed", "seat": seat, "x1": move["x1"], "y1": move["y1"], "x2": move["x2"],
                         "y2": move["y2"]}
    road = (move["x1"], move["y1"], move["x2"], move["y2"])
    bridge = is_bridge(s, road)
    if bridge:
        event["bridge"] = True
    vp = road_vp(s, seat, road, BRIDGE_ROADS if bridge else 1)  # the yellow Governor (RULING G12)
    if vp:
        event["vp"] = vp
    return [event]


@handles("road_placed")
def _road_placed(s: GameState, e: RoadPlaced) -> GameState:
    road = (e["x1"], e["y1"], e["x2"], e["y2"])
    pieces = BRIDGE_ROADS if e.get("bridge") else 1
    return replace(gain(s, e["seat"], roads=-pieces, vp=e.get("vp", 0)), roads=s.roads | {road})


@move_handler("place_building")
def _place_building(s: GameState, seat: int, move: PlaceBuilding, rng: Rng, kind: Decision) -> list[Event]:
    building = move["building"]
    event: BuildingPlaced = {
        "type": "building_placed", "seat": seat, "building": building, "x": move["x"], "y": move["y"],
        "revolvers": BUILDINGS[building].revolvers, "house": needs_house(s, building),
    }
    houses = houses_to_place(s, building)
    if houses > 1:  # the school's three houses (`001` "School")
        event["houses"] = houses
    return [event]


@handles("building_placed")
def _building_placed(s: GameState, e: BuildingPlaced) -> GameState:
    seat, building, index = e["seat"], e["building"], index_of(e)
    p = s.players[seat]
    remaining = list(p.buildings)
    remaining.remove(building)
    s = update_player(s, seat, buildings=tuple(remaining), revolvers=p.revolvers + BUILDINGS[building].revolvers)
    s = set_parcel(s, index, content=building)
    assert s.work is not None
    work = replace(s.work, building=building, parcel=index, houses=e.get("houses", 1)) if e["house"] else None
    return replace(s, work=work)


def _house_done(s: GameState) -> GameState:
    """One of the building's houses stands; the construction ends with its last (a school has three)."""
    assert s.work is not None
    return replace(s, work=replace(s.work, houses=s.work.houses - 1) if s.work.houses > 1 else None)


@move_handler("place_house")
def _place_house(s: GameState, seat: int, move: PlaceHouse, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "house_placed", "seat": seat, "x": move["x"], "y": move["y"]}]


@handles("house_placed")
def _house_placed(s: GameState, e: HousePlaced) -> GameState:
    s = set_parcel(s, index_of(e), content="house")
    return _house_done(replace(s, houses=s.houses - 1))


@move_handler("place_townhouse")
def _place_townhouse(s: GameState, seat: int, move: PlaceTownhouse, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "townhouse_placed", "seat": seat, "x": move["x"], "y": move["y"]}]


@handles("townhouse_placed")
def _townhouse_placed(s: GameState, e: TownhousePlaced) -> GameState:
    """The townhouse replaces the house, which goes back to the supply (decision D35)."""
    s = set_parcel(s, index_of(e), content="townhouse")
    return _house_done(replace(s, houses=s.houses + 1, townhouses=s.townhouses - 1))


@move_handler("keep_building")
def _keep_building(s: GameState, seat: int, move: KeepBuilding, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "building_kept", "seat": seat}]


@handles("building_kept")
def _building_kept(s: GameState, e: BuildingKept) -> GameState:
    assert s.work is not None
    done = s.reserve_done | {e["seat"]} if s.work.source == "reserve" else s.reserve_done
    return replace(s, work=None, reserve_done=done)


# --- permission (RULING B12; with Gold & Guns for a townhouse too, RULING G19) ----------------------------------


@move_handler("ask_permission")
def _ask_permission(s: GameState, seat: int, move: AskPermission, rng: Rng, kind: Decision) -> list[Event]:
    asked = move["seat"]
    parcels: list[list[int]] = []
    houses: list[list[int]] = []  # with Gold & Guns, those whose house would become a townhouse (RULING G19)
    for i in permission_parcels(s, asked):
        parcels.append([i % 8 + 1, i // 8 + 1])
        if s.parcels[i].content == "house":
            houses.append(parcels[-1])
    event: PermissionAsked = {"type": "permission_asked", "seat": seat, "asked": asked, "parcels": parcels}
    if houses:
        event["townhouses"] = houses
    return [event]


@handles("permission_asked")
def _permission_asked(s: GameState, e: PermissionAsked) -> GameState:
    assert s.work is not None
    request = PermissionRequest(asked=e["asked"], open=tuple(parcel_index(x, y) for x, y in e["parcels"]))
    return replace(s, work=replace(s.work, asked=s.work.asked | {e["asked"]}, request=request))


@lists(Decision.PERMISSION)
def _permission(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    assert s.work is not None and s.work.request is not None
    moves: list[Move] = []
    for index in s.work.request.open:
        moves.append({"type": "answer_permission", **xy(index), "grant": True})
        moves.append({"type": "answer_permission", **xy(index), "grant": False})
    moves.append({"type": "deny_remaining"})
    return moves


@move_handler("answer_permission")
def _answer_permission(s: GameState, seat: int, move: AnswerPermission, rng: Rng, kind: Decision) -> list[Event]:
    event: PermissionAnswered = {"type": "permission_answered", "seat": seat, "x": move["x"], "y": move["y"],
                                 "granted": move["grant"]}
    # With Gold & Guns, a townhouse in place of that parcel's house (RULING G19).
    if "gold_and_guns" in s.config.expansions and s.parcels[parcel_index(move["x"], move["y"])].content == "house":
        event["townhouse"] = True
    return [event]


@handles("permission_answered")
def _permission_answered(s: GameState, e: PermissionAnswered) -> GameState:
    work = s.work
    assert work is not None and work.request is not None
    index = index_of(e)
    still_open = tuple(i for i in work.request.open if i != index)
    request = replace(work.request, open=still_open) if still_open else None
    granted = work.granted | {index} if e["granted"] else work.granted
    return replace(s, work=replace(work, request=request, granted=granted))


@move_handler("deny_remaining")
def _deny_remaining(s: GameState, seat: int, move: DenyRemaining, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "permission_denied_rest", "seat": seat}]


@handles("permission_denied_rest")
def _permission_denied_rest(s: GameState, e: PermissionDeniedRest) -> GameState:
    assert s.work is not None
    return replace(s, work=replace(s.work, request=None))
