"""Where the Gold & Guns buildings may stand beyond the usual rules (`001` "New Buildings"): the station along a
road crossing the whole map (RULING G3), the schools one per side of the river with The River (R-GG-21).
Each rule is one row of SITE_RULES; a building without a row may stand wherever the usual rules allow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from app.rules.board import SIDES, SIZE, Edge, parcel_xy
from app.rules.catalog import RIVER_PARCELS
from app.rules.model import GameState, about_roads

# Every grid line of the map, as the SIZE edges that cross it from border to border (RULING B3 coordinates).
GRID_LINES: Final = tuple(
    frozenset((i, j, i + 1, j) if across else (j, i, j, i + 1) for i in range(SIZE))
    for j in range(SIZE + 1)
    for across in (True, False)
)


def beside_through_roads(roads: frozenset[Edge]) -> frozenset[int]:
    """Parcels with one of their four sides on a grid line roaded from border to border (RULING G3)."""
    sides = {e for line in GRID_LINES if line <= roads for e in line}
    return frozenset(i for i, parcel_sides in enumerate(SIDES) if sides.intersection(parcel_sides))


def _station(s: GameState, index: int) -> bool:
    return index in about_roads(s, beside_through_roads)


def _river_side(index: int) -> str | None:
    """North or south of The River: the river runs west to east through every column (RULING V3)."""
    x, y = parcel_xy(index)
    river_rows = [ry for rx, ry in RIVER_PARCELS if rx == x]
    if y in river_rows:
        return None
    return "north" if y < min(river_rows) else "south"


RIVER_SIDE: Final = tuple(_river_side(i) for i in range(SIZE * SIZE))


def _school(s: GameState, index: int) -> bool:
    """With The River, one school on each side (`001` "School")."""
    if not s.config.river:
        return True
    side = RIVER_SIDE[index]
    return not any(p.content == "school" and RIVER_SIDE[i] == side for i, p in enumerate(s.parcels))


SITE_RULES: Final[dict[str, Callable[[GameState, int], bool]]] = {"station": _station, "school": _school}


def may_stand(s: GameState, building: str, index: int) -> bool:
    """Whether `building`'s own placement rule allows parcel `index` (see SITE_RULES)."""
    rule = SITE_RULES.get(building)
    return rule is None or rule(s, index)
