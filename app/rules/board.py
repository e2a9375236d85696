"""Grid geometry: parcels, neighbours, road edges and what a road network reaches (RULINGS B1, B2, B3).

Parcels are numbered 0..63, index = (y - 1) * 8 + (x - 1) for x, y in 1..8. Grid points are (i, j) with
i, j in 0..8; a road is one edge between two neighbouring grid points, written (i1, j1, i2, j2) with the
smaller point first. Everything here is precomputed once, so that rules ask questions in O(1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from app.rules.rng import Rng

SIZE: Final = 8
PARCELS: Final = tuple(range(SIZE * SIZE))

Point = tuple[int, int]
Edge = tuple[int, int, int, int]


def parcel_index(x: int, y: int) -> int:
    return (y - 1) * SIZE + (x - 1)


def parcel_xy(index: int) -> tuple[int, int]:
    return index % SIZE + 1, index // SIZE + 1


def is_on_board(x: int, y: int) -> bool:
    return 1 <= x <= SIZE and 1 <= y <= SIZE


# The parcels two dice can address: the inner 6 x 6 (RULING B1).
INNER: Final = tuple(parcel_index(x, y) for y in range(2, SIZE) for x in range(2, SIZE))


def roll_parcel(rng: Rng, refused: Callable[[int], bool], rolls: list[list[int]]) -> int:
    """Two dice address the inner 6 x 6: white die d -> column d + 1, black die d -> row d + 1; a refused result
    is rolled again (RULING B1). Every roll, kept or not, is appended to `rolls` as [white, black]; the caller
    makes sure some inner parcel is not refused."""
    while True:
        white, black = rng.die(), rng.die()
        rolls.append([white, black])
        index = parcel_index(white + 1, black + 1)
        if not refused(index):
            return index


def _neighbours(index: int) -> tuple[int, ...]:
    x, y = parcel_xy(index)
    return tuple(
        parcel_index(x + dx, y + dy)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx or dy) and is_on_board(x + dx, y + dy)
    )


# Up to 8 parcels sharing an edge or a corner; a parcel is never its own neighbour (RULING B2, B13).
NEIGHBOURS: Final = tuple(_neighbours(i) for i in PARCELS)


def _corners(index: int) -> tuple[Point, ...]:
    x, y = parcel_xy(index)
    return ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y))


CORNERS: Final = tuple(_corners(i) for i in PARCELS)
# The other way round: the up to four parcels with a corner at each grid point.
PARCELS_AT: Final[dict[Point, tuple[int, ...]]] = {
    (i, j): tuple(p for p in PARCELS if (i, j) in CORNERS[p]) for i in range(SIZE + 1) for j in range(SIZE + 1)
}


def edge(a: Point, b: Point) -> Edge:
    """The normalised edge between two neighbouring grid points."""
    (i1, j1), (i2, j2) = sorted((a, b))
    return (i1, j1, i2, j2)


def _all_edges() -> tuple[Edge, ...]:
    edges: list[Edge] = []
    for j in range(SIZE + 1):
        for i in range(SIZE + 1):
            if i < SIZE:
                edges.append((i, j, i + 1, j))
            if j < SIZE:
                edges.append((i, j, i, j + 1))
    return tuple(edges)


EDGES: Final = _all_edges()  # 144 edges, the border included (RULING B3)
EDGES_AT: Final[dict[Point, tuple[Edge, ...]]] = {
    (i, j): tuple(e for e in EDGES if (e[0], e[1]) == (i, j) or (e[2], e[3]) == (i, j))
    for i in range(SIZE + 1)
    for j in range(SIZE + 1)
}


def _sides(index: int) -> tuple[Edge, ...]:
    a, b, c, d = _corners(index)  # top-left, top-right, bottom-left, bottom-right
    return (edge(a, b), edge(c, d), edge(a, c), edge(b, d))


SIDES: Final = tuple(_sides(i) for i in PARCELS)


def _parcels_beside(e: Edge) -> tuple[int, ...]:
    return tuple(i for i in PARCELS if e in SIDES[i])


PARCELS_BESIDE: Final[dict[Edge, tuple[int, ...]]] = {e: _parcels_beside(e) for e in EDGES}


def road_points(roads: frozenset[Edge]) -> frozenset[Point]:
    """Every grid point that is the end of a road."""
    points: set[Point] = set()
    for i1, j1, i2, j2 in roads:
        points.add((i1, j1))
        points.add((i2, j2))
    return frozenset(points)


def is_reached(index: int, points: frozenset[Point]) -> bool:
    """A parcel is reached by a road when one of its four corners is the end of a road (RULING B3)."""
    return any(c in points for c in CORNERS[index])


def reached_parcels(roads: frozenset[Edge]) -> frozenset[int]:
    """Every parcel a road reaches: those with a corner at the end of a road (RULING B3)."""
    return frozenset(i for point in road_points(roads) for i in PARCELS_AT[point])


def extensions(roads: frozenset[Edge]) -> list[Edge]:
    """Every free edge sharing an end point with a road already on the board (RULING B3), in a stable order."""
    found: set[Edge] = set()
    for point in road_points(roads):
        for e in EDGES_AT[point]:
            if e not in roads:
                found.add(e)
    return sorted(found)


def is_connected(roads: frozenset[Edge]) -> bool:
    """Whether the roads form one network (an invariant: every road extends the network)."""
    if not roads:
        return True
    adjacency: dict[Point, list[Point]] = {}
    for i1, j1, i2, j2 in roads:
        adjacency.setdefault((i1, j1), []).append((i2, j2))
        adjacency.setdefault((i2, j2), []).append((i1, j1))
    start = next(iter(adjacency))
    seen = {start}
    todo = [start]
    while todo:
        for nxt in adjacency[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(adjacency)


def water_edges(river: frozenset[int]) -> frozenset[Edge]:
    """Edges with no land parcel on either side: a road there is a bridge (RULING V3)."""
    if not river:
        return frozenset()
    return frozenset(e for e in EDGES if all(i in river for i in PARCELS_BESIDE[e]))
