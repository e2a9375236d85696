"""Building construction (`000` "Building construction"; RULINGS B4, B11, B12): where a building may stand,
where its house may go, which roads may be placed and whom the builder may ask for permission."""

from __future__ import annotations

from typing import Final

from app.rules.board import Edge, extensions, parcel_index, reached_parcels, water_edges
from app.rules.catalog import BRIDGE_ROADS, BUILDINGS, CITY_HALL, PROPERTY_TILES, RIVER_PARCELS
from app.rules.config import MAX_PLAYERS
from app.rules.model import Construction, GameState, Parcel, about_parcels, about_roads
from app.rules.sites import may_stand
from app.rules.townhouses import townhouse_permission_parcels, townhouse_targets


def _owned(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """How many parcels each seat owns, by seat (counted once per board: the placement and the purchases ask at
    every decision whether a property tile is left)."""
    counts = [0] * MAX_PLAYERS
    for p in parcels:
        if p.owner is not None:
            counts[p.owner] += 1
    return tuple(counts)


def ownership_carried(s: GameState, before: tuple[Parcel, ...], index: int) -> None:
    """Keep `_owned`'s answer for the draft `s` whose parcel `index` alone changed since the board `before`: the
    count moves from its old owner to its new one, if it changed hands (every purchase changes the board, and the
    next decision asks again)."""
    entry = s.kept.get(_owned)
    if entry is None or entry[0] is not before:
        return
    counts: tuple[int, ...] = entry[1]
    was, owner = before[index].owner, s.parcels[index].owner
    if owner != was:
        changed = list(counts)
        if was is not None:
            changed[was] -= 1
        if owner is not None:
            changed[owner] += 1
        counts = tuple(changed)
    s.kept[_owned] = (s.parcels, counts)


def parcels_owned(s: GameState, seat: int) -> int:
    return about_parcels(s, _owned)[seat]


def owner_free_land(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """Owner-free parcels off the river, mountain or centre included: where a cowboy may go to buy, and what a
    player may claim (RULING B19); never the City Hall's, which nobody may buy (RULING G2), nor one with an
    outlaw (RULING G4)."""
    return tuple([
        i
        for i, parcel in enumerate(parcels)
        if parcel.owner is None and not parcel.river and parcel.content != CITY_HALL and not parcel.outlaw
    ])


def has_property_tile(s: GameState, seat: int) -> bool:
    return about_parcels(s, _owned)[seat] < PROPERTY_TILES


def needs_house(s: GameState, building: str) -> bool:
    """Every building but ranch and mine places a house, unless the supply is empty (RULING B11)."""
    return BUILDINGS[building].needs_house and s.houses > 0


def houses_to_place(s: GameState, building: str) -> int:
    """How many houses go with `building`: its row's number, as far as the supply holds (RULING B11)."""
    return min(BUILDINGS[building].houses, s.houses) if needs_house(s, building) else 0


def _free_land(parcels: tuple[Parcel, ...]) -> dict[int | None, list[int]]:
    """Empty parcels off the river without an outlaw (where a building or a house may stand, RULING G4), by
    owner, in parcel order."""
    land: dict[int | None, list[int]] = {}
    for i, parcel in enumerate(parcels):
        if parcel.content is None and not parcel.river and not parcel.outlaw:
            land.setdefault(parcel.owner, []).append(i)
    return land


def house_targets(s: GameState, seat: int, granted: frozenset[int]) -> list[int]:
    """Free, road-reached, non-river parcels that are the builder's, owner-free, or granted (B11, B12)."""
    reached = about_roads(s, reached_parcels)
    return sorted(
        i
        for owner, land in about_parcels(s, _free_land).items()
        for i in land
        if (owner in (None, seat) or i in granted) and i in reached
    )


def build_sites(s: GameState, seat: int, building: str, granted: frozenset[int]) -> list[int]:
    """The builder's empty parcels where `building` may stand now: reached by a road unless it is a ranch or a
    mine, and — if it needs houses — with a parcel left for each (or a house to turn into a townhouse), so a
    placed building can always be finished (roads placed afterwards only add parcels). Gold & Guns buildings
    also follow their own placement rule (`sites`)."""
    reached = about_roads(s, reached_parcels)
    row = BUILDINGS[building]
    sites = [
        i
        for i in about_parcels(s, _free_land).get(seat, ())
        if (not row.needs_road or i in reached) and may_stand(s, building, i)
    ]
    houses = houses_to_place(s, building)
    if not houses:
        return sites
    targets = set(house_targets(s, seat, granted))
    flips = min(len(townhouse_targets(s, seat, granted)), s.townhouses)
    return [i for i in sites if len(targets - {i}) + flips >= houses]


def wants_road(s: GameState, work: Construction) -> bool:
    """Whether this construction may be of a building that has to be connected: online, roads are placed only
    then, never for a ranch or a mine (`000` "Rules adjusted to yucata", RULING B4)."""
    if work.building is not None:
        return BUILDINGS[work.building].needs_road
    return any(BUILDINGS[b].needs_road for b in s.players[work.seat].buildings)


WATER_EDGES: Final = water_edges(frozenset(parcel_index(x, y) for x, y in RIVER_PARCELS))


def is_bridge(s: GameState, edge: Edge) -> bool:
    """With The River, a road on an edge with no land on either side is a bridge (RULING V3)."""
    return s.config.river and edge in WATER_EDGES


def road_pieces_on_board(s: GameState) -> int:
    return len(s.roads) + (BRIDGE_ROADS - 1) * sum(1 for e in s.roads if is_bridge(s, e))


def buildable_roads(s: GameState, seat: int) -> list[Edge]:
    """Roads `seat` can place from their reserve now: each extends the network (RULING B3); a bridge takes
    two roads (RULING V3)."""
    roads = s.players[seat].roads
    if roads < 1:
        return []
    return [e for e in about_roads(s, extensions) if roads >= BRIDGE_ROADS or not is_bridge(s, e)]


def road_edges(s: GameState, seat: int) -> list[Edge]:
    """Roads the builder may place while constructing a building that has to be connected (RULING B4)."""
    if s.work is None or not wants_road(s, s.work):
        return []
    return buildable_roads(s, seat)


def permission_parcels(s: GameState, owner: int) -> list[int]:
    """The parcels of `owner` that could take a house now: free, road-reached, non-river (RULING B12); with Gold &
    Guns also their houses that could become a townhouse (RULING G19), in parcel order."""
    reached = about_roads(s, reached_parcels)
    free = [i for i in about_parcels(s, _free_land).get(owner, ()) if i in reached]
    if "gold_and_guns" not in s.config.expansions or s.townhouses < 1:
        return free
    return sorted(free + townhouse_permission_parcels(s, owner))


def wants_house(s: GameState, work: Construction) -> bool:
    """Whether this construction may still need a house (so asking for permission makes sense)."""
    if work.parcel is not None:
        return True
    if work.building is not None:
        return needs_house(s, work.building)
    return any(needs_house(s, b) for b in s.players[work.seat].buildings)


def askable_players(s: GameState, work: Construction) -> list[int]:
    """Players the builder may still ask in this construction: each at most once (RULING B12)."""
    if not wants_house(s, work):
        return []
    return [
        p.seat
        for p in s.players
        if p.seat != work.seat and p.seat not in work.asked and permission_parcels(s, p.seat)
    ]
