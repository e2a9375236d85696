"""The City Hall (Gold & Guns, `001` "City Hall"; RULING G2; decisions D36-D39): where it goes when drawn from
the bag and who places it, the roads that reach it from the general supply, and who occupies it.

It stands on an owner-free parcel that nobody may buy; one cowboy occupies it and stays across rounds, so its
occupant is simply the first cowboy on its parcel (a challenger arrives after them).
"""

from __future__ import annotations

from collections import deque

from app.rules.board import CORNERS, EDGES_AT, Edge, Point, road_points
from app.rules.catalog import END_OF_ROUND_STEPS
from app.rules.construction import WATER_EDGES
from app.rules.model import GameState
from app.rules.supply import roads_in_supply


def occupant(s: GameState) -> int | None:
    """The seat whose cowboy occupies the City Hall: the first one there (the others challenge them)."""
    if s.city_hall is None:
        return None
    cowboys = s.parcel_cowboys.get(s.city_hall, ())
    return cowboys[0].seat if cowboys else None


def cowboys_away(s: GameState, seat: int) -> int:
    """Cowboys of `seat` kept out of the reserve between rounds: the City Hall's occupant (decision D37), which
    still counts towards the 10 cowboys a player may have."""
    return 1 if occupant(s) == seat else 0


def first_player(s: GameState) -> int:
    """Who places the City Hall when it is drawn: the first player in turn order (RULING G2, decision D36) — the
    drawn turn order at setup, the coming round's order at the end of a round (the yellow Teacher's holder, else
    the earliest passer, RULING G18), the round's own order while the red Chinese Worker's draw refills a square."""
    if s.round == 0:
        return s.initial_order[0]
    if s.step in END_OF_ROUND_STEPS:
        return s.coming_choosing_order()[0]
    return s.choosing_order[0]


def _road_distances(s: GameState) -> tuple[dict[Point, int], dict[Point, tuple[Point, Edge]]]:
    """Breadth-first from every road end: how many new roads reach each grid point, and the road that comes
    into it. Bridges are never built for it (decision D36: the fewest road pieces)."""
    start = sorted(road_points(s.roads))
    distance = dict.fromkeys(start, 0)
    came_by: dict[Point, tuple[Point, Edge]] = {}
    todo = deque(start)
    water = WATER_EDGES if s.config.river else frozenset()
    while todo:
        point = todo.popleft()
        for e in EDGES_AT[point]:
            if e in water:
                continue
            other = (e[2], e[3]) if (e[0], e[1]) == point else (e[0], e[1])
            if other not in distance:
                distance[other] = distance[point] + 1
                came_by[other] = (point, e)
                todo.append(other)
    return distance, came_by


def city_hall_sites(s: GameState) -> dict[int, tuple[Edge, ...]]:
    """Where the drawn City Hall may go, each with the roads from the general supply it needs: the owner-free empty
    land parcels that as few new roads as possible reach — none when one already is (RULING G2). The roads are
    the first shortest way in grid order (decision D36); nowhere, when the supply cannot reach any parcel."""
    free = [i for i, p in enumerate(s.parcels) if p.owner is None and p.content is None and not p.river
            and not p.outlaw]  # nothing is built under an outlaw (RULING G4)
    distance, came_by = _road_distances(s)
    reach = {i: min((distance[c], c) for c in CORNERS[i] if c in distance) for i in free
             if any(c in distance for c in CORNERS[i])}
    if not reach:
        return {}
    fewest = min(d for d, _ in reach.values())
    if fewest > roads_in_supply(s):
        return {}
    sites: dict[int, tuple[Edge, ...]] = {}
    for index, (d, corner) in sorted(reach.items()):
        if d != fewest:
            continue
        roads: list[Edge] = []
        point = corner
        while point in came_by:
            point, e = came_by[point]
            roads.append(e)
        sites[index] = tuple(reversed(roads))
    return sites
